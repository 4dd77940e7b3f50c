//! 2014 Speed Clue bots over TCP: a small Python bot through whole games,
//! launch lines as the contest's launch files wrote them, and a bot that
//! breaks the protocol.

use std::path::Path;
use std::time::Duration;

use clue_engine::{GameConfig, Outcome, SeatController, play};
use clue_plugin_api::{DqReason, Variant};
use clue_runtime::bots::builtin;
use clue_runtime::process::ProcessLimits;
use clue_runtime::process::speedclue::SpeedclueBot;

fn speedbot(id: Option<&str>) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/process_bots/speedbot.py");
    match id {
        Some(id) => format!("python3 {} {{{id}}} %%", script.display()),
        None => format!("python3 {}", script.display()),
    }
}

fn limits() -> ProcessLimits {
    ProcessLimits {
        startup: Duration::from_secs(20),
        message: Duration::from_secs(10),
        ..ProcessLimits::default()
    }
}

#[test]
fn python_tcp_bots_play_whole_games() {
    for (players, seed) in [(3u8, 1u64), (4, 2), (6, 3)] {
        let config = GameConfig::new(Variant::Speedclue, players);
        let mut seats: Vec<Box<dyn SeatController>> = Vec::new();
        for i in 0..players {
            if i < 2 {
                let id = format!("Holmes{i}");
                let launch = speedbot(if i == 0 { Some(&id) } else { None });
                seats.push(Box::new(
                    SpeedclueBot::spawn(&launch, &limits()).expect("starts"),
                ));
            } else {
                seats.push(builtin("notebook").expect("built-in"));
            }
        }
        let record = play(&config, seed, &mut seats).expect("valid");
        for seat in &record.seats {
            assert!(
                !matches!(seat.outcome, Outcome::Disqualified(_)),
                "{players} players: seat {} {:?} {:?}",
                seat.seat.0,
                seat.outcome,
                seat.detail
            );
        }
        assert!(record.winner.is_some() || record.rounds > 0);
    }
}

#[test]
fn a_wrong_alive_line_is_a_protocol_error() {
    let config = GameConfig::new(Variant::Speedclue, 3);
    let launch = "python3 -c 'import socket,sys,time; s=socket.create_connection((\"127.0.0.1\", int(sys.argv[2]))); s.sendall(b\"hello\\n\"); time.sleep(30)'";
    let bot = SpeedclueBot::spawn(launch, &limits()).expect("starts");
    let mut seats: Vec<Box<dyn SeatController>> = vec![
        Box::new(bot),
        builtin("notebook").expect("built-in"),
        builtin("clueless").expect("built-in"),
    ];
    let record = play(&config, 1, &mut seats).expect("valid");
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(DqReason::ProtocolError)
    );
    let detail = record.seats[0].detail.clone().unwrap_or_default();
    assert!(detail.contains("`hello`"), "{detail}");
}

#[test]
fn a_bot_that_never_connects_times_out() {
    let config = GameConfig::new(Variant::Speedclue, 3);
    let quick = ProcessLimits {
        startup: Duration::from_millis(300),
        ..limits()
    };
    let bot = SpeedclueBot::spawn("sh -c 'sleep 30'", &quick).expect("starts");
    let mut seats: Vec<Box<dyn SeatController>> = vec![
        Box::new(bot),
        builtin("notebook").expect("built-in"),
        builtin("clueless").expect("built-in"),
    ];
    let record = play(&config, 1, &mut seats).expect("valid");
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(DqReason::Timeout)
    );
}

//! A thousand short games with misbehaving process bots: each is disqualified
//! with the right label, and afterwards no process they started remains —
//! neither a child of this test nor anything in the bots' environment,
//! grandchildren forked by the bots included.
//!
//! This file holds one test so that no other test's bots run beside it.

use std::path::Path;
use std::time::{Duration, Instant};

use clue_engine::{GameConfig, Outcome, SeatController, play};
use clue_plugin_api::{DqReason, Variant};
use clue_runtime::bots::builtin;
use clue_runtime::process::ProcessLimits;
use clue_runtime::process::jsonl::JsonlBot;

const MODES: [(&str, DqReason); 9] = [
    ("silent", DqReason::Timeout),
    ("badhello", DqReason::ProtocolError),
    ("garbage", DqReason::ProtocolError),
    ("closes", DqReason::Crash),
    ("exits", DqReason::Crash),
    ("hangs", DqReason::Timeout),
    ("flood", DqReason::ProtocolError),
    ("longline", DqReason::ProtocolError),
    ("forks", DqReason::Crash),
];

const GAMES: usize = 1000;
const THREADS: usize = 4;

fn marker() -> String {
    format!("CLUE_REAP_TEST={}", std::process::id())
}

/// Processes that are children of this test or carry the bots' marker.
fn leftovers() -> Vec<String> {
    let me = std::process::id().to_string();
    let marker = marker();
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if !name.bytes().all(|b| b.is_ascii_digit()) || name == me {
            continue;
        }
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // pid (comm) state ppid pgrp ...
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let fields: Vec<&str> = after.split_whitespace().collect();
        let child = fields.get(1) == Some(&me.as_str());
        let environ = std::fs::read(entry.path().join("environ")).unwrap_or_default();
        let marked = environ
            .split(|&b| b == 0)
            .any(|var| var == marker.as_bytes());
        if child || marked {
            found.push(format!("{name}: {}", stat.trim()));
        }
    }
    found
}

#[test]
fn a_thousand_misbehaving_games_leave_no_process_behind() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/process_bots/misbehave.sh");
    let (name, value) = marker()
        .split_once('=')
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .unwrap();
    // Short limits only where a timeout is the expected label (a slow
    // machine can only make it later); the other modes are caught by what
    // the bot did, under limits no loaded machine reaches, so that their
    // label cannot become a `timeout`.
    let short = ProcessLimits {
        startup: Duration::from_millis(500),
        message: Duration::from_millis(250),
        max_line: 4096,
        max_output: 1 << 20,
        env: vec![(name, value)],
        ..ProcessLimits::default()
    };
    let long = ProcessLimits {
        startup: Duration::from_secs(60),
        message: Duration::from_secs(60),
        ..short.clone()
    };
    let started = Instant::now();
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..THREADS)
            .map(|t| {
                let (script, short, long) = (&script, &short, &long);
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    for game in (t..GAMES).step_by(THREADS) {
                        let (mode, reason) = MODES[game % MODES.len()];
                        let limits = if reason == DqReason::Timeout {
                            short
                        } else {
                            long
                        };
                        let command = format!("sh {} {mode}", script.display());
                        let config = GameConfig::new(Variant::Speedclue, 3);
                        let mut seats: Vec<Box<dyn SeatController>> = vec![
                            Box::new(JsonlBot::spawn(&command, limits).expect("starts")),
                            builtin("notebook").expect("built-in"),
                            builtin("clueless").expect("built-in"),
                        ];
                        let record = play(&config, game as u64, &mut seats).expect("valid");
                        drop(seats);
                        if record.seats[0].outcome != Outcome::Disqualified(reason) {
                            failures.push(format!(
                                "game {game} ({mode}): {:?} {:?}",
                                record.seats[0].outcome, record.seats[0].detail
                            ));
                        }
                    }
                    failures
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("thread"))
            .collect()
    });
    let elapsed = started.elapsed();
    assert!(
        failures.is_empty(),
        "{} wrong labels: {failures:#?}",
        failures.len()
    );
    // SIGKILLed grandchildren vanish as soon as init reaps them: the
    // deadline only gives a loaded machine time to do so.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut left = leftovers();
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        left = leftovers();
    }
    assert!(left.is_empty(), "processes left behind: {left:#?}");
    eprintln!("{GAMES} games in {elapsed:?}");
}

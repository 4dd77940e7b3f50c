//! `clue speedclue client --bot SPEC IDENTIFIER PORT`: any bot as an entrant
//! of a 2014 Speed Clue contest server. The host's own Speed Clue server
//! side launches `clue speedclue client --bot builtin:sleuth` the way the
//! contest launched entrants; the games finish without a disqualification,
//! replay identically, and are the very games `builtin:sleuth` plays in the
//! same seat. Server lines the entrant cannot read are errors that quote them.

use crate::contest_support;

use std::io::{Cursor, Read, Write};
use std::time::Duration;

use clue_engine::{GameConfig, GameRecord, Outcome, SeatController, play};
use clue_plugin_api::Variant;
use clue_runtime::bots::builtin;
use clue_runtime::process::ProcessLimits;
use clue_runtime::process::speedclue::SpeedclueBot;
use clue_runtime::process::speedclue_client::{self, EntrantOptions};

fn limits() -> ProcessLimits {
    ProcessLimits {
        startup: Duration::from_secs(20),
        message: Duration::from_secs(20),
        ..ProcessLimits::default()
    }
}

/// The launch line of the entrant, in the contest's launch-file form.
fn launch(spec: &str) -> String {
    format!(
        "{} speedclue client --bot {spec} {{Sleuth}} %%",
        env!("CARGO_BIN_EXE_clue")
    )
}

/// One 4-player game: the entrant at `seat`, notebook elsewhere (or
/// `builtin:sleuth` itself at `seat` when `entrant` is false).
fn game(seed: u64, seat: usize, entrant: bool) -> GameRecord {
    let config = GameConfig::new(Variant::Speedclue, 4);
    let seats: Vec<Box<dyn SeatController>> = (0..4)
        .map(|s| match (s == seat, entrant) {
            (true, true) => Box::new(
                SpeedclueBot::spawn(&launch("builtin:sleuth"), &limits()).expect("clue starts"),
            ) as Box<dyn SeatController>,
            (true, false) => builtin("sleuth").expect("built in"),
            (false, _) => builtin("notebook").expect("built in"),
        })
        .collect();
    let mut seats = seats;
    play(&config, seed, &mut seats).expect("valid game")
}

#[test]
fn sleuth_as_an_entrant_plays_whole_games_that_replay() {
    let mut won = 0;
    for seed in 0..4u64 {
        let seat = (seed % 4) as usize;
        let record = game(seed, seat, true);
        for s in &record.seats {
            assert!(
                !matches!(s.outcome, Outcome::Disqualified(_)),
                "seed {seed}: seat {} {:?} {:?}",
                s.seat.0,
                s.outcome,
                s.detail
            );
        }
        assert!(record.winner.is_some(), "seed {seed}: no winner");
        won += usize::from(record.winner.is_some_and(|w| w.index() == seat));
        let again = game(seed, seat, true);
        assert_eq!(record.log, again.log, "seed {seed}: the replay differs");
        assert_eq!(record.winner, again.winner);
        // The entrant sees what a seated bot sees: the same game as built in.
        let seated = game(seed, seat, false);
        assert_eq!(
            record.log, seated.log,
            "seed {seed}: differs from builtin:sleuth"
        );
    }
    eprintln!("the entrant won {won} of 4 games");
}

/// What the entrant wrote, one entry per write (it writes each message
/// whole, with no terminator, as the contest's server expects).
#[derive(Default)]
struct Said(Vec<String>);

impl Write for Said {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.push(String::from_utf8_lossy(buf).into_owned());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Plays the entrant in process against scripted server lines; what it
/// said, a message a line.
fn scripted(server: &str) -> (Result<speedclue_client::EntrantSummary, String>, String) {
    let mut said = Said::default();
    let options = EntrantOptions {
        id: "Sleuth".to_string(),
        seed: 0,
        contest_rules: true,
    };
    let seat = || builtin("sleuth").ok_or_else(|| "no sleuth".to_string());
    let result = speedclue_client::play(seat, Cursor::new(server.as_bytes()), &mut said, &options)
        .map_err(|e| e.to_string());
    let said = said.0.iter().map(|m| format!("{m}\n")).collect();
    (result, said)
}

fn check_error(server: &str, expected: &str) {
    let (result, said) = scripted(server);
    match result {
        Err(message) => assert_eq!(message, expected, "said:\n{said}"),
        Ok(summary) => panic!("expected `{expected}`, got {summary:?}; said:\n{said}"),
    }
}

const EXPECTED: &str =
    "`reset`, `suggest`, `disprove`, `suggestion`, `accuse`, `accusation` or `done`";

#[test]
fn server_lines_the_entrant_cannot_read_are_named() {
    check_error(
        "hello\n",
        &format!("server line 1 `hello`: expected {EXPECTED}"),
    );
    check_error(
        "suggest\n",
        "server line 1 `suggest`: expected `reset` (no game has begun)",
    );
    check_error(
        "reset 3 0 Pl Ro\n",
        "server line 1 `reset 3 0 Pl Ro`: expected a hand of 6 cards for player 0 of 3",
    );
    check_error(
        "reset 3 0 Pl Ro Ki Wh Ca Ba\ndisprove 1 Gr Kn Di\n",
        "server line 2 `disprove 1 Gr Kn Di`: expected a suggestion naming a card this player holds",
    );
    check_error(
        "reset 3 0 Pl Ro Ki Wh Ca Ba\nsuggestion 5 Gr Kn Di -\n",
        "server line 2 `suggestion 5 Gr Kn Di -`: expected players of this game",
    );
    check_error(
        "reset 3 0 Pl Ro Ki Wh Ca Ba\naccusation 1 Gr Kn Di maybe\n",
        &format!("server line 2 `accusation 1 Gr Kn Di maybe`: expected {EXPECTED}"),
    );
}

#[test]
fn the_entrant_answers_every_line_as_the_protocol_says() {
    let server = "reset 3 1 Pl Ro Ki Wh Ca Ba\n\
                  disprove 0 Pl Ro Ha\n\
                  suggestion 0 Pl Ro Ha 1 Ro\n\
                  suggest\n\
                  suggestion 1 Gr Kn Di 2 Kn\n\
                  accuse\n\
                  accusation 2 Mu Pi St -\n";
    let (result, said) = scripted(server);
    let summary = result.expect("plays");
    assert_eq!(summary.games, 1);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 8, "{said}");
    assert_eq!(lines[0], "Sleuth alive");
    assert_eq!(lines[1], "ok");
    assert!(lines[2] == "show Pl" || lines[2] == "show Ro", "{said}");
    assert_eq!(lines[3], "ok");
    assert!(lines[4].starts_with("suggest "), "{said}");
    assert_eq!(lines[4].split_whitespace().count(), 4, "{said}");
    assert_eq!(lines[5], "ok");
    assert_eq!(lines[6], "-", "nothing is known yet: {said}");
    assert_eq!(&lines[7..], ["ok"]);
    // `done` is answered with `dead`.
    let (_, said) = scripted(&format!("{server}done\n"));
    assert!(said.ends_with("ok\ndead\n"), "{said}");
}

/// The binary connects to the port, says `ID alive`, and exits with 2 and
/// the line quoted when the server sends garbage.
#[test]
fn the_binary_connects_and_reports_a_garbage_line() {
    let (child, mut stream) = connect_entrant("Ada");
    assert_eq!(contest_read(&mut stream), "Ada alive");
    stream.write_all(b"reset 4 2 Pl Ro Ki Wh").expect("sends");
    assert_eq!(contest_read(&mut stream), "ok");
    stream.write_all(b"suggest Pl\n").expect("sends");
    let output = child.wait_with_output().expect("ends");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("server line 2 `suggest Pl`: expected {EXPECTED}")),
        "{stderr}"
    );
}

/// `clue speedclue client --bot builtin:sleuth NAME PORT`, connected.
fn connect_entrant(name: &str) -> (std::process::Child, std::net::TcpStream) {
    contest_support::connect(|port| {
        [
            env!("CARGO_BIN_EXE_clue"),
            "speedclue",
            "client",
            "--bot",
            "builtin:sleuth",
            name,
        ]
        .iter()
        .map(|w| w.to_string())
        .chain([port.to_string()])
        .collect()
    })
}

/// One message as the contest's server reads it.
fn contest_read(stream: &mut std::net::TcpStream) -> String {
    contest_support::contest_read(stream).expect("reads (the hang guard is 20 s)")
}

/// A stand-in for the reading side of the contest's Java server
/// (`contestserver/Player.java`): messages sent with no terminator, each
/// answer taken from one read with NULs stripped and checked as it checks
/// them (`alive`, `ok`, `dead` case-insensitively and exactly; `suggest`
/// 16 characters, `accuse` 15 or `-`, `show` 7). `clue speedclue client
/// --bot builtin:sleuth` plays a series of scripted games under it.
#[test]
fn the_entrant_satisfies_the_contest_servers_reading_side() {
    let (child, mut stream) = connect_entrant("Sleuth");
    let alive = contest_read(&mut stream);
    assert!(alive.eq_ignore_ascii_case("Sleuth alive"), "`{alive}`");
    let mut exchange = |message: &str| -> String {
        stream.write_all(message.as_bytes()).expect("sends");
        contest_read(&mut stream)
    };
    let ok = |answer: String, to: &str| {
        assert!(answer.eq_ignore_ascii_case("ok"), "`{answer}` to `{to}`");
    };
    // The contest's deal: 18 cards one at a time from player 0.
    let hands = [
        [
            "Pl Ro Ki Wh Ca Ba",
            "Gr Kn Di Mu Pi Ha",
            "Pe Re Li Sc Wr Lo",
        ],
        [
            "Gr Kn Di Mu Pi Ha",
            "Pe Re Li Sc Wr Lo",
            "Pl Ro Ki Wh Ca Ba",
        ],
        [
            "Pe Re Li Sc Wr Lo",
            "Pl Ro Ki Wh Ca Ba",
            "Gr Kn Di Mu Pi Ha",
        ],
    ];
    for (game, hand) in hands.iter().enumerate() {
        let reset = format!("reset 3 {game} {}", hand[game]);
        ok(exchange(&reset), &reset);
        let suggest = exchange("suggest");
        assert!(
            suggest.len() == 16 && suggest[..8].eq_ignore_ascii_case("suggest "),
            "`{suggest}`"
        );
        let other = (game + 1) % 3;
        let line = format!(
            "suggestion {game} {} {other} {}",
            &suggest[8..],
            &suggest[8..10]
        );
        ok(exchange(&line), &line);
        let accuse = exchange("accuse");
        assert!(
            accuse == "-" || (accuse.len() == 15 && accuse[..7].eq_ignore_ascii_case("accuse ")),
            "`{accuse}`"
        );
        // A suggestion naming two of this player's cards: it chooses.
        let mine: Vec<&str> = hand[game].split(' ').collect();
        let (s, w) = (mine[0], mine[1]);
        let disprove = format!("disprove {other} {s} {w} St");
        let show = exchange(&disprove);
        assert!(
            show.len() == 7
                && show[..5].eq_ignore_ascii_case("show ")
                && [s, w].iter().any(|c| c.eq_ignore_ascii_case(&show[5..])),
            "`{show}` to `{disprove}`"
        );
        let line = format!("suggestion {other} {s} {w} St {game} {}", &show[5..]);
        ok(exchange(&line), &line);
        let line = format!("accusation {other} Gr Ca Ba +");
        ok(exchange(&line), &line);
    }
    let dead = exchange("done");
    assert!(dead.eq_ignore_ascii_case("dead"), "`{dead}`");
    drop(stream);
    let output = child.wait_with_output().expect("ends");
    assert!(output.status.success(), "{output:?}");
}

/// A server's reads: one chunk per `read`, as TCP may cut or join messages.
struct Chunks(std::collections::VecDeque<Vec<u8>>);

impl Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some(chunk) = self.0.pop_front() else {
            return Ok(0);
        };
        let n = chunk.len().min(buf.len());
        buf[..n].copy_from_slice(&chunk[..n]);
        if n < chunk.len() {
            self.0.push_front(chunk[n..].to_vec());
        }
        Ok(n)
    }
}

/// What the entrant says to a bare server whose messages arrive in these reads.
fn said_to_reads(reads: &[&str]) -> Vec<String> {
    let mut said = Said::default();
    let options = EntrantOptions {
        id: "Sleuth".to_string(),
        seed: 0,
        contest_rules: true,
    };
    let seat = || builtin("sleuth").ok_or_else(|| "no sleuth".to_string());
    let input = std::io::BufReader::new(Chunks(
        reads.iter().map(|r| r.as_bytes().to_vec()).collect(),
    ));
    let result = speedclue_client::play(seat, input, &mut said, &options);
    assert!(result.is_ok(), "{result:?}; said {:?}", said.0);
    said.0
}

/// TCP may deliver `suggestion 0 Gr Kn Di 2` as `suggest` and `ion 0 Gr Kn
/// Di 2`. Off its turn the entrant reads on; on its turn `suggest` is whole.
#[test]
fn a_server_message_cut_right_after_the_word_suggest_is_put_together() {
    let said = said_to_reads(&[
        "reset 3 1 Pl Ro Ki Wh Ca Ba",
        "suggest",
        "ion 0 Gr Kn Di 2",
        "suggest",
    ]);
    assert_eq!(said[..3], ["Sleuth alive", "ok", "ok"], "{said:?}");
    assert!(said[3].starts_with("suggest "), "{said:?}");
    assert_eq!(said.len(), 4, "{said:?}");
}

/// Two messages in one read (a server that did not wait for the answer):
/// each is answered in turn.
#[test]
fn two_server_messages_in_one_read_are_answered_in_turn() {
    let said = said_to_reads(&[
        "reset 3 1 Pl Ro Ki Wh Ca Badisprove 0 Pl Ro Ha",
        "suggestion 0 Pl Ro Ha 1 Roaccusation 0 Gr Kn Di -suggest",
    ]);
    assert_eq!(said.len(), 6, "{said:?}");
    assert_eq!(said[..2], ["Sleuth alive", "ok"]);
    assert!(said[2] == "show Pl" || said[2] == "show Ro", "{said:?}");
    assert_eq!(said[3..5], ["ok", "ok"]);
    assert!(said[5].starts_with("suggest "), "{said:?}");
}

/// Over a real socket: a `suggestion` cut after `suggest` with a pause
/// between the halves is one message; a bare `suggest` off turn (a server
/// whose turn order the entrant cannot follow) is taken as `suggest` once
/// nothing more comes for `SUGGEST_GRACE`.
#[test]
fn the_binary_reads_on_after_a_cut_suggest_and_takes_a_lone_one() {
    let (child, mut stream) = connect_entrant("Ada");
    stream.set_nodelay(true).expect("no delay");
    assert_eq!(contest_read(&mut stream), "Ada alive");
    stream
        .write_all(b"reset 3 2 Pl Ro Ki Wh Ca Ba")
        .expect("sends");
    assert_eq!(contest_read(&mut stream), "ok");
    stream.write_all(b"suggest").expect("sends");
    std::thread::sleep(Duration::from_millis(100));
    stream.write_all(b"ion 0 Gr Kn Di 1").expect("sends");
    assert_eq!(contest_read(&mut stream), "ok");
    // Player 1 moves next, but this server asks player 2.
    stream.write_all(b"suggest").expect("sends");
    let answer = contest_read(&mut stream);
    assert!(
        answer.len() == 16 && answer.starts_with("suggest "),
        "`{answer}`"
    );
    drop(stream);
    let output = child.wait_with_output().expect("ends");
    assert!(output.status.success(), "{output:?}");
}

//! `clue uniclue client --bot SPEC`: any bot as a UniClue client. The host's
//! judge (the same code as `clue uniclue serve`, byte-exact with the judges'
//! `test4`) grades `clue uniclue client --bot builtin:sleuth` over pipes on
//! many random deals; server lines the client cannot read are errors that
//! quote them.

use std::io::{Cursor, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

use clue_engine::{GameConfig, Outcome, SeatController, play};
use clue_plugin_api::Variant;
use clue_runtime::bots;
use clue_runtime::process::ProcessLimits;
use clue_runtime::process::uniclue::UniclueClient;
use clue_runtime::process::uniclue_client::{self, ClientOptions, Verdict};
use rand::{RngExt, SeedableRng};

const SAMPLE_CONFIG: &str = "4\nR2 S1 R1 W2 W1\nW4 W3 S3 R4 S4\nR6 S5 S6 R5\nR8 W6 R7 R9\n3\n5\n3\n4\n7\n2\n8\n6\n4\n9\n3\n1\n5\n7\n2\n";

fn client_command(spec: &str) -> String {
    format!("{} uniclue client --bot {spec}", env!("CARGO_BIN_EXE_clue"))
}

fn limits() -> ProcessLimits {
    ProcessLimits {
        startup: Duration::from_secs(20),
        message: Duration::from_secs(20),
        ..ProcessLimits::default()
    }
}

/// Random deals with 3 to 6 players, half of them with a random room
/// sequence: sleuth, through the client and the judge, solves every one in
/// fewer than 43 queries.
#[test]
fn sleuth_as_a_client_solves_random_deals_within_the_limit() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(2006);
    let mut most = 0;
    for players in 3..=6u8 {
        for seed in 0..12u64 {
            let mut config = GameConfig::new(Variant::Uniclue, players);
            if seed % 2 == 1 {
                config.uniclue.rooms = (0..30).map(|_| rng.random_range(1..=9)).collect();
            }
            let client = UniclueClient::spawn(&client_command("builtin:sleuth"), &limits())
                .expect("clue starts");
            let mut seats: Vec<Box<dyn SeatController>> = vec![Box::new(client)];
            let record = play(&config, seed, &mut seats).expect("valid game");
            let seat = &record.seats[0];
            assert_eq!(
                seat.outcome,
                Outcome::Won,
                "{players} players, seed {seed}: {:?}",
                seat.detail
            );
            assert!(seat.suggestions < 43, "{} queries", seat.suggestions);
            most = most.max(seat.suggestions);
        }
    }
    eprintln!("most queries in one game: {most}");
}

/// The judges' sample configuration through `clue uniclue serve`, the
/// `test4` drop-in, with the client as its program.
#[test]
fn serve_grades_the_client_on_the_sample() {
    let dir = tempfile::tempdir().expect("scratch dir");
    let config = dir.path().join("sample4.in");
    let transcript = dir.path().join("transcript.txt");
    std::fs::write(&config, SAMPLE_CONFIG).expect("config");
    let output = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["uniclue", "serve"])
        .arg(&config)
        .arg(&transcript)
        .arg("--")
        .arg(client_command("builtin:sleuth"))
        .output()
        .expect("clue runs");
    let text = std::fs::read_to_string(&transcript).expect("transcript");
    assert!(output.status.success(), "{output:?}\n{text}");
    assert!(text.starts_with("\t\tC\n4\nR2 S1 R1 W2 W1\n3\n"), "{text}");
    assert!(text.ends_with("\t\tA253\nVictory\n"), "{text}");
}

/// Plays the client in process against scripted server lines.
fn scripted(server: &str) -> (Result<uniclue_client::ClientOutcome, String>, String) {
    let mut bot = bots::builtin("sleuth").expect("built in");
    let mut said = Vec::new();
    let result = uniclue_client::play(
        bot.as_mut(),
        Cursor::new(server.as_bytes()),
        &mut said,
        &ClientOptions::default(),
    )
    .map_err(|e| e.to_string());
    (result, String::from_utf8_lossy(&said).into_owned())
}

fn check_error(server: &str, expected: &str) {
    let (result, said) = scripted(server);
    match result {
        Err(message) => assert_eq!(message, expected, "said:\n{said}"),
        Ok(outcome) => panic!("expected `{expected}`, got {outcome:?}; said:\n{said}"),
    }
}

#[test]
fn server_lines_the_client_cannot_read_are_named() {
    check_error(
        "seven\n",
        "server line 1 `seven`: expected the number of players (3 to 6)",
    );
    check_error(
        "4\nbanana\n",
        "server line 2 `banana`: expected the client's hand (distinct cards like S1 W2 R3)",
    );
    check_error(
        "4\nR2 R2 R1 W2 W1\n",
        "server line 2 `R2 R2 R1 W2 W1`: expected the client's hand (distinct cards like S1 W2 R3)",
    );
    check_error(
        "4\nR2 S1 R1 W2 W1\n10\n",
        "server line 3 `10`: expected a room number (1 to 9)",
    );
    // After the first query: the answer must come from player 2 and show a queried card.
    check_error(
        "4\nR2 S1 R1 W2 W1\n3\n3--\n",
        "server line 4 `3--`: expected player 2's answer (`2--` or `2` and a queried card)",
    );
    check_error(
        "4\nR2 S1 R1 W2 W1\n3\n2--\n3--\n4R9\n",
        "server line 6 `4R9`: expected player 4's answer (`4--` or `4` and a queried card)",
    );
    check_error(
        "4\nR2 S1 R1 W2 W1\n3\n2--\n3--\n4--\nnowhere\n",
        "server line 7 `nowhere`: expected a room number (1 to 9)",
    );
    check_error(
        "4\nR2 S1 R1 W2 W1\n3\n",
        "the server closed the connection while the client waited for an answer to the query",
    );
}

#[test]
fn the_client_asks_for_the_configuration_first_and_queries_its_room() {
    let (result, said) = scripted("4\nR2 S1 R1 W2 W1\n3\nDisqualified\n");
    let outcome = result.expect("a verdict");
    assert_eq!(outcome.verdict, Verdict::Disqualified);
    assert_eq!(outcome.queries, 1);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 2, "{said}");
    assert_eq!(lines[0], "C");
    assert!(
        lines[1].starts_with('Q') && lines[1].ends_with('3') && lines[1].len() == 4,
        "{said}"
    );
}

/// The binary prints the error naming the line and exits with 2.
#[test]
fn the_binary_reports_a_garbage_line_and_exits_2() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["uniclue", "client", "--bot", "builtin:sleuth"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("clue runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(b"4\nR2 S1 R1 W2 W1\nthree\n")
        .expect("written");
    let output = child.wait_with_output().expect("ends");
    assert_eq!(output.status.code(), Some(2), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "C\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("server line 3 `three`: expected a room number (1 to 9)"),
        "{stderr}"
    );
}

#[test]
fn an_unknown_bot_is_refused() {
    let output = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["uniclue", "client", "--bot", "builtin:nobody"])
        .stdin(Stdio::null())
        .output()
        .expect("clue runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unknown built-in bot `nobody`"), "{stderr}");
}

//! Framework bots (`seeds/000`) through real processes: the Java example
//! (compiled here with javac) through whole games, a scripted bot using
//! every reply form, misbehaving bots with the label each earns, and
//! `clue framework` itself.

use crate::compiled;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;

use clue_engine::{GameConfig, GameRecord, Outcome, SeatController, play};
use clue_plugin_api::{DqReason, Event, Position, Seat, Variant};
use clue_runtime::bots::builtin;
use clue_runtime::process::framework::FrameworkBot;
use clue_runtime::process::{OWN_PRINT, ProcessLimits};

/// A 10x10 board in the protocol's table form: room 0 starts at the top
/// left corner with a hallway cell beside it; the far corner is hallway.
const TABLE: &str = "Board 10 10
1 0 0 0 0 0 0 0 0 2
1 0 0 3 3 0 0 0 0 2
0 0 0 0 0 0 4 0 0 0
0 5 5 0 0 0 4 0 0 0
0 0 0 0 0 0 0 0 0 0
0 0 6 6 6 0 0 7 0 0
0 0 0 0 0 0 0 7 0 0
8 0 0 0 9 9 0 0 0 0
8 0 0 0 0 0 0 0 10 0
0 0 0 0 0 0 0 0 10 0
";

/// A scratch directory, removed when the guard drops.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a scratch directory");
    // The sandboxed bot runs as an unprivileged uid: its folder must be
    // readable by others (a tempfile folder is 0700).
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
        .expect("the scratch directory opens up");
    dir
}

fn limits() -> ProcessLimits {
    ProcessLimits {
        startup: Duration::from_secs(20),
        message: Duration::from_secs(10),
        ..ProcessLimits::default()
    }
}

/// The Java example, compiled once (and kept while its source is unchanged); its command line.
fn java_bot() -> String {
    static CLASSES: OnceLock<PathBuf> = OnceLock::new();
    let dir = CLASSES.get_or_init(|| {
        let source = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../plugins/java-framework-example/FrameworkBot.java");
        compiled::cached(&source, |source, into| {
            let status = Command::new("javac")
                .arg("-d")
                .arg(into)
                .arg(source)
                .status()
                .expect("javac runs");
            assert!(status.success(), "javac failed");
        })
    });
    format!("java -cp {} FrameworkBot", dir.display())
}

fn script(mode: &str, log: Option<&Path>) -> String {
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/process_bots/framework_script.py");
    match log {
        Some(log) => format!("python3 {} {mode} {}", script.display(), log.display()),
        None => format!("python3 {} {mode}", script.display()),
    }
}

fn table_config(players: u8) -> GameConfig {
    let mut config = GameConfig::new(Variant::Framework, players);
    config.framework.table = Some(TABLE.to_string());
    config
}

/// Plays `command` at seat 0 against built-in bots.
fn play_first(config: &GameConfig, seed: u64, command: &str) -> GameRecord {
    play_first_with(config, seed, command, &limits())
}

/// [`play_first`] for a script that keeps a transcript for the test: it
/// writes outside its own folder, which the sandbox forbids (the zoo tests
/// that), so it runs with the sandbox off, the opt-out an organiser has too.
fn play_first_keeping_a_transcript(config: &GameConfig, seed: u64, command: &str) -> GameRecord {
    let limits = ProcessLimits {
        sandbox: clue_runtime::sandbox::SandboxPolicy::off(),
        ..limits()
    };
    play_first_with(config, seed, command, &limits)
}

fn play_first_with(
    config: &GameConfig,
    seed: u64,
    command: &str,
    limits: &ProcessLimits,
) -> GameRecord {
    let bot = FrameworkBot::spawn(command, limits).expect("starts");
    let mut seats: Vec<Box<dyn SeatController>> = vec![Box::new(bot)];
    for i in 1..config.players {
        let name = if i % 2 == 1 { "notebook" } else { "clueless" };
        seats.push(builtin(name).expect("built-in"));
    }
    play(config, seed, &mut seats).expect("valid")
}

fn detail(record: &GameRecord, seat: usize) -> String {
    record.seats[seat].detail.clone().unwrap_or_default()
}

#[test]
fn the_java_example_plays_whole_games() {
    let java = java_bot();
    let (mut games, mut won) = (0, 0);
    for (players, seed) in [(2u8, 1u64), (3, 2), (4, 3), (3, 4), (2, 5), (5, 6)] {
        let config = GameConfig::new(Variant::Framework, players);
        let record = play_first(&config, seed, &java);
        for seat in &record.seats {
            assert!(
                !matches!(
                    seat.outcome,
                    Outcome::Disqualified(_) | Outcome::WrongAccusation
                ),
                "{players} players, seed {seed}: seat {} {:?} {:?}",
                seat.seat.0,
                seat.outcome,
                seat.detail
            );
        }
        assert!(
            record.seats[0].suggestions > 0,
            "seed {seed}: never guessed"
        );
        games += 1;
        won += usize::from(record.winner == Some(Seat(0)));
    }
    eprintln!("the Java example won {won} of {games} games");
    assert!(won >= 1, "the Java example never won");
}

#[test]
fn java_examples_play_each_other_to_a_correct_accusation() {
    let java = java_bot();
    let config = GameConfig::new(Variant::Framework, 3);
    let mut seats: Vec<Box<dyn SeatController>> = (0..3)
        .map(|_| {
            Box::new(FrameworkBot::spawn(&java, &limits()).expect("starts"))
                as Box<dyn SeatController>
        })
        .collect();
    let record = play(&config, 11, &mut seats).expect("valid");
    let winner = record.winner.expect("someone wins");
    assert_eq!(record.seats[winner.index()].outcome, Outcome::Won);
    let correct = record.log.iter().any(|e| {
        matches!(
            e.event,
            Event::Accused { seat, correct: Some(true), .. } if seat == winner
        )
    });
    assert!(correct, "the winner did not accuse correctly");
    for seat in &record.seats {
        assert!(
            !matches!(seat.outcome, Outcome::Disqualified(_)),
            "{seat:?}"
        );
    }
}

#[test]
fn every_reply_form_is_understood() {
    let dir = scratch();
    let log = dir.path().join("log.txt");
    let config = table_config(3);
    let record = play_first_keeping_a_transcript(&config, 1, &script("every-form", Some(&log)));
    let transcript = std::fs::read_to_string(&log).expect("log");
    assert!(
        record.seats[0].outcome == Outcome::WrongAccusation,
        "{:?} {}",
        record.seats[0].outcome,
        detail(&record, 0)
    );
    // Guess, then Move with a guess: two guesses, both in room 0.
    assert_eq!(record.seats[0].suggestions, 5, "{transcript}");
    for expected in [
        "< ID 0",
        "< Playercount 3",
        "< Board 10 10",
        "< 1 0 0 0 0 0 0 0 0 2",
        "< Name",
        "> Script every-form",
        "< Roomname 0 ",
        "< Weaponname 6 0 ",
        "< Personname 6 5 ",
        "> Guess 0 0 0",
        "> Move 0 0 1 1 0",
        "> Move 0 1",
        "> Move 0 0 2 2 0",
        "> Guess 3 3 0",
        "> Guess 4 4 0",
        "> Accusation 0 0 0",
        "< Opponent 1 ",
        "< Disprove ",
        "> Disprove ",
    ] {
        assert!(
            transcript.contains(expected),
            "no `{expected}` in\n{transcript}"
        );
    }
    // Both answer forms were used, and were accepted (the seat was never disqualified).
    let bare = transcript
        .lines()
        .filter_map(|l| l.strip_prefix(">   "))
        .any(|l| l.trim().parse::<i8>().is_ok());
    assert!(bare, "no bare answer in\n{transcript}");
    let cards = transcript
        .lines()
        .filter(|l| l.starts_with("< Card ") && !l.contains("From"))
        .count();
    assert_eq!(cards, record.hands[0].len());
    // The engine saw the moves the bot wrote.
    let moved: Vec<_> = record
        .log
        .iter()
        .filter_map(|e| match e.event {
            Event::Moved { seat: Seat(0), to } => Some(to),
            _ => None,
        })
        .collect();
    assert_eq!(
        moved,
        [
            Position::Cell { row: 0, col: 0 },
            Position::Cell { row: 0, col: 0 },
            Position::Cell { row: 0, col: 1 },
            Position::Cell { row: 0, col: 0 },
            Position::Cell { row: 0, col: 0 },
            Position::Cell { row: 0, col: 0 },
        ]
    );
}

#[test]
fn the_suggester_is_shown_the_card_and_the_others_who_showed() {
    let dir = scratch();
    let log = dir.path().join("log.txt");
    let record =
        play_first_keeping_a_transcript(&table_config(3), 1, &script("every-form", Some(&log)));
    let transcript = std::fs::read_to_string(&log).expect("log");
    for entry in &record.log {
        if let Event::Answered {
            suggester,
            shown_by: Some(by),
            card: Some(_),
            ..
        } = entry.event
        {
            let line = if suggester == Seat(0) {
                format!("< Card From {} ", by.0)
            } else {
                format!("< Disproved {}", by.0)
            };
            assert!(transcript.contains(&line), "no `{line}` in\n{transcript}");
        }
    }
    let wrong = record.log.iter().any(|e| {
        matches!(
            e.event,
            Event::Accused {
                seat: Seat(0),
                correct: Some(false),
                ..
            }
        )
    });
    assert!(wrong, "seat 0 accused rightly by chance");
    assert!(transcript.contains("< Accusation 0 0 0 0"), "{transcript}");
    let winner = record.winner.expect("someone wins");
    assert!(
        transcript.contains(&format!("< Win {}", winner.0)),
        "{transcript}"
    );
}

fn check_dq(mode: &str, reason: DqReason, quoted: &str) {
    let record = play_first(&table_config(3), 5, &script(mode, None));
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(reason),
        "{mode}: {}",
        detail(&record, 0)
    );
    assert!(
        detail(&record, 0).contains(quoted),
        "{mode}: `{quoted}` not in `{}`",
        detail(&record, 0)
    );
}

/// A line that is no command at all is most likely the bot's own print:
/// it is told where that goes; a command gone wrong is not.
#[test]
fn a_garbage_line_is_a_protocol_error_quoting_it() {
    check_dq("garbage", DqReason::ProtocolError, "`Hello there`");
    check_dq("garbage", DqReason::ProtocolError, OWN_PRINT);
    check_dq("chatty", DqReason::ProtocolError, "sent `got Move ");
    check_dq("chatty", DqReason::ProtocolError, OWN_PRINT);
    let record = play_first(&table_config(3), 5, &script("half-move", None));
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(DqReason::ProtocolError)
    );
    let detail = detail(&record, 0);
    assert!(
        detail.starts_with("sent `Move ") && detail.ends_with("or `Accusation p w r`)"),
        "{detail}"
    );
}

#[test]
fn a_move_into_a_room_without_a_guess_is_an_invalid_move() {
    check_dq("no-guess", DqReason::InvalidMove, "declined a suggestion");
}

#[test]
fn a_move_beyond_the_roll_is_an_invalid_move() {
    check_dq("too-far", DqReason::InvalidMove, "not one of the");
}

#[test]
fn a_move_off_the_board_is_an_invalid_move() {
    check_dq("off-board", DqReason::InvalidMove, "off the 10x10 board");
}

#[test]
fn minus_one_while_holding_a_card_is_an_invalid_response() {
    let record = play_first(&table_config(3), 5, &script("liar", None));
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(DqReason::InvalidResponse),
        "{}",
        detail(&record, 0)
    );
    // The cards it held are named as the protocol numbers them.
    let said = detail(&record, 0);
    assert!(
        said.starts_with("said it could not disprove while holding a matching card (")
            && ["(person ", "(weapon ", "(room "]
                .iter()
                .any(|w| said.contains(w)),
        "{said}"
    );
    // The engine answered for it truthfully: the suggester was shown a card.
    let answered = record.log.iter().any(|e| {
        matches!(
            e.event,
            Event::Answered {
                shown_by: Some(Seat(0)),
                card: Some(_),
                ..
            }
        )
    });
    assert!(answered);
}

#[test]
fn clue_framework_runs_one_game_and_logs_it() {
    let dir = scratch();
    let table = dir.path().join("board.txt");
    std::fs::write(&table, TABLE).expect("table");
    let log = dir.path().join("game.jsonl");
    let output = Command::new(env!("CARGO_BIN_EXE_clue"))
        .arg("framework")
        .arg(java_bot())
        .arg(script("every-form", None))
        .arg("builtin:notebook")
        .args(["--seed", "4", "--persons", "7", "--weapons", "5", "--table"])
        .arg(&table)
        .arg("--log")
        .arg(&log)
        .output()
        .expect("clue runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{output:?}");
    assert!(stdout.contains("framework:java -cp"), "{stdout}");
    assert!(stdout.contains("builtin:notebook"), "{stdout}");
    let logged = std::fs::read_to_string(&log).expect("log written");
    assert!(logged.contains("\"variant\":\"framework\""), "{logged}");

    let random = Command::new(env!("CARGO_BIN_EXE_clue"))
        .arg("framework")
        .arg(java_bot())
        .arg(java_bot())
        .args(["--seed", "2", "--width", "7", "--quiet"])
        .output()
        .expect("clue runs");
    let stdout = String::from_utf8_lossy(&random.stdout);
    assert!(random.status.success(), "{random:?}");
    assert!(
        stdout.starts_with("winner: seat") || stdout.starts_with("no winner"),
        "{stdout}"
    );
}

/// A broken table, given to `clue framework` or `clue play`: its file, line
/// and column, as a board's layout and setup files are named.
#[test]
fn a_broken_table_names_its_file_line_and_column() {
    let dir = scratch();
    let cases = [
        (
            "Board 5 5\n0 0 1 1 2\n0 x 1 1 2\n",
            ":3:3: `x` is not a number",
        ),
        (
            "0 0 1 1 2\n0 0 1 1 2 3\n3 3 4 4 5\n3 3 4 4 5\n0 0 0 0 0\n",
            ":2:11: 6 numbers; the board is 5 wide",
        ),
        (
            "0 0 1 1 2\n0 0 1 1 2\n3 3 4 9 5\n3 3 4 4 5\n0 0 0 0 0\n",
            ":3:7: room 8 does not exist (there are 5 rooms)",
        ),
        (
            "0 0 1 1 2\n0 0 1 1\n3 3 4 4 5\n3 3 4 4 5\n0 0 0 0 0\n",
            ":2: 4 numbers; the board is 5 wide",
        ),
        (
            "0 0 1 1 2\n",
            ": the table has 1 rows; the board is square and at least 5 wide",
        ),
    ];
    for (i, (text, place_and_message)) in cases.into_iter().enumerate() {
        let table = dir.path().join(format!("table{i}.txt"));
        std::fs::write(&table, text).expect("table");
        let expected = format!("error: bad board: {}{place_and_message}", table.display());
        for args in [
            &["framework", "builtin:notebook", "builtin:clueless"][..],
            &["play", "--variant", "framework", "--players", "2"][..],
        ] {
            let output = Command::new(env!("CARGO_BIN_EXE_clue"))
                .args(args)
                .arg("--table")
                .arg(&table)
                .output()
                .expect("clue runs");
            assert_eq!(output.status.code(), Some(2), "{args:?} {output:?}");
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(stderr.trim_end(), expected, "{args:?}");
        }
    }
}

#[test]
fn clue_framework_needs_two_bots_and_a_wide_board() {
    let one = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["framework", "python3 bot.py"])
        .output()
        .expect("clue runs");
    assert_eq!(one.status.code(), Some(2));
    let narrow = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args([
            "framework",
            "builtin:notebook",
            "builtin:clueless",
            "--width",
            "4",
        ])
        .output()
        .expect("clue runs");
    assert_eq!(narrow.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&narrow.stderr);
    assert!(stderr.contains("width of at least 5"), "{stderr}");
}

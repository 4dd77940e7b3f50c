//! `tracing` through `clue` (docs/logging.md): the span tree of a game with
//! `RUST_LOG=debug`, `--log-format json` lines that parse, a
//! disqualification's event with its label and the bot's exact line, and
//! nothing new on stderr at the default level.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Runs `clue` with `RUST_LOG` set (or removed when `None`).
fn clue(args: &[&str], rust_log: Option<&str>) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_clue"));
    command.args(args).current_dir(root());
    match rust_log {
        Some(filter) => command.env("RUST_LOG", filter),
        None => command.env_remove("RUST_LOG"),
    };
    let output = command.output().expect("clue runs");
    assert!(
        output.status.success(),
        "clue {args:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn rust_log_debug_shows_game_seat_and_call_spans_with_their_fields() {
    let log = stderr(&clue(&["play", "--quiet", "--seed", "3"], Some("debug")));
    let call = log
        .lines()
        .find(|line| line.contains("replied") && line.contains(":call{"))
        .unwrap_or_else(|| panic!("no call's reply in the log:\n{log}"));
    // game > seat > call, each with its fields.
    let game = call.find("game{").expect("a game span");
    let seat = call.find(":seat{").expect("a seat span");
    let request = call.find(":call{request=").expect("a call span");
    assert!(game < seat && seat < request, "span order in {call}");
    assert!(call.contains("seed=3"), "{call}");
    assert!(
        call.contains("seats=builtin:notebook,builtin:clueless"),
        "{call}"
    );
    assert!(call.contains("bot=builtin:"), "{call}");
    assert!(call.contains("kind=\"builtin\""), "{call}");
    assert!(call.contains("runtime=\"in-process\""), "{call}");
    assert!(call.contains("duration_us="), "{call}");
    assert!(
        log.contains("request=\"begin-game\""),
        "no begin-game call:\n{log}"
    );
}

#[test]
fn log_format_json_writes_one_parsable_object_a_line() {
    let output = clue(
        &[
            "play",
            "--quiet",
            "--seed",
            "3",
            "--log-format",
            "json",
            "-vv",
        ],
        None,
    );
    let log = stderr(&output);
    let mut calls = 0;
    for line in log.lines() {
        let value: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
        assert!(value["level"].is_string(), "{line}");
        assert!(value["fields"].is_object(), "{line}");
        if value["fields"]["message"] == "replied" {
            calls += 1;
            let names: Vec<&str> = value["spans"]
                .as_array()
                .expect("a span list")
                .iter()
                .filter_map(|span| span["name"].as_str())
                .collect();
            assert_eq!(names, ["game", "seat", "call"], "{line}");
            assert!(value["fields"]["duration_us"].is_u64(), "{line}");
            assert_eq!(value["spans"][0]["seed"], 3, "{line}");
        }
    }
    assert!(calls > 0, "no call events in:\n{log}");
    // The account on stdout is untouched by the logs.
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("winner"));
}

#[test]
fn a_disqualification_event_carries_the_label_and_the_bots_exact_line() {
    let bot = format!(
        "jsonl:sh {} garbage",
        root()
            .join("host/runtime/tests/process_bots/misbehave.sh")
            .display()
    );
    let log = stderr(&clue(
        &["play", "--quiet", "--seed", "3", "--bot", &bot, "-v"],
        None,
    ));
    let event = log
        .lines()
        .find(|line| line.contains("disqualified"))
        .unwrap_or_else(|| panic!("no disqualification in:\n{log}"));
    assert!(event.contains("label=\"protocol-error\""), "{event}");
    assert!(event.contains("this is not json"), "{event}");
    assert!(event.contains("seat=0"), "{event}");
}

#[test]
fn the_default_level_prints_nothing_on_stderr_for_a_game() {
    let output = clue(&["play", "--seed", "3"], None);
    assert_eq!(stderr(&output), "");
    assert!(!output.stdout.is_empty());
}

/// The README's main command is `clue tournament run FILE`: at the default
/// level it writes the report on stdout and nothing on stderr, even when a
/// bot is built, a process bot is spawned and a bot is disqualified (each of
/// which is an event at `-v` and above).
#[test]
fn the_default_level_prints_nothing_on_stderr_for_a_tournament() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let misbehave = root().join("host/runtime/tests/process_bots/misbehave.sh");
    let file = dir.path().join("tournament.yaml");
    std::fs::write(
        &file,
        format!(
            "variant: speedclue\nplayers: 3\nseed: 5\nconcurrency: 1\n\
             store: results.sqlite\n\
             schedule:\n  kind: all-seatings\n  repeats: 1\n\
             bots:\n\
             \x20 - {{ name: notebook, kind: builtin, path: notebook }}\n\
             \x20 - {{ name: clueless, kind: builtin, path: clueless }}\n\
             \x20 - {{ name: sleuth, kind: builtin, path: sleuth }}\n\
             \x20 - name: garbage\n\
             \x20   kind: jsonl\n\
             \x20   command: sh {} garbage\n\
             \x20   build: \"true\"\n",
            misbehave.display()
        ),
    )
    .expect("the tournament file is written");
    let run = |verbose: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_clue"));
        command
            .args(["tournament", "run"])
            .arg(&file)
            .args(verbose)
            .current_dir(dir.path())
            .env_remove("RUST_LOG");
        let output = command.output().expect("clue runs");
        assert!(
            output.status.success(),
            "clue tournament run failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        output
    };
    let quiet = run(&[]);
    assert_eq!(stderr(&quiet), "", "stderr at the default level");
    let report = String::from_utf8_lossy(&quiet.stdout);
    assert!(report.contains("garbage"), "no report on stdout:\n{report}");
    // The same run at -v (resumed: nothing left to play, so a fresh store)
    // shows the events the default level hides.
    std::fs::remove_file(dir.path().join("results.sqlite")).expect("the store is removed");
    let log = stderr(&run(&["-v"]));
    assert!(log.contains("building"), "no building event at -v:\n{log}");
    assert!(
        log.contains("disqualified"),
        "no disqualification event at -v:\n{log}"
    );
}

/// A UniClue client's calls are logged like every other bot's: its seat is
/// seated through the same first-fault wrapper, which makes the `call`
/// spans.
#[test]
fn a_uniclue_clients_calls_get_their_spans() {
    let client = format!(
        "uniclue:{} uniclue client --bot builtin:sleuth",
        env!("CARGO_BIN_EXE_clue")
    );
    let args = [
        "play",
        "--quiet",
        "--variant",
        "uniclue",
        "--players",
        "3",
        "--bot",
    ];
    let log = stderr(&clue(
        &[&args[..], &[client.as_str()]].concat(),
        Some("debug"),
    ));
    let call = log
        .lines()
        .find(|line| line.contains("replied") && line.contains(":call{request=\"accuse\""))
        .unwrap_or_else(|| panic!("no accuse call's reply in the log:\n{log}"));
    assert!(call.contains("kind=\"uniclue\""), "{call}");
    assert!(call.contains("duration_us="), "{call}");
}

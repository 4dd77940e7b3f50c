//! JSON-lines process bots: the Python example through whole games, and
//! every misbehaviour disqualified with the right label.

use std::path::{Path, PathBuf};
use std::time::Duration;

use clue_engine::{GameConfig, GameRecord, Outcome, SeatController, play};
use clue_plugin_api::{DqReason, Variant};
use clue_runtime::bots::builtin;
use clue_runtime::process::ProcessLimits;
use clue_runtime::process::jsonl::JsonlBot;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python_example() -> String {
    format!(
        "python3 {}",
        root().join("plugins/python-example/bot.py").display()
    )
}

fn misbehave(mode: &str) -> String {
    format!(
        "sh {} {mode}",
        root()
            .join("host/runtime/tests/process_bots/misbehave.sh")
            .display()
    )
}

fn patient() -> ProcessLimits {
    ProcessLimits {
        startup: Duration::from_secs(20),
        message: Duration::from_secs(10),
        ..ProcessLimits::default()
    }
}

fn strict() -> ProcessLimits {
    ProcessLimits {
        startup: Duration::from_secs(5),
        message: Duration::from_millis(300),
        max_line: 4096,
        max_output: 1 << 20,
        ..ProcessLimits::default()
    }
}

/// Plays `config` with `commands` in the first seats and built-in bots after.
fn game(config: &GameConfig, commands: &[String], limits: &ProcessLimits) -> GameRecord {
    let seats = clue_engine::acting_seats(config);
    let mut bots: Vec<Box<dyn SeatController>> = Vec::new();
    for command in commands {
        bots.push(Box::new(JsonlBot::spawn(command, limits).expect("starts")));
    }
    for i in commands.len()..seats {
        let name = if i % 2 == 0 { "notebook" } else { "clueless" };
        bots.push(builtin(name).expect("built-in"));
    }
    play(config, 11, &mut bots).expect("valid game")
}

fn assert_clean(record: &GameRecord) {
    for seat in &record.seats {
        assert!(
            !matches!(seat.outcome, Outcome::Disqualified(_)),
            "seat {} disqualified: {:?} {:?}",
            seat.seat.0,
            seat.outcome,
            seat.detail
        );
    }
}

#[test]
fn python_example_plays_speedclue() {
    let config = GameConfig::new(Variant::Speedclue, 4);
    let record = game(&config, &[python_example(), python_example()], &patient());
    assert_clean(&record);
}

#[test]
fn python_example_plays_generalized() {
    let mut config = GameConfig::new(Variant::Generalized, 3);
    config.generalized.items = 14;
    config.generalized.hidden = 2;
    let record = game(&config, &[python_example(), python_example()], &patient());
    assert_clean(&record);
}

#[test]
fn python_example_wins_uniclue() {
    let config = GameConfig::new(Variant::Uniclue, 4);
    let record = game(&config, &[python_example()], &patient());
    assert_clean(&record);
    assert_eq!(record.seats[0].outcome, Outcome::Won);
}

/// Seat 0 runs `misbehave.sh MODE`; it must be disqualified with `reason`
/// and a detail containing `detail`.
///
/// Only a bot expected to time out gets the short limits: a slow machine can
/// only make it later. Every other misbehaviour is caught by what the bot
/// did (a line, a closed pipe, an exit), so it gets limits no loaded machine
/// reaches, and its label cannot turn into a `timeout`.
fn check(mode: &str, reason: DqReason, detail: &str) {
    let config = GameConfig::new(Variant::Speedclue, 3);
    let limits = if reason == DqReason::Timeout {
        strict()
    } else {
        ProcessLimits {
            startup: Duration::from_secs(60),
            message: Duration::from_secs(60),
            ..strict()
        }
    };
    let record = game(&config, &[misbehave(mode)], &limits);
    let seat = &record.seats[0];
    assert_eq!(
        seat.outcome,
        Outcome::Disqualified(reason),
        "{mode}: {:?}",
        seat.detail
    );
    let said = seat.detail.clone().unwrap_or_default();
    assert!(said.contains(detail), "{mode}: `{said}` lacks `{detail}`");
}

/// The detail of `bot`'s timeout in seat 0, under the short limits.
fn timeout_of(bot: &str) -> String {
    let record = game(
        &GameConfig::new(Variant::Speedclue, 3),
        &[bot.to_string()],
        &strict(),
    );
    let said = record.seats[0].detail.clone().unwrap_or_default();
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(DqReason::Timeout),
        "{said}"
    );
    said
}

#[test]
fn a_bot_that_never_says_hello_times_out() {
    check("silent", DqReason::Timeout, "no hello within");
    // It sleeps: nothing suggests a reply stuck in its buffer.
    let said = timeout_of(&misbehave("silent"));
    assert!(!said.contains("flush"), "{said}");
}

#[test]
fn a_bot_waiting_for_input_when_it_owes_a_reply_is_told_to_flush() {
    check(
        "waits",
        DqReason::Timeout,
        "no reply to `begin-game` within 300 ms; it was waiting to read its stdin, as if it \
         had answered: a line it printed but did not flush stays in its buffer",
    );
    check(
        "waits",
        DqReason::Timeout,
        "`System.out.flush()`), or it wrote none (a request its code passes over?)",
    );
}

#[test]
fn a_python_bot_that_does_not_flush_is_told_how_to() {
    // The commonest first bot: `print` without `flush=True` works at a
    // terminal and sits in Python's buffer on a pipe.
    let bot = "python3 -c 'import sys, json\n\
print(json.dumps({\"hello\": \"clue-arena\", \"protocol\": \"1.0\", \"name\": \"nb\"}))\n\
for line in sys.stdin: pass'";
    let said = timeout_of(bot);
    assert!(
        said.starts_with("no hello within 5000 ms; it was waiting to read its stdin")
            && said.contains("Python's `print(..., flush=True)` or `python3 -u`"),
        "{said}"
    );
    // Its program is Python's: other languages' ways are not listed.
    assert!(
        !said.contains("Java's") && !said.contains("fflush"),
        "{said}"
    );
}

/// A Python bot run with `-u` has no buffer to flush: a reply it never
/// wrote is what is left.
#[test]
fn an_unbuffered_python_bot_that_skips_a_request_is_not_told_to_flush() {
    let bot = "python3 -u -c 'import sys, json\n\
print(json.dumps({\"hello\": \"clue-arena\", \"protocol\": \"1.0\", \"name\": \"nb\"}))\n\
for line in sys.stdin: pass'";
    let said = timeout_of(bot);
    assert_eq!(
        said,
        "no reply to `begin-game` within 300 ms; it was waiting to read its stdin, as if it \
         had answered: it wrote no reply to `begin-game` (a request its code passes over, or \
         an error caught and passed over)"
    );
}

/// Perl's STDOUT is block-buffered on a pipe too, and `$|` is its switch.
#[test]
fn a_perl_bot_that_does_not_flush_is_told_its_own_way() {
    let bot = "perl -e 'print qq({\"hello\":\"clue-arena\",\"protocol\":\"1.0\",\"name\":\"pl\"}\\n);\n\
while (<STDIN>) {}'";
    let said = timeout_of(bot);
    assert!(
        said.starts_with("no hello within 5000 ms; it was waiting to read its stdin")
            && said.contains("such as Perl's `$| = 1;` before the first `print`)"),
        "{said}"
    );
}

#[test]
fn a_node_bot_that_skips_a_request_is_told_its_event_loop_waits_for_the_host() {
    // A Node bot whose `line` handler has no case for `begin-game`: Node
    // writes a pipe at once and waits in `epoll_pwait`, not in `read`.
    let bot = "node -e 'console.log(JSON.stringify({hello: \"clue-arena\", protocol: \"1.0\", name: \"nb\"}));\n\
require(\"readline\").createInterface({input: process.stdin}).on(\"line\", line => {\n\
  const message = JSON.parse(line);\n\
  if (message.request === \"suggest\") console.log(\"{}\");\n\
});'";
    let said = timeout_of(bot);
    assert!(
        said.starts_with(
            "no reply to `begin-game` within 300 ms; it was waiting in its event loop for its \
             stdin, with no timer pending, as if it had answered: it wrote no reply to \
             `begin-game` (a request its code passes over, or an error caught and passed \
             over)"
        ),
        "{said}"
    );
    // Node writes a pipe at once: flushing is not the matter.
    assert!(!said.contains("flush"), "{said}");
    // A Node bot with a timer of its own may be waiting for that: no hint.
    let ticking = bot.replace("});'", "});\nsetInterval(() => {}, 60000);'");
    let said = timeout_of(&ticking);
    assert!(
        said.starts_with("no reply to `begin-game` within 300 ms") && !said.contains("waiting"),
        "{said}"
    );
}

#[test]
fn a_bot_that_selects_its_stdin_and_skips_a_request_is_told_it_waits_in_its_event_loop() {
    // A Python bot that waits for its stdin in `select` (glibc's
    // `pselect6`), as C bots of the contests did, with no case for
    // `begin-game`.
    let bot = |wait: &str| {
        format!(
            "python3 -c 'import json, select, sys\n\
print(json.dumps({{\"hello\": \"clue-arena\", \"protocol\": \"1.0\", \"name\": \"sel\"}}), flush=True)\n\
while True:\n\
\x20   {wait}\n\
\x20   message = json.loads(sys.stdin.readline())\n\
\x20   if message.get(\"request\") == \"suggest\": print(\"{{}}\", flush=True)\n'"
        )
    };
    let said = timeout_of(&bot("select.select([sys.stdin], [], [])"));
    assert!(
        said.starts_with(
            "no reply to `begin-game` within 300 ms; it was waiting in its event loop for its \
             stdin, with no timer pending, as if it had answered: it wrote no reply to \
             `begin-game` (a request its code passes over, or an error caught and passed \
             over), or one it printed is still in its buffer (stdout is a pipe, not a \
             terminal: flush after each line, such as Python's `print(..., flush=True)` or \
             `python3 -u`)"
        ),
        "{said}"
    );
    // With a time limit it may be waiting for that: no hint.
    let said = timeout_of(&bot("select.select([sys.stdin], [], [], 600)"));
    assert!(
        said.starts_with("no reply to `begin-game` within 300 ms") && !said.contains("waiting"),
        "{said}"
    );
}

/// A bot whose reader thread waits for the next line while its main thread
/// computes is busy, not waiting for the host: no hint. When its main
/// thread too waits (for the reader's queue), it is told.
#[test]
fn a_bot_whose_reader_thread_waits_while_it_computes_is_not_told_it_waits() {
    let bot = |on_begin: &str| {
        format!(
            "python3 -c 'import json, queue, sys, threading\n\
lines = queue.Queue()\n\
def read():\n\
\x20   for line in sys.stdin: lines.put(line)\n\
threading.Thread(target=read, daemon=True).start()\n\
print(json.dumps({{\"hello\": \"clue-arena\", \"protocol\": \"1.0\", \"name\": \"th\"}}), flush=True)\n\
while True:\n\
\x20   message = json.loads(lines.get())\n\
\x20   if message.get(\"request\") == \"begin-game\":\n\
\x20       {on_begin}\n'"
        )
    };
    let said = timeout_of(&bot("while True: pass"));
    assert!(
        said.starts_with("no reply to `begin-game` within 300 ms") && !said.contains("waiting"),
        "{said}"
    );
    let said = timeout_of(&bot("pass"));
    assert!(
        said.starts_with(
            "no reply to `begin-game` within 300 ms; it was waiting to read its stdin, as if it \
             had answered"
        ),
        "{said}"
    );
}

#[test]
fn another_protocol_version_is_a_protocol_error() {
    check("badhello", DqReason::ProtocolError, "9.0");
}

#[test]
fn a_card_given_by_its_name_is_a_protocol_error_that_gives_its_number() {
    check(
        "names",
        DqReason::ProtocolError,
        "(invalid type: string \"Mr. Green\", expected u16",
    );
    check(
        "names",
        DqReason::ProtocolError,
        "; a card is a number, its index into the `setup.deck.cards` of `begin-game`: \
         `Mr. Green` is ",
    );
}

/// A suggestion's cards given bare, without their `cards` list: JSON, but
/// not a reply of the protocol; the detail shows the shape it takes.
#[test]
fn a_reply_of_the_wrong_shape_is_shown_the_right_one() {
    check(
        "flat",
        DqReason::ProtocolError,
        r#"sent `{"reply":"suggest","suggestion":[1,7,14]}` in answer to `suggest` ("#,
    );
    check(
        "flat",
        DqReason::ProtocolError,
        r#"; a reply to `suggest` is `{"reply":"suggest","suggestion":{"cards":[PERSON,WEAPON,ROOM]}}`"#,
    );
}

#[test]
fn a_wrong_hello_is_quoted() {
    check("nothello", DqReason::ProtocolError, "`HELO there`");
    // Most often a debugging `print`: where it belongs is said.
    check(
        "nothello",
        DqReason::ProtocolError,
        "stdout carries the protocol's lines alone: write the bot's own messages to stderr",
    );
}

#[test]
fn garbage_is_a_protocol_error_quoting_the_line() {
    check(
        "garbage",
        DqReason::ProtocolError,
        "sent `this is not json` in answer to `",
    );
    check(
        "garbage",
        DqReason::ProtocolError,
        "; stdout carries the protocol's lines alone: write the bot's own messages to stderr",
    );
}

#[test]
fn closing_stdout_is_a_crash() {
    check("closes", DqReason::Crash, "closed its output");
}

#[test]
fn exiting_is_a_crash_with_the_status() {
    check("exits", DqReason::Crash, "status 3");
    // And with the request it left unanswered (whether the host saw the
    // exit itself or only the end of its output first).
    check(
        "exits",
        DqReason::Crash,
        " before its reply to `begin-game`",
    );
}

/// A bot whose program ends cleanly in the middle of the game is told that
/// status 0 is a program that ran to its end. (Its child keeps its stdout
/// open, so that the host sees the exit itself and its status every time.)
#[test]
fn a_clean_exit_mid_game_says_the_program_ran_to_its_end() {
    check(
        "ends",
        DqReason::Crash,
        "exited with status 0 before its reply to `begin-game`; status 0 is a normal end, so \
         its program ran to its end: a bot reads the host's lines until its stdin ends",
    );
}

/// A hello after a byte-order mark (.NET's UTF-8 writes one first) is a
/// hello: the host then waits for the reply to `begin-game`.
#[test]
fn a_byte_order_mark_before_the_hello_is_ignored() {
    check(
        "bom",
        DqReason::Timeout,
        "no reply to `begin-game` within 300 ms",
    );
}

/// A reply written whole, flushed, but with no newline after it, and then
/// a read: the host waits for the line's end as the bot waits for the
/// host, and the timeout quotes what came and says to end the line.
#[test]
fn a_line_with_no_newline_is_quoted_when_the_bot_times_out() {
    check(
        "unended",
        DqReason::Timeout,
        "no hello within 5000 ms; it wrote \
         `{\"hello\":\"clue-arena\",\"protocol\":\"1.0\",\"name\":\"misbehave\"}` and no \
         newline after it, and the host reads whole lines: end each line with one",
    );
}

/// A bot that is not waiting for the host may be in the middle of its line
/// when its time runs out: what it wrote is quoted, with no advice.
#[test]
fn a_line_cut_off_by_the_time_limit_is_quoted_as_it_stands() {
    let said = timeout_of(&misbehave("midline"));
    assert_eq!(
        said,
        "no hello within 5000 ms; it had written `{\"hello\":` and no newline after it yet"
    );
}

/// A hello written to stderr, where the host does not look for it. (The
/// hello, not a reply: its 5 s leave the host's stderr reader all the time
/// it needs on a loaded machine.)
#[test]
fn a_line_written_to_stderr_is_pointed_out() {
    check(
        "tostderr",
        DqReason::Timeout,
        "no hello within 5000 ms; the last line of its stderr is \
         `{\"hello\":\"clue-arena\",\"protocol\":\"1.0\",\"name\":\"misbehave\"}`, which \
         belongs on stdout: the host reads the protocol's lines there alone",
    );
    // A bot that says nothing on stderr is not told of it.
    let said = timeout_of(&misbehave("hangs"));
    assert!(!said.contains("stderr"), "{said}");
}

#[test]
fn hanging_is_a_timeout() {
    check("hangs", DqReason::Timeout, "no reply to `");
}

#[test]
fn flooding_is_a_protocol_error() {
    check("flood", DqReason::ProtocolError, "");
}

#[test]
fn a_never_ending_line_is_a_protocol_error() {
    check("longline", DqReason::ProtocolError, "longer than the cap");
}

#[test]
fn exiting_while_children_hold_stdout_is_still_a_crash() {
    check("forks", DqReason::Crash, "status 4");
}

#[test]
fn a_missing_program_is_an_error_at_start() {
    let error = JsonlBot::spawn("/nonexistent/bot --flag", &strict()).err();
    let message = error.map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("/nonexistent/bot"), "{message}");
}

#[test]
fn stderr_is_kept_up_to_the_cap() {
    let limits = ProcessLimits {
        max_stderr: 10,
        ..strict()
    };
    let command = "sh -c 'echo 0123456789abcdef >&2; sleep 100'";
    let mut bot = JsonlBot::spawn(command, &limits).expect("starts");
    let stderr = JsonlBot::stderr(&bot);
    let request = clue_plugin_api::Request::Watch {
        event: clue_plugin_api::Event::Disqualified {
            seat: clue_plugin_api::Seat(1),
            reason: DqReason::Timeout,
        },
    };
    let fault = bot.call(&request).expect_err("no hello");
    assert_eq!(fault.reason, DqReason::Timeout);
    let text = stderr.text();
    assert!(text.starts_with("0123456789\n["), "{text}");
    assert!(text.contains("7 more bytes dropped"), "{text}");
}

#[test]
fn a_disqualified_bots_stderr_is_in_the_record_and_the_account() {
    let config = GameConfig::new(Variant::Speedclue, 3);
    let record = game(&config, &[misbehave("complains")], &patient());
    let seat = &record.seats[0];
    assert_eq!(seat.outcome, Outcome::Disqualified(DqReason::Crash));
    let stderr = seat.stderr.clone().unwrap_or_default();
    assert!(
        stderr.contains("misbehave: I give up on this request"),
        "{stderr:?}"
    );
    // Built-in bots have no stderr to keep.
    assert_eq!(record.seats[1].stderr, None);

    // `clue play` shows it under the disqualified seat.
    let account = played_account("complains");
    assert!(
        account.contains("its stderr (last 1 lines):\n    | misbehave: I give up on this request"),
        "{account}"
    );
}

/// What `clue play` prints for a 3-player Speed Clue game with the
/// `misbehave.sh` bot of `mode` in seat 0.
fn played_account(mode: &str) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["play", "--variant", "speedclue", "--players", "3", "--bot"])
        .arg(format!("jsonl:{}", misbehave(mode)))
        .output()
        .expect("clue runs");
    assert!(output.status.success(), "{output:?}");
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// A hostile bot's terminal escape sequences (clear the screen, rewrite the
/// line above with a forged result, set the clipboard) reach `clue play`'s
/// account escaped, never raw: the organiser's terminal is the host's.
#[test]
fn a_bots_escape_sequences_are_shown_escaped_in_the_account() {
    let account = played_account("escapes");
    assert!(
        !account.contains('\u{1b}') && !account.contains('\u{7}'),
        "a raw escape reached the terminal: {account:?}"
    );
    assert!(
        account.contains("    | \\u{1b}[2J\\u{1b}[1A\\u{1b}[2Kseat 0: rank 1, won"),
        "{account}"
    );
    assert!(
        account.contains("\\u{1b}]52;c;aGk=\\u{7}"),
        "the line it sent, escaped: {account}"
    );
}

#[test]
fn a_well_behaved_bots_stderr_is_kept_and_does_not_break_a_replay() {
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let log = scratch.path().join("game.jsonl");
    let bot = format!("jsonl:sh -c 'date +%N >&2; exec {}'", python_example());
    let play = std::process::Command::new(env!("CARGO_BIN_EXE_clue"))
        .args([
            "play",
            "--quiet",
            "--variant",
            "speedclue",
            "--players",
            "3",
            "--bot",
            &bot,
            "--log",
        ])
        .arg(&log)
        .output()
        .expect("clue runs");
    assert!(play.status.success(), "{play:?}");
    let text = std::fs::read_to_string(&log).expect("the log is written");
    assert!(
        text.contains("\"stderr\""),
        "the log keeps the bot's stderr"
    );
    // The stderr differs on the replay (a timestamp); the game does not.
    let replay = std::process::Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["replay"])
        .arg(&log)
        .output()
        .expect("clue runs");
    let said = String::from_utf8_lossy(&replay.stdout);
    assert!(
        replay.status.success() && said.contains("identical"),
        "{replay:?}"
    );
}

//! A tournament with a hostile bot of the zoo (sandbox-tests/zoo) at every
//! table, in each sandboxing runtime: every game is played to its end and
//! recorded, the hostile bot is disqualified with its named reason in each,
//! the other bots' games are intact, and no process is left behind.

mod game_checks;
mod zoo_support;

use std::sync::atomic::AtomicBool;

use clue_arena::config;
use clue_arena::runner::{self, RunOptions, SpecConnector};
use clue_arena::store::Store;
use game_checks::assert_reached_its_end;
use zoo_support::*;

/// Three bots, three seats, every seating once: six games, each with the
/// hostile bot at the table.
fn tournament_file(hostile: &str) -> String {
    format!(
        "variant: speedclue
players: 3
seed: 8
concurrency: 2
limits: {{time_per_call_ms: {}, memory_mb: {}}}
schedule: {{kind: all-seatings, repeats: 1}}
bots:
  - {{name: notebook, kind: builtin, path: notebook}}
  - {{name: clueless, kind: builtin, path: clueless}}
  - {hostile}
",
        LIMIT.as_millis(),
        NATIVE_MEMORY >> 20
    )
}

/// Runs the tournament with `hostile` (a `bots:` entry named `hostile`) and
/// checks every game it played.
fn check(hostile: &str, reason: &str) {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let file = dir.path().join("hostile.yaml");
    let text = tournament_file(hostile);
    std::fs::write(&file, &text).expect("the tournament file is written");
    let t = config::parse(&text, &file.to_string_lossy(), dir.path())
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut store = Store::open(&dir.path().join("results.sqlite")).expect("the store opens");
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        stop: &stop,
        watch: &runner::Unwatched,
        standings_every: None,
    };
    let summary = runner::run(&t, &mut store, &SpecConnector, &options).expect("the run ends");
    assert_eq!((summary.played, summary.stopped), (6, false), "{hostile}");
    let games = store.games().expect("the games are stored");
    assert_eq!(games.len(), 6, "{hostile}");
    for game in &games {
        for seat in &game.seats {
            if seat.bot.as_deref() == Some("hostile") {
                assert_eq!(
                    (seat.outcome.as_str(), seat.dq_reason.as_deref()),
                    ("disqualified", Some(reason)),
                    "{hostile}, game {}: {:?}",
                    game.index,
                    seat.detail
                );
            } else {
                assert_ne!(
                    seat.outcome, "disqualified",
                    "{hostile}, game {}: {seat:?}",
                    game.index
                );
            }
        }
        assert_reached_its_end(&store, game, &format!("{hostile}, "));
    }
}

#[test]
fn a_tournament_with_a_hostile_bot_at_every_table_plays_every_game() {
    built();
    // An endless loop in a process bot: cut off at the limit.
    check(
        &format!(
            "{{name: hostile, kind: jsonl, command: \"{} loop-respond\"}}",
            built().join("debug/zoo-process").display()
        ),
        "timeout",
    );
    // A native plugin that allocates until its worker's memory cap stops it.
    // Caught by what it did, so given a time no loaded machine reaches before
    // the cap (touching 512 MiB took over the 1 s limit once, under load).
    check(
        &format!(
            "{{name: hostile, kind: native, path: \"{}\", limits: {{time_per_call_ms: 60000}}}}",
            native_library("allocate").display()
        ),
        "out-of-memory",
    );
    // A wasm component that floods its stdout.
    check(
        &format!(
            "{{name: hostile, kind: wasm, path: \"{}\"}}",
            wasm_component("flood-stdout").display()
        ),
        "protocol-error",
    );
    // A native plugin that aborts its worker.
    check(
        &format!(
            "{{name: hostile, kind: native, path: \"{}\"}}",
            native_library("abort").display()
        ),
        "crash",
    );
    assert!(
        eventually(std::time::Duration::from_secs(60), || children().is_empty()),
        "child processes left: {:?}",
        children()
    );
}

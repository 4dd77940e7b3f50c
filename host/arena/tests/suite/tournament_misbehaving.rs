//! A misbehaving bot at every table: every game still completes, the bot is
//! disqualified with the right reason, and the report counts it.

use std::sync::atomic::AtomicBool;

use clue_arena::config::{self, BotEntry};
use clue_arena::runner::{self, Connector, RunOptions};
use clue_arena::stats;
use clue_arena::store::Store;
use clue_engine::{Fault, SeatController};
use clue_plugin_api::{DqReason, Reply, Request};
use clue_runtime::bots;

/// How the `bad` bot misbehaves.
#[derive(Clone, Copy)]
enum Misbehaviour {
    /// Replies with the wrong kind of reply.
    WrongReply,
    /// Times out on every call.
    Timeout,
    /// Panics on its first real decision.
    Panic,
    /// Cannot even be started.
    NoStart,
    /// Writes its last words to stderr and crashes on its first decision.
    LastWords,
}

struct Bad(Misbehaviour);

impl SeatController for Bad {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        match (self.0, request) {
            (Misbehaviour::WrongReply, Request::BeginGame { .. }) => Ok(Reply::Ok),
            (Misbehaviour::WrongReply, _) => Ok(Reply::Respond { card: None }),
            (Misbehaviour::Timeout, _) => Err(Fault::new(DqReason::Timeout, "no reply in 10 ms")),
            (Misbehaviour::Panic, Request::BeginGame { .. } | Request::Watch { .. }) => {
                Ok(Reply::Ok)
            }
            (Misbehaviour::Panic, _) => panic!("index out of bounds"),
            (Misbehaviour::NoStart, _) => Ok(Reply::Ok),
            (Misbehaviour::LastWords, Request::BeginGame { .. } | Request::Watch { .. }) => {
                Ok(Reply::Ok)
            }
            (Misbehaviour::LastWords, _) => {
                Err(Fault::new(DqReason::Crash, "exited with status 3"))
            }
        }
    }

    fn stderr(&self) -> Option<String> {
        matches!(self.0, Misbehaviour::LastWords).then(|| LAST_WORDS.to_string())
    }
}

const LAST_WORDS: &str = "cannot open model.bin\n";

/// Seats `bad` as the misbehaving controller, the others as usual.
struct WithBad(Misbehaviour);

impl Connector for WithBad {
    fn connect(&self, bot: &BotEntry) -> Result<Box<dyn SeatController>, Fault> {
        if bot.name != "bad" {
            return bots::connect(&bot.spec)
                .map_err(|e| Fault::new(DqReason::Crash, e.to_string()));
        }
        match self.0 {
            Misbehaviour::NoStart => Err(Fault::new(DqReason::Crash, "exec: no such file")),
            m => Ok(Box::new(Bad(m))),
        }
    }
}

const FILE: &str = "variant: speedclue
players: 3
seed: 5
concurrency: 2
schedule: {kind: all-seatings, repeats: 2}
bots:
  - {name: notebook, kind: builtin, path: notebook}
  - {name: clueless, kind: builtin, path: clueless}
  - {name: bad, kind: builtin, path: clueless}
";

/// Plays the tournament with `bad` misbehaving; its store, in a scratch
/// folder that lives as long as the guard.
fn play(misbehaviour: Misbehaviour) -> (tempfile::TempDir, Store) {
    let t = config::parse(FILE, "bad.yaml", ".".as_ref()).unwrap();
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let db = scratch.path().join("tournament.sqlite");
    let mut store = Store::open(&db).unwrap();
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        stop: &stop,
        watch: &runner::Unwatched,
        standings_every: None,
    };
    let summary = runner::run(&t, &mut store, &WithBad(misbehaviour), &options).unwrap();
    assert_eq!((summary.played, summary.stopped), (12, false));
    (scratch, store)
}

fn check(misbehaviour: Misbehaviour, reasons: &[&str]) {
    let (_scratch, store) = play(misbehaviour);
    let games = store.games().unwrap();
    assert_eq!(games.len(), 12);
    for g in &games {
        let bad = g
            .seats
            .iter()
            .find(|s| s.bot.as_deref() == Some("bad"))
            .unwrap();
        assert_eq!(bad.outcome, "disqualified", "game {}", g.index);
        let reason = bad.dq_reason.as_deref().unwrap();
        assert!(reasons.contains(&reason), "game {}: {reason}", g.index);
        assert!(bad.detail.is_some());
        // The game went on: the others played it out.
        assert!(g.rounds >= 1);
    }
    let meta = store.require_meta().unwrap();
    let report = stats::compute(&meta.bots, &meta.settings, &games);
    let counted: u32 = report
        .total
        .disqualifications
        .iter()
        .filter(|d| d.bot == "bad")
        .map(|d| d.count)
        .sum();
    assert_eq!(counted, 12);
    let bad = report
        .total
        .standings
        .iter()
        .find(|s| s.bot == "bad")
        .unwrap();
    assert_eq!((bad.games, bad.wins, bad.disqualified), (12, 0, 12));
}

#[test]
fn a_bot_with_the_wrong_reply_is_a_protocol_error_every_game() {
    check(Misbehaviour::WrongReply, &["protocol-error"]);
}

#[test]
fn a_bot_that_times_out_is_disqualified_every_game() {
    check(Misbehaviour::Timeout, &["timeout"]);
}

#[test]
fn a_bot_that_panics_is_a_crash_not_a_crashed_tournament() {
    check(Misbehaviour::Panic, &["crash"]);
}

#[test]
fn a_bot_that_does_not_start_still_gets_its_games_played() {
    check(Misbehaviour::NoStart, &["crash"]);
}

/// What a bot wrote to stderr is kept in every stored game's record, as
/// `clue play` keeps it: the tournament's meter passes it on.
#[test]
fn a_crashed_bots_stderr_is_kept_in_each_stored_game() {
    check(Misbehaviour::LastWords, &["crash"]);
    let (_scratch, store) = play(Misbehaviour::LastWords);
    for g in store.games().unwrap() {
        let seat = g
            .seats
            .iter()
            .find(|s| s.bot.as_deref() == Some("bad"))
            .unwrap()
            .seat;
        let summary = store
            .log(g.index)
            .unwrap()
            .summary
            .expect("a finished game");
        let kept = &summary.seats[usize::from(seat)];
        assert_eq!(kept.stderr.as_deref(), Some(LAST_WORDS), "game {}", g.index);
        let others = summary.seats.iter().filter(|s| s.seat != kept.seat);
        assert!(
            others.into_iter().all(|s| s.stderr.is_none()),
            "game {}",
            g.index
        );
    }
}

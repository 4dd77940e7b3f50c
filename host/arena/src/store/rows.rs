//! A finished game as the store's rows: its seats' outcomes and details as
//! the report reads them, and its log deflated.

use std::io::Write;

use super::{FinishedGame, GameInsert, SeatInsert};
use crate::config::Tournament;
use crate::logfile::GameLog;

/// The `games` and `seats` rows of `game`, a game of `t`.
pub(super) fn game_insert(game: &FinishedGame, t: &Tournament) -> GameInsert {
    let record = &game.record;
    let specs: Vec<_> = game.seats.iter().map(|&b| t.bots[b].spec.clone()).collect();
    let log = compress(&GameLog::from_record(record, &specs));
    let seats = record
        .seats
        .iter()
        .map(|s| {
            let i = s.seat.index();
            let bot = game.seats.get(i).map(|&b| &t.bots[b]);
            let meter = game.meters.get(i);
            let (outcome, dq_reason) = outcome_label(&s.outcome);
            SeatInsert {
                seat: i64::from(s.seat.0),
                bot: bot.map(|b| b.name.clone()),
                spec: bot.map(|b| b.spec.to_string()),
                outcome,
                dq_reason,
                detail: stored_detail(s),
                rank: i64::from(s.rank),
                turns: i64::from(s.turns),
                calls: i64::from(s.calls),
                suggestions: i64::from(s.suggestions),
                wall_ns: meter.map_or(0, |m| m.wall.as_nanos() as i64),
                max_call_ns: meter.map_or(0, |m| m.max_call.as_nanos() as i64),
                fuel: meter.and_then(|m| m.fuel).map(|f| f as i64),
                max_call_fuel: meter.and_then(|m| m.max_call_fuel).map(|f| f as i64),
            }
        })
        .collect();
    GameInsert {
        index: game.index as i64,
        setting: game.setting as i64,
        seed: game.seed as i64,
        variant: record.config.variant.name().to_string(),
        players: record.config.players as i64,
        winner: record.winner.map(|s| i64::from(s.0)),
        rounds: i64::from(record.rounds),
        wall_ms: game.wall.as_secs_f64() * 1000.0,
        log,
        seats,
    }
}

/// The outcome label and the disqualification reason, as stored.
pub fn outcome_label(outcome: &clue_engine::Outcome) -> (String, Option<String>) {
    use clue_engine::Outcome;
    match outcome {
        Outcome::Won => ("won".into(), None),
        Outcome::Lost => ("lost".into(), None),
        Outcome::WrongAccusation => ("wrong-accusation".into(), None),
        Outcome::GuessedRight => ("guessed-right".into(), None),
        Outcome::Disqualified(r) => ("disqualified".into(), Some(r.label().to_string())),
    }
}

fn compress(log: &GameLog) -> Vec<u8> {
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let _ = log.write_to(&mut enc);
    let _ = enc.flush();
    enc.finish().unwrap_or_default()
}

/// A seat's `detail` as the store keeps it for the report: what the bot did
/// wrong and, for a disqualified bot that wrote to stderr, the end of it
/// (often why: "can't open file 'bot.py'"), which the game's log keeps
/// whole.
fn stored_detail(seat: &clue_engine::SeatRecord) -> Option<String> {
    let tail = match (&seat.outcome, seat.stderr.as_deref()) {
        (clue_engine::Outcome::Disqualified(_), Some(stderr)) => stderr_tail(stderr),
        _ => String::new(),
    };
    match (&seat.detail, tail.is_empty()) {
        (detail, true) => detail.clone(),
        (Some(detail), false) => Some(format!("{detail}; its stderr ends: {tail}")),
        (None, false) => Some(format!("its stderr ends: {tail}")),
    }
}

/// The last few lines a bot wrote to stderr, on one line.
fn stderr_tail(stderr: &str) -> String {
    clue_runtime::process::last_lines(stderr, 3, 300)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clue_engine::{Outcome, SeatRecord};
    use clue_plugin_api::{DqReason, Seat};

    fn seat(outcome: Outcome, detail: Option<&str>, stderr: Option<&str>) -> SeatRecord {
        SeatRecord {
            seat: Seat(0),
            outcome,
            rank: 1,
            detail: detail.map(String::from),
            turns: 0,
            calls: 1,
            suggestions: 0,
            stderr: stderr.map(String::from),
        }
    }

    #[test]
    fn a_disqualified_seats_stored_detail_ends_with_its_stderr() {
        let crash = Outcome::Disqualified(DqReason::Crash);
        let said =
            "starting\n\nTraceback (most recent call last):\n  File \"bot.py\"\nKeyError: 'x'\n";
        assert_eq!(
            stored_detail(&seat(crash, Some("exited with status 1"), Some(said))).as_deref(),
            Some(
                "exited with status 1; its stderr ends: Traceback (most recent call last): | \
                 File \"bot.py\" | KeyError: 'x'"
            )
        );
        assert_eq!(
            stored_detail(&seat(crash, None, Some("gone\n"))).as_deref(),
            Some("its stderr ends: gone")
        );
        // Nothing written, or not disqualified: the detail as it was.
        for (outcome, stderr) in [
            (crash, Some(" \n")),
            (crash, None),
            (Outcome::Lost, Some("chatter")),
        ] {
            assert_eq!(
                stored_detail(&seat(outcome, Some("d"), stderr)).as_deref(),
                Some("d")
            );
        }
        // A long tail keeps its end, where the reason usually is.
        let long = format!("{}END", "x".repeat(1000));
        let tail = stderr_tail(&long);
        assert!(tail.starts_with("...") && tail.ends_with("xEND"), "{tail}");
        assert_eq!(tail.chars().count(), 303);
    }
}

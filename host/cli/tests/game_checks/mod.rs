//! Checks shared by the tests that play whole games or tournaments: the
//! variants every-variant tests play, and what a stored game must show.

#![allow(dead_code)]

use clue_arena::store::{GameRow, Store};
use clue_plugin_api::{Event, Variant};

/// Every variant, with a table size it allows.
pub const EVERY_VARIANT: [(Variant, u8); 7] = [
    (Variant::Classic, 4),
    (Variant::Csci306, 6),
    (Variant::Framework, 3),
    (Variant::Uniclue, 4),
    (Variant::Generalized, 3),
    (Variant::Cyberclue, 4),
    (Variant::Speedclue, 4),
];

/// Asserts that stored game `game` was played to its end (its log's last
/// event is the game's end); `context` leads the failure message.
pub fn assert_reached_its_end(store: &Store, game: &GameRow, context: &str) {
    let log = store.log(game.index).expect("the game's log is stored");
    assert!(
        matches!(
            log.entries.last().map(|e| &e.event),
            Some(Event::GameOver { .. })
        ),
        "{context}game {}: the game did not reach its end",
        game.index
    );
}

/// Asserts that no seat of stored game `game` was disqualified.
pub fn assert_none_disqualified(game: &GameRow, context: &str) {
    for seat in &game.seats {
        assert_ne!(
            seat.outcome, "disqualified",
            "{context}game {}: {seat:?}",
            game.index
        );
    }
}

//! `generalized`: sleuth against two `notebook`s, the race of issue 18.

use crate::common;

use clue_engine::{GameConfig, Outcome};
use clue_plugin_api::{Event, Seat, Variant};
use common::{Opponents, game};

/// Three players, sleuth's seat rotating: it wins at least half the games.
/// Scoring lists by information alone, it won 40% (docs/strength.md).
#[test]
fn wins_at_least_half_against_two_notebooks() {
    let config = GameConfig::new(Variant::Generalized, 3);
    let games = 300;
    let mut wins = 0;
    for i in 0..games {
        let (record, _) = game(&config, 1 + i, i as usize, Opponents::Notebook);
        let seat = (i % 3) as usize;
        assert!(
            !matches!(record.seats[seat].outcome, Outcome::Disqualified(_)),
            "game {i}: {:?}",
            record.seats[seat].detail
        );
        wins += u32::from(record.seats[seat].outcome == Outcome::Won);
    }
    assert!(
        f64::from(wins) >= 0.5 * games as f64,
        "{wins} wins in {games} games"
    );
}

/// Until it guesses, every interrogation of sleuth's first turns is
/// answered with an item: it asks for every item it has not placed.
#[test]
fn early_interrogations_always_place_an_item() {
    let config = GameConfig::new(Variant::Generalized, 3);
    for seed in 0..30 {
        let (record, _) = game(&config, seed, 0, Opponents::Notebook);
        let mine = record.log.iter().filter_map(|entry| match &entry.event {
            Event::Answered {
                suggester: Seat(0),
                shown_by,
                ..
            } => Some(shown_by.is_some()),
            _ => None,
        });
        let early: Vec<bool> = mine.take(6).collect();
        assert_eq!(early.len(), 6, "seed {seed}: fewer than six interrogations");
        assert!(
            early.iter().all(|&shown| shown),
            "seed {seed}: an early interrogation placed nothing: {early:?}"
        );
    }
}

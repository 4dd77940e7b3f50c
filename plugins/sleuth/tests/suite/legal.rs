//! `sleuth` plays every variant legally: never disqualified, and never a
//! wrong accusation where a wrong accusation eliminates, except the bets of
//! the race in Speed Clue and `framework` (made on the odds, and saying so).

use crate::common;

use clue_engine::{GameConfig, Outcome};
use clue_plugin_api::Variant;
use common::{Opponents, eliminates, every_variant, game};
use sleuth::Grounds;

fn check_games(config: &GameConfig, games: u64, opponents: Opponents) -> u32 {
    let mut correct = 0;
    for seed in 0..games {
        let (record, spy) = game(config, seed, seed as usize, opponents);
        let seat = common::seat_of(config, seed as usize);
        let outcome = record.seats[seat].outcome;
        assert!(
            !matches!(outcome, Outcome::Disqualified(_)),
            "{} {} players seed {seed}: sleuth disqualified ({:?}: {:?})",
            config.variant,
            config.players,
            outcome,
            record.seats[seat].detail
        );
        let mut envelope = record.envelope.clone();
        envelope.sort();
        for ((accusation, forced), grounds) in spy.accusations.iter().zip(&spy.grounds) {
            let mut cards = accusation.cards.clone();
            cards.sort();
            let race = matches!(config.variant, Variant::Speedclue | Variant::Framework)
                && *grounds == Some(Grounds::Odds);
            if cards == envelope {
                correct += 1;
            } else if eliminates(config.variant) && !race {
                panic!(
                    "{} {} players seed {seed}: wrong accusation {:?} (forced: {forced}, grounds: {grounds:?}), envelope {:?}",
                    config.variant, config.players, accusation.cards, record.envelope
                );
            }
        }
    }
    correct
}

#[test]
fn never_wrong_where_it_eliminates_and_never_disqualified() {
    for config in every_variant() {
        let games = match config.variant {
            Variant::Classic | Variant::Csci306 | Variant::Framework | Variant::Cyberclue => 60,
            _ => 150,
        };
        let correct = check_games(&config, games, Opponents::Notebook);
        assert!(
            correct as u64 > games / 4,
            "{}: only {correct} correct accusations in {games} games",
            config.variant
        );
    }
}

#[test]
fn every_table_size_of_the_boardless_variants() {
    for players in 3..=6 {
        for variant in [Variant::Speedclue, Variant::Uniclue] {
            let config = GameConfig::new(variant, players);
            check_games(&config, 60, Opponents::Clueless);
        }
    }
    for (items, hidden, players) in [(20, 2, 3), (13, 1, 4), (30, 3, 3), (9, 1, 2)] {
        let mut config = GameConfig::new(Variant::Generalized, players);
        config.generalized.items = items;
        config.generalized.hidden = hidden;
        check_games(&config, 60, Opponents::Notebook);
    }
}

/// A deck past the solver's 128 cards (`generalized` of 203 or 131 items):
/// `sleuth` has no counts, and plays
/// `notebook`'s bookkeeping instead. It is never disqualified, never wrong
/// unless forced, and it wins its fair share against `notebook` over every
/// seat (as `notebook` does: the first to be certain wins); before, its
/// questions taught it nothing and it won none of these.
#[test]
fn a_deck_too_big_to_count_is_played_by_bookkeeping() {
    let mut configs = Vec::new();
    for (items, hidden, players) in [(203, 2, 3), (131, 3, 4)] {
        let mut config = GameConfig::new(Variant::Generalized, players);
        config.generalized.items = items;
        config.generalized.hidden = hidden;
        configs.push(config);
    }
    for config in &configs {
        let games = 3 * u64::from(config.players);
        let correct = check_games(config, games, Opponents::Notebook);
        let won = (0..games)
            .filter(|&seed| {
                let (record, _) = game(config, seed, seed as usize, Opponents::Notebook);
                let seat = common::seat_of(config, seed as usize);
                record.winner == Some(clue_plugin_api::Seat(seat as u8))
            })
            .count() as u64;
        assert!(
            won >= games / u64::from(config.players),
            "{} {} players: sleuth won {won} of {games} games ({correct} correct accusations)",
            config.variant,
            config.players,
        );
    }
}

/// At a turn limit too short to solve such a deck, `sleuth` still makes the
/// guess the limit forces (declining it would disqualify it).
#[test]
fn a_deck_too_big_to_count_still_guesses_at_the_turn_limit() {
    for (items, hidden, players) in [(203, 2, 3), (131, 3, 4)] {
        let mut config = GameConfig::new(Variant::Generalized, players);
        config.generalized.items = items;
        config.generalized.hidden = hidden;
        config.max_rounds = 2;
        for seed in 0..4 {
            let (record, spy) = game(&config, seed, seed as usize, Opponents::Notebook);
            let seat = common::seat_of(&config, seed as usize);
            assert!(
                !matches!(record.seats[seat].outcome, Outcome::Disqualified(_)),
                "{items} items seed {seed}: sleuth disqualified ({:?})",
                record.seats[seat].detail
            );
            let (guess, forced) = spy.accusations.last().expect("a guess at the turn limit");
            assert!(
                forced,
                "{items} items seed {seed}: the guess was not the forced one"
            );
            assert_eq!(guess.cards.len(), usize::from(hidden), "{guess:?}");
        }
    }
}

/// An event naming a card outside the deck (a wrong accusation, a revealed
/// hand) is ignored, as `rival` ignores it: a host or a remote server that
/// sends one must not make the bot panic or spoil what it knows.
#[test]
fn events_naming_cards_outside_the_deck_are_ignored() {
    use clue_plugin_api::{Accusation, Card, Event, Player, Seat};

    let mut sleuth = sleuth::Sleuth::default();
    sleuth.begin_game(&common::speedclue_setup(3, &[0, 6, 12, 13, 14, 15]));
    let before: Vec<Option<f64>> = (0..21).map(|c| sleuth.envelope_chance(Card(c))).collect();
    sleuth.watch(&Event::Accused {
        seat: Seat(1),
        accusation: Some(Accusation {
            cards: vec![Card(1), Card(7), Card(999)],
        }),
        correct: Some(false),
    });
    sleuth.watch(&Event::HandRevealed {
        seat: Seat(2),
        hand: vec![Card(1), Card(999)],
    });
    let after: Vec<Option<f64>> = (0..21).map(|c| sleuth.envelope_chance(Card(c))).collect();
    assert_eq!(before, after);
    // A well-formed wrong accusation still teaches.
    sleuth.watch(&Event::Accused {
        seat: Seat(1),
        accusation: Some(Accusation {
            cards: vec![Card(1), Card(7), Card(16)],
        }),
        correct: Some(false),
    });
    let taught: Vec<Option<f64>> = (0..21).map(|c| sleuth.envelope_chance(Card(c))).collect();
    assert_ne!(before, taught);
}

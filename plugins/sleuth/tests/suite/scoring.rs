//! Suggestion scoring: what is known teaches nothing, what is open teaches.

use crate::common;

use clue_plugin_api::{Card, Event, Player, Seat, Setup, Suggestion};

fn setup(hand: &[u16]) -> Setup {
    common::speedclue_setup(3, hand)
}

fn gain(bot: &mut sleuth::Sleuth, cards: [u16; 3]) -> f64 {
    bot.suggestion_gain(&cards.map(Card)).unwrap_or(f64::NAN)
}

#[test]
fn own_cards_teach_nothing() {
    let mut bot = sleuth::Sleuth::default();
    bot.begin_game(&setup(&[0, 1, 6, 7, 12, 13]));
    assert!(gain(&mut bot, [0, 6, 12]).abs() < 1e-9);
    assert!(gain(&mut bot, [2, 8, 14]) > 0.1);
}

#[test]
fn shown_cards_teach_nothing_once_known() {
    let mut bot = sleuth::Sleuth::default();
    bot.begin_game(&setup(&[0, 1, 6, 7, 12, 13]));
    // Seat 1 shows person 2, weapon 8 and room 14 to us, one at a time.
    for (card, cards) in [(2, [2, 6, 12]), (8, [0, 8, 12]), (14, [0, 6, 14])] {
        bot.watch(&Event::Suggested {
            seat: Seat(0),
            suggestion: Suggestion {
                cards: cards.map(Card).to_vec(),
                target: None,
            },
        });
        bot.watch(&Event::Answered {
            suggester: Seat(0),
            passed: Vec::new(),
            shown_by: Some(Seat(1)),
            card: Some(Card(card)),
        });
    }
    let known = gain(&mut bot, [2, 8, 14]);
    assert!(known.abs() < 1e-9, "{known}");
    // Seat 1, asked first, holds 2 and 8 and has shown them: it shows one again.
    assert!(gain(&mut bot, [2, 8, 15]).abs() < 1e-9);
    assert!(gain(&mut bot, [3, 9, 15]) > 0.1);
    assert_eq!(bot.envelope_chance(Card(2)), Some(0.0));
}

#[test]
fn no_game_no_score() {
    let mut bot = sleuth::Sleuth::default();
    assert_eq!(bot.suggestion_gain(&[Card(0)]), None);
}

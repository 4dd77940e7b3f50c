//! Someone else's wrong accusation rules its envelope out, and sleuth uses
//! it: with two envelopes left, another player's wrong accusation of one
//! makes sleuth accuse the other.

use crate::common;

use clue_plugin_api::{
    Accusation, AccusePoint, AccuseRequest, Card, Event, Player, Seat, Setup, Suggestion, Turn,
};

fn setup(contest_rules: bool) -> Setup {
    // Persons 2 to 5, weapon 6, room 12: persons 0 and 1 are open.
    let mut setup = common::speedclue_setup(3, &[2, 3, 4, 5, 6, 12]);
    setup.rules.contest_rules = contest_rules;
    setup
}

fn accuse(bot: &mut sleuth::Sleuth) -> Option<Vec<Card>> {
    let turn = Turn {
        seat: Seat(0),
        round: 2,
        roll: None,
        position: None,
        room: None,
    };
    bot.accuse(&AccuseRequest {
        turn,
        point: AccusePoint::AfterSuggestion,
    })
    .map(|a| {
        let mut cards = a.cards;
        cards.sort();
        cards
    })
}

#[test]
fn a_wrong_accusation_by_another_player_settles_the_envelope() {
    let mut bot = sleuth::Sleuth::default();
    bot.begin_game(&setup(true));
    // Nobody holds weapon 7 or room 13: they are in the envelope.
    let asked = [Card(2), Card(7), Card(13)];
    bot.watch(&Event::Suggested {
        seat: Seat(0),
        suggestion: Suggestion {
            cards: asked.to_vec(),
            target: None,
        },
    });
    bot.watch(&Event::Answered {
        suggester: Seat(0),
        passed: vec![Seat(1), Seat(2)],
        shown_by: None,
        card: None,
    });
    let person = |bot: &mut sleuth::Sleuth, c| bot.envelope_chance(Card(c)).unwrap_or(f64::NAN);
    assert!((person(&mut bot, 0) - 0.5).abs() < 1e-9);
    assert_eq!(accuse(&mut bot), None, "two envelopes left: not certain");

    bot.watch(&Event::Accused {
        seat: Seat(1),
        accusation: Some(Accusation {
            cards: [0, 7, 13].map(Card).to_vec(),
        }),
        correct: Some(false),
    });
    assert!(person(&mut bot, 0).abs() < 1e-9);
    assert!((person(&mut bot, 1) - 1.0).abs() < 1e-9);
    assert_eq!(accuse(&mut bot), Some([1, 7, 13].map(Card).to_vec()));
}

#[test]
fn a_ruled_out_envelope_moves_the_odds_of_the_hands_too() {
    // Without the contest rules an accuser may hold an accused card, so
    // only the exclusion speaks.
    let mut bot = sleuth::Sleuth::default();
    bot.begin_game(&setup(false));
    let before = bot.envelope_chance(Card(0)).unwrap_or(f64::NAN);
    bot.watch(&Event::Accused {
        seat: Seat(2),
        accusation: Some(Accusation {
            cards: [0, 7, 13].map(Card).to_vec(),
        }),
        correct: Some(false),
    });
    let after = bot.envelope_chance(Card(0)).unwrap_or(f64::NAN);
    assert!(after < before, "{after} should be below {before}");
    assert!(after > 0.0);
}

//! `generalized`: who may be interrogated. RULES.md section 1 keeps a seat's
//! cards in the game once it can no longer answer (the engine answers for
//! it), and section 2 takes a guesser out with its hand shown to everyone.

use std::cell::RefCell;
use std::rc::Rc;

use crate::common;

use clue_engine::{Fault, GameConfig, Outcome, SeatController, play};
use clue_plugin_api::{
    Accusation, AccusePoint, Card, DqReason, Event, Reply, Request, Seat, Suggestion, Variant,
};
use common::Scripted;

fn three_players() -> GameConfig {
    let mut config = GameConfig::new(Variant::Generalized, 3);
    config.generalized.items = 20;
    config.generalized.hidden = 2;
    config
}

fn interrogate(target: Seat, cards: &[Card]) -> Reply {
    Reply::Suggest {
        suggestion: Some(Suggestion {
            cards: cards.to_vec(),
            target: Some(target),
        }),
    }
}

/// The opponents offered in each of a seat's `suggest` requests, in order.
type Offered = Rc<RefCell<Vec<Vec<Seat>>>>;

#[test]
fn a_disqualified_seat_is_still_interrogated_and_the_engine_answers_in_hand_order() {
    let config = three_players();
    for seed in 0..5 {
        let hand = common::play_builtins(&config, seed).hands[0].clone();
        // Seat 0 crashes when first asked for an interrogation.
        let crash = Scripted::new(|_, r: &Request| {
            matches!(r, Request::Suggest(_)).then(|| Err(Fault::new(DqReason::Crash, "boom")))
        });
        // Seat 1 asks seat 0 about its second card and then its first, once.
        let offered: Offered = Rc::default();
        let seen = Rc::clone(&offered);
        let asked = [hand[1], hand[0]];
        let mut done = false;
        let asker = Scripted::new(move |_, r: &Request| {
            let Request::Suggest(s) = r else { return None };
            seen.borrow_mut().push(s.opponents.clone());
            (!done && s.opponents.contains(&Seat(0))).then(|| {
                done = true;
                Ok(interrogate(Seat(0), &asked))
            })
        });
        let mut bots: Vec<Box<dyn SeatController>> = vec![Box::new(crash), Box::new(asker)];
        bots.extend(common::builtins(1));
        let record = play(&config, seed, &mut bots).expect("valid config");

        assert_eq!(
            record.seats[0].outcome,
            Outcome::Disqualified(DqReason::Crash)
        );
        let offered = offered.borrow();
        assert!(
            !offered.is_empty(),
            "seed {seed}: seat 1 never interrogated"
        );
        assert!(
            offered.iter().all(|o| o.contains(&Seat(0))),
            "seed {seed}: the disqualified seat 0 was not offered: {offered:?}"
        );
        // The engine answered for seat 0: the first asked card in its hand's
        // order, not in the list's.
        let answered = record.log.iter().find_map(|e| match &e.event {
            Event::Answered {
                suggester: Seat(1),
                shown_by,
                card,
                ..
            } => Some((*shown_by, *card)),
            _ => None,
        });
        assert_eq!(
            answered,
            Some((Some(Seat(0)), Some(hand[0]))),
            "seed {seed}"
        );
        assert!(matches!(
            record.log.last().map(|e| &e.event),
            Some(Event::GameOver { .. })
        ));
    }
}

#[test]
fn a_seat_that_guessed_is_no_longer_offered_nor_may_be_interrogated() {
    let config = three_players();
    // Seat 0 interrogates seat 1 every turn.
    let offered: Offered = Rc::default();
    let seen = Rc::clone(&offered);
    let asker = Scripted::new(move |_, r: &Request| {
        let Request::Suggest(s) = r else { return None };
        seen.borrow_mut().push(s.opponents.clone());
        Some(Ok(interrogate(Seat(1), &[Card(0)])))
    });
    // Seat 1 guesses at the start of its first turn.
    let guesser = Scripted::new(|_, r: &Request| match r {
        Request::Accuse(a) if a.point == AccusePoint::StartOfTurn => Some(Ok(Reply::Accuse {
            accusation: Some(Accusation {
                cards: vec![Card(0), Card(1)],
            }),
        })),
        _ => None,
    });
    let mut bots: Vec<Box<dyn SeatController>> = vec![Box::new(asker), Box::new(guesser)];
    bots.extend(common::builtins(1));
    let record = play(&config, 7, &mut bots).expect("valid config");

    assert!(matches!(
        record.seats[1].outcome,
        Outcome::GuessedRight | Outcome::WrongAccusation
    ));
    assert_eq!(
        *offered.borrow(),
        vec![vec![Seat(1), Seat(2)], vec![Seat(2)]],
        "seat 1 is offered before its guess and not after"
    );
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(DqReason::InvalidSuggestion)
    );
    let detail = record.seats[0].detail.as_deref().unwrap_or_default();
    assert!(detail.contains("guessed"), "{detail}");
}

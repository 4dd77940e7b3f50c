//! Clue in words: an event or a place as a person reads it. One home for
//! the narration the terminal player (`builtin:human`), the page
//! (`clue serve`) and the account of a game (`clue play`) show.
//!
//! ```
//! use clue_arena::narrate::describe;
//! use clue_plugin_api::{DqReason, Event, Seat};
//!
//! let deck = clue_engine::decks::classic();
//! let names = vec!["Ann".to_string(), "Bob".to_string()];
//! let event = Event::Disqualified { seat: Seat(1), reason: DqReason::Timeout };
//! assert_eq!(describe(&event, &deck, &names), "Bob is disqualified (timeout)");
//! ```

use clue_plugin_api::{Card, Deck, Event, Position, Seat};

/// One event in words, with `names[seat]` for each seat.
pub fn describe(event: &Event, deck: &Deck, names: &[String]) -> String {
    let who = |s: &Seat| {
        names
            .get(s.index())
            .cloned()
            .unwrap_or_else(|| format!("seat {}", s.0))
    };
    let cards = |cs: &[Card]| {
        cs.iter()
            .map(|&c| deck.name(c))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match event {
        Event::TurnBegan {
            seat,
            round,
            roll,
            room,
        } => match (roll, room) {
            (Some(r), _) => format!("round {round}: {} rolls {r}", who(seat)),
            (None, Some(room)) => format!(
                "round {round}: {} is in the {}",
                who(seat),
                deck.name(*room)
            ),
            (None, None) => format!("round {round}: {}'s turn", who(seat)),
        },
        Event::Moved { seat, to } => format!("{} moves to {}", who(seat), place(deck, *to)),
        Event::TokenMoved { person, to, .. } => {
            format!("{} is called to {}", deck.name(*person), place(deck, *to))
        }
        Event::Suggested { seat, suggestion } => match suggestion.target {
            Some(target) => format!(
                "{} asks {} about {}",
                who(seat),
                who(&target),
                cards(&suggestion.cards)
            ),
            None => format!("{} suggests {}", who(seat), cards(&suggestion.cards)),
        },
        Event::Answered {
            passed,
            shown_by,
            card,
            ..
        } => {
            let mut text = String::new();
            if !passed.is_empty() {
                let list: Vec<String> = passed.iter().map(&who).collect();
                text.push_str(&format!("{} cannot disprove; ", list.join(", ")));
            }
            text.push_str(&match (shown_by, card) {
                (Some(s), Some(c)) => format!("{} shows {}", who(s), deck.name(*c)),
                (Some(s), None) => format!("{} shows a card", who(s)),
                (None, _) => "nobody can disprove".to_string(),
            });
            text
        }
        Event::Accused {
            seat,
            accusation,
            correct,
        } => match (accusation, correct) {
            (Some(a), Some(true)) => format!("{} accuses {}: correct!", who(seat), cards(&a.cards)),
            (Some(a), Some(false)) => format!("{} accuses {}: wrong", who(seat), cards(&a.cards)),
            _ => format!("{} makes an accusation", who(seat)),
        },
        Event::HandRevealed { seat, hand } => format!("{} reveals {}", who(seat), cards(hand)),
        Event::Disqualified { seat, reason } => format!("{} is disqualified ({reason})", who(seat)),
        Event::GameOver {
            winner, envelope, ..
        } => match winner {
            Some(w) => format!(
                "game over: {} wins; the envelope held {}",
                who(w),
                cards(envelope)
            ),
            None => format!(
                "game over: no winner; the envelope held {}",
                cards(envelope)
            ),
        },
    }
}

pub fn place(deck: &Deck, to: Position) -> String {
    match to {
        Position::Room(card) => format!("the {}", deck.name(card)),
        Position::Cell { row, col } => format!("({row}, {col})"),
    }
}

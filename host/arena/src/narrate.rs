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
            let list: Vec<String> = passed.iter().map(&who).collect();
            let shown = match (shown_by, card) {
                (Some(s), Some(c)) => format!("{} shows {}", who(s), deck.name(*c)),
                (Some(s), None) => format!("{} shows a card", who(s)),
                (None, _) if list.is_empty() => return "nobody can disprove".to_string(),
                // Everyone asked passed.
                (None, _) => return format!("{} cannot disprove: nobody can", list.join(", ")),
            };
            match list.is_empty() {
                true => shown,
                false => format!("{} cannot disprove; {shown}", list.join(", ")),
            }
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

#[cfg(test)]
mod tests {
    use super::describe;
    use clue_plugin_api::{Card, Event, Seat};

    /// An answer in words: who passed, then who showed what, or that
    /// nobody could.
    #[test]
    fn an_answer_says_who_passed_and_who_showed() {
        let deck = clue_engine::decks::classic();
        let names: Vec<String> = ["Ann", "Bob", "Cy", "Di"].map(String::from).to_vec();
        let said = |passed: &[u8], shown_by: Option<u8>, card: Option<u16>| {
            let event = Event::Answered {
                suggester: Seat(0),
                passed: passed.iter().map(|&s| Seat(s)).collect(),
                shown_by: shown_by.map(Seat),
                card: card.map(Card),
            };
            describe(&event, &deck, &names)
        };
        let scarlet = deck.name(Card(0));
        assert_eq!(said(&[], Some(1), Some(0)), format!("Bob shows {scarlet}"));
        assert_eq!(
            said(&[1, 2], Some(3), Some(0)),
            format!("Bob, Cy cannot disprove; Di shows {scarlet}")
        );
        assert_eq!(
            said(&[1], Some(2), None),
            "Bob cannot disprove; Cy shows a card"
        );
        assert_eq!(
            said(&[1, 2, 3], None, None),
            "Bob, Cy, Di cannot disprove: nobody can"
        );
        assert_eq!(said(&[], None, None), "nobody can disprove");
    }
}

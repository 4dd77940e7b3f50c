//! The person's answers: each action's body read, checked by the engine's
//! own rules ([`check`]) and, when it breaks one, refused in the person's
//! words instead of disqualifying their seat.

use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use clue_engine::validate::{self, Violation};
use clue_plugin_api::{
    Accusation, Card, Deck, Event, Position, Reply, Request, Seat, Setup, Suggestion,
};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{parse_body, session};
use crate::{ApiError, AppState};

/// The page's answers, one shape per action.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    request: u64,
    to: Position,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SuggestBody {
    request: u64,
    suggestion: Option<Suggestion>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RespondBody {
    request: u64,
    card: Card,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AccuseBody {
    request: u64,
    accusation: Option<Accusation>,
}

pub async fn act(
    State(app): State<Arc<AppState>>,
    Path((id, action)): Path<(String, String)>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let session = session(&app, &id)?;
    if action == "leave" {
        session.table.abandon();
        return Ok(Json(json!({ "ok": true })));
    }
    let (request_id, reply) = match action.as_str() {
        "move" => {
            let b: MoveBody = parse_body(&body)?;
            (b.request, Reply::Move { to: b.to })
        }
        "suggest" => {
            let b: SuggestBody = parse_body(&body)?;
            (
                b.request,
                Reply::Suggest {
                    suggestion: b.suggestion,
                },
            )
        }
        "respond" => {
            let b: RespondBody = parse_body(&body)?;
            (b.request, Reply::Respond { card: Some(b.card) })
        }
        "accuse" => {
            let b: AccuseBody = parse_body(&body)?;
            (
                b.request,
                Reply::Accuse {
                    accusation: b.accusation,
                },
            )
        }
        other => {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!("unknown action `{other}` (move, suggest, respond, accuse, leave)"),
            ));
        }
    };
    let (pending, setup, seen) = {
        let state = session.table.lock();
        let Some(pending) = state.pending.clone() else {
            let why = if state.record.is_some() {
                "the game is over"
            } else {
                "the game is not waiting for you right now"
            };
            return Err(ApiError::new(StatusCode::CONFLICT, why));
        };
        let Some(setup) = state.setup.clone() else {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "the game has not begun",
            ));
        };
        let seen = Seen {
            suggestions: state.suggestions.clone(),
            shown: shown_to(setup.seat, &state.events),
        };
        (pending, setup, seen)
    };
    if pending.id != request_id {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "request {request_id} is stale: the game is waiting for request {}",
                pending.id
            ),
        ));
    }
    check(&setup, &seen, &pending.request, &reply).map_err(ApiError::bad)?;
    session
        .table
        .answer(request_id, reply)
        .map_err(|e| ApiError::new(StatusCode::CONFLICT, e.to_string()))?;
    Ok(Json(json!({ "ok": true })))
}

/// What the contest rules of Speed Clue hold against the person's seat:
/// its suggestions so far (none may be repeated) and the cards shown to it,
/// with who showed each (none may be accused, nor a card of its hand).
pub struct Seen {
    pub suggestions: Vec<Suggestion>,
    pub shown: Vec<(Card, Seat)>,
}

/// The cards shown to `seat` when it suggested, and who showed each, from
/// the events it saw.
fn shown_to(seat: Seat, events: &[Event]) -> Vec<(Card, Seat)> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Answered {
                suggester,
                shown_by: Some(by),
                card: Some(card),
                ..
            } if *suggester == seat => Some((*card, *by)),
            _ => None,
        })
        .collect()
}

/// Whether `reply` is a legal answer to `request`, by the engine's own
/// rules ([`validate::reply`]): the engine would disqualify the seat
/// otherwise, so the person is told instead, in their words.
pub fn check(setup: &Setup, seen: &Seen, request: &Request, reply: &Reply) -> Result<(), String> {
    let judge = validate::Judge {
        variant: setup.variant,
        deck: &setup.deck,
        hidden: &setup.rules.hidden,
        contest_rules: setup.rules.contest_rules,
        hand: &setup.hand,
        suggestions: &seen.suggestions,
        shown: &seen.shown,
    };
    validate::reply(&judge, request, reply).map_err(|v| to_person(&v, &setup.deck))
}

/// A rule the person's answer breaks, said to them.
fn to_person(violation: &Violation, deck: &Deck) -> String {
    let name = |card: &Card| deck.name(*card).to_string();
    match violation {
        Violation::WrongKind { request, reply } => {
            format!("the game is waiting for you to {request}, not to {reply}")
        }
        Violation::NotATarget { to, targets } => format!(
            "you cannot move to {}: it is not one of the {targets} targets of your roll",
            clue_arena::narrate::place(deck, *to)
        ),
        Violation::DeclinedSuggestion => "you must make a suggestion now".to_string(),
        Violation::Suggestion(shape) => format!("that suggestion {}", shape.describe(deck)),
        Violation::RepeatedSuggestion(_) => {
            "you made that suggestion before; the contest rules forbid repeating it".to_string()
        }
        Violation::HidMatchingCard { matching } => match matching.as_slice() {
            [card] => format!("you hold {}: show it", name(card)),
            cards => format!(
                "you hold {}: show one of them",
                cards.iter().map(name).collect::<Vec<_>>().join(" and ")
            ),
        },
        Violation::ShowedOther { card, .. } if !deck.contains(*card) => {
            format!("there is no card {card}")
        }
        Violation::ShowedOther { card, matching } => match matching.as_slice() {
            [one] => format!("you cannot show {}: show {}", name(card), name(one)),
            cards => format!(
                "you cannot show {}: show one of {}",
                name(card),
                cards.iter().map(name).collect::<Vec<_>>().join(" and ")
            ),
        },
        Violation::DeclinedAccusation => "you must accuse now".to_string(),
        Violation::Accusation(shape) => format!("that accusation {}", shape.describe(deck)),
        Violation::Suicidal(seen) => {
            let whence = match seen.shown_by {
                None => format!("you hold {}", name(&seen.card)),
                Some(by) => format!("seat {} showed you {}", by.0, name(&seen.card)),
            };
            format!("{whence}; the contest rules forbid accusing a card you have seen")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clue_engine::GameConfig;
    use clue_engine::validate::Shape;
    use clue_plugin_api::{Category, Variant};

    /// Each rule a person's answer can break is said to them in the second
    /// person, naming the cards.
    #[test]
    fn each_violation_is_said_to_the_person() {
        let deck = GameConfig::new(Variant::Speedclue, 3)
            .standard_deck()
            .expect("the classic deck");
        let [person, weapon] = [Category::Person, Category::Weapon].map(|c| deck.of(c)[0]);
        let said = |violation: Violation| to_person(&violation, &deck);
        let (p, w) = (deck.name(person), deck.name(weapon));
        assert_eq!(
            said(Violation::HidMatchingCard {
                matching: vec![person]
            }),
            format!("you hold {p}: show it")
        );
        assert_eq!(
            said(Violation::HidMatchingCard {
                matching: vec![person, weapon]
            }),
            format!("you hold {p} and {w}: show one of them")
        );
        assert_eq!(
            said(Violation::ShowedOther {
                card: Card(200),
                matching: vec![person]
            }),
            "there is no card #200"
        );
        assert_eq!(
            said(Violation::ShowedOther {
                card: weapon,
                matching: vec![person]
            }),
            format!("you cannot show {w}: show {p}")
        );
        let room = deck.of(Category::Room)[0];
        assert_eq!(
            said(Violation::ShowedOther {
                card: weapon,
                matching: vec![person, room]
            }),
            format!(
                "you cannot show {w}: show one of {p} and {}",
                deck.name(room)
            )
        );
        assert_eq!(
            said(Violation::Suggestion(Shape::Category {
                card: weapon,
                want: Category::Person
            })),
            format!("that suggestion named {w} where a person belongs")
        );
        assert_eq!(
            said(Violation::Suicidal(validate::SeenCard {
                card: person,
                shown_by: Some(Seat(2))
            })),
            format!(
                "seat 2 showed you {p}; the contest rules forbid accusing a card you have seen"
            )
        );
        assert_eq!(
            said(Violation::WrongKind {
                request: "move",
                reply: "respond"
            }),
            "the game is waiting for you to move, not to respond"
        );
    }
}

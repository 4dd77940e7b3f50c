//! plugin-api types to and from the `clue:player` WIT types, host side.

use clue_plugin_api::{
    Accusation, AccusePoint, AccuseRequest, Card, MoveRequest, Position, RespondRequest, Seat,
    SuggestRequest, Suggestion, Turn,
};

use super::bindings::exports::clue::player::player as wit;

pub fn position(p: &Position) -> wit::Position {
    match *p {
        Position::Cell { row, col } => wit::Position::Cell(wit::Cell { row, col }),
        Position::Room(card) => wit::Position::Room(card.0),
    }
}

pub fn position_back(p: wit::Position) -> Position {
    match p {
        wit::Position::Cell(c) => Position::Cell {
            row: c.row,
            col: c.col,
        },
        wit::Position::Room(card) => Position::Room(Card(card)),
    }
}

fn turn(t: &Turn) -> wit::Turn {
    wit::Turn {
        seat: t.seat.0,
        round: t.round,
        roll: t.roll,
        position: t.position.as_ref().map(position),
        room: t.room.map(|c| c.0),
    }
}

pub fn accuse_request(r: &AccuseRequest) -> wit::AccuseRequest {
    wit::AccuseRequest {
        turn: turn(&r.turn),
        point: match r.point {
            AccusePoint::StartOfTurn => wit::AccusePoint::StartOfTurn,
            AccusePoint::AfterSuggestion => wit::AccusePoint::AfterSuggestion,
            AccusePoint::Forced => wit::AccusePoint::Forced,
        },
    }
}

pub fn move_request(r: &MoveRequest) -> wit::MoveRequest {
    wit::MoveRequest {
        turn: turn(&r.turn),
        targets: r.targets.iter().map(position).collect(),
    }
}

pub fn suggest_request(r: &SuggestRequest) -> wit::SuggestRequest {
    wit::SuggestRequest {
        turn: turn(&r.turn),
        optional: r.optional,
        opponents: r.opponents.iter().map(|s| s.0).collect(),
    }
}

pub fn respond_request(r: &RespondRequest) -> wit::RespondRequest {
    wit::RespondRequest {
        suggester: r.suggester.0,
        suggestion: wit::Suggestion {
            cards: r.suggestion.cards.iter().map(|c| c.0).collect(),
            target: r.suggestion.target.map(|s| s.0),
        },
        matching: r.matching.iter().map(|c| c.0).collect(),
    }
}

pub fn accusation_back(a: wit::Accusation) -> Accusation {
    Accusation {
        cards: a.cards.into_iter().map(Card).collect(),
    }
}

pub fn suggestion_back(s: wit::Suggestion) -> Suggestion {
    Suggestion {
        cards: s.cards.into_iter().map(Card).collect(),
        target: s.target.map(Seat),
    }
}

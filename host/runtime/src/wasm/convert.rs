//! plugin-api types to and from the `clue:player` WIT types, host side (the
//! guest's mirror is `plugin-api/src/wasm.rs`: wit-bindgen and wasmtime
//! generate types of their own). The requests and replies are the same in
//! 0.1 and 0.2, so one macro writes them for both versions' bindings;
//! [`setup`] and [`event`] are 0.2's (0.1 sends them as JSON).

use clue_plugin_api::{BoardView, Category, Direction, DqReason, Event, Setup, Variant};

use super::bindings::exports::clue::player::player as wit;

/// The conversions of the requests and replies, for the bindings module `$wit`.
macro_rules! requests {
    ($wit:path) => {
        use clue_plugin_api::{
            Accusation, AccusePoint, AccuseRequest, Card, MoveRequest, Position, RespondRequest,
            Seat, SuggestRequest, Suggestion, Turn,
        };
        use $wit as w;

        pub fn position(p: &Position) -> w::Position {
            match *p {
                Position::Cell { row, col } => w::Position::Cell(w::Cell { row, col }),
                Position::Room(card) => w::Position::Room(card.0),
            }
        }

        pub fn position_back(p: w::Position) -> Position {
            match p {
                w::Position::Cell(c) => Position::Cell {
                    row: c.row,
                    col: c.col,
                },
                w::Position::Room(card) => Position::Room(Card(card)),
            }
        }

        fn turn(t: &Turn) -> w::Turn {
            w::Turn {
                seat: t.seat.0,
                round: t.round,
                roll: t.roll,
                position: t.position.as_ref().map(position),
                room: t.room.map(|c| c.0),
            }
        }

        pub fn accuse_request(r: &AccuseRequest) -> w::AccuseRequest {
            w::AccuseRequest {
                turn: turn(&r.turn),
                point: match r.point {
                    AccusePoint::StartOfTurn => w::AccusePoint::StartOfTurn,
                    AccusePoint::AfterSuggestion => w::AccusePoint::AfterSuggestion,
                    AccusePoint::Forced => w::AccusePoint::Forced,
                },
            }
        }

        pub fn move_request(r: &MoveRequest) -> w::MoveRequest {
            w::MoveRequest {
                turn: turn(&r.turn),
                targets: r.targets.iter().map(position).collect(),
            }
        }

        pub fn suggest_request(r: &SuggestRequest) -> w::SuggestRequest {
            w::SuggestRequest {
                turn: turn(&r.turn),
                optional: r.optional,
                opponents: r.opponents.iter().map(|s| s.0).collect(),
            }
        }

        pub fn suggestion(s: &Suggestion) -> w::Suggestion {
            w::Suggestion {
                cards: s.cards.iter().map(|c| c.0).collect(),
                target: s.target.map(|s| s.0),
            }
        }

        pub fn respond_request(r: &RespondRequest) -> w::RespondRequest {
            w::RespondRequest {
                suggester: r.suggester.0,
                suggestion: suggestion(&r.suggestion),
                matching: r.matching.iter().map(|c| c.0).collect(),
            }
        }

        pub fn accusation_back(a: w::Accusation) -> Accusation {
            Accusation {
                cards: a.cards.into_iter().map(Card).collect(),
            }
        }

        pub fn suggestion_back(s: w::Suggestion) -> Suggestion {
            Suggestion {
                cards: s.cards.into_iter().map(Card).collect(),
                target: s.target.map(Seat),
            }
        }
    };
}

/// `clue:player@0.1.0`.
pub mod v0_1 {
    requests!(super::super::bindings_0_1::exports::clue::player::player);
}

/// `clue:player@0.2.0`.
mod v0_2 {
    requests!(super::super::bindings::exports::clue::player::player);
}

pub use v0_2::*;

fn cards(cards: &[clue_plugin_api::Card]) -> Vec<u16> {
    cards.iter().map(|c| c.0).collect()
}

fn seats(seats: &[clue_plugin_api::Seat]) -> Vec<u8> {
    seats.iter().map(|s| s.0).collect()
}

fn category(c: Category) -> wit::Category {
    match c {
        Category::Person => wit::Category::Person,
        Category::Weapon => wit::Category::Weapon,
        Category::Room => wit::Category::Room,
        Category::Item => wit::Category::Item,
    }
}

fn variant(v: Variant) -> wit::GameVariant {
    match v {
        Variant::Classic => wit::GameVariant::Classic,
        Variant::Csci306 => wit::GameVariant::Csci306,
        Variant::Framework => wit::GameVariant::Framework,
        Variant::Uniclue => wit::GameVariant::Uniclue,
        Variant::Generalized => wit::GameVariant::Generalized,
        Variant::Cyberclue => wit::GameVariant::Cyberclue,
        Variant::Speedclue => wit::GameVariant::Speedclue,
    }
}

fn direction(d: Direction) -> wit::Direction {
    match d {
        Direction::Up => wit::Direction::Up,
        Direction::Down => wit::Direction::Down,
        Direction::Left => wit::Direction::Left,
        Direction::Right => wit::Direction::Right,
    }
}

fn board(b: &BoardView) -> wit::Board {
    match b {
        BoardView::Grid {
            width,
            cells,
            rooms,
        } => wit::Board::Grid(wit::GridBoard {
            width: *width,
            cells: cells.clone(),
            rooms: self::cards(rooms),
        }),
        BoardView::Rooms { rows, cols, cells } => wit::Board::Rooms(wit::RoomsBoard {
            rows: *rows,
            cols: *cols,
            cells: cells
                .iter()
                .map(|c| wit::CellView {
                    room: c.room.map(|r| r.0),
                    walkway: c.walkway,
                    door: c.door.map(direction),
                    passage: c.passage.map(|p| p.0),
                    centre: c.centre,
                    label: c.label,
                })
                .collect(),
        }),
        BoardView::Ring { computers } => wit::Board::Ring(self::cards(computers)),
    }
}

/// The setup of `begin-game`.
pub fn setup(s: &Setup) -> wit::Setup {
    wit::Setup {
        game_variant: variant(s.variant),
        rules: wit::Rules {
            max_rounds: s.rules.max_rounds,
            hidden: s.rules.hidden.clone(),
            shown_to_all: s.rules.shown_to_all,
            contest_rules: s.rules.contest_rules,
            query_limit: s.rules.query_limit,
        },
        players: s.players,
        seat: s.seat.0,
        deck: s
            .deck
            .cards
            .iter()
            .map(|c| wit::CardInfo {
                category: category(c.category),
                name: c.name.clone(),
            })
            .collect(),
        hand: self::cards(&s.hand),
        hand_sizes: s.hand_sizes.clone(),
        board: s.board.as_ref().map(board),
        starts: s.starts.iter().map(position).collect(),
        seed: s.seed,
    }
}

fn dq_reason(r: DqReason) -> wit::DqReason {
    match r {
        DqReason::InvalidMove => wit::DqReason::InvalidMove,
        DqReason::InvalidSuggestion => wit::DqReason::InvalidSuggestion,
        DqReason::InvalidResponse => wit::DqReason::InvalidResponse,
        DqReason::InvalidAccusation => wit::DqReason::InvalidAccusation,
        DqReason::ProtocolError => wit::DqReason::ProtocolError,
        DqReason::Timeout => wit::DqReason::Timeout,
        DqReason::Crash => wit::DqReason::Crash,
        DqReason::OutOfFuel => wit::DqReason::OutOfFuel,
        DqReason::OutOfMemory => wit::DqReason::OutOfMemory,
        DqReason::RepeatedSuggestion => wit::DqReason::RepeatedSuggestion,
        DqReason::SuicidalAccusation => wit::DqReason::SuicidalAccusation,
        DqReason::MissedAccusation => wit::DqReason::MissedAccusation,
        DqReason::QueryLimit => wit::DqReason::QueryLimit,
    }
}

/// An event of `watch`.
pub fn event(e: &Event) -> wit::Event {
    match e {
        Event::TurnBegan {
            seat,
            round,
            roll,
            room,
        } => wit::Event::TurnBegan(wit::TurnBegan {
            seat: seat.0,
            round: *round,
            roll: *roll,
            room: room.map(|r| r.0),
        }),
        Event::Moved { seat, to } => wit::Event::Moved(wit::Moved {
            seat: seat.0,
            to: position(to),
        }),
        Event::TokenMoved {
            person,
            to,
            summoned,
        } => wit::Event::TokenMoved(wit::TokenMoved {
            person: person.0,
            to: position(to),
            summoned: summoned.map(|s| s.0),
        }),
        Event::Suggested { seat, suggestion } => wit::Event::Suggested(wit::Suggested {
            seat: seat.0,
            suggestion: self::suggestion(suggestion),
        }),
        Event::Answered {
            suggester,
            passed,
            shown_by,
            card,
        } => wit::Event::Answered(wit::Answered {
            suggester: suggester.0,
            passed: seats(passed),
            shown_by: shown_by.map(|s| s.0),
            card: card.map(|c| c.0),
        }),
        Event::Accused {
            seat,
            accusation,
            correct,
        } => wit::Event::Accused(wit::Accused {
            seat: seat.0,
            accusation: accusation.as_ref().map(|a| wit::Accusation {
                cards: self::cards(&a.cards),
            }),
            correct: *correct,
        }),
        Event::HandRevealed { seat, hand } => wit::Event::HandRevealed(wit::HandRevealed {
            seat: seat.0,
            hand: self::cards(hand),
        }),
        Event::Disqualified { seat, reason } => wit::Event::Disqualified(wit::Disqualified {
            seat: seat.0,
            reason: dq_reason(*reason),
        }),
        Event::GameOver {
            winner,
            ranking,
            envelope,
        } => wit::Event::GameOver(wit::GameOver {
            winner: winner.map(|s| s.0),
            ranking: seats(ranking),
            envelope: self::cards(envelope),
        }),
    }
}

//! Any [`Player`] as a WebAssembly component (feature `wasm`): the guest side
//! of the `clue:player` WIT package in `plugin-api/wit/`.
//!
//! ```
//! use clue_plugin_api::*;
//!
//! #[derive(Default)]
//! struct MyBot;
//!
//! impl Player for MyBot {
//!     fn begin_game(&mut self, _: &Setup) {}
//!     fn accuse(&mut self, _: &AccuseRequest) -> Option<Accusation> { None }
//!     fn move_to(&mut self, request: &MoveRequest) -> Position { request.targets[0] }
//!     fn suggest(&mut self, _: &SuggestRequest) -> Option<Suggestion> { None }
//!     fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
//!         request.matching.first().copied()
//!     }
//! }
//!
//! // The export exists only in the component build.
//! #[cfg(target_arch = "wasm32")]
//! clue_plugin_api::export_wasm_player!(MyBot);
//! ```
//!
//! With `crate-type = ["rlib", "cdylib"]`,
//! `cargo build --release --target wasm32-wasip2 -p my-bot` then writes the
//! component to `target/wasm32-wasip2/release/my_bot.wasm`. Each game gets a
//! fresh instance, so the bot starts from `Default::default()`.

use std::cell::RefCell;

use crate::board::Position;
use crate::cards::{Card, Seat};
use crate::messages::{AccuseRequest, MoveRequest, RespondRequest, SuggestRequest};
use crate::player::Player;

/// The bindings `wit-bindgen` generates from `plugin-api/wit/player.wit`.
/// Public only so that [`export_wasm_player!`](crate::export_wasm_player)
/// can reach them.
#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "wit/player.wit",
        world: "bot",
        pub_export_macro: true,
        export_macro_name: "__clue_export_bot",
        default_bindings_module: "::clue_plugin_api::wasm::bindings",
    });
}

use bindings::exports::clue::player::player as wit;

/// The WIT package version this plugin-api speaks (`clue:player@0.2.0`).
pub const WIT_VERSION: &str = "0.2.0";

thread_local! {
    // A component instance is single-threaded and lives for one game.
    static PLAYER: RefCell<Option<Box<dyn Player>>> = const { RefCell::new(None) };
}

/// Runs `f` on this instance's bot, creating it with `P::default()` first.
#[doc(hidden)]
pub fn with_player<P: Player + Default + 'static, R>(f: impl FnOnce(&mut dyn Player) -> R) -> R {
    PLAYER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let player = slot.get_or_insert_with(|| Box::new(P::default()));
        f(player.as_mut())
    })
}

/// The guest implementation of every `clue:player/player` function for the
/// bot type `P`; [`export_wasm_player!`](crate::export_wasm_player) forwards to it.
#[doc(hidden)]
pub struct Exports<P>(std::marker::PhantomData<P>);

impl<P: Player + Default + 'static> Exports<P> {
    pub fn name() -> String {
        with_player::<P, _>(|p| p.name())
    }

    pub fn begin_game(setup: wit::Setup) {
        let setup = from_wit::setup(setup);
        with_player::<P, _>(|p| p.begin_game(&setup));
    }

    pub fn accuse(request: wit::AccuseRequest) -> Option<wit::Accusation> {
        let request = AccuseRequest {
            turn: from_wit::turn(request.turn),
            point: from_wit::accuse_point(request.point),
        };
        with_player::<P, _>(|p| p.accuse(&request)).map(|a| wit::Accusation {
            cards: a.cards.iter().map(|c| c.0).collect(),
        })
    }

    pub fn move_to(request: wit::MoveRequest) -> wit::Position {
        let request = MoveRequest {
            turn: from_wit::turn(request.turn),
            targets: request
                .targets
                .into_iter()
                .map(from_wit::position)
                .collect(),
        };
        match with_player::<P, _>(|p| p.move_to(&request)) {
            Position::Cell { row, col } => wit::Position::Cell(wit::Cell { row, col }),
            Position::Room(card) => wit::Position::Room(card.0),
        }
    }

    pub fn suggest(request: wit::SuggestRequest) -> Option<wit::Suggestion> {
        let request = SuggestRequest {
            turn: from_wit::turn(request.turn),
            optional: request.optional,
            opponents: request.opponents.into_iter().map(Seat).collect(),
        };
        with_player::<P, _>(|p| p.suggest(&request)).map(|s| wit::Suggestion {
            cards: s.cards.iter().map(|c| c.0).collect(),
            target: s.target.map(|t| t.0),
        })
    }

    pub fn respond(request: wit::RespondRequest) -> Option<u16> {
        let request = RespondRequest {
            suggester: Seat(request.suggester),
            suggestion: from_wit::suggestion(request.suggestion),
            matching: request.matching.into_iter().map(Card).collect(),
        };
        with_player::<P, _>(|p| p.respond(&request)).map(|c| c.0)
    }

    pub fn watch(event: wit::Event) {
        let event = from_wit::event(event);
        with_player::<P, _>(|p| p.watch(&event));
    }
}

/// The generated WIT types to plugin-api's, guest side. (The host's mirror is
/// `host/runtime/src/wasm/convert.rs`: wasmtime generates types of its own.)
mod from_wit {
    use super::wit;
    use crate::board::{BoardView, CellView, Direction, Position};
    use crate::cards::{Card, CardInfo, Category, Deck, Seat};
    use crate::messages::{
        Accusation, AccusePoint, DqReason, Event, Rules, Setup, Suggestion, Turn,
    };
    use crate::variant::Variant;

    fn cards(cards: Vec<u16>) -> Vec<Card> {
        cards.into_iter().map(Card).collect()
    }

    fn seats(seats: Vec<u8>) -> Vec<Seat> {
        seats.into_iter().map(Seat).collect()
    }

    pub fn position(p: wit::Position) -> Position {
        match p {
            wit::Position::Cell(c) => Position::Cell {
                row: c.row,
                col: c.col,
            },
            wit::Position::Room(card) => Position::Room(Card(card)),
        }
    }

    pub fn turn(t: wit::Turn) -> Turn {
        Turn {
            seat: Seat(t.seat),
            round: t.round,
            roll: t.roll,
            position: t.position.map(position),
            room: t.room.map(Card),
        }
    }

    pub fn accuse_point(p: wit::AccusePoint) -> AccusePoint {
        match p {
            wit::AccusePoint::StartOfTurn => AccusePoint::StartOfTurn,
            wit::AccusePoint::AfterSuggestion => AccusePoint::AfterSuggestion,
            wit::AccusePoint::Forced => AccusePoint::Forced,
        }
    }

    pub fn suggestion(s: wit::Suggestion) -> Suggestion {
        Suggestion {
            cards: cards(s.cards),
            target: s.target.map(Seat),
        }
    }

    fn category(c: wit::Category) -> Category {
        match c {
            wit::Category::Person => Category::Person,
            wit::Category::Weapon => Category::Weapon,
            wit::Category::Room => Category::Room,
            wit::Category::Item => Category::Item,
        }
    }

    fn variant(v: wit::GameVariant) -> Variant {
        match v {
            wit::GameVariant::Classic => Variant::Classic,
            wit::GameVariant::Csci306 => Variant::Csci306,
            wit::GameVariant::Framework => Variant::Framework,
            wit::GameVariant::Uniclue => Variant::Uniclue,
            wit::GameVariant::Generalized => Variant::Generalized,
            wit::GameVariant::Cyberclue => Variant::Cyberclue,
            wit::GameVariant::Speedclue => Variant::Speedclue,
        }
    }

    fn direction(d: wit::Direction) -> Direction {
        match d {
            wit::Direction::Up => Direction::Up,
            wit::Direction::Down => Direction::Down,
            wit::Direction::Left => Direction::Left,
            wit::Direction::Right => Direction::Right,
        }
    }

    fn board(b: wit::Board) -> BoardView {
        match b {
            wit::Board::Grid(g) => BoardView::Grid {
                width: g.width,
                cells: g.cells,
                rooms: cards(g.rooms),
            },
            wit::Board::Rooms(r) => BoardView::Rooms {
                rows: r.rows,
                cols: r.cols,
                cells: r
                    .cells
                    .into_iter()
                    .map(|c| CellView {
                        room: c.room.map(Card),
                        walkway: c.walkway,
                        door: c.door.map(direction),
                        passage: c.passage.map(Card),
                        centre: c.centre,
                        label: c.label,
                    })
                    .collect(),
            },
            wit::Board::Ring(computers) => BoardView::Ring {
                computers: cards(computers),
            },
        }
    }

    pub fn setup(s: wit::Setup) -> Setup {
        Setup {
            variant: variant(s.game_variant),
            rules: Rules {
                max_rounds: s.rules.max_rounds,
                hidden: s.rules.hidden,
                shown_to_all: s.rules.shown_to_all,
                contest_rules: s.rules.contest_rules,
                query_limit: s.rules.query_limit,
            },
            players: s.players,
            seat: Seat(s.seat),
            deck: Deck {
                cards: s
                    .deck
                    .into_iter()
                    .map(|c| CardInfo {
                        category: category(c.category),
                        name: c.name,
                    })
                    .collect(),
            },
            hand: cards(s.hand),
            hand_sizes: s.hand_sizes,
            board: s.board.map(board),
            starts: s.starts.into_iter().map(position).collect(),
            seed: s.seed,
        }
    }

    fn dq_reason(r: wit::DqReason) -> DqReason {
        match r {
            wit::DqReason::InvalidMove => DqReason::InvalidMove,
            wit::DqReason::InvalidSuggestion => DqReason::InvalidSuggestion,
            wit::DqReason::InvalidResponse => DqReason::InvalidResponse,
            wit::DqReason::InvalidAccusation => DqReason::InvalidAccusation,
            wit::DqReason::ProtocolError => DqReason::ProtocolError,
            wit::DqReason::Timeout => DqReason::Timeout,
            wit::DqReason::Crash => DqReason::Crash,
            wit::DqReason::OutOfFuel => DqReason::OutOfFuel,
            wit::DqReason::OutOfMemory => DqReason::OutOfMemory,
            wit::DqReason::RepeatedSuggestion => DqReason::RepeatedSuggestion,
            wit::DqReason::SuicidalAccusation => DqReason::SuicidalAccusation,
            wit::DqReason::MissedAccusation => DqReason::MissedAccusation,
            wit::DqReason::QueryLimit => DqReason::QueryLimit,
        }
    }

    pub fn event(e: wit::Event) -> Event {
        match e {
            wit::Event::TurnBegan(e) => Event::TurnBegan {
                seat: Seat(e.seat),
                round: e.round,
                roll: e.roll,
                room: e.room.map(Card),
            },
            wit::Event::Moved(e) => Event::Moved {
                seat: Seat(e.seat),
                to: position(e.to),
            },
            wit::Event::TokenMoved(e) => Event::TokenMoved {
                person: Card(e.person),
                to: position(e.to),
                summoned: e.summoned.map(Seat),
            },
            wit::Event::Suggested(e) => Event::Suggested {
                seat: Seat(e.seat),
                suggestion: suggestion(e.suggestion),
            },
            wit::Event::Answered(e) => Event::Answered {
                suggester: Seat(e.suggester),
                passed: seats(e.passed),
                shown_by: e.shown_by.map(Seat),
                card: e.card.map(Card),
            },
            wit::Event::Accused(e) => Event::Accused {
                seat: Seat(e.seat),
                accusation: e.accusation.map(|a| Accusation {
                    cards: cards(a.cards),
                }),
                correct: e.correct,
            },
            wit::Event::HandRevealed(e) => Event::HandRevealed {
                seat: Seat(e.seat),
                hand: cards(e.hand),
            },
            wit::Event::Disqualified(e) => Event::Disqualified {
                seat: Seat(e.seat),
                reason: dq_reason(e.reason),
            },
            wit::Event::GameOver(e) => Event::GameOver {
                winner: e.winner.map(Seat),
                ranking: seats(e.ranking),
                envelope: cards(e.envelope),
            },
        }
    }
}

/// Exports a [`Player`] (which must also implement `Default`) as the
/// `clue:player` component of this crate. Use it once, in a crate built with
/// `crate-type = ["cdylib", ...]` for `wasm32-wasip2`.
#[macro_export]
macro_rules! export_wasm_player {
    ($player:ty) => {
        const _: () = {
            struct __CluePlayerExport;

            impl $crate::wasm::bindings::exports::clue::player::player::Guest for __CluePlayerExport {
                fn name() -> ::std::string::String {
                    $crate::wasm::Exports::<$player>::name()
                }
                fn begin_game(setup: $crate::wasm::bindings::exports::clue::player::player::Setup) {
                    $crate::wasm::Exports::<$player>::begin_game(setup)
                }
                fn accuse(
                    request: $crate::wasm::bindings::exports::clue::player::player::AccuseRequest,
                ) -> ::std::option::Option<$crate::wasm::bindings::exports::clue::player::player::Accusation>
                {
                    $crate::wasm::Exports::<$player>::accuse(request)
                }
                fn move_to(
                    request: $crate::wasm::bindings::exports::clue::player::player::MoveRequest,
                ) -> $crate::wasm::bindings::exports::clue::player::player::Position {
                    $crate::wasm::Exports::<$player>::move_to(request)
                }
                fn suggest(
                    request: $crate::wasm::bindings::exports::clue::player::player::SuggestRequest,
                ) -> ::std::option::Option<$crate::wasm::bindings::exports::clue::player::player::Suggestion>
                {
                    $crate::wasm::Exports::<$player>::suggest(request)
                }
                fn respond(
                    request: $crate::wasm::bindings::exports::clue::player::player::RespondRequest,
                ) -> ::std::option::Option<u16> {
                    $crate::wasm::Exports::<$player>::respond(request)
                }
                fn watch(event: $crate::wasm::bindings::exports::clue::player::player::Event) {
                    $crate::wasm::Exports::<$player>::watch(event)
                }
            }

            $crate::wasm::bindings::__clue_export_bot!(__CluePlayerExport with_types_in $crate::wasm::bindings);
        };
    };
}

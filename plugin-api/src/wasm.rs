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
use crate::messages::{
    AccusePoint, AccuseRequest, MoveRequest, RespondRequest, SuggestRequest, Suggestion, Turn,
};
use crate::player::Player;

/// The bindings `wit-bindgen` generates from `plugin-api/wit`. Public only
/// so that [`export_wasm_player!`](crate::export_wasm_player) can reach them.
#[doc(hidden)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "wit",
        world: "bot",
        pub_export_macro: true,
        export_macro_name: "__clue_export_bot",
        default_bindings_module: "::clue_plugin_api::wasm::bindings",
    });
}

use bindings::exports::clue::player::player as wit;

/// The WIT package version this plugin-api speaks (`clue:player@0.1.0`).
pub const WIT_VERSION: &str = "0.1.0";

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

    pub fn protocol() -> String {
        crate::wire::PROTOCOL_VERSION.to_string()
    }

    pub fn begin_game(setup_json: String) -> Result<(), String> {
        let setup: crate::Setup =
            serde_json::from_str(&setup_json).map_err(|e| format!("cannot read the setup: {e}"))?;
        with_player::<P, _>(|p| p.begin_game(&setup));
        Ok(())
    }

    pub fn accuse(request: wit::AccuseRequest) -> Option<wit::Accusation> {
        let request = AccuseRequest {
            turn: turn(request.turn),
            point: match request.point {
                wit::AccusePoint::StartOfTurn => AccusePoint::StartOfTurn,
                wit::AccusePoint::AfterSuggestion => AccusePoint::AfterSuggestion,
                wit::AccusePoint::Forced => AccusePoint::Forced,
            },
        };
        with_player::<P, _>(|p| p.accuse(&request)).map(|a| wit::Accusation {
            cards: a.cards.iter().map(|c| c.0).collect(),
        })
    }

    pub fn move_to(request: wit::MoveRequest) -> wit::Position {
        let request = MoveRequest {
            turn: turn(request.turn),
            targets: request.targets.into_iter().map(position).collect(),
        };
        match with_player::<P, _>(|p| p.move_to(&request)) {
            Position::Cell { row, col } => wit::Position::Cell(wit::Cell { row, col }),
            Position::Room(card) => wit::Position::Room(card.0),
        }
    }

    pub fn suggest(request: wit::SuggestRequest) -> Option<wit::Suggestion> {
        let request = SuggestRequest {
            turn: turn(request.turn),
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
            suggestion: suggestion(request.suggestion),
            matching: request.matching.into_iter().map(Card).collect(),
        };
        with_player::<P, _>(|p| p.respond(&request)).map(|c| c.0)
    }

    pub fn watch(event_json: String) -> Result<(), String> {
        let event: crate::Event =
            serde_json::from_str(&event_json).map_err(|e| format!("cannot read the event: {e}"))?;
        with_player::<P, _>(|p| p.watch(&event));
        Ok(())
    }
}

fn position(p: wit::Position) -> Position {
    match p {
        wit::Position::Cell(c) => Position::Cell {
            row: c.row,
            col: c.col,
        },
        wit::Position::Room(card) => Position::Room(Card(card)),
    }
}

fn turn(t: wit::Turn) -> Turn {
    Turn {
        seat: Seat(t.seat),
        round: t.round,
        roll: t.roll,
        position: t.position.map(position),
        room: t.room.map(Card),
    }
}

fn suggestion(s: wit::Suggestion) -> Suggestion {
    Suggestion {
        cards: s.cards.into_iter().map(Card).collect(),
        target: s.target.map(Seat),
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
                fn protocol() -> ::std::string::String {
                    $crate::wasm::Exports::<$player>::protocol()
                }
                fn begin_game(
                    setup_json: ::std::string::String,
                ) -> ::std::result::Result<(), ::std::string::String> {
                    $crate::wasm::Exports::<$player>::begin_game(setup_json)
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
                fn watch(
                    event_json: ::std::string::String,
                ) -> ::std::result::Result<(), ::std::string::String> {
                    $crate::wasm::Exports::<$player>::watch(event_json)
                }
            }

            $crate::wasm::bindings::__clue_export_bot!(__CluePlayerExport with_types_in $crate::wasm::bindings);
        };
    };
}

//! The one trait every bot implements, whichever way it is shipped.

use crate::board::Position;
use crate::cards::Card;
use crate::messages::{
    Accusation, AccuseRequest, Event, MoveRequest, Reply, Request, RespondRequest, Setup,
    SuggestRequest, Suggestion,
};

/// A Clue bot. It mirrors the CyberClue contest's C++ `Player` class: the host
/// calls these methods at the points of the game where the bot must decide, and
/// tells it every event it is entitled to see through [`Player::watch`].
///
/// A bot written once against this trait ships as a built-in bot, a native
/// plugin, a WebAssembly component or a process bot.
pub trait Player {
    /// The bot's display name.
    fn name(&self) -> String {
        let full = std::any::type_name::<Self>();
        full.rsplit("::").next().unwrap_or(full).to_string()
    }

    /// Called once before the first turn, with the bot's hand and the table.
    fn begin_game(&mut self, setup: &Setup);

    /// Whether to accuse now, and what. Return `None` to decline (where
    /// [`crate::AccusePoint::Forced`] is asked, declining disqualifies).
    fn accuse(&mut self, request: &AccuseRequest) -> Option<Accusation>;

    /// Where to move: one of `request.targets`.
    fn move_to(&mut self, request: &MoveRequest) -> Position;

    /// What to suggest (or, in `generalized`, whom to interrogate with which
    /// items). Return `None` to decline where `request.optional` allows it.
    fn suggest(&mut self, request: &SuggestRequest) -> Option<Suggestion>;

    /// Which of `request.matching` to show the suggester.
    fn respond(&mut self, request: &RespondRequest) -> Option<Card>;

    /// An event this seat is entitled to see.
    fn watch(&mut self, event: &Event) {
        let _ = event;
    }
}

/// Calls the [`Player`] method a [`Request`] names and wraps its answer in the
/// matching [`Reply`]. Every bridge (native, wasm, process) goes through here.
pub fn dispatch<P: Player + ?Sized>(player: &mut P, request: &Request) -> Reply {
    match request {
        Request::BeginGame { setup } => {
            player.begin_game(setup);
            Reply::Ok
        }
        Request::Accuse(r) => Reply::Accuse {
            accusation: player.accuse(r),
        },
        Request::Move(r) => Reply::Move {
            to: player.move_to(r),
        },
        Request::Suggest(r) => Reply::Suggest {
            suggestion: player.suggest(r),
        },
        Request::Respond(r) => Reply::Respond {
            card: player.respond(r),
        },
        Request::Watch { event } => {
            player.watch(event);
            Reply::Ok
        }
    }
}

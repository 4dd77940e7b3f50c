//! The one way the engine talks to a bot: a [`SeatController`] per acting seat.
//! The engine cannot tell a built-in bot from a native, wasm or process bot.

use clue_plugin_api::{Card, DqReason, Reply, Request};

/// Why a bot could not answer: its seat is disqualified with `reason`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub reason: DqReason,
    /// What happened, for the game record (e.g. the panic message, the line sent).
    pub detail: String,
}

impl Fault {
    pub fn new(reason: DqReason, detail: impl Into<String>) -> Fault {
        Fault {
            reason,
            detail: detail.into(),
        }
    }
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.reason, self.detail)
    }
}

/// A bot seated at the table. Every request gets one reply, or a [`Fault`].
pub trait SeatController {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault>;

    /// The compute the bot has used so far, in its runtime's unit (wasm fuel),
    /// where the runtime counts it. The host meters wall time itself.
    fn fuel_used(&self) -> Option<u64> {
        None
    }

    /// What the bot wrote for people to read (a process's or a wasm guest's
    /// stderr, up to the runtime's cap), asked once the game is over so the
    /// record keeps it beside the bot's outcome. `None` where a runtime has
    /// no such channel or the bot wrote nothing.
    fn stderr(&self) -> Option<String> {
        None
    }

    /// How the bot's protocol writes `card`, where that is not the card's
    /// number in the deck (a text protocol's own code: UniClue's `R4`,
    /// Speed Clue's `Co`), so that the detail of a disqualification names
    /// the card as the bot wrote it. `None`: by its number.
    fn card_word(&self, card: Card) -> Option<String> {
        let _ = card;
        None
    }
}

impl<T: SeatController + ?Sized> SeatController for Box<T> {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        (**self).call(request)
    }

    fn fuel_used(&self) -> Option<u64> {
        (**self).fuel_used()
    }

    fn stderr(&self) -> Option<String> {
        (**self).stderr()
    }

    fn card_word(&self, card: Card) -> Option<String> {
        (**self).card_word(card)
    }
}

/// Runs any in-process [`clue_plugin_api::Player`] as a seat.
pub struct InProcess<P>(pub P);

impl<P: clue_plugin_api::Player> SeatController for InProcess<P> {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        Ok(clue_plugin_api::dispatch(&mut self.0, request))
    }
}

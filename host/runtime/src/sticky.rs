//! The first fault sticks: once a bot has failed a call (a timeout, a crash,
//! a protocol error), every later call fails the same way without reaching
//! the bot, and the bot is abandoned once (a process is killed). Every
//! runtime's bot is an [`Exchange`] (one request, one reply) wrapped in
//! [`Sticky`], which is the [`SeatController`] the engine sees.
//!
//! Being the one place every bot call goes through, it is also where each
//! call gets its `call` span (request kind; the reply's event gives the
//! duration and fuel), a child of the seat's span (docs/logging.md). With
//! logging off the span is disabled and the call is not even timed.

use std::ops::{Deref, DerefMut};
use std::time::Instant;

use clue_engine::{Fault, SeatController};
use clue_plugin_api::{Reply, Request};

/// One runtime's conversation with a bot.
pub trait Exchange {
    /// Sends one request and reads the reply.
    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault>;

    /// Called once, on the first fault: stop the bot (a process is killed so
    /// that it cannot go on using the machine).
    fn abandon(&mut self) {}

    /// What the bot wrote to stderr, for the game record; `abandoned` when
    /// it was stopped on a fault (a process's pipe is then drained a moment).
    fn stderr(&self, abandoned: bool) -> Option<String> {
        let _ = abandoned;
        None
    }

    /// Fuel used so far, where the runtime counts it.
    fn fuel_used(&self) -> Option<u64> {
        None
    }

    /// How the bot's protocol writes a card (see
    /// [`SeatController::card_word`]).
    fn card_word(&self, card: clue_plugin_api::Card) -> Option<String> {
        let _ = card;
        None
    }
}

/// Whether bot calls get their `call` span: the level and target the span
/// is made with (this module's), as the installed subscriber filters them.
/// Fixed for a run, so it can be asked once, when a bot is seated.
pub fn calls_logged() -> bool {
    tracing::enabled!(tracing::Level::DEBUG)
}

/// A bot whose first fault is kept and repeated (see the module docs). It
/// dereferences to the bot, for the runtime's own accessors.
pub struct Sticky<B> {
    bot: B,
    fault: Option<Fault>,
    /// The span current when the bot was seated (the seat's): the parent of
    /// each call's span, whichever span is current when the engine calls.
    seat: tracing::Span,
}

impl<B> Sticky<B> {
    pub fn new(bot: B) -> Sticky<B> {
        Sticky {
            bot,
            fault: None,
            seat: tracing::Span::current(),
        }
    }

    /// The fault that ended the bot, if one has.
    pub fn fault(&self) -> Option<&Fault> {
        self.fault.as_ref()
    }
}

impl<B> Deref for Sticky<B> {
    type Target = B;

    fn deref(&self) -> &B {
        &self.bot
    }
}

impl<B> DerefMut for Sticky<B> {
    fn deref_mut(&mut self) -> &mut B {
        &mut self.bot
    }
}

impl<B: Exchange> Sticky<B> {
    /// The call inside its span, timed, with the `replied` event.
    #[cold]
    #[inline(never)]
    fn timed(&mut self, span: &tracing::Span, request: &Request) -> Result<Reply, Fault> {
        let _entered = span.enter();
        let fuel_before = self.bot.fuel_used();
        let start = Instant::now();
        let result = self.bot.exchange(request);
        let duration_us = u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX);
        let fuel = fuel_before
            .zip(self.bot.fuel_used())
            .map(|(before, after)| after.saturating_sub(before));
        tracing::debug!(duration_us, fuel, ok = result.is_ok(), "replied");
        result
    }

    /// The first fault: kept, logged, and the bot abandoned.
    #[cold]
    #[inline(never)]
    fn fail(&mut self, fault: &Fault) {
        tracing::debug!(
            parent: &self.seat,
            label = fault.reason.label(),
            detail = %fault.detail,
            "fault: the bot is abandoned"
        );
        self.fault = Some(fault.clone());
        self.bot.abandon();
    }
}

impl<B: Exchange> SeatController for Sticky<B> {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        if let Some(fault) = &self.fault {
            return Err(fault.clone());
        }
        let span = tracing::debug_span!(parent: &self.seat, "call", request = request.kind());
        // With logging off this is the whole cost: a level check, the call,
        // and a look at the result; the rest is out of line, so that a
        // built-in bot's call is inlined here as it would be unwrapped.
        let result = if span.is_disabled() {
            self.bot.exchange(request)
        } else {
            self.timed(&span, request)
        };
        if let Err(fault) = &result {
            self.fail(fault);
        }
        result
    }

    fn fuel_used(&self) -> Option<u64> {
        self.bot.fuel_used()
    }

    fn stderr(&self) -> Option<String> {
        self.bot.stderr(self.fault.is_some())
    }

    fn card_word(&self, card: clue_plugin_api::Card) -> Option<String> {
        self.bot.card_word(card)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clue_plugin_api::DqReason;

    /// Fails its second call; counts calls and abandonments.
    #[derive(Default)]
    struct Flaky {
        calls: u32,
        abandoned: u32,
    }

    impl Exchange for Flaky {
        fn exchange(&mut self, _: &Request) -> Result<Reply, Fault> {
            self.calls += 1;
            match self.calls {
                2 => Err(Fault::new(DqReason::Timeout, "second call")),
                _ => Ok(Reply::Ok),
            }
        }

        fn abandon(&mut self) {
            self.abandoned += 1;
        }

        fn stderr(&self, abandoned: bool) -> Option<String> {
            Some(format!("abandoned: {abandoned}"))
        }
    }

    #[test]
    fn the_first_fault_is_repeated_without_calling_the_bot_again() {
        let mut bot = Sticky::new(Flaky::default());
        let request = Request::Watch {
            event: clue_plugin_api::Event::Disqualified {
                seat: clue_plugin_api::Seat(0),
                reason: DqReason::Crash,
            },
        };
        assert_eq!(bot.stderr().as_deref(), Some("abandoned: false"));
        assert!(bot.call(&request).is_ok());
        let first = bot.call(&request).expect_err("the second call fails");
        assert_eq!(first.detail, "second call");
        for _ in 0..3 {
            assert_eq!(bot.call(&request).expect_err("still failed"), first);
        }
        assert_eq!((bot.calls, bot.abandoned), (2, 1));
        assert_eq!(bot.fault(), Some(&first));
        assert_eq!(bot.stderr().as_deref(), Some("abandoned: true"));
    }
}

//! One scheduled game: its bots seated through a [`Connector`], each seat
//! metered (calls, time, fuel) and kept from bringing the tournament down
//! (a bot that panics or cannot start loses its seat), played to its end.

use std::time::{Duration, Instant};

use clue_engine::{Fault, LogEntry, SeatController, play_observed};
use clue_plugin_api::{DqReason, Reply, Request};
use clue_runtime::bots;

use super::RunError;
use crate::config::{BotEntry, Tournament};
use crate::schedule::ScheduledGame;
use crate::store::{FinishedGame, Meter};

/// How the runner seats a bot. The default, [`SpecConnector`], goes through
/// [`bots::connect`], so every kind of bot the host can load plays in
/// tournaments; tests seat misbehaving controllers through their own.
pub trait Connector: Sync {
    fn connect(&self, bot: &BotEntry) -> Result<Box<dyn SeatController>, Fault>;
}

/// Seats each bot with [`bots::connect`].
pub struct SpecConnector;

impl Connector for SpecConnector {
    fn connect(&self, bot: &BotEntry) -> Result<Box<dyn SeatController>, Fault> {
        let limits = bots::BotLimits {
            time_per_call: bot.limits.time_per_call_ms.map(Duration::from_millis),
            fuel: bot.limits.fuel,
            memory_bytes: bot.limits.memory_mb.map(|mb| mb.saturating_mul(1 << 20)),
            no_sandbox: bot.sandbox == crate::config::Sandbox::Off,
        };
        bots::connect_with(&bot.spec, &limits)
            .map_err(|e| Fault::new(DqReason::Crash, e.to_string()))
    }
}

/// Wraps a seat to count its calls, time them and follow its fuel.
struct Metered<'m> {
    inner: Box<dyn SeatController>,
    meter: &'m mut Meter,
    fuel_start: Option<u64>,
}

impl SeatController for Metered<'_> {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        let start = Instant::now();
        // A bot that panics is a crash of its seat, never of the tournament.
        let reply =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.inner.call(request)))
                .unwrap_or_else(|panic| {
                    let message = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "the bot panicked".into());
                    Err(Fault::new(DqReason::Crash, format!("panicked: {message}")))
                });
        let took = start.elapsed();
        self.meter.calls += 1;
        self.meter.wall += took;
        self.meter.max_call = self.meter.max_call.max(took);
        if let (Some(start), Some(now)) = (self.fuel_start, self.inner.fuel_used()) {
            let before = self.meter.fuel.unwrap_or(0);
            let total = now.saturating_sub(start);
            self.meter.fuel = Some(total);
            let call = total.saturating_sub(before);
            self.meter.max_call_fuel = Some(self.meter.max_call_fuel.unwrap_or(0).max(call));
        }
        reply
    }

    fn fuel_used(&self) -> Option<u64> {
        self.inner.fuel_used()
    }

    fn stderr(&self) -> Option<String> {
        self.inner.stderr()
    }

    fn card_word(&self, card: clue_plugin_api::Card) -> Option<String> {
        self.inner.card_word(card)
    }
}

/// A seat whose bot could not be started: every call fails with the reason.
struct NotStarted(Fault);

impl SeatController for NotStarted {
    fn call(&mut self, _: &Request) -> Result<Reply, Fault> {
        Err(self.0.clone())
    }
}

/// Plays one scheduled game.
pub fn play_one(
    t: &Tournament,
    game: &ScheduledGame,
    connector: &dyn Connector,
) -> Result<FinishedGame, RunError> {
    play_one_observed(t, game, connector, &mut |_| {})
}

/// [`play_one`], telling `observer` of each event as it happens.
pub fn play_one_observed(
    t: &Tournament,
    game: &ScheduledGame,
    connector: &dyn Connector,
    observer: &mut dyn FnMut(&LogEntry),
) -> Result<FinishedGame, RunError> {
    let start = Instant::now();
    let config = &t.settings[game.setting].config;
    let mut meters = vec![Meter::default(); game.seats.len()];
    let specs: Vec<bots::BotSpec> = game.seats.iter().map(|&b| t.bots[b].spec.clone()).collect();
    let span = crate::game::game_span(game.seed, &specs);
    span.record("index", game.index);
    let _game = span.enter();
    let record = {
        let mut controllers: Vec<Box<dyn SeatController + '_>> = game
            .seats
            .iter()
            .zip(meters.iter_mut())
            .enumerate()
            .map(|(seat, (&b, meter))| {
                let bot = &t.bots[b];
                let inner = crate::game::seat_span(seat, &bot.spec).in_scope(|| {
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        connector.connect(bot)
                    }))
                    .unwrap_or_else(|_| Err(Fault::new(DqReason::Crash, "panicked while starting")))
                    .unwrap_or_else(|fault| {
                        tracing::info!(
                            label = fault.reason.label(),
                            detail = %fault.detail,
                            "the bot did not start"
                        );
                        Box::new(NotStarted(fault))
                    })
                });
                let fuel_start = inner.fuel_used();
                Box::new(Metered {
                    inner,
                    meter,
                    fuel_start,
                }) as Box<dyn SeatController + '_>
            })
            .collect();
        play_observed(config, game.seed, &mut controllers, observer).map_err(|e| {
            RunError::Game {
                index: game.index,
                message: e.to_string(),
            }
        })?
    };
    crate::game::log_disqualifications(&record);
    Ok(FinishedGame {
        index: game.index,
        setting: game.setting,
        seed: game.seed,
        seats: game.seats.clone(),
        record,
        meters,
        wall: start.elapsed(),
    })
}

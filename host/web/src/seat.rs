//! The person's seat in a browser game: a [`SeatController`] that publishes
//! each request on a [`Table`] and blocks until the page answers it.
//!
//! The engine runs each game in its own thread (`clue_engine::play` is
//! synchronous); the HTTP handlers only ever look at the table and hand it
//! an answer they have already validated.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use clue_engine::{Fault, GameRecord, SeatController};
use clue_plugin_api::{DqReason, Event, Reply, Request, Setup, Suggestion};

/// A request the person must answer, with the id the page sends back.
#[derive(Clone, Debug)]
pub struct Pending {
    pub id: u64,
    pub request: Request,
}

/// What the person's seat has seen and what it is being asked.
#[derive(Default)]
pub struct TableState {
    pub setup: Option<Setup>,
    /// Every event as this seat saw it, in order.
    pub events: Vec<Event>,
    pub pending: Option<Pending>,
    /// The seat's own suggestions so far (the contest rules forbid repeats).
    pub suggestions: Vec<Suggestion>,
    /// Bumped on every change, so the page can tell when to redraw.
    pub version: u64,
    pub record: Option<GameRecord>,
    /// The game could not start or stopped early (a bot failed to load, ...).
    pub error: Option<String>,
    answer: Option<(u64, Reply)>,
    next_id: u64,
    abandoned: bool,
    /// When the game ended (with a record or an error).
    ended: Option<Instant>,
}

/// Shared between the game thread (through [`WebHuman`]) and the handlers.
#[derive(Default)]
pub struct Table {
    state: Mutex<TableState>,
    changed: Condvar,
}

/// Why an answer was not handed to the engine.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("the game is not waiting for you right now")]
    NotWaiting,
    #[error("request {given} is stale: the game is waiting for request {current}")]
    Stale { given: u64, current: u64 },
}

impl Table {
    pub fn lock(&self) -> MutexGuard<'_, TableState> {
        // A panic while holding the lock leaves plain data behind; keep serving it.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn changed(&self, mut state: MutexGuard<'_, TableState>) {
        state.version += 1;
        drop(state);
        self.changed.notify_all();
    }

    /// Hands the engine the reply to request `id`.
    pub fn answer(&self, id: u64, reply: Reply) -> Result<(), AnswerError> {
        let mut state = self.lock();
        match &state.pending {
            None => return Err(AnswerError::NotWaiting),
            Some(p) if p.id != id => {
                return Err(AnswerError::Stale {
                    given: id,
                    current: p.id,
                });
            }
            Some(_) => {}
        }
        if state.answer.is_some() {
            return Err(AnswerError::NotWaiting);
        }
        state.answer = Some((id, reply));
        // Answered: nobody may answer it again while the engine takes it up.
        state.pending = None;
        self.changed(state);
        Ok(())
    }

    pub fn finish(&self, result: Result<GameRecord, String>) {
        let mut state = self.lock();
        state.pending = None;
        match result {
            Ok(record) => state.record = Some(record),
            Err(e) => state.error = Some(e),
        }
        state.ended = Some(Instant::now());
        self.changed(state);
    }

    /// Whether the game ended more than `ago` ago.
    pub fn ended_before(&self, ago: Duration) -> bool {
        self.lock().ended.is_some_and(|at| at.elapsed() > ago)
    }

    /// The person left: the game thread stops waiting and the seat times out.
    pub fn abandon(&self) {
        let mut state = self.lock();
        state.abandoned = true;
        self.changed(state);
    }

    /// Waits until the seat has its setup or the game has ended, at most `limit`.
    pub fn wait_started(&self, limit: Duration) {
        let state = self.lock();
        let _ = self.changed.wait_timeout_while(state, limit, |s| {
            s.setup.is_none() && s.record.is_none() && s.error.is_none()
        });
    }

    /// Waits until the version passes `version`, at most `limit` (long polling).
    pub fn wait_change(&self, version: u64, limit: Duration) {
        let state = self.lock();
        let _ = self
            .changed
            .wait_timeout_while(state, limit, |s| s.version <= version);
    }
}

/// The person's seat, as the engine sees it.
pub struct WebHuman {
    pub table: Arc<Table>,
    /// How long the seat waits for the person's answer before the seat is
    /// disqualified (`timeout`): a closed tab must not hold a game's thread
    /// and its bots for ever.
    pub idle_limit: Duration,
}

impl SeatController for WebHuman {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        let table = &self.table;
        let mut state = table.lock();
        match request {
            Request::BeginGame { setup } => {
                state.setup = Some((**setup).clone());
                table.changed(state);
                return Ok(Reply::Ok);
            }
            Request::Watch { event } => {
                state.events.push(event.clone());
                table.changed(state);
                return Ok(Reply::Ok);
            }
            _ => {}
        }
        state.next_id += 1;
        let id = state.next_id;
        state.pending = Some(Pending {
            id,
            request: request.clone(),
        });
        state.answer = None;
        state.version += 1;
        table.changed.notify_all();
        let deadline = Instant::now() + self.idle_limit;
        loop {
            if state.abandoned {
                state.pending = None;
                table.changed(state);
                return Err(Fault::new(DqReason::Timeout, "the person left the game"));
            }
            if let Some((answered, reply)) = state.answer.take()
                && answered == id
            {
                if let Reply::Suggest {
                    suggestion: Some(s),
                } = &reply
                {
                    state.suggestions.push(s.clone());
                }
                state.pending = None;
                table.changed(state);
                return Ok(reply);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                state.pending = None;
                table.changed(state);
                return Err(Fault::new(
                    DqReason::Timeout,
                    format!(
                        "no answer from the person in {} s",
                        self.idle_limit.as_secs()
                    ),
                ));
            }
            state = match table.changed.wait_timeout(state, left) {
                Ok((state, _)) => state,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

/// A bot that waits a moment before each decision, so a person can follow
/// the game on the page.
pub struct Paced {
    pub inner: Box<dyn SeatController>,
    pub delay: Duration,
}

impl SeatController for Paced {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        if matches!(request, Request::Move(_) | Request::Suggest(_)) && !self.delay.is_zero() {
            std::thread::sleep(self.delay);
        }
        self.inner.call(request)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_ended_game_is_old_enough_to_forget() {
        let table = Table::default();
        assert!(
            !table.ended_before(Duration::ZERO),
            "a game in play is kept"
        );
        table.finish(Err("a bot failed to load".into()));
        std::thread::sleep(Duration::from_millis(5));
        assert!(table.ended_before(Duration::ZERO));
        assert!(!table.ended_before(Duration::from_secs(3600)));
    }
}

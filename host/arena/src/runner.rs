//! Running the schedule: games in parallel on worker threads, each stored by
//! the one writer (this thread) in its own transaction as soon as it ends.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clue_engine::{Fault, LogEntry, SeatController, play_observed};
use clue_plugin_api::{DqReason, Reply, Request};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::config::{BotEntry, FileError, Tournament, check_files};
use crate::logfile::{Header, LOG_FORMAT};
use crate::schedule::{ScheduledGame, schedule};
use crate::stats;
use crate::store::{FinishedGame, LiveBatch, Meter, Store, StoreError};
use clue_runtime::bots;

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

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    File(#[from] FileError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("game {index} could not be played: {message}")]
    Game { index: u64, message: String },
    #[error("{file}:{line}:{column}: bot `{bot}`: the build command failed: {message}")]
    Build {
        file: String,
        line: u64,
        column: u64,
        bot: String,
        message: String,
    },
}

/// How the run reports as it goes.
pub struct RunOptions<'a> {
    /// Set (e.g. by Ctrl-C) to stop taking new games; games in play finish and are kept.
    pub stop: &'a AtomicBool,
    /// Show the progress bar (it is hidden anyway when stderr is not a terminal).
    pub progress: bool,
    /// Print the standings this often while running (and always at the end).
    pub standings_every: Option<Duration>,
}

/// What a run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSummary {
    pub scheduled: usize,
    /// Games already in the store when the run began.
    pub already: usize,
    pub played: usize,
    /// Whether the run stopped before the schedule was done.
    pub stopped: bool,
}

/// Runs every `build:` command once, in the tournament file's folder, then
/// checks the bots' files exist.
pub fn build(t: &Tournament) -> Result<(), RunError> {
    for bot in &t.bots {
        let Some(command) = &bot.build else { continue };
        tracing::info!(bot = %bot.name, command = %command, "building");
        let status = std::process::Command::new("sh")
            .arg("-c")
            .arg(command)
            .current_dir(&t.base_dir)
            .status();
        let failed = match status {
            Ok(s) if s.success() => None,
            Ok(s) => Some(format!("`{command}` exited with {s}")),
            Err(e) => Some(format!("`{command}` could not start: {e}")),
        };
        if let Some(message) = failed {
            return Err(RunError::Build {
                file: t.file.clone(),
                line: bot.build_pos.line,
                column: bot.build_pos.column,
                bot: bot.name.clone(),
                message,
            });
        }
    }
    check_files(t, true)?;
    Ok(())
}

/// Plays every scheduled game not yet in `store`, `t.concurrency` at a time.
pub fn run(
    t: &Tournament,
    store: &mut Store,
    connector: &dyn Connector,
    options: &RunOptions<'_>,
) -> Result<RunSummary, RunError> {
    let span = tracing::info_span!("tournament", file = %t.file, seed = t.seed);
    let _tournament = span.enter();
    store.bind(t)?;
    let all = schedule(t);
    let done = store.done()?;
    let pending: Vec<&ScheduledGame> = all.iter().filter(|g| !done.contains(&g.index)).collect();
    let mut summary = RunSummary {
        scheduled: all.len(),
        already: all.len() - pending.len(),
        played: 0,
        stopped: false,
    };
    let bar = progress_bar(all.len() as u64, summary.already as u64, options.progress);
    let _shown = (!bar.is_hidden()).then(|| Shown::new(&bar));
    let next = AtomicUsize::new(0);
    let workers = t.concurrency.clamp(1, pending.len().max(1));
    tracing::info!(
        scheduled = summary.scheduled,
        already = summary.already,
        workers,
        "running"
    );
    let mut failure: Option<RunError> = None;
    // Games still in play from a run that was killed are not in play any more.
    store.live_clear()?;
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Message>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (next, pending) = (&next, &pending);
            let tournament = span.clone();
            scope.spawn(move || {
                let _tournament = tournament.enter();
                loop {
                    if options.stop.load(Ordering::SeqCst) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(game) = pending.get(i) else { break };
                    let live = tx.clone();
                    // A game's events go to the writer only once it has
                    // lasted LIVE_EVERY: quick games cost the writer nothing.
                    let started = Instant::now();
                    let mut held: Vec<LogEntry> = Vec::new();
                    let mut observer = |entry: &LogEntry| {
                        if started.elapsed() < LIVE_EVERY {
                            held.push(entry.clone());
                            return;
                        }
                        for early in held.drain(..) {
                            let _ = live.send(Message::Event(i, early));
                        }
                        let _ = live.send(Message::Event(i, entry.clone()));
                    };
                    let result = play_one_observed(t, game, connector, &mut observer);
                    let failed = result.is_err();
                    if tx.send(Message::Done(i, Box::new(result))).is_err() || failed {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut last_standings = Instant::now();
        let mut live = Live::default();
        loop {
            let message = match rx.recv_timeout(LIVE_EVERY) {
                Ok(message) => message,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    live.flush(t, &pending, store);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            let result = match message {
                Message::Event(i, entry) => {
                    live.push(i, entry);
                    if live.due() {
                        live.flush(t, &pending, store);
                    }
                    continue;
                }
                Message::Done(i, result) => {
                    live.games.remove(&i);
                    *result
                }
            };
            let stored = result.and_then(|game| {
                store.insert(&game, t)?;
                tracing::debug!(game = game.index, seed = game.seed, "stored");
                Ok(())
            });
            if let Err(e) = stored {
                tracing::debug!(error = %e, "stopping: a game failed or could not be stored");
                // Stop the others; what is stored stays stored.
                options.stop.store(true, Ordering::SeqCst);
                failure.get_or_insert(e);
                continue;
            }
            summary.played += 1;
            bar.inc(1);
            if let Some(every) = options.standings_every
                && last_standings.elapsed() >= every
            {
                last_standings = Instant::now();
                if let Ok(text) = standings_text(store) {
                    bar.suspend(|| println!("{text}"));
                }
            }
        }
    });
    let _ = store.live_clear();
    bar.finish_and_clear();
    if let Some(e) = failure {
        return Err(e);
    }
    summary.stopped = summary.already + summary.played < summary.scheduled;
    Ok(summary)
}

/// What the workers tell the writer: an event of a game in play (by its
/// place in the pending list), or the game's end.
enum Message {
    Event(usize, LogEntry),
    Done(usize, Box<Result<FinishedGame, RunError>>),
}

/// How often the events of games in play are written for `clue serve` to
/// follow. Games shorter than this never reach the live tables.
const LIVE_EVERY: Duration = Duration::from_millis(250);

/// The games in play: their events not yet written, for spectators.
#[derive(Default)]
struct Live {
    games: std::collections::BTreeMap<usize, LiveGame>,
    last_flush: Option<Instant>,
}

struct LiveGame {
    written: usize,
    entries: Vec<LogEntry>,
}

impl Live {
    fn push(&mut self, i: usize, entry: LogEntry) {
        self.games
            .entry(i)
            .or_insert_with(|| LiveGame {
                written: 0,
                entries: Vec::new(),
            })
            .entries
            .push(entry);
    }

    fn due(&self) -> bool {
        self.last_flush.is_none_or(|t| t.elapsed() >= LIVE_EVERY)
    }

    /// Writes the new events of every game in play (the workers send only
    /// those of games in play for [`LIVE_EVERY`] or more). A failed write
    /// only costs the spectators.
    fn flush(&mut self, t: &Tournament, pending: &[&ScheduledGame], store: &mut Store) {
        self.last_flush = Some(Instant::now());
        let mut headers = Vec::new();
        for (&i, game) in &self.games {
            if game.written == game.entries.len() {
                continue;
            }
            let Some(scheduled) = pending.get(i) else {
                continue;
            };
            headers.push((
                i,
                scheduled.index,
                Header {
                    format: LOG_FORMAT.to_string(),
                    seed: scheduled.seed,
                    config: t.settings[scheduled.setting].config.clone(),
                    bots: scheduled
                        .seats
                        .iter()
                        .map(|&b| t.bots[b].spec.clone())
                        .collect(),
                },
            ));
        }
        if headers.is_empty() {
            return;
        }
        let batch: Vec<LiveBatch<'_>> = headers
            .iter()
            .filter_map(|(i, index, header)| {
                let game = self.games.get(i)?;
                Some(LiveBatch {
                    index: *index,
                    header,
                    from: game.written,
                    entries: &game.entries[game.written..],
                })
            })
            .collect();
        if store.live_write(&batch).is_ok() {
            for (i, _, _) in &headers {
                if let Some(game) = self.games.get_mut(i) {
                    game.written = game.entries.len();
                }
            }
        }
    }
}

/// The current standings as a short table.
pub fn standings_text(store: &Store) -> Result<String, StoreError> {
    let meta = store.require_meta()?;
    let games = store.games()?;
    let report = stats::compute(&meta.bots, &meta.settings, &games);
    Ok(crate::report::standings_table(&report.total))
}

/// The progress bar on screen, if a run is showing one: log lines are
/// written through [`suspend_progress`] so they never tear it.
static SHOWN: std::sync::Mutex<Option<ProgressBar>> = std::sync::Mutex::new(None);

/// Runs `write` (a log line going to stderr) with the progress bar of a run
/// in progress, if any, taken off the screen meanwhile and redrawn after.
pub fn suspend_progress<R>(write: impl FnOnce() -> R) -> R {
    let bar = SHOWN.lock().ok().and_then(|shown| shown.clone());
    match bar {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// Shows `bar` to [`suspend_progress`] until dropped.
struct Shown;

impl Shown {
    fn new(bar: &ProgressBar) -> Shown {
        if let Ok(mut shown) = SHOWN.lock() {
            *shown = Some(bar.clone());
        }
        Shown
    }
}

impl Drop for Shown {
    fn drop(&mut self) {
        if let Ok(mut shown) = SHOWN.lock() {
            *shown = None;
        }
    }
}

fn progress_bar(total: u64, done: u64, show: bool) -> ProgressBar {
    let target = if show && std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}  [{elapsed_precise}]",
    ) {
        bar.set_style(style);
    }
    bar.set_position(done);
    bar.reset_eta();
    bar
}

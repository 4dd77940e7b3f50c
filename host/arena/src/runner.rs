//! Running the schedule: the coordinator writes it into the store ([`run`]),
//! and every player, the coordinator included, claims games from it
//! ([`work`]; `store::claims`), plays them in parallel on worker threads and
//! stores each through the one writer (this thread) in its own transaction as
//! soon as it ends, if its claim still stands. A heartbeat thread keeps the
//! claims alive.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clue_engine::LogEntry;

use crate::config::{FileError, Tournament};
use crate::stats;
use crate::store::{Claim, FinishedGame, Progress, Store, StoreError, claims};

mod build;
mod live;
mod one;
pub use build::{build, build_for, build_for_watched, build_watched};
use live::{LIVE_EVERY, Live};
pub use one::{Connector, SpecConnector, play_one, play_one_observed};

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
    #[error(
        "{store} holds games played with other files: {why}; put it back as it was, \
         or start the tournament anew in another store"
    )]
    Changed { store: String, why: String },
    #[error(
        "{store} holds games played by another clue: {why}; finish it with the clue that \
         started it, or start the tournament anew in another store"
    )]
    OtherClue { store: String, why: String },
}

/// How the run reports as it goes.
pub struct RunOptions<'a> {
    /// Set (e.g. by Ctrl-C) to stop taking new games; games in play finish and are kept.
    pub stop: &'a AtomicBool,
    /// What the run shows as it goes (the binary's progress bar and
    /// standings), or [`Unwatched`].
    pub watch: &'a dyn Watch,
    /// Give the watch the standings this often while running.
    pub standings_every: Option<Duration>,
}

/// What a run shows as it goes. The library prints nothing: `clue
/// tournament` draws its progress bar and prints the standings through
/// this, and a library user or a test passes [`Unwatched`].
pub trait Watch: Sync {
    /// The run begins with `done` of `scheduled` games already stored.
    fn start(&self, _scheduled: u64, _done: u64) {}
    /// Whether [`Watch::progress`] shows anything: the store is asked for
    /// the schedule's state only then.
    fn shows_progress(&self) -> bool {
        false
    }
    /// The schedule's state: games stored by every worker, games in play,
    /// each worker's throughput.
    fn progress(&self, _now: &Progress) {}
    /// A game played here ended.
    fn game_done(&self) {}
    /// The standings so far, every [`RunOptions::standings_every`].
    fn standings(&self, _table: &str) {}
    /// The run is over (finished, stopped or failed).
    fn finish(&self) {}
    /// Bot `bot`'s build begins, `how` it runs in words (`sandboxed in
    /// FOLDER`, `as you in FOLDER`): a build may take minutes.
    fn building(&self, _bot: &str, _how: &str) {}
    /// The builds are over (done or failed).
    fn built(&self) {}
}

/// Shows nothing.
pub struct Unwatched;

impl Watch for Unwatched {}

/// Tells a watch the run is over when dropped.
struct Finished<'a>(&'a dyn Watch);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.0.finish();
    }
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

/// How long a claim lasts without a heartbeat, unless a worker says otherwise.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);

/// The most games one process plays at once. Each game starts all its bots
/// at once, so a slip of zeros (`concurrency: 100000`) with process bots
/// would start that many processes together; more games at once need more
/// workers (`clue tournament worker`), each with its own cores.
pub const MAX_CONCURRENCY: usize = 1024;

/// One player of the store's schedule: the coordinator's `run` and each
/// `clue tournament worker` (docs/tournament.md, *Many machines*).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerOptions {
    /// Unique among the workers of a store ([`claims::worker_id`]).
    pub id: String,
    /// Games played at once; 0 plays none and only follows the others.
    pub concurrency: usize,
    /// How long a claim stands without a heartbeat; the heartbeat comes
    /// four times as often. A worker that dies has its games claimed again
    /// this long after its last heartbeat.
    pub lease: Duration,
}

impl WorkerOptions {
    /// A new worker id, the default lease.
    pub fn new(concurrency: usize) -> WorkerOptions {
        WorkerOptions {
            id: claims::worker_id(),
            concurrency,
            lease: DEFAULT_LEASE,
        }
    }
}

/// Plays every scheduled game not yet in `store`, `t.concurrency` at a time.
pub fn run(
    t: &Tournament,
    store: &mut Store,
    connector: &dyn Connector,
    options: &RunOptions<'_>,
) -> Result<RunSummary, RunError> {
    run_as(
        t,
        store,
        connector,
        options,
        &WorkerOptions::new(t.concurrency),
    )
}

/// [`run`] as the worker `worker`: binds the store to `t` (a new store, or
/// the same tournament), writes the schedule, then plays as one worker
/// among any others ([`work`]) until every game is stored.
pub fn run_as(
    t: &Tournament,
    store: &mut Store,
    connector: &dyn Connector,
    options: &RunOptions<'_>,
    worker: &WorkerOptions,
) -> Result<RunSummary, RunError> {
    let span = tracing::info_span!("tournament", file = %t.file, seed = t.seed);
    let _tournament = span.enter();
    store.bind(t)?;
    let scheduled = store.write_schedule(t)?;
    tracing::debug!(scheduled, "schedule written");
    play_claims(t, store, connector, options, worker, &span)
}

/// Plays the store's schedule as one worker: claims games (a lease kept by a
/// heartbeat), plays them `worker.concurrency` at a time, stores each while
/// the claim stands, and returns once every game of the schedule is stored
/// (waiting, when the rest is claimed by others, for them to finish or for
/// their leases to expire). `t` must be the store's tournament
/// ([`Store::check_worker`]).
pub fn work(
    t: &Tournament,
    store: &mut Store,
    connector: &dyn Connector,
    options: &RunOptions<'_>,
    worker: &WorkerOptions,
) -> Result<RunSummary, RunError> {
    let span = tracing::info_span!("tournament", file = %t.file, seed = t.seed);
    let _tournament = span.enter();
    play_claims(t, store, connector, options, worker, &span)
}

/// What a worker does between claiming and storing.
struct Playing<'a> {
    t: &'a Tournament,
    worker: &'a WorkerOptions,
    options: &'a RunOptions<'a>,
    /// Claimed games being played, by index.
    in_flight: std::collections::BTreeMap<u64, Claim>,
    /// The same games' claim counts, for the heartbeat thread.
    held: &'a Mutex<std::collections::BTreeMap<u64, i64>>,
    failure: Option<RunError>,
    summary: RunSummary,
}

impl Playing<'_> {
    fn fail(&mut self, e: RunError) {
        tracing::debug!(error = %e, "stopping: a game failed or could not be stored");
        // Stop taking games; what is stored stays stored.
        self.options.stop.store(true, Ordering::SeqCst);
        self.failure.get_or_insert(e);
    }

    /// Stores a game that ended, if its claim still stands.
    fn finished(&mut self, index: u64, result: Result<FinishedGame, RunError>, store: &mut Store) {
        let claim = self.in_flight.remove(&index);
        if let Ok(mut held) = self.held.lock() {
            held.remove(&index);
        }
        let game = match result {
            Ok(game) => game,
            Err(e) => return self.fail(e),
        };
        let Some(claim) = claim else { return };
        match store.insert(&game, self.t, &claim.lease) {
            Ok(true) => {
                tracing::debug!(
                    game = game.index,
                    seed = game.seed,
                    worker = %self.worker.id,
                    "stored"
                );
                self.summary.played += 1;
            }
            Ok(false) => tracing::info!(
                game = game.index,
                worker = %self.worker.id,
                "not stored: the lease expired and another worker claimed the game"
            ),
            Err(e) => self.fail(e.into()),
        }
    }
}

fn play_claims(
    t: &Tournament,
    store: &mut Store,
    connector: &dyn Connector,
    options: &RunOptions<'_>,
    worker: &WorkerOptions,
    span: &tracing::Span,
) -> Result<RunSummary, RunError> {
    let start = store.progress()?;
    store.register(&worker.id, &claims::host_name())?;
    let remaining = start.scheduled.saturating_sub(start.done) as usize;
    let threads = worker.concurrency.min(remaining);
    let held = Mutex::new(std::collections::BTreeMap::new());
    let mut playing = Playing {
        t,
        worker,
        options,
        in_flight: std::collections::BTreeMap::new(),
        held: &held,
        failure: None,
        summary: RunSummary {
            scheduled: start.scheduled as usize,
            already: start.done as usize,
            played: 0,
            stopped: false,
        },
    };
    let watch = options.watch;
    watch.start(start.scheduled, start.done);
    // However the run ends, an error included, the watch hears of it.
    let _finish = Finished(watch);
    tracing::info!(
        scheduled = start.scheduled,
        already = start.done,
        workers = threads,
        worker = %worker.id,
        "running"
    );
    let mut heartbeat_store = store.another()?;
    // How often an idle worker looks for games again.
    let poll = (worker.lease / 4).clamp(Duration::from_millis(100), Duration::from_secs(1));
    let (games_tx, games_rx) = mpsc::channel::<Claim>();
    let games_rx = Mutex::new(games_rx);
    std::thread::scope(|scope| {
        let (beat_stop, beat_wait) = mpsc::channel::<()>();
        let held = &held;
        scope.spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) =
                beat_wait.recv_timeout(worker.lease / 4)
            {
                let games: Vec<u64> = held
                    .lock()
                    .map(|h| h.keys().copied().collect())
                    .unwrap_or_default();
                match heartbeat_store.heartbeat(&worker.id, &games, worker.lease) {
                    Ok(()) => {
                        tracing::trace!(worker = %worker.id, games = games.len(), "heartbeat")
                    }
                    Err(e) => tracing::warn!(
                        worker = %worker.id,
                        error = %e,
                        "heartbeat failed: this worker's leases may expire"
                    ),
                }
            }
        });
        let (tx, rx) = mpsc::channel::<Message>();
        for _ in 0..threads {
            let tx = tx.clone();
            let games_rx = &games_rx;
            let tournament = span.clone();
            scope.spawn(move || {
                let _tournament = tournament.enter();
                loop {
                    let next = games_rx
                        .lock()
                        .map_err(|_| ())
                        .and_then(|rx| rx.recv().map_err(|_| ()));
                    let Ok(claim) = next else { break };
                    let index = claim.game.index;
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
                            let _ = live.send(Message::Event(index, early));
                        }
                        let _ = live.send(Message::Event(index, entry.clone()));
                    };
                    let result = play_one_observed(t, &claim.game, connector, &mut observer);
                    if tx.send(Message::Done(index, Box::new(result))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut last_standings = Instant::now();
        let mut last_progress: Option<Instant> = None;
        let mut nothing_since: Option<Instant> = None;
        let mut live = Live::default();
        loop {
            let stopping = options.stop.load(Ordering::SeqCst);
            let idle = threads - playing.in_flight.len();
            if !stopping && idle > 0 && nothing_since.is_none_or(|at| at.elapsed() >= poll) {
                match store.claim(&worker.id, idle, worker.lease) {
                    Ok(claims) => {
                        nothing_since = (claims.len() < idle).then(Instant::now);
                        for claim in claims {
                            let index = claim.game.index;
                            if claim.lease.claims > 1 {
                                tracing::info!(
                                    game = index,
                                    worker = %worker.id,
                                    claims = claim.lease.claims,
                                    "claimed again: an earlier claim was given back or its lease expired"
                                );
                            } else {
                                tracing::debug!(game = index, worker = %worker.id, "claimed");
                            }
                            if let Ok(mut held) = held.lock() {
                                held.insert(index, claim.lease.claims);
                            }
                            playing.in_flight.insert(index, claim.clone());
                            let _ = games_tx.send(claim);
                        }
                    }
                    Err(e) => playing.fail(e.into()),
                }
            }
            if playing.in_flight.is_empty() {
                if options.stop.load(Ordering::SeqCst) {
                    break;
                }
                match store.progress() {
                    Ok(p) => {
                        watch.progress(&p);
                        if p.done >= p.scheduled {
                            break;
                        }
                    }
                    Err(e) => {
                        playing.fail(e.into());
                        break;
                    }
                }
                // The rest is claimed by others: wait for them to store it,
                // or for a lease to expire.
                std::thread::sleep(poll);
                nothing_since = None;
                continue;
            }
            if watch.shows_progress()
                && last_progress.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY)
            {
                last_progress = Some(Instant::now());
                if let Ok(p) = store.progress() {
                    watch.progress(&p);
                }
            }
            let message = match rx.recv_timeout(LIVE_EVERY) {
                Ok(message) => message,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    live.flush(t, &playing.in_flight, store);
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            match message {
                Message::Event(index, entry) => {
                    live.push(index, entry);
                    if live.due() {
                        live.flush(t, &playing.in_flight, store);
                    }
                }
                Message::Done(index, result) => {
                    live.end(index);
                    playing.finished(index, *result, store);
                    watch.game_done();
                    if let Some(every) = options.standings_every
                        && last_standings.elapsed() >= every
                    {
                        last_standings = Instant::now();
                        if let Ok(text) = standings_text(store) {
                            watch.standings(&text);
                        }
                    }
                }
            }
        }
        drop(games_tx);
        let _ = beat_stop.send(());
    });
    let left: Vec<u64> = playing.in_flight.keys().copied().collect();
    if !left.is_empty() {
        let _ = store.release(&worker.id, &left);
    }
    if let Some(e) = playing.failure {
        return Err(e);
    }
    let end = store.progress()?;
    if end.done >= end.scheduled {
        // Nothing is in play any more, on any machine.
        let _ = store.live_clear();
    }
    let mut summary = playing.summary;
    summary.stopped = end.done < end.scheduled;
    Ok(summary)
}

/// What the workers tell the writer: an event of a game in play (by its
/// index), or the game's end.
enum Message {
    Event(u64, LogEntry),
    Done(u64, Box<Result<FinishedGame, RunError>>),
}

/// How often a progress bar on screen asks the store how all workers do.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

/// The current standings as a short table.
pub fn standings_text(store: &Store) -> Result<String, StoreError> {
    let meta = store.require_meta()?;
    let games = store.games()?;
    let report = stats::compute(&meta.bots, &meta.settings, &games);
    Ok(crate::report::standings_table(&report.total))
}

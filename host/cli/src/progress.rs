//! What `clue tournament run`, `resume` and `worker` show as they go: the
//! progress bar on stderr (only on a terminal) and the standings on stdout,
//! through the runner's [`Watch`]; the spinner of the bots' builds
//! ([`Builds`]); and `clue play`'s spinner ([`Turns`]).
//! Log lines go through [`suspend`] so they never tear either.

use std::io::IsTerminal;
use std::sync::Mutex;

use clue_arena::runner::Watch;
use clue_arena::store::Progress;
use clue_engine::{Fault, SeatController};
use clue_plugin_api::{Reply, Request};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// The bar on screen, if a run is showing one (one run at a time draws a
/// bar: its [`Shown`]).
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Runs `write` (a log line going to stderr) with the progress bar of a run
/// in progress, if any, taken off the screen meanwhile and redrawn after.
pub fn suspend<R>(write: impl FnOnce() -> R) -> R {
    match shown() {
        Some(bar) => bar.suspend(write),
        None => write(),
    }
}

/// A run's progress bar and standings. The bar is drawn only when `bar` is
/// asked for and stderr is a terminal; the standings are printed whenever
/// the runner gives them.
pub struct Shown {
    wanted: bool,
}

impl Shown {
    pub fn new(bar: bool) -> Shown {
        Shown {
            wanted: bar && std::io::stderr().is_terminal(),
        }
    }
}

/// The bar on screen, if any (a handle to it: nothing is held locked while
/// it is drawn, so a log line written meanwhile can take it off).
fn shown() -> Option<ProgressBar> {
    SHOWN.lock().ok().and_then(|shown| shown.clone())
}

impl Watch for Shown {
    fn start(&self, scheduled: u64, done: u64) {
        if !self.wanted {
            return;
        }
        let bar = ProgressBar::with_draw_target(Some(scheduled), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games  {per_sec}  ETA {eta}  [{elapsed_precise}]  {msg}",
        ) {
            bar.set_style(style);
        }
        bar.set_position(done);
        bar.reset_eta();
        if let Ok(mut shown) = SHOWN.lock() {
            *shown = Some(bar);
        }
    }

    fn shows_progress(&self) -> bool {
        self.wanted
    }

    /// The bar's position (games stored by every worker) and its message:
    /// games in play and each worker's throughput.
    fn progress(&self, now: &Progress) {
        if let Some(bar) = shown() {
            bar.set_position(now.done);
            let mut workers: Vec<String> = now
                .workers
                .iter()
                .take(4)
                .map(|w| format!("{} {:.1}/s", w.id, w.per_second))
                .collect();
            if now.workers.len() > 4 {
                workers.push(format!("{} more", now.workers.len() - 4));
            }
            bar.set_message(format!("{} in play  {}", now.in_play, workers.join(", ")));
        }
    }

    fn game_done(&self) {
        if let Some(bar) = shown() {
            bar.inc(1);
        }
    }

    fn standings(&self, table: &str) {
        suspend(|| println!("{table}"));
    }

    fn finish(&self) {
        if let Ok(mut shown) = SHOWN.lock()
            && let Some(bar) = shown.take()
        {
            bar.finish_and_clear();
        }
    }
}

/// What `clue tournament run`, `resume` and `check --build` show on stderr
/// while the bots are built: a spinner naming the bot being built, how, and
/// for how long (an entrant's `cargo build` or `pip install` takes
/// minutes). Drawn only when asked for and stderr is a terminal, and taken
/// off the screen when the builds are over.
pub struct Builds {
    wanted: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl Builds {
    pub fn new(wanted: bool) -> Builds {
        Builds {
            wanted: wanted && std::io::stderr().is_terminal(),
            bar: Mutex::new(None),
        }
    }
}

impl Watch for Builds {
    fn building(&self, bot: &str, how: &str) {
        if !self.wanted {
            return;
        }
        let Ok(mut bar) = self.bar.lock() else {
            return;
        };
        if let Some(old) = bar.take() {
            old.finish_and_clear();
        }
        let spinner = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}") {
            spinner.set_style(style);
        }
        spinner.set_message(format!("building {bot} ({how})"));
        spinner.enable_steady_tick(std::time::Duration::from_millis(200));
        if let Ok(mut shown) = SHOWN.lock() {
            *shown = Some(spinner.clone());
        }
        *bar = Some(spinner);
    }

    fn built(&self) {
        if let Some(spinner) = self.bar.lock().ok().and_then(|mut bar| bar.take()) {
            spinner.finish_and_clear();
            if let Ok(mut shown) = SHOWN.lock() {
                shown.take();
            }
        }
    }
}

/// What `clue play` shows on stderr while its one game is played: a
/// spinner with the time so far, the decisions the bots have made and the
/// seat being asked now (a 32-seat game on a large deck takes a minute).
/// Drawn only when asked for and stderr is a terminal, and taken off the
/// screen before the game's account is printed.
pub struct Turns {
    bar: Option<ProgressBar>,
    decisions: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Turns {
    pub fn new(wanted: bool) -> Turns {
        let bar = (wanted && std::io::stderr().is_terminal()).then(|| {
            let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}") {
                bar.set_style(style);
            }
            bar.set_message("seating the bots");
            bar.enable_steady_tick(std::time::Duration::from_millis(200));
            if let Ok(mut shown) = SHOWN.lock() {
                *shown = Some(bar.clone());
            }
            bar
        });
        Turns {
            bar,
            decisions: Default::default(),
        }
    }

    /// `controller`, seated at `seat` as `name`, reporting each request to
    /// the spinner (as it is when none is drawn).
    pub fn watch(
        &self,
        seat: usize,
        name: String,
        controller: Box<dyn SeatController>,
    ) -> Box<dyn SeatController> {
        match &self.bar {
            Some(bar) => Box::new(Watched {
                inner: controller,
                seat,
                name,
                bar: bar.clone(),
                decisions: self.decisions.clone(),
            }),
            None => controller,
        }
    }

    /// Takes the spinner off the screen.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
            if let Ok(mut shown) = SHOWN.lock() {
                shown.take();
            }
        }
    }
}

impl Drop for Turns {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A seat whose requests [`Turns`] shows.
struct Watched {
    inner: Box<dyn SeatController>,
    seat: usize,
    name: String,
    bar: ProgressBar,
    decisions: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl SeatController for Watched {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        if !matches!(request, Request::Watch { .. } | Request::BeginGame { .. }) {
            let before = self
                .decisions
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.bar.set_message(format!(
                "{before} decisions made; seat {} ({}) to {}",
                self.seat,
                self.name,
                request.kind()
            ));
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

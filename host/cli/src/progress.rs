//! What `clue tournament run`, `resume` and `worker` show as they go: the
//! progress bar on stderr (only on a terminal) and the standings on stdout,
//! through the runner's [`Watch`]. Log lines go through [`suspend`] so they
//! never tear the bar.

use std::io::IsTerminal;
use std::sync::Mutex;

use clue_arena::runner::Watch;
use clue_arena::store::Progress;
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

//! An isolated native bot: the plugin runs in `clue worker native PATH`, a
//! process of the host's own binary, seated through the JSON-lines process
//! runtime ([`JsonlBot`]): its hello, its per-message deadline, its kill and
//! reap of the whole process group when the seat is dropped.
//!
//! Whatever the plugin does to its process (segfault, abort, stack overflow,
//! `exit()`) ends only the worker; the seat gets a `crash` whose detail quotes
//! the worker's last words on stderr (the panic message, or Rust's "has
//! overflowed its stack"), or `out-of-memory` when those words are Rust's
//! "memory allocation of N bytes failed" (the worker's address space is capped).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use clue_engine::{Fault, SeatController};
use clue_plugin_api::{DqReason, Reply, Request};

use crate::process::jsonl::JsonlBot;
use crate::process::{BotProcess, ProcessLimits};
use crate::sticky::Sticky;

use super::DEFAULT_CALL_LIMIT;
use super::worker::REPORT;

/// An isolated native bot that could not be started.
#[derive(Debug, thiserror::Error)]
pub enum IsolatedError {
    #[error("native bot `{}`: no such file", path.display())]
    Missing { path: PathBuf },
    #[error(
        "native bot `{}`: cannot find the `clue` binary to run its worker in \
         (looked beside {})", path.display(), beside.display()
    )]
    NoWorkerBinary { path: PathBuf, beside: PathBuf },
    /// The library does not load (the worker's [`super::LoadError`], as text).
    #[error("{0}")]
    Load(String),
    #[error("native bot `{}`: cannot start its worker: {message}", path.display())]
    Spawn { path: PathBuf, message: String },
}

/// The limits of a worker: those of any process bot, with the native per-call limit.
pub fn worker_limits() -> ProcessLimits {
    ProcessLimits {
        message: DEFAULT_CALL_LIMIT,
        ..ProcessLimits::default()
    }
}

/// The `clue` binary to run workers with: this process if it is `clue` (or
/// cargo's `clue-<hash>` copy of it), else a `clue` beside it or one directory
/// up (a test or bench binary in `target/*/deps` finds `target/*/clue`).
pub fn worker_program() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let name = format!("clue{}", std::env::consts::EXE_SUFFIX);
    let own = exe
        .file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| s == "clue" || s.starts_with("clue-"));
    if own {
        return Some(exe);
    }
    let dir = exe.parent()?;
    [dir.join(&name), dir.parent()?.join(&name)]
        .into_iter()
        .find(|p| p.is_file())
}

/// A native plugin in its own worker process.
pub struct IsolatedNative {
    bot: Sticky<JsonlBot>,
}

impl IsolatedNative {
    /// Starts a worker for the plugin at `path` with [`worker_program`].
    pub fn spawn(path: &Path, limits: &ProcessLimits) -> Result<IsolatedNative, IsolatedError> {
        let program = worker_program().ok_or_else(|| IsolatedError::NoWorkerBinary {
            path: path.to_path_buf(),
            beside: std::env::current_exe().unwrap_or_default(),
        })?;
        IsolatedNative::spawn_with(&program, path, limits)
    }

    /// Starts `program worker native PATH` (`program` being a `clue` binary).
    /// The first time a library file is seen, `program worker native --check
    /// PATH` loads it in a throwaway process, so that a load error (wrong
    /// version, not a plugin) refuses the bot before the game, named, without
    /// the host ever opening the library itself.
    pub fn spawn_with(
        program: &Path,
        path: &Path,
        limits: &ProcessLimits,
    ) -> Result<IsolatedNative, IsolatedError> {
        if !path.is_file() {
            return Err(IsolatedError::Missing {
                path: path.to_path_buf(),
            });
        }
        // The worker may run in another directory: give it an absolute path.
        let library = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        preflight(program, path, &library, limits)?;
        let words = [
            program.to_string_lossy().into_owned(),
            "worker".to_string(),
            "native".to_string(),
            library.to_string_lossy().into_owned(),
        ];
        let command = shell_words::join(&words);
        let bot = JsonlBot::spawn(&command, limits).map_err(|e| IsolatedError::Spawn {
            path: path.to_path_buf(),
            message: e.to_string(),
        })?;
        Ok(IsolatedNative { bot })
    }

    /// The name the bot gave in its hello (`None` before the first request).
    pub fn name(&self) -> Option<&str> {
        self.bot.name()
    }

    /// The fault, with the worker's last words when it died.
    fn explain(&self, mut fault: Fault) -> Fault {
        if fault.reason != DqReason::Crash {
            return fault;
        }
        // stderr is drained by another thread: wait for the pipe to end (the
        // worker has exited), not only for its first bytes. Waiting for the
        // first bytes once cut a report after `clue worker: `, when the
        // machine was loaded.
        let text = JsonlBot::stderr(&self.bot).text_after_end(crate::process::STDERR_SETTLE);
        if let Some(words) = last_words(&text) {
            fault.detail = format!("{}: {words}", fault.detail);
        }
        // Rust aborts when an allocation fails, which under the worker's
        // `RLIMIT_AS` means the bot ran out of memory.
        if text.contains("memory allocation of ") && text.contains(" failed") {
            fault.reason = DqReason::OutOfMemory;
        }
        fault
    }
}

/// Libraries already checked, by path and modification time.
static CHECKED: Mutex<Vec<(PathBuf, Option<SystemTime>)>> = Mutex::new(Vec::new());

/// Loads the library once in `program worker native --check`, unless this
/// very file has passed before. Loading runs the library's code (its ELF
/// constructors, its root module's loader), so the check runs contained by
/// `limits` like the worker itself: its sandbox, its cgroups, its start-up
/// limit.
fn preflight(
    program: &Path,
    path: &Path,
    library: &Path,
    limits: &ProcessLimits,
) -> Result<(), IsolatedError> {
    let key = (
        library.to_path_buf(),
        std::fs::metadata(library).and_then(|m| m.modified()).ok(),
    );
    let checked = |k: &(PathBuf, Option<SystemTime>)| {
        CHECKED.lock().map(|list| list.contains(k)).unwrap_or(false)
    };
    if checked(&key) {
        return Ok(());
    }
    let fail = |message: String| IsolatedError::Spawn {
        path: path.to_path_buf(),
        message,
    };
    let argv = [
        program.to_string_lossy().into_owned(),
        "worker".to_string(),
        "native".to_string(),
        "--check".to_string(),
        library.to_string_lossy().into_owned(),
    ];
    let mut check = BotProcess::spawn(&argv, limits).map_err(|e| fail(e.to_string()))?;
    check.close_input();
    let Some(status) = check.wait_exit(limits.startup) else {
        check.kill();
        return Err(fail(format!(
            "loading it took over {} ms",
            limits.startup.as_millis()
        )));
    };
    if status.success() {
        if let Ok(mut list) = CHECKED.lock() {
            list.push(key);
        }
        return Ok(());
    }
    let stderr = check.stderr_text(true);
    // The worker prints `error: <the load error>`, which names the file.
    let said = stderr
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("error: "))
        .map(str::to_string);
    Err(match said {
        Some(message) => IsolatedError::Load(message),
        None => fail(format!(
            "loading it ended its process ({status}){}",
            last_words(&stderr)
                .map(|w| format!(": {w}"))
                .unwrap_or_default()
        )),
    })
}

/// What the worker said last: its own report if it made one, else the last
/// few lines of stderr (a runtime's "fatal runtime error: stack overflow").
fn last_words(stderr: &str) -> Option<String> {
    if let Some(report) = stderr
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix(REPORT))
    {
        return Some(report.to_string());
    }
    Some(crate::process::last_lines(stderr, 2, 400)).filter(|tail| !tail.is_empty())
}

impl SeatController for IsolatedNative {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        self.bot.call(request).map_err(|fault| self.explain(fault))
    }

    /// The worker's stderr: whatever the plugin printed there.
    fn stderr(&self) -> Option<String> {
        SeatController::stderr(&self.bot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_words_prefer_the_workers_report() {
        let check = |stderr: &str, expected: Option<&str>| {
            assert_eq!(last_words(stderr).as_deref(), expected, "{stderr:?}");
        };
        check("", None);
        check(
            "thread 'main' panicked at src/lib.rs:3:5:\nboom\nclue worker: panicked in `suggest`: boom\n",
            Some("panicked in `suggest`: boom"),
        );
        check(
            "\nthread 'main' has overflowed its stack\nfatal runtime error: stack overflow\n",
            Some("thread 'main' has overflowed its stack | fatal runtime error: stack overflow"),
        );
    }
}

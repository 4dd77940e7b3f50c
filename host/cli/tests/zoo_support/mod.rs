//! The hostile zoo of `sandbox-tests/zoo`, built once per test binary into
//! `target/zoo-tests`, and one game of it: seat 0 hostile, seats 1-3 the
//! built-in bots, in every runtime where the behaviour makes sense.

#![allow(dead_code)]

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use clue_engine::{Fault, GameConfig, GameRecord, Outcome, SeatController};
use clue_plugin_api::{Reply, Request, Variant};
use clue_runtime::bots::builtin;
use clue_runtime::native::{IsolatedNative, TrustedNative};
use clue_runtime::process::{self, ProcessLimits, Protocol, StderrTap};
use clue_runtime::wasm::{WasmBot, WasmLimits};

/// The per-call limit of every runtime in these tests (the zoo's `LIMIT_MS`).
pub const LIMIT: Duration = Duration::from_millis(zoo_limit_ms());
/// The start-up limit of process bots and native workers: their hello,
/// which carries the bot's name.
pub const STARTUP: Duration = Duration::from_secs(5);
/// Only a hang guard, never a verdict: a load or a call that takes this long
/// beyond its limit is reported as hung, so a broken runtime stops the test
/// instead of holding it for ever. How long detection takes is reported in
/// docs/SANDBOX.md and never asserted (a loaded machine makes it slow).
pub const HANG_GUARD: Duration = Duration::from_secs(120);
/// Memory of a process bot (`zoo-process`): its memory cgroup, or its
/// address space without one.
pub const PROCESS_MEMORY: u64 = 256 << 20;
/// Memory of an isolated native worker (the `clue` binary, which maps more).
pub const NATIVE_MEMORY: u64 = 512 << 20;
/// The environment variable that marks every process a cell starts, so that
/// one left behind is found (it is inherited by the bot's own children).
pub const MARKER: &str = "CLUE_ZOO_CELL";

const fn zoo_limit_ms() -> u64 {
    // Kept equal to `zoo::LIMIT_MS` (the zoo is a workspace of its own, built
    // by the tests, so the host cannot depend on it); `built()` checks.
    1000
}

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `<target dir>/zoo-tests`: beside the `debug` directory this test binary
/// runs from (`target/debug/deps/<test>`), whatever the target dir is.
pub fn target() -> PathBuf {
    let exe = std::env::current_exe().unwrap_or_default();
    let dir = exe
        .ancestors()
        .nth(3)
        .map(Path::to_path_buf)
        .unwrap_or_else(|| root().join("target"));
    dir.join("zoo-tests")
}

fn cargo(args: &[&str]) {
    let program = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let output = Command::new(program)
        .args(args)
        .arg("--target-dir")
        .arg(target())
        .current_dir(root().join("sandbox-tests/zoo"))
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo {args:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Builds the zoo (native plugins, the process bot, wasm components) once.
pub fn built() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let source = std::fs::read_to_string(root().join("sandbox-tests/zoo/src/lib.rs"))
            .expect("the zoo's source is readable");
        assert!(
            source.contains(&format!("pub const LIMIT_MS: u64 = {};", LIMIT.as_millis())),
            "zoo::LIMIT_MS and zoo_support::LIMIT differ"
        );
        cargo(&["build", "--quiet", "--examples", "--bins"]);
        cargo(&[
            "build",
            "--quiet",
            "--release",
            "--target",
            "wasm32-wasip2",
            "--examples",
        ]);
        target()
    })
}

/// Where a hostile bot runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runtime {
    Native,
    NativeTrusted,
    Wasm,
    Jsonl,
}

impl Runtime {
    pub const ALL: [Runtime; 4] = [
        Runtime::Native,
        Runtime::NativeTrusted,
        Runtime::Wasm,
        Runtime::Jsonl,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Runtime::Native => "native (isolated)",
            Runtime::NativeTrusted => "native-trusted",
            Runtime::Wasm => "wasm",
            Runtime::Jsonl => "process (jsonl)",
        }
    }
}

/// Whether `behaviour` is run in `runtime`, or why not.
pub fn applies(behaviour: &str, runtime: Runtime) -> Result<(), &'static str> {
    // Only what cannot take the host down, hang it or write over its output.
    const TRUSTED: [&str; 15] = [
        "sleep",
        "read-cgroups",
        "write-outside",
        "slow-legal",
        "panic",
        "read-file",
        "read-env",
        "network",
        "illegal-move",
        "illegal-suggestion",
        "lie-when-disproving",
        "show-card-not-held",
        "malformed-accusation",
        "repeated-suggestion",
        "long-name",
    ];
    // System calls of a process: run by the host's own process when the
    // plugin is trusted, impossible in a component.
    const PROCESS_CALLS: [&str; 11] = [
        "kill-parent",
        "other-abis",
        "inherited-fds",
        "kill-scan",
        "kill-any",
        "read-host-proc",
        "setsid-fork",
        "ptrace",
        "fork-bomb-unbounded",
        "cpu-burners",
        "fork-bomb",
    ];
    match (runtime, behaviour) {
        (Runtime::Jsonl, "at-load") => {
            Err("a process bot's own code runs only from `exec`, in its sandbox")
        }
        (Runtime::Wasm, "at-load") => Err("a component's code runs only in its calls, under fuel"),
        (Runtime::NativeTrusted, "at-load") => {
            Err("would be the host's own process doing it: trusted code is the host")
        }
        (Runtime::Jsonl, _) => Ok(()),
        (Runtime::Native, "fork-bomb") => Err("`fork-bomb-unbounded` is its native form"),
        (Runtime::Wasm, b) if PROCESS_CALLS.contains(&b) => {
            Err("a component has no processes, signals or `/proc`")
        }
        (Runtime::NativeTrusted, b) if PROCESS_CALLS.contains(&b) => {
            Err("would be the host's own process doing it: trusted code is the host")
        }
        (Runtime::NativeTrusted, _) if !TRUSTED.contains(&behaviour) => {
            Err("runs in the host's process: cannot be pre-empted, survived or kept off its stdout")
        }
        (Runtime::Wasm, "close-stdin") => Err("a component has no stdin to close"),
        (Runtime::Wasm, "out-of-turn") => Err("calls, not lines: nothing can come unasked"),
        _ => Ok(()),
    }
}

/// The game a behaviour plays: a board (Classic) for the two that misbehave
/// in `move_to`, which Speed Clue never calls.
pub fn config_for(behaviour: &str) -> GameConfig {
    if behaviour.ends_with("-move") {
        GameConfig::new(Variant::Classic, 4)
    } else {
        GameConfig::new(Variant::Speedclue, 4)
    }
}

/// Processes (and threads) a zoo bot may have at once: its pids cgroup.
pub const PROCESSES: u64 = 100;
/// CPU seconds of the `cpu-burners` bot with all its children.
pub const BURNER_CPU_SECONDS: u64 = 2;

fn process_limits(behaviour: &str, marker: &str, memory: u64) -> ProcessLimits {
    let base = ProcessLimits::default();
    ProcessLimits {
        startup: STARTUP,
        // `allocate` fills its memory cap a megabyte at a time, which on a
        // loaded machine can take longer than the per-call limit: the label
        // would then be the limit's (`timeout`), not the cap's. Its calls
        // get the start-up limit, so that the cap is what stops it.
        message: if behaviour == "allocate" {
            STARTUP
        } else {
            LIMIT
        },
        address_space: Some(memory),
        processes: Some(PROCESSES),
        cpu_seconds: if behaviour == "cpu-burners" {
            Some(BURNER_CPU_SECONDS)
        } else {
            base.cpu_seconds
        },
        env: vec![(MARKER.to_string(), marker.to_string())],
        sandbox: clue_runtime::sandbox::SandboxPolicy {
            memory: Some(memory),
            ..base.sandbox.clone()
        },
        ..base
    }
}

/// The `clue` binary, which runs isolated native workers.
pub fn clue_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_clue"))
}

/// The native plugin of `behaviour`.
pub fn native_library(behaviour: &str) -> PathBuf {
    built().join(format!(
        "debug/examples/{}{}{}",
        std::env::consts::DLL_PREFIX,
        behaviour.replace('-', "_"),
        std::env::consts::DLL_SUFFIX
    ))
}

/// The wasm component of `behaviour`.
pub fn wasm_component(behaviour: &str) -> PathBuf {
    built().join(format!(
        "wasm32-wasip2/release/examples/{}.wasm",
        behaviour.replace('-', "_")
    ))
}

/// The process bot's command line for `behaviour`.
pub fn process_command(behaviour: &str) -> String {
    let bin = built().join("debug/zoo-process");
    shell_words_join(&[&bin.to_string_lossy(), behaviour])
}

/// A seated hostile bot, with its stderr where the runtime keeps one apart.
pub struct Seated {
    pub bot: Box<dyn SeatController>,
    pub stderr: Option<StderrTap>,
}

/// Seats `behaviour` in `runtime`; processes it starts carry `marker`.
pub fn connect(behaviour: &str, runtime: Runtime, marker: &str) -> Result<Seated, String> {
    let plain = |bot: Box<dyn SeatController>| Seated { bot, stderr: None };
    Ok(match runtime {
        Runtime::Native => {
            let limits = process_limits(behaviour, marker, NATIVE_MEMORY);
            plain(Box::new(
                IsolatedNative::spawn_with(&clue_binary(), &native_library(behaviour), &limits)
                    .map_err(|e| e.to_string())?,
            ))
        }
        Runtime::NativeTrusted => plain(Box::new(
            TrustedNative::load(&native_library(behaviour), LIMIT).map_err(|e| e.to_string())?,
        )),
        Runtime::Wasm => plain(Box::new(
            WasmBot::load(&wasm_component(behaviour), WasmLimits::for_time(LIMIT))
                .map_err(|e| e.to_string())?,
        )),
        Runtime::Jsonl => {
            let (bot, stderr) = process::connect_keeping_stderr(
                Protocol::Jsonl,
                &process_command(behaviour),
                &process_limits(behaviour, marker, PROCESS_MEMORY),
            )
            .map_err(|e| e.to_string())?;
            Seated {
                bot,
                stderr: Some(stderr),
            }
        }
    })
}

fn shell_words_join(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| format!("'{}'", w.replace('\'', "'\\''")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Times every call, keeping the last and the longest: once a seat is
/// disqualified it is never called again, so the last call is the one that
/// got it caught.
struct Timed {
    inner: Box<dyn SeatController>,
    last: Rc<Cell<Duration>>,
    longest: Rc<Cell<Duration>>,
}

impl SeatController for Timed {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        let started = Instant::now();
        let reply = self.inner.call(request);
        let took = started.elapsed();
        self.last.set(took);
        self.longest.set(self.longest.get().max(took));
        reply
    }

    fn fuel_used(&self) -> Option<u64> {
        self.inner.fuel_used()
    }

    fn stderr(&self) -> Option<String> {
        self.inner.stderr()
    }
}

/// One hostile game: what happened to seat 0 and how long the call that
/// caught it took.
pub struct Played {
    pub record: GameRecord,
    pub detection: Duration,
    pub longest: Duration,
}

/// Plays `first` in seat 0 against notebook, clueless, notebook.
pub fn play(config: &GameConfig, first: Box<dyn SeatController>, seed: u64) -> Played {
    let last = Rc::new(Cell::new(Duration::ZERO));
    let longest = Rc::new(Cell::new(Duration::ZERO));
    let mut bots: Vec<Box<dyn SeatController>> = vec![Box::new(Timed {
        inner: first,
        last: last.clone(),
        longest: longest.clone(),
    })];
    for name in ["notebook", "clueless", "notebook"] {
        bots.push(builtin(name).expect("a built-in bot"));
    }
    let record = clue_engine::play(config, seed, &mut bots).expect("the game starts");
    drop(bots);
    Played {
        record,
        detection: last.get(),
        longest: longest.get(),
    }
}

/// The game with the bots' free-text details left out (they may quote
/// timings), for comparing two runs.
pub fn fingerprint(record: &GameRecord) -> String {
    let outcomes: Vec<_> = record.seats.iter().map(|s| &s.outcome).collect();
    format!(
        "{} {:?} {:?} {}",
        record.rounds,
        record.winner,
        outcomes,
        serde_json::to_string(&record.log).unwrap_or_default()
    )
}

pub fn outcome_label(record: &GameRecord) -> Option<&'static str> {
    match record.seats[0].outcome {
        Outcome::Disqualified(reason) => Some(reason.label()),
        _ => None,
    }
}

/// Processes carrying `marker` (see [`MARKER`]), anywhere on the machine.
pub fn marked_processes(marker: &str) -> Vec<u32> {
    let needle = format!("{MARKER}={marker}\0");
    pids()
        .into_iter()
        .filter(|pid| {
            std::fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.windows(needle.len()).any(|w| w == needle.as_bytes()))
        })
        .collect()
}

/// Children of this process, live or zombie.
pub fn children() -> Vec<u32> {
    let me = std::process::id();
    pids()
        .into_iter()
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                // `pid (comm) state ppid ...`; comm may hold spaces.
                stat.rsplit_once(')')
                    .and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<u32>().ok())
                    == Some(me)
            })
        })
        .collect()
}

fn pids() -> Vec<u32> {
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.file_name().to_str()?.parse().ok())
                .collect()
        })
        .unwrap_or_default()
}

/// Threads of this process.
pub fn threads() -> usize {
    std::fs::read_dir("/proc/self/task").map_or(0, |d| d.count())
}

/// A line of /proc/self/status, in KiB (`VmRSS`, `VmHWM`).
pub fn status_kib(key: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(key))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}

/// Polls `f` until it holds or `within` passes.
pub fn eventually(within: Duration, mut f: impl FnMut() -> bool) -> bool {
    let started = Instant::now();
    loop {
        if f() {
            return true;
        }
        if started.elapsed() > within {
            return false;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

//! The cost of the process sandbox (docs/process-sandbox.md): the time from
//! spawning a bot to its first line, and the time of one call (a line sent,
//! a line back), sandboxed and not, their difference and their ratio, for
//! three kinds of bot:
//!
//! - C programs: `sh -c 'echo ready; exec cat'` (dash, then coreutils' `cat`);
//! - a Python bot: `/usr/bin/python3 -u -c ...` printing `ready`, then
//!   echoing lines;
//! - an isolated native worker: `clue worker native libnotebook.so`, to the
//!   reply to its hello (start only: its calls are lines on the same pipes as
//!   the others').
//!
//! A plain timing harness like `wasm_runtime` (no criterion: its build costs
//! more than this measures). Run:
//!
//!     cargo build --release -p clue-cli -p notebook-player
//!     cargo bench -p clue-runtime --bench process_sandbox
//!
//! (as root on Linux with every layer of `clue doctor`; it fails otherwise,
//! and fails saying what to build when the release `clue` or
//! `libnotebook.so` is missing).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clue_plugin_api::wire::Hello;
use clue_runtime::native::isolated::worker_program;
use clue_runtime::process::{BotProcess, ProcessLimits};
use clue_runtime::sandbox::SandboxPolicy;

const CALLS: u32 = 1_000;
const ROUNDS: usize = 11;

fn limits(sandbox: SandboxPolicy) -> ProcessLimits {
    ProcessLimits {
        sandbox,
        ..ProcessLimits::default()
    }
}

/// One kind of bot: its command line, how it says it is ready, how many
/// starts to time.
struct Bot {
    name: &'static str,
    argv: Vec<String>,
    /// The line sent first (a worker's hello), if any.
    first: Option<String>,
    starts: u32,
    calls: bool,
}

fn c_bot() -> Bot {
    Bot {
        name: "C (`sh`, then `cat`)",
        argv: ["sh", "-c", "echo ready; exec cat"]
            .map(String::from)
            .to_vec(),
        first: None,
        starts: 200,
        calls: true,
    }
}

fn python_bot() -> Bot {
    let script = "import sys\nprint('ready')\nfor line in sys.stdin: print(line, end='')";
    // The system's interpreter where there is one: a version manager's shim
    // (this machine's pyenv `python3`) is a shell script whose own start-up,
    // 0.3 to 0.7 s here, would drown what the sandbox adds.
    let python = ["/usr/bin/python3", "python3"]
        .into_iter()
        .find(|p| Path::new(p).is_file())
        .unwrap_or("python3");
    Bot {
        name: "Python 3 (jsonl-style echo)",
        argv: [python, "-u", "-c", script].map(String::from).to_vec(),
        first: None,
        starts: 100,
        calls: true,
    }
}

fn worker_bot() -> Bot {
    let program = worker_program().unwrap_or_else(|| {
        panic!("no release `clue` beside the bench: run `cargo build --release -p clue-cli` first")
    });
    let library: PathBuf = program
        .parent()
        .expect("the clue binary is in a folder")
        .join("libnotebook.so");
    assert!(
        library.is_file(),
        "no {}: run `cargo build --release -p notebook-player` first",
        library.display()
    );
    let hello = serde_json::to_string(&Hello::new("")).expect("a hello encodes");
    Bot {
        name: "isolated native worker (`clue worker native`, notebook)",
        argv: vec![
            program.to_string_lossy().into_owned(),
            "worker".into(),
            "native".into(),
            library.to_string_lossy().into_owned(),
        ],
        first: Some(hello),
        starts: 100,
        calls: false,
    }
}

/// Spawns `bot` and waits for its first line.
fn ready(bot: &Bot, limits: &ProcessLimits) -> BotProcess {
    let mut process = BotProcess::spawn(&bot.argv, limits).expect("the bot starts");
    if let Some(first) = &bot.first {
        process.send(first).expect("the hello is sent");
    }
    process
        .recv(Duration::from_secs(20), "ready")
        .unwrap_or_else(|e| panic!("{}: no first line: {e}", bot.name));
    process
}

/// The median time from spawn to the first line and of the kill, reap and
/// tear-down, over `bot.starts` bots of each policy, started alternately (a
/// load that comes and goes on this shared machine then weighs on both
/// alike, and the median ignores its spikes).
fn starts(bot: &Bot, plain: &ProcessLimits, boxed: &ProcessLimits) -> [(Duration, Duration); 2] {
    // One untimed start each: the page cache and the sandbox's probes warm.
    drop(ready(bot, plain));
    drop(ready(bot, boxed));
    let mut times: [(Vec<Duration>, Vec<Duration>); 2] = Default::default();
    for _ in 0..bot.starts {
        for (limits, (up, down)) in [plain, boxed].into_iter().zip(times.iter_mut()) {
            let started = Instant::now();
            let process = ready(bot, limits);
            up.push(started.elapsed());
            let dropped = Instant::now();
            drop(process);
            down.push(dropped.elapsed());
        }
    }
    times.map(|(up, down)| (median(up), median(down)))
}

/// The median over `ROUNDS` rounds of the mean time of one line there and
/// back (`CALLS` lines a round), one bot of each policy, rounds alternating.
fn calls(bot: &Bot, plain: &ProcessLimits, boxed: &ProcessLimits) -> [Duration; 2] {
    let mut processes = [ready(bot, plain), ready(bot, boxed)];
    let mut rounds: [Vec<Duration>; 2] = Default::default();
    for _ in 0..ROUNDS {
        for (process, times) in processes.iter_mut().zip(rounds.iter_mut()) {
            let started = Instant::now();
            for i in 0..CALLS {
                let line = i.to_string();
                process.send(&line).expect("sent");
                let back = process
                    .recv(Duration::from_secs(10), "the echo")
                    .expect("echoed");
                assert_eq!(back, line);
            }
            times.push(started.elapsed() / CALLS);
        }
    }
    rounds.map(median)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn row(what: &str, plain: Duration, boxed: Duration) {
    println!(
        "| {what} | {:.0} µs | {:.0} µs | {:+.0} µs | {:.2} |",
        us(plain),
        us(boxed),
        us(boxed) - us(plain),
        us(boxed) / us(plain)
    );
}

fn main() {
    let plain = limits(SandboxPolicy::off());
    let boxed = limits(SandboxPolicy::on());
    // `cargo bench ... -- python`: only the bots whose name holds a word.
    let only: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .map(|a| a.to_lowercase())
        .collect();
    let wanted =
        |name: &str| only.is_empty() || only.iter().any(|w| name.to_lowercase().contains(w));
    let mut bots = Vec::new();
    for (name, make) in [
        ("c", c_bot as fn() -> Bot),
        ("python", python_bot),
        ("worker", worker_bot),
    ] {
        if wanted(name) {
            bots.push(make());
        }
    }
    println!("| bot: what | unsandboxed | sandboxed | extra | ratio |");
    println!("| --- | --- | --- | --- | --- |");
    for bot in &bots {
        let [(up_plain, down_plain), (up_boxed, down_boxed)] = starts(bot, &plain, &boxed);
        row(
            &format!(
                "{}: start to first line (median of {})",
                bot.name, bot.starts
            ),
            up_plain,
            up_boxed,
        );
        row(
            &format!("{}: kill, reap, tear down", bot.name),
            down_plain,
            down_boxed,
        );
        if bot.calls {
            let [call_plain, call_boxed] = calls(bot, &plain, &boxed);
            println!(
                "| {}: one call (median of {ROUNDS} rounds of {CALLS}) | {:.1} µs | {:.1} µs | {:+.1} µs | {:.2} |",
                bot.name,
                us(call_plain),
                us(call_boxed),
                us(call_boxed) - us(call_plain),
                us(call_boxed) / us(call_plain)
            );
        }
    }
}

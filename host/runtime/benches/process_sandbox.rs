//! The cost of the process sandbox (docs/process-sandbox.md): the time from
//! spawning a bot to its first line, and the time of one call (a line sent,
//! a line back), sandboxed and not, and their ratio. A plain timing harness
//! like `wasm_runtime` (no criterion: its build costs more than this
//! measures). The bot is `cat` behind `sh -c 'echo ready; exec cat'`, so the
//! numbers are the host's and the kernel's, not a bot's. Run:
//!
//!     cargo bench -p clue-runtime --bench process_sandbox
//!
//! (as root on Linux with every layer of `clue doctor`; it fails otherwise).

use std::time::{Duration, Instant};

use clue_runtime::process::{BotProcess, ProcessLimits};
use clue_runtime::sandbox::SandboxPolicy;

const STARTS: u32 = 200;
const CALLS: u32 = 20_000;

fn limits(sandbox: SandboxPolicy) -> ProcessLimits {
    ProcessLimits {
        sandbox,
        ..ProcessLimits::default()
    }
}

fn argv() -> Vec<String> {
    ["sh", "-c", "echo ready; exec cat"]
        .map(String::from)
        .to_vec()
}

/// Mean time from spawn to the first line, over `STARTS` bots (each dropped,
/// so killed and reaped, before the next; the drop is not timed).
fn start(limits: &ProcessLimits) -> Duration {
    let mut total = Duration::ZERO;
    for _ in 0..STARTS {
        let started = Instant::now();
        let mut bot = BotProcess::spawn(&argv(), limits).expect("the bot starts");
        bot.recv(Duration::from_secs(10), "ready").expect("ready");
        total += started.elapsed();
        drop(bot);
    }
    total / STARTS
}

/// Mean time of one line there and back, over `CALLS` calls to one bot.
fn call(limits: &ProcessLimits) -> Duration {
    let mut bot = BotProcess::spawn(&argv(), limits).expect("the bot starts");
    bot.recv(Duration::from_secs(10), "ready").expect("ready");
    let started = Instant::now();
    for i in 0..CALLS {
        let line = i.to_string();
        bot.send(&line).expect("sent");
        let back = bot
            .recv(Duration::from_secs(10), "the echo")
            .expect("echoed");
        assert_eq!(back, line);
    }
    started.elapsed() / CALLS
}

fn main() {
    let plain = limits(SandboxPolicy::off());
    let boxed = limits(SandboxPolicy::on());
    let (start_plain, start_boxed) = (start(&plain), start(&boxed));
    let (call_plain, call_boxed) = (call(&plain), call(&boxed));
    let us = |d: Duration| d.as_secs_f64() * 1e6;
    println!("| | unsandboxed | sandboxed | ratio |");
    println!("| --- | --- | --- | --- |");
    println!(
        "| start to first line ({STARTS} bots) | {:.0} µs | {:.0} µs | {:.2} |",
        us(start_plain),
        us(start_boxed),
        us(start_boxed) / us(start_plain)
    );
    println!(
        "| one call ({CALLS} lines) | {:.1} µs | {:.1} µs | {:.2} |",
        us(call_plain),
        us(call_boxed),
        us(call_boxed) / us(call_plain)
    );
}

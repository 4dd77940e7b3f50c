//! Compiling a component outside the host. Cranelift's time and memory grow
//! with the size of a function: one function of 6 MB, well within what
//! wasmparser accepts, took 89 s and 4 GiB of the host's memory to compile
//! on the 2-core machine (docs/wasm.md), and wasmtime compiles functions in
//! parallel (a worker on at most four threads). A stranger's
//! component compiled in the host could so exhaust the host's memory before
//! any fuel is counted.
//!
//! So the `clue` binary compiles in a worker, `clue worker wasm-compile`: a
//! process of its own binary, in the process sandbox like any process bot,
//! under a memory cap and a CPU-time cap ([`CompileLimits`]). It reads the
//! component on stdin, compiles it with the host's own engine settings
//! (`Engine::precompile_component`) and writes the compiled form back; the
//! host then loads it as it loads one from its disk cache
//! ([`super::cache::component_in`]). Both directions are base64 lines under
//! the process runtime's line cap, ended by a line `end N` giving the byte
//! count.
//!
//! A program that uses this library directly (the tests) compiles in its own
//! process unless it calls [`compile_in_workers`].

use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use clue_plugin_api::DqReason;

use crate::process::{BotProcess, ProcessLimits};
use crate::sandbox::SandboxPolicy;

/// What a compile worker may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileLimits {
    /// Memory of the worker, by its cgroup (else its address space). The
    /// bundled Python and JavaScript components compile in under 400 MiB.
    pub memory: u64,
    /// CPU time of the worker over all its threads. The bundled JavaScript
    /// component, the slowest, takes about 19 s of CPU here.
    pub cpu_seconds: u64,
    /// Wall time from start to the last line.
    pub wall: Duration,
}

impl Default for CompileLimits {
    fn default() -> CompileLimits {
        CompileLimits {
            memory: 2 << 30,
            cpu_seconds: 300,
            wall: Duration::from_secs(600),
        }
    }
}

/// Threads a compile worker compiles a component's functions on (wasmtime
/// hands them to rayon's pool), at most: each holds one function's working
/// memory, so the memory cap means the same on a machine of many cores.
/// Two threads halved the bundled components' compile time here (JavaScript
/// 22.8 s to 12.0 s, Python 19.7 s to 10.0 s, wall).
const COMPILE_THREADS: usize = 4;

/// Bytes of a component or compiled form per base64 line (49,152
/// characters, under the 64 KiB line cap).
const CHUNK: usize = 36 * 1024;

/// The worker program and its limits, once [`compile_in_workers`] is called.
static WORKER: OnceLock<(PathBuf, CompileLimits)> = OnceLock::new();

/// Compiles every component from now on in `program worker wasm-compile`
/// (`program` being a `clue` binary) under `limits`. Called once, by the
/// `clue` binary as it starts; a second call changes nothing.
pub fn compile_in_workers(program: PathBuf, limits: CompileLimits) {
    let _ = WORKER.set((program, limits));
}

/// The worker to compile in, if [`compile_in_workers`] was called.
pub(super) fn worker() -> Option<&'static (PathBuf, CompileLimits)> {
    WORKER.get()
}

/// Compiles `bytes` in a worker; the compiled form, or why not (the
/// wasmtime error for a file that is not a valid component, or the limit
/// the worker passed).
pub(super) fn in_worker(
    program: &std::path::Path,
    limits: &CompileLimits,
    bytes: &[u8],
) -> Result<Vec<u8>, String> {
    let mut sandbox = SandboxPolicy {
        memory: Some(limits.memory),
        ..SandboxPolicy::default()
    };
    if sandbox.enabled
        && let Some(missing) = crate::sandbox::layers()
            .into_iter()
            .find(|l| l.required && !l.available)
    {
        // A process bot cannot start here without `--no-sandbox`, but a
        // component runs in wasmtime's own sandbox whatever the machine
        // offers: only its compiling loses the process sandbox's walls, and
        // the caps below still hold (`RLIMIT_AS`, `RLIMIT_CPU`). Refusing
        // would make the form of bot meant to be safe everywhere need the
        // user to turn the sandbox off for every other bot too.
        static WARNED: std::sync::Once = std::sync::Once::new();
        WARNED.call_once(|| {
            tracing::warn!(
                "the process sandbox is missing here ({}: {}); wasm components are \
                 compiled in a worker under its memory and CPU caps only",
                missing.name,
                missing.detail
            );
        });
        sandbox = SandboxPolicy::off();
    }
    let process_limits = ProcessLimits {
        startup: limits.wall,
        message: limits.wall,
        // The compiled form of the bundled Python component is some 60 MB.
        max_output: 4 << 30,
        // Used only when no memory cgroup is writable.
        address_space: Some(limits.memory),
        cpu_seconds: Some(limits.cpu_seconds),
        env: vec![(
            "RAYON_NUM_THREADS".to_string(),
            COMPILE_THREADS
                .min(std::thread::available_parallelism().map_or(1, |n| n.get()))
                .to_string(),
        )],
        sandbox,
        ..ProcessLimits::default()
    };
    let argv = [
        program.to_string_lossy().into_owned(),
        "worker".to_string(),
        "wasm-compile".to_string(),
    ];
    let mut worker = BotProcess::spawn(&argv, &process_limits)
        .map_err(|e| format!("cannot start its compile worker: {e}"))?;
    let deadline = Instant::now() + limits.wall;
    let sent = framed(bytes).try_for_each(|line| worker.send(&line));
    let mut unframed = Unframed::default();
    let received = sent.and_then(|()| {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = worker.recv(left, "the compiled component")?;
            match unframed.take(&line) {
                Ok(false) => {}
                Ok(true) => break Ok(Ok(unframed.bytes)),
                Err(e) => break Ok(Err(format!("its compile worker's output: {e}"))),
            }
        }
    });
    match received {
        Ok(result) => result,
        Err(fault) => Err(failure(&worker, &fault, limits)),
    }
}

/// `text` on one line, each run of white space one space: a compile error
/// as wasmparser writes some (`expected=[\n    0x0, ...`), for a message.
pub(super) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Why the worker gave no compiled form, in words.
fn failure(worker: &BotProcess, fault: &clue_engine::Fault, limits: &CompileLimits) -> String {
    let stderr = worker.stderr_text(true);
    // The worker's own report of a component it could not compile: from its
    // last `error: ` line to the end, on one line (wasmparser writes some
    // errors over several, `expected=[\n    0x0, ...`).
    let mut offset = 0;
    let mut last_error = None;
    for line in stderr.split_inclusive('\n') {
        if line.starts_with("error: ") {
            last_error = Some(offset);
        }
        offset += line.len();
    }
    if let Some(start) = last_error {
        return one_line(&stderr[start + "error: ".len()..]);
    }
    // Rust aborts when an allocation fails, which under the address-space
    // cap (no memory cgroup) means the compile ran out of memory.
    let out_of_memory = fault.reason == DqReason::OutOfMemory
        || (stderr.contains("memory allocation of ") && stderr.contains(" failed"));
    if out_of_memory {
        return format!(
            "compiling it needed more than {} MiB, its compile worker's memory limit \
             (the component is refused; a legitimate one this large needs a higher \
             CLUE_WASM_COMPILE_MEMORY)",
            limits.memory >> 20
        );
    }
    // The CPU cap shows two ways: the cgroup's count of all its threads,
    // read between lines (a timeout), or `RLIMIT_CPU` at its hard limit (a
    // SIGKILL), whichever comes first.
    let over_cpu = match fault.reason {
        DqReason::Timeout => fault.detail.contains("of CPU time"),
        DqReason::Crash => fault.detail.contains("signal 9"),
        _ => false,
    };
    if over_cpu {
        return format!(
            "compiling it took more than {} s of CPU time, its compile worker's limit \
             ({}; a legitimate component this slow to compile needs a higher \
             CLUE_WASM_COMPILE_CPU)",
            limits.cpu_seconds, fault.detail
        );
    }
    match fault.reason {
        DqReason::Timeout => format!(
            "compiling it took over {} s, its compile worker's wall-time limit ({})",
            limits.wall.as_secs(),
            fault.detail
        ),
        _ => format!("its compile worker failed: {}", fault.detail),
    }
}

/// `clue worker wasm-compile`: reads a component from `input` (base64
/// lines, then `end N`), compiles it with the host's engine and writes the
/// compiled form to `output` the same way.
pub fn serve(input: impl BufRead, mut output: impl Write) -> Result<(), String> {
    let mut unframed = Unframed::default();
    let mut ended = false;
    for line in input.lines() {
        let line = line.map_err(|e| format!("cannot read the component: {e}"))?;
        if unframed
            .take(&line)
            .map_err(|e| format!("the component: {e}"))?
        {
            ended = true;
            break;
        }
    }
    if !ended {
        return Err("the component ended before its `end` line".into());
    }
    let bytes = unframed.bytes;
    let engine = super::cache::engine()?;
    let compiled = engine
        .precompile_component(&bytes)
        .map_err(|e| format!("{e:#}"))?;
    let written: std::io::Result<()> = framed(&compiled)
        .try_for_each(|line| writeln!(output, "{line}"))
        .and_then(|()| output.flush());
    written.map_err(|e| format!("cannot write the compiled component: {e}"))
}

/// `bytes` as the lines both directions use: base64 lines of [`CHUNK`]
/// bytes, then `end N`.
fn framed(bytes: &[u8]) -> impl Iterator<Item = String> + '_ {
    bytes
        .chunks(CHUNK)
        .map(|chunk| STANDARD.encode(chunk))
        .chain([format!("end {}", bytes.len())])
}

/// The bytes of [`framed`] lines, taken one line at a time.
#[derive(Default)]
struct Unframed {
    bytes: Vec<u8>,
}

impl Unframed {
    /// Takes one line: `Ok(true)` at the `end` line, if its count is right.
    fn take(&mut self, line: &str) -> Result<bool, String> {
        if let Some(count) = line.strip_prefix("end ") {
            return match count.trim().parse::<usize>() {
                Ok(n) if n == self.bytes.len() => Ok(true),
                _ => Err(format!(
                    "{} bytes came, not the count given ({count})",
                    self.bytes.len()
                )),
            };
        }
        let chunk = STANDARD
            .decode(line.trim_end())
            .map_err(|e| format!("not a base64 line: {e}"))?;
        self.bytes.extend(chunk);
        Ok(false)
    }
}

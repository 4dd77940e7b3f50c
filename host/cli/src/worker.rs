//! `clue worker`: the host's own helper processes (hidden from `--help`).
//! `clue worker native PATH` serves one native plugin over stdin/stdout with
//! the JSON-lines protocol, so that whatever the plugin does to its process
//! ends only the worker (docs/native.md). `clue worker wasm-compile`
//! compiles a WebAssembly component for the host, so that what compiling a
//! stranger's file costs falls on a contained process (docs/wasm.md).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clue_runtime::native::{NativePlugin, worker};
use clue_runtime::wasm::compile::{self, CompileLimits};

#[derive(clap::Subcommand)]
pub enum WorkerCommand {
    /// Load a native plugin and serve it as a JSON-lines process bot
    Native {
        /// The plugin library
        path: PathBuf,
        /// Only load the plugin and report whether that works (exit 0, or 2
        /// with the load error on stderr)
        #[arg(long)]
        check: bool,
    },
    /// Compile a WebAssembly component read from stdin (base64 lines, then
    /// `end N`) and write its compiled form to stdout the same way
    WasmCompile,
}

pub fn run(command: WorkerCommand) -> anyhow::Result<ExitCode> {
    match command {
        WorkerCommand::Native { path, check: true } => {
            NativePlugin::load(&path)?;
            Ok(ExitCode::SUCCESS)
        }
        WorkerCommand::Native { path, check: false } => {
            worker::serve(&path)?;
            Ok(ExitCode::SUCCESS)
        }
        WorkerCommand::WasmCompile => {
            let stdin = std::io::stdin().lock();
            compile::serve(stdin, std::io::stdout().lock()).map_err(anyhow::Error::msg)?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Has this process compile WebAssembly components in `clue worker
/// wasm-compile` workers, with the limits `CLUE_WASM_COMPILE_MEMORY` (MiB)
/// and `CLUE_WASM_COMPILE_CPU` (seconds) give, else the defaults; and keep
/// the compile cache within `CLUE_WASM_CACHE_MIB` (else 2 GiB).
pub fn compile_wasm_in_workers() -> anyhow::Result<()> {
    if let Some(mib) = positive("CLUE_WASM_CACHE_MIB")? {
        clue_runtime::wasm::cache::set_cache_bytes(mib << 20);
    }
    let mut limits = CompileLimits::default();
    if let Some(mib) = positive("CLUE_WASM_COMPILE_MEMORY")? {
        limits.memory = mib << 20;
    }
    if let Some(seconds) = positive("CLUE_WASM_COMPILE_CPU")? {
        limits.cpu_seconds = seconds;
    }
    let program = std::env::current_exe().context("cannot find the clue binary itself")?;
    compile::compile_in_workers(program, limits);
    Ok(())
}

/// A positive whole number from the environment variable `name`, if set.
fn positive(name: &str) -> anyhow::Result<Option<u64>> {
    let Some(value) = std::env::var_os(name) else {
        return Ok(None);
    };
    match value.to_str().and_then(|v| v.trim().parse::<u64>().ok()) {
        Some(n) if n > 0 => Ok(Some(n)),
        _ => bail!(
            "{name}={}: not a positive whole number",
            value.to_string_lossy()
        ),
    }
}

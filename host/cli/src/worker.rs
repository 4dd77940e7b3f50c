//! `clue worker`: the host's own helper processes (hidden from `--help`).
//! `clue worker native PATH` serves one native plugin over stdin/stdout with
//! the JSON-lines protocol, so that whatever the plugin does to its process
//! ends only the worker (docs/native.md).

use std::path::PathBuf;
use std::process::ExitCode;

use clue_runtime::native::{NativePlugin, worker};

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
    }
}

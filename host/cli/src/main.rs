//! `clue`: the Clue Arena command line, thin over the host's crates: one
//! module per subcommand parses its arguments and prints; the work is done in
//! `clue-runtime` (bots), `clue-arena` (games, tournaments) and `clue-web`
//! (`clue serve`). The console human (`builtin:human`) and the bench
//! commands live here too.

#![forbid(unsafe_code)]

mod bench;
mod bench_decisions;
mod bench_workers;
mod board;
mod doctor;
mod framework;
mod human;
mod logging;
mod options;
mod play;
mod progress;
mod replay;
mod serve;
mod speedclue;
mod tournament;
mod uniclue;
mod uniclue_client;
mod worker;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "clue",
    version,
    about = "Clue Arena: a host in which Clue bots compete"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    logging: logging::LogArgs,
    /// Run process bots and isolated native workers without their sandbox,
    /// as ordinary processes of your user (docs/process-sandbox.md). Only for
    /// bots you trust, or where `clue doctor` shows a layer missing
    #[arg(long, global = true)]
    no_sandbox: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Measure the bots: `clue bench strength` plays sleuth against the other built-in bots
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// The host's helper processes (native plugin workers, the wasm compile worker): not for direct use
    #[command(subcommand, hide = true)]
    Worker(worker::WorkerCommand),
    /// Draw a board, or list the targets of a roll or the cells next to one
    Board {
        #[command(subcommand)]
        command: board::BoardCommand,
    },
    /// Check this machine: each layer of the process sandbox, available or
    /// not and why
    Doctor,
    /// Framework (seeds/000): one game among bots speaking its text protocol,
    /// like the framework's `java -jar Clue.jar "CMD1" "CMD2"`
    Framework(framework::FrameworkArgs),
    /// Play one game and print an account of it
    Play(play::PlayArgs),
    /// Re-run a logged game from its seed and bots and check every event is identical
    Replay {
        /// A game log written by `clue play --log`
        #[arg(required_unless_present_any = ["db", "game"], conflicts_with_all = ["db", "game"])]
        log: Option<PathBuf>,
        /// A tournament results store to take the game from (with --game)
        #[arg(long, value_name = "PATH", requires = "game")]
        db: Option<PathBuf>,
        /// The game's index in the store
        #[arg(long, value_name = "N", requires = "db")]
        game: Option<u64>,
    },
    /// Play and watch in the browser: serve the page on loopback (docs/web.md)
    Serve(serve::ServeArgs),
    /// Speed Clue (2014): play a bot as an entrant of a contest server
    #[command(subcommand)]
    Speedclue(speedclue::SpeedclueCommand),
    /// Run tournaments from a tournament file and report on their results
    #[command(subcommand)]
    Tournament(tournament::TournamentCommand),
    /// UniClue (seeds/001): act as the judges' server, a drop-in for `test4`
    #[command(subcommand)]
    Uniclue(uniclue::UniclueCommand),
}

fn main() -> ExitCode {
    quiet_when_stdout_is_closed();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    logging::install(&cli.logging);
    if cli.no_sandbox {
        clue_runtime::sandbox::opt_out_everywhere();
        tracing::warn!("--no-sandbox: process bots and native workers run unsandboxed");
    }
    if !matches!(cli.command, Command::Worker(_))
        && let Err(e) = worker::compile_wasm_in_workers()
    {
        eprintln!("error: {}", error_text(&e));
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Bench(command) => bench::run(command),
        Command::Board { command } => board::run(command),
        Command::Doctor => doctor::run(),
        Command::Framework(args) => framework::run(args),
        Command::Play(args) => play::run(args),
        Command::Worker(command) => worker::run(command),
        Command::Replay { log, db, game } => replay::run(log.as_deref(), db.as_deref(), game),
        Command::Serve(args) => serve::run(args),
        Command::Speedclue(command) => speedclue::run(command),
        Command::Tournament(command) => tournament::run(command),
        Command::Uniclue(command) => uniclue::run(command),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {}", error_text(&e));
            ExitCode::from(2)
        }
    }
}

/// `clue tournament report | head`: once the reader of stdout has gone, the
/// next `println!` panics ("failed printing to stdout: Broken pipe (os error
/// 32)"). The host must keep ignoring `SIGPIPE`, since it writes to bots
/// that may close their end, so that one panic is turned into the quiet end
/// a shell expects of a process whose reader left: status 141, as if killed
/// by `SIGPIPE`, and no backtrace. Every other panic is reported as before.
fn quiet_when_stdout_is_closed() {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        // The error's number, not its words: those follow the locale.
        if message.starts_with("failed printing to stdout")
            && message.ends_with(&format!("(os error {})", libc::EPIPE))
        {
            std::process::exit(128 + libc::SIGPIPE);
        }
        report(info);
    }));
}

/// An error and its causes on one line, as `{:#}` writes them, without a
/// cause its error already says (`StoreError` writes its `rusqlite` source
/// into its own message, and `rusqlite` repeats SQLite's message in its
/// own: "file is not a database: file is not a database: Error code 26:
/// ...").
fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let said = cause.to_string();
        if text.is_empty() {
            text = said;
        } else if !text.contains(&said) {
            text.push_str(": ");
            text.push_str(&said);
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_says_each_cause_once() {
        #[derive(Debug, thiserror::Error)]
        #[error("{path}: {source}")]
        struct Outer {
            path: String,
            source: Inner,
        }
        #[derive(Debug, thiserror::Error)]
        #[error("file is not a database")]
        struct Inner {
            source: std::io::Error,
        }
        let e = anyhow::Error::new(Outer {
            path: "/etc/passwd".into(),
            source: Inner {
                source: std::io::Error::other("Error code 26"),
            },
        });
        assert_eq!(
            error_text(&e),
            "/etc/passwd: file is not a database: Error code 26"
        );
        let e = anyhow::anyhow!("no such file").context("cannot read t.yaml");
        assert_eq!(error_text(&e), "cannot read t.yaml: no such file");
    }
}

//! `clue`: the Clue Arena command line.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Parser, Subcommand};
use clue_host::account::account;
use clue_host::bots::BotSpec;
use clue_host::logfile::GameLog;
use clue_host::options::VariantArgs;
use clue_host::run::{self, ReplayResult};

#[derive(Parser)]
#[command(
    name = "clue",
    version,
    about = "Clue Arena: a host in which Clue bots compete"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play one game and print an account of it
    Play(PlayArgs),
    /// Re-run a logged game from its seed and bots and check every event is identical
    Replay {
        /// A game log written by `clue play --log`
        log: PathBuf,
    },
}

#[derive(clap::Args)]
struct PlayArgs {
    #[command(flatten)]
    variant: VariantArgs,
    /// The game seed: the same seed and bots give the same game
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// A bot, as KIND:TARGET (builtin:notebook, builtin:clueless, ...), one per seat in
    /// order; seats not given get built-in bots
    #[arg(long = "bot", value_name = "SPEC")]
    bots: Vec<BotSpec>,
    /// Write the full event log (JSON lines) here
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Print only the result line
    #[arg(long)]
    quiet: bool,
}

fn main() -> ExitCode {
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
    match execute(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn execute(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Play(args) => play(args),
        Command::Replay { log } => replay(&log),
    }
}

fn play(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let config = args.variant.config()?;
    let specs = run::fill_seats(&config, &args.bots)?;
    let record = run::play_game(&config, args.seed, &specs)?;
    let names: Vec<String> = specs.iter().map(ToString::to_string).collect();
    if args.quiet {
        match record.winner {
            Some(w) => println!("winner: seat {} ({})", w.0, names[w.index()]),
            None => println!("no winner"),
        }
    } else {
        print!("{}", account(&record, &record.deck, &names));
    }
    if let Some(path) = &args.log {
        GameLog::from_record(&record, &specs)
            .save(path)
            .with_context(|| format!("writing the game log to {}", path.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn replay(path: &std::path::Path) -> anyhow::Result<ExitCode> {
    let log = GameLog::load(path)?;
    match run::replay(&log)? {
        ReplayResult::Identical { events } => {
            println!("identical: all {events} events replayed the same");
            Ok(ExitCode::SUCCESS)
        }
        ReplayResult::Differs {
            index,
            logged,
            replayed,
        } => {
            println!("differs at event {index}");
            println!("  logged:   {}", logged.unwrap_or_else(|| "(none)".into()));
            println!(
                "  replayed: {}",
                replayed.unwrap_or_else(|| "(none)".into())
            );
            Ok(ExitCode::FAILURE)
        }
    }
}

//! `clue play`: one game, printed as it happened.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use crate::options::VariantArgs;
use anyhow::Context;
use clue_arena::account::{account, disqualifications};
use clue_arena::game;
use clue_arena::logfile::{GameLog, LogFile};
use clue_engine::{GameConfig, GameRecord};
use clue_runtime::bots::BotSpec;

#[derive(clap::Args)]
pub struct PlayArgs {
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

pub fn run(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let config = args.variant.config()?;
    let specs = game::fill_seats(&config, &args.bots)?;
    let log = log_file(args.log.as_deref())?;
    let record = play_shown(&config, args.seed, &specs, args.quiet)?;
    report(&record, &specs, args.quiet, log)?;
    Ok(ExitCode::SUCCESS)
}

/// Plays one game, seating a person's seats at the console, with the
/// spinner of [`crate::progress::Turns`] on a terminal meanwhile (none under
/// a person's prompts, nor when `quiet`).
pub fn play_shown(
    config: &GameConfig,
    seed: u64,
    specs: &[BotSpec],
    quiet: bool,
) -> anyhow::Result<GameRecord> {
    let person = specs.iter().any(crate::human::is_person);
    let turns = crate::progress::Turns::new(!quiet && !person);
    // `play_game_with` seats the bots in order, one call per seat.
    let next = std::cell::Cell::new(0);
    let seat = |spec: &BotSpec| {
        let index = next.replace(next.get() + 1);
        Ok(turns.watch(index, spec.to_string(), crate::human::seat(spec)?))
    };
    let record = game::play_game_with(config, seed, specs, &seat)?;
    turns.finish();
    Ok(record)
}

/// The file `--log` names, created before the game is played: a path that
/// cannot be written is refused before the game, not after it.
pub fn log_file(path: Option<&Path>) -> anyhow::Result<Option<LogFile>> {
    path.map(LogFile::create)
        .transpose()
        .context("cannot write the game log")
}

/// Prints a finished game (its account, or only the result line when
/// `quiet`) and writes its event log to `log` if one was asked for.
pub fn report(
    record: &GameRecord,
    specs: &[BotSpec],
    quiet: bool,
    log: Option<LogFile>,
) -> anyhow::Result<()> {
    let names: Vec<String> = specs.iter().map(ToString::to_string).collect();
    if quiet {
        match record.winner {
            Some(w) => println!("winner: seat {} ({})", w.0, names[w.index()]),
            None => println!("no winner"),
        }
        // A bot that crashed or broke a rule is not hidden by `--quiet`;
        // stdout keeps its one line.
        for line in disqualifications(record, &record.deck, &names) {
            eprintln!("{line}");
        }
    } else {
        print!("{}", account(record, &record.deck, &names));
    }
    if let Some(file) = log {
        file.write(&GameLog::from_record(record, specs))
            .context("writing the game log")?;
    }
    Ok(())
}

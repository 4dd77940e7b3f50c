//! `clue tournament run | resume | report`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Subcommand;
use clue_arena::config::{self, Tournament};
use clue_arena::report::{self, Format};
use clue_arena::runner::{self, RunOptions, SpecConnector};
use clue_arena::stats;
use clue_arena::store::{self, Store};

#[derive(Subcommand)]
pub enum TournamentCommand {
    /// Validate a tournament file, build its bots and play its schedule
    Run {
        /// The tournament file
        #[arg(default_value = "tournament.yaml")]
        file: PathBuf,
        /// The results store (default: the file's `store:`, else results.sqlite)
        #[arg(long, value_name = "PATH")]
        db: Option<PathBuf>,
        /// Print no progress bar and no standings while running
        #[arg(long)]
        quiet: bool,
    },
    /// Finish the schedule of the tournament recorded in a store
    Resume {
        #[arg(long, value_name = "PATH", default_value = "results.sqlite")]
        db: PathBuf,
        /// Print no progress bar and no standings while running
        #[arg(long)]
        quiet: bool,
    },
    /// Print the standings and statistics of a store
    Report {
        #[arg(long, value_name = "PATH", default_value = "results.sqlite")]
        db: PathBuf,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

pub fn run(command: TournamentCommand) -> anyhow::Result<ExitCode> {
    match command {
        TournamentCommand::Run { file, db, quiet } => {
            let t = config::load(&file)?;
            let db = db.unwrap_or_else(|| t.store.clone());
            play(&t, &db, quiet)
        }
        TournamentCommand::Resume { db, quiet } => {
            if !store::exists(&db) {
                anyhow::bail!("{}: no such results store", db.display());
            }
            let store = Store::open(&db)?;
            let meta = store.require_meta()?;
            drop(store);
            let t = config::parse(&meta.source, &meta.file, Path::new(&meta.base_dir))?;
            play(&t, &db, quiet)
        }
        TournamentCommand::Report { db, format } => {
            if !store::exists(&db) {
                anyhow::bail!("{}: no such results store", db.display());
            }
            let store = Store::open(&db)?;
            let meta = store.require_meta()?;
            let games = store.games()?;
            let report = stats::compute(&meta.bots, &meta.settings, &games);
            print!("{}", report::render(&report, format));
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn play(t: &Tournament, db: &Path, quiet: bool) -> anyhow::Result<ExitCode> {
    runner::build(t)?;
    let mut store = Store::open(db)?;
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // A second Ctrl-C stops at once; the store keeps every finished game.
        let _ = ctrlc::set_handler(move || {
            if stop.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
            eprintln!("stopping: finishing the games in play (Ctrl-C again to quit now)");
        });
    }
    let options = RunOptions {
        stop: &stop,
        progress: !quiet,
        standings_every: (!quiet).then_some(Duration::from_secs(15)),
    };
    let start = Instant::now();
    let summary = runner::run(t, &mut store, &SpecConnector, &options)
        .with_context(|| format!("running {}", t.file))?;
    let took = start.elapsed().as_secs_f64();
    println!("{}", runner::standings_text(&store)?);
    println!(
        "{} games played in {took:.1}s ({} were already stored), {} of {} done; results in {}",
        summary.played,
        summary.already,
        summary.already + summary.played,
        summary.scheduled,
        store::display_name(db)
    );
    if summary.stopped {
        println!(
            "stopped early: `clue tournament resume --db {}` finishes the schedule",
            store::display_name(db)
        );
        return Ok(ExitCode::from(130));
    }
    Ok(ExitCode::SUCCESS)
}

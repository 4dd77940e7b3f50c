//! `clue tournament run | check | resume | worker | report`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Subcommand;
use clue_arena::config::{self, Tournament};
use clue_arena::report::{self, Format};
use clue_arena::runner::{self, RunOptions, SpecConnector, WorkerOptions};
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
        #[command(flatten)]
        player: PlayerArgs,
    },
    /// Validate a tournament file (and with `--build` build its bots)
    /// without playing: what `run` would play, and how each bot is built
    Check {
        /// The tournament file
        #[arg(default_value = "tournament.yaml")]
        file: PathBuf,
        /// Also run the bots' `build:` commands, then check their files
        #[arg(long)]
        build: bool,
    },
    /// Finish the schedule of the tournament recorded in a store
    Resume {
        #[command(flatten)]
        store: StoreArg,
        /// Print no progress bar and no standings while running
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        player: PlayerArgs,
    },
    /// Play games of a tournament started with `run --db postgres://...`,
    /// on this machine, beside the coordinator and other workers
    Worker {
        /// The store the coordinator writes to
        #[arg(long, value_name = "URL")]
        db: PathBuf,
        /// This machine's copy of the tournament file (default: the path the
        /// coordinator's had); its bots and boards must be the same files
        #[arg(long, value_name = "FILE")]
        file: Option<PathBuf>,
        /// Print no progress bar and no standings while running
        #[arg(long)]
        quiet: bool,
        #[command(flatten)]
        player: PlayerArgs,
    },
    /// Print the standings and statistics of a store
    Report {
        #[command(flatten)]
        store: StoreArg,
        #[arg(long, value_enum, default_value_t = Format::Table)]
        format: Format,
    },
}

/// The store a command reads, named either way: `report t.sqlite` or
/// `report --db t.sqlite`, as `run` names it.
#[derive(clap::Args)]
pub struct StoreArg {
    /// The results store: a SQLite file or a `postgres://` URL (default:
    /// results.sqlite)
    #[arg(value_name = "STORE", conflicts_with = "db")]
    store: Option<PathBuf>,
    /// The same, as `run --db` names it
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
}

impl StoreArg {
    fn path(self) -> PathBuf {
        self.store
            .or(self.db)
            .unwrap_or_else(|| PathBuf::from("results.sqlite"))
    }
}

/// How this process plays its part of the schedule.
#[derive(clap::Args)]
pub struct PlayerArgs {
    /// Games played at once by this process (default: the file's
    /// `concurrency`); 0 plays none and only follows the others
    #[arg(long, value_name = "N", value_parser = at_once)]
    concurrency: Option<usize>,
    /// Seconds a claimed game stays this process's without a heartbeat: a
    /// process that dies has its games played by another this long after
    #[arg(long, value_name = "SECONDS", default_value_t = runner::DEFAULT_LEASE.as_secs(),
          value_parser = clap::value_parser!(u64).range(1..))]
    lease: u64,
    /// This process's name among the store's workers (default: HOST:PID:XXXX)
    #[arg(long, value_name = "NAME")]
    id: Option<String>,
}

/// `--concurrency`: a count of games, at most [`runner::MAX_CONCURRENCY`].
fn at_once(text: &str) -> Result<usize, String> {
    let n: usize = text.parse().map_err(|e| format!("{e}"))?;
    if n > runner::MAX_CONCURRENCY {
        return Err(config::too_many_at_once(n));
    }
    Ok(n)
}

impl PlayerArgs {
    fn worker(&self, t: &Tournament) -> WorkerOptions {
        let mut worker = WorkerOptions::new(self.concurrency.unwrap_or(t.concurrency));
        worker.lease = Duration::from_secs(self.lease);
        if let Some(id) = &self.id {
            worker.id = id.clone();
        }
        worker
    }
}

/// Which part the process plays.
enum Part {
    /// Writes the schedule, then plays.
    Coordinator,
    /// Plays a schedule written by a coordinator.
    Worker,
}

pub fn run(command: TournamentCommand) -> anyhow::Result<ExitCode> {
    match command {
        TournamentCommand::Run {
            file,
            db,
            quiet,
            player,
        } => {
            let mut t = config::load(&file)?;
            let db = db.unwrap_or_else(|| t.store.clone());
            let store = Store::open(&db)?;
            runner::build_for_watched(&mut t, &store, &crate::progress::Builds::new(!quiet))?;
            play(&t, store, quiet, &player.worker(&t), Part::Coordinator)
        }
        TournamentCommand::Check { file, build } => {
            let mut t = config::load(&file)?;
            if build {
                runner::build_watched(&mut t, &crate::progress::Builds::new(true))?;
            }
            print!("{}", summary(&t, build));
            Ok(ExitCode::SUCCESS)
        }
        TournamentCommand::Resume {
            store,
            quiet,
            player,
        } => {
            let db = store.path();
            if !store::exists(&db) {
                anyhow::bail!("{}: no such results store", db.display());
            }
            let store = Store::open(&db)?;
            let meta = store.require_meta()?;
            let mut t = config::parse(&meta.source, &meta.file, Path::new(&meta.base_dir))?;
            runner::build_for_watched(&mut t, &store, &crate::progress::Builds::new(!quiet))?;
            play(&t, store, quiet, &player.worker(&t), Part::Coordinator)
        }
        TournamentCommand::Worker {
            db,
            file,
            quiet,
            player,
        } => {
            if !store::exists(&db) {
                anyhow::bail!("{}: no such results store", db.display());
            }
            let store = Store::open(&db)?;
            let meta = store.require_meta()?;
            let file = match file {
                Some(file) => file,
                None => PathBuf::from(store.origin()?.unwrap_or(meta.file)),
            };
            let t = config::load(&file)?;
            // The bots are built by the coordinator and copied here: a worker
            // checks they are the same files, and builds nothing.
            config::check_files(&t)?;
            store.check_worker(&t)?;
            play(&t, store, quiet, &player.worker(&t), Part::Worker)
        }
        TournamentCommand::Report { store, format } => {
            let db = store.path();
            if !store::exists(&db) {
                anyhow::bail!("{}: no such results store", db.display());
            }
            let store = Store::open(&db)?;
            let meta = store.require_meta()?;
            let games = store.games()?;
            let report = stats::compute(&meta.bots, &meta.settings, &games);
            print!("{}", report::render(&report, format));
            // A report of part of the schedule says so (on stderr: the
            // formats for machines stay as they are).
            let progress = store.progress()?;
            if progress.done < progress.scheduled {
                let in_play = match progress.in_play {
                    0 => String::new(),
                    n => format!(", {n} of them in play now"),
                };
                eprintln!(
                    "note: this report covers {} of the tournament's {} scheduled games; {} are \
                     not played yet{in_play} (`clue tournament resume --db {}` plays them)",
                    progress.done,
                    progress.scheduled,
                    progress.scheduled - progress.done,
                    store::display_name(&db)
                );
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn play(
    t: &Tournament,
    mut store: Store,
    quiet: bool,
    worker: &WorkerOptions,
    part: Part,
) -> anyhow::Result<ExitCode> {
    let db = store.path().to_path_buf();
    let db = db.as_path();
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
    let shown = crate::progress::Shown::new(!quiet);
    let options = RunOptions {
        stop: &stop,
        watch: &shown,
        standings_every: (!quiet).then_some(Duration::from_secs(15)),
    };
    let start = Instant::now();
    let summary = match part {
        Part::Coordinator => runner::run_as(t, &mut store, &SpecConnector, &options, worker),
        Part::Worker => runner::work(t, &mut store, &SpecConnector, &options, worker),
    }
    .with_context(|| format!("running {}", t.file))?;
    let took = start.elapsed().as_secs_f64();
    println!("{}", runner::standings_text(&store)?);
    println!(
        "{} games played here ({}) in {took:.1}s ({} were already stored), {} of {} done; results in {}",
        summary.played,
        worker.id,
        summary.already,
        store.progress()?.done,
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

/// What `check` found: the games `run` would play, and each bot with how it
/// is built.
fn summary(t: &Tournament, built: bool) -> String {
    use std::fmt::Write;
    let games = clue_arena::schedule::schedule(t).len();
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let mut out = format!(
        "{}: ok: {}, {}, {}{}\n",
        t.file,
        count(t.settings.len(), "setting"),
        count(t.bots.len(), "bot"),
        count(games, "game"),
        if built { ", every bot built" } else { "" }
    );
    for bot in &t.bots {
        let _ = write!(out, "  {} ({})", bot.name, bot.spec);
        match &bot.build {
            None => {}
            Some(b) => {
                let how = match (&b.dir, b.runs_sandboxed()) {
                    (Some(dir), true) if b.network.is_empty() => {
                        format!("sandboxed, writing only {}, no network", dir.display())
                    }
                    (Some(dir), true) => format!(
                        "sandboxed, writing only {}, reaching only {} (through the host's proxy)",
                        dir.display(),
                        b.network.join(", ")
                    ),
                    (Some(dir), false) => {
                        format!("in {}, as you, without the sandbox", dir.display())
                    }
                    (None, _) => "in the file's folder, as you, without the sandbox".into(),
                };
                let _ = write!(out, ": built by `{}` {how}", b.command);
            }
        }
        out.push('\n');
    }
    out
}

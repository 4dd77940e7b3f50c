//! `clue replay`: re-run a logged game and compare every event.

use std::process::ExitCode;

use clue_arena::game::{self, ReplayResult};
use clue_arena::logfile::GameLog;

/// Replays a log file, or game `game` of the tournament store `db`.
pub fn run(
    path: Option<&std::path::Path>,
    db: Option<&std::path::Path>,
    game: Option<u64>,
) -> anyhow::Result<ExitCode> {
    let log = match (path, db, game) {
        (Some(path), _, _) => {
            let log = GameLog::load(path)?;
            // `clue play` ran the bots' commands where it ran; so does the
            // replay. A script not there would cost its seat at the first
            // event, as if the bot had changed: say so before playing.
            if let Err(e) = game::check_given(&log.header.bots) {
                anyhow::bail!(
                    "{}: {e}; a replay runs the bots' commands where `clue` runs, as `clue play` \
                     did: replay from the folder the game was played in",
                    path.display()
                );
            }
            log
        }
        (None, Some(db), Some(index)) => {
            if !clue_arena::store::exists(db) {
                anyhow::bail!("{}: no such results store", db.display());
            }
            clue_arena::store::Store::open(db)?.log(index)?
        }
        _ => anyhow::bail!("give a log file, or --db PATH --game N"),
    };
    let person = log.header.bots.iter().position(crate::human::is_person);
    if let Some(seat) = person {
        anyhow::bail!(
            "seat {seat} was played by a person (builtin:human): a replay plays the bots \
             again, and a person's answers are not in the log"
        );
    }
    match game::replay(&log)? {
        ReplayResult::Identical { events } => {
            println!("identical: all {events} events replayed the same");
            Ok(ExitCode::SUCCESS)
        }
        ReplayResult::Differs {
            index,
            logged,
            replayed,
            disqualified,
        } => {
            println!("differs at event {index}");
            println!("  logged:   {}", logged.unwrap_or_else(|| "(none)".into()));
            println!(
                "  replayed: {}",
                replayed.unwrap_or_else(|| "(none)".into())
            );
            if let Some(disqualified) = disqualified {
                println!("  {disqualified}");
            }
            Ok(ExitCode::FAILURE)
        }
    }
}

//! `clue replay`: re-run a logged game and compare every event.

use std::process::ExitCode;

use clue_host::logfile::GameLog;
use clue_host::run::{self, ReplayResult};

pub fn run(path: &std::path::Path) -> anyhow::Result<ExitCode> {
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

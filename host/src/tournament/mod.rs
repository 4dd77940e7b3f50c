//! Tournaments: a `tournament.yaml` is validated ([`config`]), turned into a
//! fixed list of games ([`schedule`]), played in parallel ([`runner`]) into an
//! SQLite store, one transaction per game ([`store`]), and summed up
//! ([`stats`], [`report`]). Game `i` is seeded from (tournament seed, `i`), so
//! an interrupted tournament resumes to exactly the results of an
//! uninterrupted one.
//!
//! ```no_run
//! use std::sync::atomic::AtomicBool;
//! use clue_host::tournament::{config, runner, store::Store};
//!
//! let t = config::load("tournament.yaml".as_ref()).unwrap();
//! let mut store = Store::open(&t.store).unwrap();
//! let stop = AtomicBool::new(false);
//! let options = runner::RunOptions { stop: &stop, progress: false, standings_every: None };
//! runner::run(&t, &mut store, &runner::SpecConnector, &options).unwrap();
//! ```

mod board_files;
pub mod config;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod store;

//! Clue Arena's games and tournaments, above the runtimes: one game played or
//! replayed from bot specs ([`game`]), its JSON-lines log ([`logfile`]) and
//! readable account ([`account`], [`narrate`]); and tournaments: a
//! `tournament.yaml` is validated ([`config`]), turned into a fixed list of
//! games ([`schedule`]), played in parallel ([`runner`]) into a store, one
//! transaction per game ([`store`]), and summed up ([`stats`], [`report`]).
//! Game `i` is seeded from (tournament seed, `i`), so an interrupted
//! tournament resumes to exactly the results of an uninterrupted one.
//!
//! ```no_run
//! use std::sync::atomic::AtomicBool;
//! use clue_arena::{config, runner, store::Store};
//!
//! let t = config::load("tournament.yaml".as_ref()).unwrap();
//! let mut store = Store::open(&t.store).unwrap();
//! let stop = AtomicBool::new(false);
//! let options = runner::RunOptions { stop: &stop, watch: &runner::Unwatched, standings_every: None };
//! runner::run(&t, &mut store, &runner::SpecConnector, &options).unwrap();
//! ```

#![forbid(unsafe_code)]

pub mod account;
mod board_files;
pub mod config;
pub mod game;
pub mod input;
pub mod logfile;
pub mod narrate;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod span;
pub mod stats;
pub mod store;

//! The Clue Arena host: everything around the pure engine. Bot loaders turn a
//! [`bots::BotSpec`] into a seated bot, game logs are written and replayed,
//! and the `clue` binary drives it all.

pub mod account;
pub mod bots;
pub mod human;
pub mod logfile;
pub mod options;
pub mod run;
pub mod runtime;
pub mod tournament;
pub mod web;

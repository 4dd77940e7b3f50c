//! The Clue Arena rules engine: a pure, deterministic implementation of every
//! variant of `RULES.md`. No I/O, no clock, no global RNG: a game is a
//! function of its [`GameConfig`], its seed and its bots' decisions, and bots
//! are reached only through [`SeatController`], so the engine cannot tell a
//! built-in bot from a native, wasm or process one.
//!
//! ```
//! use clue_engine::{play, GameConfig, InProcess, SeatController};
//! use clue_plugin_api::Variant;
//!
//! let config = GameConfig::new(Variant::Speedclue, 3);
//! let mut bots: Vec<Box<dyn SeatController>> = (0..3)
//!     .map(|_| Box::new(InProcess(notebook::Notebook::default())) as Box<dyn SeatController>)
//!     .collect();
//! let record = play(&config, 7, &mut bots).unwrap();
//! let again = play(&config, 7, &mut (0..3)
//!     .map(|_| Box::new(InProcess(notebook::Notebook::default())) as Box<dyn SeatController>)
//!     .collect::<Vec<_>>()).unwrap();
//! assert_eq!(record.log, again.log);
//! ```

#![forbid(unsafe_code)]

pub mod config;
pub mod deal;
pub mod decks;
mod game;
pub mod log;
pub mod record;
pub mod rng;
pub mod seat;
mod topology;
mod turn;
pub mod validate;

pub use config::{ConfigError, GameConfig, GameOptions};
pub use game::{StartError, acting_seats, check, play, play_observed};
pub use log::LogEntry;
pub use record::{GameRecord, Outcome, SeatRecord};
pub use seat::{Fault, InProcess, SeatController};

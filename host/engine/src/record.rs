//! What a finished game leaves behind.

use clue_plugin_api::{Card, Deck, DqReason, Seat};
use serde::{Deserialize, Serialize};

use crate::config::GameConfig;
use crate::log::LogEntry;

/// How a seat's game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Won,
    /// Still in play when someone else won, or at a draw.
    Lost,
    /// Out after a wrong accusation (or, in `generalized`, after guessing).
    WrongAccusation,
    /// `generalized`: guessed right but someone guessed right first.
    GuessedRight,
    Disqualified(DqReason),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub seat: Seat,
    pub outcome: Outcome,
    /// 1 is best; equal ranks are ties.
    pub rank: u8,
    /// What the bot did wrong, when disqualified: the message or line it sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Turns this seat took.
    pub turns: u32,
    /// Requests made of this seat's bot.
    pub calls: u32,
    /// Suggestions (or queries, interrogations) this seat made.
    pub suggestions: u32,
    /// What the bot wrote to stderr during the game (see
    /// [`crate::SeatController::stderr`]). Not compared by replays: a bot
    /// may print anything there, timings included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<String>,
}

/// A finished game: how it was set up, how it ended, and everything that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    pub config: GameConfig,
    pub seed: u64,
    /// The cards of this game (from the variant or the board).
    pub deck: Deck,
    pub envelope: Vec<Card>,
    pub hands: Vec<Vec<Card>>,
    pub winner: Option<Seat>,
    /// Rounds started.
    pub rounds: u32,
    pub seats: Vec<SeatRecord>,
    pub log: Vec<LogEntry>,
}

//! Where tokens can go: no board, a grid, a board with doors, or a ring. The
//! turn logic asks the topology for targets and rooms and never looks inside.

use clue_plugin_api::{BoardView, Card, Deck, Position};
use rand_chacha::ChaCha8Rng;

use crate::config::{ConfigError, GameConfig};

/// The shape of the playing field of a game.
#[derive(Clone, Debug)]
pub enum Topology {
    /// `speedclue`, `generalized`, `uniclue`.
    None,
}

impl Topology {
    pub fn build(config: &GameConfig, _seed: u64) -> Result<Topology, ConfigError> {
        if config.variant.has_board() {
            return Err(ConfigError::NoBoard(config.variant));
        }
        Ok(Topology::None)
    }

    /// The deck, for variants whose cards come from the board.
    pub fn deck(&self, _config: &GameConfig) -> Option<Deck> {
        None
    }

    pub fn starts(&self, _players: usize, _rng: &mut ChaCha8Rng) -> Vec<Position> {
        Vec::new()
    }

    pub fn view(&self) -> Option<BoardView> {
        None
    }

    pub fn targets(&self, _from: Position, _roll: u8, _occupied: &[Position]) -> Vec<Position> {
        Vec::new()
    }

    pub fn room_at(&self, _position: Position) -> Option<Card> {
        None
    }
}

//! Where tokens can go: no board, a grid, a board with doors, or a ring. The
//! turn logic asks the topology for targets and rooms and never looks inside.

mod grid;
mod ring;
mod rooms;

pub use grid::{Grid, check_table};
pub use ring::Ring;
pub use rooms::Rooms;

use clue_plugin_api::{BoardView, Card, Deck, Position, Variant};
use rand_chacha::ChaCha8Rng;

use crate::config::{ConfigError, GameConfig};
use crate::rng::{self, Stream};

/// The shape of the playing field of a game.
#[derive(Clone, Debug)]
pub enum Topology {
    /// `speedclue`, `generalized`, `uniclue`.
    None,
    /// `framework`: a square grid.
    Grid(Grid),
    /// `csci306` and `classic`: a board with walkways, doors and passages.
    Rooms(Box<Rooms>),
    /// `cyberclue`: a ring of computers.
    Ring(Ring),
}

impl Topology {
    /// Builds the variant's playing field; boards drawn at random use the seed.
    pub fn build(config: &GameConfig, seed: u64) -> Result<Topology, ConfigError> {
        Ok(match config.variant {
            Variant::Framework => {
                let mut rng = rng::stream(seed, Stream::Board);
                Topology::Grid(Grid::build(&config.framework, &mut rng)?)
            }
            Variant::Classic | Variant::Csci306 => Topology::Rooms(Box::new(Rooms::build(config)?)),
            Variant::Cyberclue => Topology::Ring(Ring::new(&crate::decks::cyberclue())),
            Variant::Speedclue | Variant::Generalized | Variant::Uniclue => Topology::None,
        })
    }

    /// The deck, for variants whose cards come from the board.
    pub fn deck(&self) -> Option<Deck> {
        match self {
            Topology::Grid(g) => Some(g.deck.clone()),
            Topology::Rooms(r) => Some(r.deck.clone()),
            Topology::None | Topology::Ring(_) => None,
        }
    }

    /// Each seat's starting position.
    pub fn starts(&self, players: usize, rng: &mut ChaCha8Rng) -> Vec<Position> {
        match self {
            Topology::None => Vec::new(),
            Topology::Grid(g) => vec![g.start(); players],
            Topology::Rooms(r) => r.starts(players),
            Topology::Ring(r) => r.starts(players, rng),
        }
    }

    pub fn view(&self) -> Option<BoardView> {
        match self {
            Topology::None => None,
            Topology::Grid(g) => Some(g.view()),
            Topology::Rooms(r) => Some(r.view()),
            Topology::Ring(r) => Some(r.view()),
        }
    }

    /// Every legal destination for a roll, sorted. Empty when there is none
    /// (the seat then stays where it is).
    pub fn targets(&self, from: Position, roll: u8, occupied: &[Position]) -> Vec<Position> {
        match self {
            Topology::None => Vec::new(),
            Topology::Grid(g) => g.targets(from, roll),
            Topology::Rooms(r) => r.targets(from, roll, occupied),
            Topology::Ring(r) => r.targets(from, roll),
        }
    }

    /// The room a position is in, if any.
    pub fn room_at(&self, position: Position) -> Option<Card> {
        match self {
            Topology::None => None,
            Topology::Grid(g) => g.room_at(position),
            Topology::Rooms(_) | Topology::Ring(_) => match position {
                Position::Room(card) => Some(card),
                Position::Cell { .. } => None,
            },
        }
    }
}

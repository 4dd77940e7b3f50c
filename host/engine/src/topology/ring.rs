//! CyberClue's ring of ten computers (`seeds/004`): a d4 roll moves exactly
//! that many steps one way round; the last computer is next to the first.

use clue_plugin_api::{BoardView, Card, Category, Deck, Position};
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

#[derive(Clone, Debug)]
pub struct Ring {
    computers: Vec<Card>,
}

impl Ring {
    pub fn new(deck: &Deck) -> Ring {
        Ring {
            computers: deck.of(Category::Room),
        }
    }

    /// Start computers drawn from the seed.
    pub fn starts(&self, players: usize, rng: &mut ChaCha8Rng) -> Vec<Position> {
        (0..players)
            .map(|_| Position::Room(self.computers[rng.random_range(0..self.computers.len())]))
            .collect()
    }

    pub fn view(&self) -> BoardView {
        BoardView::Ring {
            computers: self.computers.clone(),
        }
    }

    /// The two computers exactly `roll` steps away, clockwise and anticlockwise.
    pub fn targets(&self, from: Position, roll: u8) -> Vec<Position> {
        let n = self.computers.len();
        let Some(i) = (match from {
            Position::Room(card) => self.computers.iter().position(|&c| c == card),
            Position::Cell { .. } => None,
        }) else {
            return Vec::new();
        };
        let steps = usize::from(roll) % n;
        let mut targets = vec![
            Position::Room(self.computers[(i + steps) % n]),
            Position::Room(self.computers[(i + n - steps) % n]),
        ];
        targets.sort();
        targets.dedup();
        targets
    }
}

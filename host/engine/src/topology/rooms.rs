//! `csci306` and `classic`: a board with walkways, doors and secret passages
//! in the CSCI306 file format, read by the `clue-board` crate. A room is one
//! node; the turn logic sees rooms as `Position::Room(card)`.

use clue_board::{Node, RoomBoard};
use clue_plugin_api::{BoardView, Card, Category, Deck, Position, Variant};

use crate::config::{BoardText, ConfigError, GameConfig};
use crate::decks;

/// The project's own boards, used when a game names none.
const CLASSIC_LAYOUT: &str = include_str!("../../../../boards/classic/ClueLayout.csv");
const CLASSIC_SETUP: &str = include_str!("../../../../boards/classic/ClueSetup.txt");
const CSCI306_LAYOUT: &str = include_str!("../../../../boards/csci306/ClueLayout.csv");
const CSCI306_SETUP: &str = include_str!("../../../../boards/csci306/ClueSetup.txt");

#[derive(Clone, Debug)]
pub struct Rooms {
    pub board: RoomBoard,
    pub deck: Deck,
    /// `rooms[i]` is the card of the board's room `i`.
    pub rooms: Vec<Card>,
}

/// The board a variant uses by default.
pub fn default_board(variant: Variant) -> BoardText {
    let (layout, setup, dir) = match variant {
        Variant::Csci306 => (CSCI306_LAYOUT, CSCI306_SETUP, "csci306"),
        _ => (CLASSIC_LAYOUT, CLASSIC_SETUP, "classic"),
    };
    BoardText {
        layout_name: format!("boards/{dir}/ClueLayout.csv"),
        layout: layout.to_string(),
        setup_name: format!("boards/{dir}/ClueSetup.txt"),
        setup: setup.to_string(),
    }
}

impl Rooms {
    pub fn build(config: &GameConfig) -> Result<Rooms, ConfigError> {
        let text = config
            .board
            .clone()
            .unwrap_or_else(|| default_board(config.variant));
        let board = clue_board::parse(
            &text.layout,
            &text.layout_name,
            &text.setup,
            &text.setup_name,
        )
        .map_err(|e| ConfigError::Board(e.to_string()))?;
        let persons: Vec<&str> = board.persons().iter().map(|p| p.name.as_str()).collect();
        let weapons: Vec<&str> = board.weapons().iter().map(|w| w.name.as_str()).collect();
        let rooms: Vec<&str> = board.rooms().iter().map(|r| r.name.as_str()).collect();
        if persons.is_empty() || weapons.is_empty() || rooms.is_empty() {
            // The course's own setup file lists rooms only (its students
            // added the rest): say what to add.
            let missing: Vec<&str> = [
                (
                    persons.is_empty(),
                    "player lines (`Player, Miss Scarlet, red`, a start row and column after it if you like)",
                ),
                (weapons.is_empty(), "weapon lines (`Weapon, Rope`)"),
                (rooms.is_empty(), "room lines (`Room, Kitchen, K`)"),
            ]
            .into_iter()
            .filter_map(|(missing, what)| missing.then_some(what))
            .collect();
            return Err(ConfigError::Board(format!(
                "{} lists {} persons, {} weapons and {} rooms; a game needs at least one of each: \
                 add {} to it, as the project's boards/classic/ClueSetup.txt has them",
                text.setup_name,
                persons.len(),
                weapons.len(),
                rooms.len(),
                missing.join(" and ")
            )));
        }
        if usize::from(config.players) > persons.len() {
            return Err(ConfigError::Board(format!(
                "{} players, but {} lists only {} persons to play",
                config.players,
                text.setup_name,
                persons.len()
            )));
        }
        let deck = decks::three_category(&persons, &weapons, &rooms);
        let rooms = deck.of(Category::Room);
        Ok(Rooms { board, deck, rooms })
    }

    /// Seat `i` plays person `i` and starts on that person's start square.
    pub fn starts(&self, players: usize) -> Vec<Position> {
        self.board
            .start_nodes()
            .into_iter()
            .take(players)
            .filter_map(|n| self.board.position(n, &self.rooms))
            .collect()
    }

    pub fn view(&self) -> BoardView {
        self.board.view(&self.rooms)
    }

    pub fn targets(&self, from: Position, roll: u8, occupied: &[Position]) -> Vec<Position> {
        let Some(from) = self.board.node_of(from, &self.rooms) else {
            return Vec::new();
        };
        let occupied: Vec<Node> = occupied
            .iter()
            .filter_map(|&p| self.board.node_of(p, &self.rooms))
            .collect();
        let mut targets: Vec<Position> = self
            .board
            .targets(from, roll, &occupied)
            .into_iter()
            .filter_map(|n| self.board.position(n, &self.rooms))
            .collect();
        targets.sort();
        targets
    }
}

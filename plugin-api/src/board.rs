//! What a bot is told about the board, and where tokens stand.

use crate::cards::Card;
use serde::{Deserialize, Serialize};

/// Where a token stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Position {
    /// A cell of a grid or a walkway cell of a board, zero-based from the top left.
    Cell { row: u16, col: u16 },
    /// Inside a room (a room node of a board with doors, or a computer of the ring).
    Room(Card),
}

/// A direction a doorway faces: the side of the walkway cell the room is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// One cell of a board with doors.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CellView {
    /// The room this cell belongs to, if any.
    pub room: Option<Card>,
    /// Whether tokens may walk on this cell (walkway cells only).
    pub walkway: bool,
    /// On a walkway cell: the doorway's direction into the adjacent room.
    pub door: Option<Direction>,
    /// On a room cell: the room reached by a secret passage from here.
    pub passage: Option<Card>,
    /// On a room cell: the room's centre (its node) and label cell.
    pub centre: bool,
    pub label: bool,
}

/// The board a bot plays on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BoardView {
    /// `framework`: a `width x width` grid, row-major; each cell is 0 (hallway)
    /// or `room_id + 1`; `rooms[room_id]` is that room's card.
    Grid {
        width: u16,
        cells: Vec<u16>,
        rooms: Vec<Card>,
    },
    /// `csci306` and `classic`: a board with walkways, doors and rooms, row-major.
    Rooms {
        rows: u16,
        cols: u16,
        cells: Vec<CellView>,
    },
    /// `cyberclue`: the computers in ring order; the last is next to the first.
    Ring { computers: Vec<Card> },
}

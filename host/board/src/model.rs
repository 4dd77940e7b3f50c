//! The validated board: cells, rooms, spaces, persons and weapons.

use clue_plugin_api::{BoardView, Card, Category, CellView, Deck, Direction};

/// What a cell is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellKind {
    /// A cell of the walkway Space: tokens walk here.
    Walkway,
    /// A cell of the room with this index in [`RoomBoard::rooms`].
    Room(usize),
    /// A cell of an impassable Space (index in [`RoomBoard::spaces`]).
    Blocked(usize),
}

/// One cell of the board, with its marker decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cell {
    pub kind: CellKind,
    /// On a walkway cell: a doorway into the room on this side.
    pub door: Option<Direction>,
    /// On a room cell: a secret passage to this room (index).
    pub passage: Option<usize>,
    /// On a room cell: the room's centre, where its node stands.
    pub centre: bool,
    /// On a room cell: where the room's name is written.
    pub label: bool,
}

/// A room from a `Room` line of the setup file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Room {
    pub name: String,
    pub initial: char,
    /// The `*` cell, (row, col).
    pub centre: (u16, u16),
    /// The `#` cell, (row, col).
    pub label: (u16, u16),
}

/// A Space from a `Space` line of the setup file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Space {
    pub name: String,
    pub initial: char,
}

/// Whether a player line says the seat is played by a human or the computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    Human,
    Computer,
}

/// A person (suspect) from a player line, with whatever the line gives.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Person {
    pub name: String,
    /// The colour as written (`red`, `#FC2C03`, `lightGray`); an RGB triple
    /// (`136, 92, 194`) is recorded as `#885CC2`.
    pub color: Option<String>,
    /// Human or computer, when the line (or its keyword) says so.
    pub kind: Option<PlayerKind>,
    /// The start cell (row, col), when the line gives one. A start given as a
    /// room name is recorded as that room's centre cell. Always on the board,
    /// but not always walkable (see [`RoomBoard::start_nodes`]).
    pub start: Option<(u16, u16)>,
    /// A short code or initial some files give (`NP`, `S`).
    pub code: Option<String>,
}

/// A weapon from a `Weapon` or `Card, Weapon` line.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Weapon {
    pub name: String,
    /// A short code or initial some files give (`WG`, `k`).
    pub code: Option<String>,
}

/// A CSCI306 board, parsed and validated: every row has the same length,
/// every door leads into a room, every room has exactly one centre and one
/// label, every passage joins two rooms. Build it with [`crate::parse`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomBoard {
    pub(crate) rows: u16,
    pub(crate) cols: u16,
    pub(crate) cells: Vec<Cell>,
    pub(crate) rooms: Vec<Room>,
    pub(crate) spaces: Vec<Space>,
    pub(crate) walkway: usize,
    pub(crate) persons: Vec<Person>,
    pub(crate) weapons: Vec<Weapon>,
}

impl RoomBoard {
    pub fn rows(&self) -> u16 {
        self.rows
    }

    pub fn cols(&self) -> u16 {
        self.cols
    }

    /// Every cell, row-major.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The cell at (row, col), if it is on the board.
    pub fn cell(&self, row: u16, col: u16) -> Option<&Cell> {
        if row < self.rows && col < self.cols {
            self.cells
                .get(usize::from(row) * usize::from(self.cols) + usize::from(col))
        } else {
            None
        }
    }

    /// The rooms, in setup-file order (a room's index is its position here).
    pub fn rooms(&self) -> &[Room] {
        &self.rooms
    }

    /// Every Space, walkway included, in setup-file order.
    pub fn spaces(&self) -> &[Space] {
        &self.spaces
    }

    /// The walkway Space: the one named `Walkway`, else the one whose cells
    /// carry the doors.
    pub fn walkway(&self) -> &Space {
        &self.spaces[self.walkway]
    }

    /// The persons of the player lines, in file order (may be empty: the
    /// course's reference setup has none).
    pub fn persons(&self) -> &[Person] {
        &self.persons
    }

    /// The weapons, in file order (may be empty).
    pub fn weapons(&self) -> &[Weapon] {
        &self.weapons
    }

    /// The index of the room with this initial.
    pub fn room_index(&self, initial: char) -> Option<usize> {
        self.rooms.iter().position(|r| r.initial == initial)
    }

    /// Every doorway cell (row, col) leading into `room`, row-major.
    pub fn doors_of(&self, room: usize) -> Vec<(u16, u16)> {
        self.positions()
            .filter(|&(r, c)| self.door_target(r, c) == Some(room))
            .collect()
    }

    /// The number of doorway cells on the board.
    pub fn door_count(&self) -> usize {
        self.cells.iter().filter(|c| c.door.is_some()).count()
    }

    /// Every passage cell as (row, col, from room, to room), row-major.
    pub fn passages(&self) -> Vec<(u16, u16, usize, usize)> {
        self.positions()
            .filter_map(|(r, c)| {
                let cell = self.cell(r, c)?;
                match (cell.kind, cell.passage) {
                    (CellKind::Room(from), Some(to)) => Some((r, c, from, to)),
                    _ => None,
                }
            })
            .collect()
    }

    /// The room a doorway cell at (row, col) leads into.
    pub fn door_target(&self, row: u16, col: u16) -> Option<usize> {
        let door = self.cell(row, col)?.door?;
        let (r, c) = step(row, col, door)?;
        match self.cell(r, c)?.kind {
            CellKind::Room(i) => Some(i),
            _ => None,
        }
    }

    /// Every (row, col) of the board, row-major.
    pub(crate) fn positions(&self) -> impl Iterator<Item = (u16, u16)> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| (r, c)))
    }

    /// What a bot is told about this board. Room `i` is `room_cards[i]`; a
    /// room with no card in `room_cards` is shown as a plain room cell with
    /// `room: None` and `walkway: false`.
    pub fn view(&self, room_cards: &[Card]) -> BoardView {
        let card = |i: usize| room_cards.get(i).copied();
        let cells = self
            .cells
            .iter()
            .map(|cell| CellView {
                room: match cell.kind {
                    CellKind::Room(i) => card(i),
                    _ => None,
                },
                walkway: cell.kind == CellKind::Walkway,
                door: cell.door,
                passage: cell.passage.and_then(card),
                centre: cell.centre,
                label: cell.label,
            })
            .collect();
        BoardView::Rooms {
            rows: self.rows,
            cols: self.cols,
            cells,
        }
    }

    /// The board a seat was told of ([`RoomBoard::view`]) read back, for
    /// drawing it ([`RoomBoard::render`]) where only the seat's `Setup` is
    /// at hand (a person at the terminal): room `i` is the deck's `i`th room
    /// card, named as the deck names it. The view does not carry the setup
    /// file's initials, so each room's letter is the first of its name's
    /// letters (word starts first) that no room before it took; every
    /// impassable space is one. `None` for a view of another kind, or one
    /// whose cells do not fill its rows and columns.
    pub fn from_view(view: &BoardView, deck: &Deck) -> Option<RoomBoard> {
        let BoardView::Rooms { rows, cols, cells } = view else {
            return None;
        };
        if cells.len() != usize::from(*rows) * usize::from(*cols) {
            return None;
        }
        let room_cards = deck.of(Category::Room);
        let index = |card: Option<Card>| card.and_then(|c| room_cards.iter().position(|&r| r == c));
        let at = |i: usize| {
            let cols = usize::from(*cols);
            ((i / cols) as u16, (i % cols) as u16)
        };
        let mut rooms: Vec<Room> = Vec::with_capacity(room_cards.len());
        for &card in &room_cards {
            let find = |wanted: fn(&CellView) -> bool| {
                cells.iter().position(|c| c.room == Some(card) && wanted(c))
            };
            let centre = find(|c| c.centre).or_else(|| find(|_| true));
            let label = find(|c| c.label).or(centre);
            let name = deck.name(card).to_string();
            // A room with no cell on the board keeps its place, so that
            // indices stay the deck's, at the corner: it is never drawn.
            rooms.push(Room {
                initial: initial(&name, &rooms),
                name,
                centre: centre.map_or((0, 0), at),
                label: label.map_or((0, 0), at),
            });
        }
        let cells = cells
            .iter()
            .map(|cell| Cell {
                kind: match (cell.walkway, index(cell.room)) {
                    (true, _) => CellKind::Walkway,
                    (false, Some(i)) => CellKind::Room(i),
                    (false, None) => CellKind::Blocked(1),
                },
                door: cell.door.filter(|_| cell.walkway),
                passage: index(cell.passage),
                centre: cell.centre,
                label: cell.label,
            })
            .collect();
        Some(RoomBoard {
            rows: *rows,
            cols: *cols,
            cells,
            rooms,
            spaces: vec![
                Space {
                    name: "Walkway".into(),
                    initial: 'W',
                },
                Space {
                    name: "Unused".into(),
                    initial: 'X',
                },
            ],
            walkway: 0,
            persons: Vec::new(),
            weapons: Vec::new(),
        })
    }
}

/// A letter for the room `name`, none of those `taken`: the first letter of
/// a word of its name, then any letter of it, upper case; past those, the
/// first free digit or letter.
fn initial(name: &str, taken: &[Room]) -> char {
    let free = |c: &char| c.is_alphanumeric() && !taken.iter().any(|r| r.initial == *c);
    let words = name
        .split_whitespace()
        .filter_map(|w| w.chars().next())
        .map(|c| c.to_ascii_uppercase());
    let letters = name.chars().map(|c| c.to_ascii_uppercase());
    words
        .chain(letters)
        .chain(('1'..='9').chain('A'..='Z'))
        .find(free)
        .unwrap_or('?')
}

/// The neighbour of (row, col) in `direction`, if it does not leave the
/// first quadrant (the caller checks the far edges).
pub(crate) fn step(row: u16, col: u16, direction: Direction) -> Option<(u16, u16)> {
    match direction {
        Direction::Up => Some((row.checked_sub(1)?, col)),
        Direction::Down => Some((row.checked_add(1)?, col)),
        Direction::Left => Some((row, col.checked_sub(1)?)),
        Direction::Right => Some((row, col.checked_add(1)?)),
    }
}

//! The `framework` grid (`seeds/000`): a `W x W` board with `W` rooms placed
//! from the seed (or read from the protocol's own table form), Manhattan
//! movement up to the roll, everyone starting in room 0.

use clue_plugin_api::{BoardView, Card, Category, Deck, Position};
use rand::RngExt;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::config::{ConfigError, FrameworkOptions};
use crate::decks::{self, FRAMEWORK_PERSONS, FRAMEWORK_ROOMS, FRAMEWORK_WEAPONS};

#[derive(Clone, Debug)]
pub struct Grid {
    pub width: u16,
    /// Row-major; 0 is hallway, `room_id + 1` a cell of that room.
    pub cells: Vec<u16>,
    pub deck: Deck,
    /// `rooms[room_id]` is that room's card.
    pub rooms: Vec<Card>,
}

impl Grid {
    pub fn build(options: &FrameworkOptions, rng: &mut ChaCha8Rng) -> Result<Grid, ConfigError> {
        let (width, cells) = match &options.table {
            Some(table) => parse_table(table)?,
            None => (options.width, place_rooms(options.width, rng)),
        };
        let deck = decks::three_category(
            &names(
                &FRAMEWORK_PERSONS,
                usize::from(options.persons),
                "Person",
                rng,
            ),
            &names(
                &FRAMEWORK_WEAPONS,
                usize::from(options.weapons),
                "Weapon",
                rng,
            ),
            &names(&FRAMEWORK_ROOMS, usize::from(width), "Room", rng),
        );
        let rooms = deck.of(Category::Room);
        Ok(Grid {
            width,
            cells,
            deck,
            rooms,
        })
    }

    /// The first cell, in row-major order, of room 0.
    pub fn start(&self) -> Position {
        let i = self.cells.iter().position(|&v| v == 1).unwrap_or(0);
        self.cell(i)
    }

    fn cell(&self, i: usize) -> Position {
        let w = usize::from(self.width);
        Position::Cell {
            row: (i / w) as u16,
            col: (i % w) as u16,
        }
    }

    pub fn view(&self) -> BoardView {
        BoardView::Grid {
            width: self.width,
            cells: self.cells.clone(),
            rooms: self.rooms.clone(),
        }
    }

    /// Every cell within Manhattan distance `roll` (staying is distance 0).
    pub fn targets(&self, from: Position, roll: u8) -> Vec<Position> {
        let Position::Cell { row, col } = from else {
            return Vec::new();
        };
        let roll = i32::from(roll);
        let (row, col) = (i32::from(row), i32::from(col));
        (0..self.cells.len())
            .map(|i| self.cell(i))
            .filter(|p| match *p {
                Position::Cell { row: r, col: c } => {
                    (i32::from(r) - row).abs() + (i32::from(c) - col).abs() <= roll
                }
                Position::Room(_) => false,
            })
            .collect()
    }

    pub fn room_at(&self, position: Position) -> Option<Card> {
        let Position::Cell { row, col } = position else {
            return None;
        };
        let w = self.width;
        if row >= w || col >= w {
            return None;
        }
        let v = self.cells[usize::from(row) * usize::from(w) + usize::from(col)];
        self.rooms.get(usize::from(v).checked_sub(1)?).copied()
    }
}

/// `count` names: the pool shuffled by the seed, then numbered extras.
fn names(pool: &[&str], count: usize, kind: &str, rng: &mut ChaCha8Rng) -> Vec<String> {
    let mut names: Vec<String> = pool.iter().map(|s| s.to_string()).collect();
    names.shuffle(rng);
    names.truncate(count);
    names.extend((names.len()..count).map(|i| format!("{kind} {}", i + 1)));
    names
}

/// Places `width` rooms of 1x1 to 2x3 cells at random, never overlapping.
fn place_rooms(width: u16, rng: &mut ChaCha8Rng) -> Vec<u16> {
    let w = usize::from(width);
    let mut cells = vec![0u16; w * w];
    for room in 1..=width {
        let mut placed = false;
        for _ in 0..200 {
            let (h, l) = (rng.random_range(1..=2usize), rng.random_range(1..=3usize));
            let (r, c) = (rng.random_range(0..=w - h), rng.random_range(0..=w - l));
            let free = (r..r + h).all(|y| (c..c + l).all(|x| cells[y * w + x] == 0));
            if free {
                for y in r..r + h {
                    for x in c..c + l {
                        cells[y * w + x] = room;
                    }
                }
                placed = true;
                break;
            }
        }
        if !placed {
            // A crowded board: the first free cell becomes the room.
            if let Some(cell) = cells.iter_mut().find(|v| **v == 0) {
                *cell = room;
            }
        }
    }
    cells
}

/// Reads the protocol's table form: an optional `Board W H` line, then `W`
/// rows of `W` numbers (0 hallway, `room_id + 1`), every room present.
pub fn parse_table(text: &str) -> Result<(u16, Vec<u16>), ConfigError> {
    let bad = |line: usize, what: String| ConfigError::Board(format!("table line {line}: {what}"));
    let mut rows: Vec<(usize, Vec<u16>)> = Vec::new();
    let mut declared = None;
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        if words[0] == "Board" {
            let dims: Vec<u16> = words[1..].iter().filter_map(|w| w.parse().ok()).collect();
            match dims.as_slice() {
                [w, h] if w == h => declared = Some(*w),
                _ => return Err(bad(line_no, format!("`{line}` is not `Board W W`"))),
            }
            continue;
        }
        let row = words
            .iter()
            .map(|w| {
                w.parse::<u16>()
                    .map_err(|_| bad(line_no, format!("`{w}` is not a number")))
            })
            .collect::<Result<Vec<u16>, _>>()?;
        rows.push((line_no, row));
    }
    let width = rows.len();
    if width < 5 {
        return Err(ConfigError::Board(format!(
            "the table has {width} rows; the board is square and at least 5 wide"
        )));
    }
    if let Some(w) = declared.filter(|&w| usize::from(w) != width) {
        return Err(ConfigError::Board(format!(
            "`Board {w} {w}` declared, but the table has {width} rows"
        )));
    }
    let mut cells = Vec::with_capacity(width * width);
    for (line_no, row) in &rows {
        if row.len() != width {
            return Err(bad(
                *line_no,
                format!("{} numbers; the board is {width} wide", row.len()),
            ));
        }
        if let Some(v) = row.iter().find(|&&v| usize::from(v) > width) {
            return Err(bad(
                *line_no,
                format!("room {} does not exist (there are {width} rooms)", v - 1),
            ));
        }
        cells.extend(row);
    }
    for room in 1..=width as u16 {
        if !cells.contains(&room) {
            return Err(ConfigError::Board(format!("room {} has no cell", room - 1)));
        }
    }
    Ok((width as u16, cells))
}

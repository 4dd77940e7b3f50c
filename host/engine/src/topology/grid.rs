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

/// What is wrong with a table, and where: `line` and `column` 1-based, the
/// column in characters; a fault of the table as a whole has no line, a
/// fault of a row's length no column.
struct TableFault {
    line: Option<usize>,
    column: Option<usize>,
    message: String,
}

/// Reads the protocol's table form: an optional `Board W H` line, then `W`
/// rows of `W` numbers (0 hallway, `room_id + 1`), every room present.
/// Errors name the table's line (`table line 3: ...`); a caller that read
/// the table from a file names the file, line and column first
/// ([`check_table`]).
pub fn parse_table(text: &str) -> Result<(u16, Vec<u16>), ConfigError> {
    read_table(text).map_err(|fault| {
        ConfigError::Board(match fault.line {
            Some(line) => format!("table line {line}: {}", fault.message),
            None => fault.message,
        })
    })
}

/// Checks a table read from the file `name`: its errors are
/// `NAME:LINE:COLUMN: message`, as a board's layout and setup files' are.
pub fn check_table(name: &str, text: &str) -> Result<(), ConfigError> {
    read_table(text).map(|_| ()).map_err(|fault| {
        let place = match (fault.line, fault.column) {
            (Some(line), Some(column)) => format!(":{line}:{column}"),
            (Some(line), None) => format!(":{line}"),
            _ => String::new(),
        };
        ConfigError::Board(format!("{name}{place}: {}", fault.message))
    })
}

fn read_table(text: &str) -> Result<(u16, Vec<u16>), TableFault> {
    let at = |line: usize, column: Option<usize>, message: String| TableFault {
        line: Some(line),
        column,
        message,
    };
    let whole = |message: String| TableFault {
        line: None,
        column: None,
        message,
    };
    // Each row: its line, and each number with its column.
    let mut rows: Vec<(usize, Vec<(u16, usize)>)> = Vec::new();
    let mut declared = None;
    // A byte order mark (an editor's on Windows) is not part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let words = words_with_columns(line);
        let Some(&(first, first_column)) = words.first() else {
            continue;
        };
        if first == "Board" {
            let dims: Vec<u16> = words[1..]
                .iter()
                .filter_map(|(w, _)| w.parse().ok())
                .collect();
            match dims.as_slice() {
                [w, h] if w == h => declared = Some(*w),
                _ => {
                    return Err(at(
                        line_no,
                        Some(first_column),
                        format!("`{}` is not `Board W W`", line.trim()),
                    ));
                }
            }
            continue;
        }
        let row = words
            .iter()
            .map(|&(w, column)| {
                w.parse::<u16>()
                    .map(|v| (v, column))
                    .map_err(|_| at(line_no, Some(column), format!("`{w}` is not a number")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        rows.push((line_no, row));
    }
    let width = rows.len();
    if width < 5 {
        return Err(whole(format!(
            "the table has {width} rows; the board is square and at least 5 wide"
        )));
    }
    if let Some(w) = declared.filter(|&w| usize::from(w) != width) {
        return Err(whole(format!(
            "`Board {w} {w}` declared, but the table has {width} rows"
        )));
    }
    let mut cells = Vec::with_capacity(width * width);
    for (line_no, row) in &rows {
        if row.len() != width {
            // Too many: the first number past the width; too few: none.
            let column = row.get(width).map(|&(_, column)| column);
            return Err(at(
                *line_no,
                column,
                format!("{} numbers; the board is {width} wide", row.len()),
            ));
        }
        if let Some(&(v, column)) = row.iter().find(|&&(v, _)| usize::from(v) > width) {
            return Err(at(
                *line_no,
                Some(column),
                format!("room {} does not exist (there are {width} rooms)", v - 1),
            ));
        }
        cells.extend(row.iter().map(|&(v, _)| v));
    }
    for room in 1..=width as u16 {
        if !cells.contains(&room) {
            return Err(whole(format!("room {} has no cell", room - 1)));
        }
    }
    Ok((width as u16, cells))
}

/// The words of `line`, split at white space, each with its 1-based column
/// in characters.
fn words_with_columns(line: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (column, (at, c)) in line.char_indices().enumerate() {
        match (c.is_whitespace(), start) {
            (true, Some((from, from_column))) => {
                out.push((&line[from..at], from_column + 1));
                start = None;
            }
            (false, None) => start = Some((at, column)),
            _ => {}
        }
    }
    if let Some((from, from_column)) = start {
        out.push((&line[from..], from_column + 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `check_table` says of `text`, read from `t.txt`.
    fn check(text: &str, expected: &str) {
        let error = check_table("t.txt", text).expect_err("a bad table");
        assert_eq!(error.to_string(), format!("bad board: {expected}"));
    }

    #[test]
    fn a_tables_errors_name_the_line_and_the_column_in_characters() {
        check("\t0  é 1\n", "t.txt:1:5: `é` is not a number");
        check("Board 5\n", "t.txt:1:1: `Board 5` is not `Board W W`");
        check(
            "Board 6 6\n0 0 1 1 2\n0 0 1 1 2\n3 3 4 4 5\n3 3 4 4 5\n0 0 0 0 0\n",
            "t.txt: `Board 6 6` declared, but the table has 5 rows",
        );
        check(
            "0 0 1 1 2\n0 0 1 1 2\n3 3 4 4 0\n3 3 4 4 0\n0 0 0 0 0\n",
            "t.txt: room 4 has no cell",
        );
        // The engine, given the text alone, names the table's line.
        let error = parse_table("0 0 1 1 2\n0 0 x\n").expect_err("a bad table");
        assert_eq!(
            error.to_string(),
            "bad board: table line 2: `x` is not a number"
        );
        let good = "0 0 1 1 2\n0 0 1 1 2\n3 3 4 4 5\n3 3 4 4 5\n0 0 0 0 0\n";
        assert!(check_table("t.txt", good).is_ok());
        assert_eq!(parse_table(good).expect("a good table").0, 5);
        // A byte order mark (an editor's on Windows) is not part of line 1.
        let marked = format!("\u{feff}Board 5 5\r\n{}", good.replace('\n', "\r\n"));
        assert_eq!(
            parse_table(&marked).expect("a good table"),
            parse_table(good).unwrap()
        );
        check(
            "\u{feff}Board 5\n",
            "t.txt:1:1: `Board 5` is not `Board W W`",
        );
    }
}

//! Drawing a board in a terminal, two characters per cell.
//!
//! | cell | drawn as |
//! | --- | --- |
//! | walkway | `. ` |
//! | doorway | `^ `, `v `, `< `, `> `: the way into the room |
//! | impassable space | `::` |
//! | room | its initial, with the room's name written from its label cell |
//! | secret passage | `~` and the initial of the room it leads to |
//! | highlighted walkway cell | `[]` |
//! | highlighted room | `[]` at its centre (and the whole room lit, in colour) |
//! | token | its letter; tokens in a room stand from its centre on |
//!
//! Column numbers run along the top (tens over units), row numbers down the
//! left, and a legend of the rooms follows the grid. ANSI colour escapes are
//! written only when asked for.

use crate::model::{CellKind, RoomBoard};
use crate::movement::Node;
use clue_plugin_api::Direction;
use std::fmt::Write;

#[derive(Clone, Copy, PartialEq)]
enum Style {
    Walkway,
    Door,
    Blocked,
    Room(usize),
    Passage(usize),
    Target,
    TargetRoom(usize),
    Token,
}

/// Soft 256-colour backgrounds for rooms, cycled.
const ROOM_BG: [u8; 12] = [217, 180, 186, 151, 116, 153, 183, 224, 222, 194, 152, 189];

fn ansi(style: Style) -> String {
    let (fg, bg, bold) = match style {
        Style::Walkway => (244, 230, false),
        Style::Door => (124, 230, true),
        Style::Blocked => (240, 238, false),
        Style::Room(i) => (16, ROOM_BG[i % ROOM_BG.len()], false),
        Style::Passage(i) => (19, ROOM_BG[i % ROOM_BG.len()], true),
        Style::Target => (16, 226, true),
        Style::TargetRoom(_) => (16, 220, false),
        Style::Token => (231, 160, true),
    };
    let bold = if bold { "1;" } else { "" };
    format!("\x1b[0;{bold}38;5;{fg};48;5;{bg}m")
}

impl RoomBoard {
    /// Draws the board for a terminal: `highlight` lights targets, `tokens`
    /// puts a letter on a node (several letters may share a node). With
    /// `color`, cells get ANSI 256-colour backgrounds; without, the text alone
    /// tells everything apart.
    pub fn render(&self, color: bool, highlight: &[Node], tokens: &[(Node, char)]) -> String {
        let cols = usize::from(self.cols);
        let mut glyphs: Vec<[char; 2]> = Vec::with_capacity(self.cells.len());
        let mut styles: Vec<Style> = Vec::with_capacity(self.cells.len());
        for cell in &self.cells {
            let (glyph, style) = match cell.kind {
                CellKind::Walkway => match cell.door {
                    Some(d) => {
                        let arrow = match d {
                            Direction::Up => '^',
                            Direction::Down => 'v',
                            Direction::Left => '<',
                            Direction::Right => '>',
                        };
                        ([arrow, ' '], Style::Door)
                    }
                    None => (['.', ' '], Style::Walkway),
                },
                CellKind::Blocked(_) => ([':', ':'], Style::Blocked),
                CellKind::Room(i) => {
                    let initial = self.rooms.get(i).map_or('?', |r| r.initial);
                    ([initial, ' '], Style::Room(i))
                }
            };
            glyphs.push(glyph);
            styles.push(style);
        }

        // Room names, from the label cell rightwards, moved left when the
        // room's run of cells in that row is too short on the right.
        for (i, room) in self.rooms.iter().enumerate() {
            let (r, c) = (usize::from(room.label.0), usize::from(room.label.1));
            let in_room = |col: usize| self.cells[r * cols + col].kind == CellKind::Room(i);
            let first = (0..=c)
                .rev()
                .take_while(|&col| in_room(col))
                .last()
                .unwrap_or(c);
            let last = (c..cols)
                .take_while(|&col| in_room(col))
                .last()
                .unwrap_or(c);
            let need = room.name.chars().count().div_ceil(2);
            let start = if c + need > last + 1 {
                (last + 1).saturating_sub(need).max(first)
            } else {
                c
            };
            let mut name = room.name.chars();
            for col in start..=last {
                let (Some(a), b) = (name.next(), name.next()) else {
                    break;
                };
                glyphs[r * cols + col] = [a, b.unwrap_or(' ')];
            }
        }

        for (at, cell) in self.cells.iter().enumerate() {
            if let (CellKind::Room(_), Some(to)) = (cell.kind, cell.passage) {
                let initial = self.rooms.get(to).map_or('?', |r| r.initial);
                glyphs[at] = ['~', initial];
                styles[at] = Style::Passage(to);
            }
        }

        let index = |(r, c): (u16, u16)| usize::from(r) * cols + usize::from(c);
        for &node in highlight {
            match node {
                Node::Cell { row, col } if self.cell(row, col).is_some() => {
                    let at = index((row, col));
                    glyphs[at] = ['[', ']'];
                    styles[at] = Style::Target;
                }
                Node::Room(i) if i < self.rooms.len() => {
                    for (at, cell) in self.cells.iter().enumerate() {
                        if cell.kind == CellKind::Room(i) {
                            styles[at] = Style::TargetRoom(i);
                        }
                    }
                    glyphs[index(self.rooms[i].centre)] = ['[', ']'];
                }
                _ => {}
            }
        }

        self.place_tokens(tokens, &mut glyphs, &mut styles);

        let mut out = String::new();
        let number_row = |out: &mut String, digit: fn(usize) -> char| {
            out.push_str("    ");
            for c in 0..cols {
                out.push(digit(c));
                out.push(' ');
            }
            out.push('\n');
        };
        if cols > 10 {
            number_row(&mut out, |c| {
                if c >= 10 {
                    char::from_digit((c / 10 % 10) as u32, 10).unwrap_or(' ')
                } else {
                    ' '
                }
            });
        }
        number_row(&mut out, |c| {
            char::from_digit((c % 10) as u32, 10).unwrap_or(' ')
        });
        for r in 0..usize::from(self.rows) {
            let _ = write!(out, "{r:>3} ");
            let mut current = None;
            for c in 0..cols {
                let at = r * cols + c;
                if color && current != Some(styles[at]) {
                    out.push_str(&ansi(styles[at]));
                    current = Some(styles[at]);
                }
                out.push(glyphs[at][0]);
                out.push(glyphs[at][1]);
            }
            if color {
                out.push_str("\x1b[0m");
            }
            out.push('\n');
        }
        self.legend(&mut out, color);
        out
    }

    /// Tokens on walkway cells sit on the cell (two letters to a cell, the
    /// rest hidden); tokens in a room fill its cells from the centre on.
    fn place_tokens(
        &self,
        tokens: &[(Node, char)],
        glyphs: &mut [[char; 2]],
        styles: &mut [Style],
    ) {
        let cols = usize::from(self.cols);
        let mut groups: Vec<(Node, Vec<char>)> = Vec::new();
        for &(node, letter) in tokens {
            match groups.iter_mut().find(|(n, _)| *n == node) {
                Some((_, letters)) => letters.push(letter),
                None => groups.push((node, vec![letter])),
            }
        }
        for (node, letters) in groups {
            let spots: Vec<usize> = match node {
                Node::Cell { row, col } if self.cell(row, col).is_some() => {
                    vec![usize::from(row) * cols + usize::from(col)]
                }
                Node::Room(i) if i < self.rooms.len() => {
                    let (r, c) = self.rooms[i].centre;
                    let start = usize::from(r) * cols + usize::from(c);
                    (start..self.cells.len())
                        .filter(|&at| self.cells[at].kind == CellKind::Room(i))
                        .collect()
                }
                _ => Vec::new(),
            };
            for (spot, pair) in spots.iter().zip(letters.chunks(2)) {
                glyphs[*spot] = [pair[0], pair.get(1).copied().unwrap_or(' ')];
                styles[*spot] = Style::Token;
            }
        }
    }

    fn legend(&self, out: &mut String, color: bool) {
        let mut line = String::from("    ");
        let mut width = 4;
        for (i, room) in self.rooms.iter().enumerate() {
            let entry = format!("{} {}", room.initial, room.name);
            if width + entry.chars().count() + 2 > 4 + 2 * usize::from(self.cols).max(30) {
                out.push_str(line.trim_end());
                out.push('\n');
                line = String::from("    ");
                width = 4;
            }
            if color {
                let _ = write!(line, "{}{}\x1b[0m  ", ansi(Style::Room(i)), entry);
            } else {
                let _ = write!(line, "{entry}  ");
            }
            width += entry.chars().count() + 2;
        }
        out.push_str(line.trim_end());
        out.push('\n');
        let walkway = &self.walkway().name;
        let _ = writeln!(
            out,
            "    . {walkway}  ^v<> door  :: impassable  ~X passage to X  [] target"
        );
    }
}

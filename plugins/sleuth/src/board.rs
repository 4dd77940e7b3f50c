//! Where sleuth can get to: walkway distances from every square to every
//! room, computed once from the [`BoardView`], and the expected value of the
//! rooms reachable next turn.

use clue_plugin_api::{BoardView, Card, Direction, Position};

/// Distances on one board, with its die.
pub enum Map {
    /// `csci306`/`classic`: steps from each walkway cell and each room to each
    /// room (entering ends the move, so a room `d` steps away is reached with
    /// any roll of at least `d`).
    Doors {
        cols: usize,
        rooms: Vec<Card>,
        /// `cell_steps[cell * rooms + r]`.
        cell_steps: Vec<u16>,
        /// `room_steps[a * rooms + b]`.
        room_steps: Vec<u16>,
    },
    /// `framework`: Manhattan moves up to the roll of a d12, staying allowed.
    Grid {
        width: usize,
        /// The room of each cell, as an index into `rooms`.
        cell_room: Vec<Option<usize>>,
        /// The cells in rooms (row, column, index into `rooms`): a wide
        /// board is mostly hallway, and a move measures from each target.
        room_cells: Vec<(usize, usize, usize)>,
        rooms: Vec<Card>,
    },
    /// `cyberclue`: exactly the roll of a d4 steps one way round the ring.
    Ring { computers: Vec<Card> },
}

const FAR: u16 = u16::MAX;

impl Map {
    pub fn new(view: &BoardView) -> Option<Map> {
        match view {
            BoardView::Rooms { rows, cols, cells } => doors(*rows, *cols, cells),
            BoardView::Grid {
                width,
                cells,
                rooms,
            } => {
                let width = usize::from(*width);
                if width == 0 || cells.len() != width * width {
                    return None;
                }
                let cell_room: Vec<Option<usize>> = cells
                    .iter()
                    .map(|&v| usize::from(v).checked_sub(1).filter(|&r| r < rooms.len()))
                    .collect();
                let room_cells = cell_room
                    .iter()
                    .enumerate()
                    .filter_map(|(i, room)| Some((i / width, i % width, (*room)?)))
                    .collect();
                Some(Map::Grid {
                    width,
                    cell_room,
                    room_cells,
                    rooms: rooms.clone(),
                })
            }
            BoardView::Ring { computers } if !computers.is_empty() => Some(Map::Ring {
                computers: computers.clone(),
            }),
            BoardView::Ring { .. } => None,
        }
    }

    /// Every room of the board.
    pub fn rooms(&self) -> &[Card] {
        match self {
            Map::Doors { rooms, .. } | Map::Grid { rooms, .. } => rooms,
            Map::Ring { computers } => computers,
        }
    }

    /// The room a position is in.
    pub fn room_at(&self, position: Position) -> Option<Card> {
        match (self, position) {
            (_, Position::Room(room)) => Some(room),
            (
                Map::Grid {
                    width,
                    cell_room,
                    rooms,
                    ..
                },
                Position::Cell { row, col },
            ) => {
                let index = usize::from(row) * width + usize::from(col);
                cell_room.get(index).copied().flatten().map(|r| rooms[r])
            }
            _ => None,
        }
    }

    /// The best room value reachable on the next turn from `from`, in
    /// expectation over the roll (`value[r]` for `rooms()[r]`).
    pub fn next_turn(&self, from: Position, value: &[f64]) -> f64 {
        match self {
            Map::Ring { computers } => {
                let n = computers.len();
                let Position::Room(here) = from else {
                    return 0.0;
                };
                let Some(i) = computers.iter().position(|&c| c == here) else {
                    return 0.0;
                };
                (1..=4)
                    .map(|t| {
                        let ahead = value[(i + t) % n];
                        let back = value[(i + n * 4 - t) % n];
                        ahead.max(back)
                    })
                    .sum::<f64>()
                    / 4.0
            }
            _ => {
                let steps = self.steps(from);
                let sides = if matches!(self, Map::Grid { .. }) {
                    12
                } else {
                    6
                };
                (1..=sides)
                    .map(|t| {
                        steps
                            .iter()
                            .zip(value)
                            .filter(|&(&s, _)| s <= t)
                            .map(|(_, &v)| v)
                            .fold(0.0, f64::max)
                    })
                    .sum::<f64>()
                    / f64::from(sides)
            }
        }
    }

    /// Steps from `from` to each room (0: already there and allowed to stay).
    fn steps(&self, from: Position) -> Vec<u16> {
        match (self, from) {
            (
                Map::Doors {
                    rooms, room_steps, ..
                },
                Position::Room(room),
            ) => match rooms.iter().position(|&r| r == room) {
                Some(a) => room_steps[a * rooms.len()..(a + 1) * rooms.len()].to_vec(),
                None => vec![FAR; rooms.len()],
            },
            (
                Map::Doors {
                    cols,
                    rooms,
                    cell_steps,
                    ..
                },
                Position::Cell { row, col },
            ) => {
                let cell = usize::from(row) * cols + usize::from(col);
                let n = rooms.len();
                cell_steps
                    .get(cell * n..(cell + 1) * n)
                    .map_or_else(|| vec![FAR; n], <[u16]>::to_vec)
            }
            (
                Map::Grid {
                    room_cells, rooms, ..
                },
                _,
            ) => {
                let (row, col) = match from {
                    Position::Cell { row, col } => (usize::from(row), usize::from(col)),
                    Position::Room(_) => return vec![FAR; rooms.len()],
                };
                let mut steps = vec![FAR; rooms.len()];
                for &(r, c, room) in room_cells {
                    let d = r.abs_diff(row) + c.abs_diff(col);
                    steps[room] = steps[room].min(d.min(usize::from(FAR - 1)) as u16);
                }
                steps
            }
            (Map::Ring { computers }, _) => vec![FAR; computers.len()],
        }
    }
}

/// The distances of a board with doors.
fn doors(rows: u16, cols: u16, cells: &[clue_plugin_api::CellView]) -> Option<Map> {
    let (rows, cols) = (usize::from(rows), usize::from(cols));
    if cells.len() != rows * cols {
        return None;
    }
    let mut rooms: Vec<Card> = Vec::new();
    for cell in cells {
        if let Some(room) = cell.room {
            if !cell.walkway && !rooms.contains(&room) {
                rooms.push(room);
            }
        }
    }
    rooms.sort();
    let n = rooms.len();
    let room_index = |card: Card| rooms.iter().position(|&r| r == card);
    // The room each door leads into.
    let door_into = |i: usize| -> Option<usize> {
        let cell = &cells[i];
        if !cell.walkway {
            return None;
        }
        let (r, c) = (i / cols, i % cols);
        let (r, c) = match cell.door? {
            Direction::Up => (r.checked_sub(1)?, c),
            Direction::Down => (r + 1, c),
            Direction::Left => (r, c.checked_sub(1)?),
            Direction::Right => (r, c + 1),
        };
        if r >= rows || c >= cols {
            return None;
        }
        let target = &cells[r * cols + c];
        if target.walkway {
            return None;
        }
        room_index(target.room?)
    };
    let doors: Vec<(usize, usize)> = (0..cells.len())
        .filter_map(|i| door_into(i).map(|room| (i, room)))
        .collect();
    let mut cell_steps = vec![FAR; cells.len() * n];
    let mut queue = std::collections::VecDeque::new();
    for room in 0..n {
        queue.clear();
        for &(cell, _) in doors.iter().filter(|&&(_, r)| r == room) {
            cell_steps[cell * n + room] = 1;
            queue.push_back(cell);
        }
        while let Some(cell) = queue.pop_front() {
            let d = cell_steps[cell * n + room];
            let (r, c) = (cell / cols, cell % cols);
            let neighbours = [
                (r.wrapping_sub(1), c),
                (r + 1, c),
                (r, c.wrapping_sub(1)),
                (r, c + 1),
            ];
            for (nr, nc) in neighbours {
                if nr >= rows || nc >= cols {
                    continue;
                }
                let next = nr * cols + nc;
                if cells[next].walkway && cell_steps[next * n + room] == FAR {
                    cell_steps[next * n + room] = d + 1;
                    queue.push_back(next);
                }
            }
        }
    }
    let mut room_steps = vec![FAR; n * n];
    for &(door, from) in &doors {
        for to in 0..n {
            if to != from {
                let d = cell_steps[door * n + to].saturating_add(1);
                room_steps[from * n + to] = room_steps[from * n + to].min(d);
            }
        }
    }
    for cell in cells {
        if let (Some(from), Some(to)) = (cell.room.and_then(room_index), cell.passage) {
            if let Some(to) = room_index(to) {
                room_steps[from * n + to] = 1;
            }
        }
    }
    Some(Map::Doors {
        cols,
        rooms,
        cell_steps,
        room_steps,
    })
}

//! Movement on a board with rooms: nodes, adjacency, roll targets, starts.
//!
//! The walkable graph has one node per walkway cell and one node per room
//! (standing at the room's centre cell). Walkway cells connect to their
//! orthogonal walkway neighbours; a doorway cell also connects to the room it
//! points into, and that room connects back to each of its doorway cells; a
//! secret passage connects two rooms in one step. Passages are two-way even
//! when only one end carries the marker (every board shipped with the course
//! and the community marks both ends). Impassable Spaces and the room cells
//! other than the room's node are not in the graph.

use crate::model::{CellKind, RoomBoard, step};
use clue_plugin_api::{Card, Direction, Position};

/// A place a token can stand: a walkway cell, or inside a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Node {
    /// A walkway cell (doorways included), zero-based.
    Cell { row: u16, col: u16 },
    /// Inside the room with this index in [`RoomBoard::rooms`].
    Room(usize),
}

/// The walkable graph of a board, with dense ids: rooms first, then walkway
/// cells in row-major order.
struct Graph {
    rooms: usize,
    /// Per board cell: the node id of a walkway cell.
    walkway_id: Vec<Option<usize>>,
    nodes: Vec<Node>,
    adj: Vec<Vec<usize>>,
}

impl Graph {
    fn id(&self, board: &RoomBoard, node: Node) -> Option<usize> {
        match node {
            Node::Room(i) if i < self.rooms => Some(i),
            Node::Room(_) => None,
            Node::Cell { row, col } => {
                board.cell(row, col)?;
                self.walkway_id[usize::from(row) * usize::from(board.cols) + usize::from(col)]
            }
        }
    }
}

const DIRECTIONS: [Direction; 4] = [
    Direction::Up,
    Direction::Down,
    Direction::Left,
    Direction::Right,
];

impl RoomBoard {
    fn graph(&self) -> Graph {
        let rooms = self.rooms.len();
        let mut nodes: Vec<Node> = (0..rooms).map(Node::Room).collect();
        let mut walkway_id = vec![None; self.cells.len()];
        for (r, c) in self.positions() {
            let i = usize::from(r) * usize::from(self.cols) + usize::from(c);
            if self.cells[i].kind == CellKind::Walkway {
                walkway_id[i] = Some(nodes.len());
                nodes.push(Node::Cell { row: r, col: c });
            }
        }
        let mut adj = vec![Vec::new(); nodes.len()];
        let link = |adj: &mut Vec<Vec<usize>>, a: usize, b: usize| {
            if !adj[a].contains(&b) {
                adj[a].push(b);
            }
            if !adj[b].contains(&a) {
                adj[b].push(a);
            }
        };
        for (r, c) in self.positions() {
            let i = usize::from(r) * usize::from(self.cols) + usize::from(c);
            let cell = self.cells[i];
            match cell.kind {
                CellKind::Walkway => {
                    let Some(a) = walkway_id[i] else { continue };
                    for d in [Direction::Down, Direction::Right] {
                        let Some((nr, nc)) = step(r, c, d) else {
                            continue;
                        };
                        if nr < self.rows && nc < self.cols {
                            let j = usize::from(nr) * usize::from(self.cols) + usize::from(nc);
                            if let Some(b) = walkway_id[j] {
                                link(&mut adj, a, b);
                            }
                        }
                    }
                    if let Some(room) = self.door_target(r, c) {
                        link(&mut adj, a, room);
                    }
                }
                CellKind::Room(from) => {
                    if let Some(to) = cell.passage.filter(|&to| to < rooms && to != from) {
                        link(&mut adj, from, to);
                    }
                }
                CellKind::Blocked(_) => {}
            }
        }
        for list in &mut adj {
            list.sort_by_key(|&n| nodes[n]);
        }
        Graph {
            rooms,
            walkway_id,
            nodes,
            adj,
        }
    }

    /// The node a token at (row, col) stands on: the cell itself on the
    /// walkway, the room's node on any cell of a room, `None` on an
    /// impassable Space or off the board.
    pub fn node_at(&self, row: u16, col: u16) -> Option<Node> {
        match self.cell(row, col)?.kind {
            CellKind::Walkway => Some(Node::Cell { row, col }),
            CellKind::Room(i) => Some(Node::Room(i)),
            CellKind::Blocked(_) => None,
        }
    }

    /// The cell (row, col) where a node is drawn: a room stands at its centre.
    /// `None` for a room index that is not on this board.
    pub fn cell_of(&self, node: Node) -> Option<(u16, u16)> {
        match node {
            Node::Cell { row, col } => Some((row, col)),
            Node::Room(i) => self.rooms.get(i).map(|r| r.centre),
        }
    }

    /// The plugin-api [`Position`] of a node; room `i` is `room_cards[i]`.
    pub fn position(&self, node: Node, room_cards: &[Card]) -> Option<Position> {
        match node {
            Node::Cell { row, col } => Some(Position::Cell { row, col }),
            Node::Room(i) => room_cards.get(i).copied().map(Position::Room),
        }
    }

    /// The node of a plugin-api [`Position`]; room `i` is `room_cards[i]`.
    /// A cell of a room maps to that room's node.
    pub fn node_of(&self, position: Position, room_cards: &[Card]) -> Option<Node> {
        match position {
            Position::Cell { row, col } => self.node_at(row, col),
            Position::Room(card) => room_cards
                .iter()
                .position(|&c| c == card)
                .filter(|&i| i < self.rooms.len())
                .map(Node::Room),
        }
    }

    /// The nodes one step from `from`, sorted. A `Node::Cell` on a room cell
    /// is read as that room's node; an impassable or off-board cell, or an
    /// unknown room, has no neighbours.
    pub fn adjacency(&self, from: Node) -> Vec<Node> {
        let from = self.normalize(from);
        let graph = self.graph();
        match from.and_then(|n| graph.id(self, n)) {
            Some(id) => graph.adj[id].iter().map(|&n| graph.nodes[n]).collect(),
            None => Vec::new(),
        }
    }

    fn normalize(&self, node: Node) -> Option<Node> {
        match node {
            Node::Cell { row, col } => self.node_at(row, col),
            Node::Room(i) => (i < self.rooms.len()).then_some(node),
        }
    }

    /// Where a token at `from` may end its move after rolling `roll`, sorted
    /// and without duplicates.
    ///
    /// A target is the end of a path of exactly `roll` steps that never
    /// visits a node twice and never passes through or stops on an
    /// `occupied` walkway cell, or a room entered on the way (entering a room
    /// ends the move, so rooms are targets with steps to spare and are never
    /// crossed). Occupied rooms do not block. From a room the token leaves by
    /// any of its doors or takes a secret passage (one step, ending the move);
    /// it can neither stay nor come back into the room it started in.
    ///
    /// An empty result (a roll of 0, a boxed-in token, an unwalkable `from`)
    /// means the token has nowhere to go: the caller leaves it where it is.
    ///
    /// The search enumerates self-avoiding paths, so its cost grows
    /// exponentially with `roll`; it is meant for dice rolls (a d6, or up to
    /// 12 for two dice).
    pub fn targets(&self, from: Node, roll: u8, occupied: &[Node]) -> Vec<Node> {
        let graph = self.graph();
        let Some(start) = self.normalize(from).and_then(|n| graph.id(self, n)) else {
            return Vec::new();
        };
        if roll == 0 {
            return Vec::new();
        }
        let mut blocked = vec![false; graph.nodes.len()];
        for &node in occupied {
            if let Some(cell @ Node::Cell { .. }) = self.normalize(node) {
                if let Some(id) = graph.id(self, cell) {
                    blocked[id] = true;
                }
            }
        }
        let mut search = Search {
            graph: &graph,
            blocked: &blocked,
            visited: vec![false; graph.nodes.len()],
            found: vec![false; graph.nodes.len()],
        };
        search.visited[start] = true;
        search.walk(start, roll);
        let mut out: Vec<Node> = (0..graph.nodes.len())
            .filter(|&i| search.found[i])
            .map(|i| graph.nodes[i])
            .collect();
        out.sort();
        out
    }

    /// One start node per person, in file order: the person's start cell
    /// when it is walkable (a walkway cell, or a room cell meaning that
    /// room), else the next unused cell of [`RoomBoard::fallback_starts`].
    /// Empty when the setup lists no persons. (Only on a board with fewer
    /// walkway cells than persons does a person fall back to room 0.)
    pub fn start_nodes(&self) -> Vec<Node> {
        let given: Vec<Option<Node>> = self
            .persons
            .iter()
            .map(|p| p.start.and_then(|(r, c)| self.node_at(r, c)))
            .collect();
        let missing = given.iter().filter(|g| g.is_none()).count();
        let mut spare = self
            .fallback_starts(self.persons.len() + missing)
            .into_iter()
            .filter(|n| !given.contains(&Some(*n)))
            .collect::<Vec<_>>()
            .into_iter();
        given
            .iter()
            .copied()
            .map(|g| g.or_else(|| spare.next()).unwrap_or(Node::Room(0)))
            .collect()
    }

    /// `count` distinct walkway cells spread around the board, for seats the
    /// setup file gives no (usable) start: deterministic.
    ///
    /// Candidates are the walkway cells next to a doorway (not doorways
    /// themselves, so no door is blocked); the first is the candidate nearest
    /// the top-left corner, and each next one the candidate farthest (in
    /// steps on the grid, Manhattan distance) from those already chosen, ties
    /// to the smallest (row, col). When candidates run out, any walkway cell
    /// is used the same way; on a board with fewer walkway cells than `count`
    /// the list is shorter.
    pub fn fallback_starts(&self, count: usize) -> Vec<Node> {
        let walkway: Vec<(u16, u16)> = self
            .positions()
            .filter(|&(r, c)| self.cell(r, c).is_some_and(|x| x.kind == CellKind::Walkway))
            .collect();
        let is_door = |(r, c): (u16, u16)| self.cell(r, c).is_some_and(|x| x.door.is_some());
        let near_door: Vec<(u16, u16)> = walkway
            .iter()
            .copied()
            .filter(|&p| !is_door(p))
            .filter(|&(r, c)| {
                DIRECTIONS
                    .iter()
                    .filter_map(|&d| step(r, c, d))
                    .any(|q| self.cell(q.0, q.1).is_some() && is_door(q))
            })
            .collect();
        let mut chosen: Vec<(u16, u16)> = Vec::new();
        for pool in [&near_door, &walkway] {
            while chosen.len() < count {
                let distance = |p: (u16, u16)| {
                    chosen
                        .iter()
                        .map(|q| p.0.abs_diff(q.0) as u32 + p.1.abs_diff(q.1) as u32)
                        .min()
                        .unwrap_or(u32::MAX - (p.0 as u32 + p.1 as u32))
                };
                let best = pool
                    .iter()
                    .copied()
                    .filter(|p| !chosen.contains(p))
                    .max_by(|&a, &b| distance(a).cmp(&distance(b)).then(b.cmp(&a)));
                match best {
                    Some(p) => chosen.push(p),
                    None => break,
                }
            }
        }
        chosen
            .into_iter()
            .map(|(row, col)| Node::Cell { row, col })
            .collect()
    }
}

struct Search<'a> {
    graph: &'a Graph,
    blocked: &'a [bool],
    visited: Vec<bool>,
    found: Vec<bool>,
}

impl Search<'_> {
    fn walk(&mut self, at: usize, left: u8) {
        for &next in &self.graph.adj[at] {
            if self.visited[next] || self.blocked[next] {
                continue;
            }
            if next < self.graph.rooms || left == 1 {
                self.found[next] = true;
            } else {
                self.visited[next] = true;
                self.walk(next, left - 1);
                self.visited[next] = false;
            }
        }
    }
}

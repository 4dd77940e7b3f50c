//! Helpers shared by the test files: where the boards are, and loading them.

use clue_board::{BoardError, CellKind, RoomBoard, parse};
use std::path::{Path, PathBuf};

/// `shared/boards`, read in place.
pub fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/boards")
}

/// The project's own `boards/`.
pub fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../boards")
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Parses `dir/layout` with `dir/setup`, naming the files by their file names.
pub fn load(dir: &Path, layout: &str, setup: &str) -> Result<RoomBoard, BoardError> {
    parse(
        &read(&dir.join(layout)),
        layout,
        &read(&dir.join(setup)),
        setup,
    )
}

/// Loads a board that must load, failing the test with the error otherwise.
pub fn board(dir: &Path, layout: &str, setup: &str) -> RoomBoard {
    load(dir, layout, setup).unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
}

/// The course's reference board.
pub fn reference() -> RoomBoard {
    board(
        &shared().join("csci306"),
        "ClueLayout306.csv",
        "ClueSetup306.txt",
    )
}

/// Rooms whose cells do not fill their bounding box.
pub fn non_rectangular(board: &RoomBoard) -> usize {
    (0..board.rooms().len())
        .filter(|&i| {
            let cells: Vec<(u16, u16)> = (0..board.rows())
                .flat_map(|r| (0..board.cols()).map(move |c| (r, c)))
                .filter(|&(r, c)| board.cell(r, c).map(|x| x.kind) == Some(CellKind::Room(i)))
                .collect();
            let rows = cells.iter().map(|c| c.0);
            let cols = cells.iter().map(|c| c.1);
            let height = rows.clone().max().unwrap_or(0) - rows.min().unwrap_or(0) + 1;
            let width = cols.clone().max().unwrap_or(0) - cols.min().unwrap_or(0) + 1;
            usize::from(height) * usize::from(width) != cells.len()
        })
        .count()
}

/// Distinct unordered pairs of rooms joined by a secret passage.
pub fn passage_pairs(board: &RoomBoard) -> usize {
    let mut pairs: Vec<(usize, usize)> = board
        .passages()
        .into_iter()
        .map(|(_, _, a, b)| (a.min(b), a.max(b)))
        .collect();
    pairs.sort();
    pairs.dedup();
    pairs.len()
}

/// Whether the walkway cells form one connected region.
pub fn walkway_connected(board: &RoomBoard) -> bool {
    let walk: Vec<(u16, u16)> = (0..board.rows())
        .flat_map(|r| (0..board.cols()).map(move |c| (r, c)))
        .filter(|&(r, c)| board.cell(r, c).map(|x| x.kind) == Some(CellKind::Walkway))
        .collect();
    let Some(&first) = walk.first() else {
        return true;
    };
    let mut seen = vec![first];
    let mut todo = vec![first];
    while let Some((r, c)) = todo.pop() {
        let near = [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ];
        for p in near {
            if walk.contains(&p) && !seen.contains(&p) {
                seen.push(p);
                todo.push(p);
            }
        }
    }
    seen.len() == walk.len()
}

//! The entry point: layout text + setup text in, a validated board out.

use crate::error::BoardError;
use crate::layout;
use crate::model::{Room, RoomBoard, Space};
use crate::setup;
use crate::text::Source;

/// Reads a CSCI306 board from the text of its layout CSV and setup TXT. The
/// names are used only in error messages (`ClueLayout306.csv:3:23: ...`).
///
/// The setup file is read first (it is the legend the layout needs), so a
/// board broken in both files reports the setup error. See the module docs of
/// the crate for what is accepted; anything else is a [`BoardError`] naming
/// the file, line and column. This function never panics.
pub fn parse(
    layout: &str,
    layout_name: &str,
    setup: &str,
    setup_name: &str,
) -> Result<RoomBoard, BoardError> {
    let setup_src = Source { name: setup_name };
    let layout_src = Source { name: layout_name };
    let legend = setup::read(setup, setup_src)?;
    let grid = layout::read(layout, layout_src, &legend, setup_src)?;
    let centres: Vec<(String, (u16, u16))> = legend
        .rooms
        .iter()
        .zip(&grid.centres)
        .map(|(r, &at)| (r.name.clone(), at))
        .collect();
    let (persons, weapons) = setup::people(setup_src, &legend, grid.rows, grid.cols, &centres)?;
    let rooms = legend
        .rooms
        .iter()
        .enumerate()
        .map(|(i, r)| Room {
            name: r.name.clone(),
            initial: r.initial,
            centre: grid.centres[i],
            label: grid.labels[i],
        })
        .collect();
    let spaces = legend
        .spaces
        .iter()
        .map(|s| Space {
            name: s.name.clone(),
            initial: s.initial,
        })
        .collect();
    Ok(RoomBoard {
        rows: grid.rows,
        cols: grid.cols,
        cells: grid.cells,
        rooms,
        spaces,
        walkway: grid.walkway,
        persons,
        weapons,
    })
}

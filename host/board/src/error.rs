//! The one error a board file can produce: where it went wrong, and what.

use thiserror::Error;

/// A board file that could not be read: the file, the 1-based line and
/// column, and what is wrong there.
///
/// The column counts characters (not bytes) from 1 and points at the first
/// non-blank character of the offending comma-separated field (for an empty
/// field: where the field starts; for a missing field: one past the end of the
/// line). Displayed as `file:line:column: problem`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{file}:{line}:{column}: {problem}")]
pub struct BoardError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub problem: Problem,
}

/// What is wrong, without the location.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Problem {
    // --- setup file ---
    #[error("unknown line kind `{0}` (expected Room, Space, Weapon, Card or a player line)")]
    UnknownLineKind(String),
    #[error("{0} line needs {1} fields, found {2}")]
    TooFewFields(&'static str, usize, usize),
    #[error("unexpected field `{0}`")]
    UnexpectedField(String),
    #[error("empty field")]
    EmptyField,
    #[error("initial `{0}` must be a single character")]
    BadInitial(String),
    #[error("initial `{0}` clashes with a cell marker")]
    MarkerInitial(char),
    #[error("initial `{0}` is already used by `{1}`")]
    DuplicateInitial(char, String),
    #[error("{0} `{1}` is listed twice")]
    DuplicateName(&'static str, String),
    #[error("unknown card category `{0}` (expected Weapon, Player or Room)")]
    UnknownCardCategory(String),
    #[error("card `{0}` names no {1} of this setup")]
    UnknownCardName(String, &'static str),
    #[error("cannot read the numbers of this player line ({0} integer fields)")]
    BadPlayerNumbers(usize),
    #[error("colour component `{0}` is over 255")]
    BadColourComponent(String),
    #[error("coordinate `{0}` is out of range")]
    BadCoordinate(String),
    #[error("a player line needs a name")]
    MissingName,
    #[error("the setup names no rooms")]
    NoRooms,
    #[error("no walkway: no Space is named `Walkway` and no Space carries doors")]
    NoWalkway,
    #[error("two Spaces carry doors, `{0}` and `{1}`, and none is named `Walkway`")]
    AmbiguousWalkway(char, char),
    #[error("start ({0}, {1}) is outside the {2} x {3} board")]
    StartOutside(u16, u16, u16, u16),

    // --- layout file ---
    #[error("the layout has no rows")]
    EmptyLayout,
    #[error("the board is larger than 65535 cells a side")]
    TooLarge,
    #[error("row has {found} cells, expected {expected} like the first row")]
    ColumnCount { found: usize, expected: usize },
    #[error("empty cell")]
    EmptyCell,
    #[error("unknown room initial `{0}`")]
    UnknownInitial(char),
    #[error("cell `{0}` has more than one marker")]
    TooManyMarkers(String),
    #[error("unknown marker `{1}` in cell `{0}`")]
    UnknownMarker(String, char),
    #[error("door `{0}` is not on the walkway")]
    DoorOffWalkway(String),
    #[error("door `{0}` points off the board")]
    DoorOffBoard(String),
    #[error("door `{0}` points at `{1}`, which is not a room")]
    DoorIntoNothing(String, String),
    #[error("marker in `{0}` is only allowed on a room cell")]
    MarkerOffRoom(String),
    #[error("secret passage `{0}` is not on a room cell")]
    PassageOffRoom(String),
    #[error("secret passage `{0}` names `{1}`, which is a space, not a room")]
    PassageToSpace(String, char),
    #[error("secret passage `{0}` leads to its own room")]
    PassageToSelf(String),
    #[error("room `{0}` has a second {1} cell (the first is at line {2}, column {3})")]
    DuplicateMarker(String, &'static str, usize, usize),
    #[error("room `{0}` has no {1} cell in {2}")]
    MissingMarker(String, &'static str, String),
}

//! Where in a tournament file a value stood, for errors that name
//! `FILE:LINE:COLUMN`. Its own module so that the file's parts
//! (`config`, `board_files`) share it without importing each other.

use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

/// A line and column in the tournament file (1-based; 0 when unknown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pos {
    pub line: u64,
    pub column: u64,
}

impl<T> From<&Spanned<T>> for Pos {
    fn from(s: &Spanned<T>) -> Pos {
        Pos {
            line: s.referenced.line(),
            column: s.referenced.column(),
        }
    }
}

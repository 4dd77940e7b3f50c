//! Clue boards.

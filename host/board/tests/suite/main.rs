//! The integration tests of this crate, one binary (a module per file):
//! linked once, not once per file. Run one file's tests with
//! `cargo test -p clue-board --test suite FILE::`.

mod common;

mod broken_files;
mod formats;
mod grammar;
mod load_boards;
mod movement;
mod movement_props;
mod nonconforming;
mod parser_fuzz;
mod project_boards;
mod render;
mod view;

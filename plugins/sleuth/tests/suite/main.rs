//! The integration tests of this crate, one binary (a module per file):
//! linked once, not once per file. Run one file's tests with
//! `cargo test -p sleuth-player --test suite FILE::`.

mod common;

mod exclusion;
mod generalized;
mod grounds;
mod legal;
mod scoring;
mod speed_questions;
mod uniclue;

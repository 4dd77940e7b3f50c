//! The integration tests of this crate, one binary (a module per file):
//! linked once, not once per file. Run one file's tests with
//! `cargo test -p clue-engine --test suite FILE::`.

mod common;

mod baselines;
mod boards;
mod deal;
mod determinism;
mod generalized;
mod hands;
mod invalid;
mod notebook;
mod uniclue_sample;

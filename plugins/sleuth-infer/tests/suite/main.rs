//! The integration tests of this crate, one binary (a module per file):
//! linked once, not once per file. Run one file's tests with
//! `cargo test -p sleuth-infer --test suite FILE::`.

mod common;

mod brute_force;
mod classic;
mod large;
mod sampled;
mod setup;

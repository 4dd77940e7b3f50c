//! The integration tests of this crate, one binary (a module per file):
//! linked once, not once per file. Run one file's tests with
//! `cargo test -p clue-runtime --test suite FILE::`. `process_reaping`,
//! which counts this process's children, stays alone in its binary.

mod process_sandbox;
mod process_speedclue;

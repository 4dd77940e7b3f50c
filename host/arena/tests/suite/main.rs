//! The integration tests of this crate, one binary (a module per file):
//! linked once, not once per file. Run one file's tests with
//! `cargo test -p clue-arena --test suite FILE::`.

mod config_support;
mod pg_support;

mod sandbox_build;
mod store_backends;
mod store_claims;
mod tournament_boards;
mod tournament_config;
mod tournament_contest;
mod tournament_misbehaving;
mod tournament_report;
mod tournament_sweep;

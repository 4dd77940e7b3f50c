//! The command line's integration tests, one binary: each file below was
//! its own test binary once, and each linked the whole host with wasmtime.
//! Tests that count this process's children or threads stay binaries of
//! their own beside this folder (`native_crash`, `native_reaping`,
//! `sandbox_tournament`, `sandbox_zoo`), so that no other test's bots are
//! counted.
//!
//! Run one file's tests with `cargo test -p clue-cli --test suite FILE::`,
//! e.g. `cargo test -p clue-cli --test suite web_api::`.

// Shared with the binaries that stay alone.
#[path = "../game_checks/mod.rs"]
mod game_checks;
#[path = "../native_support/mod.rs"]
mod native_support;
#[path = "../../../arena/tests/suite/pg_support/mod.rs"]
mod pg_support;
#[path = "../zoo_support/mod.rs"]
mod zoo_support;

// Used here only.
mod compiled;
mod contest_support;
mod forms_support;
mod tournament_support;
mod web_support;

mod board_cli;
mod bot_crate;
mod cli;
mod human_console;
mod logging;
mod native_games;
mod native_panic;
mod process_framework;
mod process_jsonl;
mod process_uniclue;
mod rival_forms;
mod sandbox_jvm;
mod sandbox_nonroot;
mod sleuth_forms;
mod sleuth_race;
mod speedclue_client;
mod speedclue_series;
mod tournament_resume;
mod tournament_workers;
mod uniclue_client;
mod wasm_languages;
mod wasm_runtime;
mod web_api;
mod web_browser;
mod web_guard;

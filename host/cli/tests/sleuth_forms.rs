//! `sleuth` from one source in all four forms: built in, a native plugin
//! (isolated in a worker), a wasm component (under 16 MiB as a file, playing
//! under a 16 MiB memory cap) and a process bot (`serve_stdio`). Each plays
//! a whole `speedclue` game against notebook without a disqualification.
//!
//! The plugin and the process bot are built once per test binary with the
//! cargo running the tests, into `target/native-tests` and
//! `target/wasm-tests` (the target dirs the native and wasm tests use).

mod forms_support;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use clue_engine::{GameConfig, GameRecord};
use clue_plugin_api::Variant;
use clue_runtime::bots::BotLimits;
use forms_support::*;

/// `target/native-tests/debug`, with sleuth's plugin and process bot built.
fn native_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| build_native("sleuth", &["native,stdio"]))
}

fn wasm_file() -> &'static Path {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| build_wasm("sleuth"))
}

/// One 4-player speedclue game, sleuth (as `spec`) at seat 1; someone wins.
fn speedclue(spec: &str, limits: &BotLimits) -> GameRecord {
    let record = forms_support::game(spec, limits, &GameConfig::new(Variant::Speedclue, 4), 11);
    assert!(record.winner.is_some(), "{spec}: nobody won");
    record
}

#[test]
fn every_form_plays_the_same_game() {
    let builtin = speedclue("builtin:sleuth", &BotLimits::default());
    let dir = native_dir();
    let native = speedclue(
        &format!("native:{}", library(dir, "sleuth").display()),
        &BotLimits::default(),
    );
    let process = speedclue(
        &format!("jsonl:{}", dir.join("sleuth").display()),
        &BotLimits::default(),
    );
    let wasm = speedclue(&format!("wasm:{}", wasm_file().display()), &capped());
    // One source: the same decisions in every form.
    assert_eq!(builtin.log, native.log, "native differs from built in");
    assert_eq!(builtin.log, process.log, "process differs from built in");
    assert_eq!(builtin.log, wasm.log, "wasm differs from built in");
}

#[test]
fn the_wasm_component_fits_in_16_mib() {
    let size = std::fs::metadata(wasm_file()).expect("built").len();
    eprintln!("sleuth.wasm: {size} bytes");
    assert!(size < SIXTEEN_MIB, "sleuth.wasm is {size} bytes");
}

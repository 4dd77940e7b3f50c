//! `sleuth` from one source in all four forms: built in, a native plugin
//! (isolated in a worker), a wasm component (under 16 MiB as a file, playing
//! under a 16 MiB memory cap) and a process bot (`serve_stdio`). Each plays
//! a whole `speedclue` game against notebook without a disqualification.
//!
//! The plugin and the process bot are built once per test binary with the
//! cargo running the tests, into `target/native-tests` and
//! `target/wasm-tests` (the target dirs the native and wasm tests use).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use clue_engine::{GameConfig, GameRecord, Outcome, SeatController, play};
use clue_plugin_api::Variant;
use clue_runtime::bots::{self, BotLimits, BotSpec};

/// The most a wasm bot may take, as a file and as linear memory.
const SIXTEEN_MIB: u64 = 16 << 20;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn target_dir(name: &str) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"))
        .join(name)
}

fn cargo_build(target: &Path, args: &[&str]) {
    let output = Command::new(env!("CARGO"))
        .current_dir(workspace())
        .arg("build")
        .args(args)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo build {args:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// `target/native-tests/debug`, with sleuth's plugin and process bot built.
fn native_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let target = target_dir("native-tests");
        cargo_build(
            &target,
            &["--quiet", "-p", "sleuth", "--features", "native,stdio"],
        );
        target.join("debug")
    })
}

fn wasm_file() -> &'static Path {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let target = target_dir("wasm-tests");
        cargo_build(
            &target,
            &[
                "--quiet",
                "--release",
                "--target",
                "wasm32-wasip2",
                "-p",
                "sleuth",
            ],
        );
        target.join("wasm32-wasip2/release/sleuth.wasm")
    })
}

/// One 4-player speedclue game, sleuth (as `spec`) at seat 1.
fn game(spec: &str, limits: &BotLimits) -> GameRecord {
    let spec: BotSpec = spec.parse().expect("a bot spec");
    let config = GameConfig::new(Variant::Speedclue, 4);
    let mut seats: Vec<Box<dyn SeatController>> = (0..4)
        .map(|s| {
            if s == 1 {
                bots::connect_with(&spec, limits).expect("sleuth is seated")
            } else {
                bots::builtin("notebook").expect("built in")
            }
        })
        .collect();
    let record = play(&config, 11, &mut seats).expect("valid game");
    for seat in &record.seats {
        assert!(
            !matches!(seat.outcome, Outcome::Disqualified(_)),
            "{spec}: seat {} {:?} {:?}",
            seat.seat.0,
            seat.outcome,
            seat.detail
        );
    }
    assert!(record.winner.is_some(), "{spec}: nobody won");
    record
}

#[test]
fn every_form_plays_the_same_game() {
    let builtin = game("builtin:sleuth", &BotLimits::default());
    let dir = native_dir();
    let library = dir.join(format!(
        "{}sleuth{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ));
    let native = game(
        &format!("native:{}", library.display()),
        &BotLimits::default(),
    );
    let process = game(
        &format!("jsonl:{}", dir.join("sleuth").display()),
        &BotLimits::default(),
    );
    let capped = BotLimits {
        memory_bytes: Some(SIXTEEN_MIB),
        ..BotLimits::default()
    };
    let wasm = game(&format!("wasm:{}", wasm_file().display()), &capped);
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

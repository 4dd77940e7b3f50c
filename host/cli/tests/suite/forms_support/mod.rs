//! A bundled bot from one source in its loadable forms: the native plugin
//! (isolated in a worker), the wasm component and, for `sleuth`, the process
//! bot, built once per test binary with the cargo running the tests into
//! `target/native-tests` and `target/wasm-tests` (the target dirs the native
//! and wasm tests use), and one game of it against `notebook`.

use std::path::{Path, PathBuf};
use std::process::Command;

use clue_engine::{GameConfig, GameRecord, Outcome, SeatController, acting_seats, play};
use clue_runtime::bots::{self, BotLimits, BotSpec};

/// The most a wasm bot may take, as a file and as linear memory.
pub const SIXTEEN_MIB: u64 = 16 << 20;

pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn target_dir(name: &str) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"))
        .join(name)
}

pub fn cargo_build(target: &Path, args: &[&str]) {
    cargo_build_in(&workspace(), target, args);
}

/// `cargo build ARGS` of the crate or workspace in `dir`, into `target`.
pub fn cargo_build_in(dir: &Path, target: &Path, args: &[&str]) {
    let output = Command::new(env!("CARGO"))
        .current_dir(dir)
        .arg("build")
        .args(args)
        .env("CARGO_TARGET_DIR", target)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "cargo build {args:?} in {} failed:\n{}",
        dir.display(),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Builds package `package` (with `features`) as a native plugin into
/// `target/native-tests`; the folder of what it built.
pub fn build_native(package: &str, features: &[&str]) -> PathBuf {
    let target = target_dir("native-tests");
    let mut args = vec!["--quiet", "-p", package];
    if !features.is_empty() {
        args.push("--features");
        args.extend(features);
    }
    cargo_build(&target, &args);
    target.join("debug")
}

/// Builds package `package` as a wasm component into `target/wasm-tests`.
pub fn build_wasm(package: &str) -> PathBuf {
    let target = target_dir("wasm-tests");
    cargo_build(
        &target,
        &[
            "--quiet",
            "--release",
            "--target",
            "wasm32-wasip2",
            "-p",
            package,
        ],
    );
    target.join(format!("wasm32-wasip2/release/{package}.wasm"))
}

/// The native plugin's file name in `dir`: `libNAME.so` on Linux.
pub fn library(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ))
}

/// The limits a wasm bot plays under in these tests: 16 MiB of memory.
pub fn capped() -> BotLimits {
    BotLimits {
        memory_bytes: Some(SIXTEEN_MIB),
        ..BotLimits::default()
    }
}

/// One game of `config` from `seed`, the bot `spec` at seat 1 (seat 0 in
/// UniClue, whose only acting seat it is) and `notebook` at every other
/// acting seat; no seat may be disqualified.
pub fn game(spec: &str, limits: &BotLimits, config: &GameConfig, seed: u64) -> GameRecord {
    let spec: BotSpec = spec.parse().expect("a bot spec");
    let acting = acting_seats(config);
    let mine = 1.min(acting - 1);
    let mut seats: Vec<Box<dyn SeatController>> = (0..acting)
        .map(|s| {
            if s == mine {
                bots::connect_with(&spec, limits).expect("the bot is seated")
            } else {
                bots::builtin("notebook").expect("built in")
            }
        })
        .collect();
    let record = play(config, seed, &mut seats).expect("valid game");
    for seat in &record.seats {
        assert!(
            !matches!(seat.outcome, Outcome::Disqualified(_)),
            "{spec} in {}: seat {} {:?} {:?}",
            config.variant,
            seat.seat.0,
            seat.outcome,
            seat.detail
        );
    }
    assert!(
        record.seats[mine].calls > 1,
        "{spec} in {}: the bot was not asked anything",
        config.variant
    );
    record
}

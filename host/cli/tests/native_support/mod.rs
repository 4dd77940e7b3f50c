//! Shared by the `native_*` tests: the plugins they load, built once per test
//! binary into `target/native-tests` (its own target directory, so it never
//! waits on or disturbs the main build).
//!
//! - `host/cli/tests/plugins/*`: small hostile or broken plugins (`panicky`,
//!   `crashy`, `sleepy`, `mismatch`, `badlayout`, `plain`).
//! - `plugins/notebook` and `plugins/clueless` with their `native` feature:
//!   the bundled bots as cdylibs.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use clue_engine::{GameConfig, GameRecord, Outcome, SeatController};
use clue_plugin_api::{DqReason, Variant};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .and_then(Path::parent)
        .expect("host/cli/ has a grandparent")
        .to_path_buf()
}

fn cargo(args: &[&str], dir: &Path, target: &Path) {
    let program = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let status = Command::new(program)
        .args(args)
        .arg("--target-dir")
        .arg(target)
        .current_dir(dir)
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTFLAGS")
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo {args:?} failed");
}

/// The directory holding every test plugin, built on first use.
pub fn plugin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = root();
        let target = root.join("target").join("native-tests");
        let manifest = root.join("host/cli/tests/plugins/Cargo.toml");
        let manifest = manifest.to_str().expect("a UTF-8 path");
        cargo(
            &["build", "--quiet", "--manifest-path", manifest],
            &root,
            &target,
        );
        cargo(
            &[
                "build",
                "--quiet",
                "-p",
                "notebook",
                "-p",
                "clueless",
                "--features",
                "native",
            ],
            &root,
            &target,
        );
        target.join("debug")
    })
}

/// The path of test plugin `name` (`panicky`, `notebook`, ...).
pub fn plugin(name: &str) -> PathBuf {
    plugin_dir().join(format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ))
}

/// The `clue` binary under test.
pub fn clue() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_clue"))
}

/// A Speed Clue game of `players` seats.
pub fn speedclue(players: u8) -> GameConfig {
    GameConfig::new(Variant::Speedclue, players)
}

/// Plays one game with the given controllers.
pub fn play(config: &GameConfig, seed: u64, mut seats: Vec<Box<dyn SeatController>>) -> GameRecord {
    clue_engine::play(config, seed, &mut seats).expect("the game starts")
}

/// The seat's disqualification reason and detail, if it was disqualified.
pub fn dq(record: &GameRecord, seat: usize) -> Option<(DqReason, String)> {
    match record.seats[seat].outcome {
        Outcome::Disqualified(reason) => Some((
            reason,
            record.seats[seat].detail.clone().unwrap_or_default(),
        )),
        _ => None,
    }
}

/// The processes whose parent is this one (the test binary), by pid and command line.
pub fn children() -> Vec<(u32, String)> {
    let me = std::process::id();
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: comm may hold spaces, so split after its `)`.
        let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
            continue;
        };
        let ppid = rest
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(me) {
            let cmdline = std::fs::read(entry.path().join("cmdline"))
                .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
                .unwrap_or_default();
            found.push((pid, cmdline));
        }
    }
    found
}

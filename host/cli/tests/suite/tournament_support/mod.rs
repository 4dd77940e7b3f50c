//! What the tournament tests share: running `clue`, an uninterrupted
//! reference run on one machine, and the stored results without what
//! depends on the clock.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use clue_arena::store::{GameRow, Store};

/// The stored games and each game's log.
pub type Results = (Vec<GameRow>, Vec<String>);

/// `clue` with `args`, its output thrown away.
pub fn clue(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_clue"));
    c.args(args).stdout(Stdio::null()).stderr(Stdio::null());
    c
}

/// Writes `text` to `t.yaml` in `dir` and runs it uninterrupted into
/// `reference.sqlite` there: the file, the store and what it holds.
pub fn reference_run(dir: &Path, text: &str) -> (PathBuf, PathBuf, Results) {
    let file = dir.join("t.yaml");
    std::fs::write(&file, text).unwrap();
    let reference = dir.join("reference.sqlite");
    let status = clue(&[
        "tournament",
        "run",
        file.to_str().unwrap(),
        "--db",
        reference.to_str().unwrap(),
        "--quiet",
    ])
    .status()
    .unwrap();
    assert!(status.success(), "the reference run failed: {status}");
    let expected = results(&reference);
    (file, reference, expected)
}

/// The stored games and logs without what depends on the clock.
pub fn results(db: &Path) -> Results {
    let store = Store::open(db).unwrap();
    let mut games = store.games().unwrap();
    let mut logs = Vec::new();
    for g in &mut games {
        for s in &mut g.seats {
            s.wall_ns = 0;
            s.max_call_ns = 0;
        }
        let mut text = Vec::new();
        store.log(g.index).unwrap().write_to(&mut text).unwrap();
        logs.push(String::from_utf8(text).unwrap());
    }
    (games, logs)
}

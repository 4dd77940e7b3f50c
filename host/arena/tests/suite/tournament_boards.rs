//! Tournaments on boards of the organiser's choosing: `layout`/`setup` (and
//! `table` for `framework`) in `options` or in a sweep setting, read relative
//! to the tournament file, checked when it loads, played, and fingerprinted so
//! a resume notices an edited board.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use clue_arena::config::{self, Pos};
use clue_arena::runner::{self, RunOptions, SpecConnector};
use clue_arena::store::{Store, StoreError};
use clue_plugin_api::Event;

/// The folder beside the project that holds the shared board fixtures.
fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/boards")
}

/// The project's root: its own boards are under `boards/`.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const BOTS: &str = "bots:
  - {name: notebook, kind: builtin, path: notebook}
  - {name: clueless, kind: builtin, path: clueless}
  - {name: notebook-2, kind: builtin, path: notebook}
";

fn file(variant: &str, options: &str) -> String {
    format!(
        "variant: {variant}\nplayers: 3\nseed: 5\nconcurrency: 1\n{options}\nschedule: {{kind: random, games: 3}}\n{BOTS}"
    )
}

/// Parses `text` (paths relative to `base`) and expects this error.
fn check(text: &str, base: &Path, line: u64, column: u64, message: &str) {
    let err = config::parse(text, "t.yaml", base).expect_err("the file should be rejected");
    assert_eq!(
        (err.pos, err.message.as_str()),
        (Pos { line, column }, message),
        "{err}"
    );
}

fn options() -> RunOptions<'static> {
    static STOP: AtomicBool = AtomicBool::new(false);
    RunOptions {
        stop: &STOP,
        watch: &runner::Unwatched,
        standings_every: None,
    }
}

#[test]
fn a_student_board_is_read_in_place_and_played() {
    let text = file(
        "csci306",
        "options: {layout: community/keenanschott-Clue/ClueLayout.csv, setup: community/keenanschott-Clue/ClueSetup.txt}",
    );
    let t = config::parse(&text, "t.yaml", &shared()).unwrap();
    let board = t.settings[0]
        .config
        .board
        .as_ref()
        .expect("the board is loaded");
    assert!(
        board
            .layout_name
            .ends_with("keenanschott-Clue/ClueLayout.csv")
    );
    assert_eq!(t.inputs.len(), 2);

    let scratch = tempfile::tempdir().unwrap();
    let mut store = Store::open(&scratch.path().join("t.sqlite")).unwrap();
    let summary = runner::run(&t, &mut store, &SpecConnector, &options()).unwrap();
    assert_eq!(summary.played, 3);
    // Every stored game was played on that board, and got as far as suggestions.
    let games = store.games().unwrap();
    assert_eq!(games.len(), 3);
    for game in &games {
        let log = store.log(game.index).unwrap();
        assert_eq!(log.header.config.board.as_ref(), Some(board));
        assert!(
            log.entries
                .iter()
                .any(|e| matches!(e.event, Event::Suggested { .. })),
            "game {} has no suggestion",
            game.index
        );
    }
}

#[test]
fn a_sweep_plays_each_board_and_labels_it() {
    let text = "variant: classic\nplayers: 3\nseed: 2\nconcurrency: 1\nschedule: {kind: random, games: 2}\nsweep:\n  - {layout: boards/classic/ClueLayout.csv, setup: boards/classic/ClueSetup.txt}\n  - {layout: boards/csci306/ClueLayout.csv, setup: boards/csci306/ClueSetup.txt}\n"
        .to_string()
        + BOTS;
    let t = config::parse(&text, "t.yaml", &root()).unwrap();
    let labels: Vec<&str> = t.settings.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "players=3 layout=boards/classic/ClueLayout.csv",
            "players=3 layout=boards/csci306/ClueLayout.csv"
        ]
    );
    assert_ne!(t.settings[0].config.board, t.settings[1].config.board);
    let scratch = tempfile::tempdir().unwrap();
    let mut store = Store::open(&scratch.path().join("t.sqlite")).unwrap();
    let summary = runner::run(&t, &mut store, &SpecConnector, &options()).unwrap();
    assert_eq!(summary.played, 4);
}

#[test]
fn a_broken_board_stops_the_tournament_at_load_with_the_boards_own_location() {
    let text = file(
        "csci306",
        "options: {layout: csci306/ClueLayoutBadRoom306.csv, setup: csci306/ClueSetup306.txt}",
    );
    let err = config::parse(&text, "t.yaml", &shared()).expect_err("a broken board");
    assert_eq!(
        err.pos,
        Pos {
            line: 5,
            column: 19
        },
        "{err}"
    );
    assert!(
        err.message
            .contains("ClueLayoutBadRoom306.csv:2:3: unknown room initial `Y`"),
        "{err}"
    );
}

#[test]
fn board_keys_are_checked_against_the_variant_and_each_other() {
    let base = root();
    check(
        &file(
            "csci306",
            "options: {layout: boards/csci306/ClueLayout.csv}",
        ),
        &base,
        5,
        19,
        "`layout` needs `setup` beside it",
    );
    check(
        &file("csci306", "options: {setup: boards/csci306/ClueSetup.txt}"),
        &base,
        5,
        18,
        "`setup` needs `layout` beside it",
    );
    check(
        &file(
            "speedclue",
            "options: {layout: boards/classic/ClueLayout.csv, setup: boards/classic/ClueSetup.txt}",
        ),
        &base,
        5,
        19,
        "speedclue has no board with rooms and doors: `layout`/`setup` apply to classic and csci306",
    );
    check(
        &file("csci306", "options: {table: board.txt}"),
        &base,
        5,
        18,
        "`table` is a framework board; csci306 does not take one",
    );
    let missing = file(
        "classic",
        "options: {layout: boards/classic/Gone.csv, setup: boards/classic/ClueSetup.txt}",
    );
    let err = config::parse(&missing, "t.yaml", &base).expect_err("a missing board");
    assert_eq!(
        err.pos,
        Pos {
            line: 5,
            column: 19
        }
    );
    assert!(
        err.message.starts_with("cannot read the board layout `")
            && err.message.contains("Gone.csv"),
        "{err}"
    );
}

#[test]
fn a_framework_table_is_read_and_checked() {
    let scratch = tempfile::tempdir().unwrap();
    std::fs::write(scratch.path().join("bad.txt"), "Board 5 5\nnot a row\n").unwrap();
    let text = file("framework", "options: {table: bad.txt}");
    let err = config::parse(&text, "t.yaml", scratch.path()).expect_err("a bad table");
    assert_eq!(
        err.pos,
        Pos {
            line: 5,
            column: 18
        },
        "{err}"
    );
    assert_eq!(
        err.message,
        format!(
            "bad board: {}:2:1: `not` is not a number",
            scratch.path().join("bad.txt").display()
        ),
    );
    // A good table whose 757 rooms make hands too large for three players:
    // placed at the table too.
    let width = 757;
    let rows = (0..width).map(|row| {
        let mut cells = vec!["0".to_string(); width];
        cells[0] = (row + 1).to_string();
        cells.join(" ")
    });
    let table: Vec<String> = std::iter::once(format!("Board {width} {width}"))
        .chain(rows)
        .collect();
    std::fs::write(scratch.path().join("wide.txt"), table.join("\n")).unwrap();
    check(
        &file("framework", "options: {table: wide.txt}"),
        scratch.path(),
        5,
        18,
        "framework's deck of 769 cards, 3 hidden, deals hands of up to 256 cards to 3 players; a \
         hand holds at most 255 (a bot is told each hand's size in a byte): use a narrower board \
         (fewer rooms), fewer persons or weapons, or more players",
    );
}

#[test]
fn resuming_after_a_board_was_edited_is_refused() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path();
    for name in ["ClueLayout.csv", "ClueSetup.txt"] {
        std::fs::copy(root().join("boards/classic").join(name), dir.join(name)).unwrap();
    }
    let text = file(
        "classic",
        "options: {layout: ClueLayout.csv, setup: ClueSetup.txt}",
    );
    let t = config::parse(&text, "t.yaml", dir).unwrap();
    let db = dir.join("t.sqlite");
    let mut store = Store::open(&db).unwrap();
    runner::run(&t, &mut store, &SpecConnector, &options()).unwrap();
    // The same files again: the store accepts them (a resume).
    let same = config::parse(&text, "t.yaml", dir).unwrap();
    assert_eq!(same.fingerprint(), t.fingerprint());
    store.bind(&same).unwrap();
    // One room renamed in the setup: same tournament file, different games.
    let setup = std::fs::read_to_string(dir.join("ClueSetup.txt")).unwrap();
    std::fs::write(
        dir.join("ClueSetup.txt"),
        setup.replacen("Kitchen", "Scullery", 1),
    )
    .unwrap();
    let edited = config::parse(&text, "t.yaml", dir).unwrap();
    assert_ne!(edited.fingerprint(), t.fingerprint());
    match store.bind(&edited) {
        Err(StoreError::Different { .. }) => {}
        other => panic!("an edited board was accepted: {other:?}"),
    }
}

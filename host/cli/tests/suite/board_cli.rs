//! `clue board show|targets|adjacency` on the course's reference board.

use std::path::PathBuf;
use std::process::{Command, Output};

fn shared(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/boards/csci306")
        .join(name)
}

fn board(args: &[&str]) -> Output {
    let layout = shared("ClueLayout306.csv");
    let setup = shared("ClueSetup306.txt");
    Command::new(env!("CARGO_BIN_EXE_clue"))
        .arg("board")
        .args(args)
        .args([
            "--layout",
            layout.to_str().unwrap(),
            "--setup",
            setup.to_str().unwrap(),
        ])
        .output()
        .unwrap()
}

fn lines(out: &Output) -> Vec<(u16, u16)> {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let (r, c) = l.split_once(',').expect("R,C");
            (r.parse().unwrap(), c.parse().unwrap())
        })
        .collect()
}

fn reference() -> clue_board::RoomBoard {
    let read = |n| std::fs::read_to_string(shared(n)).unwrap();
    clue_board::parse(
        &read("ClueLayout306.csv"),
        "l",
        &read("ClueSetup306.txt"),
        "s",
    )
    .unwrap()
}

#[test]
fn targets_are_sorted_zero_based_cells_with_rooms_at_their_centre() {
    let reference = reference();
    for (from, roll) in [
        ((5u16, 0u16), 1u8),
        ((5, 0), 3),
        ((7, 7), 4),
        ((3, 0), 1),
        ((0, 7), 6),
    ] {
        let out = board(&[
            "targets",
            "--from",
            &format!("{},{}", from.0, from.1),
            "--roll",
            &roll.to_string(),
        ]);
        let got = lines(&out);
        let mut sorted = got.clone();
        sorted.sort();
        assert_eq!(got, sorted, "sorted output");
        let start = reference.node_at(from.0, from.1).unwrap();
        let mut expected: Vec<(u16, u16)> = reference
            .targets(start, roll, &[])
            .into_iter()
            .map(|n| reference.cell_of(n).unwrap())
            .collect();
        expected.sort();
        assert_eq!(got, expected, "from {from:?} roll {roll}");
    }
}

#[test]
fn a_secret_passage_is_one_step_to_the_other_rooms_centre() {
    // (3,0) is the Study's passage cell `SK`; the Kitchen is one step away.
    let reference = reference();
    let kitchen = reference.rooms()[reference.room_index('K').unwrap()].centre;
    let got = lines(&board(&["adjacency", "--from", "3,0"]));
    assert!(got.contains(&kitchen), "{got:?} should contain {kitchen:?}");
    let got = lines(&board(&["targets", "--from", "3,0", "--roll", "1"]));
    assert!(got.contains(&kitchen));
}

#[test]
fn occupied_cells_block() {
    let free = lines(&board(&["targets", "--from", "5,0", "--roll", "1"]));
    assert!(!free.is_empty());
    let blocked = free[0];
    let out = board(&[
        "targets",
        "--from",
        "5,0",
        "--roll",
        "1",
        "--occupied",
        &format!("{},{}", blocked.0, blocked.1),
    ]);
    let got = lines(&out);
    assert!(!got.contains(&blocked));
    assert_eq!(got.len(), free.len() - 1);
}

#[test]
fn show_draws_every_row() {
    let out = board(&["show"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.lines().count() >= 25, "{text}");
    assert!(!text.contains('\u{1b}'), "no colour when not a terminal");
}

#[test]
fn bad_input_is_refused_clearly() {
    let check = |args: &[&str], part: &str| {
        let out = board(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(part),
            "{args:?}: `{err}` should mention `{part}`"
        );
    };
    check(
        &["targets", "--from", "99,0", "--roll", "2"],
        "off the board",
    );
    check(&["targets", "--from", "x", "--roll", "2"], "ROW,COL");
    // The broken course file: named with its line and column.
    let bad = shared("ClueLayoutBadRoom306.csv");
    let setup = shared("ClueSetup306.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args([
            "board",
            "show",
            "--layout",
            bad.to_str().unwrap(),
            "--setup",
            setup.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(err.contains("ClueLayoutBadRoom306.csv:2:"), "{err}");
}

/// The course's own setup file lists rooms only: `clue board` draws it,
/// and a game on it is refused with what to add to it.
#[test]
fn a_game_on_the_rooms_only_course_setup_says_what_to_add() {
    let layout = shared("ClueLayout306.csv");
    let setup = shared("ClueSetup306.txt");
    for variant in ["csci306", "classic"] {
        let out = Command::new(env!("CARGO_BIN_EXE_clue"))
            .args(["play", "--variant", variant, "--layout"])
            .arg(&layout)
            .arg("--setup")
            .arg(&setup)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{variant}: {err}");
        assert!(
            err.contains("ClueSetup306.txt lists 0 persons, 0 weapons and 9 rooms")
                && err.contains("player lines (`Player, Miss Scarlet, red`, a start row and column after it if you like) and weapon lines (`Weapon, Rope`)"),
            "{variant}: {err}"
        );
        assert!(!err.contains("room lines"), "{variant}: {err}");
    }
}

//! The course's three broken files (both generations, LF and CRLF) are
//! rejected, each at the exact file, line and column of its defect.

use crate::common;

use clue_board::Problem;
use common::{load, shared};

/// Loads `layout` + `setup` from `dir` and checks the error's location and
/// problem.
fn check(dir: &str, layout: &str, setup: &str, expected: (&str, usize, usize, Problem)) {
    let err = match load(&shared().join(dir), layout, setup) {
        Ok(_) => panic!("{dir}/{layout} + {setup} loaded"),
        Err(e) => e,
    };
    let (file, line, column, problem) = expected;
    assert_eq!(
        (err.file.as_str(), err.line, err.column, &err.problem),
        (file, line, column, &problem),
        "{err}"
    );
}

fn bad_room(initial: char) -> Problem {
    Problem::UnknownInitial(initial)
}

fn columns(found: usize) -> Problem {
    Problem::ColumnCount {
        found,
        expected: 24,
    }
}

fn line_kind(kind: &str) -> Problem {
    Problem::UnknownLineKind(kind.to_string())
}

#[test]
fn current_bad_files() {
    for dir in ["csci306", "csci306/variants/crlf"] {
        // (1,1) is `Y`: line 2, after `S,`.
        check(
            dir,
            "ClueLayoutBadRoom306.csv",
            "ClueSetup306.txt",
            ("ClueLayoutBadRoom306.csv", 2, 3, bad_room('Y')),
        );
        // Row 2 ends in `O,O,,`: 22 cells, the first missing at column 48.
        check(
            dir,
            "ClueLayoutBadColumns306.csv",
            "ClueSetup306.txt",
            ("ClueLayoutBadColumns306.csv", 3, 48, columns(22)),
        );
        // Line 9 reads `Rom, Lounge, O`.
        check(
            dir,
            "ClueLayout306.csv",
            "ClueSetupBadFormat306.txt",
            ("ClueSetupBadFormat306.txt", 9, 1, line_kind("Rom")),
        );
    }
}

#[test]
fn older_bad_files() {
    let dir = "csci306/variants/older-bad-files";
    // `Y` at (0,0).
    check(
        dir,
        "ClueLayoutBadRoom306.csv",
        "../../ClueSetup306.txt",
        ("ClueLayoutBadRoom306.csv", 1, 1, bad_room('Y')),
    );
    // Row 2 really has 22 fields: the error points just past its end.
    check(
        dir,
        "ClueLayoutBadColumns306.csv",
        "../../ClueSetup306.txt",
        ("ClueLayoutBadColumns306.csv", 3, 47, columns(22)),
    );
    // `Rom, Dining Room, D` on line 8 (and no final newline).
    check(
        dir,
        "../../ClueLayout306.csv",
        "ClueSetupBadFormat306.txt",
        ("ClueSetupBadFormat306.txt", 8, 1, line_kind("Rom")),
    );
}

#[test]
fn messages_read_file_line_column() {
    let err = load(
        &shared().join("csci306"),
        "ClueLayoutBadRoom306.csv",
        "ClueSetup306.txt",
    )
    .err()
    .map(|e| e.to_string());
    assert_eq!(
        err.as_deref(),
        Some("ClueLayoutBadRoom306.csv:2:3: unknown room initial `Y`")
    );
    let err = load(
        &shared().join("csci306"),
        "ClueLayout306.csv",
        "ClueSetupBadFormat306.txt",
    )
    .err()
    .map(|e| e.to_string());
    assert_eq!(
        err.as_deref(),
        Some(
            "ClueSetupBadFormat306.txt:9:1: unknown line kind `Rom` \
             (expected Room, Space, Weapon, Card or a player line)"
        )
    );
}

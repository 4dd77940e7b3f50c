//! The boards of `shared/boards/nonconforming`: loaded where their meaning is
//! unambiguous, rejected with a precise location otherwise (the decisions are
//! documented in the crate docs).

use crate::common;

use clue_board::{CellKind, Direction, Node, Problem};
use common::{board, load, passage_pairs, shared, walkway_connected};

fn check_rejected(name: &str, expected: (&str, usize, usize, Problem)) {
    let dir = shared().join("nonconforming").join(name);
    let err = match load(&dir, "ClueLayout.csv", "ClueSetup.txt") {
        Ok(_) => panic!("{name} loaded"),
        Err(e) => e,
    };
    let (file, line, column, problem) = expected;
    assert_eq!(
        (err.file.as_str(), err.line, err.column, &err.problem),
        (file, line, column, &problem),
        "{name}: {err}"
    );
}

#[test]
fn jpbrohm_is_rejected_at_the_walkway_passage() {
    // Layout line 3, field 20: `WC`, a passage letter on a walkway cell.
    check_rejected(
        "JPBROHM-ClueGame",
        (
            "ClueLayout.csv",
            3,
            41,
            Problem::PassageOffRoom("WC".to_string()),
        ),
    );
}

#[test]
fn jpbrohm_second_defect_is_caught_too() {
    // With `WC` repaired, the next defect is `CW` (line 24, field 4): a
    // passage naming the walkway Space.
    let dir = shared().join("nonconforming/JPBROHM-ClueGame");
    let layout = common::read(&dir.join("ClueLayout.csv")).replacen(",WC,", ",W,", 1);
    let setup = common::read(&dir.join("ClueSetup.txt"));
    let err = clue_board::parse(&layout, "ClueLayout.csv", &setup, "ClueSetup.txt").err();
    let got = err.map(|e| (e.line, e.column, e.problem));
    assert_eq!(
        got,
        Some((24, 7, Problem::PassageToSpace("CW".to_string(), 'W')))
    );
}

#[test]
fn jlwoolf_is_rejected_at_the_first_start_marker() {
    // Layout line 1, field 8: `W%`. The trailing comma of setup line 5
    // (`Room, Berthoud Hall, b,`) is accepted, so the layout is reached.
    check_rejected(
        "jlwoolf-ClueGame",
        (
            "ClueLayout.csv",
            1,
            15,
            Problem::UnknownMarker("W%".to_string(), '%'),
        ),
    );
}

#[test]
fn amfunk_loads_with_the_hallway_as_walkway() {
    let dir = shared().join("nonconforming/amfunk-ClueGame");
    let b = board(&dir, "ClueLayout.csv", "ClueSetup.txt");
    assert_eq!((b.rows(), b.cols()), (26, 26));
    assert_eq!(b.rooms().len(), 8);
    assert_eq!(b.walkway().name, "Hallway");
    assert_eq!(b.walkway().initial, 'H');
    assert_eq!(b.door_count(), 14);
    assert_eq!(passage_pairs(&b), 2);
    assert!(walkway_connected(&b));
    let wine = b.room_index('W').unwrap();
    assert_eq!(b.rooms()[wine].name, "Wine Cellar");
    assert_eq!(b.cell(0, 21).map(|c| c.kind), Some(CellKind::Room(wine)));
    // The first door, line 4 field 11: `H>` into the Trash Room.
    assert_eq!(b.cell(3, 10).and_then(|c| c.door), Some(Direction::Right));
    assert_eq!(b.door_target(3, 10), b.room_index('T'));
    for i in 0..b.rooms().len() {
        assert!(
            !b.doors_of(i).is_empty(),
            "{} has no door",
            b.rooms()[i].name
        );
    }
    // `Player, Colonel Mustard, Yellow, Human, 8-0`: row-col.
    assert_eq!(b.persons()[0].start, Some((8, 0)));
    // Mr. Green's start (18,0) is the Gym's passage cell: he starts in the Gym.
    let gym = b.room_index('G').unwrap();
    assert_eq!(b.persons()[2].start, Some((18, 0)));
    assert_eq!(b.start_nodes()[2], Node::Room(gym));
    // The Wine Cellar's passage leads to the Gym, and back.
    assert!(b.adjacency(Node::Room(wine)).contains(&Node::Room(gym)));
    assert!(b.adjacency(Node::Room(gym)).contains(&Node::Room(wine)));
}

#[test]
fn every_nonconforming_board_is_decided() {
    let dir = shared().join("nonconforming");
    let mut decided = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()) {
        if entry.path().is_dir() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let loaded = load(&entry.path(), "ClueLayout.csv", "ClueSetup.txt").is_ok();
            decided.push((name, loaded));
        }
    }
    decided.sort();
    let expected = [
        ("JPBROHM-ClueGame".to_string(), false),
        ("amfunk-ClueGame".to_string(), true),
        ("jlwoolf-ClueGame".to_string(), false),
    ];
    assert_eq!(decided, expected);
}

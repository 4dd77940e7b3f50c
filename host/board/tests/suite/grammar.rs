//! Every grammar rule, broken one at a time on a tiny board: each error names
//! the file, line and column of the offending field.

use clue_board::{BoardError, Problem, parse};

const SETUP: &str = "\
Room, Kitchen, K
Room, Hall, H
Space, Unused, X
Space, Walkway, W
";

// (1,2) is a door right into the Hall, (2,1) a door up into the Kitchen.
const LAYOUT: &str = "\
K*,K,W,H,H*
K#,K,W>,H#,H
X,W^,W,W,X
";

fn load(layout: &str, setup: &str) -> Result<clue_board::RoomBoard, BoardError> {
    parse(layout, "ClueLayout.csv", setup, "ClueSetup.txt")
}

/// Replaces `from` by `to` in the layout (`in_setup`: in the setup) and
/// checks the error.
fn check(in_setup: bool, from: &str, to: &str, expected: (&str, usize, usize, Problem)) {
    let (layout, setup) = if in_setup {
        (LAYOUT.to_string(), SETUP.replacen(from, to, 1))
    } else {
        (LAYOUT.replacen(from, to, 1), SETUP.to_string())
    };
    assert!(layout != LAYOUT || setup != SETUP, "`{from}` not found");
    let got = load(&layout, &setup).map(|_| ());
    let (file, line, column, problem) = expected;
    let want = Err(BoardError {
        file: file.to_string(),
        line,
        column,
        problem,
    });
    assert_eq!(got, want, "`{from}` -> `{to}`");
}

fn layout(line: usize, column: usize, problem: Problem) -> (&'static str, usize, usize, Problem) {
    ("ClueLayout.csv", line, column, problem)
}

fn setup(line: usize, column: usize, problem: Problem) -> (&'static str, usize, usize, Problem) {
    ("ClueSetup.txt", line, column, problem)
}

fn s(text: &str) -> String {
    text.to_string()
}

#[test]
fn the_base_board_loads() {
    let board = load(LAYOUT, SETUP).unwrap();
    assert_eq!(board.door_count(), 2);
    assert_eq!(board.door_target(1, 2), board.room_index('H'));
    assert_eq!(board.door_target(2, 1), board.room_index('K'));
}

#[test]
fn layout_cells() {
    use Problem::*;
    check(
        false,
        "X,W^,W,W,X",
        "X,W^,W,W,Q",
        layout(3, 10, UnknownInitial('Q')),
    );
    check(
        false,
        "X,W^,W,W,X",
        "X,W^,W,W,x",
        layout(3, 10, UnknownInitial('x')),
    );
    check(false, "X,W^,W,W,X", "X,,W,W,X", layout(3, 3, EmptyCell));
    check(
        false,
        "X,W^,W,W,X",
        "X,W^^,W,W,X",
        layout(3, 3, TooManyMarkers(s("W^^"))),
    );
    check(
        false,
        "X,W^,W,W,X",
        "X,W%,W,W,X",
        layout(3, 3, UnknownMarker(s("W%"), '%')),
    );
    check(
        false,
        "X,W^,W,W,X",
        "X,W^, W< ,W,X",
        layout(3, 7, DoorIntoNothing(s("W<"), s("W^"))),
    );
}

#[test]
fn rows_and_columns() {
    use Problem::*;
    let count = |found| ColumnCount { found, expected: 5 };
    check(false, "X,W^,W,W,X", "X,W^,W,W,X,X", layout(3, 12, count(6)));
    check(false, "X,W^,W,W,X", "X,W^,W,W", layout(3, 9, count(4)));
    check(false, "X,W^,W,W,X", "X,W^,W,W,,", layout(3, 10, count(4)));
}

/// Blank lines only, or nothing at all, is an empty layout.
#[test]
fn empty_layout() {
    let err = load("\n  \r\n", SETUP)
        .err()
        .map(|e| (e.line, e.column, e.problem));
    assert_eq!(err, Some((1, 1, Problem::EmptyLayout)));
}

#[test]
fn doors() {
    use Problem::*;
    check(
        false,
        "K*,K,W",
        "K*,K<,W",
        layout(1, 4, DoorOffWalkway(s("K<"))),
    );
    check(
        false,
        "X,W^,W,W,X",
        "Xv,W^,W,W,X",
        layout(3, 1, DoorOffWalkway(s("Xv"))),
    );
    check(
        false,
        "X,W^,W,W,X",
        "X,W^,W,Wv,X",
        layout(3, 8, DoorOffBoard(s("Wv"))),
    );
    check(
        false,
        "X,W^,W,W,X",
        "X,W^,W>,W,X",
        layout(3, 6, DoorIntoNothing(s("W>"), s("W"))),
    );
    check(
        false,
        "X,W^,W,W,X",
        "W<,W^,W,W,X",
        layout(3, 1, DoorOffBoard(s("W<"))),
    );
}

#[test]
fn labels_centres_and_passages() {
    use Problem::*;
    check(
        false,
        "X,W^,W,W,X",
        "X*,W^,W,W,X",
        layout(3, 1, MarkerOffRoom(s("X*"))),
    );
    check(
        false,
        "X,W^,W,W,X",
        "X,W^,W#,W,X",
        layout(3, 6, MarkerOffRoom(s("W#"))),
    );
    check(
        false,
        "K*,K,W",
        "K*,KW,W",
        layout(1, 4, PassageToSpace(s("KW"), 'W')),
    );
    check(
        false,
        "K*,K,W",
        "K*,KK,W",
        layout(1, 4, PassageToSelf(s("KK"))),
    );
    check(
        false,
        "X,W^,W,W,X",
        "XK,W^,W,W,X",
        layout(3, 1, PassageOffRoom(s("XK"))),
    );
    check(
        false,
        "X,W^,W,W,X",
        "X,W^,WH,W,X",
        layout(3, 6, PassageOffRoom(s("WH"))),
    );
    check(
        false,
        "K#,K,W>",
        "K#,K*,W>",
        layout(2, 4, DuplicateMarker(s("Kitchen"), "centre (`*`)", 1, 1)),
    );
    check(
        false,
        "H#,H\n",
        "H#,H#\n",
        layout(2, 12, DuplicateMarker(s("Hall"), "label (`#`)", 2, 9)),
    );
    check(
        false,
        "K#,K,W>",
        "K,K,W>",
        setup(
            1,
            16,
            MissingMarker(s("Kitchen"), "label (`#`)", s("ClueLayout.csv")),
        ),
    );
    check(
        false,
        "H,H*",
        "H,H",
        setup(
            2,
            13,
            MissingMarker(s("Hall"), "centre (`*`)", s("ClueLayout.csv")),
        ),
    );
}

#[test]
fn legend_lines() {
    use Problem::*;
    check(
        true,
        "Room, Hall, H",
        "Room, Hall, K",
        setup(2, 13, DuplicateInitial('K', s("Kitchen"))),
    );
    check(
        true,
        "Room, Hall, H",
        "Room, Vault, v",
        setup(2, 14, MarkerInitial('v')),
    );
    check(
        true,
        "Room, Hall, H",
        "Room, Hall, HA",
        setup(2, 13, BadInitial(s("HA"))),
    );
    check(
        true,
        "Room, Hall, H",
        "Room, Hall,",
        setup(2, 12, EmptyField),
    );
    check(
        true,
        "Room, Hall, H",
        "Room, Hall",
        setup(2, 11, TooFewFields("Room", 3, 2)),
    );
    check(true, "Room, Hall, H", "Room, , H", setup(2, 6, EmptyField));
    check(
        true,
        "Room, Hall, H",
        "Room, Hall, H, big",
        setup(2, 16, UnexpectedField(s("big"))),
    );
    check(
        true,
        "Room, Hall, H",
        "Room, Kitchen, H",
        setup(2, 7, DuplicateName("room", s("Kitchen"))),
    );
    check(
        true,
        "Room, Hall, H",
        "Rooom, Hall, H",
        setup(2, 1, UnknownLineKind(s("Rooom"))),
    );
    check(
        true,
        "Room, Hall, H",
        "  Hall",
        setup(2, 3, UnknownLineKind(s("Hall"))),
    );
}

#[test]
fn walkway_resolution() {
    use Problem::*;
    // No Space named Walkway: the one carrying doors is the walkway.
    let renamed = SETUP.replace("Space, Walkway, W", "Space, Corridor, W");
    let board = load(LAYOUT, &renamed).unwrap();
    assert_eq!(board.walkway().name, "Corridor");
    // ...unless two Spaces carry doors.
    let two = renamed.replace("Space, Unused, X", "Space, Path, P");
    let err = load(&LAYOUT.replace("X,W^,W,W,X", "P,W^,W,W,Pv"), &two);
    let err = err.err().map(|e| (e.file, e.line, e.column, e.problem));
    assert_eq!(
        err,
        Some((s("ClueLayout.csv"), 3, 10, AmbiguousWalkway('W', 'P')))
    );
    // No Space named Walkway and no door: no walkway.
    let no_doors = LAYOUT.replace("W>", "W").replace("W^", "W");
    let err = load(&no_doors, &renamed)
        .err()
        .map(|e| (e.file, e.line, e.column, e.problem));
    assert_eq!(err, Some((s("ClueSetup.txt"), 3, 16, NoWalkway)));
}

#[test]
fn setup_shape() {
    use Problem::*;
    let err = load(LAYOUT, "// nothing\nSpace, Walkway, W\n").err();
    assert_eq!(
        err.map(|e| (e.line, e.column, e.problem)),
        Some((3, 1, NoRooms))
    );
}

#[test]
fn player_and_weapon_lines() {
    use Problem::*;
    let with = |line: &str| format!("{SETUP}{line}\n");
    let cases: [(&str, usize, Problem); 11] = [
        ("Player, Ann, red, 9, 0", 19, StartOutside(9, 0, 3, 5)),
        ("Player, Ann, red, 0-7", 19, StartOutside(0, 7, 3, 5)),
        ("Player, Ann, 1, 2, 3, 4", 14, BadPlayerNumbers(4)),
        ("Player, Ann, 300, 2, 3", 14, BadColourComponent(s("300"))),
        (
            "Player, Ann, red, 99999999, 1",
            19,
            BadCoordinate(s("99999999")),
        ),
        ("Player, Ann, , red", 13, EmptyField),
        ("Player, 1, 2", 13, MissingName),
        (
            "Player, Ann, red, Human, Computer",
            26,
            UnexpectedField(s("Computer")),
        ),
        (
            "Player, Ann, red, blue, Attic",
            25,
            UnexpectedField(s("Attic")),
        ),
        ("Weapon", 7, TooFewFields("Weapon", 2, 1)),
        ("Weapon, Rope, RP, long", 19, UnexpectedField(s("long"))),
    ];
    for (line, column, problem) in cases {
        let err = load(LAYOUT, &with(line)).err();
        assert_eq!(
            err.map(|e| (e.file, e.line, e.column, e.problem)),
            Some((s("ClueSetup.txt"), 5, column, problem)),
            "{line}"
        );
    }
}

#[test]
fn duplicates_and_cards() {
    use Problem::*;
    let with = |lines: &str| format!("{SETUP}{lines}");
    let cases: [(&str, usize, usize, Problem); 6] = [
        (
            "Weapon, Rope\nWeapon, rope\n",
            6,
            9,
            DuplicateName("weapon", s("rope")),
        ),
        (
            "Player, Ann\nPerson, Ann\n",
            6,
            9,
            DuplicateName("person", s("Ann")),
        ),
        ("Card, Gadget, X\n", 5, 7, UnknownCardCategory(s("Gadget"))),
        (
            "Card, Room, Attic\n",
            5,
            13,
            UnknownCardName(s("Attic"), "room"),
        ),
        (
            "Weapon, Rope\nCard, Weapon, Knife\n",
            6,
            15,
            UnknownCardName(s("Knife"), "weapon"),
        ),
        (
            "Card, Weapon, Rope\nCard, W, Rope\n",
            6,
            10,
            DuplicateName("weapon", s("Rope")),
        ),
    ];
    for (lines, line, column, problem) in cases {
        let err = load(LAYOUT, &with(lines)).err();
        assert_eq!(
            err.map(|e| (e.line, e.column, e.problem)),
            Some((line, column, problem)),
            "{lines}"
        );
    }
}

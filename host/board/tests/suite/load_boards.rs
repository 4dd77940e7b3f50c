//! Every good board under `shared/boards` loads, and matches the summary
//! tables of `community/SOURCES.md` and `csci306/SOURCE.md`.

use crate::common;

use clue_board::{CellKind, Direction, PlayerKind, RoomBoard};
use common::{board, non_rectangular, passage_pairs, shared, walkway_connected};

/// What SOURCES.md says about one board.
struct Expect {
    rows: u16,
    cols: u16,
    rooms: usize,
    non_rect: usize,
    doors: usize,
    passages: usize,
    persons: usize,
    weapons: usize,
    walkway: &'static str,
}

fn check(board: &RoomBoard, name: &str, e: &Expect) {
    assert_eq!(
        (board.rows(), board.cols()),
        (e.rows, e.cols),
        "{name}: size"
    );
    assert_eq!(
        board.cells().len(),
        usize::from(e.rows) * usize::from(e.cols),
        "{name}"
    );
    assert_eq!(board.rooms().len(), e.rooms, "{name}: rooms");
    assert_eq!(
        non_rectangular(board),
        e.non_rect,
        "{name}: non-rectangular rooms"
    );
    assert_eq!(board.door_count(), e.doors, "{name}: doors");
    assert_eq!(passage_pairs(board), e.passages, "{name}: passage pairs");
    assert_eq!(board.persons().len(), e.persons, "{name}: persons");
    assert_eq!(board.weapons().len(), e.weapons, "{name}: weapons");
    assert_eq!(board.walkway().name, e.walkway, "{name}: walkway");
    // SOURCES.md: on every board every room has a door and the walkway is
    // one connected region.
    for (i, room) in board.rooms().iter().enumerate() {
        assert!(
            !board.doors_of(i).is_empty(),
            "{name}: {} has no door",
            room.name
        );
        let centre = board
            .cell(room.centre.0, room.centre.1)
            .map(|c| (c.kind, c.centre));
        assert_eq!(
            centre,
            Some((CellKind::Room(i), true)),
            "{name}: {}",
            room.name
        );
        let label = board
            .cell(room.label.0, room.label.1)
            .map(|c| (c.kind, c.label));
        assert_eq!(
            label,
            Some((CellKind::Room(i), true)),
            "{name}: {}",
            room.name
        );
    }
    assert!(walkway_connected(board), "{name}: walkway not connected");
}

const fn nine(rows: u16, cols: u16, non_rect: usize, doors: usize, passages: usize) -> Expect {
    Expect {
        rows,
        cols,
        rooms: 9,
        non_rect,
        doors,
        passages,
        persons: 6,
        weapons: 6,
        walkway: "Walkway",
    }
}

#[test]
fn community_boards_match_sources_md() {
    let table: [(&str, Expect); 12] = [
        ("Abdallah-Salhi-ClueGame", nine(42, 29, 9, 19, 2)),
        ("BrownHub-Clue", nine(30, 19, 4, 16, 2)),
        ("DSuzumoto-3333-ClueGame", nine(23, 26, 2, 23, 2)),
        ("Gazi6645-Clue", nine(20, 20, 2, 10, 2)),
        (
            "JonathanDimercurio-ClueGame",
            Expect {
                rooms: 10,
                persons: 7,
                weapons: 7,
                walkway: "Boardwalk",
                ..nine(22, 27, 7, 14, 2)
            },
        ),
        ("aragorn-w-clue-game", nine(20, 30, 2, 11, 1)),
        ("dgunnoe-clue-game", nine(25, 24, 5, 17, 4)),
        (
            "evmvaughan-ClueGame",
            Expect {
                walkway: "Water",
                ..nine(26, 25, 6, 26, 2)
            },
        ),
        ("frayfrayram-ClueGame", nine(25, 15, 5, 12, 2)),
        ("keenanschott-Clue", nine(25, 31, 6, 19, 2)),
        ("sammyflemington-ClueGame", nine(27, 22, 7, 12, 3)),
        ("wolffcolin-ClueGame", nine(15, 15, 0, 14, 2)),
    ];
    let dir = shared().join("community");
    for (name, expect) in &table {
        let b = board(&dir.join(name), "ClueLayout.csv", "ClueSetup.txt");
        check(&b, name, expect);
    }
    // Nothing in the folder is left out of the table.
    let mut dirs: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    dirs.sort();
    let mut names: Vec<String> = table.iter().map(|(n, _)| n.to_string()).collect();
    names.sort();
    assert_eq!(dirs, names);
}

fn reference_expect() -> Expect {
    Expect {
        persons: 0,
        weapons: 0,
        ..nine(25, 24, 7, 17, 2)
    }
}

#[test]
fn reference_board_and_its_crlf_copy() {
    let lf = board(
        &shared().join("csci306"),
        "ClueLayout306.csv",
        "ClueSetup306.txt",
    );
    check(&lf, "csci306", &reference_expect());
    let crlf = board(
        &shared().join("csci306/variants/crlf"),
        "ClueLayout306.csv",
        "ClueSetup306.txt",
    );
    assert_eq!(crlf, lf, "the CRLF copy is the same board");
}

/// The instructor's `FileInitTest306` checks, restated.
#[test]
fn reference_board_cells() {
    let b = common::reference();
    let names: Vec<&str> = b.rooms().iter().map(|r| r.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Conservatory",
            "Kitchen",
            "Ballroom",
            "Billiard Room",
            "Library",
            "Study",
            "Dining Room",
            "Lounge",
            "Hall"
        ]
    );
    let door = |r, c| b.cell(r, c).and_then(|x| x.door);
    assert_eq!(door(8, 7), Some(Direction::Left));
    assert_eq!(door(7, 12), Some(Direction::Up));
    assert_eq!(door(4, 8), Some(Direction::Right));
    assert_eq!(door(16, 9), Some(Direction::Down));
    assert_eq!(door(7, 13), None);
    assert_eq!(b.cell(7, 13).map(|c| c.kind), Some(CellKind::Walkway));
    let room = |r, c| match b.cell(r, c).map(|x| x.kind) {
        Some(CellKind::Room(i)) => b.rooms()[i].name.as_str(),
        _ => "-",
    };
    assert_eq!(room(2, 19), "Lounge");
    assert!(b.cell(2, 19).is_some_and(|c| c.label));
    assert_eq!(room(20, 11), "Ballroom");
    assert!(b.cell(20, 11).is_some_and(|c| c.centre));
    assert_eq!(room(3, 0), "Study");
    assert_eq!(b.cell(3, 0).and_then(|c| c.passage), b.room_index('K'));
    assert_eq!(b.cell(23, 17).and_then(|c| c.passage), b.room_index('S'));
    assert_eq!(b.cell(19, 1).and_then(|c| c.passage), b.room_index('O'));
    assert_eq!(b.cell(5, 23).and_then(|c| c.passage), b.room_index('C'));
    assert!(matches!(
        b.cell(24, 0).map(|c| c.kind),
        Some(CellKind::Blocked(_))
    ));
    assert!(matches!(
        b.cell(10, 11).map(|c| c.kind),
        Some(CellKind::Blocked(_))
    ));
}

#[test]
fn player_and_weapon_lines_are_recorded() {
    let dir = shared().join("community");
    let load = |name: &str| board(&dir.join(name), "ClueLayout.csv", "ClueSetup.txt");

    // `Player, <name>, <color>, <Human|Computer>, <row>, <col>`
    let b = load("Abdallah-Salhi-ClueGame");
    let p = &b.persons()[0];
    assert_eq!(p.name, "Harry Potter");
    assert_eq!(p.color.as_deref(), Some("red"));
    assert_eq!(p.kind, Some(PlayerKind::Human));
    assert_eq!(p.start, Some((10, 14)));
    assert_eq!(b.weapons()[0].name, "Wand");

    // `Human, ...` / `Computer, ...`: the keyword is the kind.
    let b = load("BrownHub-Clue");
    let kinds: Vec<_> = b.persons().iter().map(|p| p.kind).collect();
    assert_eq!(kinds[0], Some(PlayerKind::Human));
    assert!(kinds[1..].iter().all(|k| *k == Some(PlayerKind::Computer)));
    assert_eq!(b.persons()[0].color.as_deref(), Some("BLUE"));
    assert_eq!(b.persons()[0].start, Some((9, 1)));

    // `Player, <name>, <R>, <G>, <B>, <row>, <col>` / `NPC, ...`
    let b = load("DSuzumoto-3333-ClueGame");
    let p = &b.persons()[0];
    assert_eq!(
        (p.name.as_str(), p.color.as_deref()),
        ("Ramona Rodriguez", Some("#885CC2"))
    );
    assert_eq!((p.kind, p.start), (Some(PlayerKind::Human), Some((0, 4))));
    assert_eq!(b.persons()[1].kind, Some(PlayerKind::Computer));
    assert_eq!(b.persons()[1].start, Some((0, 15)));

    // `Player, <Human|Computer>, <name>, <Color>, <row>, <col>`, `Card, Weapon, <name>`
    let b = load("Gazi6645-Clue");
    let p = &b.persons()[0];
    assert_eq!(
        (p.name.as_str(), p.color.as_deref()),
        ("Frank", Some("Green"))
    );
    assert_eq!((p.kind, p.start), (Some(PlayerKind::Human), Some((0, 2))));
    assert_eq!(b.weapons()[5].name, "Submarine");

    // `Person, <name>, <code>` and `Weapon, <name>, <code>`
    let b = load("JonathanDimercurio-ClueGame");
    let p = &b.persons()[0];
    assert_eq!(
        (p.name.as_str(), p.code.as_deref()),
        ("Neptune", Some("NP"))
    );
    assert_eq!((p.color.as_ref(), p.kind, p.start), (None, None, None));
    assert_eq!(b.weapons()[0].name, "Giant water-gun");
    assert_eq!(b.weapons()[0].code.as_deref(), Some("WG"));
    let spaces: Vec<char> = b.spaces().iter().map(|s| s.initial).collect();
    assert_eq!(spaces, ['Q', 'W', 'U']);

    // `Person, <name>, <Color>, <row>, <col>`: no kind.
    let b = load("aragorn-w-clue-game");
    let p = &b.persons()[0];
    assert_eq!(
        (p.name.as_str(), p.color.as_deref()),
        ("Hans Wolfeschlegelstein", Some("Gold"))
    );
    assert_eq!((p.kind, p.start), (None, Some((0, 7))));

    // `Player, <name>, <row>, <col>, #RRGGBB`; weapon names with a trailing space.
    let b = load("dgunnoe-clue-game");
    let p = &b.persons()[0];
    assert_eq!(
        (p.name.as_str(), p.color.as_deref()),
        ("Michael Scott", Some("#FC2C03"))
    );
    assert_eq!(p.start, Some((12, 12)));
    assert_eq!(b.weapons()[0].name, "Dundie Trophy");

    // `Player, <PC|NPC>, <name>, <initial>, <row>, <col>`, weapons from card lines.
    let b = load("evmvaughan-ClueGame");
    let p = &b.persons()[5];
    assert_eq!((p.name.as_str(), p.code.as_deref()), ("Nick", Some("N")));
    assert_eq!((p.kind, p.start), (Some(PlayerKind::Human), Some((0, 5))));
    assert_eq!(b.persons()[0].kind, Some(PlayerKind::Computer));
    assert_eq!(b.weapons()[0].name, "Knife");
    assert_eq!(b.weapons()[0].code.as_deref(), Some("k"));

    // `Person, <name>, <Color>, <Human|Computer>, <row>, <col>`, `Weapon,<name>`
    let b = load("frayfrayram-ClueGame");
    let p = &b.persons()[5];
    assert_eq!(
        (p.name.as_str(), p.kind, p.start),
        ("Franklin", Some(PlayerKind::Human), Some((7, 0)))
    );
    assert_eq!(b.weapons()[0].name, "Wiimote");

    // `Player, <name>, <color>, <Human|Computer>, <row>-<col>`
    let b = load("keenanschott-Clue");
    let p = &b.persons()[3];
    assert_eq!(
        (p.name.as_str(), p.color.as_deref()),
        ("Owen Chase", Some("lightGray"))
    );
    assert_eq!(
        (p.kind, p.start),
        (Some(PlayerKind::Computer), Some((24, 18)))
    );

    // `HumanPlayer, ...` / `ComputerPlayer, ...`
    let b = load("sammyflemington-ClueGame");
    assert_eq!(b.persons()[0].kind, Some(PlayerKind::Human));
    assert_eq!(b.persons()[1].kind, Some(PlayerKind::Computer));
    assert_eq!(b.persons()[0].start, Some((6, 0)));

    // `Player, <name>, <Color>, <true|false>, <row>, <col>`
    let b = load("wolffcolin-ClueGame");
    let humans = b
        .persons()
        .iter()
        .filter(|p| p.kind == Some(PlayerKind::Human))
        .count();
    assert_eq!(humans, 1);
    assert_eq!(b.persons()[0].kind, Some(PlayerKind::Human));
    assert_eq!(b.persons()[0].start, Some((0, 4)));
}

#[test]
fn starts_are_walkable_or_relocated() {
    let dir = shared().join("community");
    for entry in std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()) {
        if !entry.path().is_dir() {
            continue;
        }
        let b = board(&entry.path(), "ClueLayout.csv", "ClueSetup.txt");
        let starts = b.start_nodes();
        assert_eq!(starts.len(), b.persons().len());
        for (node, person) in starts.iter().zip(b.persons()) {
            assert!(
                !b.adjacency(*node).is_empty(),
                "{}: {} boxed in",
                entry.path().display(),
                person.name
            );
            if let Some((r, c)) = person.start {
                if let Some(given) = b.node_at(r, c) {
                    assert_eq!(*node, given);
                }
            }
        }
    }
    // dgunnoe's first four starts fall on `X` cells: they are relocated.
    let b = board(
        &dir.join("dgunnoe-clue-game"),
        "ClueLayout.csv",
        "ClueSetup.txt",
    );
    let starts = b.start_nodes();
    assert_eq!(b.node_at(12, 12), None);
    assert!(matches!(starts[0], clue_board::Node::Cell { .. }));
    assert_ne!(starts[0], clue_board::Node::Cell { row: 12, col: 12 });
}

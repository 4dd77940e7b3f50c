//! Line endings, white space and the player/weapon line formats listed in
//! `community/SOURCES.md` (the saved boards and the others seen in student
//! repositories) are all accepted, each recording what the line gives.

use clue_board::{Person, PlayerKind, RoomBoard, parse};

const SETUP: &str = "\
// Rooms and room cards
Room, Kitchen, K
Room, Hall, H
// other spaces on board
Space, Unused, X
Space, Walkway, W
";

const LAYOUT: &str = "\
K*,K,W,H,H*
K#,K,W>,H#,H
X,W^,W,W,X
";

fn load(layout: &str, setup: &str) -> RoomBoard {
    parse(layout, "ClueLayout.csv", setup, "ClueSetup.txt").unwrap_or_else(|e| panic!("{e}"))
}

const H: Option<PlayerKind> = Some(PlayerKind::Human);
const C: Option<PlayerKind> = Some(PlayerKind::Computer);

/// Parses the reference setup plus `lines` and checks the first person.
fn check(
    lines: &str,
    name: &str,
    color: Option<&str>,
    kind: Option<PlayerKind>,
    start: Option<(u16, u16)>,
) {
    let board = load(LAYOUT, &format!("{SETUP}{lines}\n"));
    let Some(p): Option<&Person> = board.persons().first() else {
        panic!("{lines}: no person");
    };
    assert_eq!(
        (p.name.as_str(), p.color.as_deref(), p.kind, p.start),
        (name, color, kind, start),
        "{lines}"
    );
}

#[test]
fn player_lines_of_the_saved_boards() {
    check(
        "Player, Harry Potter, red, Human, 2, 1",
        "Harry Potter",
        Some("red"),
        H,
        Some((2, 1)),
    );
    check(
        "Human, Tony, BLUE, 2, 1",
        "Tony",
        Some("BLUE"),
        H,
        Some((2, 1)),
    );
    check(
        "Computer, Marco, ORANGE, 0, 2",
        "Marco",
        Some("ORANGE"),
        C,
        Some((0, 2)),
    );
    check(
        "Player, Ramona, 136, 92, 194, 0, 2",
        "Ramona",
        Some("#885CC2"),
        None,
        Some((0, 2)),
    );
    check(
        "Player, Ramona, 1, 2, 3, 0, 2\nNPC, Leland, 4, 5, 6, 2, 2",
        "Ramona",
        Some("#010203"),
        H,
        Some((0, 2)),
    );
    check(
        "Player, Human, Frank, Green, 0, 2",
        "Frank",
        Some("Green"),
        H,
        Some((0, 2)),
    );
    check("Person, Neptune, NP", "Neptune", None, None, None);
    check(
        "Person, Hans, Gold, 0, 2",
        "Hans",
        Some("Gold"),
        None,
        Some((0, 2)),
    );
    check(
        "Player, Michael Scott, 2, 2, #FC2C03",
        "Michael Scott",
        Some("#FC2C03"),
        None,
        Some((2, 2)),
    );
    check("Player, NPC, Sam, S, 2, 1", "Sam", None, C, Some((2, 1)));
    check(
        "Person, Franklin, Red, Human, 2, 3",
        "Franklin",
        Some("Red"),
        H,
        Some((2, 3)),
    );
    check(
        "Player, Captain Haddock, white, Human, 0-2",
        "Captain Haddock",
        Some("white"),
        H,
        Some((0, 2)),
    );
    check(
        "HumanPlayer, Sammy, Blue, 2, 1",
        "Sammy",
        Some("Blue"),
        H,
        Some((2, 1)),
    );
    check(
        "ComputerPlayer, Ellie, Red, 2, 1",
        "Ellie",
        Some("Red"),
        C,
        Some((2, 1)),
    );
    check(
        "Player, Janitor, Red, true, 0, 2",
        "Janitor",
        Some("Red"),
        H,
        Some((0, 2)),
    );
    check(
        "Player, Guard, Blue, false, 0, 2",
        "Guard",
        Some("Blue"),
        C,
        Some((0, 2)),
    );
    check(
        "Player, Mrs. White, White",
        "Mrs. White",
        Some("White"),
        None,
        None,
    );
    check(
        "Person, Mechanical Engineer",
        "Mechanical Engineer",
        None,
        None,
        None,
    );
}

#[test]
fn player_lines_seen_elsewhere() {
    check(
        "Player, Computer, Ann, Red, 2, 1",
        "Ann",
        Some("Red"),
        C,
        Some((2, 1)),
    );
    check(
        "Player, Human, Ann, 2, 1, red",
        "Ann",
        Some("red"),
        H,
        Some((2, 1)),
    );
    check(
        "Player, Human, A, RED, 2, 1",
        "A",
        Some("RED"),
        H,
        Some((2, 1)),
    );
    check(
        "Player, Ann, red, HUMAN, 2, 1",
        "Ann",
        Some("red"),
        H,
        Some((2, 1)),
    );
    check(
        "Player, Ann, red, human, 2, 1",
        "Ann",
        Some("red"),
        H,
        Some((2, 1)),
    );
    check(
        "Player, Ann, Red, H, 2, 1",
        "Ann",
        Some("Red"),
        H,
        Some((2, 1)),
    );
    check(
        "Player, Ann, Red, C, 2, 1",
        "Ann",
        Some("Red"),
        C,
        Some((2, 1)),
    );
    check(
        "Player, Ann, human, red, 2, 1",
        "Ann",
        Some("red"),
        H,
        Some((2, 1)),
    );
    check(
        "Player, Ann, computer, 2, 1, red",
        "Ann",
        Some("red"),
        C,
        Some((2, 1)),
    );
    check("Player, Ann, Human, red", "Ann", Some("red"), H, None);
    check(
        "Player, Ann, red, 2, 1",
        "Ann",
        Some("red"),
        None,
        Some((2, 1)),
    );
    check(
        "Player, red, Ann, 2, 1",
        "Ann",
        Some("red"),
        None,
        Some((2, 1)),
    );
    check(
        "Player, Ann, 2, 1, RED",
        "Ann",
        Some("RED"),
        None,
        Some((2, 1)),
    );
    check(
        "Player, Ann, FF0A0B, 2, 1",
        "Ann",
        Some("FF0A0B"),
        None,
        Some((2, 1)),
    );
    check(
        "Player, Ann, red, 2-1\nComputer, Bob, blue, 0-2",
        "Ann",
        Some("red"),
        H,
        Some((2, 1)),
    );
    check(
        "Player, Ann, red, 2, 1\nComputer, Bob, blue, 0, 2",
        "Ann",
        Some("red"),
        H,
        Some((2, 1)),
    );
    check("Human, Ann, red, 2 1", "Ann", Some("red"), H, Some((2, 1)));
    check(
        "Person, Ann, A, 2, 1, 255 0 0",
        "Ann",
        Some("#FF0000"),
        None,
        Some((2, 1)),
    );
    check(
        "Person, Ann, Red, Computer, Hall",
        "Ann",
        Some("Red"),
        C,
        Some((0, 4)),
    );
    check("Person, Ann, AN", "Ann", None, None, None);
    check("Person, Ann", "Ann", None, None, None);
    check(
        "Player, Ann, red, Human, 2, 1,",
        "Ann",
        Some("red"),
        H,
        Some((2, 1)),
    );
}

#[test]
fn weapon_and_card_lines() {
    let weapons = |lines: &str| -> Vec<(String, Option<String>)> {
        load(LAYOUT, &format!("{SETUP}{lines}"))
            .weapons()
            .iter()
            .map(|w| (w.name.clone(), w.code.clone()))
            .collect()
    };
    let w = |name: &str, code: Option<&str>| (name.to_string(), code.map(str::to_string));
    assert_eq!(
        weapons("Weapon, Rope\nWeapon,Knife \n"),
        [w("Rope", None), w("Knife", None)]
    );
    assert_eq!(weapons("Weapon, Rope, RP\n"), [w("Rope", Some("RP"))]);
    assert_eq!(
        weapons("Card, Weapon, Rope\nCard, W, Knife, k\n"),
        [w("Rope", None), w("Knife", Some("k"))]
    );
    // Card lines repeat the weapon lines: the weapon lines are the list.
    assert_eq!(
        weapons("Weapon, Rope\nCard, Weapon, rope, R\n"),
        [w("Rope", None)]
    );
    // Card lines for persons and rooms.
    let board = load(
        LAYOUT,
        &format!("{SETUP}Card, Player, Sam, S\nCard, Room, Hall, H\n"),
    );
    assert_eq!(board.persons()[0].name, "Sam");
    assert_eq!(board.persons()[0].code.as_deref(), Some("S"));
}

#[test]
fn section_headers() {
    let setup =
        format!("{SETUP}PEOPLE\nFrodo,brown,0,2\nSam, green, 2, 1\nWEAPONS:\nSting\nAndúril, AN\n");
    let board = load(LAYOUT, &setup);
    type Seen<'a> = (&'a str, Option<&'a str>, Option<(u16, u16)>);
    let people: Vec<Seen> = board
        .persons()
        .iter()
        .map(|p| (p.name.as_str(), p.color.as_deref(), p.start))
        .collect();
    assert_eq!(
        people,
        [
            ("Frodo", Some("brown"), Some((0, 2))),
            ("Sam", Some("green"), Some((2, 1)))
        ]
    );
    let weapons: Vec<&str> = board.weapons().iter().map(|w| w.name.as_str()).collect();
    assert_eq!(weapons, ["Sting", "Andúril"]);
}

#[test]
fn line_ends_and_white_space() {
    let base = load(LAYOUT, SETUP);
    let variants: [(String, String); 7] = [
        (LAYOUT.replace('\n', "\r\n"), SETUP.replace('\n', "\r\n")),
        (LAYOUT.trim_end().to_string(), SETUP.trim_end().to_string()),
        (
            LAYOUT.replacen('\n', "\r\n", 1),
            SETUP.replacen('\n', "\r\n", 3),
        ),
        (
            format!("\n{LAYOUT}\n\n"),
            format!("\n{}\n\n", SETUP.replace("\n//", "\n\n//")),
        ),
        (
            LAYOUT.replace(',', " , ").replace('\n', " \n"),
            SETUP.replace('\n', " \n"),
        ),
        (
            LAYOUT.replace('\n', ",\n"),
            SETUP.replace("Room, Hall, H", "Room, Hall, H, 5,"),
        ),
        (
            format!("\u{feff}{LAYOUT}"),
            SETUP.replace(", K\n", ", K\u{a0}\n"),
        ),
    ];
    for (layout, setup) in &variants {
        assert_eq!(&load(layout, setup), &base, "{layout:?} {setup:?}");
    }
}

#[test]
fn ten_trailing_empty_fields_on_every_row() {
    let layout = LAYOUT.replace('\n', ",,,,,,,,,,\n");
    assert_eq!(load(&layout, SETUP), load(LAYOUT, SETUP));
}

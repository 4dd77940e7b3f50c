//! The terminal drawing: plain text without escapes, colour with them, room
//! names, doors, passages, targets and tokens where they belong.

use crate::common;

use clue_board::Node;
use common::reference;

/// The two characters drawn for cell (row, col) in a plain drawing.
fn glyph(drawing: &str, row: usize, col: usize) -> String {
    let line = drawing.lines().nth(2 + row).unwrap_or("");
    line.chars().skip(4 + 2 * col).take(2).collect()
}

#[test]
fn plain_drawing_of_the_reference_board() {
    let b = reference();
    let drawing = b.render(false, &[], &[]);
    assert!(!drawing.contains('\x1b'));
    let grid: Vec<&str> = drawing.lines().skip(2).take(25).collect();
    assert_eq!(grid.len(), 25);
    for (r, line) in grid.iter().enumerate() {
        assert_eq!(line.chars().count(), 4 + 2 * 24, "row {r}");
        assert!(line.starts_with(&format!("{r:>3} ")), "row {r}");
    }
    let cases = [
        ((4, 6), "^ "),
        ((8, 7), "< "),
        ((4, 8), "> "),
        ((16, 9), "v "),
        ((5, 5), ". "),
        ((0, 6), "::"),
        ((3, 0), "~K"),
        ((19, 1), "~O"),
        ((0, 0), "S "),
    ];
    for ((r, c), expected) in cases {
        assert_eq!(glyph(&drawing, r, c), expected, "({r},{c})");
    }
    for name in [
        "Conservatory",
        "Kitchen",
        "Ballroom",
        "Library",
        "Lounge",
        "Hall",
    ] {
        assert!(grid.iter().any(|l| l.contains(name)), "{name} not written");
    }
    assert!(drawing.contains("S Study"), "legend");
}

#[test]
fn targets_and_tokens() {
    let b = reference();
    let from = Node::Cell { row: 13, col: 7 };
    let targets = b.targets(from, 1, &[]);
    let kitchen = Node::Room(b.room_index('K').unwrap());
    let tokens = [(from, 'S'), (kitchen, 'M'), (kitchen, 'W'), (kitchen, 'P')];
    let drawing = b.render(false, &targets, &tokens);
    assert_eq!(glyph(&drawing, 13, 7), "S ");
    for t in &targets {
        let (r, c) = b.cell_of(*t).unwrap();
        assert_eq!(glyph(&drawing, usize::from(r), usize::from(c)), "[]");
    }
    // Room tokens fill the room from its centre (20,19) on.
    assert_eq!(glyph(&drawing, 20, 19), "MW");
    assert_eq!(glyph(&drawing, 20, 20), "P ");
    // A highlighted room is marked at its centre.
    let drawing = b.render(false, &[kitchen], &[]);
    assert_eq!(glyph(&drawing, 20, 19), "[]");
}

#[test]
fn colour_drawing() {
    let b = reference();
    let drawing = b.render(
        true,
        &[Node::Room(0)],
        &[(Node::Cell { row: 5, col: 5 }, 'A')],
    );
    assert!(drawing.contains("\x1b[0;"));
    assert!(
        drawing
            .lines()
            .skip(2)
            .take(25)
            .all(|l| l.ends_with("\x1b[0m"))
    );
    // Without the escapes it is the plain drawing.
    let mut stripped = String::new();
    let mut chars = drawing.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            stripped.push(c);
        }
    }
    let plain = b.render(
        false,
        &[Node::Room(0)],
        &[(Node::Cell { row: 5, col: 5 }, 'A')],
    );
    assert_eq!(stripped, plain);
}

#[test]
fn bad_nodes_are_ignored() {
    let b = reference();
    let odd = [Node::Room(99), Node::Cell { row: 99, col: 0 }];
    let drawing = b.render(
        false,
        &odd,
        &[(Node::Room(99), 'Z'), (Node::Cell { row: 0, col: 99 }, 'Y')],
    );
    assert_eq!(drawing, b.render(false, &[], &[]));
}

#[test]
fn shipped_boards_draw_every_room_name() {
    for dir in ["classic", "csci306"] {
        let b = common::board(
            &common::project().join(dir),
            "ClueLayout.csv",
            "ClueSetup.txt",
        );
        let drawing = b.render(false, &[], &[]);
        let grid: Vec<&str> = drawing
            .lines()
            .skip(2)
            .take(usize::from(b.rows()))
            .collect();
        for room in b.rooms() {
            assert!(
                grid.iter().any(|l| l.contains(&room.name)),
                "{dir}: {}",
                room.name
            );
        }
    }
}

//! The project's own boards in `boards/`: they load, every room has a door,
//! the walkway is one region, and they are what they claim to be.

use crate::common;

use clue_board::{CellKind, Node, PlayerKind, RoomBoard};
use common::{board, non_rectangular, passage_pairs, project, walkway_connected};

fn load(name: &str) -> RoomBoard {
    board(&project().join(name), "ClueLayout.csv", "ClueSetup.txt")
}

fn names<T>(items: &[T], name: impl Fn(&T) -> &str) -> Vec<&str> {
    items.iter().map(name).collect()
}

/// What every shipped board must satisfy.
fn check_playable(b: &RoomBoard, name: &str) {
    assert_eq!(b.rooms().len(), 9, "{name}");
    assert_eq!(b.persons().len(), 6, "{name}");
    assert_eq!(b.weapons().len(), 6, "{name}");
    assert!(walkway_connected(b), "{name}: walkway not one region");
    for (i, room) in b.rooms().iter().enumerate() {
        assert!(
            !b.doors_of(i).is_empty(),
            "{name}: {} has no door",
            room.name
        );
    }
    // Every person starts on its own walkway cell on the edge of the board,
    // with somewhere to go.
    let starts = b.start_nodes();
    for (p, start) in b.persons().iter().zip(&starts) {
        let (r, c) = p
            .start
            .unwrap_or_else(|| panic!("{name}: {} has no start", p.name));
        assert_eq!(*start, Node::Cell { row: r, col: c }, "{name}: {}", p.name);
        assert!(
            r == 0 || c == 0 || r + 1 == b.rows() || c + 1 == b.cols(),
            "{name}: {}",
            p.name
        );
        assert!(!b.targets(*start, 1, &[]).is_empty(), "{name}: {}", p.name);
        assert!(p.color.is_some(), "{name}: {}", p.name);
    }
    let mut distinct = starts.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), starts.len(), "{name}: shared start cells");
    let humans = b
        .persons()
        .iter()
        .filter(|p| p.kind == Some(PlayerKind::Human))
        .count();
    assert_eq!(humans, 1, "{name}: one human, five computers");
}

#[test]
fn classic_board() {
    let b = load("classic");
    check_playable(&b, "classic");
    assert_eq!((b.rows(), b.cols()), (25, 24));
    assert_eq!(
        names(b.rooms(), |r| &r.name),
        [
            "Kitchen",
            "Ballroom",
            "Conservatory",
            "Dining Room",
            "Billiard Room",
            "Library",
            "Lounge",
            "Hall",
            "Study"
        ]
    );
    assert_eq!(
        names(b.persons(), |p| &p.name),
        [
            "Miss Scarlet",
            "Colonel Mustard",
            "Mrs. White",
            "Mr. Green",
            "Mrs. Peacock",
            "Professor Plum"
        ]
    );
    assert_eq!(
        names(b.weapons(), |w| &w.name),
        [
            "Candlestick",
            "Knife",
            "Lead Pipe",
            "Revolver",
            "Rope",
            "Wrench"
        ]
    );
    // The two classic secret passages, and no other.
    assert_eq!(passage_pairs(&b), 2);
    let room = |initial| Node::Room(b.room_index(initial).unwrap());
    for (a, z) in [('K', 'S'), ('C', 'O')] {
        assert!(b.adjacency(room(a)).contains(&room(z)));
        assert!(b.adjacency(room(z)).contains(&room(a)));
    }
    // The cellar in the middle is closed.
    assert!(matches!(
        b.cell(12, 12).map(|c| c.kind),
        Some(CellKind::Blocked(_))
    ));
}

#[test]
fn csci306_board() {
    let b = load("csci306");
    check_playable(&b, "csci306");
    // The assignment: 9 rooms, a closet in the middle, several rooms that
    // are not rectangles, no secret passages.
    assert_eq!(passage_pairs(&b), 0);
    assert!(non_rectangular(&b) >= 3, "{}", non_rectangular(&b));
    let (mid_r, mid_c) = (b.rows() / 2, b.cols() / 2);
    let closet = b.cell(mid_r, mid_c).map(|c| c.kind);
    let x = b.spaces().iter().position(|s| s.initial == 'X');
    assert_eq!(closet, x.map(CellKind::Blocked));
    // Its own room names, not the classic ones.
    let classic = load("classic");
    for room in b.rooms() {
        assert!(
            classic.rooms().iter().all(|r| r.name != room.name),
            "{}",
            room.name
        );
    }
}

//! What a bot is told: `RoomBoard::view` as a plugin-api `BoardView::Rooms`.

use crate::common;

use clue_board::CellKind;
use clue_plugin_api::{BoardView, Card, Direction};
use common::reference;

#[test]
fn reference_view() {
    let b = reference();
    // Rooms are cards 12..21 in setup order.
    let cards: Vec<Card> = (12..21).map(Card).collect();
    let BoardView::Rooms { rows, cols, cells } = b.view(&cards) else {
        panic!("not a Rooms view");
    };
    assert_eq!((rows, cols), (25, 24));
    assert_eq!(cells.len(), 25 * 24);
    let at = |r: usize, c: usize| &cells[r * 24 + c];
    let card = |initial| cards[b.room_index(initial).unwrap()];

    // A door: walkway, facing the Study.
    assert!(at(4, 6).walkway);
    assert_eq!(at(4, 6).door, Some(Direction::Up));
    assert_eq!(at(4, 6).room, None);
    // The Study's passage cell names the Kitchen's card.
    assert_eq!(at(3, 0).room, Some(card('S')));
    assert_eq!(at(3, 0).passage, Some(card('K')));
    assert!(!at(3, 0).walkway);
    // Centre and label of the Ballroom.
    assert!(at(20, 11).centre && !at(20, 11).label);
    assert!(at(19, 11).label && !at(19, 11).centre);
    // An impassable cell is neither walkway nor room.
    assert_eq!((at(0, 6).walkway, at(0, 6).room), (false, None));

    // Counts agree with the board.
    let doors = cells.iter().filter(|c| c.door.is_some()).count();
    assert_eq!(doors, b.door_count());
    let walkway = cells.iter().filter(|c| c.walkway).count();
    let expected = b
        .cells()
        .iter()
        .filter(|c| c.kind == CellKind::Walkway)
        .count();
    assert_eq!(walkway, expected);
}

#[test]
fn missing_room_cards_leave_rooms_unnamed() {
    let b = reference();
    let BoardView::Rooms { cells, .. } = b.view(&[Card(0)]) else {
        panic!("not a Rooms view");
    };
    // Room 0 (Conservatory) has its card; the Study (room 5) has none.
    assert_eq!(cells[21 * 24 + 2].room, Some(Card(0)));
    assert_eq!(cells[2 * 24 + 2].room, None);
    assert_eq!(cells[3 * 24].passage, None);
}

/// A deck whose room cards are the board's rooms in order, named as the
/// board names them (as the engine deals a board's deck), after `before`
/// cards of other categories.
fn deck_of(b: &clue_board::RoomBoard, before: usize) -> clue_plugin_api::Deck {
    use clue_plugin_api::{CardInfo, Category, Deck};
    let mut cards: Vec<CardInfo> = (0..before)
        .map(|i| CardInfo {
            category: Category::Person,
            name: format!("person {i}"),
        })
        .collect();
    cards.extend(b.rooms().iter().map(|r| CardInfo {
        category: Category::Room,
        name: r.name.clone(),
    }));
    Deck { cards }
}

/// What a seat is told of a board, read back (`RoomBoard::from_view`, for a
/// person's drawing at the terminal), is the board: every cell's kind, door,
/// passage, centre and label, every room's name, centre and label; the
/// rooms' letters, which the view does not carry, are distinct. On the
/// project's csci306 board, whose letters are its rooms' first letters, the
/// drawing with targets and tokens is the drawing of the board itself.
#[test]
fn a_view_reads_back_as_the_board() {
    let boards = [
        reference(),
        common::board(
            &common::project().join("csci306"),
            "ClueLayout.csv",
            "ClueSetup.txt",
        ),
        common::board(
            &common::project().join("classic"),
            "ClueLayout.csv",
            "ClueSetup.txt",
        ),
    ];
    for b in &boards {
        let deck = deck_of(b, 3);
        let cards = deck.of(clue_plugin_api::Category::Room);
        let back = clue_board::RoomBoard::from_view(&b.view(&cards), &deck).expect("a rooms view");
        assert_eq!((back.rows(), back.cols()), (b.rows(), b.cols()));
        for (i, (was, is)) in b.cells().iter().zip(back.cells()).enumerate() {
            let same_kind = match (was.kind, is.kind) {
                (CellKind::Blocked(_), CellKind::Blocked(_)) => true,
                (a, z) => a == z,
            };
            assert!(
                same_kind,
                "cell {i}: {:?} read back as {:?}",
                was.kind, is.kind
            );
            assert_eq!(
                (was.door, was.passage, was.centre, was.label),
                (is.door, is.passage, is.centre, is.label),
                "cell {i}"
            );
        }
        for (was, is) in b.rooms().iter().zip(back.rooms()) {
            assert_eq!(
                (&was.name, was.centre, was.label),
                (&is.name, is.centre, is.label)
            );
        }
        let mut letters: Vec<char> = back.rooms().iter().map(|r| r.initial).collect();
        letters.sort_unstable();
        letters.dedup();
        assert_eq!(letters.len(), b.rooms().len(), "{letters:?}");
    }
    let b = &boards[1];
    assert!(b.rooms().iter().all(|r| r.name.starts_with(r.initial)));
    let deck = deck_of(b, 0);
    let back =
        clue_board::RoomBoard::from_view(&b.view(&deck.of(clue_plugin_api::Category::Room)), &deck)
            .expect("a rooms view");
    let targets = [
        clue_board::Node::Room(2),
        clue_board::Node::Cell { row: 7, col: 3 },
    ];
    let tokens = [
        (clue_board::Node::Room(2), '0'),
        (clue_board::Node::Cell { row: 6, col: 2 }, '1'),
    ];
    assert_eq!(
        back.render(false, &targets, &tokens),
        b.render(false, &targets, &tokens)
    );
}

/// Rooms whose names begin alike get letters of their own, and a view of
/// another kind, or one whose cells do not fill it, reads back as nothing.
#[test]
fn letters_for_rooms_named_alike_and_views_that_are_not_boards() {
    use clue_plugin_api::{CardInfo, Category, CellView, Deck};
    let deck = Deck {
        cards: ["Ballroom", "Billiard Room", "Bar", "B"]
            .iter()
            .map(|n| CardInfo {
                category: Category::Room,
                name: n.to_string(),
            })
            .collect(),
    };
    let room = |card: u16| CellView {
        room: Some(Card(card)),
        walkway: false,
        door: None,
        passage: None,
        centre: true,
        label: true,
    };
    let view = BoardView::Rooms {
        rows: 1,
        cols: 4,
        cells: (0..4).map(room).collect(),
    };
    let back = clue_board::RoomBoard::from_view(&view, &deck).expect("a rooms view");
    let letters: Vec<char> = back.rooms().iter().map(|r| r.initial).collect();
    assert_eq!(letters, ['B', 'R', 'A', '1']);
    let short = BoardView::Rooms {
        rows: 2,
        cols: 4,
        cells: (0..4).map(room).collect(),
    };
    assert_eq!(clue_board::RoomBoard::from_view(&short, &deck), None);
    let ring = BoardView::Ring {
        computers: vec![Card(0)],
    };
    assert_eq!(clue_board::RoomBoard::from_view(&ring, &deck), None);
}

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

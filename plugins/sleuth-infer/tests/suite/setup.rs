//! Decks `Knowledge::new` must reject, each with its error.

use sleuth_infer::{Knowledge, SetupError};

fn check(
    categories: &[Vec<usize>],
    hidden: &[usize],
    hands: &[usize],
    expected: Result<(), SetupError>,
) {
    let found = Knowledge::new(categories, hidden, hands).map(|_| ());
    assert_eq!(found, expected, "{categories:?} {hidden:?} {hands:?}");
}

#[test]
fn decks() {
    let classic = [
        (0..6).collect(),
        (6..12).collect(),
        (12..21).collect::<Vec<_>>(),
    ];
    check(&classic, &[1, 1, 1], &[3; 6], Ok(()));
    check(&classic, &[1, 1, 1], &[6, 6, 6], Ok(()));
    check(
        &classic,
        &[1, 1, 1],
        &[3; 5],
        Err(SetupError::CardsDoNotAddUp {
            cards: 21,
            placed: 18,
        }),
    );
    check(
        &classic,
        &[1, 1],
        &[3; 6],
        Err(SetupError::HiddenCounts {
            categories: 3,
            hidden: 2,
        }),
    );
    check(
        &[vec![0, 1], vec![2]],
        &[0, 2],
        &[1],
        Err(SetupError::HiddenTooMany {
            category: 1,
            hidden: 2,
            cards: 1,
        }),
    );
    check(
        &[vec![0, 1], vec![1]],
        &[1, 0],
        &[2],
        Err(SetupError::DuplicateCard { card: 1 }),
    );
    check(
        &[vec![0, 3], vec![2]],
        &[1, 0],
        &[2],
        Err(SetupError::MissingCard { card: 1 }),
    );
    check(
        &[(0..129).collect()],
        &[1],
        &[128],
        Err(SetupError::TooManyCards { cards: 129 }),
    );
    check(&[(0..64).collect()], &[1], &[1; 63], Ok(()));
    check(
        &[(0..65).collect()],
        &[1],
        &[1; 64],
        Err(SetupError::TooManyPlayers { players: 64 }),
    );
    // Degenerate but legal: no players, everything hidden; empty hands.
    check(&[vec![0, 1]], &[2], &[], Ok(()));
    check(&[vec![0, 1]], &[1], &[0, 1, 0], Ok(()));
}

#[test]
fn messages_are_lowercase_without_period() {
    let errors = [
        SetupError::TooManyCards { cards: 200 },
        SetupError::MissingCard { card: 4 },
        SetupError::CardsDoNotAddUp {
            cards: 21,
            placed: 18,
        },
    ];
    for error in errors {
        let message = error.to_string();
        assert!(message.starts_with(|c: char| c.is_lowercase()), "{message}");
        assert!(!message.ends_with('.'), "{message}");
    }
}

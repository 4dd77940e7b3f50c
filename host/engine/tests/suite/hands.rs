//! A hand's size is told to each bot in a byte (`Setup::hand_sizes`, and
//! `generalized`'s envelope count in `Rules::hidden`): a deal past it would
//! tell bots wrong sizes (300 cards told as 44), so it is refused before any
//! bot is asked, whether options, a framework table or a board's setup file
//! make the deck; so is a deck past 1,000 cards (`MAX_DECK`).

use std::cell::RefCell;
use std::rc::Rc;

use crate::common;

use clue_engine::config::BoardText;
use clue_engine::{ConfigError, Fault, GameConfig, SeatController, StartError, check, play};
use clue_plugin_api::{Request, Variant};
use common::Scripted;

fn generalized(items: u16, hidden: u16, players: u8) -> GameConfig {
    let mut config = GameConfig::new(Variant::Generalized, players);
    config.generalized.items = items;
    config.generalized.hidden = hidden;
    config
}

/// What each seat was told at the start: `hand_sizes`, and its hand's length.
type Told = Vec<(Vec<u8>, usize)>;

/// Plays `config` with scripted honest bots, returning the game's outcome
/// and what each seat was told.
fn told(config: &GameConfig) -> (Result<(), StartError>, Told) {
    let seen = Rc::new(RefCell::new(Vec::new()));
    let mut bots: Vec<Box<dyn SeatController>> = (0..config.players)
        .map(|_| -> Box<dyn SeatController> {
            let seen = Rc::clone(&seen);
            Box::new(Scripted::new(move |_, request: &Request| {
                if let Request::BeginGame { setup } = request {
                    seen.borrow_mut()
                        .push((setup.hand_sizes.clone(), setup.hand.len()));
                }
                None::<Result<_, Fault>>
            }))
        })
        .collect();
    let result = play(config, 1, &mut bots).map(|_| ());
    let seen = seen.borrow().clone();
    (result, seen)
}

fn refused(config: &GameConfig) -> ConfigError {
    let (result, seen) = told(config);
    assert!(seen.is_empty(), "no bot is asked: {seen:?}");
    let Err(StartError::Config(e)) = result else {
        panic!("refused as a configuration: {result:?}");
    };
    let checked = check(config).expect_err("`check` refuses it too");
    assert_eq!(checked, e);
    e
}

#[test]
fn a_hand_of_255_cards_is_told_its_size() {
    let mut config = generalized(512, 2, 2);
    config.max_rounds = 2;
    let (result, seen) = told(&config);
    result.expect("a hand of 255 cards fits");
    assert_eq!(seen, vec![(vec![255, 255], 255); 2]);
}

#[test]
fn a_generalized_deal_past_a_byte_is_refused() {
    let e = refused(&generalized(514, 2, 2));
    assert_eq!(
        e.to_string(),
        "generalized's deck of 514 cards, 2 hidden, deals hands of up to 256 cards to 2 players; \
         a hand holds at most 255 (a bot is told each hand's size in a byte): use fewer items or \
         more players"
    );
    assert_eq!(e.options(), ["items", "players"]);
    // Before, 300 hidden items were drawn as 255, and the hands were uneven.
    let e = refused(&generalized(600, 300, 2));
    assert_eq!(
        e.to_string(),
        "generalized hides at most 255 items, got k = 300 (a bot is told how many in a byte)"
    );
    assert_eq!(e.options(), ["hidden"]);
    // 255 hidden is the most.
    let mut config = generalized(515, 255, 2);
    config.max_rounds = 1;
    told(&config).0.expect("255 hidden items");
}

/// A reply naming every card of the deck (an interrogation may) must fit
/// what a wasm bot may hand the host in one call: a deck of 1,000 cards is
/// the most, whatever the table's size.
#[test]
fn a_deck_past_a_thousand_cards_is_refused() {
    let e = refused(&generalized(1002, 2, 4));
    assert_eq!(
        e.to_string(),
        "generalized's deck of 1002 cards is more than the 1000 a game may hold (a bot's reply \
         naming every card must fit what a wasm bot may hand the host in one call): use fewer \
         items"
    );
    assert_eq!(e.options(), ["items"]);
    let mut config = generalized(1000, 4, 4);
    config.max_rounds = 1;
    let (result, seen) = told(&config);
    result.expect("1,000 cards, hands of 249");
    assert_eq!(seen[0].0, vec![249; 4]);
}

#[test]
fn a_framework_deck_past_a_byte_is_refused_from_its_options_or_its_table() {
    // 502 rooms, 6 persons and 6 weapons: 511 cards dealt to two players.
    let mut config = GameConfig::new(Variant::Framework, 2);
    config.framework.width = 502;
    let e = refused(&config);
    assert!(
        e.to_string()
            .starts_with("framework's deck of 514 cards, 3 hidden, deals hands of up to 256 cards"),
        "{e}"
    );
    assert_eq!(e.options(), ["width", "persons", "weapons", "players"]);
    // The largest random board did not allocate 8 GiB first.
    config.framework.width = u16::MAX;
    assert!(matches!(
        refused(&config),
        ConfigError::DeckTooLarge { cards: 65547, .. }
    ));
    // 501 rooms deal 510 cards: 255 each.
    config.framework.width = 501;
    config.max_rounds = 1;
    told(&config).0.expect("hands of 255 cards");

    // A table of 502 rooms, one a row.
    let width = 502;
    let mut table = format!("Board {width} {width}\n");
    for row in 0..width {
        let mut cells = vec!["0".to_string(); width];
        cells[0] = (row + 1).to_string();
        table.push_str(&cells.join(" "));
        table.push('\n');
    }
    let mut config = GameConfig::new(Variant::Framework, 2);
    config.framework.table = Some(table);
    assert!(matches!(
        refused(&config),
        ConfigError::HandTooLarge {
            cards: 514,
            hand: 256,
            ..
        }
    ));
}

#[test]
fn a_board_whose_setup_lists_too_many_cards_is_refused() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../boards/classic");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).expect("the project's board");
    let mut setup = read("ClueSetup.txt");
    // 21 cards and 500 more weapons: 518 dealt to two players.
    for i in 0..500 {
        setup.push_str(&format!("Weapon, Spoon {i}\n"));
    }
    let mut config = GameConfig::new(Variant::Csci306, 2);
    config.board = Some(BoardText {
        layout_name: "ClueLayout.csv".into(),
        layout: read("ClueLayout.csv"),
        setup_name: "ClueSetup.txt".into(),
        setup,
    });
    let e = refused(&config);
    assert_eq!(
        e.to_string(),
        "csci306's deck of 521 cards, 3 hidden, deals hands of up to 259 cards to 2 players; a \
         hand holds at most 255 (a bot is told each hand's size in a byte): use a setup file with \
         fewer cards, or more players"
    );
    assert!(e.options().is_empty(), "placed at the board's files");
}

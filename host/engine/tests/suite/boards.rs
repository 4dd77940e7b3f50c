//! The board variants: seeded games complete and replay; the engine accepts
//! exactly the targets it offers; each variant's own rules.

use crate::common;

use clue_engine::{Fault, GameConfig, GameRecord, Outcome, SeatController, play};
use clue_plugin_api::{
    Accusation, AccusePoint, Card, DqReason, Event, Position, Reply, Request, Seat, Variant,
};
use common::Scripted;
use rand::seq::IndexedRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn board_configs() -> Vec<GameConfig> {
    let mut configs = vec![
        GameConfig::new(Variant::Classic, 3),
        GameConfig::new(Variant::Classic, 6),
        GameConfig::new(Variant::Csci306, 6),
        GameConfig::new(Variant::Csci306, 2),
        GameConfig::new(Variant::Framework, 4),
        GameConfig::new(Variant::Cyberclue, 2),
        GameConfig::new(Variant::Cyberclue, 4),
        GameConfig::new(Variant::Cyberclue, 5),
    ];
    let mut wide = GameConfig::new(Variant::Framework, 3);
    wide.framework.width = 7;
    configs.push(wide);
    configs
}

#[test]
fn seeded_board_games_complete_and_replay_identically() {
    let mut games = std::collections::HashMap::new();
    for config in board_configs() {
        for seed in 0..500u64 {
            let a = common::play_builtins(&config, seed);
            // Replaying every game doubles the cost; every fourth is plenty here
            // (engine/tests/determinism.rs replays every game it plays).
            if seed % 4 == 0 {
                let b = common::play_builtins(&config, seed);
                assert_eq!(a, b, "{} seed {seed} did not replay", config.variant);
            }
            assert!(matches!(
                a.log.last().map(|e| &e.event),
                Some(Event::GameOver { .. })
            ));
            for seat in &a.seats {
                assert!(
                    !matches!(seat.outcome, Outcome::Disqualified(_)),
                    "{} seed {seed}: built-in bot disqualified: {:?} {:?}",
                    config.variant,
                    seat.outcome,
                    seat.detail
                );
            }
            *games.entry(config.variant).or_insert(0) += 1;
        }
    }
    for variant in [
        Variant::Classic,
        Variant::Csci306,
        Variant::Framework,
        Variant::Cyberclue,
    ] {
        assert!(games[&variant] >= 1000, "thousands of {variant} games");
    }
}

/// Seat 0 moves at random among the offered targets and checks them.
/// Occupied walkway cells block only on boards with doors (`blocking`).
fn random_mover(
    seed: u64,
    blocking: bool,
) -> impl FnMut(usize, &Request) -> Option<Result<Reply, Fault>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut positions: Vec<Option<Position>> = Vec::new();
    move |_, request| match request {
        Request::BeginGame { setup } => {
            positions = setup.starts.iter().copied().map(Some).collect();
            None
        }
        Request::Watch { event } => {
            match event {
                Event::Moved { seat, to } => positions[seat.index()] = Some(*to),
                Event::TokenMoved {
                    summoned: Some(seat),
                    to,
                    ..
                } => positions[seat.index()] = Some(*to),
                _ => {}
            }
            None
        }
        Request::Move(m) => {
            assert!(!m.targets.is_empty(), "an empty target list is never sent");
            let mut sorted = m.targets.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted, m.targets, "targets are sorted and distinct");
            for (s, p) in positions.iter().enumerate() {
                if blocking && s != m.turn.seat.index() {
                    if let Some(cell @ Position::Cell { .. }) = p {
                        assert!(
                            !m.targets.contains(cell),
                            "occupied walkway {cell:?} offered"
                        );
                    }
                }
            }
            Some(Ok(Reply::Move {
                to: *m.targets.choose(&mut rng).unwrap(),
            }))
        }
        _ => None,
    }
}

#[test]
fn every_offered_target_is_accepted() {
    for config in board_configs() {
        let blocking = matches!(config.variant, Variant::Classic | Variant::Csci306);
        for seed in 0..40u64 {
            let mut bots: Vec<Box<dyn SeatController>> =
                vec![Box::new(Scripted::new(random_mover(seed, blocking)))];
            bots.extend(common::builtins(usize::from(config.players) - 1));
            let record = play(&config, seed, &mut bots).unwrap();
            assert!(
                !matches!(record.seats[0].outcome, Outcome::Disqualified(_)),
                "{} seed {seed}: {:?}",
                config.variant,
                record.seats[0].detail
            );
            let moves = record
                .log
                .iter()
                .filter(|e| matches!(e.event, Event::Moved { seat: Seat(0), .. }))
                .count();
            assert!(moves > 0 || record.rounds <= 1);
        }
    }
}

/// A move to somewhere not offered is `invalid-move`, whatever the variant.
#[test]
fn a_destination_not_offered_is_an_invalid_move() {
    for config in board_configs() {
        for seed in 0..10u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let script = move |_: usize, request: &Request| match request {
                Request::Move(m) => {
                    let off = loop {
                        let p = if rng.random_bool(0.5) {
                            Position::Cell {
                                row: rng.random_range(0..40),
                                col: rng.random_range(0..40),
                            }
                        } else {
                            Position::Room(Card(rng.random_range(0..30)))
                        };
                        if !m.targets.contains(&p) {
                            break p;
                        }
                    };
                    Some(Ok(Reply::Move { to: off }))
                }
                _ => None,
            };
            let mut bots: Vec<Box<dyn SeatController>> = vec![Box::new(Scripted::new(script))];
            bots.extend(common::builtins(usize::from(config.players) - 1));
            let record = play(&config, seed, &mut bots).unwrap();
            assert_eq!(
                record.seats[0].outcome,
                Outcome::Disqualified(DqReason::InvalidMove),
                "{} seed {seed}",
                config.variant
            );
        }
    }
}

fn play_scripted(
    config: &GameConfig,
    seed: u64,
    script: impl FnMut(usize, &Request) -> Option<Result<Reply, Fault>>,
) -> GameRecord {
    let mut bots: Vec<Box<dyn SeatController + '_>> = vec![Box::new(Scripted::new(script))];
    bots.extend(common::builtins(usize::from(config.players) - 1));
    play(config, seed, &mut bots).unwrap()
}

#[test]
fn framework_rooms_require_a_guess() {
    let config = GameConfig::new(Variant::Framework, 3);
    for seed in 0..10 {
        // Everyone starts in room 0, so staying put and declining to guess is enough.
        let record = play_scripted(&config, seed, |_, r| match r {
            Request::Move(m) => Some(Ok(Reply::Move {
                to: m.turn.position.unwrap(),
            })),
            Request::Suggest(s) => {
                assert!(!s.optional, "a framework guess in a room is required");
                Some(Ok(Reply::Suggest { suggestion: None }))
            }
            _ => None,
        });
        assert_eq!(
            record.seats[0].outcome,
            Outcome::Disqualified(DqReason::InvalidMove)
        );
    }
}

#[test]
fn framework_targets_are_the_manhattan_ball() {
    let config = GameConfig::new(Variant::Framework, 2);
    let record = play_scripted(&config, 5, |_, r| {
        if let Request::Move(m) = r {
            let (Some(Position::Cell { row, col }), Some(roll)) = (m.turn.position, m.turn.roll)
            else {
                panic!("framework moves from a cell with a roll");
            };
            assert!((1..=12).contains(&roll));
            let width = 10i32;
            let expected = (0..width * width)
                .filter(|i| {
                    ((i / width) - i32::from(row)).abs() + ((i % width) - i32::from(col)).abs()
                        <= i32::from(roll)
                })
                .count();
            assert_eq!(m.targets.len(), expected);
        }
        None
    });
    assert!(record.rounds > 0);
}

#[test]
fn cyberclue_moves_exactly_the_roll_round_the_ring() {
    let config = GameConfig::new(Variant::Cyberclue, 4);
    let computers: Vec<Card> = (13..23).map(Card).collect();
    play_scripted(&config, 9, |_, r| {
        if let Request::Move(m) = r {
            let (Some(Position::Room(here)), Some(roll)) = (m.turn.position, m.turn.roll) else {
                panic!("cyberclue moves between computers with a roll");
            };
            assert!((1..=4).contains(&roll));
            let i = computers.iter().position(|&c| c == here).unwrap();
            let mut expected = vec![
                Position::Room(computers[(i + usize::from(roll)) % 10]),
                Position::Room(computers[(i + 10 - usize::from(roll)) % 10]),
            ];
            expected.sort();
            assert_eq!(m.targets, expected);
        }
        None
    });
}

#[test]
fn a_suggested_player_is_moved_into_the_room() {
    for (variant, players) in [(Variant::Cyberclue, 4), (Variant::Classic, 4)] {
        let config = GameConfig::new(variant, players);
        let record = common::play_builtins(&config, 2);
        let summons: Vec<(Seat, Position)> = record
            .log
            .iter()
            .filter_map(|e| match e.event {
                Event::TokenMoved {
                    summoned: Some(s),
                    to,
                    ..
                } => Some((s, to)),
                _ => None,
            })
            .collect();
        assert!(
            !summons.is_empty(),
            "{variant}: some suggestion names a player"
        );
        for (_, to) in summons {
            assert!(matches!(to, Position::Room(_)));
        }
    }
}

#[test]
fn csci306_shows_the_card_to_all_and_a_wrong_accusation_only_to_the_accuser() {
    let config = GameConfig::new(Variant::Csci306, 6);
    let record = common::play_builtins(&config, 4);
    let answered: Vec<_> = record
        .log
        .iter()
        .filter(|e| {
            matches!(
                e.event,
                Event::Answered {
                    shown_by: Some(_),
                    ..
                }
            )
        })
        .collect();
    assert!(!answered.is_empty());
    for entry in answered {
        assert_eq!(entry.seen_by.len(), 6, "everyone sees the shown card");
    }
    // A wrong accusation at the start of the first turn: told only to the accuser,
    // who plays on.
    let truth = record.envelope.clone();
    let mut accused = false;
    let again = play_scripted(&config, 4, move |_, r| match r {
        Request::Accuse(a) if !accused && a.point == AccusePoint::StartOfTurn => {
            accused = true;
            let mut cards = truth.clone();
            cards[0] = if cards[0] == Card(0) {
                Card(1)
            } else {
                Card(0)
            };
            Some(Ok(Reply::Accuse {
                accusation: Some(Accusation { cards }),
            }))
        }
        _ => None,
    });
    let entry = again
        .log
        .iter()
        .find(|e| matches!(e.event, Event::Accused { seat: Seat(0), .. }))
        .unwrap();
    assert_eq!(entry.seen_by, vec![Seat(0)]);
    assert!(entry.partly_seen_by.is_empty());
    assert!(again.seats[0].turns > 1, "the accuser keeps playing");
}

#[test]
fn classic_wrong_accusation_eliminates_but_cards_stay() {
    let config = GameConfig::new(Variant::Classic, 4);
    let truth = common::play_builtins(&config, 6).envelope;
    let record = play_scripted(&config, 6, move |_, r| match r {
        Request::Accuse(_) => {
            let mut cards = truth.clone();
            cards[1] = if cards[1] == Card(6) {
                Card(7)
            } else {
                Card(6)
            };
            Some(Ok(Reply::Accuse {
                accusation: Some(Accusation { cards }),
            }))
        }
        _ => None,
    });
    assert_eq!(record.seats[0].outcome, Outcome::WrongAccusation);
    assert_eq!(record.seats[0].turns, 1);
}

#[test]
fn bad_board_text_is_refused_with_its_location() {
    let mut config = GameConfig::new(Variant::Csci306, 3);
    let mut board = clue_engine::config::BoardText {
        layout_name: "mine.csv".into(),
        layout: "W,W\nW,Q".into(),
        setup_name: "mine.txt".into(),
        setup: "Space, Walkway, W\n".into(),
    };
    config.board = Some(board.clone());
    let mut bots = common::builtins(3);
    let err = play(&config, 1, &mut bots).unwrap_err().to_string();
    assert!(err.contains("mine.") && err.contains("bad board"), "{err}");
    board.layout = String::new();
    config.board = Some(board);
    let mut bots = common::builtins(3);
    assert!(play(&config, 1, &mut bots).is_err());
    let mut framework = GameConfig::new(Variant::Framework, 2);
    framework.framework.table = Some("Board 5 5\n0 0 0\n".into());
    let mut bots = common::builtins(2);
    let err = play(&framework, 1, &mut bots).unwrap_err().to_string();
    assert!(err.contains("table"), "{err}");
}

/// The board's text, read from `dir`.
fn board_text(dir: &std::path::Path) -> clue_engine::config::BoardText {
    let read = |name: &str| {
        let path = dir.join(name);
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        (path.display().to_string(), text)
    };
    let (layout_name, layout) = read("ClueLayout.csv");
    let (setup_name, setup) = read("ClueSetup.txt");
    clue_engine::config::BoardText {
        layout_name,
        layout,
        setup_name,
        setup,
    }
}

/// `classic` is played with the cards its board's setup file lists, in that
/// order, as `csci306` is: the rooms the tokens walk into are named as the
/// board names them, and a board with more rooms or weapons than the
/// classic deck plays as well.
#[test]
fn classic_is_played_with_its_boards_cards() {
    let project = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../boards/classic");
    // A student's board with 10 rooms and 7 weapons, read in place.
    let student = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/boards/community/JonathanDimercurio-ClueGame");
    for (dir, given) in [(project.clone(), false), (project, true), (student, true)] {
        let text = board_text(&dir);
        let board = clue_board::parse(
            &text.layout,
            &text.layout_name,
            &text.setup,
            &text.setup_name,
        )
        .expect("the board loads");
        let mut names: Vec<&str> = board.persons().iter().map(|p| p.name.as_str()).collect();
        names.extend(board.weapons().iter().map(|w| w.name.as_str()));
        names.extend(board.rooms().iter().map(|r| r.name.as_str()));
        let mut config = GameConfig::new(Variant::Classic, 4);
        if given {
            config.board = Some(text);
        }
        for seed in 0..20 {
            let record = common::play_builtins(&config, seed);
            let dealt: Vec<&str> = record.deck.all().map(|c| record.deck.name(c)).collect();
            assert_eq!(dealt, names, "{}", dir.display());
            for seat in &record.seats {
                assert!(
                    !matches!(seat.outcome, Outcome::Disqualified(_)),
                    "{} seed {seed}: {:?} {:?}",
                    dir.display(),
                    seat.outcome,
                    seat.detail
                );
            }
            assert!(
                matches!(
                    record.log.last().map(|e| &e.event),
                    Some(Event::GameOver { .. })
                ),
                "{} seed {seed}",
                dir.display()
            );
        }
    }
}

//! Every invalid action yields its disqualification label, never changes the
//! hidden state, and the game goes on with the engine answering for the seat.

use crate::common;

use clue_engine::{Fault, GameConfig, GameRecord, Outcome, SeatController, play};
use clue_plugin_api::{
    Accusation, AccusePoint, Card, DqReason, Event, Position, Reply, Request, Seat, Suggestion,
    Variant,
};
use common::Scripted;

type Script = Box<dyn FnMut(usize, &Request) -> Option<Result<Reply, Fault>>>;

/// Plays `config` with seat 0 scripted and built-in bots elsewhere.
fn play_with(config: &GameConfig, seed: u64, script: Script) -> GameRecord {
    let mut bots: Vec<Box<dyn SeatController>> = vec![Box::new(Scripted::new(script))];
    bots.extend(common::builtins(clue_engine::acting_seats(config) - 1));
    play(config, seed, &mut bots).expect("valid config")
}

/// Asserts seat 0 was disqualified with `reason`, the game finished, and the
/// deal is the one an honest game with the same seed has.
fn check(config: &GameConfig, seed: u64, script: Script, reason: DqReason) -> GameRecord {
    let record = play_with(config, seed, script);
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(reason),
        "{} seed {seed}: detail {:?}",
        config.variant,
        record.seats[0].detail
    );
    assert!(
        record.seats[0]
            .detail
            .as_ref()
            .is_some_and(|d| !d.is_empty())
    );
    let honest = common::play_builtins(config, seed);
    assert_eq!(record.envelope, honest.envelope, "hidden state changed");
    assert_eq!(record.hands, honest.hands, "hidden state changed");
    assert!(matches!(
        record.log.last().map(|e| &e.event),
        Some(Event::GameOver { .. })
    ));
    let dq_events = record
        .log
        .iter()
        .filter(|e| matches!(e.event, Event::Disqualified { seat: Seat(0), .. }))
        .count();
    assert_eq!(dq_events, 1, "one disqualification event");
    record
}

fn speedclue() -> GameConfig {
    GameConfig::new(Variant::Speedclue, 4)
}

fn on_suggest(reply: Reply) -> Script {
    Box::new(move |_, r| matches!(r, Request::Suggest(_)).then(|| Ok(reply.clone())))
}

fn suggestion(cards: &[u16]) -> Reply {
    Reply::Suggest {
        suggestion: Some(Suggestion {
            cards: cards.iter().map(|&c| Card(c)).collect(),
            target: None,
        }),
    }
}

#[test]
fn malformed_suggestions_are_invalid_suggestions() {
    for seed in 0..20 {
        check(
            &speedclue(),
            seed,
            on_suggest(suggestion(&[0, 6])),
            DqReason::InvalidSuggestion,
        );
        check(
            &speedclue(),
            seed,
            on_suggest(suggestion(&[6, 0, 12])),
            DqReason::InvalidSuggestion,
        );
        check(
            &speedclue(),
            seed,
            on_suggest(suggestion(&[0, 6, 99])),
            DqReason::InvalidSuggestion,
        );
        check(
            &speedclue(),
            seed,
            on_suggest(Reply::Suggest { suggestion: None }),
            DqReason::InvalidSuggestion,
        );
    }
}

#[test]
fn a_uniclue_query_for_another_room_is_invalid() {
    let config = GameConfig::new(Variant::Uniclue, 4);
    let script: Script = Box::new(|_, r| match r {
        Request::Suggest(s) => {
            let room = s.turn.room.expect("uniclue names the room");
            let other = if room == Card(12) { 13 } else { 12 };
            Some(Ok(suggestion(&[0, 6, other])))
        }
        _ => None,
    });
    check(&config, 1, script, DqReason::InvalidSuggestion);
}

#[test]
fn lying_and_showing_cards_not_held_are_invalid_responses() {
    for seed in 0..20 {
        let record = check(
            &speedclue(),
            seed,
            Box::new(|_, r| {
                matches!(r, Request::Respond(_)).then_some(Ok(Reply::Respond { card: None }))
            }),
            DqReason::InvalidResponse,
        );
        // The engine answered truthfully for the seat: the first matching card in hand order.
        let at = record
            .log
            .iter()
            .position(|e| matches!(e.event, Event::Disqualified { seat: Seat(0), .. }))
            .unwrap();
        let suggested = record.log[..at].iter().rev().find_map(|e| match &e.event {
            Event::Suggested { suggestion, .. } => Some(suggestion.cards.clone()),
            _ => None,
        });
        let first_match = record.hands[0]
            .iter()
            .copied()
            .find(|c| suggested.as_ref().is_some_and(|s| s.contains(c)));
        let shown = record.log[at..].iter().find_map(|e| match e.event {
            Event::Answered {
                shown_by: Some(Seat(0)),
                card,
                ..
            } => card,
            _ => None,
        });
        assert_eq!(shown, first_match, "seed {seed}");
        // Showing a card it does not hold.
        check(
            &speedclue(),
            seed,
            Box::new(|_, r| match r {
                Request::Respond(rr) => {
                    let not_matching = (0..21).map(Card).find(|c| !rr.matching.contains(c));
                    Some(Ok(Reply::Respond { card: not_matching }))
                }
                _ => None,
            }),
            DqReason::InvalidResponse,
        );
    }
}

#[test]
fn malformed_accusations_are_invalid_accusations() {
    let script: Script = Box::new(|_, r| {
        matches!(r, Request::Accuse(_)).then(|| {
            Ok(Reply::Accuse {
                accusation: Some(Accusation {
                    cards: vec![Card(0)],
                }),
            })
        })
    });
    check(&speedclue(), 3, script, DqReason::InvalidAccusation);
    let mut g = GameConfig::new(Variant::Generalized, 3);
    g.generalized.items = 20;
    g.generalized.hidden = 2;
    let twice: Script = Box::new(|_, r| {
        matches!(r, Request::Accuse(_)).then(|| {
            Ok(Reply::Accuse {
                accusation: Some(Accusation {
                    cards: vec![Card(1), Card(1)],
                }),
            })
        })
    });
    check(&g, 3, twice, DqReason::InvalidAccusation);
}

#[test]
fn wrong_reply_kinds_are_protocol_errors() {
    let script: Script = Box::new(|_, r| {
        matches!(r, Request::Suggest(_)).then_some(Ok(Reply::Move {
            to: Position::Cell { row: 0, col: 0 },
        }))
    });
    check(&speedclue(), 5, script, DqReason::ProtocolError);
    let not_ok: Script = Box::new(|_, r| {
        matches!(r, Request::Watch { .. }).then_some(Ok(Reply::Respond { card: None }))
    });
    check(&speedclue(), 5, not_ok, DqReason::ProtocolError);
}

#[test]
fn faults_of_the_runtime_keep_their_label() {
    for reason in [
        DqReason::Crash,
        DqReason::Timeout,
        DqReason::OutOfFuel,
        DqReason::OutOfMemory,
    ] {
        let script: Script =
            Box::new(move |n, _| (n == 5).then(|| Err(Fault::new(reason, "boom"))));
        let record = check(&speedclue(), 8, script, reason);
        assert_eq!(record.seats[0].detail.as_deref(), Some("boom"));
    }
}

#[test]
fn speedclue_contest_rules() {
    // The same suggestion twice.
    check(
        &speedclue(),
        2,
        on_suggest(suggestion(&[0, 6, 12])),
        DqReason::RepeatedSuggestion,
    );
    // Accusing a card it holds.
    for seed in 0..10 {
        let hand = common::play_builtins(&speedclue(), seed).hands[0].clone();
        let held = hand[0];
        let script: Script = Box::new(move |_, r| {
            matches!(r, Request::Accuse(_)).then(|| {
                let mut cards = vec![Card(0), Card(6), Card(12)];
                let slot = match held.0 {
                    0..=5 => 0,
                    6..=11 => 1,
                    _ => 2,
                };
                cards[slot] = held;
                Ok(Reply::Accuse {
                    accusation: Some(Accusation { cards }),
                })
            })
        });
        check(&speedclue(), seed, script, DqReason::SuicidalAccusation);
    }
    // Accusing a card another seat showed it: the contest's judge counts it
    // among the cards the accuser has seen, as its hand.
    for seed in 0..10 {
        // The other two cards the envelope's: nobody holds or shows them.
        let envelope = common::play_builtins(&speedclue(), seed).envelope;
        let mut shown: Option<Card> = None;
        let script: Script = Box::new(move |_, r| match r {
            Request::Watch {
                event:
                    Event::Answered {
                        suggester: Seat(0),
                        card: Some(card),
                        ..
                    },
            } => {
                shown.get_or_insert(*card);
                None
            }
            Request::Accuse(_) => {
                let card = shown?;
                let mut cards = envelope.clone();
                cards[usize::from(card.0 / 6).min(2)] = card;
                Some(Ok(Reply::Accuse {
                    accusation: Some(Accusation { cards }),
                }))
            }
            _ => None,
        });
        let record = check(&speedclue(), seed, script, DqReason::SuicidalAccusation);
        let detail = record.seats[0].detail.clone().unwrap_or_default();
        assert!(
            detail.contains("a card seat") && detail.contains("showed it"),
            "seed {seed}: {detail}"
        );
    }
    // Declining the accusation an undisproved suggestion without own cards forces.
    for seed in 0..10 {
        let envelope = common::play_builtins(&speedclue(), seed).envelope;
        let cards: Vec<u16> = envelope.iter().map(|c| c.0).collect();
        let script: Script = Box::new(move |_, r| match r {
            Request::Suggest(_) => Some(Ok(suggestion(&cards))),
            Request::Accuse(a) => {
                assert_eq!(
                    a.point,
                    AccusePoint::Forced,
                    "nobody can disprove the envelope"
                );
                Some(Ok(Reply::Accuse { accusation: None }))
            }
            _ => None,
        });
        check(&speedclue(), seed, script, DqReason::MissedAccusation);
    }
}

#[test]
fn without_contest_rules_repeats_are_allowed() {
    let mut config = speedclue();
    config.speedclue.contest_rules = false;
    let record = play_with(&config, 2, on_suggest(suggestion(&[0, 6, 12])));
    assert!(!matches!(record.seats[0].outcome, Outcome::Disqualified(_)));
}

#[test]
fn uniclue_query_limit() {
    for players in 3..=6 {
        let config = GameConfig::new(Variant::Uniclue, players);
        let script: Script = Box::new(|_, r| match r {
            Request::Accuse(_) => Some(Ok(Reply::Accuse { accusation: None })),
            Request::Suggest(s) => Some(Ok(suggestion(&[0, 6, s.turn.room.unwrap().0]))),
            _ => None,
        });
        let record = check(&config, 4, script, DqReason::QueryLimit);
        assert_eq!(
            record.seats[0].suggestions, 42,
            "42 queries are allowed, the 43rd is not"
        );
    }
}

#[test]
fn a_disqualified_seat_still_shows_its_cards() {
    // Seat 0 crashes at once; its cards must still disprove suggestions.
    let script: Script = Box::new(|_, _| Some(Err(Fault::new(DqReason::Crash, "dead"))));
    let record = check(&speedclue(), 12, script, DqReason::Crash);
    let shown_by_zero = record
        .log
        .iter()
        .filter(|e| {
            matches!(
                e.event,
                Event::Answered {
                    shown_by: Some(Seat(0)),
                    ..
                }
            )
        })
        .count();
    assert!(
        shown_by_zero > 0,
        "the engine answers for a disqualified seat"
    );
}

/// Records the kind of every request, to check their order.
struct Order {
    honest: clue_engine::InProcess<notebook::Notebook>,
    kinds: std::rc::Rc<std::cell::RefCell<Vec<&'static str>>>,
}

impl SeatController for Order {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        self.kinds.borrow_mut().push(request.kind());
        self.honest.call(request)
    }
}

#[test]
fn a_seat_that_fails_to_begin_is_announced_only_after_every_seat_has_begun() {
    // Seat 0 fails its `begin-game`; the later seats must get their own
    // `begin-game` before any event (a wasm bot refuses a `watch` first).
    for variant in [Variant::Speedclue, Variant::Uniclue, Variant::Classic] {
        let config = GameConfig::new(variant, 4);
        let seats = clue_engine::acting_seats(&config);
        let kinds: Vec<_> = (1..seats).map(|_| Default::default()).collect();
        let mut bots: Vec<Box<dyn SeatController>> =
            vec![Box::new(Scripted::new(|_, r: &Request| {
                matches!(r, Request::BeginGame { .. })
                    .then(|| Err(Fault::new(DqReason::Crash, "died at start-up")))
            }))];
        for k in &kinds {
            bots.push(Box::new(Order {
                honest: clue_engine::InProcess(notebook::Notebook::default()),
                kinds: std::rc::Rc::clone(k),
            }));
        }
        let record = play(&config, 3, &mut bots).expect("valid config");
        assert_eq!(
            record.seats[0].outcome,
            Outcome::Disqualified(DqReason::Crash),
            "{variant}"
        );
        for (i, k) in kinds.iter().enumerate() {
            let k = k.borrow();
            assert_eq!(
                k.first(),
                Some(&"begin-game"),
                "{variant}, seat {}: {k:?}",
                i + 1
            );
            assert!(
                !matches!(record.seats[i + 1].outcome, Outcome::Disqualified(_)),
                "{variant}, seat {}: {:?}",
                i + 1,
                record.seats[i + 1].detail
            );
        }
        // The announcement is the game's first event, and every seat saw it.
        let first = &record.log[0];
        assert!(
            matches!(first.event, Event::Disqualified { seat: Seat(0), .. }),
            "{variant}: {:?}",
            first.event
        );
        for k in &kinds {
            assert_eq!(k.borrow().get(1), Some(&"watch"), "{variant}");
        }
    }
}

//! A native plugin that panics costs its seat a `crash` carrying the panic
//! message, in both modes, and the game goes on.

use crate::native_support;

use std::time::Duration;

use clue_engine::{Fault, SeatController};
use clue_plugin_api::*;
use clue_runtime::native::isolated::worker_limits;
use clue_runtime::native::{IsolatedNative, TrustedNative};
use native_support::*;

/// `panicky` panics in the method its seat names: seat % 6 = 0 begin_game,
/// 1 suggest, 2 accuse, 3 watch, 4 respond, 5 move_to.
const METHODS: [(&str, &str); 6] = [
    ("begin_game", "begin-game"),
    ("suggest", "suggest"),
    ("accuse", "accuse"),
    ("watch", "watch"),
    ("respond", "respond"),
    ("move_to", "move"),
];

fn setup(seat: u8) -> Setup {
    let deck = clue_engine::decks::classic();
    Setup {
        variant: Variant::Speedclue,
        rules: Rules::speedclue_contest(),
        players: 6,
        seat: Seat(seat),
        deck,
        hand: vec![Card(0), Card(6), Card(12)],
        hand_sizes: vec![3; 6],
        board: None,
        starts: Vec::new(),
        seed: 1,
    }
}

fn turn() -> Turn {
    Turn {
        seat: Seat(0),
        round: 1,
        roll: None,
        position: None,
        room: None,
    }
}

/// The request that reaches method `index` of `METHODS`.
fn request_for(index: usize) -> Request {
    match index {
        0 => Request::BeginGame {
            setup: Box::new(setup(0)),
        },
        1 => Request::Suggest(SuggestRequest {
            turn: turn(),
            optional: false,
            opponents: Vec::new(),
        }),
        2 => Request::Accuse(AccuseRequest {
            turn: turn(),
            point: AccusePoint::AfterSuggestion,
        }),
        3 => Request::Watch {
            event: Event::TurnBegan {
                seat: Seat(0),
                round: 1,
                roll: None,
                room: None,
            },
        },
        4 => Request::Respond(RespondRequest {
            suggester: Seat(0),
            suggestion: Suggestion {
                cards: vec![Card(0), Card(6), Card(12)],
                target: None,
            },
            matching: vec![Card(6)],
        }),
        _ => Request::Move(MoveRequest {
            turn: turn(),
            targets: vec![Position::Cell { row: 0, col: 0 }],
        }),
    }
}

/// Seats a `panicky` player for seat `index` and asks it the one request
/// that panics; returns the fault.
fn panic_in(bot: &mut dyn SeatController, index: usize) -> Fault {
    if index != 0 {
        let begun = bot.call(&Request::BeginGame {
            setup: Box::new(setup(index as u8)),
        });
        assert_eq!(begun, Ok(Reply::Ok), "seat {index} begins quietly");
    }
    bot.call(&request_for(index))
        .expect_err("panicky panics here")
}

fn check(fault: &Fault, index: usize) {
    let (method, kind) = METHODS[index];
    assert_eq!(fault.reason, DqReason::Crash, "{fault}");
    assert!(
        fault
            .detail
            .contains(&format!("panicked in `{kind}`: panicky: {method}")),
        "{method}: {fault}"
    );
}

#[test]
fn a_panic_in_each_method_is_a_crash_with_its_message_trusted() {
    for index in 0..METHODS.len() {
        let mut bot = TrustedNative::load(&plugin("panicky"), Duration::from_secs(10))
            .expect("panicky loads");
        let fault = panic_in(&mut bot, index);
        check(&fault, index);
        // The seat stays failed: asked again, it repeats the fault.
        assert_eq!(bot.call(&request_for(3)), Err(fault));
    }
}

#[test]
fn a_panic_in_each_method_is_a_crash_with_its_message_isolated() {
    for index in 0..METHODS.len() {
        let mut bot = IsolatedNative::spawn_with(clue(), &plugin("panicky"), &worker_limits())
            .expect("the worker starts");
        let fault = panic_in(&mut bot, index);
        check(&fault, index);
        assert!(fault.detail.contains("exited with status 101"), "{fault}");
    }
}

#[test]
fn the_game_goes_on_after_panics_in_both_modes() {
    // Seats 0-3 panic in begin_game, suggest, accuse and watch; the last two
    // are built-in bots and finish the game.
    let config = speedclue(6);
    let path = plugin("panicky");
    let trusted = |_| -> Box<dyn SeatController> {
        Box::new(TrustedNative::load(&path, Duration::from_secs(10)).expect("loads"))
    };
    let isolated = |_| -> Box<dyn SeatController> {
        Box::new(IsolatedNative::spawn_with(clue(), &path, &worker_limits()).expect("starts"))
    };
    for make in [
        &trusted as &dyn Fn(usize) -> Box<dyn SeatController>,
        &isolated,
    ] {
        let mut seats: Vec<Box<dyn SeatController>> = (0..4).map(make).collect();
        seats.push(clue_runtime::bots::builtin("notebook").expect("built-in"));
        seats.push(clue_runtime::bots::builtin("clueless").expect("built-in"));
        let record = play(&config, 7, seats);
        for (index, (method, kind)) in METHODS.iter().take(4).enumerate() {
            let (reason, detail) = dq(&record, index).expect("disqualified");
            assert_eq!(reason, DqReason::Crash);
            assert!(
                detail.contains(&format!("panicked in `{kind}`: panicky: {method}")),
                "seat {index}: {detail}"
            );
        }
        assert!(
            record.rounds > 1,
            "the built-in bots played on ({} rounds)",
            record.rounds
        );
        assert!(dq(&record, 4).is_none() && dq(&record, 5).is_none());
    }
}

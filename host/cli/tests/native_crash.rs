//! An isolated native plugin that segfaults, aborts, overflows its stack or
//! exits costs its seat a `crash`, and the game goes on; no worker outlives
//! its game.

mod native_support;

use clue_engine::SeatController;
use clue_plugin_api::DqReason;
use clue_runtime::native::IsolatedNative;
use clue_runtime::native::isolated::worker_limits;
use native_support::*;

#[test]
fn segfault_abort_stack_overflow_and_exit_are_crashes_and_the_game_goes_on() {
    // `crashy` ends its process on its first suggestion: seat 0 segfaults,
    // 1 aborts, 2 overflows its stack, 3 exits with status 3.
    let path = plugin("crashy");
    let mut seats: Vec<Box<dyn SeatController>> = (0..4)
        .map(|_| {
            Box::new(IsolatedNative::spawn_with(clue(), &path, &worker_limits()).expect("starts"))
                as Box<dyn SeatController>
        })
        .collect();
    seats.push(clue_runtime::bots::builtin("notebook").expect("built-in"));
    seats.push(clue_runtime::bots::builtin("clueless").expect("built-in"));
    let record = play(&speedclue(6), 3, seats);
    let expected = [
        "killed by signal 11",
        "killed by signal 6",
        "overflowed its stack",
        "exited with status 3",
    ];
    for (seat, words) in expected.iter().enumerate() {
        let (reason, detail) = dq(&record, seat).expect("disqualified");
        assert_eq!(reason, DqReason::Crash, "seat {seat}: {detail}");
        assert!(detail.contains(words), "seat {seat}: {detail}");
    }
    assert!(record.rounds > 1, "the game went on");
    assert!(dq(&record, 4).is_none() && dq(&record, 5).is_none());
    // Every worker was killed and reaped with its seat.
    let workers: Vec<_> = children()
        .into_iter()
        .filter(|(_, cmd)| cmd.contains("worker native"))
        .collect();
    assert!(
        workers.is_empty(),
        "workers outlived their game: {workers:?}"
    );
}

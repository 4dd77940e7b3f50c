//! No worker process outlives its game: after games of isolated native bots,
//! the test process has no children left (alive or zombie). The only test in
//! its binary, so no other test's workers are counted.

mod native_support;

use clue_arena::game;
use clue_runtime::bots::BotSpec;
use native_support::*;

#[test]
fn no_worker_outlives_its_game() {
    let notebook = format!("native:{}", plugin("notebook").display());
    let crashy = format!("native:{}", plugin("crashy").display());
    let panicky = format!("native:{}", plugin("panicky").display());
    let specs: Vec<BotSpec> = [&notebook, &crashy, &panicky, &notebook, "builtin:clueless"]
        .iter()
        .map(|s| s.parse().expect("a spec"))
        .collect();
    let config = speedclue(5);
    for seed in 1..=3 {
        let record = game::play_game(&config, seed, &specs).expect("the game runs");
        assert!(record.rounds >= 1);
        let left = children();
        assert!(left.is_empty(), "after game {seed}: {left:?}");
    }
}

//! The bundled baseline bots, `notebook` and `clueless`, play legally where
//! the rules make a turn's choice hard: a suggestion a `framework` room
//! requires after every one of that room was made, and a UniClue client's
//! last query.

use clue_engine::{GameConfig, InProcess, Outcome, SeatController, play};
use clue_plugin_api::Variant;

/// On a large `framework` board `notebook` stays in a room whose card may be
/// the envelope's and suggests there turn after turn; once it has made every
/// suggestion of that room, the turn (which requires one) gets a repeat, not
/// a refusal that disqualifies it (`invalid-move`), as it did before.
#[test]
fn notebook_always_suggests_where_the_framework_requires_it() {
    let mut config = GameConfig::new(Variant::Framework, 3);
    config.framework.width = 100;
    for seed in 1..=4u64 {
        let mut bots: Vec<Box<dyn SeatController>> = (0..3)
            .map(|_| Box::new(InProcess(notebook::Notebook::default())) as Box<dyn SeatController>)
            .collect();
        let record = play(&config, seed, &mut bots).expect("valid");
        for seat in &record.seats {
            assert!(
                !matches!(seat.outcome, Outcome::Disqualified(_)),
                "seed {seed}: seat {} disqualified: {:?}",
                seat.seat.index(),
                seat.detail
            );
        }
    }
}

/// A UniClue client that has made its 42 queries guesses rather than query
/// again, which is a disqualification (`query-limit`): `clueless`, which
/// learns slowly, reached the limit in most 3-player deals and was
/// disqualified there.
#[test]
fn a_baseline_client_out_of_queries_guesses() {
    let (mut guessed, mut games) = (0, 0);
    for players in 3..=6u8 {
        let config = GameConfig::new(Variant::Uniclue, players);
        for seed in 1..=25u64 {
            for clueless in [true, false] {
                let bot: Box<dyn SeatController> = if clueless {
                    Box::new(InProcess(clueless::Clueless::default()))
                } else {
                    Box::new(InProcess(notebook::Notebook::default()))
                };
                let record = play(&config, seed, &mut [bot]).expect("valid");
                let client = &record.seats[0];
                assert!(
                    !matches!(client.outcome, Outcome::Disqualified(_)),
                    "{players} players, seed {seed}, clueless {clueless}: {:?} {:?}",
                    client.outcome,
                    client.detail
                );
                guessed += usize::from(client.suggestions == 42);
                games += 1;
            }
        }
    }
    // The guess is what the test is about: some clients must reach it.
    assert!(
        guessed > 10,
        "only {guessed} of {games} clients used every query"
    );
}

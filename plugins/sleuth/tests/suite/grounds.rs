//! `sleuth` says why it made each accusation (`Sleuth::last_grounds`), so
//! `clue bench strength` can count a wrong one it was certain of apart from
//! a guess on the odds.

use crate::common;

use clue_engine::GameConfig;
use clue_plugin_api::Variant;
use common::{Opponents, game};
use sleuth::Grounds;

/// Over `games` games against `opponents`: (certain and right, certain and
/// wrong, on the odds and right, on the odds and wrong).
fn grounds(config: &GameConfig, games: u64, opponents: Opponents) -> [u32; 4] {
    let mut counts = [0; 4];
    for seed in 0..games {
        let (record, spy) = game(config, seed, seed as usize, opponents);
        assert_eq!(spy.grounds.len(), spy.accusations.len());
        let mut envelope = record.envelope.clone();
        envelope.sort();
        for ((accusation, _), grounds) in spy.accusations.iter().zip(&spy.grounds) {
            let mut cards = accusation.cards.clone();
            cards.sort();
            let right = cards == envelope;
            let index = match grounds {
                Some(Grounds::Certain) => usize::from(!right),
                Some(Grounds::Odds) => 2 + usize::from(!right),
                None => panic!("seed {seed}: an accusation without grounds"),
            };
            counts[index] += 1;
        }
    }
    counts
}

/// Against other `sleuth`s (exact counters, the field the race is for),
/// over `games` games of `config`: every certain accusation right, and
/// some on the odds.
fn races_against_sleuths(config: &GameConfig, games: u64) {
    let [right, wrong, odds_right, odds_wrong] = grounds(config, games, Opponents::Sleuth);
    let variant = config.variant;
    assert!(
        right > 5,
        "{variant}: {right} certain accusations in {games} games"
    );
    assert_eq!(wrong, 0, "{variant}: wrong certain accusations");
    assert!(
        odds_right + odds_wrong > 0,
        "{variant}: no race in {games} games against sleuths"
    );
}

/// In Speed Clue sleuth accuses on the odds only in the race (an opponent
/// all but sure to be certain first); every other accusation is certain,
/// and right. Against other `sleuth`s it races.
#[test]
fn speed_clue_accusations_are_certain_but_the_race() {
    let config = GameConfig::new(Variant::Speedclue, 4);
    let [right, wrong, ..] = grounds(&config, 40, Opponents::Notebook);
    assert!(right > 5, "{right} certain accusations in 40 games");
    assert_eq!(wrong, 0);
    races_against_sleuths(&config, 40);
}

/// On the `framework` grid sleuth races as in Speed Clue.
#[test]
fn framework_accusations_are_certain_but_the_race() {
    races_against_sleuths(&GameConfig::new(Variant::Framework, 4), 80);
}

/// On the classic and CyberClue boards the race did not pay
/// (docs/strength.md), so there every accusation is certain, even against
/// other `sleuth`s.
#[test]
fn classic_and_cyberclue_accusations_are_all_certain() {
    for variant in [Variant::Classic, Variant::Cyberclue] {
        let config = GameConfig::new(variant, 4);
        let [right, wrong, odds_right, odds_wrong] = grounds(&config, 30, Opponents::Sleuth);
        assert!(
            right > 2,
            "{variant}: {right} certain accusations in 30 games"
        );
        assert_eq!(
            (wrong, odds_right, odds_wrong),
            (0, 0, 0),
            "{variant}: wrong certain, right and wrong bets"
        );
    }
}

/// In `generalized` sleuth guesses before it is certain when an opponent is
/// about to know: those guesses are on the odds, and some are wrong.
#[test]
fn generalized_guesses_are_on_the_odds() {
    let [_, wrong, odds_right, odds_wrong] = grounds(
        &GameConfig::new(Variant::Generalized, 3),
        40,
        Opponents::Notebook,
    );
    assert_eq!(wrong, 0);
    assert!(
        odds_right > 0 && odds_wrong > 0,
        "{odds_right} right, {odds_wrong} wrong"
    );
}

/// The race takes every opponent for an exact counter. Once the opponents'
/// questions mark them as a weak field (`clueless` asks at random) sleuth
/// no longer bets on the odds in Speed Clue.
#[test]
fn speed_clue_races_no_weak_field() {
    let config = GameConfig::new(Variant::Speedclue, 4);
    let mut judged_weak = 0;
    for seed in 0..40 {
        let (_, spy) = game(&config, seed, seed as usize, Opponents::Clueless);
        for (grounds, weak) in spy.grounds.iter().zip(&spy.weak_field) {
            if *weak == Some(true) {
                judged_weak += 1;
                assert_ne!(
                    *grounds,
                    Some(Grounds::Odds),
                    "seed {seed}: a race against a field it took for weak"
                );
            }
        }
    }
    assert!(
        judged_weak > 20,
        "{judged_weak} accusations in 40 games made with the field judged weak"
    );
}

//! A sweep plays the schedule once per setting; the report has each setting and the total.

use std::sync::atomic::AtomicBool;

use clue_arena::config;
use clue_arena::runner::{self, RunOptions, SpecConnector};
use clue_arena::schedule::schedule;
use clue_arena::stats;
use clue_arena::store::Store;

const FILE: &str = "variant: generalized
options: {max_rounds: 40}
seed: 3
concurrency: 2
schedule: {kind: random, games: 6}
sweep:
  - {players: 3, items: 20, hidden: 2}
  - {players: 2, items: 21, hidden: 3}
bots:
  - {name: notebook, kind: builtin, path: notebook}
  - {name: clueless, kind: builtin, path: clueless}
  - {name: notebook-2, kind: builtin, path: notebook}
";

#[test]
fn each_setting_is_played_and_reported_and_the_total_adds_up() {
    let t = config::parse(FILE, "sweep.yaml", ".".as_ref()).unwrap();
    let labels: Vec<&str> = t.settings.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        ["players=3 items=20 hidden=2", "players=2 items=21 hidden=3"]
    );
    let games = schedule(&t);
    assert_eq!(games.len(), 12);
    assert!(
        games[..6]
            .iter()
            .all(|g| g.setting == 0 && g.seats.len() == 3)
    );
    assert!(
        games[6..]
            .iter()
            .all(|g| g.setting == 1 && g.seats.len() == 2)
    );
    // The schedule is a pure function of the file.
    assert_eq!(
        games,
        schedule(&config::parse(FILE, "again", ".".as_ref()).unwrap())
    );

    let scratch = tempfile::tempdir().expect("a scratch directory");
    let db = scratch.path().join("tournament.sqlite");
    let mut store = Store::open(&db).unwrap();
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        stop: &stop,
        watch: &runner::Unwatched,
        standings_every: None,
    };
    let summary = runner::run(&t, &mut store, &SpecConnector, &options).unwrap();
    assert_eq!(summary.played, 12);
    let meta = store.require_meta().unwrap();
    let report = stats::compute(&meta.bots, &meta.settings, &store.games().unwrap());
    assert_eq!(report.settings.len(), 2);
    assert_eq!(
        report.settings[0].games + report.settings[1].games,
        report.total.games
    );
    for bot in &meta.bots {
        let games = |s: &stats::SettingReport| {
            s.standings
                .iter()
                .find(|x| &x.bot == bot)
                .map_or(0, |x| x.games)
        };
        assert_eq!(
            games(&report.settings[0]) + games(&report.settings[1]),
            games(&report.total)
        );
    }
    // A second run finds nothing left to play.
    let again = runner::run(&t, &mut store, &SpecConnector, &options).unwrap();
    assert_eq!((again.already, again.played), (12, 0));
}

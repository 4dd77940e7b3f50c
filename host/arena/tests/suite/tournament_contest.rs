//! The 2014 Speed Clue contest's tournament format (`schedule: {kind:
//! speedclue-contest, games: G}`) and its count of wins beside ours.
//!
//! Matched against the contest's own code in `sadakatsu/SpeedClueContest`:
//! `tournament.md` and `core/code/com/sadakatsu/clue/contestserver/ContestServer.java`
//! (for each player count 3..=min(6, entrants), each combination
//! (`util/Combinations.java`), each seat order (`util/Permutations.java`),
//! `gamesPerPermutation` games; `cleanUp` counts only games without a
//! disqualified player, and prints a disqualified player's reason instead).

use crate::config_support;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use clue_arena::config::{self, ScheduleKind};
use clue_arena::report::{self, Format};
use clue_arena::runner::{self, RunOptions, SpecConnector};
use clue_arena::schedule::schedule;
use clue_arena::stats::{self, ContestCount, ContestOutcome};
use clue_arena::store::{GameRow, SeatRow, Store};
use config_support::check;

fn bots(n: usize) -> String {
    let mut out = String::from("bots:\n");
    for i in 0..n {
        let path = ["notebook", "clueless", "sleuth"][i % 3];
        out.push_str(&format!(
            "  - {{name: b{i}, kind: builtin, path: {path}}}\n"
        ));
    }
    out
}

fn contest_file(games: u32, n: usize) -> String {
    format!(
        "variant: speedclue\nseed: 4\nconcurrency: 2\nschedule: {{kind: speedclue-contest, games: {games}}}\n{}",
        bots(n)
    )
}

fn parse(text: &str) -> config::Tournament {
    config::parse(text, "contest.yaml", Path::new(".")).expect("a valid file")
}

#[test]
fn every_player_count_combination_and_seat_order_g_games_each() {
    let t = parse(&contest_file(2, 4));
    assert_eq!(t.schedule, ScheduleKind::SpeedclueContest { games: 2 });
    let labels: Vec<&str> = t.settings.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["players=3", "players=4"]);
    let games = schedule(&t);
    // 3 players: C(4,3) = 4 combinations x 3! orders x 2; 4 players: 1 x 4! x 2.
    assert_eq!(games.len(), 4 * 6 * 2 + 24 * 2);
    let tables: Vec<&[usize]> = games.iter().map(|g| g.seats.as_slice()).collect();
    // The contest's order: combination, then seat order, then its G games.
    assert_eq!(
        &tables[..8],
        [
            &[0, 1, 2][..],
            &[0, 1, 2],
            &[0, 2, 1],
            &[0, 2, 1],
            &[1, 0, 2],
            &[1, 0, 2],
            &[1, 2, 0],
            &[1, 2, 0]
        ]
    );
    assert_eq!(tables[12], [0, 1, 3]);
    assert_eq!(tables[48], [0, 1, 2, 3]);
    assert_eq!(tables[95], [3, 2, 1, 0]);
    for (setting, players) in [(0usize, 3usize), (1, 4)] {
        let mine: Vec<&[usize]> = games
            .iter()
            .filter(|g| g.setting == setting)
            .map(|g| g.seats.as_slice())
            .collect();
        assert!(mine.iter().all(|s| s.len() == players));
        // Each seat order exactly G times, each game its own seed.
        for table in &mine {
            assert_eq!(mine.iter().filter(|t| t == &table).count(), 2);
        }
    }
    let mut seeds: Vec<u64> = games.iter().map(|g| g.seed).collect();
    seeds.sort();
    seeds.dedup();
    assert_eq!(seeds.len(), games.len());

    // Seven entrants: 3 to 6 players (`min(6, number of entries)`).
    let t = parse(&contest_file(1, 7));
    let labels: Vec<&str> = t.settings.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["players=3", "players=4", "players=5", "players=6"]);
    // sum over k of C(7,k) * k!
    assert_eq!(schedule(&t).len(), 35 * 6 + 35 * 24 + 21 * 120 + 7 * 720);
}

#[test]
fn a_contest_schedule_with_players_or_too_few_bots_is_refused_where_written() {
    check(
        &format!(
            "variant: speedclue\nplayers: 4\nschedule: {{kind: speedclue-contest, games: 3}}\n{}",
            bots(4)
        ),
        2,
        10,
        "the `speedclue-contest` schedule plays every player count from 3 to min(6, bots) itself: leave `players` out",
    );
    check(
        &format!(
            "variant: speedclue\nschedule: {{kind: speedclue-contest}}\nsweep:\n  - {{contest_rules: true}}\n  - {{players: 5}}\n{}",
            bots(4)
        ),
        5,
        15,
        "the `speedclue-contest` schedule plays every player count from 3 to min(6, bots) itself: leave `players` out",
    );
    check(
        &format!(
            "variant: speedclue\nschedule: {{kind: speedclue-contest, games: 3}}\n{}",
            bots(2)
        ),
        4,
        3,
        "the `speedclue-contest` schedule needs at least 3 bots, but only 2 are listed",
    );
    check(
        &format!(
            "variant: speedclue\nschedule: {{kind: speedclue-contest, games: 0}}\n{}",
            bots(3)
        ),
        2,
        44,
        "`games` must be at least 1",
    );
    // A variant that cannot seat every count of the contest's format.
    check(
        &format!(
            "variant: cyberclue\nschedule: {{kind: speedclue-contest}}\n{}",
            bots(3)
        ),
        2,
        18,
        "cyberclue is played by 2, 4 or 5 players, not 3",
    );
}

#[test]
fn a_sweep_is_played_at_every_player_count() {
    let t = parse(&format!(
        "variant: speedclue\nschedule: {{kind: speedclue-contest}}\nsweep:\n  - {{contest_rules: true}}\n  - {{contest_rules: false}}\n{}",
        bots(4)
    ));
    let labels: Vec<&str> = t.settings.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "players=3 contest_rules=true",
            "players=4 contest_rules=true",
            "players=3 contest_rules=false",
            "players=4 contest_rules=false",
        ]
    );
    assert_eq!(schedule(&t).len(), 2 * (24 + 24));
}

fn seat(seat: u8, bot: &str, dq: Option<&str>) -> SeatRow {
    SeatRow {
        seat,
        bot: Some(bot.into()),
        outcome: if dq.is_some() { "disqualified" } else { "lost" }.into(),
        dq_reason: dq.map(Into::into),
        detail: None,
        rank: 1,
        turns: 3,
        calls: 10,
        wall_ns: 1000,
        max_call_ns: 100,
        fuel: None,
        max_call_fuel: None,
    }
}

/// | game | seats   | winner | note                  |
/// | ---- | ------- | ------ | --------------------- |
/// | 0    | A B C   | A      |                       |
/// | 1    | A B D   | B      |                       |
/// | 2    | B C D   | C      | D out on `crash`      |
/// | 3    | A B C   | C      |                       |
/// | 4    | A B C   | none   |                       |
/// | 5    | D A B   | A      | D out on `timeout`    |
fn games() -> Vec<GameRow> {
    let game = |index: u64, winner: Option<u8>, seats: Vec<SeatRow>| GameRow {
        index,
        setting: 0,
        seed: index,
        variant: "speedclue".into(),
        winner,
        rounds: 4,
        seats,
    };
    let abc = || vec![seat(0, "A", None), seat(1, "B", None), seat(2, "C", None)];
    vec![
        game(0, Some(0), abc()),
        game(
            1,
            Some(1),
            vec![seat(0, "A", None), seat(1, "B", None), seat(2, "D", None)],
        ),
        game(
            2,
            Some(1),
            vec![
                seat(0, "B", None),
                seat(1, "C", None),
                seat(2, "D", Some("crash")),
            ],
        ),
        game(3, Some(2), abc()),
        game(4, None, abc()),
        game(
            5,
            Some(1),
            vec![
                seat(0, "D", Some("timeout")),
                seat(1, "A", None),
                seat(2, "B", None),
            ],
        ),
    ]
}

#[test]
fn the_contest_count_drops_disqualified_bots_and_every_game_they_sat_in() {
    let names = ["A", "B", "C", "D"].map(String::from).to_vec();
    let report = stats::compute(&names, &["default".into()], &games());
    let counted = |bot: &str, games, wins, contest_games, contest_wins| ContestCount {
        bot: bot.into(),
        games,
        wins,
        contest: ContestOutcome::Counted {
            games: contest_games,
            wins: contest_wins,
        },
    };
    assert_eq!(
        report.contest,
        [
            // Ours: games 0, 1, 3, 4, 5 (won 0, 5); the contest's: 0, 3, 4 (won 0).
            counted("A", 5, 2, 3, 1),
            counted("B", 6, 1, 3, 0),
            counted("C", 4, 2, 3, 1),
            ContestCount {
                bot: "D".into(),
                games: 3,
                wins: 0,
                contest: ContestOutcome::Disqualified {
                    reason: "crash".into(),
                    game: 2,
                },
            },
        ]
    );
    let table = report::render(&report, Format::Table);
    assert!(
        table.contains("the 2014 Speed Clue contest's count"),
        "{table}"
    );
    assert!(table.contains("disqualified - crash (game 2)"), "{table}");
    let json = report::render(&report, Format::Json);
    assert!(
        json.contains("\"outcome\": \"disqualified\"") && json.contains("\"outcome\": \"counted\""),
        "{json}"
    );
}

/// The contest counted Speed Clue games only: a report of another variant
/// has no such section, and a bot is in it only with a `speedclue` game.
#[test]
fn the_contest_count_is_of_speedclue_games_alone() {
    let names = ["A", "B", "C", "D"].map(String::from).to_vec();
    let mut csci306 = games();
    for game in &mut csci306 {
        game.variant = "csci306".into();
    }
    let report = stats::compute(&names, &["default".into()], &csci306);
    assert_eq!(report.contest, []);
    assert_eq!(report.total.games, 6, "the games themselves still count");
    for format in [Format::Table, Format::Markdown] {
        let text = report::render(&report, format);
        assert!(!text.contains("contest"), "{text}");
    }
    // Only game 2 (B, C and D, D out on `crash`) is Speed Clue: A played
    // none, and B and C count no game because D sat in it.
    let mut one = csci306;
    one[2].variant = "speedclue".into();
    let report = stats::compute(&names, &["default".into()], &one);
    let bots: Vec<&str> = report.contest.iter().map(|c| c.bot.as_str()).collect();
    assert_eq!(bots, ["B", "C", "D"]);
    assert_eq!(
        report.contest[0].contest,
        ContestOutcome::Counted { games: 0, wins: 0 }
    );
    assert_eq!((report.contest[1].games, report.contest[1].wins), (1, 1));
    assert_eq!(
        report.contest[2].contest,
        ContestOutcome::Disqualified {
            reason: "crash".into(),
            game: 2
        }
    );
    let table = report::render(&report, Format::Table);
    assert!(
        table.contains("the 2014 Speed Clue contest's count"),
        "{table}"
    );
}

/// A whole contest-format tournament, played: with no disqualification the
/// contest's count is ours, game for game.
#[test]
fn a_contest_format_tournament_plays_and_counts_as_the_contest_did() {
    let t = parse(&contest_file(1, 4));
    let scratch = tempfile::tempdir().expect("a scratch directory");
    let mut store = Store::open(&scratch.path().join("contest.sqlite")).unwrap();
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        stop: &stop,
        watch: &runner::Unwatched,
        standings_every: None,
    };
    let summary = runner::run(&t, &mut store, &SpecConnector, &options).unwrap();
    assert_eq!(summary.played, 4 * 6 + 24);
    let meta = store.require_meta().unwrap();
    assert_eq!(meta.settings, ["players=3", "players=4"]);
    let report = stats::compute(&meta.bots, &meta.settings, &store.games().unwrap());
    assert_eq!(report.settings[0].games, 24);
    assert_eq!(report.settings[1].games, 24);
    for c in &report.contest {
        // 3 players: each bot sits in 3 of the 4 combinations, 6 orders each.
        assert_eq!(c.games, 3 * 6 + 24, "{c:?}");
        assert_eq!(
            c.contest,
            ContestOutcome::Counted {
                games: c.games,
                wins: c.wins
            },
            "{c:?}"
        );
    }
}

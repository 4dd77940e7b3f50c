//! One set of store tests, run against both stores: SQLite (a file) and
//! PostgreSQL (a real server this test starts, see `pg_support`). The same
//! tournament gives the same rows, logs, live games and errors in both.

use crate::pg_support;

use std::path::Path;
use std::sync::atomic::AtomicBool;

use clue_arena::config;
use clue_arena::report::{self, Format};
use clue_arena::runner::{self, RunOptions, SpecConnector};
use clue_arena::stats;
use clue_arena::store::{GameRow, LiveBatch, Store, StoreError};

use pg_support::Postgres;

const FILE: &str = "variant: generalized
players: 3
seed: 11
concurrency: 2
options: {max_rounds: 40}
schedule: {kind: random, games: 8}
bots:
  - {name: notebook, kind: builtin, path: notebook}
  - {name: clueless, kind: builtin, path: clueless}
  - {name: notebook-2, kind: builtin, path: notebook}
";

/// Both stores, fresh: a SQLite file and a new database on `pg`.
fn stores(scratch: &Path, pg: &Postgres) -> Vec<(String, Store)> {
    let file = scratch.join("t.sqlite");
    let url = pg.database();
    vec![
        (
            "sqlite".into(),
            Store::open(&file).expect("the SQLite store opens"),
        ),
        (
            "postgres".into(),
            Store::open(Path::new(&url)).expect("the PostgreSQL store opens"),
        ),
    ]
}

fn play(text: &str, store: &mut Store) -> runner::RunSummary {
    let t = config::parse(text, "t.yaml", ".".as_ref()).unwrap();
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        stop: &stop,
        watch: &runner::Unwatched,
        standings_every: None,
    };
    runner::run(&t, store, &SpecConnector, &options).expect("the tournament runs")
}

/// The rows without what depends on the machine's speed.
fn untimed(mut games: Vec<GameRow>) -> Vec<GameRow> {
    for g in &mut games {
        for s in &mut g.seats {
            s.wall_ns = 0;
            s.max_call_ns = 0;
        }
    }
    games
}

#[test]
fn one_tournament_gives_the_same_rows_logs_and_report_in_both_stores() {
    let scratch = tempfile::tempdir().unwrap();
    let pg = Postgres::start();
    let mut seen = Vec::new();
    for (name, mut store) in stores(scratch.path(), &pg) {
        let summary = play(FILE, &mut store);
        assert_eq!((summary.scheduled, summary.played), (8, 8), "{name}");
        // A second run finds everything stored and plays nothing.
        assert_eq!(play(FILE, &mut store).played, 0, "{name}");
        let meta = store.require_meta().unwrap();
        let games = untimed(store.games().unwrap());
        assert_eq!(games.len(), 8, "{name}");
        assert!(games.iter().all(|g| g.seats.len() == 3), "{name}");
        let logs: Vec<String> = (0..8)
            .map(|i| {
                let mut text = Vec::new();
                store.log(i).unwrap().write_to(&mut text).unwrap();
                String::from_utf8(text).unwrap()
            })
            .collect();
        let report = report::render(
            &stats::compute(&meta.bots, &meta.settings, &games),
            Format::Json,
        );
        assert_eq!(store.done().unwrap(), (0..8).collect(), "{name}");
        let missing = store.log(99).expect_err("no game 99");
        assert!(
            matches!(missing, StoreError::NoGame { index: 99, .. }),
            "{name}: {missing}"
        );
        assert!(
            missing
                .to_string()
                .ends_with(": no game 99 in the store: its tournament's games are 0 to 7"),
            "{name}: {missing}"
        );
        seen.push((name, meta, games, logs, report));
    }
    let (sqlite, postgres) = (&seen[0], &seen[1]);
    assert_eq!(sqlite.1, postgres.1, "the same tournament metadata");
    assert_eq!(sqlite.2, postgres.2, "the same games and seats");
    assert_eq!(sqlite.3, postgres.3, "the same game logs");
    assert_eq!(sqlite.4, postgres.4, "the same report");
}

#[test]
fn both_stores_refuse_a_different_tournament_file() {
    let scratch = tempfile::tempdir().unwrap();
    let pg = Postgres::start();
    for (name, mut store) in stores(scratch.path(), &pg) {
        play(FILE, &mut store);
        let other = FILE.replace("seed: 11", "seed: 12");
        let t = config::parse(&other, "t.yaml", ".".as_ref()).unwrap();
        let err = store.bind(&t).expect_err("another file is refused");
        assert!(matches!(err, StoreError::Different { .. }), "{name}: {err}");
        assert!(
            err.to_string().contains("different tournament file"),
            "{name}: {err}"
        );
        assert_eq!(store.done().unwrap().len(), 8, "{name}: nothing changed");
    }
}

#[test]
fn both_stores_keep_live_games_until_the_game_is_stored() {
    let scratch = tempfile::tempdir().unwrap();
    let pg = Postgres::start();
    for (name, mut store) in stores(scratch.path(), &pg) {
        play(FILE, &mut store);
        let log = store.log(3).unwrap();
        assert!(log.entries.len() > 4, "{name}: a game of some length");
        assert!(store.live_games().unwrap().is_empty(), "{name}");
        // Game 100 in play: its first events, then the rest (one repeated).
        let first = LiveBatch {
            index: 100,
            header: &log.header,
            from: 0,
            entries: &log.entries[..3],
        };
        store.live_write(&[first]).unwrap();
        let rest = LiveBatch {
            index: 100,
            header: &log.header,
            from: 2,
            entries: &log.entries[2..],
        };
        store.live_write(&[rest]).unwrap();
        let live = store.live_games().unwrap();
        assert_eq!(live.len(), 1, "{name}");
        assert_eq!(
            (live[0].index, live[0].events),
            (100, log.entries.len() as u64),
            "{name}"
        );
        let again = store.live_log(100).unwrap().expect("game 100 is live");
        assert_eq!(again.header, log.header, "{name}");
        assert_eq!(again.entries, log.entries, "{name}");
        assert!(store.live_log(3).unwrap().is_none(), "{name}: 3 is stored");
        store.live_clear().unwrap();
        assert!(store.live_games().unwrap().is_empty(), "{name}");
        assert!(store.live_log(100).unwrap().is_none(), "{name}");
    }
}

/// What opening `url` says; it must fail.
fn refusal(url: &str) -> String {
    match Store::open(Path::new(url)) {
        Ok(_) => panic!("{url} should not open"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_bad_url_an_unreachable_server_or_a_refused_login_is_one_line_naming_the_store() {
    let pg = Postgres::start();
    let bad = refusal("postgres://clue@127.0.0.1:notaport/db");
    assert!(
        bad.starts_with("postgres://clue@127.0.0.1:notaport/db: "),
        "{bad}"
    );
    assert!(bad.contains("not a PostgreSQL URL"), "{bad}");

    // A port nothing listens on.
    let (_refusing, port) = pg_support::refusing_port();
    let url = format!("postgres://clue:secret@127.0.0.1:{port}/db");
    let unreachable = refusal(&url);
    assert!(
        unreachable.starts_with(&format!("postgres://clue@127.0.0.1:{port}/db: ")),
        "the store is named, without its password: {unreachable}"
    );
    assert!(
        unreachable.contains("refused") || unreachable.contains("connect"),
        "{unreachable}"
    );

    let url = format!("postgres://clue:wrong@127.0.0.1:{}/postgres", pg.port);
    let login = refusal(&url);
    assert!(login.contains("password authentication failed"), "{login}");
    assert!(
        !login.contains("wrong"),
        "no password in the message: {login}"
    );

    let url = format!("postgres://clue:x@127.0.0.1:{}/no_such_db", pg.port);
    let missing = refusal(&url);
    assert!(missing.contains("no_such_db"), "{missing}");

    for message in [bad, unreachable, login, missing] {
        assert!(!message.contains('\n'), "one line: {message}");
    }
}

#[test]
fn a_store_of_another_schema_version_is_refused_with_both_versions_named() {
    let pg = Postgres::start();
    let url = pg.database();
    drop(Store::open(Path::new(&url)).expect("a new store opens"));
    let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    client
        .batch_execute("UPDATE schema_version SET version = 7")
        .unwrap();
    let refused = refusal(&url);
    assert!(
        refused.contains("schema version 7") && refused.contains("version 2 only"),
        "{refused}"
    );

    // SQLite: the same check on its `format`.
    let scratch = tempfile::tempdir().unwrap();
    let file = scratch.path().join("t.sqlite");
    let mut store = Store::open(&file).unwrap();
    play(FILE, &mut store);
    drop(store);
    let conn = rusqlite::Connection::open(&file).unwrap();
    conn.execute("UPDATE meta SET value = '7' WHERE key = 'format'", [])
        .unwrap();
    drop(conn);
    let refused = refusal(file.to_str().unwrap());
    assert!(
        refused.contains("schema version 7") && refused.contains("version 2 only"),
        "{refused}"
    );
}

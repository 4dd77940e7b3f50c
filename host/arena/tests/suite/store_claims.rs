//! The schedule in the store and its claims, against both stores (SQLite
//! and a real PostgreSQL server, see `pg_support`): a claim is a lease, an
//! expired lease is claimed again, a result is stored only by the claim that
//! still stands and never twice, and a worker whose files differ from the
//! coordinator's is refused before it claims anything.

use crate::pg_support;

use std::path::Path;
use std::time::Duration;

use clue_arena::config::{self, Tournament};
use clue_arena::runner::{self, SpecConnector};
use clue_arena::store::{Store, StoreError};

use pg_support::Postgres;

const FILE: &str = "variant: generalized
players: 3
seed: 5
options: {max_rounds: 30}
schedule: {kind: random, games: 6}
bots:
  - {name: notebook, kind: builtin, path: notebook}
  - {name: clueless, kind: builtin, path: clueless}
  - {name: notebook-2, kind: builtin, path: notebook}
";

/// Both stores, fresh.
fn stores(scratch: &Path, pg: &Postgres) -> Vec<(&'static str, Store)> {
    let url = pg.database();
    vec![
        ("sqlite", Store::open(&scratch.join("t.sqlite")).unwrap()),
        ("postgres", Store::open(Path::new(&url)).unwrap()),
    ]
}

fn tournament(text: &str) -> Tournament {
    config::parse(text, "t.yaml", ".".as_ref()).unwrap()
}

#[test]
fn claims_are_leases_an_expired_one_is_claimed_again_and_only_the_standing_claim_stores() {
    let scratch = tempfile::tempdir().unwrap();
    let pg = Postgres::start();
    let t = tournament(FILE);
    for (name, mut store) in stores(scratch.path(), &pg) {
        store.bind(&t).unwrap();
        assert_eq!(store.write_schedule(&t).unwrap(), 6, "{name}");
        // Written twice, the schedule is the same.
        assert_eq!(store.write_schedule(&t).unwrap(), 6, "{name}");
        store.register("a", "host-a").unwrap();
        store.register("b", "host-b").unwrap();
        let long = Duration::from_secs(60);

        let a = store.claim("a", 2, long).unwrap();
        let a_games: Vec<u64> = a.iter().map(|c| c.game.index).collect();
        assert_eq!(a_games, vec![0, 1], "{name}: lowest index first");
        assert_eq!(a[0].game, clue_arena::schedule::schedule(&t)[0], "{name}");
        // B cannot have A's games while A's lease stands.
        let b = store.claim("b", 10, long).unwrap();
        let b_games: Vec<u64> = b.iter().map(|c| c.game.index).collect();
        assert_eq!(b_games, vec![2, 3, 4, 5], "{name}");
        assert!(store.claim("b", 10, long).unwrap().is_empty(), "{name}");
        let p = store.progress().unwrap();
        assert_eq!((p.scheduled, p.done, p.in_play), (6, 0, 6), "{name}");

        // A's lease on game 1 runs out (no heartbeat): B claims it again.
        let short = store.claim("c", 1, Duration::from_millis(1)).unwrap();
        assert!(short.is_empty(), "{name}: everything is leased");
        store.heartbeat("a", &[0], long).unwrap();
        store
            .heartbeat("a", &[1], Duration::from_millis(1))
            .unwrap();
        std::thread::sleep(Duration::from_millis(50));
        let again = store.claim("b", 10, long).unwrap();
        assert_eq!(again.len(), 1, "{name}");
        assert_eq!(
            (again[0].game.index, again[0].lease.claims),
            (1, 2),
            "{name}"
        );

        // A finishes game 1 late: its claim no longer stands, nothing is stored.
        let played = runner::play_one(&t, &a[1].game, &SpecConnector).unwrap();
        assert!(!store.insert(&played, &t, &a[1].lease).unwrap(), "{name}");
        assert!(store.done().unwrap().is_empty(), "{name}");
        // B's claim stores it, once.
        assert!(
            store.insert(&played, &t, &again[0].lease).unwrap(),
            "{name}"
        );
        let twice = store.insert(&played, &t, &again[0].lease);
        assert!(
            matches!(twice, Ok(false) | Err(_)),
            "{name}: a game is never stored twice: {twice:?}"
        );
        assert_eq!(store.done().unwrap(), [1].into(), "{name}");
        assert_eq!(store.games().unwrap().len(), 1, "{name}");

        // A gives game 0 back: it is claimable at once.
        store.release("a", &[0]).unwrap();
        let back = store.claim("b", 10, long).unwrap();
        assert_eq!(back.len(), 1, "{name}");
        assert_eq!(back[0].game.index, 0, "{name}");
        let p = store.progress().unwrap();
        assert_eq!((p.done, p.in_play), (1, 5), "{name}");
        let b_row = p.workers.iter().find(|w| w.id == "b").expect("worker b");
        assert_eq!((b_row.host.as_str(), b_row.stored), ("host-b", 1), "{name}");
    }
}

#[test]
fn a_run_stores_every_game_once_and_leaves_nothing_claimed() {
    let scratch = tempfile::tempdir().unwrap();
    let pg = Postgres::start();
    let t = tournament(FILE);
    for (name, mut store) in stores(scratch.path(), &pg) {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let options = runner::RunOptions {
            stop: &stop,
            watch: &runner::Unwatched,
            standings_every: None,
        };
        let summary = runner::run(&t, &mut store, &SpecConnector, &options).unwrap();
        assert_eq!((summary.played, summary.stopped), (6, false), "{name}");
        let p = store.progress().unwrap();
        assert_eq!((p.scheduled, p.done, p.in_play), (6, 6, 0), "{name}");
        assert!(
            store
                .claim("late", 5, Duration::from_secs(5))
                .unwrap()
                .is_empty()
        );
        // A coordinator that plays nothing (concurrency 0) only waits: here
        // everything is done, so it returns at once.
        let mut watcher = runner::WorkerOptions::new(0);
        watcher.id = "watcher".into();
        let again = runner::work(&t, &mut store, &SpecConnector, &options, &watcher).unwrap();
        assert_eq!((again.already, again.played), (6, 0), "{name}");
    }
}

/// A tournament folder with a process bot whose script is a file.
fn folder(dir: &Path) -> std::path::PathBuf {
    let file = dir.join("t.yaml");
    std::fs::write(
        &file,
        "variant: generalized
players: 2
schedule: {kind: random, games: 4}
bots:
  - {name: script, kind: jsonl, command: python3 bot.py}
  - {name: notebook, kind: builtin, path: notebook}
",
    )
    .unwrap();
    std::fs::write(dir.join("bot.py"), "# the coordinator's bot\n").unwrap();
    file
}

#[test]
fn a_worker_with_a_different_bot_file_or_tournament_file_is_refused_before_it_claims() {
    let scratch = tempfile::tempdir().unwrap();
    let pg = Postgres::start();
    let file = folder(scratch.path());
    let t = config::load(&file).unwrap();
    for (name, mut store) in stores(scratch.path(), &pg) {
        std::fs::write(scratch.path().join("bot.py"), "# the coordinator's bot\n").unwrap();
        let err = store.check_worker(&t).expect_err("no tournament yet");
        assert!(matches!(err, StoreError::Empty { .. }), "{name}: {err}");
        store.bind(&t).unwrap();
        let err = store.check_worker(&t).expect_err("no schedule yet");
        assert!(
            err.to_string().contains("schedule is not written yet"),
            "{name}: {err}"
        );
        store.write_schedule(&t).unwrap();
        store.check_worker(&t).expect("the same files are accepted");

        // The worker's machine has another bot.py.
        std::fs::write(scratch.path().join("bot.py"), "# edited\n").unwrap();
        let here = config::load(&file).unwrap();
        let err = store
            .check_worker(&here)
            .expect_err("another bot file")
            .to_string();
        assert!(
            err.starts_with(store.name()) && err.contains("bot `script`: bot.py differs"),
            "{name}: {err}"
        );
        assert!(err.contains("sha256"), "{name}: {err}");
        assert!(!err.contains('\n'), "{name}: one line: {err}");

        // Or lacks it.
        std::fs::remove_file(scratch.path().join("bot.py")).unwrap();
        let err = store
            .check_worker(&here)
            .expect_err("no bot file")
            .to_string();
        assert!(err.contains("bot.py is not found here"), "{name}: {err}");

        // A copy of the file with its own comments and `concurrency` (this
        // machine's cores) is the same tournament.
        std::fs::write(scratch.path().join("bot.py"), "# the coordinator's bot\n").unwrap();
        let copy = config::parse(
            &format!(
                "# the copy on worker 3\nconcurrency: 16\n{}",
                t.source.replace("\n", "   # as the coordinator has it\n")
            ),
            "copy.yaml",
            scratch.path(),
        )
        .unwrap();
        assert_eq!(copy.concurrency, 16);
        store
            .check_worker(&copy)
            .expect("a copy edited in comments and concurrency");

        // Another tournament file is not.
        let other = config::parse(
            &t.source.replace("games: 4", "games: 5"),
            "other.yaml",
            scratch.path(),
        )
        .unwrap();
        let err = store
            .check_worker(&other)
            .expect_err("another file")
            .to_string();
        assert!(
            err.contains("other.yaml is not the tournament file this store was started with"),
            "{name}: {err}"
        );
        // Nothing was claimed.
        assert_eq!(store.progress().unwrap().in_play, 0, "{name}");
    }
}

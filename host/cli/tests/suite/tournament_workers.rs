//! Tournaments across many processes on one real PostgreSQL (a server the
//! test starts, see `pg_support`): a coordinator (`clue tournament run
//! --db postgres://...`, which plays too) and three `clue tournament worker`
//! processes, one of them killed with SIGKILL five times at moments drawn
//! from a seeded generator and restarted each time. The results equal those
//! of the same file run on one machine with SQLite, and every game is stored
//! exactly once. And the refusals: a worker with another bot file, a wrong
//! URL, a refused login, an unreachable server, another schema version.

use crate::pg_support;
use crate::tournament_support;
use crate::web_support;

use std::path::Path;
use std::process::{Child, Command, Output};
use std::time::{Duration, Instant};

use pg_support::Postgres;
use rand::{RngExt, SeedableRng};
use tournament_support::{clue, reference_run, results};

const FILE: &str = "variant: speedclue
players: 3
seed: 91
concurrency: 1
schedule:
  kind: all-seatings
  repeats: 10
bots:
  - {name: notebook, kind: builtin, path: notebook}
  - {name: clueless, kind: builtin, path: clueless}
  - {name: notebook-2, kind: builtin, path: notebook}
  - {name: clueless-2, kind: builtin, path: clueless}
";

/// The seed of the kill moments; printed, so a failure can be replayed.
const KILL_SEED: u64 = 0x6b69_6c6c;

fn output(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(args)
        .output()
        .expect("clue runs")
}

fn worker(url: &str, id: &str) -> Child {
    clue(&[
        "tournament",
        "worker",
        "--db",
        url,
        "--quiet",
        "--lease",
        "2",
        "--id",
        id,
    ])
    .spawn()
    .expect("a worker starts")
}

/// `clue tournament report --format csv` without the timing columns.
fn report(db: &Path) -> Vec<String> {
    let out = output(&[
        "tournament",
        "report",
        "--db",
        db.to_str().unwrap(),
        "--format",
        "csv",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split(',').take(12).collect::<Vec<_>>().join(","))
        .collect()
}

fn wait_for(child: &mut Child, what: &str, guard: Instant) {
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{what} failed: {status}");
            return;
        }
        assert!(Instant::now() < guard, "hang guard: {what} did not end");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_coordinator_and_three_workers_one_killed_five_times_equal_one_machine() {
    let d = tempfile::tempdir().unwrap();
    let (file, reference, expected) = reference_run(d.path(), FILE);
    let file_s = file.to_str().unwrap();
    let total = expected.0.len();
    assert_eq!(total, 4 * 6 * 10);

    let pg = Postgres::start();
    let url = pg.database();
    let mut sql = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let guard = Instant::now() + Duration::from_secs(900);
    let mut coordinator = clue(&[
        "tournament",
        "run",
        file_s,
        "--db",
        &url,
        "--quiet",
        "--lease",
        "2",
        "--id",
        "coordinator",
    ])
    .spawn()
    .unwrap();
    // Workers join once the schedule is written.
    loop {
        let written = sql
            .query_opt("SELECT value FROM meta WHERE key = 'scheduled'", &[])
            .ok()
            .flatten()
            .is_some();
        if written {
            break;
        }
        assert!(Instant::now() < guard, "hang guard: no schedule");
        std::thread::sleep(Duration::from_millis(20));
    }
    let mut steady = [worker(&url, "w1"), worker(&url, "w2")];
    let mut victim = worker(&url, "w3");

    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(KILL_SEED);
    eprintln!("kill moments from seed {KILL_SEED:#x}");
    let mut kills = 0;
    while kills < 5 {
        // Once the victim holds a game, a random moment later.
        loop {
            let holding: i64 = sql
                .query_one(
                    "SELECT COUNT(*) FROM schedule WHERE worker = 'w3' AND NOT done
                     AND lease_until IS NOT NULL",
                    &[],
                )
                .unwrap()
                .get(0);
            if holding > 0 {
                break;
            }
            assert!(
                victim.try_wait().unwrap().is_none(),
                "the tournament ended after {kills} kills: make it longer"
            );
            assert!(Instant::now() < guard, "hang guard: w3 never claims");
            std::thread::sleep(Duration::from_millis(5));
        }
        let moment = Duration::from_millis(rng.random_range(0..400));
        std::thread::sleep(moment);
        assert!(
            victim.try_wait().unwrap().is_none(),
            "the tournament ended after {kills} kills: make it longer"
        );
        // SIGKILL: no chance to give its games back.
        victim.kill().unwrap();
        victim.wait().unwrap();
        kills += 1;
        eprintln!("kill {kills} after {moment:?}");
        victim = worker(&url, "w3");
    }
    wait_for(&mut coordinator, "the coordinator", guard);
    for (i, w) in steady.iter_mut().enumerate() {
        wait_for(w, &format!("worker w{}", i + 1), guard);
    }
    wait_for(&mut victim, "worker w3 (last start)", guard);

    // Every game exactly once, and the victim's games were played again.
    let mut count = |query: &str| -> i64 { sql.query_one(query, &[]).unwrap().get(0) };
    assert_eq!(count("SELECT COUNT(*) FROM games"), total as i64);
    assert_eq!(count("SELECT COUNT(DISTINCT idx) FROM games"), total as i64);
    assert_eq!(count("SELECT COUNT(*) FROM seats"), 3 * total as i64);
    assert_eq!(count("SELECT COUNT(*) FROM schedule WHERE NOT done"), 0);
    let again = count("SELECT COUNT(*) FROM schedule WHERE claims > 1");
    assert!(again >= 1, "some game of a killed worker was claimed again");
    assert_eq!(count("SELECT COUNT(*) FROM live_games"), 0);
    let by: Vec<(String, i64)> = sql
        .query(
            "SELECT worker, COUNT(*) FROM schedule GROUP BY worker ORDER BY worker",
            &[],
        )
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    eprintln!("games stored by worker: {by:?}; {again} claimed more than once");
    assert!(by.len() >= 3, "the games were shared: {by:?}");

    let got = results(Path::new(&url));
    assert_eq!(got.0.len(), total);
    for (a, b) in got.0.iter().zip(&expected.0) {
        assert_eq!(a, b, "game {} differs", a.index);
    }
    assert_eq!(got.1, expected.1, "the same game logs");
    assert_eq!(report(Path::new(&url)), report(&reference));

    // Watching reads the same server: `clue serve --db postgres://...` lists
    // every stored game and serves each one's log.
    let server = web_support::Server::start(Some(Path::new(&url)));
    let (status, list) = server.get("/api/replays?page=0");
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["total"].as_u64(), Some(total as u64), "{list}");
    let first = list["games"][0]["index"].as_u64().expect("a stored game");
    let (status, game) = server.get(&format!("/api/replays/{first}"));
    assert_eq!(status, 200, "{game}");
    assert_eq!(
        game["seed"].as_str().map(str::to_string),
        expected
            .0
            .iter()
            .find(|g| g.index == first)
            .map(|g| g.seed.to_string()),
        "the game's seed, as text: {game}"
    );
}

/// The one line `clue` printed on stderr for a refusal (exit code 2).
fn refusal(args: &[&str]) -> String {
    let out = output(args);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    stderr.trim_end().to_string()
}

#[test]
fn a_worker_is_refused_with_one_line_for_another_bot_file_a_bad_store_or_another_schema() {
    let pg = Postgres::start();
    let d = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bot = std::fs::read_to_string(root.join("plugins/python-example/bot.py")).unwrap();
    let text = "variant: generalized
players: 2
schedule: {kind: random, games: 2}
bots:
  - {name: script, kind: jsonl, command: python3 bot.py}
  - {name: notebook, kind: builtin, path: notebook}
";
    // The coordinator's folder, and a worker machine's copy of it.
    let (here, there) = (d.path().join("here"), d.path().join("there"));
    for dir in [&here, &there] {
        std::fs::create_dir(dir).unwrap();
        std::fs::write(dir.join("t.yaml"), text).unwrap();
        std::fs::write(dir.join("bot.py"), &bot).unwrap();
    }
    let url = pg.database();
    let out = output(&[
        "tournament",
        "run",
        here.join("t.yaml").to_str().unwrap(),
        "--db",
        &url,
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // The same files elsewhere are accepted (nothing is left to play).
    let there_file = there.join("t.yaml");
    let ok = output(&[
        "tournament",
        "worker",
        "--db",
        &url,
        "--file",
        there_file.to_str().unwrap(),
        "--quiet",
    ]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );

    // Another bot.py: refused before it registers, claims or plays.
    std::fs::write(there.join("bot.py"), format!("{bot}\n# edited\n")).unwrap();
    let line = refusal(&[
        "tournament",
        "worker",
        "--db",
        &url,
        "--file",
        there_file.to_str().unwrap(),
        "--id",
        "edited",
    ]);
    let shown = url.replace(":arena-test@", "@");
    assert!(
        line.starts_with(&format!("error: {shown}: bot `script`: bot.py differs")),
        "{line}"
    );
    let mut sql = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let seen: i64 = sql
        .query_one("SELECT COUNT(*) FROM workers WHERE id = 'edited'", &[])
        .unwrap()
        .get(0);
    assert_eq!(seen, 0, "the refused worker never joined");

    // A refused login, an unreachable server, a URL that is not one.
    let wrong = format!("postgres://clue:wrong@127.0.0.1:{}/postgres", pg.port);
    let line = refusal(&["tournament", "worker", "--db", &wrong]);
    assert!(line.contains("password authentication failed"), "{line}");
    assert!(!line.contains("wrong"), "no password: {line}");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .unwrap()
        .port();
    let line = refusal(&[
        "tournament",
        "worker",
        "--db",
        &format!("postgres://clue:x@127.0.0.1:{port}/db?connect_timeout=5"),
    ]);
    assert!(
        line.starts_with(&format!("error: postgres://clue@127.0.0.1:{port}/db")),
        "{line}"
    );
    let line = refusal(&[
        "tournament",
        "worker",
        "--db",
        "postgres://clue@host:port:x/db",
    ]);
    assert!(line.contains("not a PostgreSQL URL"), "{line}");

    // A store of a later schema: both versions named.
    sql.batch_execute("INSERT INTO schema_version (version) VALUES (9)")
        .unwrap();
    let line = refusal(&["tournament", "worker", "--db", &url]);
    assert!(
        line.contains("schema version 9") && line.contains("version 2 only"),
        "{line}"
    );
}

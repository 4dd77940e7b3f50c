//! Tournaments across many processes on one real PostgreSQL (a server the
//! test starts, see `pg_support`): a coordinator (`clue tournament run
//! --db postgres://...`, which plays too) and three `clue tournament worker`
//! processes, one of them killed with SIGKILL five times at moments drawn
//! from a seeded generator and restarted each time, while the coordinator is
//! stopped (SIGSTOP) as a stalled machine would be. The results equal those
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

/// Looks every `every` until `look` gives a value; a hang guard only, at
/// `guard`, naming what never came.
fn until<T>(guard: Instant, what: &str, every: u64, mut look: impl FnMut() -> Option<T>) -> T {
    loop {
        if let Some(found) = look() {
            return found;
        }
        assert!(Instant::now() < guard, "hang guard: {what}");
        std::thread::sleep(Duration::from_millis(every));
    }
}

fn wait_for(child: &mut Child, what: &str, guard: Instant) {
    let status = until(guard, &format!("{what} did not end"), 20, || {
        child.try_wait().unwrap()
    });
    assert!(status.success(), "{what} failed: {status}");
}

/// A child process that is killed when the test ends, even by a panic, so a
/// stopped coordinator or a worker is not left behind.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        if self.0.try_wait().ok().flatten().is_none() {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
}

fn signal(child: &Reaped, sig: libc::c_int) {
    // SAFETY: `kill(2)` on the pid of a child not yet waited for, which
    // therefore names no other process.
    let rc = unsafe { libc::kill(child.0.id() as libc::pid_t, sig) };
    assert_eq!(rc, 0, "signal {sig}: {}", std::io::Error::last_os_error());
}

/// Waits until no other session of the server is running a statement
/// (sessions waiting on a lock held elsewhere excepted: they change nothing
/// until it is released), so what a stopped process sent before it stopped,
/// such as a commit, has taken effect.
fn settle(sql: &mut postgres::Client, guard: Instant) {
    until(guard, "a statement never ends", 2, || {
        let busy: i64 = sql
            .query_one(
                "SELECT COUNT(*) FROM pg_stat_activity
                 WHERE state = 'active' AND backend_type = 'client backend'
                   AND pid <> pg_backend_pid() AND datname = current_database()
                   AND wait_event_type IS DISTINCT FROM 'Lock'",
                &[],
            )
            .unwrap()
            .get(0);
        (busy == 0).then_some(())
    });
}

/// Whether another session of the server is inside a transaction.
fn in_transaction(sql: &mut postgres::Client) -> bool {
    let open: i64 = sql
        .query_one(
            "SELECT COUNT(*) FROM pg_stat_activity
             WHERE state LIKE 'idle in transaction%'
               AND pid <> pg_backend_pid() AND datname = current_database()",
            &[],
        )
        .unwrap()
        .get(0);
    open > 0
}

/// The games (index, claim count) the worker `who` holds: leased to it, not
/// done, and not held by an earlier life of it (`orphaned`).
fn holding(sql: &mut postgres::Client, who: &str, orphaned: &[(i64, i64)]) -> Vec<(i64, i64)> {
    sql.query(
        "SELECT idx, claims FROM schedule
         WHERE worker = $1 AND NOT done AND lease_until IS NOT NULL ORDER BY idx",
        &[&who],
    )
    .unwrap()
    .iter()
    .map(|r| (r.get(0), r.get(1)))
    .filter(|held| !orphaned.contains(held))
    .collect()
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
    let mut coordinator = Reaped(
        clue(&[
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
        .unwrap(),
    );
    // Workers join once the schedule is written.
    until(guard, "no schedule", 20, || {
        sql.query_opt("SELECT value FROM meta WHERE key = 'scheduled'", &[])
            .ok()
            .flatten()
    });
    // While w3 is killed, it is the only one that plays: the coordinator is
    // stopped (SIGSTOP, as a machine that stalls), and the other workers
    // start after the last kill. So the tournament cannot end before the
    // fifth kill, however fast or slow this machine is. The coordinator is
    // stopped while it holds a game and is not inside a transaction (a row
    // it locked would stay locked): the game's lease expires, w3 claims it
    // again, and what the coordinator finishes late must be refused.
    let stalled = until(guard, "the coordinator holds nothing", 1, || {
        signal(&coordinator, libc::SIGSTOP);
        settle(&mut sql, guard);
        let held = holding(&mut sql, "coordinator", &[]);
        if !held.is_empty() && !in_transaction(&mut sql) {
            return Some(held);
        }
        signal(&coordinator, libc::SIGCONT);
        if let Some(status) = coordinator.0.try_wait().unwrap() {
            panic!("the coordinator ended before it was stopped: {status}");
        }
        None
    });
    eprintln!("the coordinator stopped holding {stalled:?}");
    let mut victim = Reaped(worker(&url, "w3"));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(KILL_SEED);
    eprintln!("kill moments from seed {KILL_SEED:#x}");
    // The games (index, claim count) w3's earlier lives held when killed:
    // their leases still name w3 until they expire.
    let mut orphaned: Vec<(i64, i64)> = Vec::new();
    let stored = |sql: &mut postgres::Client| -> i64 {
        sql.query_one("SELECT COUNT(*) FROM games", &[])
            .unwrap()
            .get(0)
    };
    let mut kills = 0;
    while kills < 5 {
        // A moment drawn from the generator: once the store holds 1 to 3
        // games more than when this life of w3 started, while it holds one.
        let target = stored(&mut sql) + rng.random_range(1..=3);
        let pause = Duration::from_millis(rng.random_range(0..30));
        let held = until(guard, "w3 stores nothing", 5, || {
            if let Some(status) = victim.0.try_wait().unwrap() {
                panic!("w3 ended on its own after {kills} kills: {status}");
            }
            if stored(&mut sql) < target {
                return None;
            }
            std::thread::sleep(pause);
            // Stopped first, so what it holds cannot change under the look.
            signal(&victim, libc::SIGSTOP);
            settle(&mut sql, guard);
            let held = holding(&mut sql, "w3", &orphaned);
            if held.is_empty() {
                // Between a stored game and its next claim: look again.
                signal(&victim, libc::SIGCONT);
                return None;
            }
            Some(held)
        });
        // SIGKILL: no chance to give its games back.
        victim.0.kill().unwrap();
        victim.0.wait().unwrap();
        kills += 1;
        eprintln!("kill {kills} holding {held:?} with {target}+ games stored");
        orphaned.extend(held);
        if kills < 5 {
            victim = Reaped(worker(&url, "w3"));
        }
    }
    let left: i64 = sql
        .query_one("SELECT COUNT(*) FROM schedule WHERE NOT done", &[])
        .unwrap()
        .get(0);
    eprintln!("{left} games left after the kills");
    // Nobody plays until the stopped coordinator's leases have expired on
    // the server's clock; then w3's last start claims the lowest games first,
    // the coordinator's among them, before the coordinator goes on.
    let stalled_idx: Vec<i64> = stalled.iter().map(|&(idx, _)| idx).collect();
    until(guard, "a lease never expires", 20, || {
        let leased: i64 = sql
            .query_one(
                "SELECT COUNT(*) FROM schedule WHERE idx = ANY($1)
                 AND lease_until >= (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT",
                &[&stalled_idx],
            )
            .unwrap()
            .get(0);
        (leased == 0).then_some(())
    });
    victim = Reaped(worker(&url, "w3"));
    for &(idx, claims) in &stalled {
        until(
            guard,
            &format!("game {idx} is not claimed again"),
            5,
            || {
                let now: i64 = sql
                    .query_one("SELECT claims FROM schedule WHERE idx = $1", &[&idx])
                    .unwrap()
                    .get(0);
                if now > claims {
                    return Some(());
                }
                if let Some(status) = victim.0.try_wait().unwrap() {
                    panic!("w3 ended before it claimed game {idx} again: {status}");
                }
                None
            },
        );
    }
    signal(&coordinator, libc::SIGCONT);
    let mut steady = [Reaped(worker(&url, "w1")), Reaped(worker(&url, "w2"))];
    wait_for(&mut coordinator.0, "the coordinator", guard);
    for (i, w) in steady.iter_mut().enumerate() {
        wait_for(&mut w.0, &format!("worker w{}", i + 1), guard);
    }
    wait_for(&mut victim.0, "worker w3 (last start)", guard);

    // Every game exactly once (the stopped coordinator's game was claimed
    // again before it went on, so what it finished late was refused), and
    // the games w3 held when killed were played again.
    let mut count = |query: &str| -> i64 { sql.query_one(query, &[]).unwrap().get(0) };
    assert_eq!(count("SELECT COUNT(*) FROM games"), total as i64);
    assert_eq!(count("SELECT COUNT(DISTINCT idx) FROM games"), total as i64);
    assert_eq!(count("SELECT COUNT(*) FROM seats"), 3 * total as i64);
    assert_eq!(count("SELECT COUNT(*) FROM schedule WHERE NOT done"), 0);
    let again = count("SELECT COUNT(*) FROM schedule WHERE claims > 1");
    assert_eq!(count("SELECT COUNT(*) FROM live_games"), 0);
    // What w3 held when killed was claimed again (and then stored).
    for &(idx, claims) in &orphaned {
        let now: i64 = sql
            .query_one("SELECT claims FROM schedule WHERE idx = $1", &[&idx])
            .unwrap()
            .get(0);
        assert!(
            now > claims,
            "game {idx}, held by a killed w3, was not claimed again"
        );
    }
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
    let (_refusing, port) = pg_support::refusing_port();
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

//! A tournament killed with SIGKILL at random moments and resumed each time
//! ends with exactly the results of an uninterrupted run.

use crate::tournament_support;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use clue_arena::store::Store;
use tournament_support::{clue, reference_run, results};

const FILE: &str = "variant: speedclue
players: 3
seed: 77
concurrency: 2
schedule:
  kind: all-seatings
  repeats: 20
bots:
  - {name: notebook, kind: builtin, path: notebook}
  - {name: clueless, kind: builtin, path: clueless}
  - {name: notebook-2, kind: builtin, path: notebook}
  - {name: clueless-2, kind: builtin, path: clueless}
";

/// A scratch directory, removed when the guard drops.
fn dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a scratch directory")
}

/// A CSV report's lines without the timing columns, which differ run to
/// run (the first 12 columns end with the call count).
fn without_timings(csv: &str) -> Vec<String> {
    csv.lines()
        .map(|l| l.split(',').take(12).collect::<Vec<_>>().join(","))
        .collect()
}

/// Takes the games `indices` (`"5, 9"`) out of the SQLite store `db`, their
/// claims gone: what a kill leaves.
fn unstore(db: &Path, indices: &str) {
    let conn = rusqlite::Connection::open(db).unwrap();
    conn.execute_batch(&format!(
        "UPDATE schedule SET done = 0, worker = NULL, lease_until = NULL WHERE idx IN ({indices});
         DELETE FROM seats WHERE game IN ({indices});
         DELETE FROM games WHERE idx IN ({indices});"
    ))
    .unwrap();
}

/// A small generator seeded from the clock: the kills land at different moments each run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn killed_and_resumed_equals_uninterrupted() {
    let d = dir();
    let (file, reference, expected) = reference_run(d.path(), FILE);
    let file_s = file.to_str().unwrap();
    assert_eq!(expected.0.len(), 4 * 6 * 20);

    let db = d.path().join("killed.sqlite");
    let db_s = db.to_str().unwrap();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    let mut rng = Lcg(nanos ^ u64::from(std::process::id()));
    let total = expected.0.len() as u64;
    // How many games the store holds (0 before the runner created it).
    let stored = |db: &Path| -> u64 {
        if !db.exists() {
            return 0;
        }
        Store::open(db)
            .ok()
            .and_then(|s| s.done().ok())
            .map_or(0, |done| done.len() as u64)
    };
    // Each run is killed once the store holds a random number of games
    // between what it had and the last one: the kill depends on what the
    // runner has done, not on how fast this machine is. A run that finishes
    // before it is caught (a very fast machine) starts the store over, so
    // the test always sees at least one kill.
    let hang_guard = Instant::now() + Duration::from_secs(600);
    let mut kills = 0;
    let mut attempts = 0;
    while kills < 6 && attempts < 60 {
        attempts += 1;
        let before = stored(&db);
        let started = before > 0
            || Store::open(&db)
                .ok()
                .and_then(|s| s.meta().ok().flatten())
                .is_some();
        let target = before + 1 + rng.below((total - before).saturating_sub(1).max(1));
        let args: Vec<&str> = if started {
            vec!["tournament", "resume", "--db", db_s, "--quiet"]
        } else {
            vec!["tournament", "run", file_s, "--db", db_s, "--quiet"]
        };
        let mut child = clue(&args).spawn().unwrap();
        let finished = loop {
            assert!(
                Instant::now() < hang_guard,
                "hang guard: the runner neither finished nor stored {target} games in 10 minutes"
            );
            if child.try_wait().unwrap().is_some() {
                break true;
            }
            if stored(&db) >= target {
                // SIGKILL on unix: no chance to clean up.
                child.kill().unwrap();
                child.wait().unwrap();
                kills += 1;
                break false;
            }
            // Each look opens the store; looking every millisecond slowed
            // the runner it watches (this test took 62 s to 122 s).
            std::thread::sleep(Duration::from_millis(10));
        };
        if finished {
            if kills > 0 {
                break;
            }
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{db_s}{suffix}"));
            }
        }
    }
    eprintln!("{kills} kills in {attempts} runs");
    assert!(kills >= 1, "the runner was never interrupted");
    let status = clue(&["tournament", "resume", "--db", db_s, "--quiet"])
        .status()
        .unwrap();
    assert!(status.success());
    let got = results(&db);
    assert_eq!(got.0.len(), expected.0.len());
    for (a, b) in got.0.iter().zip(&expected.0) {
        assert_eq!(a, b, "game {} differs", a.index);
    }
    assert_eq!(got.1, expected.1);

    // The report of both stores is the same, to the byte.
    let report = |db: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_clue"))
            .args([
                "tournament",
                "report",
                "--db",
                db.to_str().unwrap(),
                "--format",
                "csv",
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let (r1, r2) = (report(&db), report(&reference));
    assert_eq!(without_timings(&r1), without_timings(&r2));
}

#[test]
fn a_stored_game_replays_and_a_different_file_is_refused() {
    let d = dir();
    let file = d.path().join("t.yaml");
    std::fs::write(&file, FILE.replace("repeats: 20", "repeats: 1")).unwrap();
    let db = d.path().join("r.sqlite");
    let (file_s, db_s) = (file.to_str().unwrap(), db.to_str().unwrap());
    assert!(
        clue(&["tournament", "run", file_s, "--db", db_s, "--quiet"])
            .status()
            .unwrap()
            .success()
    );

    let out = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["replay", "--db", db_s, "--game", "17"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.starts_with("identical"), "{stdout}");

    std::fs::write(&file, FILE.replace("repeats: 20", "repeats: 2")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["tournament", "run", file_s, "--db", db_s])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.contains("holds the results of a different tournament file"),
        "{stderr}"
    );
}

/// A report of a store that holds only part of its schedule (as a kill
/// leaves it) says how much it covers, on stderr, and how to play the rest;
/// once resumed, it says nothing more.
#[test]
fn a_report_of_part_of_the_schedule_says_so() {
    let d = dir();
    let file = d.path().join("t.yaml");
    std::fs::write(&file, FILE.replace("repeats: 20", "repeats: 1")).unwrap();
    let db = d.path().join("r.sqlite");
    let (file_s, db_s) = (file.to_str().unwrap(), db.to_str().unwrap());
    let run = |args: &[&str]| {
        let status = clue(args).status().unwrap();
        assert!(status.success(), "{args:?}: {status}");
    };
    run(&["tournament", "run", file_s, "--db", db_s, "--quiet"]);
    let report = || {
        let out = Command::new(env!("CARGO_BIN_EXE_clue"))
            .args(["tournament", "report", "--db", db_s, "--format", "csv"])
            .output()
            .unwrap();
        assert!(out.status.success());
        let csv = String::from_utf8(out.stdout).unwrap();
        (csv, String::from_utf8(out.stderr).unwrap())
    };
    let (whole, said) = report();
    assert_eq!(said, "", "a whole tournament's report has no note");
    unstore(&db, "5, 9");
    let (part, said) = report();
    assert!(part.starts_with("setting,bot,games,"), "{part}");
    assert_eq!(
        said.trim_end(),
        format!(
            "note: this report covers 22 of the tournament's 24 scheduled games; 2 are not played yet (`clue tournament resume --db {db_s}` plays them)"
        )
    );
    run(&["tournament", "resume", "--db", db_s, "--quiet"]);
    let (again, said) = report();
    assert_eq!(said, "", "resumed, the report has no note");
    assert_eq!(without_timings(&again), without_timings(&whole));
}

/// A resume plays the rest with the bots the stored games were played with:
/// nothing is built again while their files are as they were (a build need
/// not give the same bytes twice), and a bot file that changed is refused
/// by name rather than mixed into the standings.
#[test]
fn a_resume_keeps_the_bots_the_stored_games_were_played_with() {
    use std::os::unix::fs::PermissionsExt;
    let contest = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a folder");
    let at = |name: &str| contest.path().join(name);
    let example = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../plugins/python-example/bot.py"
    );
    let source = std::fs::read_to_string(example).expect("the example bot");
    std::fs::write(at("src.py"), &source).expect("the entrant's source");
    for path in [contest.path().to_path_buf(), at("src.py")] {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    std::fs::write(
        at("t.yaml"),
        "variant: classic
players: 3
schedule: {kind: all-seatings}
bots:
  - {name: sleuth, kind: builtin, path: sleuth}
  - {name: notebook, kind: builtin, path: notebook}
  - name: made
    kind: jsonl
    command: python3 -u made.py
    build: echo built >> builds.log && cp src.py made.py
",
    )
    .expect("the file");
    let (file, db) = (at("t.yaml"), at("t.sqlite"));
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_clue"))
            .args(args)
            .output()
            .expect("clue runs");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.success(), stderr)
    };
    let builds = || std::fs::read_to_string(at("builds.log")).map_or(0, |log| log.lines().count());
    let (file_s, db_s) = (file.to_str().unwrap(), db.to_str().unwrap());
    let (ok, stderr) = run(&["tournament", "run", "--quiet", file_s, "--db", db_s]);
    assert!(ok, "{stderr}");
    assert_eq!(builds(), 1);
    let played = Store::open(&db).unwrap().done().unwrap().len();
    assert_eq!(played, 6, "all seatings of three bots");

    // The files as the games were played with: nothing is built.
    let (ok, stderr) = run(&["tournament", "resume", "--quiet", "--db", db_s]);
    assert!(ok, "{stderr}");
    assert_eq!(builds(), 1, "a resume with the same files builds nothing");

    // The entrant's source changed and its built file is gone: the build
    // runs, and the bot it makes is not the one the games were played with.
    std::fs::write(at("src.py"), format!("{source}\n# edited\n")).expect("an edit");
    std::fs::remove_file(at("made.py")).expect("the built bot removed");
    let (ok, stderr) = run(&["tournament", "resume", "--quiet", "--db", db_s]);
    assert!(!ok, "a changed bot was resumed with");
    assert_eq!(builds(), 2, "its build ran");
    assert!(
        stderr.contains("holds games played with other files: bot `made`: made.py differs from the file the tournament was started with")
            && stderr.contains("start the tournament anew in another store"),
        "{stderr}"
    );
    assert_eq!(Store::open(&db).unwrap().done().unwrap().len(), played);

    // The source put back: the build makes the same bot again, and the
    // resume goes on (with nothing left to play).
    std::fs::write(at("src.py"), &source).expect("the source put back");
    let (ok, stderr) = run(&["tournament", "resume", "--quiet", "--db", db_s]);
    assert!(ok, "{stderr}");
    assert_eq!(builds(), 3);

    // Games played by another engine (the store's record of it edited) and
    // a bot file gone: no build can make this clue the other one, so the
    // resume is refused before any build runs.
    let store = rusqlite::Connection::open(&db).unwrap();
    let recorded: String = store
        .query_row("SELECT value FROM meta WHERE key = 'files'", [], |row| {
            row.get(0)
        })
        .unwrap();
    let edited = recorded.replace(
        clue_runtime::engine_code(),
        "1234567890ab1234567890ab1234567890ab1234567890ab1234567890ab1234",
    );
    assert_ne!(edited, recorded, "the engine's code is recorded");
    store
        .execute("UPDATE meta SET value = ?1 WHERE key = 'files'", [edited])
        .unwrap();
    std::fs::remove_file(at("made.py")).expect("the built bot removed");
    let (ok, stderr) = run(&["tournament", "resume", "--quiet", "--db", db_s]);
    assert!(!ok, "a store of another engine was resumed");
    assert!(
        stderr.contains("holds games played by another clue: the game engine: "),
        "{stderr}"
    );
    assert_eq!(builds(), 3, "nothing was built");
}

/// A store records the code of the built-in bots and of the engine its
/// games were played with: a resume by a `clue` whose built-in bot or
/// engine is another (here, the store's record edited as if another `clue`
/// had started it) is refused by its name, and a store of an earlier
/// `clue`, which recorded none, still resumes.
#[test]
fn a_resume_with_another_built_in_bot_or_engine_is_refused_by_its_name() {
    let d = dir();
    let file = d.path().join("t.yaml");
    std::fs::write(
        &file,
        "variant: speedclue
players: 3
seed: 5
schedule: {kind: all-seatings}
bots:
  - {name: sleuth, kind: builtin, path: sleuth}
  - {name: notebook, kind: builtin, path: notebook}
  - {name: clueless, kind: builtin, path: clueless}
",
    )
    .unwrap();
    let db = d.path().join("r.sqlite");
    let (file_s, db_s) = (file.to_str().unwrap(), db.to_str().unwrap());
    let resume = || {
        let out = Command::new(env!("CARGO_BIN_EXE_clue"))
            .args(["tournament", "resume", "--quiet", "--db", db_s])
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert!(
        clue(&["tournament", "run", file_s, "--db", db_s, "--quiet"])
            .status()
            .unwrap()
            .success()
    );
    let (ok, stderr) = resume();
    assert!(ok, "the same clue resumes: {stderr}");

    let store = rusqlite::Connection::open(&db).unwrap();
    let recorded: String = store
        .query_row("SELECT value FROM meta WHERE key = 'files'", [], |row| {
            row.get(0)
        })
        .unwrap();
    let mut files: Vec<serde_json::Value> = serde_json::from_str(&recorded).unwrap();
    let names: Vec<&str> = files.iter().filter_map(|f| f["path"].as_str()).collect();
    for bot in ["builtin:sleuth", "builtin:notebook", "builtin:clueless"] {
        assert!(names.contains(&bot), "{bot} is recorded: {names:?}");
    }
    let write = |files: &[serde_json::Value]| {
        let text = serde_json::to_string(files).unwrap();
        store
            .execute("UPDATE meta SET value = ?1 WHERE key = 'files'", [text])
            .unwrap();
    };

    // The refusal of a resume after the code recorded as `path` is
    // another.
    let refusal = |files: &mut Vec<serde_json::Value>, path: &str| -> String {
        let entry = files
            .iter_mut()
            .find(|f| f["path"] == path)
            .unwrap_or_else(|| panic!("{path} is recorded"));
        entry["sha256"] = serde_json::Value::from("0".repeat(64));
        write(files);
        let (ok, stderr) = resume();
        assert!(!ok, "resumed with another {path}");
        stderr
    };

    let stderr = refusal(&mut files, "builtin:sleuth");
    assert!(
        stderr.contains(
            "r.sqlite holds games played by another clue: bot `sleuth`: this clue's built-in \
             bot is not the one the tournament was started with (its code's sha256 \
             000000000000 there,"
        ) && stderr.contains(
            "here); finish it with the clue that started it, or start the tournament anew in \
             another store"
        ),
        "{stderr}"
    );

    // A store of a `clue` that recorded no built-in bot's code.
    files.retain(|f| !f["path"].as_str().unwrap_or("").starts_with("builtin:"));
    write(&files);
    let (ok, stderr) = resume();
    assert!(ok, "an earlier clue's store resumes: {stderr}");

    let stderr = refusal(&mut files, "engine:clue-engine");
    assert!(
        stderr.contains(
            "the game engine: this clue does not play the game by the code the tournament was \
             started with (its code's sha256 000000000000 there,"
        ),
        "{stderr}"
    );

    // A store of a `clue` that recorded no engine's code.
    files.retain(|f| f["path"] != "engine:clue-engine");
    write(&files);
    let (ok, stderr) = resume();
    assert!(ok, "an earlier clue's store resumes: {stderr}");
}

/// `run FILE` on a store its file started finishes it when the file was
/// edited since only in comments, layout or `concurrency` (the games played
/// at once): the rest is played, nothing twice. An edit of a setting is
/// still refused, at its line.
#[test]
fn a_file_edited_only_in_comments_or_concurrency_finishes_its_store() {
    let d = dir();
    let file = d.path().join("t.yaml");
    let text = FILE.replace("repeats: 20", "repeats: 1");
    std::fs::write(&file, &text).unwrap();
    let db = d.path().join("r.sqlite");
    let (file_s, db_s) = (file.to_str().unwrap(), db.to_str().unwrap());
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_clue"))
            .args(args)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        (out.status.code(), stderr)
    };
    assert_eq!(
        run(&["tournament", "run", file_s, "--db", db_s, "--quiet"]).0,
        Some(0)
    );
    let whole = results(&db);
    assert_eq!(whole.0.len(), 24);
    unstore(&db, "3, 20");
    let edited = format!(
        "# three at a table, every seating once\n\n{}",
        text.replace("concurrency: 2\n", "concurrency: 1   # one at a time\n")
            .replace("seed: 77\n", "seed: 77 # the contest's\n")
    );
    std::fs::write(&file, &edited).unwrap();
    let (code, stderr) = run(&["tournament", "run", file_s, "--db", db_s, "--quiet"]);
    assert_eq!(code, Some(0), "{stderr}");
    let again = results(&db);
    assert_eq!(again.0.len(), 24, "each game stored once");
    for (a, b) in again.0.iter().zip(&whole.0) {
        assert_eq!(a, b, "game {} differs", a.index);
    }
    assert_eq!(again.1, whole.1);

    std::fs::write(&file, edited.replace("players: 3", "players: 4")).unwrap();
    let (code, stderr) = run(&["tournament", "run", file_s, "--db", db_s, "--quiet"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("holds the results of a different tournament file")
            && stderr.contains("line 4 is `players: 4` here, `players: 3` there"),
        "{stderr}"
    );
}

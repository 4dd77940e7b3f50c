//! The sandbox when the host is not root: a user namespace maps the host's
//! user to itself, so the bot has the host's uid, and its PID namespace's
//! init, a fork of the host, has it too. This file runs the real binary as
//! an unprivileged user (`nobody`, dropped to in the child process when the
//! test runs as root, as in CI; as itself otherwise), with a secret in its
//! command line, and the zoo's `read-host-proc`, `kill-scan` and
//! `read-cgroups` bots: no game may show a bot reading a byte of
//! `/proc/1/cmdline` or `environ`, reaching a process with a signal, or
//! reading another cgroup's memory or CPU count.
//!
//! What stops them, found here: `/proc` is mounted `hidepid=2`, which hides
//! every process the viewer may not `ptrace`, and the bot may not: the init
//! is outside its Landlock domain and holds capabilities (in the user
//! namespace) the bot lost at `exec`. The init's wiping of its copy of the
//! host's command line and environment is a further wall, tested directly
//! in `host/runtime/tests/suite/process_sandbox.rs`
//! (`the_namespaces_init_wipes_its_copy_of_the_hosts_command_line`).

use crate::zoo_support;

use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::process::Command;

use clue_arena::store::Store;
use clue_plugin_api::Event;
use zoo_support::*;

/// The unprivileged user the host runs as when the test runs as root.
const NOBODY: u32 = 65534;

fn euid() -> u32 {
    std::fs::metadata("/proc/self")
        .expect("/proc/self is there")
        .uid()
}

#[test]
fn a_non_root_host_shows_its_bots_no_command_line_and_no_signal_reaches_it() {
    let zoo = built().join("debug/zoo-process");
    let read_proc = format!("{} read-host-proc", zoo.display());
    let kill_scan = format!("{} kill-scan", zoo.display());
    play_as_non_root(&format!(
        "  - {{name: notebook, kind: builtin, path: notebook}}
  - {{name: read-proc, kind: jsonl, command: \"{read_proc}\"}}
  - {{name: kill-scan, kind: jsonl, command: \"{kill_scan}\"}}
"
    ));
}

/// A non-root host makes no cgroups of its bots' own, and its bots see none
/// of the machine's: the zoo's `read-cgroups` finds no count to read under
/// `/sys/fs/cgroup` (the host's tree, locked by the user namespace, is
/// covered by an empty `tmpfs`).
#[test]
fn a_non_root_hosts_bots_read_no_cgroup() {
    let zoo = built().join("debug/zoo-process");
    let read_cgroups = format!("{} read-cgroups", zoo.display());
    play_as_non_root(&format!(
        "  - {{name: notebook, kind: builtin, path: notebook}}
  - {{name: read-cgroups, kind: jsonl, command: \"{read_cgroups}\"}}
  - {{name: notebook-2, kind: builtin, path: notebook}}
"
    ));
}

/// Runs a 3-player Speed Clue tournament of `bots` (YAML list entries) at
/// every seating as an unprivileged user, and checks that every game ended
/// and no seat was disqualified.
fn play_as_non_root(bots: &str) {
    let dir = tempfile::tempdir().expect("a scratch directory");
    let root = euid() == 0;
    if root {
        std::os::unix::fs::chown(dir.path(), Some(NOBODY), Some(NOBODY))
            .expect("the scratch directory is given to nobody");
    }
    let file = dir.path().join("nonroot.yaml");
    // What a bot must not read: the host's command line holds it.
    let db = dir.path().join("password-hunter2.sqlite");
    let text = format!(
        "variant: speedclue
players: 3
seed: 15
limits: {{time_per_call_ms: {}}}
schedule: {{kind: all-seatings, repeats: 1}}
bots:
{bots}",
        LIMIT.as_millis()
    );
    std::fs::write(&file, &text).expect("the tournament file is written");
    if root {
        std::os::unix::fs::chown(&file, Some(NOBODY), Some(NOBODY))
            .expect("the tournament file is given to nobody");
    }
    let mut clue = Command::new(clue_binary());
    clue.env("PASSWORD", "hunter2");
    run_tournament_as_non_root(clue, &file, &db, dir.path());
    let store = Store::open(&db).expect("the store opens");
    let games = store.games().expect("the games are stored");
    assert_eq!(games.len(), 6, "{text}");
    for game in &games {
        // Each zoo bot panics with "sandbox escaped: ..." (a `crash`) when
        // it read a non-zero byte of `/proc/1/cmdline` or `environ`, when a
        // signal to a process it found in `/proc` would have landed, or
        // when it read a count of a cgroup not its own.
        for seat in &game.seats {
            assert_ne!(
                seat.outcome, "disqualified",
                "game {}: {:?} escaped or failed: {:?} {:?}",
                game.index, seat.bot, seat.dq_reason, seat.detail
            );
        }
        let log = store.log(game.index).expect("the game's log is stored");
        assert!(
            matches!(
                log.entries.last().map(|e| &e.event),
                Some(Event::GameOver { .. })
            ),
            "game {}: the game did not reach its end",
            game.index
        );
    }
}

/// Runs `clue` (with what `clue` already sets) as `tournament run FILE --db
/// DB --quiet` with `HOME` at `home`, as `nobody` when the test runs as
/// root, and checks it succeeded.
fn run_tournament_as_non_root(
    mut clue: Command,
    file: &std::path::Path,
    db: &std::path::Path,
    home: &std::path::Path,
) {
    clue.args(["tournament", "run"])
        .arg(file)
        .arg("--db")
        .arg(db)
        .arg("--quiet")
        .env("HOME", home);
    let root = euid() == 0;
    if root {
        // std clears the supplementary groups when root sets a uid.
        clue.uid(NOBODY).gid(NOBODY);
    }
    let output = clue.output().expect("clue runs");
    assert!(
        output.status.success(),
        "clue tournament run (uid {}) failed:\n{}\n{}",
        if root { NOBODY } else { euid() },
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A Speed Clue bot's listener is made in its own network namespace, whose
/// loopback the sandbox brings up: as root that is plain root's right, as
/// an ordinary user it is the capability the child holds in the user
/// namespace it just made. The bot, the contest's style of entrant
/// (`host/runtime/tests/process_bots/speedbot.py`), must connect and play.
#[test]
fn a_non_root_hosts_speed_clue_bot_plays_over_its_own_loopback() {
    let bot = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../runtime/tests/process_bots/speedbot.py");
    let bot = std::fs::canonicalize(&bot).expect("the Speed Clue test bot is there");
    let dir = tempfile::tempdir().expect("a scratch directory");
    let root = euid() == 0;
    if root {
        std::os::unix::fs::chown(dir.path(), Some(NOBODY), Some(NOBODY))
            .expect("the scratch directory is given to nobody");
    }
    let spec = format!("speedclue:python3 {} {{A}} %%", bot.display());
    let mut clue = Command::new(clue_binary());
    clue.args([
        "play",
        "--variant",
        "speedclue",
        "--players",
        "3",
        "--seed",
        "3",
    ])
    .args([
        "--bot",
        &spec,
        "--bot",
        "builtin:notebook",
        "--bot",
        "builtin:notebook",
    ])
    .current_dir(dir.path())
    .env("HOME", dir.path());
    if root {
        clue.uid(NOBODY).gid(NOBODY);
    }
    let output = clue.output().expect("clue runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "clue play (uid {}) failed:\n{stdout}\n{}",
        if root { NOBODY } else { euid() },
        String::from_utf8_lossy(&output.stderr)
    );
    let seat = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("seat 0 (speedclue:") && l.contains("rank"))
        .unwrap_or_else(|| panic!("no summary line for the Speed Clue bot:\n{stdout}"));
    assert!(
        !seat.contains("disqualified"),
        "the Speed Clue bot did not play: {seat}\n{stdout}"
    );
}

/// A build's fetch of one line through its proxy (`HTTPS_PROXY`), by
/// `CONNECT localhost:PORT`.
const FETCH: &str = r#"import os, socket, sys
host, port = os.environ["HTTPS_PROXY"].rsplit("/", 1)[1].split(":")
s = socket.create_connection((host, int(port)), timeout=10)
s.sendall(b"CONNECT localhost:%s HTTP/1.1\r\n\r\n" % sys.argv[1].encode())
f = s.makefile("rb")
while f.readline() not in (b"\r\n", b""):
    pass
s.sendall(b"hi\n")
sys.stdout.write(f.readline().decode())
"#;

/// A sandboxed build under a host that is not root runs in a user
/// namespace as the host's own user, who owns the whole tournament folder:
/// only the sandbox keeps the build to its entrant's folder. The build
/// compiles the C UniClue client there, fetches a line from a port of the
/// host its `network:` lists (through the host's proxy, whose listener the
/// child makes in the build's own namespace, here a user namespace's),
/// then tries to write the tournament's folder, and reads its home from
/// the passwd database; the client plays, nothing was written outside,
/// and that home is its scratch folder.
#[test]
fn a_non_root_hosts_sandboxed_build_writes_only_its_entrants_folder() {
    let gcc = Command::new("gcc").arg("--version").output();
    assert!(
        gcc.is_ok_and(|o| o.status.success()),
        "gcc is needed by this test: install it (Debian: apt-get install gcc)"
    );
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../plugins/c-uniclue-example/client.c");
    let dir = tempfile::tempdir().expect("a scratch directory");
    let entrant = dir.path().join("entrants/c");
    std::fs::create_dir_all(&entrant).expect("the entrant's folder");
    std::fs::copy(&source, entrant.join("client.c")).expect("the client's source");
    std::fs::write(entrant.join("fetch.py"), FETCH).expect("the fetch script");
    let registry = std::net::TcpListener::bind("127.0.0.1:0").expect("a host port");
    let port = registry.local_addr().expect("its address").port();
    std::thread::spawn(move || {
        use std::io::{BufRead, Write};
        for stream in registry.incoming().flatten() {
            let mut line = String::new();
            let mut reader = std::io::BufReader::new(&stream);
            if reader.read_line(&mut line).is_ok() && line == "hi\n" {
                let _ = (&stream).write_all(b"hello from the registry\n");
            }
        }
    });
    let file = dir.path().join("build.yaml");
    std::fs::write(
        &file,
        format!(
            "variant: uniclue
players: 4
seed: 3
schedule: {{kind: random, games: 3}}
bots:
  - name: c
    kind: uniclue
    command: entrants/c/client
    build:
      command: gcc -O2 -o client client.c; python3 fetch.py {port} > net.txt; echo owned > ../../owned.txt; python3 -c 'import os, pwd; print(pwd.getpwuid(os.getuid()).pw_dir)' > home.txt; true
      dir: entrants/c
      network: [localhost:{port}]
"
        ),
    )
    .expect("the tournament file is written");
    let root = euid() == 0;
    if root {
        let status = Command::new("chown")
            .args(["-R", "65534:65534"])
            .arg(dir.path())
            .status()
            .expect("chown runs");
        assert!(status.success(), "the folder is given to nobody");
    }
    let db = dir.path().join("results.sqlite");
    let mut clue = Command::new(clue_binary());
    clue.current_dir(dir.path());
    run_tournament_as_non_root(clue, &file, &db, dir.path());
    assert!(
        entrant.join("client").is_file(),
        "the build made the client"
    );
    assert!(
        !dir.path().join("owned.txt").exists(),
        "the build wrote the tournament's folder"
    );
    assert_eq!(
        std::fs::read_to_string(entrant.join("net.txt")).expect("the build's fetch"),
        "hello from the registry\n",
        "the build reached the host's port through its proxy"
    );
    // The passwd entry of the host's user (nobody's is `/nonexistent`)
    // names the build's HOME, where a JVM's `user.home` comes from.
    assert_eq!(
        std::fs::read_to_string(entrant.join("home.txt")).expect("the build's home"),
        "/tmp\n",
        "the build's passwd home is its scratch folder"
    );
    let games = Store::open(&db)
        .expect("the store opens")
        .games()
        .expect("the games are stored");
    assert_eq!(games.len(), 3);
    assert!(
        games.iter().any(|g| g.seats[0].outcome == "won"),
        "the built client won no game: {games:?}"
    );
}

//! A tournament's sandboxed builds (`build: {command, dir}`): a real entrant
//! compiled with gcc in its own folder then plays; a hostile build script
//! reaches nothing but its own folder (not the tournament's files, another
//! entrant's, the network, the host's processes) and leaves nothing
//! running; a failing or endless build is reported at its line with the
//! end of its output; the folders a build may not write are refused at
//! their line.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use clue_arena::config;
use clue_arena::runner::{self, RunError, RunOptions, SpecConnector};
use clue_arena::store::Store;

/// Fails with what to install when `program` cannot run.
fn require(program: &str) {
    let runs = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        runs,
        "`{program}` is needed by this test: install it (Debian: apt-get install {program})"
    );
}

/// A tournament's folder, open to every user and not under `/tmp` (which
/// is a sandboxed process's own scratch folder).
fn tournament_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a folder");
    set_mode(dir.path(), 0o755);
    dir
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
        .unwrap_or_else(|e| panic!("cannot chmod {}: {e}", path.display()));
}

/// The uid an entrant's folder is given when the host is root: a sandboxed
/// build runs as its folder's owner, never as root.
const NOBODY: u32 = 65534;

fn is_root() -> bool {
    // SAFETY: `geteuid` has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// Makes `tournament/entrants/<name>` holding `files`, as an entrant's
/// unpacked folder: owned by `nobody` when the host is root.
fn entrant(tournament: &Path, name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = tournament.join("entrants").join(name);
    std::fs::create_dir_all(&dir).expect("the entrant's folder");
    set_mode(&tournament.join("entrants"), 0o755);
    set_mode(&dir, 0o755);
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("the entrant's file");
    }
    give_to_nobody(&dir);
    dir
}

fn give_to_nobody(dir: &Path) {
    if !is_root() {
        return;
    }
    let status = Command::new("chown")
        .args(["-R", &format!("{NOBODY}:{NOBODY}")])
        .arg(dir)
        .status()
        .expect("chown runs");
    assert!(status.success(), "chown failed on {}", dir.display());
}

/// A tournament file in `folder` whose one bot is `bot` (a YAML map).
fn tournament(folder: &Path, variant: &str, bot: &str) -> config::Tournament {
    let text = format!(
        "variant: {variant}\nplayers: 3\nseed: 5\nschedule: {{kind: random, games: 4}}\nbots:\n{bot}"
    );
    let file = folder.join("t.yaml");
    std::fs::write(&file, &text).expect("the tournament file");
    config::load(&file).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// Plays `t`'s 4 games into a store in `folder`; the games stored.
fn play(folder: &Path, t: &config::Tournament) -> Vec<clue_arena::store::GameRow> {
    let mut store = Store::open(&folder.join("results.sqlite")).expect("the store");
    let stop = AtomicBool::new(false);
    let options = RunOptions {
        stop: &stop,
        watch: &runner::Unwatched,
        standings_every: None,
    };
    let summary = runner::run(t, &mut store, &SpecConnector, &options).expect("the run");
    assert_eq!(summary.played, 4);
    store.games().expect("the games")
}

fn build_error(t: &mut config::Tournament) -> (u64, String) {
    match runner::build(t) {
        Err(RunError::Build { line, message, .. }) => (line, message),
        other => panic!("expected a failed build, got {other:?}"),
    }
}

#[test]
fn a_sandboxed_build_compiles_an_entrant_in_its_folder_and_it_plays() {
    require("gcc");
    let folder = tournament_folder();
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins/c-uniclue-example/client.c"),
    )
    .expect("the C client's source");
    let dir = entrant(folder.path(), "c", &[("client.c", &source)]);
    let mut t = tournament(
        folder.path(),
        "uniclue",
        "  - name: c
    kind: uniclue
    command: entrants/c/client
    build:
      command: gcc -O2 -Wall -o client client.c
      dir: entrants/c
",
    );
    let build = t.bots[0].build.as_ref().expect("the build");
    assert!(build.sandboxed, "{build:?}");
    runner::build(&mut t).unwrap_or_else(|e| panic!("{e}"));
    let client = dir.join("client");
    let meta = std::fs::metadata(&client).expect("the build made the client");
    if is_root() {
        use std::os::unix::fs::MetadataExt;
        assert_eq!(meta.uid(), NOBODY, "the build runs as its folder's owner");
    }
    let games = play(folder.path(), &t);
    let won = games.iter().filter(|g| g.seats[0].outcome == "won").count();
    assert!(won >= 3, "the built client won {won} of 4: {games:?}");
}

/// An entrant whose `rust-toolchain.toml` asks for a toolchain the host has
/// not installed: the build sees the host's rustup read-only and cannot
/// install it. Its message says so in rustup's words and then what the
/// organizer can do, naming the toolchain (it once ended in "could not
/// create temp file /root/.rustup/tmp/...: Read-only file system").
#[test]
fn a_rust_entrant_asking_for_a_toolchain_the_host_lacks_is_told_what_to_do() {
    require("rustup");
    let installed = Command::new("rustup")
        .args(["toolchain", "list"])
        .output()
        .expect("rustup runs");
    let toolchain = "1.80.0-x86_64-unknown-linux-gnu";
    assert!(
        !String::from_utf8_lossy(&installed.stdout).contains("1.80.0"),
        "this test needs a host without the 1.80.0 toolchain"
    );
    let (_folder, dir, mut t) =
        one_built_bot("    build: {command: cargo build --release, dir: entrants/c}\n");
    std::fs::create_dir(dir.join("src")).expect("src");
    for (file, text) in [
        (
            "Cargo.toml",
            "[package]\nname = \"entrant\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
        ),
        ("src/main.rs", "fn main() {}\n"),
        ("rust-toolchain.toml", "[toolchain]\nchannel = \"1.80.0\"\n"),
    ] {
        std::fs::write(dir.join(file), text).expect("the entrant's file");
    }
    give_to_nobody(&dir);
    let (line, message) = build_error(&mut t);
    assert_eq!(line, 9);
    assert!(
        message.contains(&format!("error: toolchain '{toolchain}' is not installed")),
        "{message}"
    );
    assert!(
        message.ends_with(&format!(
            "\nthe entrant's build asks for the Rust toolchain {toolchain}, which the host has \
             not installed, and a build cannot install one (it sees the host's rustup \
             read-only): install it on the host (`rustup toolchain install {toolchain}`), or \
             have the entrant build with a toolchain the host has (`rustup toolchain list`)"
        )),
        "{message}"
    );
    assert!(!message.contains("Read-only file system"), "{message}");
}

/// An entrant whose build makes a virtual environment (`python3 -m venv
/// .venv`, the host's Python, pyenv's on this machine) plays from it: its
/// `.venv/bin/python` is a link out of its folder, into the host's
/// toolchain or system folders, which every sandboxed bot sees, so not
/// refused as a link to another entrant's bot (it was). The bot checks
/// that it runs in the environment.
#[test]
fn a_bot_in_the_virtual_environment_its_build_made_plays() {
    require("python3");
    let folder = tournament_folder();
    let example = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../plugins/python-example/bot.py"),
    )
    .expect("the Python example");
    let bot = format!(
        "import sys\nassert sys.prefix != sys.base_prefix and sys.prefix.endswith('.venv'), sys.prefix\n{example}"
    );
    let dir = entrant(folder.path(), "py", &[("bot.py", &bot)]);
    let mut t = tournament(
        folder.path(),
        "classic",
        "  - name: py
    kind: jsonl
    command: entrants/py/.venv/bin/python entrants/py/bot.py
    build: {command: python3 -m venv .venv, dir: entrants/py}
  - {name: notebook, kind: builtin, path: notebook}
  - {name: clueless, kind: builtin, path: clueless}
",
    );
    runner::build(&mut t).unwrap_or_else(|e| panic!("{e}"));
    let python = dir.join(".venv/bin/python");
    let real = std::fs::canonicalize(&python).expect("the environment's python");
    assert!(
        !real.starts_with(&dir),
        "{} is a link out of the folder, to {}",
        python.display(),
        real.display()
    );
    for game in play(folder.path(), &t) {
        let seat = game
            .seats
            .iter()
            .find(|s| s.bot.as_deref() == Some("py"))
            .expect("the entrant's seat");
        assert_ne!(seat.outcome, "disqualified", "{game:?}");
    }
}

/// A JDK compiles in a sandboxed build too: a JVM of a few dozen threads
/// within the build's process cap, its memory cgroup and a `HOME` in the
/// scratch folder. The framework example is the contest's style of entrant
/// (only built here: `host/cli/tests/suite/sandbox_jvm.rs` plays it). A JVM
/// takes `user.home` from the passwd database, not `HOME`: there the
/// build's user (`nobody`, under a root host) has its home made the
/// scratch folder, so a build tool's `~/.m2/repository` (Maven; Gradle's
/// `~/.gradle` likewise) can be made; it was `/nonexistent`.
#[test]
fn a_sandboxed_build_compiles_a_java_entrant() {
    require("javac");
    let folder = tournament_folder();
    let source = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../plugins/java-framework-example/FrameworkBot.java"),
    )
    .expect("the Java example's source");
    let home = "import java.nio.file.*;\n\
        class Home { public static void main(String[] a) throws Exception {\n\
        Path m2 = Files.createDirectories(Path.of(System.getProperty(\"user.home\"), \".m2\", \"repository\"));\n\
        Files.writeString(Path.of(\"home.txt\"), m2 + \"\\n\"); } }\n";
    let dir = entrant(
        folder.path(),
        "java",
        &[("FrameworkBot.java", &source), ("Home.java", home)],
    );
    let mut t = tournament(
        folder.path(),
        "uniclue",
        "  - name: java
    kind: uniclue
    command: java -cp entrants/java FrameworkBot
    build: {command: javac -d . FrameworkBot.java && java Home.java, dir: entrants/java}
",
    );
    runner::build(&mut t).unwrap_or_else(|e| panic!("{e}"));
    assert!(dir.join("FrameworkBot.class").is_file());
    assert_eq!(
        std::fs::read_to_string(dir.join("home.txt")).expect("the JVM's home"),
        "/tmp/.m2/repository\n"
    );
}

/// A Rust entrant's `cargo build` runs the host's rustup toolchain in the
/// sandbox and fetches its dependency from crates.io through the proxy (the
/// two hosts of crates.io's sparse index and downloads listed), keeping
/// cargo's registry cache in its scratch folder, not the host's
/// `~/.cargo`.
#[test]
fn a_sandboxed_build_compiles_a_rust_entrant_with_a_crate_from_crates_io() {
    require("cargo");
    let folder = tournament_folder();
    let dir = entrant(
        folder.path(),
        "rust",
        &[(
            "Cargo.toml",
            "[package]\nname = \"entrant\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n\
             [dependencies]\nitoa = \"=1.0.15\"\n\n[workspace]\n",
        )],
    );
    std::fs::create_dir(dir.join("src")).expect("src");
    std::fs::write(
        dir.join("src/main.rs"),
        "fn main() { println!(\"{}\", itoa::Buffer::new().format(42u8)); }\n",
    )
    .expect("main.rs");
    give_to_nobody(&dir);
    let mut t = tournament(
        folder.path(),
        "uniclue",
        "  - name: rust
    kind: uniclue
    command: entrants/rust/target/release/entrant
    build:
      command: cargo build --release
      dir: entrants/rust
      network: [index.crates.io, static.crates.io]
",
    );
    runner::build(&mut t).unwrap_or_else(|e| {
        panic!("{e}\n(this test needs crates.io reachable from this machine, as cargo itself does)")
    });
    let out = Command::new(dir.join("target/release/entrant"))
        .output()
        .expect("the built entrant runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "42\n");
    assert!(dir.join("Cargo.lock").is_file());
}

/// What a hostile entrant's build tries. Each line of its report says
/// whether an attempt succeeded; a process it leaves behind keeps writing
/// the time into `beat.txt`.
const HOSTILE_BUILD: &str = r#"#!/bin/sh
# $1: the tournament's folder, $2: another entrant's folder, $3: a port the
# host listens on, $4: the host's pid.
: > report.txt
try() { if sh -c "$2" > /dev/null 2>&1; then echo "$1:done" >> report.txt; else echo "$1:refused" >> report.txt; fi; }
try read-secret "cat '$1/secret.txt'"
try see-secret "ls -a '$1' | grep -q secret"
try read-other "cat '$2/bot'"
try write-tournament "echo owned > '$1/owned.txt'"
try write-other "echo owned > '$2/bot'"
try write-through-link "echo owned > escape/owned.txt"
try write-etc "echo owned > /etc/owned.txt"
try network "python3 -c \"import socket; socket.create_connection(('127.0.0.1', $3), timeout=2)\""
try signal-host "kill -0 $4"
try write-own "echo built > built.txt"
try write-scratch "echo scratch > /tmp/scratch.txt && cat /tmp/scratch.txt"
( while :; do date +%s%N > beat.txt; sleep 0.05; done ) > /dev/null 2>&1 &
while [ ! -s beat.txt ]; do sleep 0.05; done
"#;

#[test]
fn a_hostile_build_reaches_nothing_but_its_own_folder() {
    require("python3");
    let folder = tournament_folder();
    std::fs::write(folder.path().join("secret.txt"), "hunter2").expect("the secret");
    let other = entrant(
        folder.path(),
        "other",
        &[("bot", "the other entrant's bot")],
    );
    let dir = entrant(folder.path(), "evil", &[("build.sh", HOSTILE_BUILD)]);
    // A link shipped in the entrant's folder, to the tournament's.
    std::os::unix::fs::symlink(folder.path(), dir.join("escape")).expect("the link");
    let listener = TcpListener::bind("127.0.0.1:0").expect("a host port");
    listener.set_nonblocking(true).expect("non-blocking");
    let port = listener.local_addr().expect("its address").port();
    let bot = format!(
        "  - name: evil
    kind: uniclue
    command: entrants/evil/bot
    build:
      command: sh build.sh {} {} {port} {}
      dir: entrants/evil
",
        folder.path().display(),
        other.display(),
        std::process::id()
    );
    let mut t = tournament(folder.path(), "uniclue", &bot);
    // The build succeeds; the bot's missing file is what the run refuses.
    let err = runner::build(&mut t).expect_err("its bot was never there");
    assert!(err.to_string().contains("file not found"), "{err}");
    let report = std::fs::read_to_string(dir.join("report.txt")).expect("the build's report");
    assert_eq!(
        report,
        "read-secret:refused
see-secret:refused
read-other:refused
write-tournament:refused
write-other:refused
write-through-link:refused
write-etc:refused
network:refused
signal-host:refused
write-own:done
write-scratch:done
"
    );
    assert_eq!(
        std::fs::read_to_string(folder.path().join("secret.txt")).expect("the secret"),
        "hunter2"
    );
    assert!(!folder.path().join("owned.txt").exists());
    assert!(!Path::new("/etc/owned.txt").exists());
    assert_eq!(
        std::fs::read_to_string(other.join("bot")).expect("the other bot"),
        "the other entrant's bot"
    );
    assert!(
        listener.accept().is_err(),
        "the build reached the host's port"
    );
    // The process it left behind was killed with it: its beat stands still.
    let beat = std::fs::read_to_string(dir.join("beat.txt")).expect("the beat began");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        std::fs::read_to_string(dir.join("beat.txt")).expect("the beat"),
        beat,
        "a process of the build outlived it"
    );
}

/// What a build with a `network:` tries, through the proxy its
/// `HTTPS_PROXY` names and around it. `$1`: the port of the host's
/// "registry" (listed as `localhost:$1`), `$2`: a port of the host not
/// listed. Every line of `report.txt` says what became of one attempt; it
/// then fails, so that its message shows what the proxy refused.
const NETWORKED_BUILD: &str = r#"import os, socket, subprocess, sys
registry, unlisted = int(sys.argv[1]), int(sys.argv[2])
proxy = os.environ["HTTPS_PROXY"].rsplit("/", 1)[1].split(":")
proxy = (proxy[0], int(proxy[1]))
report = open("report.txt", "w")

def direct(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=5)
        return "reached"
    except OSError:
        return "refused"

def ask(request):
    s = socket.create_connection(proxy, timeout=10)
    s.sendall(request)
    f = s.makefile("rb")
    status = f.readline().split()[1].decode()
    while f.readline() not in (b"\r\n", b""):
        pass
    if status != "200":
        return status
    s.sendall(b"hi\n")
    return f.readline().decode().strip()

report.write("direct-registry:%s\n" % direct(registry))
report.write("listed:%s\n" % ask(b"CONNECT localhost:%d HTTP/1.1\r\nHost: localhost:%d\r\n\r\n" % (registry, registry)))
report.write("unlisted:%s\n" % ask(b"CONNECT localhost:%d HTTP/1.1\r\n\r\n" % unlisted))
report.write("plain-http:%s\n" % ask(b"GET http://localhost:%d/ HTTP/1.1\r\nHost: localhost\r\n\r\n" % registry))
java = subprocess.run(["java", "Fetch.java", str(registry)], capture_output=True, text=True)
report.write("java:%s\n" % java.stdout.strip())
report.close()
sys.exit(1)
"#;

/// A JVM's HTTPS through the proxy (`JAVA_TOOL_OPTIONS`): the registry sees
/// its TLS handshake begin; there is no TLS server, so it then fails.
const JAVA_FETCH: &str = r#"public class Fetch {
    public static void main(String[] args) {
        try {
            new java.net.URL("https://localhost:" + args[0] + "/").openStream();
            System.out.println("fetched");
        } catch (Exception e) {
            System.out.println("tried");
        }
    }
}
"#;

/// A "registry" on a port of the host: to a client's first line it answers
/// `hello from the registry`; it notes what each connection began with
/// (`line`, or `tls-hello` for a TLS handshake).
fn registry() -> (u16, std::sync::Arc<std::sync::Mutex<Vec<&'static str>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a host port");
    let port = listener.local_addr().expect("its address").port();
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let noted = std::sync::Arc::clone(&seen);
    std::thread::spawn(move || {
        use std::io::{Read, Write};
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut first = [0u8; 3];
            if stream.read_exact(&mut first).is_err() {
                continue;
            }
            // A TLS record of the handshake: 0x16, then version 3.x.
            if first[0] == 0x16 && first[1] == 3 {
                noted.lock().expect("seen").push("tls-hello");
            } else {
                noted.lock().expect("seen").push("line");
                let _ = stream.write_all(b"hello from the registry\n");
            }
        }
    });
    (port, seen)
}

/// A build with `network: [localhost:PORT]` reaches that port of the host
/// through the host's proxy, by `CONNECT` (a script's own request, and a
/// JVM's HTTPS), and nothing else: not the port directly, not another port,
/// not plain HTTP; the proxy's refusals end up in the failed build's
/// message.
#[test]
fn a_build_with_a_network_reaches_only_the_hosts_it_lists() {
    require("python3");
    require("java");
    let (registry_port, seen) = registry();
    let unlisted = TcpListener::bind("127.0.0.1:0").expect("a host port");
    unlisted.set_nonblocking(true).expect("non-blocking");
    let unlisted_port = unlisted.local_addr().expect("its address").port();
    let folder = tournament_folder();
    let dir = entrant(
        folder.path(),
        "net",
        &[("build.py", NETWORKED_BUILD), ("Fetch.java", JAVA_FETCH)],
    );
    let bot = format!(
        "  - name: net
    kind: uniclue
    command: entrants/net/client
    build:
      command: python3 build.py {registry_port} {unlisted_port}
      dir: entrants/net
      network: [localhost:{registry_port}]
"
    );
    let mut t = tournament(folder.path(), "uniclue", &bot);
    assert_eq!(
        t.bots[0].build.as_ref().expect("the build").network,
        vec![format!("localhost:{registry_port}")]
    );
    let (line, message) = build_error(&mut t);
    assert_eq!(line, 10, "{message}");
    let report = std::fs::read_to_string(dir.join("report.txt")).expect("the build's report");
    assert_eq!(
        report,
        "direct-registry:refused
listed:hello from the registry
unlisted:403
plain-http:405
java:tried
"
    );
    assert_eq!(*seen.lock().expect("seen"), vec!["line", "tls-hello"]);
    assert!(
        unlisted.accept().is_err(),
        "the build reached the unlisted port"
    );
    assert!(
        message.contains(&format!(
            "exited with status 1; the host's proxy refused it localhost:{unlisted_port} (not in the build's `network:`), \
             GET http://localhost:{registry_port}/ (plain HTTP: the proxy tunnels HTTPS only)"
        )),
        "{message}"
    );
}

/// A build that opens 100 connections to its proxy and sends nothing: the
/// host serves 64 at once (a thread each) and answers the rest 503 at once;
/// once it closes them, its proxy serves it again.
const FLOODING_BUILD: &str = r#"import os, socket, sys, time
registry = int(sys.argv[1])
proxy = os.environ["HTTPS_PROXY"].rsplit("/", 1)[1].split(":")
proxy = (proxy[0], int(proxy[1]))
held = [socket.create_connection(proxy, timeout=10) for _ in range(100)]
time.sleep(1)
busy = 0
for s in held:
    s.setblocking(False)
    try:
        busy += b" 503 " in s.recv(1024)
    except BlockingIOError:
        pass
for s in held:
    s.close()
time.sleep(0.5)
s = socket.create_connection(proxy, timeout=10)
s.sendall(b"CONNECT localhost:%d HTTP/1.1\r\n\r\n" % registry)
f = s.makefile("rb")
while f.readline() not in (b"\r\n", b""):
    pass
s.sendall(b"hi\n")
open("report.txt", "w").write("busy:%d\nthen:%s\n" % (busy, f.readline().decode().strip()))
"#;

#[test]
fn a_build_flooding_its_proxy_with_connections_is_served_64_at_a_time() {
    require("python3");
    let (registry_port, _) = registry();
    let folder = tournament_folder();
    let dir = entrant(folder.path(), "flood", &[("build.py", FLOODING_BUILD)]);
    let bot = format!(
        "  - name: flood
    kind: uniclue
    command: entrants/flood/client
    build:
      command: python3 build.py {registry_port}
      dir: entrants/flood
      network: [localhost:{registry_port}]
"
    );
    let mut t = tournament(folder.path(), "uniclue", &bot);
    let err = runner::build(&mut t).expect_err("its bot was never there");
    assert!(err.to_string().contains("file not found"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("report.txt")).expect("the build's report"),
        "busy:36\nthen:hello from the registry\n"
    );
}

/// npm installs an entrant's dependency from the real npm registry through
/// the proxy (npm reads `HTTPS_PROXY` too).
#[test]
fn a_build_with_a_network_installs_from_npm() {
    require("npm");
    let (_folder, dir, mut t) = one_built_bot(
        "    build:
      command: npm install --no-audit --no-fund --no-update-notifier is-number@7.0.0
      dir: entrants/c
      network: [registry.npmjs.org]
",
    );
    let err = runner::build(&mut t).expect_err("its bot was never there");
    assert!(
        err.to_string().contains("file not found"),
        "{err}\n(this test needs registry.npmjs.org reachable from this machine, as scripts/setup does)"
    );
    let installed = std::fs::read_to_string(dir.join("node_modules/is-number/package.json"))
        .expect("is-number was installed");
    assert!(installed.contains("\"version\": \"7.0.0\""), "{installed}");
}

/// pip downloads an entrant's dependency from the real PyPI through the
/// proxy, when the build's `network:` lists PyPI's two hosts; with one of
/// them missing it fails, and its message names the host refused.
#[test]
fn a_build_with_a_network_downloads_from_pypi_with_pip() {
    require("python3");
    let lines = |network: &str| {
        format!(
            "    build:
      command: python3 -m pip download --no-deps --retries 0 --timeout 30 --dest deps six==1.16.0
      dir: entrants/c
      network: {network}
"
        )
    };
    let (_folder, dir, mut t) = one_built_bot(&lines("[pypi.org]"));
    let (_, message) = build_error(&mut t);
    assert!(
        message.contains(
            "the host's proxy refused it files.pythonhosted.org:443 (not in the build's `network:`)"
        ),
        "{message}"
    );
    assert!(!dir.join("deps/six-1.16.0-py2.py3-none-any.whl").exists());
    let (_folder, dir, mut t) = one_built_bot(&lines("[pypi.org, files.pythonhosted.org]"));
    // The build succeeds; the bot's missing file is what the run refuses.
    let err = runner::build(&mut t).expect_err("its bot was never there");
    assert!(
        err.to_string().contains("file not found"),
        "{err}\n(this test needs pypi.org reachable from this machine, as scripts/setup does)"
    );
    assert!(dir.join("deps/six-1.16.0-py2.py3-none-any.whl").is_file());
}

/// A Maven entrant's `mvn package` goes through the host's proxy for its
/// plugins, and so is refused Maven Central, which its `network:` does not
/// list: the message names it. Maven finds the proxy in the JVM's
/// `https.proxyHost` (`JAVA_TOOL_OPTIONS`) and, with that unset, in the
/// `~/.m2/settings.xml` the build is given; its local repository is made
/// in the build's `HOME` (the passwd home of the build's user, which was
/// `/nonexistent`). Maven's colours are taken out of the message whole.
#[test]
fn a_maven_build_reaches_its_repositories_through_the_proxy() {
    require("mvn");
    let pom = "<project xmlns=\"http://maven.apache.org/POM/4.0.0\">\n\
        <modelVersion>4.0.0</modelVersion>\n\
        <groupId>entrant</groupId><artifactId>bot</artifactId><version>1</version>\n\
        <properties><maven.compiler.release>17</maven.compiler.release></properties>\n\
        </project>\n";
    for command in [
        "mvn -B package",
        "env -u JAVA_TOOL_OPTIONS mvn -B -Dstyle.color=always package",
    ] {
        let (_folder, dir, mut t) = one_built_bot(&format!(
            "    build: {{command: {command}, dir: entrants/c, network: [repo.example.org]}}\n"
        ));
        std::fs::create_dir_all(dir.join("src/main/java")).expect("src");
        std::fs::write(dir.join("pom.xml"), pom).expect("the pom");
        std::fs::write(
            dir.join("src/main/java/Bot.java"),
            "public class Bot { public static void main(String[] a) {} }\n",
        )
        .expect("the source");
        give_to_nobody(&dir);
        let (_, message) = build_error(&mut t);
        assert!(
            message.contains(
                "the host's proxy refused it repo.maven.apache.org:443 (not in the build's `network:`)"
            ),
            "{command}: {message}"
        );
        assert!(
            message.contains("[ERROR]") && !message.contains("[0m") && !message.contains("[1;31m"),
            "{command}: {message}"
        );
        assert!(!message.contains("/nonexistent"), "{command}: {message}");
    }
}

/// A tournament of one bot, `c`, whose folder `entrants/c` starts empty,
/// with `lines` (its `build:` and any other key, indented as a bot's keys)
/// added to it.
fn one_built_bot(lines: &str) -> (tempfile::TempDir, PathBuf, config::Tournament) {
    let folder = tournament_folder();
    let dir = entrant(folder.path(), "c", &[]);
    let bot = format!("  - name: c\n    kind: uniclue\n    command: entrants/c/client\n{lines}");
    let t = tournament(folder.path(), "uniclue", &bot);
    (folder, dir, t)
}

#[test]
fn a_failing_build_is_named_at_its_line_with_the_end_of_its_output() {
    let (_folder, _, mut t) = one_built_bot(
        "    build:
      command: \"echo compiling; echo 'client.c:3: error: expected ;' >&2; exit 3\"
      dir: entrants/c
",
    );
    let (line, message) = build_error(&mut t);
    assert_eq!(line, 10);
    assert!(
        message.contains("exited with status 3; the end of its output:\n"),
        "{message}"
    );
    assert!(message.contains("compiling"), "{message}");
    assert!(
        message.contains("client.c:3: error: expected ;"),
        "{message}"
    );
}

#[test]
fn a_build_past_its_time_limit_is_stopped_and_says_so() {
    let (_folder, _, mut t) = one_built_bot(
        "    build: {command: \"echo started; sleep 600\", dir: entrants/c, time_limit_s: 1}\n",
    );
    let (line, message) = build_error(&mut t);
    assert_eq!(line, 9);
    assert!(
        message
            .contains("ran longer than its 1 s and was stopped; the end of its output:\nstarted"),
        "{message}"
    );
}

/// A build that fills its folder is stopped at its `disk_mb` (measured
/// every quarter second, so it may pass it by what it writes in that
/// time), and one file larger than the cap is cut by `RLIMIT_FSIZE`.
#[test]
fn a_build_that_fills_the_disk_is_stopped() {
    let (_folder, dir, mut t) = one_built_bot(
        "    build:
      command: \"head -c 40000000 /dev/zero > big; ls -l big; i=0; while :; do i=$((i+1)); head -c 1048576 /dev/zero > f$i; done\"
      dir: entrants/c
      disk_mb: 16
",
    );
    let (line, message) = build_error(&mut t);
    assert_eq!(line, 10);
    assert!(
        message.contains("was stopped: it wrote more than 16 MiB into its folder"),
        "{message}"
    );
    let big = std::fs::metadata(dir.join("big")).expect("the big file");
    assert_eq!(big.len(), 16 << 20, "RLIMIT_FSIZE cut the file at the cap");
}

/// A build's scratch folder (`/tmp`, its `HOME`, where pip, npm and cargo
/// keep their caches) holds 256 MiB unless its `scratch_mb` says more.
#[test]
fn a_builds_scratch_folder_is_its_scratch_mb() {
    let command = "      command: head -c 300M /dev/zero > $HOME/cache && echo cached > done.txt\n      dir: entrants/c\n";
    let (_folder, dir, mut t) = one_built_bot(&format!("    build:\n{command}"));
    let (_, message) = build_error(&mut t);
    assert!(message.contains("No space left on device"), "{message}");
    // What to do comes last, after the output.
    assert!(
        message.ends_with(
            "\nit ran out of space: its scratch folder, which is its HOME and TMPDIR (caches, \
             downloads being unpacked), holds 256 MiB: raise the build's `scratch_mb`, or keep \
             caches out of it (pip: `--no-cache-dir`); its own folder may take 4096 MiB more \
             (`disk_mb`) but no more than the disk under it has free"
        ),
        "{message}"
    );
    assert!(!dir.join("done.txt").exists());
    let (_folder, dir, mut t) =
        one_built_bot(&format!("    build:\n{command}      scratch_mb: 400\n"));
    let err = runner::build(&mut t).expect_err("its bot was never there");
    assert!(err.to_string().contains("file not found"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("done.txt")).expect("the build went on"),
        "cached\n"
    );
}

#[test]
fn a_build_without_the_sandbox_runs_in_its_folder_as_the_host() {
    let (folder, dir, mut t) = one_built_bot(
        "    sandbox: off
    build: {command: \"printf '#!/bin/sh\\n' > client && chmod +x client && touch ../../outside\", dir: entrants/c}
",
    );
    assert!(!t.bots[0].build.as_ref().expect("the build").sandboxed);
    runner::build(&mut t).unwrap_or_else(|e| panic!("{e}"));
    assert!(dir.join("client").is_file());
    assert!(folder.path().join("outside").is_file());
}

/// The folders a sandboxed build may not write are refused at the line of
/// its `dir`.
#[test]
fn a_build_folder_the_sandbox_refuses_is_named_at_its_line() {
    let folder = tournament_folder();
    let elsewhere = tournament_folder();
    give_to_nobody(elsewhere.path());
    std::fs::create_dir_all(folder.path().join("entrants")).expect("entrants");
    let link = folder.path().join("entrants/linked");
    std::os::unix::fs::symlink(elsewhere.path(), &link).expect("the link");
    let refused = |dir: &str| {
        let text = format!(
            "variant: uniclue\nplayers: 3\nschedule: {{kind: random, games: 1}}\nbots:\n  - name: c\n    kind: uniclue\n    command: x/client\n    build:\n      command: make\n      dir: {dir}\n"
        );
        let err = config::parse(&text, "t.yaml", folder.path()).expect_err("refused");
        assert_eq!((err.pos.line, err.pos.column), (10, 12), "{err}");
        err.message
    };
    let real = std::fs::canonicalize(elsewhere.path()).expect("real");
    let message = refused("entrants/linked");
    assert!(
        message.starts_with(&format!(
            "bot `c`: the build's folder {}: leads through a symbolic link to {}",
            link.display(),
            real.display()
        )),
        "{message}"
    );
    let message = refused(".");
    assert!(
        message.contains("holds the tournament file, and a sandboxed build may write only an entrant's own folder"),
        "{message}"
    );
    let message = refused("entrants/missing");
    assert!(
        message.ends_with("entrants/missing is not a folder"),
        "{message}"
    );
    let message = refused("/usr/lib");
    assert!(message.contains("is a system folder"), "{message}");
    let own = tournament_folder();
    if is_root() {
        let message = refused(&own.path().display().to_string());
        assert!(
            message.contains(&format!(
                "belongs to root, and a sandboxed build runs as the owner of its folder, never as root: give the folder to an unprivileged user (`chown -R nobody: {}`)",
                std::fs::canonicalize(own.path()).expect("real").display()
            )),
            "{message}"
        );
    } else {
        // The host's own folder is the one its builds write.
        let text = format!(
            "variant: uniclue\nplayers: 3\nschedule: {{kind: random, games: 1}}\nbots:\n  - {{name: c, kind: uniclue, command: x/client, build: {{command: make, dir: {}}}}}\n",
            own.path().display()
        );
        config::parse(&text, "t.yaml", folder.path()).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn a_malformed_build_map_is_named_at_its_line() {
    let folder = tournament_folder();
    let check = |build: &str, line: u64, expected: &str| {
        let text = format!(
            "variant: uniclue\nplayers: 3\nschedule: {{kind: random, games: 1}}\nbots:\n  - name: c\n    kind: uniclue\n    command: x/client\n    build:\n{build}"
        );
        let err = config::parse(&text, "t.yaml", folder.path()).expect_err("refused");
        assert_eq!(err.pos.line, line, "{err}");
        assert!(err.message.contains(expected), "{err}");
    };
    check("      dir: .\n", 9, "missing field `command`");
    check("      command: make\n", 9, "missing field `dir`");
    check(
        "      command: make\n      dir: .\n      user: root\n",
        11,
        "unknown field `user`",
    );
    check(
        "      command: make\n      dir: .\n      time_limit_s: 0\n",
        11,
        "`time_limit_s` must be at least 1",
    );
    check(
        "      command: make\n      dir: .\n      network: [pypi.org, https://files.pythonhosted.org/]\n",
        11,
        "the build's network: `https://files.pythonhosted.org/` is not a host",
    );
    check(
        "      command: make\n      dir: .\n      scratch_mb: 0\n",
        11,
        "`scratch_mb` must be at least 1",
    );
    check(
        "      command: make\n      dir: .\n      network: [pypi.org:99999]\n",
        11,
        "the port must be a number from 1 to 65535",
    );
    check(
        "      - make\n",
        8,
        "a shell command, or a map with `command` and `dir`",
    );
}

/// A sandboxed build may not write another bot's file (a native plugin the
/// host may load in its own process) or another entrant's build folder.
#[test]
fn a_build_folder_holding_another_bots_files_is_refused() {
    let folder = tournament_folder();
    let alice = entrant(folder.path(), "alice", &[]);
    entrant(folder.path(), "alice/bob", &[]);
    let check = |bots: &str, line: u64, expected: String| {
        let text = format!(
            "variant: uniclue\nplayers: 3\nschedule: {{kind: random, games: 1}}\nbots:\n{bots}"
        );
        let err = config::parse(&text, "t.yaml", folder.path()).expect_err("refused");
        assert_eq!(err.pos.line, line, "{err}");
        assert!(err.message.contains(&expected), "{err}");
    };
    let alice = std::fs::canonicalize(&alice).expect("real");
    check(
        "  - {name: alice, kind: uniclue, command: entrants/alice/client, build: {command: make, dir: entrants/alice}}
  - {name: trusted, kind: native, path: entrants/alice/libtrusted.so, isolation: trusted}
",
        5,
        format!(
            "bot `alice`: the build's folder {} holds {}/libtrusted.so, the file of bot `trusted`",
            alice.display(),
            alice.display()
        ),
    );
    check(
        "  - {name: alice, kind: uniclue, command: entrants/alice/client, build: {command: make, dir: entrants/alice}}
  - {name: bob, kind: uniclue, command: /usr/bin/true, build: {command: make, dir: entrants/alice/bob}}
",
        5,
        format!(
            "overlaps {}/bob, the build folder of bot `bob`",
            alice.display()
        ),
    );
    // Each in its own folder: accepted.
    let text = "variant: uniclue\nplayers: 3\nschedule: {kind: random, games: 1}\nbots:\n  - {name: bob, kind: uniclue, command: entrants/alice/bob/client, build: {command: make, dir: entrants/alice/bob}}\n  - {name: c, kind: uniclue, command: /usr/bin/true}\n";
    config::parse(text, "t.yaml", folder.path()).unwrap_or_else(|e| panic!("{e}"));
}

/// A built entrant's file that leads through a link out of its build's
/// folder (made by its build, or shipped) is refused at the bot's line: the
/// host reads a wasm file itself, and the link could name another
/// entrant's bot, which would then play as this one.
#[test]
fn a_built_file_linked_out_of_its_folder_is_refused() {
    let folder = tournament_folder();
    entrant(folder.path(), "bob", &[("bot.wasm", "bob's component")]);
    let alice = entrant(folder.path(), "alice", &[]);
    let bot = |path: &str, command: &str| {
        format!(
            "  - name: alice
    kind: wasm
    path: {path}
    build: {{command: \"{command}\", dir: entrants/alice}}
"
        )
    };
    for (path, command) in [
        ("entrants/alice/bot.wasm", "ln -s ../bob/bot.wasm bot.wasm"),
        ("entrants/alice/out/bot.wasm", "ln -s ../bob out"),
    ] {
        let mut t = tournament(folder.path(), "uniclue", &bot(path, command));
        let err = runner::build(&mut t).expect_err("refused").to_string();
        let bob =
            std::fs::canonicalize(folder.path().join("entrants/bob/bot.wasm")).expect("bob's file");
        assert!(err.contains("bot `alice`: its file "), "{err}");
        assert!(
            err.contains(&format!(
                "leads through a symbolic link to {}, out of its build's folder {}",
                bob.display(),
                std::fs::canonicalize(&alice).expect("real").display()
            )),
            "{err}"
        );
        for made in ["bot.wasm", "out"] {
            let _ = std::fs::remove_file(alice.join(made));
        }
    }
    // A link that stays in the folder is the entrant's own business.
    let mut t = tournament(
        folder.path(),
        "uniclue",
        &bot(
            "entrants/alice/bot.wasm",
            "echo component > real.wasm; ln -s real.wasm bot.wasm",
        ),
    );
    runner::build(&mut t).unwrap_or_else(|e| panic!("{e}"));
}

/// A build in the sandbox is for an entrant not trusted: its bot may not
/// then run outside the sandbox, nor be loaded into `clue` itself.
#[test]
fn a_sandboxed_build_of_a_bot_run_as_trusted_is_refused() {
    let folder = tournament_folder();
    entrant(folder.path(), "c", &[]);
    let check = |bot: &str, line: u64, column: u64, expected: &str| {
        let text = format!(
            "variant: uniclue\nplayers: 3\nschedule: {{kind: random, games: 1}}\nbots:\n{bot}"
        );
        let err = config::parse(&text, "t.yaml", folder.path()).expect_err("refused");
        assert_eq!((err.pos.line, err.pos.column), (line, column), "{err}");
        assert!(err.message.contains(expected), "{err}");
    };
    check(
        "  - name: c\n    kind: uniclue\n    command: entrants/c/client\n    sandbox: off\n    build: {command: make, dir: entrants/c, sandbox: on}\n",
        9,
        12,
        "bot `c`: its build runs in the sandbox (`sandbox: on` in its `build:`) but the bot itself would not (`sandbox: off`)",
    );
    check(
        "  - name: c\n    kind: native\n    path: entrants/c/libc.so\n    isolation: trusted\n    build: {command: make, dir: entrants/c}\n",
        8,
        16,
        "bot `c`: `isolation: trusted` loads the library into `clue` itself, but its build runs in the sandbox",
    );
    // Either alone is the organizer's choice.
    for bot in [
        "  - {name: c, kind: native, path: entrants/c/libc.so, isolation: trusted, build: {command: make, dir: entrants/c, sandbox: off}}\n",
        "  - {name: c, kind: uniclue, command: entrants/c/client, sandbox: off, build: {command: make, dir: entrants/c}}\n",
    ] {
        let text = format!(
            "variant: uniclue\nplayers: 3\nschedule: {{kind: random, games: 1}}\nbots:\n{bot}"
        );
        config::parse(&text, "t.yaml", folder.path()).unwrap_or_else(|e| panic!("{e}"));
    }
}

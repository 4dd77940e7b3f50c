//! A real PostgreSQL server for the tests: Debian's `postgresql` package,
//! `initdb` and `pg_ctl` on a temporary folder and a free port, run as
//! `nobody` when the tests run as root (the server refuses root), one per
//! test. Stopped (immediate mode) when dropped. Missing binaries fail the test with what to
//! install; nothing is skipped.

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

pub const USER: &str = "clue";
pub const PASSWORD: &str = "arena-test";

pub struct Postgres {
    pub port: u16,
    bin: PathBuf,
    data: PathBuf,
    _dir: tempfile::TempDir,
    next_db: AtomicUsize,
}

/// The folder holding `initdb` and `pg_ctl`, or a failure saying what to install.
fn bin_dir() -> PathBuf {
    let mut found: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path().join("bin"))
        .filter(|b| b.join("initdb").exists() && b.join("pg_ctl").exists())
        .collect();
    found.sort();
    match found.pop() {
        Some(b) => b,
        None => panic!(
            "these tests need a PostgreSQL server: install Debian's `postgresql` package \
             (`scripts/setup --test`, or `apt-get install postgresql`); no initdb under /usr/lib/postgresql/*/bin"
        ),
    }
}

fn as_server_user(cmd: &mut Command) -> &mut Command {
    if is_root() {
        cmd.uid(65534).gid(65534);
    }
    cmd
}

/// Whether this process runs as root: `/proc/self` belongs to its user.
fn is_root() -> bool {
    std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .unwrap_or(false)
}

fn run(cmd: &mut Command, what: &str) {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("{what} could not start: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Postgres {
    pub fn start() -> Postgres {
        let bin = bin_dir();
        let dir = tempfile::tempdir().expect("a scratch directory");
        let data = dir.path().join("data");
        let pwfile = dir.path().join("pw");
        std::fs::write(&pwfile, PASSWORD).expect("write the password file");
        if is_root() {
            std::os::unix::fs::chown(dir.path(), Some(65534), Some(65534)).expect("chown");
            std::os::unix::fs::chown(&pwfile, Some(65534), Some(65534)).expect("chown");
        }
        run(
            as_server_user(
                Command::new(bin.join("initdb"))
                    .arg("-D")
                    .arg(&data)
                    .args([
                        "-U",
                        USER,
                        "--auth=scram-sha-256",
                        "--no-sync",
                        "-E",
                        "UTF8",
                    ])
                    .arg(format!("--pwfile={}", pwfile.display()))
                    .current_dir(dir.path()),
            ),
            "initdb",
        );
        // A port free when looked at may be taken (by another test's server
        // or a connection's own port) before the server binds it: then the
        // server does not start, and it is started again on another port.
        let log = dir.path().join("log");
        let mut tries = 0;
        let port = loop {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .expect("a free port")
                .port();
            let options = format!(
                "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
                dir.path().display()
            );
            let out = as_server_user(
                Command::new(bin.join("pg_ctl"))
                    .arg("-D")
                    .arg(&data)
                    .args(["-o", &options, "-w", "-t", "60", "-l"])
                    .arg(&log)
                    .arg("start")
                    .current_dir(dir.path()),
            )
            .output()
            .unwrap_or_else(|e| panic!("pg_ctl start could not start: {e}"));
            if out.status.success() {
                break port;
            }
            let said = std::fs::read_to_string(&log).unwrap_or_default();
            tries += 1;
            assert!(
                tries < 5 && said.contains("Address already in use"),
                "pg_ctl start failed ({}):\n{}\n{}\nthe server's log:\n{said}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        };
        Postgres {
            port,
            bin,
            data,
            _dir: dir,
            next_db: AtomicUsize::new(0),
        }
    }

    pub fn url(&self, db: &str) -> String {
        format!("postgres://{USER}:{PASSWORD}@127.0.0.1:{}/{db}", self.port)
    }

    /// A new, empty database; its URL.
    pub fn database(&self) -> String {
        let name = format!("t{}", self.next_db.fetch_add(1, Ordering::SeqCst));
        let mut client = postgres::Client::connect(&self.url("postgres"), postgres::NoTls)
            .expect("connect to the test server");
        client
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .expect("create a database");
        self.url(&name)
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        let _ = as_server_user(
            Command::new(self.bin.join("pg_ctl"))
                .arg("-D")
                .arg(&self.data)
                .args(["-m", "immediate", "stop"]),
        )
        .output();
    }
}

/// A loopback port bound and not listening, for a server that is not
/// there: a connection to it is refused, and no other test can take it while
/// the socket lives. (A port taken and let go could be taken by a server
/// another test was starting, and the connection was then reset, not
/// refused.)
pub fn refusing_port() -> (socket2::Socket, u16) {
    let socket =
        socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).expect("a socket");
    let any: std::net::SocketAddr = "127.0.0.1:0".parse().expect("an address");
    socket.bind(&any.into()).expect("a loopback port");
    let port = socket
        .local_addr()
        .ok()
        .and_then(|a| a.as_socket())
        .expect("its address")
        .port();
    (socket, port)
}

//! A sandboxed build (a tournament's `build: {command, dir}`,
//! `docs/tournament.md`): a shell command run in an entrant's folder, the
//! only folder it may write, inside the sandbox every process bot gets
//! (`crate::sandbox`: no network, nothing of the host but the system
//! folders, no other process), with caps on wall time, memory and
//! processes. Building a stranger's entrant runs the stranger's code (a
//! `Makefile`, a `build.rs`, a Gradle script); here it reaches nothing the
//! entrant's own bot could not, but for the hosts its `network:` lists
//! (through the host's proxy, `super::proxy`).

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod home;

pub use home::{HOME_INSTALLS, LeftInHome};
use home::{take_marks, wrapper};

use super::proxy::{self, Allowed, Proxy};
use super::sys;
use crate::sandbox::{self, SandboxError, SandboxPolicy};

/// How much of a build's output (stdout and stderr together) is kept for
/// the message when it fails: the end, where compilers put their verdict.
const KEPT_OUTPUT: usize = 8 * 1024;

/// How often the host measures the build's folder.
pub const DISK_EVERY: Duration = Duration::from_millis(250);

/// The caps of a sandboxed build.
#[derive(Clone, Debug)]
pub struct BuildLimits {
    /// Wall time from start to end. Default 10 minutes.
    pub time: Duration,
    /// Memory of the build and all its processes (its cgroup; where none is
    /// writable, each process's address space). Default 4 GiB.
    pub memory: u64,
    /// Processes and threads at once (its `pids` cgroup, and
    /// `RLIMIT_NPROC`). Default 1024.
    pub processes: u64,
    /// Size of its scratch `/tmp`. Default 256 MiB.
    pub scratch_bytes: u64,
    /// Bytes it may add to its folder (measured every [`DISK_EVERY`], and
    /// no file larger, by `RLIMIT_FSIZE`). Default 4 GiB.
    pub disk: u64,
    /// Files and folders it may have in its folder. Default 200,000.
    pub files: u64,
    /// The hosts it may reach, through the host's proxy ([`proxy`]); none
    /// by default, and then it has no network at all.
    pub network: Vec<Allowed>,
}

impl Default for BuildLimits {
    fn default() -> Self {
        BuildLimits {
            time: Duration::from_secs(600),
            memory: 4 << 30,
            processes: 1024,
            scratch_bytes: 256 << 20,
            disk: 4 << 30,
            files: 200_000,
            network: Vec::new(),
        }
    }
}

/// A build that succeeded.
#[derive(Clone, Debug)]
pub struct Built {
    /// The end of its output.
    pub output: String,
    /// What it left in its `HOME` that its bot would need ([`HOME_INSTALLS`]):
    /// the scratch folder is gone when the build ends, so the bot will not
    /// find it. Most often an install that went to `HOME` without the
    /// author asking for it (pip falls back to `--user` when the system's
    /// packages are not writable, as they never are in the sandbox).
    pub left_in_home: Vec<LeftInHome>,
}

/// Why a build did not succeed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error(transparent)]
    Sandbox(#[from] SandboxError),
    #[error("cannot start the build: {0}")]
    Start(std::io::Error),
    #[error("{status}{}{}", refusals(refused), tail(output))]
    Failed {
        status: String,
        output: String,
        /// What its proxy refused it ([`Proxy::stop`]).
        refused: Vec<String>,
    },
    #[error("ran longer than its {} s and was stopped{}", seconds, tail(output))]
    TimedOut { seconds: u64, output: String },
    #[error("was stopped: {what}{}", tail(output))]
    Disk { what: String, output: String },
}

/// What a failed build's proxy refused it, for its message: often why.
fn refusals(refused: &[String]) -> String {
    if refused.is_empty() {
        String::new()
    } else {
        format!("; the host's proxy refused it {}", refused.join(", "))
    }
}

/// The end of a build's output for a message, after a line break.
fn tail(output: &str) -> String {
    let output = output.trim_end();
    if output.is_empty() {
        ", with no output".into()
    } else {
        format!("; the end of its output:\n{output}")
    }
}

/// Runs `command` with `sh -c` in `folder`, sandboxed, within `limits`;
/// the end of its output and what it left in its `HOME` when it succeeds.
/// Every process it started is killed when it ends.
pub fn run_sandboxed(
    command: &str,
    folder: &Path,
    limits: &BuildLimits,
) -> Result<Built, BuildError> {
    let networked = !limits.network.is_empty();
    let rust = rustup();
    let policy = SandboxPolicy {
        memory: Some(limits.memory),
        scratch_bytes: limits.scratch_bytes,
        // Its one way out: the proxy's listener in its own namespace.
        tcp_port: networked.then_some(proxy::PORT),
        read: rust
            .iter()
            .flat_map(|r| [r.bin.clone(), r.home.clone()])
            .collect(),
        ..SandboxPolicy::default()
    };
    let mut prepared = sandbox::prepare_build(folder, &policy, Some(limits.processes))?;
    let mut shell = Command::new("sh");
    shell
        .arg("-c")
        .arg(wrapper(&if networked {
            vec![(".m2/settings.xml", proxy::maven_settings())]
        } else {
            Vec::new()
        }))
        .arg("clue-build")
        .arg(command)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_clear()
        .env(
            "PATH",
            std::env::var_os("PATH").unwrap_or_else(|| "/usr/local/bin:/usr/bin:/bin".into()),
        )
        .env("HOME", prepared.scratch())
        .env("TMPDIR", prepared.scratch());
    for name in ["LANG", "LC_ALL", "LC_CTYPE"] {
        if let Some(value) = std::env::var_os(name) {
            shell.env(name, value);
        }
    }
    if networked {
        shell.envs(proxy::environment());
    }
    if let Some(rust) = &rust {
        // Its `HOME` is the scratch folder, where rustup's proxies would
        // look for their toolchains; cargo's own home stays there (its
        // registry cache, not the host's `~/.cargo` with its credentials).
        shell.env("RUSTUP_HOME", &rust.home);
        // A toolchain the host lacks (an entrant's `rust-toolchain.toml`)
        // cannot be installed in the read-only home: rustup's own words say
        // so ("toolchain '1.80.0-...' is not installed") where its attempt
        // to install ended in "could not create temp file ... Read-only file
        // system".
        shell.env("RUSTUP_AUTO_INSTALL", "0");
    }
    sys::contain(
        &mut shell,
        sys::Rlimits {
            address_space: (!prepared.memory_capped()).then_some(limits.memory),
            cpu_seconds: None,
            // A root host runs the build as its folder's owner, whose other
            // processes and threads (a desktop's browser) `RLIMIT_NPROC`
            // would count: the `pids` cgroup counts the build's alone.
            processes: (!prepared.processes_capped()).then_some(limits.processes),
            file_size: Some(limits.disk),
        },
    );
    sandbox::apply(&mut shell, &prepared);
    let before = measure(folder, u64::MAX);
    let mut child = shell.spawn().map_err(BuildError::Start)?;
    let proxy = match networked
        .then(|| prepared.take_listener(Duration::from_secs(10)))
        .flatten()
    {
        Some(listener) => match listener.and_then(|l| Proxy::start(l, limits.network.clone())) {
            Ok(proxy) => Some(proxy),
            Err(e) => {
                prepared.kill_all();
                let _ = child.kill();
                let _ = child.wait();
                return Err(BuildError::Start(e));
            }
        },
        None => None,
    };
    let output = Arc::new(Mutex::new(Vec::new()));
    let readers: Vec<_> = [
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    ]
    .into_iter()
    .flatten()
    .map(|pipe| {
        let output = Arc::clone(&output);
        std::thread::spawn(move || keep_tail(pipe, &output))
    })
    .collect();
    let deadline = Instant::now() + limits.time;
    let mut over_disk = None;
    // Until it ends, the deadline passes, or a measure finds its folder
    // over the cap.
    let status = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match sys::wait_timeout(&mut child, left.min(DISK_EVERY)) {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() >= deadline => break None,
            Ok(None) => {
                over_disk = over(folder, before, limits);
                if over_disk.is_some() {
                    break None;
                }
            }
            Err(_) => break None,
        }
    };
    // Whatever it left running (a daemon, a `sleep &`) dies with it.
    prepared.kill_all();
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    drop(prepared);
    let refused = proxy.map(Proxy::stop).unwrap_or_default();
    for reader in readers {
        let _ = reader.join();
    }
    let (output, left_in_home) = {
        let bytes = output.lock().unwrap_or_else(|e| e.into_inner());
        take_marks(&printable(&bytes))
    };
    match status {
        Some(status) if status.success() => Ok(Built {
            output: output.trim_end().to_string(),
            left_in_home,
        }),
        Some(status) => Err(BuildError::Failed {
            status: match (status.code(), status.signal()) {
                (Some(code), _) => format!("exited with status {code}"),
                (None, Some(signal)) => format!("was killed by signal {signal}"),
                (None, None) => format!("ended with {status}"),
            },
            output,
            refused,
        }),
        None => match over_disk {
            Some(what) => Err(BuildError::Disk { what, output }),
            None => Err(BuildError::TimedOut {
                seconds: limits.time.as_secs(),
                output,
            }),
        },
    }
}

/// The host's rustup: the folder of its proxies (`cargo`, `rustc`, found
/// through the host's `PATH`) and its home, where the toolchains are.
/// Bound read-only in a build's root, so that an entrant's `cargo build`
/// runs the host's toolchain; nothing else of `~/.cargo` (its registry
/// cache, a `credentials.toml`) is.
struct Rustup {
    bin: PathBuf,
    home: PathBuf,
}

fn rustup() -> Option<Rustup> {
    let rustup = sandbox::program_file(std::ffi::OsStr::new("rustup"))?;
    let bin = rustup.parent()?.to_path_buf();
    let home = match std::env::var_os("RUSTUP_HOME") {
        Some(home) => PathBuf::from(home),
        None => PathBuf::from(std::env::var_os("HOME")?).join(".rustup"),
    };
    let real = |p: &Path| std::fs::canonicalize(p).ok();
    Some(Rustup {
        bin: real(&bin)?,
        home: real(&home).filter(|h| h.join("toolchains").is_dir())?,
    })
}

/// What a folder holds: bytes allocated, and files and folders.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Usage {
    bytes: u64,
    entries: u64,
}

/// Why the build's folder, which held `before` when it started, is over
/// `limits` now; `None` while it is within them.
fn over(folder: &Path, before: Usage, limits: &BuildLimits) -> Option<String> {
    let cap = before.entries.saturating_add(limits.files);
    let now = measure(folder, cap);
    if now.entries > cap {
        Some(format!(
            "it made more than {} files and folders in its folder",
            limits.files
        ))
    } else if now.bytes > before.bytes.saturating_add(limits.disk) {
        Some(format!(
            "it wrote more than {} MiB into its folder",
            limits.disk >> 20
        ))
    } else {
        None
    }
}

/// The bytes allocated to every file below `folder` (links not followed,
/// so what a link points at is not counted), and how many entries there
/// are, counting up to just past `cap` entries. Entries that vanish while
/// it counts (the build is running) are skipped.
fn measure(folder: &Path, cap: u64) -> Usage {
    use std::os::unix::fs::MetadataExt;
    let mut usage = Usage::default();
    let mut folders = vec![folder.to_path_buf()];
    while let Some(dir) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            usage.entries += 1;
            if usage.entries > cap {
                return usage;
            }
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            usage.bytes = usage.bytes.saturating_add(meta.blocks() * 512);
            if meta.is_dir() {
                folders.push(entry.path());
            }
        }
    }
    usage
}

/// Reads `pipe` to its end, keeping the last [`KEPT_OUTPUT`] bytes of
/// everything read into `output` (shared by stdout and stderr).
fn keep_tail(mut pipe: Box<dyn Read + Send>, output: &Mutex<Vec<u8>>) {
    let mut buffer = [0u8; 4096];
    loop {
        match pipe.read(&mut buffer) {
            Ok(0) => return,
            Ok(n) => {
                let mut kept = output.lock().unwrap_or_else(|e| e.into_inner());
                kept.extend_from_slice(&buffer[..n]);
                let excess = kept.len().saturating_sub(KEPT_OUTPUT);
                kept.drain(..excess);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// A stranger's output made safe to print: its terminal escapes taken out
/// whole (a compiler's or Maven's colours, `\x1b[31m`, left `[31m` behind
/// when only the escape character went), then UTF-8 (invalid bytes
/// replaced) without control characters but line breaks and tabs, so that
/// it cannot move the cursor or retitle the organizer's terminal.
fn printable(bytes: &[u8]) -> String {
    anstream::adapter::strip_str(&String::from_utf8_lossy(bytes))
        .to_string()
        .chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_of_a_build_are_not_printed() {
        assert_eq!(
            printable(b"ok\x1b]0;owned\x07\r\n\tnext\xff"),
            "ok\n\tnext\u{fffd}"
        );
        assert_eq!(
            printable(b"\x1b[1;31m[ERROR]\x1b[m Plugin\x1b[0m\n\x1b[2Kdone\x07\x08"),
            "[ERROR] Plugin\ndone"
        );
    }

    #[test]
    fn a_folder_is_measured_without_following_links_and_its_caps_hold() {
        let dir = tempfile::tempdir().expect("a folder");
        std::fs::create_dir(dir.path().join("sub")).expect("sub");
        std::fs::write(dir.path().join("sub/data"), vec![1u8; 64 << 10]).expect("data");
        std::os::unix::fs::symlink("/usr", dir.path().join("usr")).expect("link");
        let before = measure(dir.path(), u64::MAX);
        assert_eq!(before.entries, 3);
        assert!(
            (64 << 10..1 << 20).contains(&before.bytes),
            "{before:?}: /usr is not counted"
        );
        let limits = BuildLimits {
            disk: 1 << 20,
            files: 2,
            ..BuildLimits::default()
        };
        assert_eq!(over(dir.path(), before, &limits), None);
        std::fs::write(dir.path().join("more"), vec![1u8; 2 << 20]).expect("more");
        assert_eq!(
            over(dir.path(), before, &limits).as_deref(),
            Some("it wrote more than 1 MiB into its folder")
        );
        for i in 0..2 {
            std::fs::write(dir.path().join(format!("f{i}")), "").expect("a file");
        }
        assert_eq!(
            over(dir.path(), before, &limits).as_deref(),
            Some("it made more than 2 files and folders in its folder")
        );
    }

    #[test]
    fn an_empty_output_is_said_so() {
        assert_eq!(tail(" \n"), ", with no output");
        assert_eq!(tail("a\nb\n"), "; the end of its output:\na\nb");
    }
}

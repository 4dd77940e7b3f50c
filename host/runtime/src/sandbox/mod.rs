//! The sandbox of every process bot and isolated native worker
//! (`docs/SANDBOX.md`): one layer applied where [`crate::process::BotProcess`]
//! starts a bot, on Linux:
//!
//! - **Landlock** (crate `landlock`): the bot reads and executes only the
//!   system's runtime folders, its own folder (that of every word of its
//!   command line naming a file or folder, `sh -c` lines included), its
//!   working directory and the paths declared for it ([`SandboxPolicy::read`]);
//!   it writes only its private scratch folder (its `TMPDIR` and `HOME`, its
//!   working directory unless one is declared) and `/dev/null`-like devices.
//!   TCP `bind` is refused and TCP `connect` too, but for a Speed Clue bot's one
//!   port to the host. Signals to processes outside the bot's own domain (the
//!   host, other bots) are refused, and so is `ptrace` of them.
//! - **A network namespace** (`unshare(CLONE_NEWNET)`, inside a fresh user
//!   namespace when the host is not root): no interface but a down loopback,
//!   so no UDP or unix-socket path to anything either. Speed Clue bots stay in
//!   the host's namespace: they must reach the host's port, which Landlock
//!   limits them to.
//! - **A seccomp filter** (crate `seccompiler`, built once in the host):
//!   `EPERM` for what no bot needs: ptrace, mount, namespaces, bpf, keyrings,
//!   perf, kexec, modules, `process_vm_*`, reboot, swap, `userfaultfd`.
//! - **cgroups** (v1 `pids` and `memory` where writable, as root here): a cap
//!   on processes and on memory, and, at the end of the game, every process
//!   of the bot's cgroup is killed, so no `setsid` and double fork survives.
//!
//! Why these and not `bubblewrap`: the crates need no tool installed, cost no
//! extra process per bot (a few system calls between `fork` and `exec`), and
//! Landlock's scopes give what a PID namespace gives a bot that runs as the
//! host's user (no signal or ptrace of anything outside) without an init
//! process to keep. See `docs/SANDBOX.md` for what is and is not done.

mod sys;

use std::ffi::OsStr;
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, NetPort, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope, path_beneath_rules,
};

pub use sys::Layer;

/// The Landlock ABI the rules are written for (6: signal scopes).
const ABI_NEEDED: ABI = ABI::V6;

/// Read-only system folders every bot may read and run programs from.
const SYSTEM_READ: &[&str] = &[
    "/usr",
    "/lib",
    "/lib64",
    "/lib32",
    "/bin",
    "/sbin",
    "/etc",
    "/opt",
    "/proc",
    "/sys",
    "/run/current-system",
    "/nix/store",
];

/// Devices a bot may read and write.
const DEVICES: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/dev/full",
];

/// How a bot is sandboxed; part of [`crate::process::ProcessLimits`].
#[derive(Clone, Debug)]
pub struct SandboxPolicy {
    /// Whether the sandbox applies. Default off for now: turning it on by
    /// default waits on the zoo's regenerated table and the honest bots'
    /// checks (docs/SANDBOX.md, "State"); [`SandboxPolicy::on`] turns it on.
    pub enabled: bool,
    /// Paths the bot may read besides the system, its own folder and its
    /// working directory (a tournament's `read:`).
    pub read: Vec<PathBuf>,
    /// The one loopback TCP port the bot may connect to (set by the Speed
    /// Clue runtime; every other bot gets no network at all).
    pub tcp_port: Option<u16>,
    /// Memory of the bot and its children, by cgroup where one is writable.
    /// Default 2 GiB.
    pub memory: Option<u64>,
}

impl Default for SandboxPolicy {
    fn default() -> Self {
        SandboxPolicy {
            enabled: false,
            read: Vec::new(),
            tcp_port: None,
            memory: Some(2 << 30),
        }
    }
}

impl SandboxPolicy {
    /// Every layer, with the default limits.
    pub fn on() -> Self {
        SandboxPolicy {
            enabled: true,
            ..SandboxPolicy::default()
        }
    }

    /// No sandbox: the bot is an ordinary process of the host's user.
    pub fn off() -> Self {
        SandboxPolicy {
            enabled: false,
            ..SandboxPolicy::default()
        }
    }
}

/// A sandbox that cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error(
        "the sandbox needs {layer}, which is not available here ({why}); \
         run `clue doctor`, or opt out with `sandbox: off` / `--no-sandbox`"
    )]
    Missing { layer: &'static str, why: String },
    #[error("cannot create the bot's scratch folder: {0}")]
    Scratch(std::io::Error),
    #[error("cannot set up the Landlock rules: {0}")]
    Landlock(String),
    #[error("cannot build the seccomp filter: {0}")]
    Seccomp(String),
}

/// A sandbox ready for one bot: made in the host before the bot starts,
/// applied in the child between `fork` and `exec`, torn down (every process
/// in it killed, the scratch folder removed) when dropped.
pub struct Prepared {
    scratch: tempfile::TempDir,
    pub(crate) child: sys::ChildSetup,
    cgroups: Vec<PathBuf>,
}

impl Prepared {
    /// The bot's private scratch folder.
    pub fn scratch(&self) -> &Path {
        self.scratch.path()
    }

    /// Kills every process left in the bot's cgroups (children that left its
    /// process group with `setsid`).
    pub fn kill_all(&self) {
        for cgroup in &self.cgroups {
            sys::kill_cgroup(cgroup);
        }
    }
}

impl Drop for Prepared {
    fn drop(&mut self) {
        self.kill_all();
        for cgroup in &self.cgroups {
            // Empty now (or the removal fails and the empty cgroup stays).
            let _ = std::fs::remove_dir(cgroup);
        }
    }
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// Prepares the sandbox of a bot started as `argv` in `dir`, with the
/// cgroup limits `processes` and `policy.memory`. `None` when the policy is off.
pub fn prepare(
    argv: &[String],
    dir: Option<&Path>,
    policy: &SandboxPolicy,
    processes: Option<u64>,
) -> Result<Option<Prepared>, SandboxError> {
    if !policy.enabled {
        return Ok(None);
    }
    if !cfg!(target_os = "linux") {
        return Err(SandboxError::Missing {
            layer: "Landlock",
            why: "not Linux".into(),
        });
    }
    let abi = landlock_abi();
    if abi < 6 {
        return Err(SandboxError::Missing {
            layer: "Landlock ABI 6",
            why: format!("the kernel offers ABI {abi}"),
        });
    }
    let scratch = tempfile::Builder::new()
        .prefix("clue-bot-")
        .tempdir()
        .map_err(SandboxError::Scratch)?;
    let mut read: Vec<PathBuf> = SYSTEM_READ.iter().map(PathBuf::from).collect();
    read.extend(own_folders(argv));
    if let Some(dir) = dir {
        read.push(absolute(dir));
    }
    read.extend(policy.read.iter().map(|p| absolute(p)));
    let ruleset = ruleset(&read, scratch.path(), policy.tcp_port)?;
    let seccomp = seccomp_filter()?;
    let cgroups = make_cgroups(policy.memory, processes);
    let join: Vec<OwnedFd> = cgroups
        .iter()
        .filter_map(|c| sys::open_procs(c).ok())
        .collect();
    let child = sys::ChildSetup {
        ruleset,
        seccomp,
        join,
        new_netns: policy.tcp_port.is_none(),
        as_root: sys::is_root(),
    };
    Ok(Some(Prepared {
        scratch,
        child,
        cgroups,
    }))
}

/// The Landlock ABI the kernel offers (0: none).
pub fn landlock_abi() -> i64 {
    sys::landlock_abi()
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The folders of every word of the command line that names a file (its
/// folder) or a folder (itself), looking inside `sh -c` strings too; the
/// program itself found through `PATH`.
fn own_folders(argv: &[String]) -> Vec<PathBuf> {
    let mut words: Vec<String> = Vec::new();
    for word in argv {
        words.push(word.clone());
        if word.contains(' ')
            && let Ok(inner) = shell_words::split(word)
        {
            words.extend(inner);
        }
    }
    let mut out = Vec::new();
    for word in &words {
        // `--flag=path` and `-cp a:b` forms: every piece that names something.
        let pieces = word
            .split_once('=')
            .map_or(word.as_str(), |(_, v)| v)
            .split(':');
        for piece in pieces {
            if piece.is_empty() || piece == "/" {
                continue;
            }
            let path = Path::new(piece);
            let found = if path.components().count() == 1 && !path.exists() {
                which(OsStr::new(piece))
            } else if path.exists() {
                Some(absolute(path))
            } else {
                None
            };
            let Some(found) = found else { continue };
            let folder = if found.is_dir() {
                Some(found)
            } else {
                found.parent().map(Path::to_path_buf)
            };
            if let Some(folder) = folder
                && folder != Path::new("/")
            {
                out.push(folder);
            }
        }
    }
    out
}

fn which(program: &OsStr) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

fn ruleset(read: &[PathBuf], scratch: &Path, port: Option<u16>) -> Result<OwnedFd, SandboxError> {
    let abi = ABI_NEEDED;
    let err = |e: landlock::RulesetError| SandboxError::Landlock(e.to_string());
    let read_only = AccessFs::from_read(abi);
    let read_write = AccessFs::from_all(abi);
    let existing = |paths: &[PathBuf]| -> Vec<PathBuf> {
        paths.iter().filter(|p| p.exists()).cloned().collect()
    };
    let devices: Vec<PathBuf> = DEVICES.iter().map(PathBuf::from).collect();
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(abi))
        .map_err(err)?
        .handle_access(AccessNet::from_all(abi))
        .map_err(err)?
        .scope(Scope::Signal)
        .map_err(err)?
        .scope(Scope::AbstractUnixSocket)
        .map_err(err)?
        .create()
        .map_err(err)?
        .add_rules(path_beneath_rules(existing(read), read_only))
        .map_err(err)?
        .add_rules(path_beneath_rules(
            existing(&devices),
            AccessFs::ReadFile | AccessFs::WriteFile,
        ))
        .map_err(err)?
        .add_rules(path_beneath_rules([scratch], read_write))
        .map_err(err)?;
    if let Some(port) = port {
        ruleset = ruleset
            .add_rule(NetPort::new(port, AccessNet::ConnectTcp))
            .map_err(err)?;
    }
    Option::<OwnedFd>::from(ruleset)
        .ok_or_else(|| SandboxError::Landlock("the kernel made no ruleset".into()))
}

/// System calls no bot needs, answered with `EPERM`.
const DENIED: &[&str] = &[
    "ptrace",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "bpf",
    "keyctl",
    "add_key",
    "request_key",
    "perf_event_open",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "process_vm_readv",
    "process_vm_writev",
    "reboot",
    "swapon",
    "swapoff",
    "userfaultfd",
    "open_by_handle_at",
    "fsopen",
    "fsmount",
    "move_mount",
    "open_tree",
];

fn seccomp_filter() -> Result<seccompiler::BpfProgram, SandboxError> {
    use seccompiler::{SeccompAction, SeccompFilter, TargetArch};
    let arch = TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|e| SandboxError::Seccomp(e.to_string()))?;
    let rules = DENIED
        .iter()
        .filter_map(|name| sys::syscall_number(name).map(|n| (n, Vec::new())))
        .collect();
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM as u32),
        arch,
    )
    .map_err(|e| SandboxError::Seccomp(e.to_string()))?;
    filter
        .try_into()
        .map_err(|e: seccompiler::BackendError| SandboxError::Seccomp(e.to_string()))
}

/// Creates the bot's cgroups where a v1 controller is writable: `pids`
/// (`pids.max`) and `memory` (`memory.limit_in_bytes`, swap included where
/// accounted). Missing or read-only controllers are skipped (see [`layers`]).
fn make_cgroups(memory: Option<u64>, processes: Option<u64>) -> Vec<PathBuf> {
    let name = format!(
        "clue-arena/bot-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    let mut out = Vec::new();
    type Settings<'a> = [(&'a str, Vec<(&'a str, Option<u64>)>); 2];
    let settings: Settings = [
        ("pids", vec![("pids.max", processes)]),
        (
            "memory",
            vec![
                ("memory.limit_in_bytes", memory),
                ("memory.memsw.limit_in_bytes", memory),
            ],
        ),
    ];
    for (controller, files) in settings {
        let dir = Path::new("/sys/fs/cgroup").join(controller).join(&name);
        if std::fs::create_dir_all(&dir).is_err() {
            continue;
        }
        for (file, value) in files {
            if let Some(value) = value {
                let _ = std::fs::write(dir.join(file), value.to_string());
            }
        }
        out.push(dir);
    }
    out
}

/// Each layer of the sandbox on this machine, for `clue doctor`.
pub fn layers() -> Vec<Layer> {
    sys::layers()
}

/// Adds `sandbox` to `command`: applied in the child before it runs the bot.
pub(crate) fn apply(command: &mut std::process::Command, sandbox: &Prepared) {
    sys::apply(command, &sandbox.child);
}

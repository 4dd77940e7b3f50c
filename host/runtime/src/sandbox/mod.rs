//! The sandbox of every process bot and isolated native worker
//! (`docs/process-sandbox.md`, `docs/SANDBOX.md`): one layer applied where
//! [`crate::process::BotProcess`] starts a bot, on Linux:
//!
//! - **Namespaces**: the bot is PID 2 of a PID namespace of its own, under
//!   an init that only waits (a fork of the host that first wipes its copy
//!   of the host's command line and environment), itself the child of a
//!   tiny init outside that mirrors the bot's exit; so it sees and signals
//!   no other process, and every descendant dies with it (no `setsid` escape); a mount
//!   namespace with a root folder of its own (below); an IPC namespace; a UTS
//!   namespace named [`BOT_HOSTNAME`] (with an `/etc/hostname`,
//!   `/etc/hosts` and `/etc/machine-id` of its own);
//!   a fresh network namespace (no interface but a down loopback); a Speed
//!   Clue bot's loopback is brought up, with the host's listener for it on
//!   its one port there (made by the child, sent back to the host), so it
//!   reaches that listener and nothing else. When the host is root the bot
//!   runs as an unprivileged uid and gid of its own (no capabilities); when
//!   it is not, a user namespace maps the host's user to itself.
//! - **Its own root folder** (`pivot_root` into a `tmpfs`): read-only binds
//!   of the system's runtime folders and of the host's version-managed
//!   toolchains (the root of each manager whose `shims` are on the host's
//!   `PATH`), of the bot's own folders (that of every word of its command
//!   line naming a file or folder, `sh -c` lines included) and of the paths
//!   declared for it ([`SandboxPolicy::read`]);
//!   a fresh `/proc` of its PID namespace and a fresh read-only `/sys` of
//!   its network namespace (its loopback, not the host's network devices);
//!   `/dev/null`-like devices; an
//!   `/etc/passwd` and `/etc/group` naming its own uid `bot`; and
//!   `/tmp`, a size-capped `tmpfs` ([`SandboxPolicy::scratch_bytes`]), its
//!   `TMPDIR`, `HOME` and working directory (unless one is declared). The
//!   host's `/tmp`, home folder, store and checkout are simply not there.
//! - **Landlock** (crate `landlock`): as a second wall, reads only, writes
//!   only to `/tmp` and the devices, no TCP `bind`, no TCP `connect` but a
//!   Speed Clue bot's port, no signals out of its domain.
//! - **A seccomp filter** (crate `seccompiler`, built in the host):
//!   `EPERM` for what no bot needs: ptrace, mount, namespaces (`unshare`,
//!   `setns`, `clone` with a namespace flag; `clone3`, whose flags a filter
//!   cannot read, answers `ENOSYS` so that libc falls back to `clone`), bpf,
//!   keyrings, perf, kexec, modules, `process_vm_*`, reboot, swap,
//!   `userfaultfd`, `io_uring`, file watches (`inotify`, `fanotify`,
//!   `F_NOTIFY`, leases), probes of the page cache (`cachestat`, `preadv2`'s
//!   `RWF_NOWAIT`, and `mincore`, which answers `ENOSYS`); locks (`flock`, `fcntl`'s) taken without effect: so that
//!   two bots cannot signal through the system files they both see;
//!   sockets of any family but Unix
//!   (`EAFNOSUPPORT`), and for a Speed Clue bot any but Unix and TCP;
//!   every x32 system call (on x86-64: the rules name native numbers, and
//!   x32 shares the native architecture); a call of another architecture
//!   (i386's `int 0x80`) kills the process.
//! - **cgroups** ([`cgroup`]: v1 `pids`, `memory` and `cpuacct` where
//!   writable, as root here, else a delegated v2 subtree): a cap on
//!   processes and on memory (so a JVM needs no `-Xmx`, and `RLIMIT_AS` is
//!   only the fallback), the CPU time of the bot and all its children
//!   counted (see [`Prepared::cpu_seconds`]), and at the end every process
//!   of the bot's cgroup killed.
//!
//! Why crates and system calls rather than `bubblewrap` or `nsjail`: nothing
//! to install, and no extra program per bot: the set-up is a few dozen
//! system calls between `fork` and `exec` (docs/process-sandbox.md has the
//! measured cost). The steps are those of bubblewrap's `--unshare-all
//! --ro-bind ... --proc /proc --tmpfs /tmp --die-with-parent`, and the
//! unprivileged id that of IOI's `isolate`.

pub mod cgroup;
mod mount;
mod paths;
mod probe;
mod seccomp;
mod sys;

/// Also the warden's, in `process/sys.rs`.
pub(crate) use sys::close_all_but;

pub use paths::{lexically_normal, program_file, seen_by_every_bot};
pub use probe::{Layer, host_uid, landlock_abi, layers};

use mount::fs_plan;
use paths::{
    absolute, foreign_program, in_scratch, linked_elsewhere, own_folders, toolchain_roots,
    toolchain_shims,
};
use seccomp::seccomp_filters;

use std::ffi::{CString, OsStr};
use std::io;
use std::net::TcpListener;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, NetPort, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope, path_beneath_rules,
};

/// The Landlock ABI the rules are written for (6: signal scopes).
const ABI_NEEDED: ABI = ABI::V6;

/// The scratch folder inside the bot's root.
pub const SCRATCH: &str = "/tmp";

/// The user name a sandboxed bot is given (`USER`, `LOGNAME`), whatever
/// the host's.
pub const BOT_USER: &str = "bot";

/// The host name a sandboxed bot sees (`uname -n`, `gethostname`,
/// `/etc/hostname`), set in its UTS namespace whatever the host's: the
/// host's name is not the bot's to know, and a bot that seeds or names
/// files by it plays alike on every machine. Its `/etc/hosts` maps it (and
/// `localhost`) to loopback, so that a JVM's `InetAddress.getLocalHost()`
/// or Python's `socket.gethostbyname(socket.gethostname())` still answers.
pub const BOT_HOSTNAME: &str = "clue-bot";

/// The bot's `/etc/machine-id`, whatever the host's (the first 32 hex
/// digits of the SHA-256 of [`BOT_HOSTNAME`]): the host's is a number
/// unique to the machine, for the same reasons as its name not the bot's.
pub const BOT_MACHINE_ID: &str = "d9f47d41f67b8fd612f23a5d39f1d962";

/// The bot's own POSIX shared memory folder (`shm_open`, `sem_open`:
/// Python's `multiprocessing` locks, queues and pools need it), a `tmpfs` of
/// the scratch folder's size, not the host's: two bots never share one.
pub const SHARED_MEMORY: &str = "/dev/shm";

/// The first uid (and gid) of sandboxed bots when the host is root: each bot
/// gets the next one (wrapping after `UID_COUNT`), as IOI's `isolate` gives
/// each box its own, so that `RLIMIT_NPROC` counts one bot's processes.
pub const UID_BASE: u32 = 1_900_000_000;
const UID_COUNT: u64 = 1_000_000;

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
    /// Whether the sandbox applies. On by default; off only when the user
    /// says so (`sandbox: off` in a tournament file, `--no-sandbox`).
    pub enabled: bool,
    /// Paths the bot may read besides the system, its own folder and its
    /// working directory (a tournament's `read:`).
    pub read: Vec<PathBuf>,
    /// The one TCP port the bot may connect to (set by the Speed Clue
    /// runtime; every other bot gets no network at all): the sandbox makes
    /// a listener on `127.0.0.1` at this port in the bot's own network
    /// namespace, which the host takes with [`Prepared::take_listener`].
    pub tcp_port: Option<u16>,
    /// Memory of the bot and its children, by cgroup where one is writable.
    /// Default 2 GiB.
    pub memory: Option<u64>,
    /// Size of the scratch folder (`/tmp`, a `tmpfs`). Default 64 MiB.
    pub scratch_bytes: u64,
    /// A cgroup v2 folder to make the bot's cgroup in, instead of the
    /// hierarchy probed at start ([`cgroup::hierarchy`]): the controllers
    /// its `cgroup.subtree_control` enables apply.
    pub cgroup_v2: Option<PathBuf>,
    /// The one folder a sandboxed build may write besides its scratch
    /// folder (set by [`prepare_build`]; no bot gets one): bound read-write
    /// at its own path, writable under Landlock. When the host is root the
    /// build runs as the folder's owner, never as root.
    pub write: Option<PathBuf>,
}

/// Whether [`SandboxPolicy::default`] is on: true unless the user opted out
/// for the whole run (`clue --no-sandbox`, [`opt_out_everywhere`]).
static ON_BY_DEFAULT: AtomicBool = AtomicBool::new(true);

/// `--no-sandbox`: every bot started from now on in this process runs
/// without the sandbox. Only an explicit choice of the user may call this.
pub fn opt_out_everywhere() {
    ON_BY_DEFAULT.store(false, Ordering::Relaxed);
}

/// Why a sandboxed bot of this command line cannot run, found before it
/// starts: a program of another architecture
/// ([`SandboxError::ForeignProgram`]), or a folder of the command line that
/// leads through a symbolic link out of the system folders
/// ([`SandboxError::Linked`]). `None` when it may start, or when
/// `--no-sandbox` is in force. A tournament file's check calls this so that
/// the error names the file's line.
pub fn refuses(argv: &[String]) -> Option<SandboxError> {
    if !ON_BY_DEFAULT.load(Ordering::Relaxed) {
        return None;
    }
    refused(argv, &own_folders(argv))
}

/// Why a sandboxed build may not write `folder` (see [`prepare_build`]),
/// found before it starts; `None` when it may, or when `--no-sandbox` is in
/// force.
pub fn refuses_build(folder: &Path) -> Option<SandboxError> {
    if !ON_BY_DEFAULT.load(Ordering::Relaxed) {
        return None;
    }
    writable_folder(folder).err()
}

/// Why the file of a sandboxed bot that the host itself reads (a wasm
/// component, an isolated native library) may not be used: it leads
/// through a symbolic link (the file, or a folder on its way) out of the
/// folder it is named in ([`SandboxError::LinkedFile`]). A link in an
/// entrant's folder (`bot.wasm -> ../bob/bot.wasm`, or `lib -> ../bob`)
/// would have the entrant play with another entrant's bot, and the host
/// cannot tell where an entrant's folder begins, so any such link is
/// refused, as a linked folder on a process bot's command line is
/// ([`SandboxError::Linked`]). A link to a file beside it, or below it
/// through real folders, stays in the folder and is allowed; so is one into
/// the system folders, which no entrant writes. `None` as well when the
/// file cannot be found (the caller says so), or under `--no-sandbox`.
pub fn refuses_file(path: &Path) -> Option<SandboxError> {
    if !ON_BY_DEFAULT.load(Ordering::Relaxed) {
        return None;
    }
    file_linked_out(path)
}

/// [`refuses_file`] whatever the default.
fn file_linked_out(path: &Path) -> Option<SandboxError> {
    let named = lexically_normal(&absolute(path));
    let real = std::fs::canonicalize(path).ok()?;
    let folder = named.parent()?;
    let stays = real.starts_with(folder) || seen_by_every_bot(&real);
    (!stays).then(|| SandboxError::LinkedFile {
        path: path.to_path_buf(),
        real,
    })
}

/// [`refuses`] whatever the default, for a command line whose own folders
/// are `own`.
fn refused(argv: &[String], own: &[PathBuf]) -> Option<SandboxError> {
    if let Some(program) = argv.first().and_then(|p| program_file(OsStr::new(p))) {
        if let Some(what) = foreign_program(&program) {
            return Some(SandboxError::ForeignProgram { program, what });
        }
        // A program named by its path that is a link out of its folder: the
        // sandbox shows the bot that folder alone, so it could not start
        // (and binding where the link leads could show it another
        // entrant's folder). Said here, by name, rather than seen to fail.
        if argv[0].contains('/')
            && let Some(refused) = file_linked_out(&program)
        {
            return Some(refused);
        }
    }
    if let Some(path) = in_scratch(argv) {
        return Some(SandboxError::InScratch { path });
    }
    own.iter()
        .find_map(|f| linked_elsewhere(f))
        .map(|(path, real)| SandboxError::Linked { path, real })
}

impl Default for SandboxPolicy {
    fn default() -> Self {
        SandboxPolicy {
            enabled: ON_BY_DEFAULT.load(Ordering::Relaxed),
            read: Vec::new(),
            tcp_port: None,
            memory: Some(2 << 30),
            scratch_bytes: 64 << 20,
            cgroup_v2: None,
            write: None,
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
    #[error("cannot create the mount point of the bot's root folder: {0}")]
    Scratch(std::io::Error),
    #[error("cannot set up the Landlock rules: {0}")]
    Landlock(String),
    #[error("cannot build the seccomp filter: {0}")]
    Seccomp(String),
    #[error("cannot make the socket pair a Speed Clue bot's listener comes back over: {0}")]
    Channel(std::io::Error),
    #[error("a path of the bot cannot be passed to the kernel: {0}")]
    Path(String),
    #[error(
        "the bot's folder {} is not readable by other users (mode {mode:o}), and the \
         sandboxed bot runs as an unprivileged uid of its own: `chmod o+rx` it (and \
         o+r its files), or opt out with `sandbox: off` / `--no-sandbox`",
        path.display()
    )]
    Unreadable { path: PathBuf, mode: u32 },
    #[error(
        "the bot's folder {} leads through a symbolic link to {}, which the sandbox \
         would show the bot (a link inside an entrant's folder could so show it any \
         folder of the machine): name the folder where it is ({}) on the command line, \
         or opt out with `sandbox: off` / `--no-sandbox`",
        path.display(),
        real.display(),
        real.display()
    )]
    Linked { path: PathBuf, real: PathBuf },
    #[error(
        "the bot's file {} leads through a symbolic link to {}, out of the folder it is \
         named in, and a link an entrant shipped could so name another entrant's bot: \
         name the file where it is ({}), or, for a bot you trust, opt out with \
         `sandbox: off` / `--no-sandbox`",
        path.display(),
        real.display(),
        real.display()
    )]
    LinkedFile { path: PathBuf, real: PathBuf },
    #[error(
        "{} is {what}, and the sandbox runs only {} programs (its seccomp filter \
         kills a process at its first system call of another architecture): rebuild \
         it for {}, or, for a bot you trust, opt out with `sandbox: off` / `--no-sandbox`",
        program.display(),
        std::env::consts::ARCH,
        std::env::consts::ARCH
    )]
    ForeignProgram { program: PathBuf, what: String },
    #[error(
        "the bot's file {} lies directly in {SCRATCH}, which the sandbox replaces with \
         the bot's own empty scratch folder (the host's holds other programs' files), so \
         the bot would not find it: move it into a folder of its own, such as {}, or, \
         for a bot you trust, opt out with `sandbox: off` / `--no-sandbox`",
        path.display(),
        Path::new(SCRATCH).join("bot").join(path.file_name().unwrap_or_default()).display()
    )]
    InScratch { path: PathBuf },
    #[error("the build's folder {}: {why}", path.display())]
    BuildFolder { path: PathBuf, why: String },
}

/// A sandbox ready for one bot: made in the host before the bot starts,
/// applied in the child between `fork` and `exec`, torn down (every process
/// in it killed, the mount point removed) when dropped.
pub struct Prepared {
    /// The mount point of the bot's root (an empty folder of the host's,
    /// shared by every bot: see [`mount_point`]).
    root: PathBuf,
    pub(crate) child: sys::ChildSetup,
    cgroups: cgroup::BotCgroups,
    workdir: PathBuf,
    /// The host's end of the socket pair a Speed Clue bot's listener comes
    /// back over ([`Prepared::take_listener`]).
    listener_channel: Option<OwnedFd>,
}

impl Prepared {
    /// A Speed Clue bot's listener ([`SandboxPolicy::tcp_port`]), made on
    /// `127.0.0.1` in the bot's own network namespace as it started (so that
    /// it reaches that listener and nothing else); waits at most `within`
    /// for it. `None` for a bot with no TCP port, or once taken.
    pub fn take_listener(&mut self, within: Duration) -> Option<io::Result<TcpListener>> {
        let channel = self.listener_channel.take()?;
        // The child's end, copied into the child at `fork`, is no longer
        // needed here.
        self.child.listen = None;
        Some(sys::receive_descriptor(&channel, within).map(TcpListener::from))
    }

    /// The bot's private scratch folder, as the bot sees it (`/tmp`).
    pub fn scratch(&self) -> &Path {
        Path::new(SCRATCH)
    }

    /// The bot's working directory, as it sees it.
    pub fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// The empty host folder the bot's root is mounted on (in the bot's
    /// mount namespace only: from the host it stays empty).
    pub fn mount_point(&self) -> &Path {
        &self.root
    }

    /// Whether the bot's memory is capped by a cgroup (then `RLIMIT_AS`,
    /// which a JVM's reservations trip over, is not needed).
    pub fn memory_capped(&self) -> bool {
        self.cgroups.memory_capped()
    }

    /// Whether the bot's processes are capped by a cgroup (then
    /// `RLIMIT_NPROC`, which counts every process of the bot's uid on the
    /// machine, is not needed).
    pub fn processes_capped(&self) -> bool {
        self.cgroups.processes_capped()
    }

    /// CPU seconds used so far by the bot and every process it started,
    /// background children included (v1 `cpuacct.usage`, v2 `cpu.stat`);
    /// `None` without such a cgroup.
    pub fn cpu_seconds(&self) -> Option<f64> {
        self.cgroups.cpu_seconds()
    }

    /// Whether the bot's memory cgroup reached its cap or the kernel's OOM
    /// killer struck in it.
    pub fn out_of_memory(&self) -> bool {
        self.cgroups.out_of_memory()
    }

    /// The bot's cgroup folders (v1: one per controller; v2: one).
    pub fn cgroups(&self) -> &[PathBuf] {
        self.cgroups.dirs()
    }

    /// Kills every process left in the bot's cgroups.
    pub fn kill_all(&self) {
        self.cgroups.kill_all();
    }
}

static NEXT: AtomicU64 = AtomicU64::new(0);

/// The empty folder every bot's root is mounted on. The mount is made in the
/// bot's own mount namespace, so the host never sees it and one folder
/// serves every bot, concurrent ones and other host processes' included: a
/// folder made and removed per bot cost 1 to 3 ms of every start on this
/// machine's ext4 `/tmp` (docs/process-sandbox.md, "Cost").
///
/// It is `clue-bots-<uid>` in the temporary folder, made once and kept, as
/// `tmux` keeps `/tmp/tmux-<uid>`: a folder per host process removed at
/// exit was left behind by every host killed with `SIGKILL`. It is used
/// only if it is a real folder (not a link) owned by this user with mode
/// 0700; when another user holds that name, each host makes a folder of
/// its own and removes it at exit, as before.
fn mount_point() -> Result<PathBuf, SandboxError> {
    static POINT: std::sync::Mutex<Option<PathBuf>> = std::sync::Mutex::new(None);
    let mut point = POINT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(path) = point.as_ref() {
        return Ok(path.clone());
    }
    let (uid, _) = sys::host_ids();
    let path = match shared_mount_point(&std::env::temp_dir(), uid) {
        Some(path) => path,
        None => {
            let path = tempfile::Builder::new()
                .prefix("clue-bots-")
                .tempdir()
                .map_err(SandboxError::Scratch)?
                .keep();
            sys::remove_at_exit(c_path(&path)?);
            path
        }
    };
    *point = Some(path.clone());
    Ok(path)
}

/// `dir/clue-bots-<uid>`, made with mode 0700 if missing; `None` unless it
/// is then a folder (not a link) that `uid` owns and nobody else may enter.
fn shared_mount_point(dir: &Path, uid: u32) -> Option<PathBuf> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    let path = dir.join(format!("clue-bots-{uid}"));
    // Another host may make it at the same moment: "already exists" is fine.
    let _ = std::fs::DirBuilder::new().mode(0o700).create(&path);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    let usable = meta.file_type().is_dir() && meta.uid() == uid && meta.mode() & 0o077 == 0;
    usable.then_some(path)
}

/// Prepares the sandbox of a bot started as `argv` in `dir`, with the
/// cgroup limits `processes` and `policy.memory`. `None` when the policy is
/// off; an error naming the layer when one it needs is missing here.
pub fn prepare(
    argv: &[String],
    dir: Option<&Path>,
    policy: &SandboxPolicy,
    processes: Option<u64>,
) -> Result<Option<Prepared>, SandboxError> {
    if !policy.enabled {
        return Ok(None);
    }
    if let Some(missing) = layers().into_iter().find(|l| l.required && !l.available) {
        return Err(SandboxError::Missing {
            layer: missing.name,
            why: missing.detail,
        });
    }
    let own = own_folders(argv);
    if let Some(refusal) = refused(argv, &own) {
        return Err(refusal);
    }
    let write = policy.write.as_deref().map(writable_folder).transpose()?;
    let root = mount_point()?;
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let (host_uid, host_gid) = sys::host_ids();
    let ids = if let (0, Some((_, uid, gid))) = (host_uid, &write) {
        sys::Ids::Switch {
            uid: *uid,
            gid: *gid,
        }
    } else if host_uid == 0 {
        let id = UID_BASE + (n % UID_COUNT) as u32;
        sys::Ids::Switch { uid: id, gid: id }
    } else {
        sys::Ids::UserNamespace {
            uid_map: c_string(format!("{host_uid} {host_uid} 1").as_bytes())?,
            gid_map: c_string(format!("{host_gid} {host_gid} 1").as_bytes())?,
        }
    };
    let mut read: Vec<PathBuf> = SYSTEM_READ.iter().map(PathBuf::from).collect();
    // The host's version-managed toolchains, so that a program found
    // through `PATH` inside is the host's: a `#!/usr/bin/env python3` bot
    // ran the system's Python (pyenv's shims folder was not there), without
    // the packages installed for the host's.
    read.extend(toolchain_roots());
    if host_uid == 0 {
        // The bot will not be root: a folder of its own it cannot enter
        // (a `tempfile` folder is 0700) would fail later, obscurely.
        use std::os::unix::fs::PermissionsExt;
        for folder in &own {
            if let Ok(meta) = std::fs::metadata(folder) {
                let mode = meta.permissions().mode() & 0o7777;
                if mode & 0o005 != 0o005 {
                    return Err(SandboxError::Unreadable {
                        path: folder.clone(),
                        mode,
                    });
                }
            }
        }
    }
    read.extend(own);
    let workdir = match dir {
        Some(dir) => {
            let dir = absolute(dir);
            read.push(dir.clone());
            std::fs::canonicalize(&dir).unwrap_or(dir)
        }
        None => PathBuf::from(SCRATCH),
    };
    read.extend(policy.read.iter().map(|p| absolute(p)));
    let owner = match &ids {
        sys::Ids::Switch { uid, gid } => format!(",uid={uid},gid={gid}"),
        sys::Ids::UserNamespace { .. } => String::new(),
    };
    let scratch_options = format!(
        "size={},nr_inodes=16384,mode=0700{owner}",
        policy.scratch_bytes.max(4096)
    );
    let ruleset = ruleset(policy.tcp_port)?;
    let seccomp = seccomp_filters(policy.tcp_port.is_some())?;
    let hierarchy = match &policy.cgroup_v2 {
        Some(base) => cgroup::Hierarchy::V2 {
            controllers: std::fs::read_to_string(base.join("cgroup.subtree_control"))
                .unwrap_or_default()
                .split_whitespace()
                .map(String::from)
                .collect(),
            base: base.clone(),
        },
        None => cgroup::hierarchy().clone(),
    };
    let name = format!("bot-{}-{n}", std::process::id());
    let cgroups = cgroup::BotCgroups::make(&hierarchy, &name, policy.memory, processes);
    let join: Vec<OwnedFd> = cgroups.join_files();
    let write = write.map(|(folder, _, _)| folder);
    // A build's throwaway copies of the toolchains' shims, which their
    // hooks write after an install.
    let throwaway = if write.is_some() {
        toolchain_shims()
    } else {
        Vec::new()
    };
    let fs = fs_plan(
        &root,
        &read,
        write.as_deref().map(|folder| mount::Writes {
            folder,
            throwaway: &throwaway,
        }),
        &workdir,
        &scratch_options,
        &cgroups.views(),
        match ids {
            sys::Ids::Switch { uid, gid } => mount::RunsAs {
                uid,
                gid,
                hosts_own: false,
            },
            sys::Ids::UserNamespace { .. } => mount::RunsAs {
                uid: host_uid,
                gid: host_gid,
                hosts_own: true,
            },
        },
    )?;
    let (listen, listener_channel) = match policy.tcp_port {
        Some(port) => {
            let (host, child) =
                std::os::unix::net::UnixStream::pair().map_err(SandboxError::Channel)?;
            let listen = sys::Listen {
                port,
                channel: child.into(),
            };
            (Some(listen), Some(OwnedFd::from(host)))
        }
        None => (None, None),
    };
    let child = sys::ChildSetup {
        ruleset,
        read_access: AccessFs::from_read(ABI_NEEDED).bits(),
        write_access: AccessFs::from_all(ABI_NEEDED).bits(),
        seccomp,
        join,
        listen,
        ids,
        fs,
        areas: sys::argument_areas(),
    };
    Ok(Some(Prepared {
        root,
        child,
        cgroups,
        workdir,
        listener_channel,
    }))
}

/// Prepares the sandbox of a build (a tournament's sandboxed `build:`,
/// `docs/tournament.md`): a shell started in `folder`, which it may write,
/// with `policy`'s limits and paths otherwise, whether or not the policy is
/// on (the caller decides to sandbox). Only the shell's own folder
/// is taken from a command line: the build's words name files of `folder`
/// (seen at its own path), and a word that happens to name a file where the
/// host runs must not bring that folder in.
pub fn prepare_build(
    folder: &Path,
    policy: &SandboxPolicy,
    processes: Option<u64>,
) -> Result<Prepared, SandboxError> {
    let policy = SandboxPolicy {
        enabled: true,
        write: Some(folder.to_path_buf()),
        ..policy.clone()
    };
    let prepared = prepare(&["sh".to_string()], Some(folder), &policy, processes)?;
    Ok(prepared.expect("an enabled policy is prepared"))
}

/// Where the folder a build may write really is, and the uid and gid it
/// runs as when the host is root (the folder's owner). Refused: a folder
/// reached through a symbolic link (a link in an entrant's folder could
/// open any folder of the machine to its build), a system folder, and,
/// under a root host, a folder root owns (the build would write as root).
fn writable_folder(folder: &Path) -> Result<(PathBuf, u32, u32), SandboxError> {
    use std::os::unix::fs::MetadataExt;
    let refuse = |why: String| SandboxError::BuildFolder {
        path: folder.to_path_buf(),
        why,
    };
    let named = lexically_normal(&absolute(folder));
    let real =
        std::fs::canonicalize(folder).map_err(|e| refuse(format!("cannot be opened: {e}")))?;
    if real != named {
        return Err(refuse(format!(
            "leads through a symbolic link to {} (a link in an entrant's folder could open \
             any folder of the machine to its build): name the folder where it is",
            real.display()
        )));
    }
    let meta = std::fs::metadata(&real).map_err(|e| refuse(format!("cannot be read: {e}")))?;
    if !meta.is_dir() {
        return Err(refuse("is not a folder".into()));
    }
    if real == Path::new("/") || SYSTEM_READ.iter().any(|f| real.starts_with(f)) {
        return Err(refuse(
            "is a system folder: a build may write only an entrant's own folder".into(),
        ));
    }
    if sys::is_root() && meta.uid() == 0 {
        return Err(refuse(format!(
            "belongs to root, and a sandboxed build runs as the owner of its folder, never \
             as root: give the folder to an unprivileged user (`chown -R nobody: {}`)",
            real.display()
        )));
    }
    Ok((real, meta.uid(), meta.gid()))
}

pub(super) fn c_string(bytes: &[u8]) -> Result<CString, SandboxError> {
    CString::new(bytes).map_err(|_| SandboxError::Path(String::from_utf8_lossy(bytes).into()))
}

pub(super) fn c_path(path: &Path) -> Result<CString, SandboxError> {
    c_string(path.as_os_str().as_bytes())
}

/// The Landlock ruleset made in the host: the devices' read and write, the
/// network rules and scopes. The child adds its root (read) and `/tmp`
/// (everything) once they exist.
fn ruleset(port: Option<u16>) -> Result<OwnedFd, SandboxError> {
    let abi = ABI_NEEDED;
    let err = |e: landlock::RulesetError| SandboxError::Landlock(e.to_string());
    let devices: Vec<PathBuf> = DEVICES
        .iter()
        .map(PathBuf::from)
        .filter(|p| p.exists())
        .collect();
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
        .add_rules(path_beneath_rules(
            devices,
            AccessFs::ReadFile | AccessFs::WriteFile,
        ))
        .map_err(err)?;
    if let Some(port) = port {
        ruleset = ruleset
            .add_rule(NetPort::new(port, AccessNet::ConnectTcp))
            .map_err(err)?;
    }
    Option::<OwnedFd>::from(ruleset)
        .ok_or_else(|| SandboxError::Landlock("the kernel made no ruleset".into()))
}

/// Adds `sandbox` to `command`: applied in the child before it runs the bot.
pub(crate) fn apply(command: &mut std::process::Command, sandbox: &Prepared) {
    sys::apply(command, &sandbox.child);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bot_file_linked_out_of_its_folder_is_refused_and_one_linked_inside_is_not() {
        use std::os::unix::fs::symlink;
        let dir = tempfile::tempdir().expect("a scratch folder");
        let root = std::fs::canonicalize(dir.path()).expect("real");
        let (alice, bob) = (root.join("alice"), root.join("bob"));
        for folder in [&alice, &bob, &alice.join("sub")] {
            std::fs::create_dir_all(folder).expect("folder");
        }
        for file in [bob.join("bot.wasm"), alice.join("sub/real.wasm")] {
            std::fs::write(file, "component").expect("file");
        }
        symlink("../bob/bot.wasm", alice.join("bot.wasm")).expect("link");
        symlink("../bob", alice.join("lib")).expect("link");
        symlink("sub/real.wasm", alice.join("own.wasm")).expect("link");
        symlink("/bin/sh", alice.join("sh")).expect("link");
        let refused = |named: &str| match file_linked_out(&alice.join(named)) {
            Some(SandboxError::LinkedFile { path, real }) => (path, real),
            other => panic!("{named}: {other:?}"),
        };
        // The file a link, and a folder on its way a link: both lead to bob.
        assert_eq!(
            refused("bot.wasm"),
            (alice.join("bot.wasm"), bob.join("bot.wasm"))
        );
        assert_eq!(
            refused("lib/bot.wasm"),
            (alice.join("lib/bot.wasm"), bob.join("bot.wasm"))
        );
        let message = SandboxError::LinkedFile {
            path: alice.join("bot.wasm"),
            real: bob.join("bot.wasm"),
        }
        .to_string();
        assert!(
            message.contains("could so name another entrant's bot")
                && message.contains("`sandbox: off`"),
            "{message}"
        );
        // Climbing back in by name is the same file.
        assert!(file_linked_out(&alice.join("sub/../bot.wasm")).is_some());
        // Links that stay in the folder, into the system folders, and plain
        // files are the entrant's own business; a missing file is the
        // caller's to name.
        for fine in ["own.wasm", "sub/real.wasm", "sh", "missing.wasm"] {
            assert!(file_linked_out(&alice.join(fine)).is_none(), "{fine}");
        }
        assert!(file_linked_out(&bob.join("bot.wasm")).is_none());
    }

    #[test]
    fn the_shared_mount_point_is_made_private_and_refused_when_not_ours() {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        let dir = tempfile::tempdir().expect("a scratch folder");
        let (uid, _) = sys::host_ids();
        let made = shared_mount_point(dir.path(), uid).expect("made where missing");
        assert_eq!(made, dir.path().join(format!("clue-bots-{uid}")));
        let mode = std::fs::metadata(&made)
            .expect("it is there")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700, "nobody else may enter it: {mode:o}");
        assert_eq!(
            shared_mount_point(dir.path(), uid),
            Some(made.clone()),
            "kept and reused"
        );
        // Made by someone else: here `clue-bots-<uid + 1>`, which this user
        // owns, asked for by user `uid + 1`.
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(dir.path().join(format!("clue-bots-{}", uid + 1)))
            .expect("made");
        assert_eq!(shared_mount_point(dir.path(), uid + 1), None);
        // Open to others, or a link to a folder of ours: refused.
        std::fs::set_permissions(&made, std::fs::Permissions::from_mode(0o755))
            .expect("the mode is changed");
        assert_eq!(shared_mount_point(dir.path(), uid), None);
        std::fs::remove_dir(&made).expect("removed");
        let target = dir.path().join("elsewhere");
        std::fs::create_dir(&target).expect("made");
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o700))
            .expect("the mode is changed");
        std::os::unix::fs::symlink(&target, &made).expect("the link is made");
        assert_eq!(shared_mount_point(dir.path(), uid), None);
    }
}

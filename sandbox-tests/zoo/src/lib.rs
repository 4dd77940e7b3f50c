//! One bot, [`Hostile`], that plays legally except for the one thing its
//! [`Behaviour`] names. Each behaviour is built for every runtime where it
//! makes sense (docs/SANDBOX.md): as a process bot (`zoo-process NAME`), a
//! native plugin and a wasm component (`examples/NAME.rs`).
//!
//! Everything hostile is bounded by the bot itself too (the floods stop at
//! 64 MiB, the allocation at 2 GiB, the fork bombs at 30 and 500 processes,
//! the disk filler at 1 GiB, the CPU burners at 60 s), and the "kill" bots
//! only probe with signal 0 (which says whether a kill would have landed),
//! so a containment bug costs a slow or failed test, never the shared
//! machine.

use std::io::Write;
use std::time::Duration;

use clue_plugin_api::*;

/// What the bot does wrong. The time-based ones are tuned to the tests'
/// per-call limit of [`LIMIT_MS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    LoopName,
    LoopBeginGame,
    LoopSuggest,
    LoopRespond,
    LoopAccuse,
    LoopMove,
    LoopWatch,
    Sleep,
    SlowLegal,
    Allocate,
    Recurse,
    Panic,
    Abort,
    Segfault,
    Exit,
    GarbageStdout,
    FloodStdout,
    EndlessLine,
    CloseStdin,
    ForkBomb,
    ReadFile,
    ReadEnv,
    Network,
    IllegalMove,
    IllegalSuggestion,
    LieWhenDisproving,
    ShowCardNotHeld,
    MalformedAccusation,
    RepeatedSuggestion,
    OutOfTurn,
    LongName,
    KillParent,
    KillScan,
    KillAny,
    ReadHostProc,
    SetsidFork,
    WriteOutside,
    FillDisk,
    Ptrace,
    ForkBombUnbounded,
    CpuBurners,
    OtherAbis,
    InheritedFds,
    AtLoad,
    ReadCgroups,
}

/// The per-call limit the tests give every runtime, in milliseconds.
pub const LIMIT_MS: u64 = 1000;

/// How many of its suggestions the `slow-legal` bot takes its time over
/// (0.6 x the limit each); the rest come at once, to keep the suite short.
pub const SLOW_CALLS: usize = 3;

impl Behaviour {
    pub const ALL: [Behaviour; 45] = [
        Behaviour::LoopName,
        Behaviour::LoopBeginGame,
        Behaviour::LoopSuggest,
        Behaviour::LoopRespond,
        Behaviour::LoopAccuse,
        Behaviour::LoopMove,
        Behaviour::LoopWatch,
        Behaviour::Sleep,
        Behaviour::SlowLegal,
        Behaviour::Allocate,
        Behaviour::Recurse,
        Behaviour::Panic,
        Behaviour::Abort,
        Behaviour::Segfault,
        Behaviour::Exit,
        Behaviour::GarbageStdout,
        Behaviour::FloodStdout,
        Behaviour::EndlessLine,
        Behaviour::CloseStdin,
        Behaviour::ForkBomb,
        Behaviour::ReadFile,
        Behaviour::ReadEnv,
        Behaviour::Network,
        Behaviour::IllegalMove,
        Behaviour::IllegalSuggestion,
        Behaviour::LieWhenDisproving,
        Behaviour::ShowCardNotHeld,
        Behaviour::MalformedAccusation,
        Behaviour::RepeatedSuggestion,
        Behaviour::OutOfTurn,
        Behaviour::LongName,
        Behaviour::KillParent,
        Behaviour::KillScan,
        Behaviour::KillAny,
        Behaviour::ReadHostProc,
        Behaviour::SetsidFork,
        Behaviour::WriteOutside,
        Behaviour::FillDisk,
        Behaviour::Ptrace,
        Behaviour::ForkBombUnbounded,
        Behaviour::CpuBurners,
        Behaviour::OtherAbis,
        Behaviour::InheritedFds,
        Behaviour::AtLoad,
        Behaviour::ReadCgroups,
    ];

    /// The kebab-case name: the example's file name with `_` for `-`, and
    /// the argument of `zoo-process`.
    pub fn name(self) -> &'static str {
        match self {
            Behaviour::LoopName => "loop-name",
            Behaviour::LoopBeginGame => "loop-begin-game",
            Behaviour::LoopSuggest => "loop-suggest",
            Behaviour::LoopRespond => "loop-respond",
            Behaviour::LoopAccuse => "loop-accuse",
            Behaviour::LoopMove => "loop-move",
            Behaviour::LoopWatch => "loop-watch",
            Behaviour::Sleep => "sleep",
            Behaviour::SlowLegal => "slow-legal",
            Behaviour::Allocate => "allocate",
            Behaviour::Recurse => "recurse",
            Behaviour::Panic => "panic",
            Behaviour::Abort => "abort",
            Behaviour::Segfault => "segfault",
            Behaviour::Exit => "exit",
            Behaviour::GarbageStdout => "garbage-stdout",
            Behaviour::FloodStdout => "flood-stdout",
            Behaviour::EndlessLine => "endless-line",
            Behaviour::CloseStdin => "close-stdin",
            Behaviour::ForkBomb => "fork-bomb",
            Behaviour::ReadFile => "read-file",
            Behaviour::ReadEnv => "read-env",
            Behaviour::Network => "network",
            Behaviour::IllegalMove => "illegal-move",
            Behaviour::IllegalSuggestion => "illegal-suggestion",
            Behaviour::LieWhenDisproving => "lie-when-disproving",
            Behaviour::ShowCardNotHeld => "show-card-not-held",
            Behaviour::MalformedAccusation => "malformed-accusation",
            Behaviour::RepeatedSuggestion => "repeated-suggestion",
            Behaviour::OutOfTurn => "out-of-turn",
            Behaviour::LongName => "long-name",
            Behaviour::KillParent => "kill-parent",
            Behaviour::KillScan => "kill-scan",
            Behaviour::KillAny => "kill-any",
            Behaviour::ReadHostProc => "read-host-proc",
            Behaviour::SetsidFork => "setsid-fork",
            Behaviour::WriteOutside => "write-outside",
            Behaviour::FillDisk => "fill-disk",
            Behaviour::Ptrace => "ptrace",
            Behaviour::ForkBombUnbounded => "fork-bomb-unbounded",
            Behaviour::CpuBurners => "cpu-burners",
            Behaviour::OtherAbis => "other-abis",
            Behaviour::InheritedFds => "inherited-fds",
            Behaviour::AtLoad => "at-load",
            Behaviour::ReadCgroups => "read-cgroups",
        }
    }

    pub fn parse(name: &str) -> Option<Behaviour> {
        Behaviour::ALL.into_iter().find(|b| b.name() == name)
    }
}

/// Plays legally (every suggestion holds one of its own cards, so it never
/// owes an accusation, and none repeats) except for its [`Behaviour`], which
/// it shows at its first chance.
pub struct Hostile {
    behaviour: Behaviour,
    setup: Option<Setup>,
    made: usize,
    last: Option<Suggestion>,
    /// `cpu-burners`: its children spin; it then takes its time per call.
    burning: bool,
}

impl Hostile {
    pub fn new(behaviour: Behaviour) -> Hostile {
        Hostile {
            behaviour,
            setup: None,
            made: 0,
            last: None,
            burning: false,
        }
    }

    /// The `n`-th suggestion (persons x weapons x rooms, in order) holding
    /// at least one card of the hand.
    fn legal(&self, n: usize) -> Option<Suggestion> {
        let setup = self.setup.as_ref()?;
        let deck = &setup.deck;
        let (persons, weapons, rooms) = (
            deck.of(Category::Person),
            deck.of(Category::Weapon),
            deck.of(Category::Room),
        );
        let mut found = 0;
        for &p in &persons {
            for &w in &weapons {
                for &r in &rooms {
                    if [p, w, r].iter().any(|c| setup.hand.contains(c)) {
                        if found == n {
                            return Some(Suggestion {
                                cards: vec![p, w, r],
                                target: None,
                            });
                        }
                        found += 1;
                    }
                }
            }
        }
        None
    }
}

fn spin() -> ! {
    let mut x: u64 = 0;
    loop {
        x = std::hint::black_box(x.wrapping_add(1));
    }
}

#[allow(unconditional_recursion)]
fn overflow(depth: u64) -> u64 {
    let pad = std::hint::black_box([depth; 512]);
    overflow(pad[7] + 1) + pad[3]
}

/// Writes `chunk` over and over, at most 64 MiB.
fn flood(chunk: &[u8]) {
    let mut out = std::io::stdout().lock();
    let mut written = 0;
    while written < 64 << 20 {
        if out.write_all(chunk).is_err() {
            return;
        }
        written += chunk.len();
    }
    let _ = out.flush();
}

/// Writes zeros to `path` in 1 MiB blocks up to `most` bytes; how many it wrote.
fn fill(path: &std::path::Path, most: u64) -> u64 {
    let Ok(mut file) = std::fs::File::create(path) else {
        return 0;
    };
    let block = vec![0u8; 1 << 20];
    let mut written = 0;
    while written < most && file.write_all(&block).is_ok() {
        written += block.len() as u64;
    }
    written
}

/// Says what got out, on stderr and as a panic payload, then unwinds
/// without the panic hook: a trusted plugin's first backtrace would
/// otherwise parse the whole host's debug info.
/// A count of another cgroup than the bot's own that it could read, under
/// `/sys/fs/cgroup`: the memory or CPU time of another bot (or of the
/// host's other processes). Its own cgroups are those `/proc/self/cgroup`
/// names, and the roots of the hierarchies it sees (in a sandbox those are
/// its own); anything deeper is someone else's.
fn other_cgroup() -> Option<String> {
    let own: Vec<String> = std::fs::read_to_string("/proc/self/cgroup")
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.splitn(3, ':').nth(2))
        .map(|path| path.trim_start_matches('/').to_string())
        .filter(|path| !path.is_empty())
        .collect();
    let mut folders = vec![(std::path::PathBuf::from("/sys/fs/cgroup"), 0)];
    while let Some((folder, depth)) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        let mine = own.iter().any(|o| folder.ends_with(o));
        if depth >= 2 && !mine && folder.join("cgroup.procs").exists() {
            for count in [
                "memory.usage_in_bytes",
                "memory.current",
                "cpuacct.usage",
                "cpu.stat",
                "pids.current",
            ] {
                let path = folder.join(count);
                if std::fs::read(&path).is_ok() {
                    return Some(path.display().to_string());
                }
            }
        }
        if depth < 4 {
            for entry in entries.flatten() {
                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                    folders.push((entry.path(), depth + 1));
                }
            }
        }
    }
    None
}

fn escaped(what: &str) -> ! {
    let message = format!("sandbox escaped: {what}");
    eprintln!("{message}");
    std::panic::resume_unwind(Box::new(message))
}

/// The `at-load` bot's misdeeds, run by an ELF constructor of its library
/// (`examples/at_load.rs`), that is by whoever loads the library, before any
/// call: writes into its checkout and reads /etc/shadow. If either works it
/// says so and ends the process (status 3), so that a loader that only
/// checks the library reports it.
#[cfg(not(target_arch = "wasm32"))]
pub extern "C" fn at_load() {
    let checkout = concat!(env!("CARGO_MANIFEST_DIR"), "/planted-at-load");
    let mut done = Vec::new();
    if std::fs::write(checkout, "planted").is_ok() {
        let _ = std::fs::remove_file(checkout);
        done.push("wrote into its checkout");
    }
    if std::fs::read("/etc/shadow").is_ok() {
        done.push("read /etc/shadow");
    }
    if !done.is_empty() {
        eprintln!(
            "sandbox escaped: {} as its library was loaded",
            done.join(" and ")
        );
        // SAFETY: ends this process at once; nothing is left to unwind.
        unsafe { libc::_exit(3) }
    }
}

/// The fork bomb's children: each starts two more, down to a depth of 4 (at
/// most 30 processes below the bot), then sleeps; the host's kill of the
/// bot's process group must end them all.
#[cfg(not(target_arch = "wasm32"))]
pub fn fork_bomb_child() {
    let depth: u32 = std::env::args()
        .nth(2)
        .and_then(|d| d.parse().ok())
        .unwrap_or(4);
    if depth > 0
        && let Ok(exe) = std::env::current_exe()
    {
        for _ in 0..2 {
            let _ = std::process::Command::new(&exe)
                .args(["fork-bomb", &(depth - 1).to_string()])
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .spawn();
        }
    }
    std::thread::sleep(Duration::from_secs(120));
}

#[cfg(target_arch = "wasm32")]
pub fn fork_bomb_child() {}

/// The misdeeds that need system calls std does not offer.
#[cfg(not(target_arch = "wasm32"))]
mod hostile {
    use super::escaped;
    use std::time::{Duration, Instant};

    /// Whether a signal to `pid` would be delivered (signal 0 checks
    /// existence and permission, and harms nothing).
    fn could_signal(pid: i32) -> bool {
        // SAFETY: `kill` with signal 0 only checks; plain integers.
        unsafe { libc::kill(pid, 0) == 0 }
    }

    fn own_pid() -> i32 {
        std::process::id() as i32
    }

    pub fn signal_parent() {
        let parent = std::os::unix::process::parent_id() as i32;
        if parent > 1 && could_signal(parent) {
            escaped(&format!("could kill its parent, process {parent}"));
        }
    }

    pub fn signal_scanned() {
        let Ok(entries) = std::fs::read_dir("/proc") else {
            return;
        };
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<i32>().ok())
            else {
                continue;
            };
            if pid != own_pid() && could_signal(pid) {
                escaped(&format!("could kill process {pid}, found in /proc"));
            }
        }
    }

    pub fn signal_any() {
        for pid in 2..65536 {
            if pid != own_pid() && could_signal(pid) {
                escaped(&format!("could kill process {pid}"));
            }
        }
    }

    pub fn read_host_proc() {
        let parent = std::os::unix::process::parent_id();
        let mut pids = vec![1];
        if parent > 0 {
            pids.push(parent);
        }
        for pid in pids {
            if pid == std::process::id() {
                continue;
            }
            for what in ["environ", "cmdline"] {
                let path = format!("/proc/{pid}/{what}");
                // Zeroes only (a wiped command line) tell nothing.
                if std::fs::read(&path).is_ok_and(|b| b.iter().any(|&c| c != 0)) {
                    escaped(&format!("read {path}"));
                }
            }
        }
    }

    /// Forks a child that calls `setsid` and forks again: the grandchild, in
    /// a session of its own, sleeps two minutes (it carries the test's
    /// marker, so the test sees it if it outlives the game).
    pub fn setsid_double_fork() {
        // SAFETY: the children make only async-signal-safe calls (`setsid`,
        // `fork`, `sleep`, `_exit`) before they exit.
        unsafe {
            let child = libc::fork();
            if child == 0 {
                libc::setsid();
                if libc::fork() == 0 {
                    libc::sleep(120);
                }
                libc::_exit(0);
            }
            if child > 0 {
                let mut status = 0;
                libc::waitpid(child, &mut status, 0);
            }
        }
    }

    /// Attaches to its own (sleeping) child, then to its parent.
    pub fn ptrace() {
        // SAFETY: the child only sleeps and exits; ptrace takes integers and
        // null pointers; the child is killed and reaped.
        unsafe {
            let child = libc::fork();
            if child == 0 {
                libc::sleep(120);
                libc::_exit(0);
            }
            if child > 0 {
                let attached = libc::ptrace(
                    libc::PTRACE_ATTACH,
                    child,
                    std::ptr::null_mut::<libc::c_void>(),
                    std::ptr::null_mut::<libc::c_void>(),
                ) == 0;
                libc::kill(child, libc::SIGKILL);
                let mut status = 0;
                libc::waitpid(child, &mut status, 0);
                if attached {
                    escaped("attached to its own child with ptrace");
                }
            }
            let parent = libc::getppid();
            if parent > 1
                && libc::ptrace(
                    libc::PTRACE_ATTACH,
                    parent,
                    std::ptr::null_mut::<libc::c_void>(),
                    std::ptr::null_mut::<libc::c_void>(),
                ) == 0
            {
                libc::ptrace(
                    libc::PTRACE_DETACH,
                    parent,
                    std::ptr::null_mut::<libc::c_void>(),
                    std::ptr::null_mut::<libc::c_void>(),
                );
                escaped("attached to its parent with ptrace");
            }
        }
    }

    /// Looks for an open descriptor beyond its stdin, stdout and stderr:
    /// one the host held without close-on-exec (inherited from the host's
    /// own parent, say: a shell's redirection, a `make` jobserver's pipe)
    /// would reach the host's files or pipes.
    pub fn inherited_fds() {
        for fd in 3..4096 {
            // SAFETY: `fcntl(F_GETFD)` on an integer only asks whether it is
            // an open descriptor.
            if unsafe { libc::fcntl(fd, libc::F_GETFD) } != -1 {
                let target = std::fs::read_link(format!("/proc/self/fd/{fd}"))
                    .map(|p| p.display().to_string())
                    .unwrap_or_else(|_| "?".into());
                escaped(&format!(
                    "holds descriptor {fd} ({target}), which it was not given"
                ));
            }
        }
    }

    /// System calls by the numbers of x86-64's other two ABIs, which a
    /// filter keyed on native numbers would not see: `unshare` and
    /// `io_uring_setup` by their x32 numbers (bit 30 set; x32 shares the
    /// native audit architecture), then `getpid` through i386's `int 0x80`.
    /// An x32 call that comes back with anything but the filter's `EPERM`
    /// reached the kernel (which answers `ENOSYS` where x32 is off, as on
    /// most kernels, and runs it where it is on).
    pub fn other_abis() {
        #[cfg(target_arch = "x86_64")]
        {
            const X32: libc::c_long = 0x4000_0000;
            let mut params = [0u8; 120];
            for (name, number, args) in [
                ("unshare", 272, [libc::CLONE_NEWUSER as libc::c_long, 0]),
                (
                    "io_uring_setup",
                    425,
                    [1, params.as_mut_ptr() as libc::c_long],
                ),
            ] {
                // SAFETY: integers, and a zeroed `io_uring_params` it owns.
                let answer = unsafe { libc::syscall(X32 | number, args[0], args[1]) };
                let error = std::io::Error::last_os_error();
                if answer >= 0 || error.raw_os_error() != Some(libc::EPERM) {
                    escaped(&format!(
                        "its x32 `{name}` passed seccomp: the kernel answered {}",
                        if answer >= 0 {
                            answer.to_string()
                        } else {
                            error.to_string()
                        }
                    ));
                }
            }
            let pid: i32;
            // SAFETY: i386's `getpid` (20) takes no arguments; the kernel
            // may clear r8-r11 on the way back.
            unsafe {
                std::arch::asm!(
                    "int 0x80",
                    inlateout("eax") 20i32 => pid,
                    out("r8") _, out("r9") _, out("r10") _, out("r11") _,
                    options(nostack),
                );
            }
            escaped(&format!(
                "made an i386 system call: `getpid` answered {pid}"
            ));
        }
    }

    /// Forks sleeping children until a fork is refused (at most 500).
    pub fn fork_until_refused() {
        let mut made = 0;
        while made < 500 {
            // SAFETY: the child only sleeps and exits.
            let pid = unsafe { libc::fork() };
            if pid == 0 {
                // SAFETY: async-signal-safe calls only.
                unsafe {
                    libc::sleep(120);
                    libc::_exit(0);
                }
            }
            if pid < 0 {
                break;
            }
            made += 1;
        }
        if made >= 500 {
            escaped("forked 500 processes");
        }
    }

    /// Two children that spin for up to a minute in the background.
    pub fn cpu_burners() {
        for _ in 0..2 {
            // SAFETY: the child spins on a local and exits.
            let pid = unsafe { libc::fork() };
            if pid == 0 {
                let started = Instant::now();
                let mut x: u64 = 0;
                while started.elapsed() < Duration::from_secs(60) {
                    for _ in 0..1_000_000 {
                        x = std::hint::black_box(x.wrapping_add(1));
                    }
                }
                // SAFETY: ends the child without running the parent's
                // destructors.
                unsafe { libc::_exit(0) };
            }
        }
    }
}

impl Hostile {
    /// `cpu-burners`, once its children spin: half the limit per call, so
    /// that the CPU time they burn is what catches the bot.
    fn take_time(&self) {
        if self.burning {
            std::thread::sleep(Duration::from_millis(LIMIT_MS / 2));
        }
    }

    /// Runs the behaviour's misdeed at the first suggestion (those that can
    /// happen anywhere), and answers with what it wants to suggest.
    fn misbehave_at_suggest(&mut self) -> Option<Suggestion> {
        match self.behaviour {
            Behaviour::LoopSuggest => spin(),
            Behaviour::Sleep => std::thread::sleep(Duration::from_millis(LIMIT_MS * 2)),
            Behaviour::Allocate => {
                let mut kept: Vec<Vec<u8>> = Vec::new();
                // Every page written: memory really used, which a memory
                // cgroup counts (an address-space cap would stop untouched
                // blocks too).
                for _ in 0..2048 {
                    let block = vec![1u8; 1 << 20];
                    kept.push(std::hint::black_box(block));
                }
                std::hint::black_box(&kept);
            }
            Behaviour::Recurse => {
                std::hint::black_box(overflow(0));
            }
            Behaviour::Panic => panic!("the butler did it"),
            Behaviour::Abort => std::process::abort(),
            Behaviour::Segfault => {
                let null = std::hint::black_box(std::ptr::null_mut::<u64>());
                // SAFETY: none; writing through null is the point of this bot.
                unsafe { null.write_volatile(7) };
            }
            Behaviour::Exit => std::process::exit(3),
            Behaviour::GarbageStdout => {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(b"\x00\xffnot json at all }{\n");
                let _ = out.flush();
            }
            Behaviour::FloodStdout => {
                flood(b"{\"flood\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}\n")
            }
            Behaviour::EndlessLine => flood(&[b'x'; 4096]),
            #[cfg(unix)]
            Behaviour::CloseStdin => {
                use std::os::fd::FromRawFd;
                // SAFETY: fd 0 is this process's stdin; closing it is the point.
                drop(unsafe { std::fs::File::from_raw_fd(0) });
            }
            #[cfg(not(target_arch = "wasm32"))]
            Behaviour::ForkBomb => {
                if let Ok(exe) = std::env::current_exe() {
                    for _ in 0..2 {
                        let _ = std::process::Command::new(&exe)
                            .args(["fork-bomb", "3"])
                            .stdin(std::process::Stdio::null())
                            .stdout(std::process::Stdio::null())
                            .spawn();
                    }
                }
            }
            Behaviour::ReadFile => {
                // Its source checkout (outside the folder of its program or
                // library), and a file only root may read.
                let checkout = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
                for (path, what) in [
                    (checkout, "its checkout's Cargo.toml"),
                    ("/etc/shadow", "/etc/shadow"),
                ] {
                    if std::fs::read(path).is_ok() {
                        escaped(&format!("read {what}"));
                    }
                }
            }
            Behaviour::ReadCgroups => {
                if let Some(path) = other_cgroup() {
                    escaped(&format!("read {path}"));
                }
            }
            Behaviour::WriteOutside => {
                let checkout = concat!(env!("CARGO_MANIFEST_DIR"), "/planted-by-zoo");
                for (path, what) in [
                    (checkout, "into its checkout"),
                    ("/etc/planted-by-zoo", "into /etc"),
                    ("/var/tmp/planted-by-zoo", "into /var/tmp"),
                ] {
                    if std::fs::write(path, "planted").is_ok() {
                        let _ = std::fs::remove_file(path);
                        escaped(&format!("wrote {what}"));
                    }
                }
            }
            Behaviour::FillDisk => {
                let path = std::env::temp_dir().join("zoo-fill");
                let written = fill(&path, 1 << 30);
                let _ = std::fs::remove_file(&path);
                if written >= 1 << 30 {
                    escaped(&format!("wrote 1 GiB to {}", path.display()));
                }
            }
            #[cfg(not(target_arch = "wasm32"))]
            Behaviour::KillParent => hostile::signal_parent(),
            #[cfg(not(target_arch = "wasm32"))]
            Behaviour::KillScan => hostile::signal_scanned(),
            #[cfg(not(target_arch = "wasm32"))]
            Behaviour::KillAny => hostile::signal_any(),
            #[cfg(not(target_arch = "wasm32"))]
            Behaviour::ReadHostProc => hostile::read_host_proc(),
            #[cfg(not(target_arch = "wasm32"))]
            Behaviour::SetsidFork => hostile::setsid_double_fork(),
            #[cfg(not(target_arch = "wasm32"))]
            Behaviour::Ptrace => hostile::ptrace(),
            #[cfg(not(target_arch = "wasm32"))]
            Behaviour::ForkBombUnbounded => hostile::fork_until_refused(),
            #[cfg(not(target_arch = "wasm32"))]
            Behaviour::OtherAbis => hostile::other_abis(),
            #[cfg(not(target_arch = "wasm32"))]
            Behaviour::InheritedFds => hostile::inherited_fds(),
            #[cfg(not(target_arch = "wasm32"))]
            Behaviour::CpuBurners if !self.burning => {
                hostile::cpu_burners();
                self.burning = true;
            }
            Behaviour::ReadEnv => {
                // Anything but what a process bot is given on purpose (the
                // host's `ProcessLimits::pass_env`, the sandbox's `LOGNAME`,
                // the tests' marker).
                const GIVEN: [&str; 10] = [
                    "PATH",
                    "HOME",
                    "LANG",
                    "LC_ALL",
                    "LC_CTYPE",
                    "TERM",
                    "TMPDIR",
                    "USER",
                    "LOGNAME",
                    "CLUE_ZOO_CELL",
                ];
                if let Some((key, _)) = std::env::vars_os()
                    .find(|(k, _)| k.to_str().is_some_and(|k| !GIVEN.contains(&k)))
                {
                    std::hint::black_box(key);
                    escaped("read a variable it was not given");
                }
            }
            Behaviour::Network => {
                // A socket in itself reaches nothing (in an empty network
                // namespace it can be made): a datagram sent out is the escape.
                if let Ok(socket) = std::net::UdpSocket::bind("0.0.0.0:0")
                    && socket.send_to(b"zoo", ("192.0.2.1", 9)).is_ok()
                {
                    escaped("sent a datagram out");
                }
                if std::net::TcpListener::bind("127.0.0.1:0").is_ok() {
                    escaped("listened on a loopback port");
                }
                if std::net::TcpStream::connect_timeout(
                    &([127, 0, 0, 1], 9).into(),
                    Duration::from_millis(100),
                )
                .map_or_else(
                    |e| e.kind() == std::io::ErrorKind::ConnectionRefused,
                    |_| true,
                ) {
                    escaped("reached a loopback port");
                }
            }
            Behaviour::IllegalSuggestion => {
                let setup = self.setup.as_ref()?;
                let room = setup.deck.of(Category::Room);
                return Some(Suggestion {
                    cards: vec![room[0], room[1], room[2]],
                    target: None,
                });
            }
            Behaviour::RepeatedSuggestion if self.made > 0 => return self.last.clone(),
            Behaviour::OutOfTurn => {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(b"{\"reply\":\"respond\",\"card\":null}\n");
                let _ = out.flush();
            }
            _ => {}
        }
        let suggestion = self.legal(self.made);
        self.made += 1;
        self.last = suggestion.clone();
        suggestion
    }
}

impl Player for Hostile {
    fn name(&self) -> String {
        match self.behaviour {
            Behaviour::LoopName => spin(),
            Behaviour::LongName => "x".repeat(1 << 20),
            b => format!("zoo-{}", b.name()),
        }
    }

    fn begin_game(&mut self, setup: &Setup) {
        if self.behaviour == Behaviour::LoopBeginGame {
            spin();
        }
        self.setup = Some(setup.clone());
    }

    fn accuse(&mut self, _: &AccuseRequest) -> Option<Accusation> {
        match self.behaviour {
            Behaviour::LoopAccuse => spin(),
            Behaviour::MalformedAccusation => {
                let setup = self.setup.as_ref()?;
                let person = setup.deck.of(Category::Person);
                Some(Accusation {
                    cards: vec![person[0], person[1]],
                })
            }
            _ => None,
        }
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        match self.behaviour {
            Behaviour::LoopMove => spin(),
            // A cell far off any board, so never one of the targets.
            Behaviour::IllegalMove => Position::Cell {
                row: u16::MAX,
                col: u16::MAX,
            },
            _ => request.targets[0],
        }
    }

    fn suggest(&mut self, _: &SuggestRequest) -> Option<Suggestion> {
        self.take_time();
        if self.behaviour == Behaviour::SlowLegal && self.made < SLOW_CALLS {
            std::thread::sleep(Duration::from_millis(LIMIT_MS * 3 / 5));
        }
        self.misbehave_at_suggest()
    }

    fn watch(&mut self, _: &Event) {
        self.take_time();
        if self.behaviour == Behaviour::LoopWatch && self.setup.is_some() {
            spin();
        }
    }

    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        self.take_time();
        match self.behaviour {
            Behaviour::LoopRespond => spin(),
            Behaviour::LieWhenDisproving => None,
            Behaviour::ShowCardNotHeld => {
                let setup = self.setup.as_ref()?;
                setup
                    .deck
                    .all()
                    .find(|c| !setup.hand.contains(c))
                    .or(request.matching.first().copied())
            }
            _ => request.matching.first().copied(),
        }
    }
}

/// Exports `Hostile::new($behaviour)` as a native plugin or, built for
/// wasm32, a wasm component.
#[macro_export]
macro_rules! export {
    ($behaviour:expr) => {
        pub struct Bot($crate::Hostile);
        impl Default for Bot {
            fn default() -> Bot {
                Bot($crate::Hostile::new($behaviour))
            }
        }
        impl clue_plugin_api::Player for Bot {
            fn name(&self) -> String {
                self.0.name()
            }
            fn begin_game(&mut self, s: &clue_plugin_api::Setup) {
                self.0.begin_game(s)
            }
            fn accuse(
                &mut self,
                r: &clue_plugin_api::AccuseRequest,
            ) -> Option<clue_plugin_api::Accusation> {
                self.0.accuse(r)
            }
            fn move_to(&mut self, r: &clue_plugin_api::MoveRequest) -> clue_plugin_api::Position {
                self.0.move_to(r)
            }
            fn suggest(
                &mut self,
                r: &clue_plugin_api::SuggestRequest,
            ) -> Option<clue_plugin_api::Suggestion> {
                self.0.suggest(r)
            }
            fn respond(
                &mut self,
                r: &clue_plugin_api::RespondRequest,
            ) -> Option<clue_plugin_api::Card> {
                self.0.respond(r)
            }
            fn watch(&mut self, e: &clue_plugin_api::Event) {
                self.0.watch(e)
            }
        }
        #[cfg(target_arch = "wasm32")]
        clue_plugin_api::export_wasm_player!(Bot);
        #[cfg(not(target_arch = "wasm32"))]
        clue_plugin_api::export_native_player!(Bot);
    };
}

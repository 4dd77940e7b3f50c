//! Which layers of the sandbox this machine offers (`clue doctor`), probed
//! once; the required ones are checked before every sandboxed bot starts.

use std::sync::OnceLock;

use super::{cgroup, sys};

/// One layer of the sandbox and whether this machine has it.
#[derive(Clone, Debug)]
pub struct Layer {
    pub name: &'static str,
    pub available: bool,
    /// Whether a sandboxed bot cannot start without it (the others have a
    /// fallback, named in `detail`).
    pub required: bool,
    pub detail: String,
}

/// The host's effective uid (the wasm cache checks who owns its files).
pub fn host_uid() -> u32 {
    sys::host_ids().0
}

/// The Landlock ABI the kernel offers (0: none).
pub fn landlock_abi() -> i64 {
    sys::landlock_abi()
}

/// Each layer of the sandbox on this machine (`clue doctor`; the required
/// ones are checked before every sandboxed bot starts). Probed once.
pub fn layers() -> Vec<Layer> {
    static LAYERS: OnceLock<Vec<Layer>> = OnceLock::new();
    LAYERS.get_or_init(probe).clone()
}

fn probe() -> Vec<Layer> {
    let linux = cfg!(target_os = "linux");
    let abi = if linux { landlock_abi() } else { 0 };
    let root = sys::is_root();
    let seccomp = std::fs::read_to_string("/proc/self/status")
        .map(|s| s.contains("\nSeccomp:"))
        .unwrap_or(false);
    let namespaces = sys::can_unshare(sys::bot_namespaces(root));
    // The kernel lists `nodev\toverlay` once the module is in (or built in).
    let overlay = std::fs::read_to_string("/proc/filesystems")
        .map(|s| {
            s.lines()
                .any(|l| l.split_whitespace().last() == Some("overlay"))
        })
        .unwrap_or(false);
    let hierarchy = cgroup::hierarchy();
    let cgroup = |name: &'static str, available: bool, fallback: &str| Layer {
        name,
        available,
        required: false,
        detail: if available {
            hierarchy.describe()
        } else {
            format!("{}; fallback: {fallback}", hierarchy.describe())
        },
    };
    vec![
        Layer {
            name: "Landlock (files, TCP ports, signals)",
            available: abi >= 6,
            required: true,
            detail: if linux {
                format!("kernel ABI {abi}, 6 needed (Linux 6.12 or later)")
            } else {
                "not Linux".into()
            },
        },
        Layer {
            name: "seccomp filter",
            available: seccomp,
            required: true,
            detail: if seccomp {
                "the kernel reports seccomp".into()
            } else {
                "no `Seccomp:` line in /proc/self/status".into()
            },
        },
        Layer {
            name: "namespaces (PID, mount, network, IPC, UTS; user when not root)",
            available: namespaces.is_ok(),
            required: true,
            detail: match (&namespaces, root) {
                (Ok(()), true) => "the host is root: the bot runs as an unprivileged uid".into(),
                (Ok(()), false) => "through a user namespace mapping the host's user".into(),
                (Err(e), _) => format!(
                    "unshare refused ({e}); a container may forbid user namespaces \
                     (sysctl kernel.unprivileged_userns_clone, \
                     user.max_user_namespaces, AppArmor's restrict_unprivileged_userns)"
                ),
            },
        },
        cgroup(
            "cgroup process cap (v1 pids or v2 pids.max)",
            hierarchy.caps_processes(),
            "`RLIMIT_NPROC` per bot uid; the PID namespace still kills every descendant",
        ),
        cgroup(
            "cgroup memory cap (v1 memory or v2 memory.max)",
            hierarchy.caps_memory(),
            "`RLIMIT_AS` per process",
        ),
        cgroup(
            "cgroup CPU time of all the bot's processes (v1 cpuacct or v2 cpu.stat)",
            hierarchy.counts_cpu(),
            "`RLIMIT_CPU` per process",
        ),
        Layer {
            name: "overlay file system (a build's throwaway copy of pyenv's, rbenv's... shims)",
            available: overlay,
            required: false,
            detail: if overlay {
                "a sandboxed build writes its own copy of each version manager's `shims` \
                 (pyenv's `pip install` rehashes them)"
                    .into()
            } else {
                "no `overlay` in /proc/filesystems (`modprobe overlay`); fallback: the \
                 shims stay read-only, and on a pyenv host a build's `pip install` fails \
                 its `pyenv rehash`"
                    .into()
            },
        },
    ]
}

//! Every `unsafe` call of the sandbox: what the child does between `fork`
//! and `exec` (join its cgroups, a new network namespace, Landlock, seccomp),
//! killing a cgroup's processes, and the probes of `clue doctor`.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

/// What the child applies to itself before `exec`, prepared in the host.
pub struct ChildSetup {
    /// A Landlock ruleset.
    pub ruleset: OwnedFd,
    /// A compiled seccomp filter.
    pub seccomp: seccompiler::BpfProgram,
    /// `cgroup.procs` of each of the bot's cgroups, open for writing.
    pub join: Vec<OwnedFd>,
    /// Whether to enter a fresh network namespace.
    pub new_netns: bool,
    /// Whether the host is root (else a user namespace comes with the
    /// network namespace).
    pub as_root: bool,
}

/// Adds the sandbox to `command`, run in the child after the process
/// runtime's own hook (session and `setrlimit`).
pub fn apply(command: &mut Command, setup: &ChildSetup) {
    let ruleset = setup.ruleset.as_raw_fd();
    let join: Vec<i32> = setup.join.iter().map(AsRawFd::as_raw_fd).collect();
    let filter = setup.seccomp.clone();
    let new_netns = setup.new_netns;
    let namespaces = if setup.as_root {
        libc::CLONE_NEWNET
    } else {
        libc::CLONE_NEWUSER | libc::CLONE_NEWNET
    };
    let hook = move || {
        let program = libc::sock_fprog {
            len: filter.len() as libc::c_ushort,
            filter: filter.as_ptr() as *mut libc::sock_filter,
        };
        // SAFETY: only async-signal-safe system calls on plain integers and
        // on memory owned by this closure (`b"0"`, `program` pointing into
        // `filter`, both alive for the calls); nothing is allocated, no lock
        // is taken, as required between `fork` and `exec`.
        unsafe {
            for fd in &join {
                // "0" moves the writing process into the cgroup.
                if libc::write(*fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(io::Error::last_os_error());
                }
            }
            if new_netns && libc::unshare(namespaces) == -1 {
                return Err(io::Error::last_os_error());
            }
            if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) == -1 {
                return Err(io::Error::last_os_error());
            }
            if libc::syscall(libc::SYS_landlock_restrict_self, ruleset, 0) == -1 {
                return Err(io::Error::last_os_error());
            }
            if libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER,
                &program as *const libc::sock_fprog,
            ) == -1
            {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    };
    // SAFETY: the hook only makes async-signal-safe system calls (see there).
    unsafe {
        command.pre_exec(hook);
    }
}

/// Opens a cgroup's `cgroup.procs` for the child to join it.
pub fn open_procs(cgroup: &Path) -> io::Result<OwnedFd> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(cgroup.join("cgroup.procs"))?;
    Ok(file.into())
}

/// Stops a cgroup from forking (`pids.max` 0 where it has one) and kills
/// every process in it until it is empty.
pub fn kill_cgroup(cgroup: &Path) {
    let _ = std::fs::write(cgroup.join("pids.max"), "0");
    for _ in 0..200 {
        let Ok(text) = std::fs::read_to_string(cgroup.join("cgroup.procs")) else {
            return;
        };
        let pids: Vec<libc::pid_t> = text.lines().filter_map(|l| l.trim().parse().ok()).collect();
        if pids.is_empty() {
            return;
        }
        for pid in pids {
            if pid > 1 {
                // SAFETY: `kill` takes plain integers and has no memory-safety
                // preconditions.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// Whether the host runs as root.
pub fn is_root() -> bool {
    // SAFETY: `geteuid` takes nothing and cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// The Landlock ABI version the kernel offers (0: none).
pub fn landlock_abi() -> i64 {
    // SAFETY: with a null attribute, size 0 and the VERSION flag the call
    // reads no memory and only returns the ABI version or an error.
    let version = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32, // LANDLOCK_CREATE_RULESET_VERSION
        )
    };
    version.max(0)
}

/// The number of a system call of [`super::DENIED`].
pub fn syscall_number(name: &str) -> Option<i64> {
    let n = match name {
        "ptrace" => libc::SYS_ptrace,
        "mount" => libc::SYS_mount,
        "umount2" => libc::SYS_umount2,
        "pivot_root" => libc::SYS_pivot_root,
        "chroot" => libc::SYS_chroot,
        "unshare" => libc::SYS_unshare,
        "setns" => libc::SYS_setns,
        "bpf" => libc::SYS_bpf,
        "keyctl" => libc::SYS_keyctl,
        "add_key" => libc::SYS_add_key,
        "request_key" => libc::SYS_request_key,
        "perf_event_open" => libc::SYS_perf_event_open,
        "kexec_load" => libc::SYS_kexec_load,
        "kexec_file_load" => libc::SYS_kexec_file_load,
        "init_module" => libc::SYS_init_module,
        "finit_module" => libc::SYS_finit_module,
        "delete_module" => libc::SYS_delete_module,
        "process_vm_readv" => libc::SYS_process_vm_readv,
        "process_vm_writev" => libc::SYS_process_vm_writev,
        "reboot" => libc::SYS_reboot,
        "swapon" => libc::SYS_swapon,
        "swapoff" => libc::SYS_swapoff,
        "userfaultfd" => libc::SYS_userfaultfd,
        "open_by_handle_at" => libc::SYS_open_by_handle_at,
        "fsopen" => libc::SYS_fsopen,
        "fsmount" => libc::SYS_fsmount,
        "move_mount" => libc::SYS_move_mount,
        "open_tree" => libc::SYS_open_tree,
        _ => return None,
    };
    Some(n)
}

/// One layer of the sandbox and whether this machine has it.
#[derive(Clone, Debug)]
pub struct Layer {
    pub name: &'static str,
    pub available: bool,
    pub detail: String,
}

/// Probes each layer (`clue doctor`).
pub fn layers() -> Vec<Layer> {
    let abi = landlock_abi();
    let seccomp = std::fs::read_to_string("/proc/self/status")
        .map(|s| s.contains("\nSeccomp:"))
        .unwrap_or(false);
    let userns = std::fs::read_to_string("/proc/sys/user/max_user_namespaces")
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
        .unwrap_or(0);
    let cgroup = |controller: &str| {
        let dir = Path::new("/sys/fs/cgroup").join(controller);
        let probe = dir.join("clue-arena");
        let ok = std::fs::create_dir_all(&probe).is_ok();
        Layer {
            name: if controller == "pids" {
                "cgroup v1 pids (process cap, kill of every descendant)"
            } else {
                "cgroup v1 memory (memory cap)"
            },
            available: ok,
            detail: if ok {
                format!("{} is writable", probe.display())
            } else {
                format!(
                    "{} is missing or not writable: `RLIMIT_NPROC`/`RLIMIT_AS` and the process group only",
                    dir.display()
                )
            },
        }
    };
    vec![
        Layer {
            name: "Landlock (files, TCP, signals, ptrace)",
            available: abi >= 6,
            detail: format!("kernel ABI {abi}, 6 needed"),
        },
        Layer {
            name: "seccomp filter",
            available: seccomp,
            detail: if seccomp {
                "the kernel reports seccomp".into()
            } else {
                "no `Seccomp:` line in /proc/self/status".into()
            },
        },
        Layer {
            name: "network namespace",
            available: is_root() || userns > 0,
            detail: if is_root() {
                "the host is root".into()
            } else {
                format!("through a user namespace (max_user_namespaces {userns})")
            },
        },
        cgroup("pids"),
        cgroup("memory"),
    ]
}

//! The seccomp filters of a bot (crate `seccompiler`, compiled in the
//! host, installed in the child before `exec`): what they refuse and how
//! each refusal answers ([`seccomp_filters`]).

use super::{SandboxError, sys};

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
    "mount_setattr",
    "fspick",
    "fsconfig",
    // File watches: two bots see the same system files through their
    // read-only binds, so a watch on one would hear the other open or read
    // it, a clean channel between colluding entrants (fcntl's `F_NOTIFY`
    // too: [`seccomp_filters`]).
    "inotify_init",
    "inotify_init1",
    "fanotify_init",
    // It tells which pages of a file are cached: a bot reads a page of a
    // shared file, another finds it cached (`preadv2`'s `RWF_NOWAIT` too:
    // [`seccomp_filters`]).
    "cachestat",
    // Its operations (sockets among them) would pass the filters unseen.
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
];

/// The filters, installed in order: `EPERM` for [`DENIED`], for `clone`
/// with a namespace flag and for `fcntl`'s `F_NOTIFY` and `F_SETLEASE`
/// (watches);
/// `ENOSYS` for `clone3` (its flags are behind a pointer a filter cannot
/// read; libc then falls back to `clone`, as under Docker's profile) and
/// for `mincore` (a probe of the page cache);
/// success without effect for locks (`flock`, `fcntl`'s `F_SETLK`,
/// `F_SETLKW` and their open file description forms); `EOPNOTSUPP` for
/// `preadv2` with `RWF_NOWAIT` (a probe of the page cache); the sockets
/// ([`socket_filters`]); and, on x86-64, `EPERM` for every x32 system call,
/// which the rules by number would not see ([`sys::x32_filter`]).
pub(super) fn seccomp_filters(tcp: bool) -> Result<Vec<seccompiler::BpfProgram>, SandboxError> {
    use seccompiler::{SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompRule};
    let mut rules: std::collections::BTreeMap<i64, Vec<SeccompRule>> = DENIED
        .iter()
        .filter_map(|name| sys::syscall_number(name).map(|n| (n, Vec::new())))
        .collect();
    let mut clone_rules = Vec::new();
    for &flag in sys::CLONE_NAMESPACE_FLAGS {
        let condition = SeccompCondition::new(
            0,
            SeccompCmpArgLen::Qword,
            SeccompCmpOp::MaskedEq(flag),
            flag,
        )
        .map_err(seccomp_error)?;
        clone_rules.push(SeccompRule::new(vec![condition]).map_err(seccomp_error)?);
    }
    if let Some(clone) = sys::syscall_number("clone") {
        rules.insert(clone, clone_rules);
    }
    let fcntl = sys::syscall_number("fcntl");
    if let Some(fcntl) = fcntl {
        // A lease is a watch too: its holder hears another process open
        // the file (only its owner may take one: under a host that is not
        // root, two bots of one folder would both own its files).
        let watches = [sys::F_NOTIFY, sys::F_SETLEASE].map(fcntl_command);
        rules.insert(fcntl, watches.into_iter().collect::<Result<_, _>>()?);
    }
    let denied = answering(rules, sys::EPERM)?;
    // Answered as on a kernel without them: `clone3`, whose flags are
    // behind a pointer a filter cannot read (libc falls back to `clone`),
    // and `mincore`, which tells whether a page of a file is cached for a
    // file the caller owns or may write, as a bot of a host that is not
    // root owns its folders' files, which two bots may share (for any other
    // file it reads every page as cached). A JVM runs on without it.
    let mut absent = std::collections::BTreeMap::new();
    for name in ["clone3", "mincore"] {
        if let Some(n) = sys::syscall_number(name) {
            absent.insert(n, Vec::new());
        }
    }
    let absent = answering(absent, sys::ENOSYS)?;
    // Locks, like watches, would be a channel through the shared files (one
    // bot locks, the other finds the lock taken). A bot's lock is taken
    // without effect: the call answers success (an errno of 0), so that a
    // program locking its own files (SQLite, a JVM's `hsperfdata`) runs on,
    // and no other process ever finds it. `F_GETLK` still answers, and
    // finds no bot's lock.
    let mut locks = std::collections::BTreeMap::new();
    if let Some(flock) = sys::syscall_number("flock") {
        locks.insert(flock, Vec::new());
    }
    if let Some(fcntl) = fcntl {
        let set = sys::F_SET_LOCKS.map(fcntl_command);
        locks.insert(fcntl, set.into_iter().collect::<Result<_, _>>()?);
    }
    let locks = answering(locks, 0)?;
    // A read with `RWF_NOWAIT` fails at once when the page is not cached: a
    // probe of the page cache, as `cachestat`. It answers as on a file
    // system without it.
    let mut nowait = std::collections::BTreeMap::new();
    if let Some(preadv2) = sys::syscall_number("preadv2") {
        let flag = SeccompCmpOp::MaskedEq(sys::RWF_NOWAIT);
        nowait.insert(preadv2, vec![argument_is(5, flag, sys::RWF_NOWAIT)?]);
    }
    let nowait = answering(nowait, sys::EOPNOTSUPP)?;
    let mut filters = vec![denied, absent, locks, nowait];
    filters.extend(socket_filters(tcp)?);
    // The rules above name native numbers only.
    #[cfg(target_arch = "x86_64")]
    let mut out = vec![sys::x32_filter()];
    #[cfg(not(target_arch = "x86_64"))]
    let mut out = Vec::new();
    for filter in filters {
        out.push(
            filter
                .try_into()
                .map_err(|e: seccompiler::BackendError| seccomp_error(e))?,
        );
    }
    Ok(out)
}

/// A filter that lets every call through but those `rules` match (a call
/// with no rule matches whatever its arguments), which answer `errno`
/// (success, for 0).
fn answering(
    rules: std::collections::BTreeMap<i64, Vec<seccompiler::SeccompRule>>,
    errno: u32,
) -> Result<seccompiler::SeccompFilter, SandboxError> {
    use seccompiler::{SeccompAction, SeccompFilter};
    SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(errno),
        target_arch()?,
    )
    .map_err(seccomp_error)
}

/// A rule matching a call whose argument `index` (its low 32 bits) compares
/// to `value` by `op`.
fn argument_is(
    index: u8,
    op: seccompiler::SeccompCmpOp,
    value: u64,
) -> Result<seccompiler::SeccompRule, SandboxError> {
    use seccompiler::{SeccompCmpArgLen, SeccompCondition, SeccompRule};
    let condition =
        SeccompCondition::new(index, SeccompCmpArgLen::Dword, op, value).map_err(seccomp_error)?;
    SeccompRule::new(vec![condition]).map_err(seccomp_error)
}

/// A rule matching `fcntl` called with `command`.
fn fcntl_command(command: u64) -> Result<seccompiler::SeccompRule, SandboxError> {
    argument_is(1, seccompiler::SeccompCmpOp::Eq, command)
}

fn seccomp_error(e: impl std::fmt::Display) -> SandboxError {
    SandboxError::Seccomp(e.to_string())
}

fn target_arch() -> Result<seccompiler::TargetArch, SandboxError> {
    seccompiler::TargetArch::try_from(std::env::consts::ARCH).map_err(seccomp_error)
}

/// The sockets a bot may make: Unix sockets (which reach only its own
/// root's, Landlock refusing abstract ones out of its domain) and, for a
/// Speed Clue bot (`tcp`), TCP over IPv4 or IPv6, whose `connect` Landlock
/// limits to its one port (in its own network namespace, whose loopback
/// holds the host's listener and nothing else). Every other
/// family answers `EAFNOSUPPORT`, as on a kernel without it, so that a
/// program probing for IPv6 carries on without it; a Speed Clue bot's UDP,
/// raw, SCTP or MPTCP socket, which Landlock's TCP rules would not see,
/// answers `EPROTONOSUPPORT`. A network namespace with nothing but a
/// loopback already reaches nothing; these are a second wall.
fn socket_filters(tcp: bool) -> Result<Vec<seccompiler::SeccompFilter>, SandboxError> {
    use seccompiler::SeccompCmpOp::{Eq, MaskedEq, Ne};
    use seccompiler::{SeccompCmpArgLen, SeccompCondition, SeccompRule};
    let Some(socket) = sys::syscall_number("socket") else {
        return Ok(Vec::new());
    };
    let arg = |index: u8, op: seccompiler::SeccompCmpOp, value: u64| {
        SeccompCondition::new(index, SeccompCmpArgLen::Dword, op, value).map_err(seccomp_error)
    };
    let allowed: &[u64] = if tcp {
        &[sys::AF_UNIX, sys::AF_INET, sys::AF_INET6]
    } else {
        &[sys::AF_UNIX]
    };
    let other_family = allowed
        .iter()
        .map(|&family| arg(0, Ne, family))
        .collect::<Result<Vec<_>, _>>()?;
    let family = answering(
        [(
            socket,
            vec![SeccompRule::new(other_family).map_err(seccomp_error)?],
        )]
        .into(),
        sys::EAFNOSUPPORT,
    )?;
    if !tcp {
        return Ok(vec![family]);
    }
    // The socket type is the low 4 bits of the second argument (the rest
    // are `SOCK_NONBLOCK` and `SOCK_CLOEXEC`); a filter compares for
    // equality only, so each type but `SOCK_STREAM` is a rule.
    let mut not_tcp = Vec::new();
    for family in [sys::AF_INET, sys::AF_INET6] {
        for kind in (0..16).filter(|&k| k != sys::SOCK_STREAM) {
            not_tcp.push(
                SeccompRule::new(vec![arg(0, Eq, family)?, arg(1, MaskedEq(0xf), kind)?])
                    .map_err(seccomp_error)?,
            );
        }
        not_tcp.push(
            SeccompRule::new(vec![
                arg(0, Eq, family)?,
                arg(2, Ne, 0)?,
                arg(2, Ne, sys::IPPROTO_TCP)?,
            ])
            .map_err(seccomp_error)?,
        );
    }
    let protocol = answering([(socket, not_tcp)].into(), sys::EPROTONOSUPPORT)?;
    Ok(vec![family, protocol])
}

//! Every `unsafe` call of the process runtime: the new session, the
//! descriptors closed at `exec` and the resource limits set in the child
//! between `fork` and `exec`, and killing a process group. Nothing else in
//! `runtime::process` touches libc.

use std::io;
use std::os::unix::process::CommandExt;
use std::process::Command;

/// Resource limits applied with `setrlimit` in the child before `exec`.
/// `None` leaves the limit inherited from the host.
#[derive(Clone, Copy, Debug, Default)]
pub struct Rlimits {
    pub address_space: Option<u64>,
    pub cpu_seconds: Option<u64>,
    pub processes: Option<u64>,
    /// `RLIMIT_FSIZE`: the largest file a process may write (a sandboxed
    /// build's brake on filling the disk between two measures of its folder).
    pub file_size: Option<u64>,
}

/// Makes the child the leader of a new session (so of a new process group
/// whose id is its pid), marks every descriptor but its stdin, stdout and
/// stderr close-on-exec and applies `limits`, before it runs the bot.
pub fn contain(command: &mut Command, limits: Rlimits) {
    let settings: [(libc::__rlimit_resource_t, Option<u64>); 7] = [
        (libc::RLIMIT_AS, limits.address_space),
        (libc::RLIMIT_FSIZE, limits.file_size),
        (libc::RLIMIT_CPU, limits.cpu_seconds),
        (libc::RLIMIT_NPROC, limits.processes),
        // A crashing bot leaves no core file behind.
        (libc::RLIMIT_CORE, Some(0)),
        // No real-time scheduling, and no nice value under the host's: a
        // host whose limits allow them (an audio group's `rtprio` in
        // limits.conf) would otherwise let a bot's `SCHED_FIFO` loop starve
        // the host and the other bots of the CPU.
        (libc::RLIMIT_RTPRIO, Some(0)),
        (libc::RLIMIT_NICE, Some(0)),
    ];
    let hook = move || {
        // SAFETY: `setsid`, `close_range` and `setrlimit` are
        // async-signal-safe system calls; they touch no memory of the
        // parent, allocate nothing and take no locks, which is all that is
        // allowed between `fork` and `exec`. The `rlimit` value lives on this
        // stack frame for the duration of the call.
        unsafe {
            if libc::setsid() == -1 {
                return Err(io::Error::last_os_error());
            }
            // The bot gets its stdin, stdout and stderr, nothing else: a
            // descriptor the host holds without close-on-exec (inherited
            // from its own parent: a shell's `3>file`, a `make` jobserver's
            // pipe) is closed at `exec` too. Marked, not closed, so that
            // std's own pipe that reports a failed `exec` still works. Linux
            // 5.11 and later; an older kernel cannot run the sandbox at all
            // (docs/process-sandbox.md), so a failure here is left be.
            libc::syscall(
                libc::SYS_close_range,
                3u32,
                u32::MAX,
                libc::CLOSE_RANGE_CLOEXEC,
            );
            for (resource, value) in settings {
                if let Some(value) = value {
                    let limit = libc::rlimit {
                        rlim_cur: value,
                        rlim_max: value,
                    };
                    if libc::setrlimit(resource, &limit) == -1 {
                        return Err(io::Error::last_os_error());
                    }
                }
            }
        }
        Ok(())
    };
    // SAFETY: the hook above only makes async-signal-safe system calls (see
    // there), as `pre_exec` requires of code run in the forked child.
    unsafe {
        command.pre_exec(hook);
    }
}

/// Sends SIGKILL to every process of the group `pgid`. A group that no
/// longer exists is not an error.
pub fn kill_group(pgid: u32) {
    let Ok(pgid) = libc::pid_t::try_from(pgid) else {
        return;
    };
    if pgid <= 1 {
        return; // never signal "every process" or init's group
    }
    // SAFETY: `kill` takes plain integers and has no memory-safety
    // preconditions; a negative pid names the process group.
    unsafe {
        libc::kill(-pgid, libc::SIGKILL);
    }
}

/// How many CPUs the machine has (configured, not only online or allowed to
/// this process: a bot's processes may use at most that many seconds of
/// CPU time per second).
pub fn cpu_count() -> f64 {
    // SAFETY: `sysconf` reads a system value and has no memory-safety
    // preconditions.
    let n = unsafe { libc::sysconf(libc::_SC_NPROCESSORS_CONF) };
    n.max(1) as f64
}

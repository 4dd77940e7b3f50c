//! The system calls of the process runtime, through `rustix` where it has
//! them: the new session, the descriptors closed at `exec` and the resource
//! limits set in the child between `fork` and `exec`, killing a process
//! group, and waiting for a child's exit with a time limit. What `rustix`
//! lacks (`close_range`, the configured CPU count) is the only `unsafe` here
//! besides `pre_exec` itself. Nothing else in `runtime::process` touches
//! libc.

use std::io;
use std::os::fd::BorrowedFd;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus};
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec, poll};
use rustix::io::Errno;
use rustix::process::{
    Pid, PidfdFlags, Resource, Rlimit, Signal, kill_process_group, pidfd_open, setrlimit, setsid,
};

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
    let settings: [(Resource, Option<u64>); 7] = [
        (Resource::As, limits.address_space),
        (Resource::Fsize, limits.file_size),
        (Resource::Cpu, limits.cpu_seconds),
        (Resource::Nproc, limits.processes),
        // A crashing bot leaves no core file behind.
        (Resource::Core, Some(0)),
        // No real-time scheduling, and no nice value under the host's: a
        // host whose limits allow them (an audio group's `rtprio` in
        // limits.conf) would otherwise let a bot's `SCHED_FIFO` loop starve
        // the host and the other bots of the CPU.
        (Resource::Rtprio, Some(0)),
        (Resource::Nice, Some(0)),
    ];
    // Everything in the hook is a bare system call on values of this frame:
    // no allocation, no lock, nothing of the parent's memory, which is all
    // that is allowed between `fork` and `exec` (`rustix` makes its calls
    // directly, without libc or `errno`).
    let hook = move || {
        setsid()?;
        // The bot gets its stdin, stdout and stderr, nothing else: a
        // descriptor the host holds without close-on-exec (inherited from
        // its own parent: a shell's `3>file`, a `make` jobserver's pipe) is
        // closed at `exec` too. Marked, not closed, so that std's own pipe
        // that reports a failed `exec` still works. Linux 5.11 and later; an
        // older kernel cannot run the sandbox at all
        // (docs/process-sandbox.md), so a failure here is left be. `rustix`
        // has no `close_range`.
        // SAFETY: `close_range` takes plain integers; marking descriptors
        // close-on-exec touches no memory.
        unsafe {
            libc::syscall(
                libc::SYS_close_range,
                3u32,
                u32::MAX,
                libc::CLOSE_RANGE_CLOEXEC,
            );
        }
        for (resource, value) in settings {
            if let Some(value) = value {
                let limit = Rlimit {
                    current: Some(value),
                    maximum: Some(value),
                };
                setrlimit(resource, limit)?;
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
    let Some(pgid) = i32::try_from(pgid).ok().and_then(Pid::from_raw) else {
        return;
    };
    if pgid.is_init() {
        return; // never signal init's group
    }
    let _ = kill_process_group(pgid, Signal::KILL);
}

/// Waits at most `within` for `ready` to be readable (a listener with a
/// connection to accept) or for `child` to exit, whichever comes first. It
/// reaps nothing: the caller looks at both afterwards. `child` must not have
/// been reaped.
pub fn wait_readable(ready: BorrowedFd<'_>, child: &Child, within: Duration) -> io::Result<()> {
    let exited = pidfd_open(pid_of(child)?, PidfdFlags::empty())?;
    let timeout = Timespec::try_from(within).unwrap_or(Timespec {
        tv_sec: i64::MAX,
        tv_nsec: 0,
    });
    let mut fds = [
        PollFd::new(&ready, PollFlags::IN),
        PollFd::new(&exited, PollFlags::IN),
    ];
    match poll(&mut fds, Some(&timeout)) {
        Ok(_) | Err(Errno::INTR) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// A child's process id as `rustix` takes it.
fn pid_of(child: &Child) -> io::Result<Pid> {
    i32::try_from(child.id())
        .ok()
        .and_then(Pid::from_raw)
        .ok_or_else(|| io::Error::other("a child without a process id"))
}

/// Waits at most `within` for `child` to exit, and reaps it if it did.
///
/// Not the `wait-timeout` crate: it installs a process-wide `SIGCHLD`
/// handler that writes to a pipe, and the sandbox's init and mirror
/// (`sandbox/sys.rs`), forked from the host without `exec`, would inherit
/// it with that pipe closed. A pidfd (Linux 5.3) becomes readable when its
/// process exits, and concerns no one else.
pub fn wait_timeout(child: &mut Child, within: Duration) -> io::Result<Option<ExitStatus>> {
    if let Some(status) = child.try_wait()? {
        return Ok(Some(status));
    }
    let exited = pidfd_open(pid_of(child)?, PidfdFlags::empty())?;
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let timeout = Timespec::try_from(left).unwrap_or(Timespec {
            tv_sec: i64::MAX,
            tv_nsec: 0,
        });
        match poll(&mut [PollFd::new(&exited, PollFlags::IN)], Some(&timeout)) {
            Ok(_) | Err(Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if left.is_zero() {
            return Ok(None);
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_gives_the_exit_status_or_nothing_while_the_child_runs() {
        let mut quick = Command::new("sh")
            .args(["-c", "sleep 0.2; exit 3"])
            .spawn()
            .expect("sh starts");
        let status = wait_timeout(&mut quick, Duration::from_secs(60)).expect("waits");
        assert_eq!(status.and_then(|s| s.code()), Some(3));
        // Reaped: asking again gives the same status at once.
        let again = wait_timeout(&mut quick, Duration::ZERO).expect("waits");
        assert_eq!(again.and_then(|s| s.code()), Some(3));

        let mut slow = Command::new("sleep")
            .arg("60")
            .spawn()
            .expect("sleep starts");
        assert!(
            wait_timeout(&mut slow, Duration::from_millis(50))
                .expect("waits")
                .is_none(),
            "a sleeping child has not exited"
        );
        kill_group(slow.id()); // not a group leader: nothing happens
        slow.kill().expect("kills");
        let status = wait_timeout(&mut slow, Duration::from_secs(60)).expect("waits");
        assert!(status.is_some_and(|s| !s.success()), "{status:?}");
    }

    #[test]
    fn a_listener_is_awaited_until_a_connection_comes() {
        use std::os::fd::AsFd;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a listener");
        listener.set_nonblocking(true).expect("non-blocking");
        let mut bot = Command::new("sleep")
            .arg("60")
            .spawn()
            .expect("sleep starts");
        wait_readable(listener.as_fd(), &bot, Duration::from_millis(20)).expect("waits");
        assert!(listener.accept().is_err(), "nobody connected yet");
        let _peer = std::net::TcpStream::connect(listener.local_addr().unwrap()).expect("connects");
        wait_readable(listener.as_fd(), &bot, Duration::from_secs(60)).expect("waits");
        assert!(
            listener.accept().is_ok(),
            "the connection is there to accept"
        );
        bot.kill().expect("kills");
        bot.wait().expect("reaps");
    }
}

//! The system calls of the process runtime, through `rustix` where it has
//! them: the new session, the descriptors closed at `exec` and the resource
//! limits set in the child between `fork` and `exec`, killing a process
//! group, waiting for a child's exit with a time limit, and the warden that
//! kills an unsandboxed bot's group when the host dies without dropping it.
//! What `rustix` lacks (`close_range`, the configured CPU count, `fork` and
//! the warden's calls after it) is the only `unsafe` here besides
//! `pre_exec` itself. Nothing else in `runtime::process` touches libc.

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

/// Hands the process group `pgid` (an unsandboxed bot, which has no
/// sandbox init to end it) to the warden, which kills it if the host process
/// ends before [`release`] is called for it: a host killed without dropping
/// its bots (`kill -9`, the OOM killer, a crash, a Ctrl-C its handler did
/// not see) would leave a bot that is not reading its stdin (it computes, or
/// loops for ever, which is why the host was about to kill it) running on
/// alone.
pub fn guard(pgid: u32) {
    if let Ok(pgid) = i32::try_from(pgid) {
        tell_warden(pgid);
    }
}

/// Takes the process group `pgid` back from the warden: the host has killed
/// it itself.
pub fn release(pgid: u32) {
    if let Ok(pgid) = i32::try_from(pgid) {
        tell_warden(-pgid);
    }
}

/// At most this many groups are guarded at once; a host with more
/// unsandboxed bots running leaves the others unguarded.
const WARDEN_GROUPS: usize = 8192;

/// Sends one order (a group to guard, or its negation to release) to the
/// warden, starting it first. Each order is one 4-byte `write`, which a
/// pipe never interleaves with another thread's (it is under `PIPE_BUF`).
/// A warden that cannot be started or has gone leaves the bots unguarded,
/// as they were before it.
fn tell_warden(order: i32) {
    use std::io::Write;
    static WARDEN: std::sync::OnceLock<Option<std::fs::File>> = std::sync::OnceLock::new();
    if let Some(mut pipe) = WARDEN.get_or_init(start_warden).as_ref() {
        let _ = pipe.write_all(&order.to_ne_bytes());
    }
}

/// Forks the warden: a process of the host's (without `exec`, for the same
/// reason as the sandbox's init: the host may be a test binary or a library
/// user with no program of ours to run) that reads orders from a pipe whose
/// write end only the host holds (close-on-exec, and closed by every fork
/// of the host that does not `exec`), so that the pipe ends exactly when
/// the host process is gone, however it ended; then it kills every group it
/// still guards, and exits. Not `PR_SET_PDEATHSIG` on the bot: it fires
/// when the host's *thread* that started the bot ends, and it would spare
/// the bot's own children.
///
/// One warden per host, not one per bot: a fork costs the host's page
/// tables, and the warden's copy of the host's memory is shared until the
/// host writes it.
fn start_warden() -> Option<std::fs::File> {
    use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: `pipe2` writes two descriptors into `fds`, a local; on
    // success each is owned here alone.
    let (read, write) = unsafe {
        if libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return None;
        }
        (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1]))
    };
    // SAFETY: the child runs only `warden`, which makes async-signal-safe
    // system calls and never returns.
    match unsafe { libc::fork() } {
        -1 => None,
        0 => unsafe { warden(read.as_raw_fd()) },
        _ => {
            drop(read);
            Some(std::fs::File::from(write))
        }
    }
}

/// The warden's life: out of the host's session (a Ctrl-C at the terminal
/// is the host's to handle), every descriptor but its pipe closed (the
/// write end among them), it keeps the groups it is told to guard until the
/// pipe ends, then kills them.
///
/// # Safety
/// Only async-signal-safe system calls: it runs in a fork of a
/// multithreaded host.
unsafe fn warden(pipe: libc::c_int) -> ! {
    let mut groups = [0i32; WARDEN_GROUPS];
    // SAFETY: plain system calls on integers and on locals.
    unsafe {
        crate::sandbox::close_all_but(&[pipe]);
        libc::setsid();
        libc::prctl(libc::PR_SET_NAME, c"clue-warden".as_ptr());
        let mut held = 0usize;
        let mut bytes = [0u8; 4096];
        let mut carried = 0usize;
        loop {
            let got = libc::read(
                pipe,
                bytes[carried..].as_mut_ptr().cast(),
                bytes.len() - carried,
            );
            if got == 0 {
                break;
            }
            if got < 0 {
                if *libc::__errno_location() == libc::EINTR {
                    continue;
                }
                break;
            }
            let end = carried + got as usize;
            let whole = end - end % 4;
            for order in bytes[..whole].chunks_exact(4) {
                let order = i32::from_ne_bytes([order[0], order[1], order[2], order[3]]);
                if order > 0 {
                    if held < groups.len() {
                        groups[held] = order;
                        held += 1;
                    }
                } else if let Some(at) = groups[..held]
                    .iter()
                    .position(|&g| g == order.wrapping_neg())
                {
                    held -= 1;
                    groups[at] = groups[held];
                }
            }
            bytes.copy_within(whole..end, 0);
            carried = end - whole;
        }
        for &group in &groups[..held] {
            if group > 1 {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        libc::_exit(0)
    }
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

/// What a thread waits for in a system call (see [`wait_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// To read the descriptor `fd`: `read` (Java's socket streams too),
    /// `readv`, or for a socket `recvfrom` (what C's `recv` and Python's
    /// `socket.recv` call) and `recvmsg`.
    Read { fd: u64 },
    /// For the events of the epoll set `set`, as an event loop does (Node's
    /// libuv, Python's `asyncio`, Java's NIO): `epoll_wait` or `epoll_pwait`.
    Epoll { set: u64 },
    /// For any of the `count` `struct pollfd` at `fds` in its memory:
    /// `poll` or `ppoll` (Python's `select.poll`).
    Poll { fds: u64, count: u64 },
    /// To read any descriptor below `count` set in the `fd_set` at `read`
    /// in its memory: `select` or `pselect6`, through which glibc makes C's
    /// `select` (and so Python's `select.select` and Perl's four-argument
    /// `select`).
    Select { count: u64, read: u64 },
}

/// What a thread in the system call numbered `number` waits for, from the
/// call's arguments `args` (both as `/proc/PID/syscall` gives them): one
/// descriptor it reads, or several it waits on with no time limit, as an
/// event loop with no timer pending does; `None` for any other call, and
/// for a wait with a time limit (a timer of its own may be what it waits
/// for). With no time limit: a timeout in milliseconds of -1 (`poll`,
/// `epoll_wait`, `epoll_pwait`), or a null pointer to one (`ppoll`,
/// `epoll_pwait2`, `select`, `pselect6`).
pub fn wait_of(number: i64, args: &[u64]) -> Option<Wait> {
    let wait = match number {
        libc::SYS_read | libc::SYS_readv | libc::SYS_recvfrom | libc::SYS_recvmsg => {
            Wait::Read { fd: arg(args, 0)? }
        }
        libc::SYS_epoll_pwait if endless_millis(args, 3) => Wait::Epoll { set: arg(args, 0)? },
        libc::SYS_epoll_pwait2 if no_timeout(args, 3) => Wait::Epoll { set: arg(args, 0)? },
        libc::SYS_ppoll if no_timeout(args, 2) => Wait::Poll {
            fds: arg(args, 0)?,
            count: arg(args, 1)?,
        },
        libc::SYS_pselect6 if no_timeout(args, 4) => Wait::Select {
            count: arg(args, 0)?,
            read: arg(args, 1)?,
        },
        _ => return older_wait_of(number, args),
    };
    Some(wait)
}

/// [`wait_of`] for the older calls that aarch64, riscv64 and loongarch64
/// do without (their C libraries make them of the newer ones).
#[cfg(not(any(
    target_arch = "aarch64",
    target_arch = "riscv64",
    target_arch = "loongarch64"
)))]
fn older_wait_of(number: i64, args: &[u64]) -> Option<Wait> {
    let wait = match number {
        libc::SYS_epoll_wait if endless_millis(args, 3) => Wait::Epoll { set: arg(args, 0)? },
        libc::SYS_poll if endless_millis(args, 2) => Wait::Poll {
            fds: arg(args, 0)?,
            count: arg(args, 1)?,
        },
        libc::SYS_select if no_timeout(args, 4) => Wait::Select {
            count: arg(args, 0)?,
            read: arg(args, 1)?,
        },
        _ => return None,
    };
    Some(wait)
}

#[cfg(any(
    target_arch = "aarch64",
    target_arch = "riscv64",
    target_arch = "loongarch64"
))]
fn older_wait_of(_number: i64, _args: &[u64]) -> Option<Wait> {
    None
}

/// The system call's argument `i`, if the line gave it.
fn arg(args: &[u64], i: usize) -> Option<u64> {
    args.get(i).copied()
}

/// Whether argument `i` is a timeout in milliseconds of -1, no time limit.
/// An `int` argument: only its low 32 bits are the caller's.
fn endless_millis(args: &[u64], i: usize) -> bool {
    arg(args, i).is_some_and(|a| a as u32 as i32 == -1)
}

/// Whether argument `i` is a null pointer to a timeout, no time limit.
fn no_timeout(args: &[u64], i: usize) -> bool {
    arg(args, i) == Some(0)
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

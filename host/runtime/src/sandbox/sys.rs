//! Every `unsafe` call of the sandbox: what the child does between `fork`
//! and `exec` (join its cgroups, new namespaces, the tiny init outside the
//! bot's PID namespace, the bot's own root folder, an unprivileged id,
//! Landlock, seccomp), killing a cgroup's processes, and the probes of
//! `clue doctor`.
//!
//! Everything the child needs (paths, mount options, id maps) is prepared in
//! the host as C strings before `fork`: between `fork` and `exec` the child
//! only makes system calls on memory it already owns, allocating nothing.

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;

/// One step of building the bot's root folder, in order.
#[derive(Clone, Debug)]
pub enum Step {
    /// `mkdir` (an existing folder is fine).
    Mkdir(CString),
    /// An empty file to bind a file onto.
    Touch(CString),
    /// A symbolic link `at` -> `target` (`/bin` -> `usr/bin`).
    Symlink { target: CString, at: CString },
    /// A new file `at` (mode 0644) holding `contents`, to bind over a file
    /// of the host's `/etc`.
    Write { at: CString, contents: Vec<u8> },
    /// Removes the empty folder `at`, if it can (where [`Step::Write`]'s
    /// files were staged, once they are bound and its `tmpfs` detached).
    Rmdir(CString),
    /// A read-only bind of `src` (and every mount below it) at `dst`;
    /// `device`: a device node, so `nodev` is not set and it stays writable;
    /// `writable`: a sandboxed build's folder, bound read-write.
    Bind {
        src: CString,
        dst: CString,
        device: bool,
        writable: bool,
    },
    /// A fresh `tmpfs` with `options` (the size-capped scratch folder).
    Tmpfs { dst: CString, options: CString },
    /// Detaches whatever is mounted at this path and below it, if it can
    /// (a mount a user namespace received locked cannot be: then what is
    /// mounted over it next still hides it, but it stays listed in
    /// `/proc/self/mountinfo`).
    Detach(CString),
    /// A fresh `/proc` of the bot's PID namespace.
    Proc(CString),
    /// A fresh read-only `sysfs` at `dst`, whose network devices are those
    /// of the bot's own network namespace (its loopback), not the host's;
    /// where the kernel refuses one, a read-only bind of the host's `host`.
    Sysfs { dst: CString, host: CString },
    /// Gives `at` to `uid` and `gid` (a folder the build writes, made by
    /// the child while it is still root).
    Chown { at: CString, uid: u32, gid: u32 },
    /// An `overlay` at `dst`: the host's folder `lower` as it is, with what
    /// is written there going to `upper` (and `work`, the overlay's own
    /// folder), both on a `tmpfs` of the child's: a build's throwaway copy
    /// of a folder it must write but the host's may not change.
    Overlay { dst: CString, options: CString },
}

/// The bot's own root folder: a `tmpfs` at `root` (an empty folder of the
/// host, seen only in the bot's mount namespace), the steps that fill it,
/// then `pivot_root` into it.
#[derive(Clone, Debug)]
pub struct FsPlan {
    pub root: CString,
    pub steps: Vec<Step>,
    /// Where the bot starts, inside its root.
    pub workdir: CString,
    /// The scratch folder inside its root (`/tmp`), made writable for
    /// Landlock once it exists.
    pub scratch: CString,
    /// The shared memory folder inside its root (`/dev/shm`), a `tmpfs`
    /// like the scratch folder's, made writable for Landlock too.
    pub shared_memory: CString,
    /// A sandboxed build's folder (the only one it may write besides the
    /// scratch folder), made writable for Landlock too.
    pub writable: Option<CString>,
    /// The build's throwaway overlays ([`Step::Overlay`]), made writable for
    /// Landlock too.
    pub throwaway: Vec<CString>,
}

/// Who the bot runs as.
#[derive(Clone, Debug)]
pub enum Ids {
    /// The host is root: the bot runs as this unprivileged uid and gid (no
    /// supplementary groups, every capability dropped by `setresuid`).
    Switch { uid: u32, gid: u32 },
    /// The host is an ordinary user: a user namespace maps that user to
    /// itself (the bot keeps its uid and has no capability after `exec`).
    /// The maps are written by the child itself.
    UserNamespace { uid_map: CString, gid_map: CString },
}

/// What the child applies to itself before `exec`, prepared in the host.
pub struct ChildSetup {
    /// A Landlock ruleset.
    pub ruleset: OwnedFd,
    /// Landlock rights of the whole root (read) and of the scratch folder
    /// (everything), added in the child once they exist.
    pub read_access: u64,
    pub write_access: u64,
    /// Compiled seccomp filters, installed in order.
    pub seccomp: Vec<seccompiler::BpfProgram>,
    /// `cgroup.procs` of each of the bot's cgroups, open for writing.
    pub join: Vec<OwnedFd>,
    /// A Speed Clue bot's one TCP listener, made in its network namespace
    /// by the child and sent back over a socket pair (this is the child's
    /// end); `None` for every other bot.
    pub listen: Option<Listen>,
    pub ids: Ids,
    pub fs: FsPlan,
    /// The host's argument and environment strings ([`argument_areas`]),
    /// zeroed by the namespace's init.
    pub areas: [(usize, usize); 2],
}

/// Where a Speed Clue bot's listener is made: `127.0.0.1:port` in the bot's
/// own network namespace, sent to the host over `channel`.
pub struct Listen {
    pub port: u16,
    pub channel: OwnedFd,
}

/// `struct landlock_path_beneath_attr` (packed, as in the kernel's uapi).
#[repr(C, packed)]
struct PathBeneath {
    allowed_access: u64,
    parent_fd: i32,
}

/// `struct mount_attr` of `mount_setattr(2)`.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;
const MOUNT_ATTR_NODEV: u64 = 0x4;
const MOUNT_ATTR_NOEXEC: u64 = 0x8;
const LANDLOCK_RULE_PATH_BENEATH: libc::c_int = 1;

/// Namespaces every sandboxed bot gets (and the user one when the host is
/// not root). A Speed Clue bot's network namespace holds its loopback and
/// the listener the host talks to it through ([`listen_inside`]).
const NAMESPACES: libc::c_int = libc::CLONE_NEWNS
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWNET;

fn check(result: libc::c_int) -> io::Result<()> {
    if result == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

fn check_long(result: libc::c_long) -> io::Result<()> {
    if result == -1 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// Writes `bytes` to the file at `path` (a `/proc/self` control file).
///
/// # Safety
/// Only system calls on the caller's memory: safe between `fork` and `exec`.
unsafe fn write_file(path: &std::ffi::CStr, bytes: &[u8]) -> io::Result<()> {
    // SAFETY: (of the calls) `path` is a valid C string, `bytes` a valid slice.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd == -1 {
            return Err(io::Error::last_os_error());
        }
        let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
        libc::close(fd);
        if written != bytes.len() as isize {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// In the child, in the bot's fresh network namespace: brings its loopback
/// up, listens on `127.0.0.1:port` there and sends the listener to the host
/// over `channel` (`SCM_RIGHTS`). The namespace has no other interface, so
/// the bot, which may connect to that port only (Landlock), reaches this
/// listener and nothing else: not a service of the host's, not a machine
/// outside. Hand-written with libc like the rest of this file: std's
/// ancillary-data API is unstable, and these calls run between `fork` and
/// `exec`, where only async-signal-safe system calls may be made.
///
/// # Safety
/// Only async-signal-safe system calls on locals: safe between `fork` and
/// `exec`.
unsafe fn listen_inside(port: u16, channel: libc::c_int) -> io::Result<()> {
    // SAFETY: plain system calls on integers and on zero-initialised
    // locals of the kernel's own layouts, alive for each call.
    unsafe {
        let probe = libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0);
        check(probe)?;
        let mut request: libc::ifreq = std::mem::zeroed();
        for (to, from) in request.ifr_name.iter_mut().zip(b"lo") {
            *to = *from as libc::c_char;
        }
        request.ifr_ifru.ifru_flags = libc::IFF_UP as libc::c_short;
        let up = libc::ioctl(probe, libc::SIOCSIFFLAGS, &request);
        libc::close(probe);
        check(up)?;
        let listener = libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0);
        check(listener)?;
        let mut address: libc::sockaddr_in = std::mem::zeroed();
        address.sin_family = libc::AF_INET as libc::sa_family_t;
        address.sin_port = port.to_be();
        address.sin_addr.s_addr = u32::from(std::net::Ipv4Addr::LOCALHOST).to_be();
        check(libc::bind(
            listener,
            (&address as *const libc::sockaddr_in).cast(),
            std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
        ))?;
        check(libc::listen(listener, 16))?;
        let sent = send_descriptor(channel, listener);
        libc::close(listener);
        libc::close(channel);
        sent
    }
}

/// Room for one descriptor's control message (`CMSG_SPACE(sizeof(int))`,
/// 24 bytes on 64-bit Linux), aligned as a `cmsghdr`.
#[repr(C)]
struct OneDescriptor {
    header: libc::cmsghdr,
    descriptor: [u8; 8],
}

/// A message of one byte with room for one descriptor, on the stack (no
/// allocation: usable between `fork` and `exec`).
struct OneDescriptorMessage {
    byte: [u8; 1],
    payload: libc::iovec,
    control: OneDescriptor,
}

impl OneDescriptorMessage {
    fn new(byte: u8) -> OneDescriptorMessage {
        OneDescriptorMessage {
            byte: [byte],
            payload: libc::iovec {
                iov_base: std::ptr::null_mut(),
                iov_len: 0,
            },
            // SAFETY: `cmsghdr` and bytes: all zeroes is a valid value.
            control: unsafe { std::mem::zeroed() },
        }
    }

    /// The `msghdr` for `sendmsg` or `recvmsg`, pointing into `self`: use
    /// it only while `self` is neither moved nor dropped.
    fn header(&mut self) -> libc::msghdr {
        self.payload = libc::iovec {
            iov_base: self.byte.as_mut_ptr().cast(),
            iov_len: 1,
        };
        // SAFETY: a plain C struct: all zeroes is a valid value.
        let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
        message.msg_iov = &mut self.payload;
        message.msg_iovlen = 1;
        message.msg_control = (&mut self.control as *mut OneDescriptor).cast();
        message.msg_controllen = std::mem::size_of::<OneDescriptor>() as _;
        message
    }
}

/// Sends `descriptor` over the Unix socket `channel` with one byte.
///
/// # Safety
/// Async-signal-safe (`sendmsg` on locals).
unsafe fn send_descriptor(channel: libc::c_int, descriptor: libc::c_int) -> io::Result<()> {
    // SAFETY: the message points into `parts`, a local alive and unmoved
    // for the call; the control message is written inside its buffer
    // through the kernel's macros.
    unsafe {
        let mut parts = OneDescriptorMessage::new(b'L');
        let mut message = parts.header();
        message.msg_controllen = libc::CMSG_SPACE(std::mem::size_of::<libc::c_int>() as u32) as _;
        let header = libc::CMSG_FIRSTHDR(&message);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<libc::c_int>() as u32) as _;
        std::ptr::write_unaligned(libc::CMSG_DATA(header).cast::<libc::c_int>(), descriptor);
        if libc::sendmsg(channel, &message, libc::MSG_NOSIGNAL) != 1 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }
}

/// In the host: the descriptor the child sent over `channel`
/// ([`listen_inside`]), waiting at most `within`; close-on-exec.
pub fn receive_descriptor(channel: &OwnedFd, within: std::time::Duration) -> io::Result<OwnedFd> {
    use std::os::fd::FromRawFd;
    let timeout = libc::timeval {
        tv_sec: within.as_secs().min(i32::MAX as u64) as libc::time_t,
        tv_usec: libc::suseconds_t::from(within.subsec_micros() as i32),
    };
    // SAFETY: `setsockopt` and `recvmsg` on a socket this function borrows
    // and on locals alive for each call; the descriptor read from the
    // control message is a new one the kernel made for this process, owned
    // from here on.
    unsafe {
        check(libc::setsockopt(
            channel.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_RCVTIMEO,
            (&timeout as *const libc::timeval).cast(),
            std::mem::size_of::<libc::timeval>() as libc::socklen_t,
        ))?;
        let mut parts = OneDescriptorMessage::new(0);
        let mut message = parts.header();
        let read = libc::recvmsg(channel.as_raw_fd(), &mut message, libc::MSG_CMSG_CLOEXEC);
        if read < 0 {
            return Err(io::Error::last_os_error());
        }
        let header = libc::CMSG_FIRSTHDR(&message);
        if read == 0
            || header.is_null()
            || (*header).cmsg_level != libc::SOL_SOCKET
            || (*header).cmsg_type != libc::SCM_RIGHTS
        {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the bot's sandbox sent no listener",
            ));
        }
        let descriptor = std::ptr::read_unaligned(libc::CMSG_DATA(header).cast::<libc::c_int>());
        Ok(OwnedFd::from_raw_fd(descriptor))
    }
}

/// The read end of the host's lifeline: a pipe made once per host process,
/// whose write end only the host holds (both ends are close-on-exec, and
/// every fork of the host that does not `exec` closes them), so the read
/// end hangs up exactly when the host process is gone, however it ended
/// (`kill -9`, the OOM killer, a crash). -1 when no pipe can be made.
///
/// Why not `PR_SET_PDEATHSIG` on the tiny init: it fires when the *thread*
/// that forked it ends, and bots are started from game threads that may
/// end while their bots play on.
fn lifeline() -> libc::c_int {
    use std::os::fd::FromRawFd;
    static LIFELINE: std::sync::OnceLock<Option<(OwnedFd, OwnedFd)>> = std::sync::OnceLock::new();
    let ends = LIFELINE.get_or_init(|| {
        let mut fds = [0 as libc::c_int; 2];
        // SAFETY: `pipe2` writes two descriptors into `fds`, a local; on
        // success each is owned here alone.
        unsafe {
            (libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) == 0)
                .then(|| (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])))
        }
    });
    ends.as_ref().map_or(-1, |(read, _)| read.as_raw_fd())
}

/// Closes every descriptor of this process but `keep` (ascending; negative
/// values are ignored).
///
/// # Safety
/// Only `close_range`: safe between `fork` and `exec`.
pub(crate) unsafe fn close_all_but(keep: &[libc::c_int]) {
    let mut from: u32 = 0;
    for &fd in keep.iter().filter(|&&fd| fd >= 0) {
        let fd = fd as u32;
        if fd > from {
            // SAFETY: `close_range` takes integers.
            unsafe {
                libc::syscall(libc::SYS_close_range, from, fd - 1, 0u32);
            }
        }
        from = fd + 1;
    }
    // SAFETY: as above.
    unsafe {
        libc::syscall(libc::SYS_close_range, from, u32::MAX, 0u32);
    }
}

/// Waits for the namespace's init `init`, or for the host's `lifeline` to
/// hang up, whichever comes first: then `init` is killed, which kills every
/// process of its namespace, so that no bot outlives a host that died
/// without dropping it. Without `pidfd_open` (Linux before 5.3) it only
/// waits, as before.
///
/// # Safety
/// Only async-signal-safe system calls.
unsafe fn wait_or_kill(init: libc::pid_t, lifeline: libc::c_int) -> libc::c_int {
    // SAFETY: plain system calls on integers and on `fds`, a local.
    unsafe {
        let pidfd = if lifeline >= 0 {
            libc::syscall(libc::SYS_pidfd_open, init, 0u32) as libc::c_int
        } else {
            -1
        };
        if pidfd >= 0 {
            loop {
                let mut fds = [
                    libc::pollfd {
                        fd: lifeline,
                        events: libc::POLLIN,
                        revents: 0,
                    },
                    libc::pollfd {
                        fd: pidfd,
                        events: libc::POLLIN,
                        revents: 0,
                    },
                ];
                if libc::poll(fds.as_mut_ptr(), 2, -1) == -1 {
                    if *libc::__errno_location() == libc::EINTR {
                        continue;
                    }
                    break;
                }
                if fds[1].revents != 0 {
                    break;
                }
                if fds[0].revents != 0 {
                    libc::kill(init, libc::SIGKILL);
                    break;
                }
            }
        }
        wait_for(init)
    }
}

/// The tiny init: the process the host started (outside the bot's PID
/// namespace) keeps no file open but `ended` and the host's `lifeline`,
/// waits for the namespace's init (PID 1 there) and ends as the bot ended,
/// so the host sees the bot's exit status or signal. Its death (the host
/// kills its process group) kills the namespace's init through
/// `PR_SET_PDEATHSIG`, and that init's death kills every process of the
/// namespace: nothing outlives the bot. When the host itself dies first,
/// the lifeline hangs up and the tiny init kills the namespace's init
/// ([`wait_or_kill`]): nothing outlives the host either.
///
/// # Safety
/// Only async-signal-safe system calls: safe between `fork` and `exec`.
unsafe fn wait_and_mirror(init: libc::pid_t, ended: libc::c_int, lifeline: libc::c_int) -> ! {
    // SAFETY: plain system calls on integers and on `status` and `signal`,
    // locals.
    unsafe {
        // Every descriptor but `ended` and the lifeline, the pipes to the
        // host and std's exec-error pipe among them: the bot holds its own
        // copies. The lifeline's write end goes too.
        let keep = if ended < lifeline {
            [ended, lifeline]
        } else {
            [lifeline, ended]
        };
        close_all_but(&keep);
        let status = wait_or_kill(init, lifeline);
        let mut signal: libc::c_int = 0;
        let read = libc::read(
            ended,
            (&mut signal as *mut libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>(),
        );
        if read == std::mem::size_of::<libc::c_int>() as isize && signal > 0 {
            die_by(signal);
        }
        if libc::WIFEXITED(status) {
            libc::_exit(libc::WEXITSTATUS(status));
        }
        if libc::WIFSIGNALED(status) {
            die_by(libc::WTERMSIG(status));
        }
        libc::_exit(127)
    }
}

/// The namespace's init (PID 1): reaps every orphan, and when the bot ends
/// ends too (which kills the rest of the namespace), passing an ending by a
/// signal on through `ended`, since a PID 1 cannot end by its own signal.
///
/// It is a fork of the host, so its command line and environment are the
/// host's (a `--db` URL with a password, say). `/proc` is mounted
/// `hidepid=2`, which hides it from a bot of another uid (host root), but
/// not from a bot of the same uid (host not root: the user namespace maps
/// the host's user to itself). So it first zeroes `areas`, the memory its
/// `/proc/1/cmdline` and `/proc/1/environ` are read from (the kernel reads
/// them from the process's own memory, as `setproctitle` relies on), and
/// makes itself not dumpable, so that what else of the host's memory it
/// holds is not readable through `/proc/1` either (Landlock's ptrace rule
/// already refuses that to the bot). Why not `exec` a tiny init instead:
/// there is no program to `exec` that the host could be sure to find (the
/// host may be a test binary or a library user), and the init needs
/// nothing but these few system calls.
///
/// # Safety
/// Only async-signal-safe system calls and writes to `areas`, which must
/// be writable memory of this process that nothing in it reads afterwards
/// (see [`argument_areas`]).
unsafe fn init_inside(bot: libc::pid_t, ended: libc::c_int, areas: &[(usize, usize); 2]) -> ! {
    // SAFETY: `areas` are this process's argument and environment strings
    // (the caller's contract), zeroed in place; the rest are plain system
    // calls on integers and on `status`, a local.
    unsafe {
        for &(start, end) in areas {
            if end > start {
                std::ptr::write_bytes(start as *mut u8, 0, end - start);
            }
        }
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
        if ended > 0 {
            libc::syscall(libc::SYS_close_range, 0u32, (ended - 1) as u32, 0u32);
        }
        libc::syscall(libc::SYS_close_range, (ended + 1) as u32, u32::MAX, 0u32);
        let status = wait_for(bot);
        if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            libc::write(
                ended,
                (&signal as *const libc::c_int).cast(),
                std::mem::size_of::<libc::c_int>(),
            );
            libc::_exit(0);
        }
        if libc::WIFEXITED(status) {
            libc::_exit(libc::WEXITSTATUS(status));
        }
        libc::_exit(127)
    }
}

/// Waits for `child`, reaping any other child met on the way (the
/// namespace's init adopts orphans); its wait status.
///
/// # Safety
/// Only async-signal-safe system calls.
unsafe fn wait_for(child: libc::pid_t) -> libc::c_int {
    // SAFETY: `waitpid` on a local status.
    unsafe {
        let mut status: libc::c_int = 0;
        loop {
            let got = libc::waitpid(-1, &mut status, 0);
            if got == child {
                return status;
            }
            if got == -1 && *libc::__errno_location() != libc::EINTR {
                libc::_exit(127);
            }
        }
    }
}

/// Ends this process by `signal`, as the bot ended.
///
/// # Safety
/// Only async-signal-safe system calls.
unsafe fn die_by(signal: libc::c_int) -> ! {
    // SAFETY: plain system calls on integers and a local signal set.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, signal);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        libc::kill(libc::getpid(), signal);
        libc::_exit(128 + signal)
    }
}

/// Builds the bot's root folder and enters it (run inside the new PID
/// namespace, so that `/proc` shows that namespace).
///
/// # Safety
/// Only system calls on the plan's prepared C strings: safe between `fork`
/// and `exec`.
unsafe fn enter_root(plan: &FsPlan) -> io::Result<()> {
    let none = std::ptr::null::<libc::c_char>();
    // SAFETY: every pointer is a valid C string of `plan`, a static literal
    // or null where the call allows it; nothing is allocated.
    unsafe {
        // Mounts made here never propagate back to the host.
        check(libc::mount(
            none,
            c"/".as_ptr(),
            none,
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        ))?;
        check(libc::mount(
            c"tmpfs".as_ptr(),
            plan.root.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            c"size=1m,mode=0755".as_ptr().cast(),
        ))?;
        for step in &plan.steps {
            match step {
                Step::Mkdir(path) => {
                    if libc::mkdir(path.as_ptr(), 0o755) == -1
                        && *libc::__errno_location() != libc::EEXIST
                    {
                        return Err(io::Error::last_os_error());
                    }
                }
                Step::Touch(path) => {
                    let fd = libc::open(
                        path.as_ptr(),
                        libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                        0o644,
                    );
                    if fd == -1 {
                        return Err(io::Error::last_os_error());
                    }
                    libc::close(fd);
                }
                Step::Symlink { target, at } => {
                    check(libc::symlink(target.as_ptr(), at.as_ptr()))?;
                }
                Step::Write { at, contents } => {
                    let fd = libc::open(
                        at.as_ptr(),
                        libc::O_CREAT | libc::O_EXCL | libc::O_WRONLY | libc::O_CLOEXEC,
                        0o644,
                    );
                    if fd == -1 {
                        return Err(io::Error::last_os_error());
                    }
                    let mut rest: &[u8] = contents;
                    while !rest.is_empty() {
                        let n = libc::write(fd, rest.as_ptr().cast(), rest.len());
                        if n <= 0 {
                            let e = io::Error::last_os_error();
                            libc::close(fd);
                            return Err(e);
                        }
                        rest = &rest[n as usize..];
                    }
                    libc::close(fd);
                }
                Step::Rmdir(at) => {
                    // Best effort, like `Detach`: an empty folder left in
                    // the root is harmless, a bot that cannot start is not.
                    libc::rmdir(at.as_ptr());
                }
                Step::Bind {
                    src,
                    dst,
                    device,
                    writable,
                } => bind(src, dst, *device, *writable)?,
                Step::Sysfs { dst, host } => {
                    // The kernel mounts a `sysfs` for the owner of the
                    // network namespace (root, or the new user namespace)
                    // and, in a user namespace, only while a `sysfs` of the
                    // host is still fully visible in this mount namespace
                    // (it is, until the `pivot_root` below); where it still
                    // refuses, the bind keeps the bot starting.
                    if libc::mount(
                        c"sysfs".as_ptr(),
                        dst.as_ptr(),
                        c"sysfs".as_ptr(),
                        libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                        std::ptr::null(),
                    ) == -1
                    {
                        bind(host, dst, false, false)?;
                    }
                }
                Step::Tmpfs { dst, options } => {
                    check(libc::mount(
                        c"tmpfs".as_ptr(),
                        dst.as_ptr(),
                        c"tmpfs".as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV,
                        options.as_ptr().cast(),
                    ))?;
                }
                Step::Detach(dst) => {
                    libc::umount2(dst.as_ptr(), libc::MNT_DETACH);
                }
                Step::Chown { at, uid, gid } => {
                    check(libc::chown(at.as_ptr(), *uid, *gid))?;
                }
                Step::Overlay { dst, options } => {
                    // Best effort, like `Sysfs`: where the kernel refuses
                    // it, the folder stays the read-only bind it was (the
                    // build then fails as it would have, at its write).
                    libc::mount(
                        c"overlay".as_ptr(),
                        dst.as_ptr(),
                        c"overlay".as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV,
                        options.as_ptr().cast(),
                    );
                }
                Step::Proc(dst) => {
                    // `hidepid=2`: processes of other users are not even
                    // listed. The namespace's init is a copy of the host:
                    // the bot, under its own uid (host root), does not see
                    // it; under the host's uid it sees an init that wiped
                    // its command line and environment (`init_inside`).
                    check(libc::mount(
                        c"proc".as_ptr(),
                        dst.as_ptr(),
                        c"proc".as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                        c"hidepid=2".as_ptr().cast(),
                    ))?;
                }
            }
        }
        // pivot_root(".", "."): the old root ends up stacked under the new
        // one and is then detached: nothing of the host is reachable.
        check(libc::chdir(plan.root.as_ptr()))?;
        check_long(libc::syscall(
            libc::SYS_pivot_root,
            c".".as_ptr(),
            c".".as_ptr(),
        ))?;
        check(libc::umount2(c".".as_ptr(), libc::MNT_DETACH))?;
        check(libc::chdir(c"/".as_ptr()))?;
        // The skeleton itself (mount points only) is read-only too.
        check(libc::mount(
            none,
            c"/".as_ptr(),
            none,
            libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
            std::ptr::null(),
        ))?;
        check(libc::chdir(plan.workdir.as_ptr()))?;
    }
    Ok(())
}

/// Binds `src` (and every mount below it) at `dst`: read-only, but for a
/// device (`device`: `nodev` not set) and a build's folder (`writable`).
///
/// # Safety
/// Only system calls on the given C strings and on stack memory; for the
/// child between `fork` and `exec`.
unsafe fn bind(
    src: &std::ffi::CStr,
    dst: &std::ffi::CStr,
    device: bool,
    writable: bool,
) -> io::Result<()> {
    // SAFETY: `src` and `dst` are valid C strings, the attribute structure
    // lives on this stack for the call.
    unsafe {
        check(libc::mount(
            src.as_ptr(),
            dst.as_ptr(),
            std::ptr::null(),
            libc::MS_BIND | libc::MS_REC,
            std::ptr::null(),
        ))?;
        let attr = MountAttr {
            attr_set: if device {
                MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC
            } else if writable {
                MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV
            } else {
                MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV
            },
            attr_clr: 0,
            propagation: 0,
            userns_fd: 0,
        };
        check_long(libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            dst.as_ptr(),
            libc::AT_RECURSIVE as libc::c_uint,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        ))?;
    }
    Ok(())
}

/// The file system type of a pipe (`linux/magic.h`).
const PIPEFS_MAGIC: i64 = 0x5049_5045;

/// Gives the bot, about to become `uid`, the pipes of its standard streams,
/// which the host (root) made and which are the host's, mode 0600: without
/// this the bot cannot open them again by name, and a script's `echo ... >
/// /dev/stderr` or a program's `open("/dev/stdin")` fails with "Permission
/// denied", where it works under a contest's own server (and under a host
/// that is not root, whose bots keep its uid). Only an anonymous pipe (on
/// `pipefs`) is given: a stream that is a file or device of the host, such
/// as its `/dev/null`, keeps its owner. Best effort: a stream not given
/// leaves the bot as it was.
///
/// # Safety
/// Only system calls on plain integers and on stack memory; for the child
/// between `fork` and `exec`.
unsafe fn give_streams(uid: u32, gid: u32) {
    for fd in 0..=2 {
        // SAFETY: `fstat` and `fstatfs` write only the zeroed structures
        // on this stack; `fchown` takes integers.
        unsafe {
            let mut stat: libc::stat = std::mem::zeroed();
            if libc::fstat(fd, &mut stat) != 0 || stat.st_mode & libc::S_IFMT != libc::S_IFIFO {
                continue;
            }
            let mut fs: libc::statfs = std::mem::zeroed();
            if libc::fstatfs(fd, &mut fs) == 0 && fs.f_type as i64 == PIPEFS_MAGIC {
                libc::fchown(fd, uid, gid);
            }
        }
    }
}

/// Adds a Landlock rule for the folder `path` (opened here, in the child).
///
/// # Safety
/// Only system calls on a valid C string and a local: safe between `fork`
/// and `exec`.
unsafe fn landlock_allow(ruleset: i32, path: &std::ffi::CStr, access: u64) -> io::Result<()> {
    // SAFETY: `path` is a valid C string; `attr` lives across the call.
    unsafe {
        let fd = libc::open(
            path.as_ptr(),
            libc::O_PATH | libc::O_CLOEXEC | libc::O_DIRECTORY,
        );
        if fd == -1 {
            return Err(io::Error::last_os_error());
        }
        let attr = PathBeneath {
            allowed_access: access,
            parent_fd: fd,
        };
        let result = libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset,
            LANDLOCK_RULE_PATH_BENEATH,
            &attr as *const PathBeneath,
            0u32,
        );
        libc::close(fd);
        check_long(result)
    }
}

/// Adds the sandbox to `command`, run in the child after the process
/// runtime's own hook (session and `setrlimit`).
pub fn apply(command: &mut Command, setup: &ChildSetup) {
    let ruleset = setup.ruleset.as_raw_fd();
    let join: Vec<i32> = setup.join.iter().map(AsRawFd::as_raw_fd).collect();
    let filters = setup.seccomp.clone();
    let ids = setup.ids.clone();
    let fs = setup.fs.clone();
    let (read_access, write_access) = (setup.read_access, setup.write_access);
    let areas = setup.areas;
    let lifeline = lifeline();
    let listen = setup
        .listen
        .as_ref()
        .map(|l| (l.port, l.channel.as_raw_fd()));
    let mut namespaces = NAMESPACES;
    if let Ids::UserNamespace { .. } = ids {
        namespaces |= libc::CLONE_NEWUSER;
    }
    let hook = move || {
        // SAFETY: only async-signal-safe system calls on plain integers and
        // on memory owned by this closure (the prepared C strings, `b"0"`,
        // the filters), all alive for the calls; nothing is allocated and no
        // lock is taken, as required between `fork` and `exec`. The `fork`
        // below is made by this single-threaded child; its parent never
        // returns from the hook (`wait_and_mirror`).
        unsafe {
            for fd in &join {
                // "0" moves the writing process into the cgroup.
                if libc::write(*fd, b"0".as_ptr().cast(), 1) != 1 {
                    return Err(io::Error::last_os_error());
                }
            }
            check(libc::unshare(namespaces))?;
            // Privileged in the new UTS namespace, as in the network one.
            check(libc::sethostname(
                super::BOT_HOSTNAME.as_ptr().cast(),
                super::BOT_HOSTNAME.len(),
            ))?;
            if let Ids::UserNamespace { uid_map, gid_map } = &ids {
                write_file(c"/proc/self/setgroups", b"deny")?;
                write_file(c"/proc/self/uid_map", uid_map.as_bytes())?;
                write_file(c"/proc/self/gid_map", gid_map.as_bytes())?;
            }
            // Still privileged in the new network namespace (root, or the
            // owner of the new user namespace): its loopback comes up here.
            if let Some((port, channel)) = listen {
                listen_inside(port, channel)?;
            }
            // How the bot ended, when by a signal, from the namespace's init
            // (which, as PID 1, cannot end by that signal itself) to the
            // tiny init outside, which then can.
            let mut ended = [0 as libc::c_int; 2];
            check(libc::pipe2(ended.as_mut_ptr(), libc::O_CLOEXEC))?;
            // The next child is PID 1 of the new PID namespace: an init that
            // only waits. The bot is its child, PID 2, so that it keeps
            // ordinary signals (a PID 1 ignores its own `abort`).
            let init = libc::fork();
            if init == -1 {
                return Err(io::Error::last_os_error());
            }
            if init > 0 {
                libc::close(ended[1]);
                wait_and_mirror(init, ended[0], lifeline);
            }
            check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0))?;
            let bot = libc::fork();
            if bot == -1 {
                return Err(io::Error::last_os_error());
            }
            if bot > 0 {
                init_inside(bot, ended[1], &areas);
            }
            libc::close(ended[0]);
            libc::close(ended[1]);
            enter_root(&fs)?;
            if let Ids::Switch { uid, gid } = ids {
                give_streams(uid, gid);
                check(libc::setgroups(0, std::ptr::null()))?;
                check(libc::setresgid(gid, gid, gid))?;
                check(libc::setresuid(uid, uid, uid))?;
            }
            check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
            landlock_allow(ruleset, c"/", read_access)?;
            landlock_allow(ruleset, &fs.scratch, write_access)?;
            landlock_allow(ruleset, &fs.shared_memory, write_access)?;
            if let Some(writable) = &fs.writable {
                landlock_allow(ruleset, writable, write_access)?;
            }
            for throwaway in &fs.throwaway {
                landlock_allow(ruleset, throwaway, write_access)?;
            }
            check_long(libc::syscall(libc::SYS_landlock_restrict_self, ruleset, 0))?;
            for filter in &filters {
                let program = libc::sock_fprog {
                    len: filter.len() as libc::c_ushort,
                    filter: filter.as_ptr() as *mut libc::sock_filter,
                };
                check(libc::prctl(
                    libc::PR_SET_SECCOMP,
                    libc::SECCOMP_MODE_FILTER,
                    &program as *const libc::sock_fprog,
                ))?;
            }
        }
        Ok(())
    };
    // SAFETY: the hook only makes async-signal-safe system calls (see there).
    unsafe {
        command.pre_exec(hook);
    }
}

/// Removes the empty folder `path` when this process exits normally (the
/// shared mount point of the bots' roots; the children `_exit`, so they do
/// not run it). Call once.
pub fn remove_at_exit(path: CString) {
    static PATH: std::sync::OnceLock<CString> = std::sync::OnceLock::new();
    extern "C" fn remove() {
        if let Some(path) = PATH.get() {
            // SAFETY: `rmdir` of a valid C string; an error (not empty,
            // gone) is ignored at exit.
            unsafe {
                libc::rmdir(path.as_ptr());
            }
        }
    }
    if PATH.set(path).is_ok() {
        // SAFETY: `remove` is an `extern "C" fn()` that touches only a
        // static; registering it has no other precondition.
        unsafe {
            libc::atexit(remove);
        }
    }
}

/// Where this process's argument strings and environment strings lie in
/// its memory (`arg_start`, `arg_end`, `env_start`, `env_end`: fields 48
/// to 51 of `/proc/self/stat`, Linux 3.5 and later); empty areas when they
/// cannot be read. A `fork` has them at the same addresses.
pub fn argument_areas() -> [(usize, usize); 2] {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The command name (field 2) is in parentheses and may hold spaces:
    // fields are counted from the last `)`, which ends it.
    let after = stat.rfind(')').map_or("", |i| &stat[i + 1..]);
    let fields: Vec<usize> = after
        .split_whitespace()
        .skip(45)
        .take(4)
        .filter_map(|f| f.parse().ok())
        .collect();
    match fields[..] {
        [arg_start, arg_end, env_start, env_end] => [(arg_start, arg_end), (env_start, env_end)],
        _ => [(0, 0); 2],
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
        for pid in pids.into_iter().filter(|&pid| pid > 1) {
            if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// The host's effective uid and gid.
pub fn host_ids() -> (u32, u32) {
    // SAFETY: `geteuid`/`getegid` take nothing and cannot fail.
    unsafe { (libc::geteuid(), libc::getegid()) }
}

/// Whether the host runs as root.
pub fn is_root() -> bool {
    host_ids().0 == 0
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

/// Whether this process may create the namespaces `flags` (tried in a
/// short-lived child, for `clue doctor` and the start-up check).
pub fn can_unshare(flags: libc::c_int) -> Result<(), io::Error> {
    // SAFETY: the child makes two async-signal-safe calls and `_exit`s; the
    // parent waits for it with a local status.
    unsafe {
        let pid = libc::fork();
        if pid == -1 {
            return Err(io::Error::last_os_error());
        }
        if pid == 0 {
            let code = if libc::unshare(flags) == 0 {
                0
            } else {
                *libc::__errno_location()
            };
            libc::_exit(code & 0xff);
        }
        let mut status = 0;
        if libc::waitpid(pid, &mut status, 0) == -1 {
            return Err(io::Error::last_os_error());
        }
        match libc::WEXITSTATUS(status) {
            0 => Ok(()),
            errno => Err(io::Error::from_raw_os_error(errno)),
        }
    }
}

/// The namespaces of a sandboxed bot, for [`can_unshare`].
pub fn bot_namespaces(root: bool) -> libc::c_int {
    let user = if root { 0 } else { libc::CLONE_NEWUSER };
    NAMESPACES | user
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
        "mount_setattr" => libc::SYS_mount_setattr,
        "fspick" => libc::SYS_fspick,
        "fsconfig" => libc::SYS_fsconfig,
        "io_uring_setup" => libc::SYS_io_uring_setup,
        "io_uring_enter" => libc::SYS_io_uring_enter,
        "io_uring_register" => libc::SYS_io_uring_register,
        #[cfg(target_arch = "x86_64")]
        "inotify_init" => libc::SYS_inotify_init,
        "inotify_init1" => libc::SYS_inotify_init1,
        "fanotify_init" => libc::SYS_fanotify_init,
        // Not in `libc` yet; 451 on every architecture (Linux 6.5's
        // `include/uapi/asm-generic/unistd.h` and x86-64's table alike).
        "cachestat" => 451,
        "preadv2" => libc::SYS_preadv2,
        "mincore" => libc::SYS_mincore,
        "flock" => libc::SYS_flock,
        "fcntl" => libc::SYS_fcntl,
        "socket" => libc::SYS_socket,
        "clone" => libc::SYS_clone,
        "clone3" => libc::SYS_clone3,
        _ => return None,
    };
    Some(n)
}

/// A filter that answers `EPERM` to every x32 system call (number with
/// bit 30 set). The x32 ABI shares x86-64's audit architecture, so the
/// architecture check each `seccompiler` filter starts with lets its calls
/// through, and those filters match numbers one by one: `unshare` is 272,
/// its x32 form 0x4000_0110, which no rule names. `seccompiler` compares a
/// number only for equality, so these four instructions are written here
/// (libseccomp makes the same check, and systemd's
/// `SystemCallArchitectures=native`). i386 calls (`int 0x80`) carry an
/// architecture of their own, and `seccompiler`'s check kills the process.
#[cfg(target_arch = "x86_64")]
pub fn x32_filter() -> seccompiler::BpfProgram {
    use seccompiler::sock_filter;
    const X32_SYSCALL_BIT: u32 = 0x4000_0000;
    // `seccomp_data.nr`, the first field.
    const NR_OFFSET: u32 = 0;
    let op = |code: u32, jt: u8, jf: u8, k: u32| sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    };
    vec![
        op(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, 0, 0, NR_OFFSET),
        op(
            libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K,
            0,
            1,
            X32_SYSCALL_BIT,
        ),
        op(
            libc::BPF_RET | libc::BPF_K,
            0,
            0,
            libc::SECCOMP_RET_ERRNO | EPERM,
        ),
        op(libc::BPF_RET | libc::BPF_K, 0, 0, libc::SECCOMP_RET_ALLOW),
    ]
}

/// The `clone` flags that make namespaces (refused by the seccomp filter).
pub const CLONE_NAMESPACE_FLAGS: &[u64] = &[
    libc::CLONE_NEWNS as u64,
    libc::CLONE_NEWUSER as u64,
    libc::CLONE_NEWPID as u64,
    libc::CLONE_NEWNET as u64,
    libc::CLONE_NEWIPC as u64,
    libc::CLONE_NEWUTS as u64,
    libc::CLONE_NEWCGROUP as u64,
];

/// The errors of the seccomp filters.
pub const ENOSYS: u32 = libc::ENOSYS as u32;
pub const EPERM: u32 = libc::EPERM as u32;
pub const EOPNOTSUPP: u32 = libc::EOPNOTSUPP as u32;
pub const EAFNOSUPPORT: u32 = libc::EAFNOSUPPORT as u32;
pub const EPROTONOSUPPORT: u32 = libc::EPROTONOSUPPORT as u32;

/// `fcntl`'s commands that watch a folder or a file, or set a lock.
pub const F_NOTIFY: u64 = libc::F_NOTIFY as u64;
pub const F_SETLEASE: u64 = libc::F_SETLEASE as u64;
pub const F_SET_LOCKS: [u64; 4] = [
    libc::F_SETLK as u64,
    libc::F_SETLKW as u64,
    libc::F_OFD_SETLK as u64,
    libc::F_OFD_SETLKW as u64,
];

/// `preadv2`'s flag that fails a read of a page not cached.
pub const RWF_NOWAIT: u64 = libc::RWF_NOWAIT as u64;

/// The socket families, type and protocol the socket filters compare.
pub const AF_UNIX: u64 = libc::AF_UNIX as u64;
pub const AF_INET: u64 = libc::AF_INET as u64;
pub const AF_INET6: u64 = libc::AF_INET6 as u64;
pub const SOCK_STREAM: u64 = libc::SOCK_STREAM as u64;
pub const IPPROTO_TCP: u64 = libc::IPPROTO_TCP as u64;

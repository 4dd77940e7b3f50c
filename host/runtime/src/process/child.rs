//! One contained bot process: spawned in its own session with resource
//! limits and a cleared environment, spoken to one line at a time with a
//! deadline, and killed with its whole process group when dropped.

use std::io::Write;
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use clue_engine::Fault;
use clue_plugin_api::DqReason;

use super::output::{self, Output, StderrTap};
use super::sys::{self, Wait};
use super::{ProcessLimits, SpawnError};

/// How often a waiting host checks whether the bot has exited.
const POLL: Duration = Duration::from_millis(20);

/// A running bot process. Dropping it kills and reaps its process group.
pub struct BotProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Output>,
    stderr: StderrTap,
    /// The command line, for messages.
    command: String,
    exited: Option<ExitStatus>,
    /// The bot's sandbox, torn down after the bot is killed.
    sandbox: Option<crate::sandbox::Prepared>,
    /// CPU seconds of the bot with all its children (`ProcessLimits::cpu_seconds`).
    cpu_cap: Option<u64>,
    /// When the cgroup's count was last read, and what it said (see
    /// [`BotProcess::cpu_fault`]).
    cpu_read: Option<(Instant, f64)>,
    /// Killed and reaped already: its process id may since belong to
    /// another process, whose group a second kill would hit.
    killed: bool,
    /// The host has written the bot a line.
    spoken: bool,
    /// What the bot wrote after its last newline.
    unfinished: output::Unfinished,
}

impl BotProcess {
    /// Starts `argv` contained by `limits`.
    pub fn spawn(argv: &[String], limits: &ProcessLimits) -> Result<BotProcess, SpawnError> {
        let command_line = argv.join(" ");
        if argv.is_empty() {
            return Err(SpawnError::Empty);
        }
        let sandbox = crate::sandbox::prepare(
            argv,
            limits.dir.as_deref(),
            &limits.sandbox,
            limits.processes,
        )?;
        // A sandboxed bot starts in its scratch folder, not where the host
        // runs: a path of its command line written relative to the host's
        // folder (`python3 plugins/x/bot.py`) is given to it whole, so that
        // it names the same file (bound read-only there).
        let argv: Vec<String> = match (&sandbox, &limits.dir) {
            (Some(_), None) => argv
                .iter()
                .enumerate()
                .map(|(i, word)| anchored(word, i == 0))
                .collect(),
            _ => argv.to_vec(),
        };
        let (program, args) = argv.split_first().ok_or(SpawnError::Empty)?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env_clear();
        for name in &limits.pass_env {
            if let Some(value) = std::env::var_os(name) {
                command.env(name, value);
            }
        }
        for (name, value) in &limits.env {
            command.env(name, value);
        }
        if let Some(sandbox) = &sandbox {
            // Paths inside the bot's own root; the working directory is
            // entered there too (a declared `dir` is bound at its own path).
            command
                .env("TMPDIR", sandbox.scratch())
                .env("HOME", sandbox.scratch());
            // Its user's name, unless the bot's `env` gives one: the bot's
            // uid has no entry in the system's `/etc/passwd`, so a program
            // that asks the name of the environment first (Python's
            // `getpass.getuser()`) finds this, not the host's user, and does
            // not fail.
            for name in ["USER", "LOGNAME"] {
                if !limits.env.iter().any(|(given, _)| given == name) {
                    command.env(name, crate::sandbox::BOT_USER);
                }
            }
        }
        if let Some(dir) = &limits.dir {
            command.current_dir(dir);
        }
        // Memory capped by the bot's cgroup: no `RLIMIT_AS`, which a JVM's
        // address-space reservations trip over long before it uses memory.
        let address_space = match &sandbox {
            Some(sandbox) if sandbox.memory_capped() => None,
            _ => limits.address_space,
        };
        sys::contain(
            &mut command,
            sys::Rlimits {
                address_space,
                cpu_seconds: limits.cpu_seconds,
                processes: limits.processes,
                file_size: None,
            },
        );
        if let Some(sandbox) = &sandbox {
            crate::sandbox::apply(&mut command, sandbox);
        }
        let mut child = command.spawn().map_err(|source| SpawnError::Start {
            command: command_line.clone(),
            source,
        })?;
        tracing::debug!(
            pid = child.id(),
            command = %command_line,
            address_space,
            sandboxed = sandbox.is_some(),
            cpu_seconds = limits.cpu_seconds,
            processes = limits.processes,
            "spawned a contained process"
        );
        if sandbox.is_none() {
            // A sandboxed bot dies with its host through its init; an
            // unsandboxed one has the warden for that.
            sys::guard(child.id());
        }
        let stdin = child.stdin.take();
        let unfinished = output::Unfinished::default();
        let lines = match child.stdout.take() {
            Some(stdout) => output::read_lines(
                stdout,
                limits.max_line,
                limits.max_output,
                unfinished.clone(),
            ),
            None => output::read_lines(std::io::empty(), 0, 0, unfinished.clone()),
        };
        let stderr = StderrTap::default();
        if let Some(pipe) = child.stderr.take() {
            stderr.drain(pipe, limits.max_stderr);
        }
        Ok(BotProcess {
            child,
            stdin,
            lines,
            stderr,
            command: command_line,
            exited: None,
            sandbox,
            cpu_cap: limits.cpu_seconds,
            cpu_read: None,
            killed: false,
            spoken: false,
            unfinished,
        })
    }

    /// A timeout fault when the bot and every process it started (background
    /// children included, counted by its `cpuacct` cgroup) used more CPU
    /// time than the cap; `RLIMIT_CPU` alone caps each process separately.
    ///
    /// The count is a file of the cgroup, and reading it before every call
    /// was the sandbox's whole cost per call (10 µs, docs/process-sandbox.md):
    /// it is read only when the bot could have reached the cap since the
    /// last reading, the bot's processes using at most one CPU second per
    /// second on each of the machine's CPUs.
    fn cpu_fault(&mut self) -> Option<Fault> {
        let cap = self.cpu_cap? as f64;
        if let Some((at, used)) = self.cpu_read
            && used + at.elapsed().as_secs_f64() * sys::cpu_count() < cap
        {
            return None;
        }
        let used = self.sandbox.as_ref()?.cpu_seconds()?;
        self.cpu_read = Some((Instant::now(), used));
        (used > cap).then(|| {
            Fault::new(
                DqReason::Timeout,
                format!(
                    "used {used:.1} s of CPU time with its child processes, over the cap of {cap} s"
                ),
            )
        })
    }

    /// `crash` or `timeout` turned into `out-of-memory` when the bot's
    /// memory cgroup reached its cap.
    fn memory_fault(&self, fault: Fault) -> Fault {
        // A bot held at its cap may be stuck reclaiming past its deadline
        // before the OOM killer ends it: a timeout then is the memory's.
        if matches!(fault.reason, DqReason::Crash | DqReason::Timeout)
            && self.sandbox.as_ref().is_some_and(|s| s.out_of_memory())
        {
            Fault::new(
                DqReason::OutOfMemory,
                format!(
                    "{}; over its memory cap (the kernel's OOM killer)",
                    fault.detail
                ),
            )
        } else {
            fault
        }
    }

    /// The process id, which is also the id of the bot's process group.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The command line the bot was started with.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The bot's stderr so far (keeps filling while the bot runs).
    pub fn stderr(&self) -> StderrTap {
        self.stderr.clone()
    }

    /// The bot's stderr for the game record: when the bot was killed on a
    /// fault (`killed`), the pipe is first given a moment to drain its last
    /// words.
    pub fn stderr_text(&self, killed: bool) -> String {
        if killed {
            self.stderr.text_after_end(super::STDERR_SETTLE)
        } else {
            self.stderr.text()
        }
    }

    /// Writes one line (a newline is added) to the bot's stdin.
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        let result = match self.stdin.as_mut() {
            Some(stdin) => stdin
                .write_all(line.as_bytes())
                .and_then(|()| stdin.write_all(b"\n"))
                .and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if result.is_ok() {
            self.spoken = true;
        }
        result.map_err(|e| {
            self.stdin = None;
            let status = self.wait_briefly();
            Fault::new(
                DqReason::Crash,
                format!(
                    "stopped reading its input ({e}){}{}",
                    describe(status),
                    self.sandbox_hint()
                ),
            )
        })
    }

    /// Closes the bot's stdin (end of the game for line protocols).
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// A line the bot wrote without being asked, if any is waiting.
    pub fn stray_line(&mut self) -> Option<Result<String, Fault>> {
        match self.lines.try_recv() {
            Ok(Output::Line(line)) => Some(Ok(line)),
            Ok(other) => Some(Err(self.fault(other))),
            Err(_) => None,
        }
    }

    /// The next line the bot writes, within `timeout`. `waiting_for` names
    /// what was expected, for the fault's detail.
    pub fn recv(&mut self, timeout: Duration, waiting_for: &str) -> Result<String, Fault> {
        self.recv_inner(timeout, waiting_for)
            .map_err(|fault| self.memory_fault(fault))
    }

    fn recv_inner(&mut self, timeout: Duration, waiting_for: &str) -> Result<String, Fault> {
        if let Some(fault) = self.cpu_fault() {
            return Err(fault);
        }
        let deadline = Instant::now() + timeout;
        loop {
            let now = Instant::now();
            if now >= deadline {
                return Err(Fault::new(
                    DqReason::Timeout,
                    format!(
                        "no {waiting_for} within {} ms{}",
                        timeout.as_millis(),
                        self.deadlock_hint(waiting_for)
                    ),
                ));
            }
            let slice = (deadline - now).min(POLL);
            match self.lines.recv_timeout(slice) {
                Ok(Output::Line(line)) => return Ok(line),
                Ok(Output::Closed) => return Err(self.end_fault(Some(waiting_for))),
                Ok(other) => return Err(self.fault(other)),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.fault(Output::Failed("the output reader stopped".into())));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Some(fault) = self.cpu_fault() {
                        return Err(fault);
                    }
                }
            }
            // A bot that exited while a child of its own keeps its stdout
            // open never shows end of output: notice the exit itself.
            if self.poll_exit().is_some() {
                // Whatever it wrote before exiting has had a moment to arrive.
                return match self.lines.recv_timeout(POLL) {
                    Ok(Output::Line(line)) => Ok(line),
                    _ => Err(self.end_fault(Some(waiting_for))),
                };
            }
        }
    }

    /// Why a bot that timed out may have done so, when one of its processes
    /// is blocked reading its stdin, or waits for it in an event loop: it
    /// waits for the host as the host waits for it, which is what a reply
    /// written but never flushed looks like from outside (a pipe is
    /// block-buffered where a terminal is line-buffered, and a bot tried at
    /// a terminal works), or a request its code skips, or, before the host
    /// has said anything, a bot waiting to be spoken to in a protocol where
    /// it speaks first (`waiting_for` names what it owes). Nothing when it
    /// computes or sleeps, or when its processes cannot be read.
    fn deadlock_hint(&self, waiting_for: &str) -> String {
        use std::os::fd::AsRawFd;
        let waiter = self.stdin.as_ref().and_then(|stdin| {
            let pipe = std::fs::read_link(format!("/proc/self/fd/{}", stdin.as_raw_fd())).ok()?;
            self.blocked_reading(&pipe)
        });
        if let Some(start) = self.unfinished.text() {
            // Waiting for the host, it thinks its line done; otherwise it
            // may be in the middle of writing it.
            return if waiter.is_some() {
                format!(
                    "; it wrote `{}` and no newline after it, and the host reads whole lines: \
                     end each line with one (`print`, `println` and `console.log` add it; \
                     `sys.stdout.write`, `System.out.print`, `printf` and \
                     `process.stdout.write` write only what they are given)",
                    clip(&start)
                )
            } else {
                format!(
                    "; it had written `{}` and no newline after it yet",
                    clip(&start)
                )
            };
        }
        let Some(Waiter { how, program }) = waiter else {
            return String::new();
        };
        let waiting = match how {
            Waiting::Read => "it was waiting to read its stdin",
            Waiting::EventLoop => {
                "it was waiting in its event loop for its stdin, with no timer pending"
            }
        };
        let Some(flush) = flush_advice(&program, &self.command) else {
            // Nothing it printed is in a buffer (Node, `python3 -u`).
            return if self.spoken {
                format!(
                    "; {waiting}, as if it had answered: it wrote no {waiting_for} (a request \
                     its code passes over, or an error caught and passed over)"
                )
            } else {
                format!(
                    "; {waiting}, where the host has written nothing yet: the bot speaks \
                     first ({waiting_for})"
                )
            };
        };
        let flush =
            format!("stdout is a pipe, not a terminal: flush after each line, such as {flush}");
        match (how, self.spoken) {
            (Waiting::Read, true) => format!(
                "; {waiting}, as if it had answered: a line it printed but did not flush stays \
                 in its buffer ({flush}), or it wrote none (a request its code passes over?)"
            ),
            (Waiting::EventLoop, true) => format!(
                "; {waiting}, as if it had answered: it wrote no \
                 {waiting_for} (a request its code passes over, or an error caught and passed \
                 over), or one it printed is still in its buffer ({flush})"
            ),
            (_, false) => format!(
                "; {waiting}, where the host has written nothing yet: the bot speaks first \
                 ({waiting_for}), or it printed that and did not flush it, and it stays in its \
                 buffer ({flush})"
            ),
        }
    }

    fn fault(&mut self, output: Output) -> Fault {
        match output {
            Output::Line(line) => Fault::new(
                DqReason::ProtocolError,
                format!("sent `{}` unasked{OWN_PRINT}", clip(&line)),
            ),
            Output::TooLong { start } => Fault::new(
                DqReason::ProtocolError,
                format!(
                    "sent a line longer than the cap, starting `{}`",
                    clip(&start)
                ),
            ),
            Output::TooMuch { bytes } => Fault::new(
                DqReason::ProtocolError,
                format!("flooded its output ({bytes} bytes, over the cap)"),
            ),
            Output::Closed => self.end_fault(None),
            Output::Failed(e) => Fault::new(DqReason::Crash, format!("unreadable output: {e}")),
        }
    }

    /// The crash of a bot whose output ended (it exited, or closed its
    /// stdout), with its status and, when the host was waiting for a line,
    /// what the line was (`waiting_for`). A status of 0 is a program that
    /// ran to its end, most often a loop that stopped reading too soon.
    fn end_fault(&mut self, waiting_for: Option<&str>) -> Fault {
        // A bot's output ends as it exits, all but always: the status is
        // awaited for longer than a moment, so that a loaded machine still
        // reports it (the rare bot that closes its stdout and runs on costs
        // the wait once, as it is disqualified).
        let status = self.wait_exit(END_WAIT);
        let what = if status.is_some() {
            "exited"
        } else {
            "closed its output"
        };
        let before = waiting_for.map_or(String::new(), |line| format!(" before its {line}"));
        let normal = if status.and_then(|s| s.code()) == Some(0) {
            "; status 0 is a normal end, so its program ran to its end: a bot reads the \
             host's lines until its stdin ends, which is the end of the game"
        } else {
            ""
        };
        Fault::new(
            DqReason::Crash,
            format!(
                "{what}{}{before}{normal}{}",
                describe(status),
                self.sandbox_hint()
            ),
        )
    }

    /// What the sandbox had to do with the end of a sandboxed bot that
    /// exited, when its stderr's end tells of a wall a bot meets in it and
    /// not outside it (a read-only folder, no network), as a bot that ran
    /// at the author's terminal does; otherwise nothing.
    fn sandbox_hint(&self) -> &'static str {
        if self.sandbox.is_none() || self.exited.is_none() {
            return "";
        }
        // The bot has exited: its stderr ends in a moment (a child of its own
        // may hold it open, hence the bound). A Java stack trace puts the
        // error above its `at` lines, hence more than the last line.
        let text = self.stderr.text_after_end(super::STDERR_SETTLE);
        let end = text
            .char_indices()
            .nth_back(2000)
            .map_or(text.as_str(), |(i, _)| &text[i..])
            .to_ascii_lowercase();
        let said = |marks: &[&str]| marks.iter().any(|m| end.contains(m));
        if said(&["read-only file system", "erofs"]) {
            "; its stderr tells of a read-only file system: in the sandbox every folder is \
             read-only, its own included, but its scratch folder `/tmp` (its working folder, \
             `HOME` and `TMPDIR`), which is emptied after each game"
        } else if said(&[
            "temporary failure in name resolution",
            "name or service not known",
            "eai_again",
            "unknownhostexception",
            "address family not supported",
            "network is unreachable",
        ]) {
            "; its stderr tells of a failed network lookup or connection: in the sandbox a bot \
             has no network, so what it needs must be in its folder (a tournament's `build` \
             step may download, from the hosts its `network:` lists)"
        } else {
            ""
        }
    }

    /// The exit status, if the bot exits within a moment.
    fn wait_briefly(&mut self) -> Option<ExitStatus> {
        self.wait_exit(Duration::from_millis(50))
    }

    /// The exit status if the bot has exited (reaping it), without waiting.
    fn poll_exit(&mut self) -> Option<ExitStatus> {
        if self.exited.is_none()
            && let Ok(Some(status)) = self.child.try_wait()
        {
            self.exited = Some(status);
        }
        self.exited
    }

    /// Whether one of the bot's processes is waiting to read the file
    /// `file` names (a `/proc/PID/fd` link's target: `pipe:[INODE]`,
    /// `socket:[INODE]`), blocked in a read or in an event loop, as
    /// `/proc/PID/task/TID/syscall` shows it, while no thread of it runs,
    /// how and in which program; never once it was killed.
    pub fn blocked_reading(&self, file: &std::path::Path) -> Option<Waiter> {
        if self.killed || self.exited.is_some() {
            return None;
        }
        blocked_reading(self.child.id(), file)
    }

    /// The bot's end of `stream`, a loopback TCP connection the host
    /// accepted from it, named as its `/proc/PID/fd` link names it
    /// (`socket:[INODE]`): the row of the TCP tables of the bot's network
    /// namespace (`/proc/PID/net/tcp`, and `tcp6`, where a Java bot's
    /// dual-stack socket is) whose local address is the stream's peer and
    /// whose remote address is the stream's own. (One row of two tables:
    /// the `procfs` crate would bring its whole model of `/proc`.)
    pub fn socket_end(&self, stream: &std::net::TcpStream) -> Option<std::path::PathBuf> {
        let (ours, theirs) = (stream.local_addr().ok()?, stream.peer_addr().ok()?);
        ["tcp", "tcp6"].iter().find_map(|table| {
            let table =
                std::fs::read_to_string(format!("/proc/{}/net/{table}", self.child.id())).ok()?;
            table.lines().skip(1).find_map(|row| {
                // `sl local_address rem_address st ... uid timeout inode ...`
                let words: Vec<&str> = row.split_whitespace().collect();
                (words.len() > 9
                    && tcp_address(words[1]) == Some(theirs)
                    && tcp_address(words[2]) == Some(ours))
                .then(|| format!("socket:[{}]", words[9]).into())
            })
        })
    }

    /// A crash fault if the bot has exited (reaping it).
    pub fn exit_fault(&mut self) -> Option<Fault> {
        let status = self.poll_exit()?;
        Some(Fault::new(
            DqReason::Crash,
            format!("exited{}{}", describe(Some(status)), self.sandbox_hint()),
        ))
    }

    /// A sandboxed Speed Clue bot's listener, made in its own network
    /// namespace (`SandboxPolicy::tcp_port`), waiting at most `within` for
    /// it; `None` for an unsandboxed bot or one with no TCP port.
    pub fn tcp_listener(
        &mut self,
        within: Duration,
    ) -> Option<std::io::Result<std::net::TcpListener>> {
        self.sandbox.as_mut()?.take_listener(within)
    }

    /// Waits up to `within` for `ready` to be readable (a listener with a
    /// connection to accept) or for the bot to exit, whichever comes first.
    pub fn wait_readable(&mut self, ready: std::os::fd::BorrowedFd<'_>, within: Duration) {
        if self.poll_exit().is_none() && sys::wait_readable(ready, &self.child, within).is_err() {
            // No pidfd (a kernel before 5.3): a short nap instead.
            std::thread::sleep(within.min(Duration::from_millis(10)));
        }
    }

    /// Waits up to `within` for the process to exit; `None` if it is still
    /// running then.
    pub fn wait_exit(&mut self, within: Duration) -> Option<ExitStatus> {
        if self.exited.is_none()
            && let Ok(status) = sys::wait_timeout(&mut self.child, within)
        {
            self.exited = status;
        }
        self.exited
    }

    /// Kills the whole process group and reaps the bot.
    pub fn kill(&mut self) {
        self.stdin = None;
        if self.killed {
            return;
        }
        self.killed = true;
        sys::kill_group(self.child.id());
        if self.sandbox.is_none() {
            // Released once killed and before it is reaped: the warden
            // reads every order before the end of its pipe, so it never
            // kills a group whose id may since be another's.
            sys::release(self.child.id());
        }
        if let Some(sandbox) = &self.sandbox {
            sandbox.kill_all();
        }
        if self.exited.is_none() {
            let _ = self.child.kill();
            if let Ok(status) = self.child.wait() {
                self.exited = Some(status);
            }
        }
    }
}

impl Drop for BotProcess {
    /// End of the game: end of input first, a moment to exit cleanly, then
    /// the whole group is killed (children of the bot included) and reaped.
    fn drop(&mut self) {
        self.stdin = None;
        self.wait_exit(Duration::from_millis(100));
        self.kill();
    }
}

/// A process of a bot found waiting to read a file: how it waits, and the
/// name of its program (`/proc/PID/comm`: `python3`, `java`, `node`, a
/// compiled bot's file name), whose way to flush a hint can name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waiter {
    /// In a read or in an event loop.
    pub how: Waiting,
    /// The waiting process's name, at most 15 bytes (the kernel's cut).
    pub program: String,
}

/// How a bot's thread waits for a file (as `/proc/PID/task/TID/syscall`
/// and `fdinfo` show it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// Blocked reading it (`read`, `readv`, `recvfrom`, `recvmsg`).
    Read,
    /// In an event loop with no timer pending that waits to read it: an
    /// epoll set (Node, Python's `asyncio`, Java's NIO), or a `poll` or
    /// `select` (C's, Python's `select` module, Perl's `select`).
    EventLoop,
}

/// Whether `root` or one of its descendants (at most a few hundred: a
/// sandboxed bot is the grandchild of the process the host started) has a
/// thread waiting to read a descriptor that is `file` (a `/proc/PID/fd`
/// link's target: `pipe:[INODE]`, `socket:[INODE]`), how, and in which
/// program. Read from `/proc`, which lets the host see its own
/// descendants: a `poll`'s or `select`'s descriptors from the bot's memory
/// (`/proc/PID/mem`, which the host may read when it may read `syscall`).
/// A thread waiting with a time limit is not seen (a timer of its own may
/// be what it waits for); nor any, when another thread of them runs or is
/// ready to (state `R`) each of three looks 20 ms apart: a bot whose reader
/// thread waits for the next line while its main thread computes is busy,
/// not waiting for the host. (Three looks: a JVM's compiler or collector
/// thread may run for a moment in a bot that waits.)
fn blocked_reading(root: u32, file: &std::path::Path) -> Option<Waiter> {
    for look in 0..3 {
        if look > 0 {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let (waiter, running) = look_for_reader(root, file);
        if !running || waiter.is_none() {
            return waiter;
        }
    }
    None
}

/// One look of [`blocked_reading`]: the thread waiting to read `file`, if
/// one does, and whether a thread of them runs or is ready to.
fn look_for_reader(root: u32, file: &std::path::Path) -> (Option<Waiter>, bool) {
    let mut queue = vec![root];
    let mut seen = 0;
    let mut found = None;
    let mut running = false;
    while let Some(pid) = queue.pop() {
        seen += 1;
        if seen > 256 {
            return (None, running);
        }
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        let is_file =
            |fd: u64| std::fs::read_link(format!("/proc/{pid}/fd/{fd}")).is_ok_and(|l| l == file);
        for task in tasks.flatten() {
            let path = task.path();
            running |= std::fs::read_to_string(path.join("stat")).is_ok_and(|stat| runs(&stat));
            let call = std::fs::read_to_string(path.join("syscall")).unwrap_or_default();
            let how = waiting_call(&call).and_then(|wait| match wait {
                Wait::Read { fd } => is_file(fd).then_some(Waiting::Read),
                Wait::Epoll { set } => std::fs::read_to_string(format!("/proc/{pid}/fdinfo/{set}"))
                    .is_ok_and(|info| epoll_readers(&info).any(is_file))
                    .then_some(Waiting::EventLoop),
                Wait::Poll { fds, count } => memory(pid, fds, count.min(4096) * 8)
                    .is_some_and(|fds| poll_readers(&fds).any(is_file))
                    .then_some(Waiting::EventLoop),
                Wait::Select { count, read } => {
                    // Whole 64-bit words of the set, as C's `fd_set` holds them.
                    let count = count.min(1 << 16);
                    memory(pid, read, count.div_ceil(64) * 8)
                        .is_some_and(|set| select_readers(&set, count).any(is_file))
                        .then_some(Waiting::EventLoop)
                }
            });
            if let Some(how) = how
                && found.is_none()
            {
                let program = std::fs::read_to_string(format!("/proc/{pid}/comm"))
                    .unwrap_or_default()
                    .trim_end()
                    .to_string();
                found = Some(Waiter { how, program });
            }
            if let Ok(children) = std::fs::read_to_string(path.join("children")) {
                queue.extend(
                    children
                        .split_whitespace()
                        .filter_map(|c| c.parse::<u32>().ok()),
                );
            }
        }
    }
    (found, running)
}

/// Whether a thread whose `/proc/PID/task/TID/stat` line is `stat` runs or
/// is ready to (state `R`, the word after its name in parentheses, which
/// may hold spaces and parentheses of its own).
fn runs(stat: &str) -> bool {
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().next())
        == Some("R")
}

/// What a thread waits for, from its `/proc/PID/task/TID/syscall` line
/// (the call's number, then its six arguments and two pointers in
/// hexadecimal, or `running`): a file it reads, or files it waits on with
/// no time limit; `None` when it does neither.
fn waiting_call(call: &str) -> Option<Wait> {
    let mut words = call.split_whitespace();
    let number: i64 = words.next()?.parse().ok()?;
    let args: Vec<u64> = words
        .take(6)
        .map_while(|word| u64::from_str_radix(word.strip_prefix("0x")?, 16).ok())
        .collect();
    sys::wait_of(number, &args)
}

/// `len` bytes at `address` in the memory of process `pid`, or `None` when
/// they cannot be read (the process ended, or the address is not mapped).
fn memory(pid: u32, address: u64, len: u64) -> Option<Vec<u8>> {
    use std::os::unix::fs::FileExt;
    let mut bytes = vec![0; usize::try_from(len).ok()?];
    let mem = std::fs::File::open(format!("/proc/{pid}/mem")).ok()?;
    mem.read_exact_at(&mut bytes, address).ok()?;
    Some(bytes)
}

/// The descriptors a `poll` waits to read, from its `struct pollfd`s
/// (`int fd; short events; short revents;`, eight bytes in 32-bit and
/// 64-bit programs alike, in the machine's byte order): those whose events
/// ask for input (`POLLIN`, `POLLRDNORM`); a negative one is skipped.
fn poll_readers(fds: &[u8]) -> impl Iterator<Item = u64> + '_ {
    fds.chunks_exact(8).filter_map(|pollfd| {
        let fd = i32::from_ne_bytes([pollfd[0], pollfd[1], pollfd[2], pollfd[3]]);
        let events = i16::from_ne_bytes([pollfd[4], pollfd[5]]);
        let input = libc::POLLIN | libc::POLLRDNORM;
        (events & input != 0).then(|| u64::try_from(fd).ok())?
    })
}

/// The descriptors below `count` that a `select` waits to read, from its
/// `fd_set`: a bit each, bit `fd % 64` of 64-bit word `fd / 64` in the
/// machine's byte order (a 64-bit program's `long`s; a 32-bit program's are
/// laid out the same on a little-endian machine).
fn select_readers(set: &[u8], count: u64) -> impl Iterator<Item = u64> + '_ {
    let words: Vec<u64> = set
        .chunks_exact(8)
        .map(|word| u64::from_ne_bytes(word.try_into().expect("eight bytes")))
        .collect();
    (0..count).filter(move |&fd| {
        words
            .get(fd as usize / 64)
            .is_some_and(|word| (word >> (fd % 64)) & 1 == 1)
    })
}

/// The descriptors an epoll set waits to read, from its `/proc/PID/fdinfo`
/// text: one `tfd: FD events: MASK ...` line each, the mask in hexadecimal,
/// read from when it holds `EPOLLIN`.
fn epoll_readers(info: &str) -> impl Iterator<Item = u64> + '_ {
    info.lines().filter_map(|line| {
        let mut words = line.split_whitespace();
        let fd = (words.next()? == "tfd:")
            .then(|| words.next())??
            .parse()
            .ok()?;
        let mask = (words.next()? == "events:").then(|| words.next())??;
        let mask = u32::from_str_radix(mask, 16).ok()?;
        (mask & libc::EPOLLIN as u32 != 0).then_some(fd)
    })
}

/// An address as `/proc/net/tcp` and `tcp6` write it: `0100007F:1F90` for
/// 127.0.0.1:8080 (the address as the kernel holds it, in network byte
/// order, printed as native-endian 32-bit numbers, one for IPv4, four for
/// IPv6; the port in hexadecimal). An IPv4 address mapped into IPv6
/// (`::ffff:127.0.0.1`, a dual-stack socket's) is given as IPv4.
fn tcp_address(text: &str) -> Option<std::net::SocketAddr> {
    use std::net::{IpAddr, Ipv6Addr};
    let (ip, port) = text.split_once(':')?;
    let port = u16::from_str_radix(port, 16).ok()?;
    let word = |i: usize| {
        ip.get(i * 8..i * 8 + 8)
            .and_then(|w| u32::from_str_radix(w, 16).ok())
            .map(u32::to_ne_bytes)
    };
    let ip = match ip.len() {
        8 => IpAddr::from(word(0)?),
        32 => {
            let mut bytes = [0u8; 16];
            for i in 0..4 {
                bytes[i * 4..i * 4 + 4].copy_from_slice(&word(i)?);
            }
            let v6 = Ipv6Addr::from(bytes);
            v6.to_ipv4_mapped().map_or(IpAddr::V6(v6), IpAddr::V4)
        }
        _ => return None,
    };
    Some(std::net::SocketAddr::new(ip, port))
}

/// How a program named `program` (as `/proc/PID/comm` names it) flushes
/// its stdout: one language's way when the name tells the language, the
/// usual ways of several when it does not (a compiled bot, a shell), and
/// `None` when nothing it printed can be in a buffer of its own: Node,
/// which writes a pipe at once (on Linux, `process.stdout` to a pipe is
/// synchronous), and Python run with `-u` (a word of `command`).
fn flush_advice(program: &str, command: &str) -> Option<&'static str> {
    const PYTHON: &str = "Python's `print(..., flush=True)` or `python3 -u`";
    if program.starts_with("python") || program.starts_with("pypy") {
        let unbuffered = command.split_whitespace().any(|word| word == "-u");
        return (!unbuffered).then_some(PYTHON);
    }
    match program {
        "node" => None,
        "java" => Some(
            "Java's `System.out.flush()`, or a `PrintWriter` made with auto-flush on and \
             written with `println`",
        ),
        "perl" => Some("Perl's `$| = 1;` before the first `print`"),
        _ => Some(
            "Python's `print(..., flush=True)` or `python3 -u`, C's `fflush(stdout)`, C++'s \
             `std::flush`, Perl's `$| = 1;`, Java's `System.out.flush()`",
        ),
    }
}

/// How long a bot whose output ended is given to exit, for its status.
const END_WAIT: Duration = Duration::from_secs(2);

/// ` with status 3`, `, killed by signal 11 (SIGSEGV)`, or nothing.
fn describe(status: Option<ExitStatus>) -> String {
    match status {
        Some(s) => match (s.code(), s.signal()) {
            (Some(code), _) => format!(" with status {code}"),
            (None, Some(signal)) => format!(", killed by signal {signal}{}", signal_name(signal)),
            _ => String::new(),
        },
        None => String::new(),
    }
}

/// The name of a signal that ends a program, in brackets, and for
/// `SIGSYS` its one cause under the sandbox. (`libc` has the numbers but no
/// names; glibc's `sigabbrev_np` is too new to rely on.)
fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGSYS => {
            "SIGSYS; under the sandbox: a system call of another architecture, as a \
             32-bit program makes, which its seccomp filter kills"
        }
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        _ => return String::new(),
    };
    format!(" ({name})")
}

/// What a fault quoting a line on a bot's stdout adds when the line is most
/// likely the bot's own debugging print (it belongs on stderr, which the
/// game record keeps).
pub const OWN_PRINT: &str =
    "; stdout carries the protocol's lines alone: write the bot's own messages to stderr";

/// [`OWN_PRINT`] for a line whose first word is none of a text protocol's
/// `keywords` (in any case), else nothing.
pub fn own_print(line: &str, keywords: &[&str]) -> &'static str {
    let first = line.split_whitespace().next().unwrap_or("");
    if keywords.iter().any(|k| first.eq_ignore_ascii_case(k)) {
        ""
    } else {
        OWN_PRINT
    }
}

/// At most 200 characters of what a bot sent, for messages.
pub fn clip(text: &str) -> String {
    match text.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &text[..i]),
        None => text.to_string(),
    }
}

/// `word` of a sandboxed bot's command line given whole where it names
/// something from the host's folder, since the bot starts in its scratch
/// folder: an argument that names a file or folder (`bot.py`,
/// `plugins/x/bot.py`, `.`), and each piece of a `--flag=value` or `a:b`
/// argument that does, as the sandbox binds them (`sandbox::own_folders`).
/// The program (`program`) only when it is a path: a bare name is found
/// through `PATH`, as a shell finds it.
fn anchored(word: &str, program: bool) -> String {
    anchor_word(word, program, &whole)
}

/// `word` of a command line with the relative paths in it replaced by what
/// `find` makes of them (the whole path of a piece that names something,
/// `None` to leave it): the word itself, else each piece of a
/// `--flag=value` or `a:b` (class path) word. The program (`program`) is
/// looked at only when written as a path: a bare name is found through
/// `PATH`. The one rule for where a command line's paths point, for the
/// process runtime (the host's folder) and a tournament file (also beside
/// the file).
pub fn anchor_word(word: &str, program: bool, find: &dyn Fn(&str) -> Option<String>) -> String {
    if (!program || word.contains('/'))
        && let Some(whole) = find(word)
    {
        return whole;
    }
    if program {
        return word.to_string();
    }
    let (flag, value) = match word.split_once('=') {
        Some((flag, value)) => (Some(flag), value),
        None => (None, word),
    };
    if flag.is_none() && !value.contains(':') {
        return word.to_string();
    }
    let value = value
        .split(':')
        .map(|piece| find(piece).unwrap_or_else(|| piece.to_string()))
        .collect::<Vec<_>>()
        .join(":");
    match flag {
        Some(flag) => format!("{flag}={value}"),
        None => value,
    }
}

/// A relative path that names something from the host's folder, made
/// absolute.
fn whole(piece: &str) -> Option<String> {
    let path = std::path::Path::new(piece);
    if piece.is_empty() || !path.is_relative() || !path.exists() {
        return None;
    }
    std::path::absolute(path)
        .ok()
        .map(|whole| whole.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::{
        OWN_PRINT, Wait, Waiter, Waiting, anchored, blocked_reading, epoll_readers, own_print,
        poll_readers, runs, select_readers, tcp_address, waiting_call,
    };

    #[test]
    fn a_line_led_by_no_keyword_is_taken_for_the_bots_own_print() {
        let keywords = ["Move", "Guess", "Accusation"];
        for meant in ["Move 3 4", "move 3", "GUESS 1 2 3", "Accusation x y z"] {
            assert_eq!(own_print(meant, &keywords), "", "{meant}");
        }
        for print in ["got Move 6 4", "Moving to 3 4", "", "3 4"] {
            assert_eq!(own_print(print, &keywords), OWN_PRINT, "{print}");
        }
    }

    #[test]
    fn a_tcp_table_address_is_read_as_the_kernel_writes_it() {
        // The loopback address on this (little-endian) machine, as
        // `/proc/net/tcp` prints it.
        let loopback = if cfg!(target_endian = "little") {
            "0100007F"
        } else {
            "7F000001"
        };
        assert_eq!(
            tcp_address(&format!("{loopback}:1F90")),
            Some("127.0.0.1:8080".parse().unwrap())
        );
        // `tcp6`: `::ffff:127.0.0.1` (a dual-stack socket's) is IPv4; `::1` is not.
        let (mapped, one) = if cfg!(target_endian = "little") {
            (
                "0000000000000000FFFF00000100007F",
                "00000000000000000000000001000000",
            )
        } else {
            (
                "00000000000000000000FFFF7F000001",
                "00000000000000000000000000000001",
            )
        };
        assert_eq!(
            tcp_address(&format!("{mapped}:1F90")),
            Some("127.0.0.1:8080".parse().unwrap())
        );
        assert_eq!(
            tcp_address(&format!("{one}:0016")),
            Some("[::1]:22".parse().unwrap())
        );
        assert_eq!(tcp_address("0100007F"), None);
        assert_eq!(tcp_address("0100007F0:1F90"), None);
        assert_eq!(tcp_address("0100007F:port"), None);
        assert_eq!(tcp_address("not-hex:1F90"), None);
    }

    #[test]
    fn a_reading_call_gives_its_descriptor() {
        // `/proc/PID/syscall`: number, arguments, stack and instruction pointers.
        let call = |number: i64, fd: &str| {
            format!("{number} {fd} 0x7ffd1000 0x200 0x0 0x0 0x0 0x7ffd0f00 0x7f0012")
        };
        let read = |fd| Some(Wait::Read { fd });
        assert_eq!(waiting_call(&call(libc::SYS_read, "0x0")), read(0));
        assert_eq!(waiting_call(&call(libc::SYS_recvfrom, "0x1a")), read(26));
        assert_eq!(waiting_call(&call(libc::SYS_recvmsg, "0x3")), read(3));
        // Writing, waiting on many descriptors for no longer than 0 ms,
        // sleeping, or running.
        assert_eq!(waiting_call(&call(libc::SYS_write, "0x1")), None);
        assert_eq!(waiting_call(&call(libc::SYS_poll, "0x7ffd1000")), None);
        assert_eq!(waiting_call(&call(libc::SYS_nanosleep, "0x7ffd1000")), None);
        assert_eq!(waiting_call("running"), None);
        assert_eq!(waiting_call("-1 0x7ffd0f00 0x7f0012"), None);
    }

    #[test]
    fn an_event_loop_waiting_with_no_time_limit_gives_its_epoll_set() {
        // As Node 18 waits: `epoll_pwait(14, events, 1024, -1, sigmask, 8)`.
        let pwait = |timeout: &str| {
            format!(
                "{} 0xe 0x7fff853d4f40 0x400 {timeout} 0x0 0x8 0x7fff853d41e0 0x7f5913e46cae",
                libc::SYS_epoll_pwait
            )
        };
        let endless = Some(Wait::Epoll { set: 14 });
        assert_eq!(waiting_call(&pwait("0xffffffff")), endless);
        assert_eq!(waiting_call(&pwait("0xffffffffffffffff")), endless);
        // A timer pending: it may be what the loop waits for.
        assert_eq!(waiting_call(&pwait("0x3e8")), None);
        assert_eq!(waiting_call(&pwait("0x0")), None);
        // `epoll_pwait2` takes a pointer to its timeout: none is endless.
        let pwait2 = |timeout: &str| {
            format!(
                "{} 0x5 0x7ffd1000 0x40 {timeout} 0x0 0x8 0x7ffd0f00 0x7f0012",
                libc::SYS_epoll_pwait2
            )
        };
        assert_eq!(waiting_call(&pwait2("0x0")), Some(Wait::Epoll { set: 5 }));
        assert_eq!(waiting_call(&pwait2("0x7ffd2000")), None);
        // A line cut short names no timeout.
        assert_eq!(
            waiting_call(&format!("{} 0xe", libc::SYS_epoll_pwait)),
            None
        );
    }

    #[test]
    fn a_poll_or_select_with_no_time_limit_gives_where_its_descriptors_are() {
        // As Python's `select.poll().poll()` waits on one descriptor:
        // `poll(fds, 1, -1)`.
        let poll = |timeout: &str| {
            format!(
                "{} 0x7f67e026c150 0x1 {timeout} 0x1 0x0 0x0 0x7fff77ee2d28 0x7f67e051a230",
                libc::SYS_poll
            )
        };
        let fds = Some(Wait::Poll {
            fds: 0x7f67e026c150,
            count: 1,
        });
        assert_eq!(waiting_call(&poll("0xffffffff")), fds);
        assert_eq!(waiting_call(&poll("0x3e8")), None);
        assert_eq!(waiting_call(&poll("0x0")), None);
        // `ppoll` and `pselect6` take a pointer to their timeout: none is
        // endless. As glibc's `select(1, &read, NULL, NULL, NULL)` waits.
        let ppoll = |timeout: &str| format!("{} 0x7ffd1000 0x3 {timeout} 0x0 0x8", libc::SYS_ppoll);
        assert_eq!(
            waiting_call(&ppoll("0x0")),
            Some(Wait::Poll {
                fds: 0x7ffd1000,
                count: 3
            })
        );
        assert_eq!(waiting_call(&ppoll("0x7ffd2000")), None);
        let pselect = |timeout: &str| {
            format!(
                "{} 0x1 0x7fff441da540 0x0 0x0 {timeout} 0x0 0x7fff441da460 0x7f99fcb1c954",
                libc::SYS_pselect6
            )
        };
        assert_eq!(
            waiting_call(&pselect("0x0")),
            Some(Wait::Select {
                count: 1,
                read: 0x7fff441da540
            })
        );
        assert_eq!(waiting_call(&pselect("0x7fff441da500")), None);
        // A line cut short names no timeout.
        assert_eq!(
            waiting_call(&format!("{} 0x1 0x7ffd1000", libc::SYS_pselect6)),
            None
        );
    }

    #[test]
    fn a_thread_runs_when_its_state_is_r() {
        assert!(runs("4242 (python3) R 4241 4242 4242 0 -1 4194304"));
        assert!(!runs("4242 (python3) S 4241 4242 4242 0 -1 4194304"));
        // A name may hold spaces and parentheses.
        assert!(runs("77 (a) S (b)) R 1 77"));
        assert!(!runs("77 (R) S 1 77"));
        assert!(!runs(""));
    }

    #[test]
    fn a_polls_and_a_selects_readers_are_read_from_their_bytes() {
        let pollfd = |fd: i32, events: i16| {
            let mut bytes = fd.to_ne_bytes().to_vec();
            bytes.extend(events.to_ne_bytes());
            bytes.extend(0i16.to_ne_bytes());
            bytes
        };
        let fds = [
            pollfd(0, libc::POLLIN),
            pollfd(5, libc::POLLOUT),
            pollfd(-1, libc::POLLIN),
            pollfd(7, libc::POLLRDNORM | libc::POLLOUT),
        ]
        .concat();
        assert_eq!(poll_readers(&fds).collect::<Vec<_>>(), [0, 7]);
        // A piece of a `pollfd` is not one.
        assert_eq!(poll_readers(&fds[..7]).count(), 0);
        // Descriptors 0, 3 and 70 in a set of two words.
        let set = [(1u64 << 3) | 1, 1 << 6]
            .iter()
            .flat_map(|word| word.to_ne_bytes())
            .collect::<Vec<_>>();
        assert_eq!(select_readers(&set, 128).collect::<Vec<_>>(), [0, 3, 70]);
        // Only those below the count the call was given.
        assert_eq!(select_readers(&set, 70).collect::<Vec<_>>(), [0, 3]);
        assert_eq!(select_readers(&set[..8], 128).collect::<Vec<_>>(), [0, 3]);
    }

    /// A Python program running `script` with its stdin a pipe of ours, the
    /// pipe's name (`pipe:[INODE]`), once its one thread is in the system
    /// call numbered `call`.
    fn python_in(script: &str, call: i64) -> (std::process::Child, std::path::PathBuf) {
        use std::os::fd::AsRawFd;
        let child = std::process::Command::new("python3")
            .args(["-c", script])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .expect("these tests run python3: install it (apt-get install python3)");
        let stdin = child.stdin.as_ref().expect("piped").as_raw_fd();
        let pipe = std::fs::read_link(format!("/proc/self/fd/{stdin}")).unwrap();
        let syscall = format!("/proc/{}/syscall", child.id());
        let started = std::time::Instant::now();
        while !std::fs::read_to_string(&syscall)
            .unwrap_or_default()
            .starts_with(&format!("{call} "))
        {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(30),
                "python3 never reached system call {call}: {:?}",
                std::fs::read_to_string(&syscall)
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        (child, pipe)
    }

    #[test]
    fn a_program_polling_or_selecting_its_stdin_with_no_time_limit_is_seen_waiting() {
        let waiting = Some(Waiter {
            how: Waiting::EventLoop,
            program: "python3".into(),
        });
        let cases = [
            // glibc's `select` is `pselect6`.
            (
                "import select, sys\nselect.select([sys.stdin], [], [])",
                libc::SYS_pselect6,
                true,
            ),
            (
                "import select\np = select.poll()\np.register(0, select.POLLIN)\np.poll()",
                libc::SYS_poll,
                true,
            ),
            // A time limit: it may wait for that.
            (
                "import select, sys\nselect.select([sys.stdin], [], [], 600)",
                libc::SYS_pselect6,
                false,
            ),
            (
                "import select\np = select.poll()\np.register(0, select.POLLIN)\np.poll(600000)",
                libc::SYS_poll,
                false,
            ),
            // Waiting for other descriptors than its stdin, or to write it.
            (
                "import os, select\nr, w = os.pipe()\nselect.select([r], [], [])",
                libc::SYS_pselect6,
                false,
            ),
            (
                "import select, sys\nselect.select([], [sys.stdin], [])",
                libc::SYS_pselect6,
                false,
            ),
            (
                "import select\np = select.poll()\np.register(0, select.POLLOUT)\np.poll()",
                libc::SYS_poll,
                false,
            ),
        ];
        for (script, call, seen) in cases {
            let (mut child, pipe) = python_in(script, call);
            let found = blocked_reading(child.id(), &pipe);
            child.kill().unwrap();
            child.wait().unwrap();
            assert_eq!(found, if seen { waiting.clone() } else { None }, "{script}");
        }
    }

    #[test]
    fn an_epoll_sets_readers_are_read_from_its_fdinfo() {
        // Node 18's main loop, reading its stdin (0) and two pipes of its
        // own, and a descriptor watched for writing alone (4).
        let info = "pos:\t0\nflags:\t02000002\nmnt_id:\t17\nino:\t1039\n\
            tfd:       17 events:       19 data:               11  pos:0 ino:40f sdev:10\n\
            tfd:       15 events:       19 data:                f  pos:0 ino:4a0f4 sdev:f\n\
            tfd:        4 events:        4 data:                4  pos:0 ino:4a0f5 sdev:f\n\
            tfd:        0 events:       19 data:                0  pos:0 ino:4a0f1 sdev:f\n";
        assert_eq!(epoll_readers(info).collect::<Vec<_>>(), [17, 15, 0]);
        assert_eq!(epoll_readers("pos:\t0\ntfd: x events: 1\n").count(), 0);
    }

    #[test]
    fn relative_paths_of_a_command_line_are_given_whole() {
        // Unit tests run in the crate's folder.
        let whole = |path: &str| {
            std::path::absolute(path)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        };
        assert_eq!(anchored("src/lib.rs", false), whole("src/lib.rs"));
        assert_eq!(anchored("src/lib.rs", true), whole("src/lib.rs"));
        // A script beside the host's folder, named bare (`python3 bot.py`).
        assert_eq!(anchored("Cargo.toml", false), whole("Cargo.toml"));
        assert_eq!(anchored(".", false), whole("."));
        // A bare program is looked up in `PATH`, never in the host's folder.
        assert_eq!(anchored("Cargo.toml", true), "Cargo.toml");
        assert_eq!(anchored("python3", true), "python3");
        // Pieces of a flag's value and of a class path.
        assert_eq!(
            anchored("--model=src/lib.rs", false),
            format!("--model={}", whole("src/lib.rs"))
        );
        assert_eq!(
            anchored("src:no/such.jar:Cargo.toml", false),
            format!("{}:no/such.jar:{}", whole("src"), whole("Cargo.toml"))
        );
        // Nothing that names nothing here.
        assert_eq!(anchored("--fast", false), "--fast");
        assert_eq!(anchored("no/such/file.py", false), "no/such/file.py");
        assert_eq!(anchored("--level=3", false), "--level=3");
        assert_eq!(anchored("/usr/bin/env", true), "/usr/bin/env");
    }
}

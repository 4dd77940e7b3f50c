//! The sandbox of process bots (`docs/SANDBOX.md`), tried with `sh -c` bots
//! that do what a hostile author would: each line the bot prints says what
//! happened, and the test asserts it was refused, while what an honest bot
//! needs (its scratch folder, system programs, python3) still works.
//!
//! These run for real: the machine must offer Landlock ABI 6 (Linux 6.12 or
//! later) and a network namespace (root, or user namespaces); otherwise the
//! first test fails saying so.

use std::io::Read;
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use clue_runtime::process::{BotProcess, ProcessLimits};
use clue_runtime::sandbox;

/// Runs `script` with `sh -c` in the default sandbox, with `env`, and returns
/// what it printed on its first line, plus the bot's scratch folder.
fn run(script: &str, env: &[(&str, String)]) -> (String, PathBuf) {
    let limits = ProcessLimits {
        env: env
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
        sandbox: sandbox::SandboxPolicy::on(),
        ..ProcessLimits::default()
    };
    let argv = [
        "sh".to_string(),
        "-c".to_string(),
        format!("echo \"$TMPDIR\"; {script}"),
    ];
    let mut bot = match BotProcess::spawn(&argv, &limits) {
        Ok(bot) => bot,
        Err(e) => panic!("cannot start a sandboxed bot: {e}"),
    };
    // Hang guard only (generous): a sandboxed `sh` answers at once.
    let scratch = bot
        .recv(Duration::from_secs(20), "its scratch folder")
        .unwrap_or_else(|f| panic!("no scratch line: {f:?}; stderr {}", bot.stderr().text()));
    let line = bot
        .recv(Duration::from_secs(20), "its verdict")
        .unwrap_or_else(|f| panic!("no verdict: {f:?}; stderr {}", bot.stderr().text()));
    drop(bot);
    (line, PathBuf::from(scratch))
}

#[test]
fn every_layer_is_available_here() {
    let missing: Vec<String> = sandbox::layers()
        .into_iter()
        .filter(|l| !l.available)
        .map(|l| format!("{}: {}", l.name, l.detail))
        .collect();
    assert!(
        missing.is_empty(),
        "sandbox layers missing on this machine (Linux 6.12+ with Landlock, run as root for cgroups): {missing:?}"
    );
}

#[test]
fn the_scratch_folder_is_a_private_tmp_gone_after_the_game() {
    let note = format!("clue-sandbox-note-{}", std::process::id());
    let (line, scratch) = run(
        &format!(
            "echo hi > \"$TMPDIR/{note}\" && cat \"$TMPDIR/{note}\" && [ \"$(pwd)\" = /tmp ] && echo \"$HOME\""
        ),
        &[],
    );
    assert_eq!(line, "hi");
    assert_eq!(scratch, PathBuf::from("/tmp"));
    // The bot's /tmp is a tmpfs of its own mount namespace: nothing reached
    // the host's /tmp, and it vanished with the bot.
    assert!(!std::env::temp_dir().join(&note).exists());
}

#[test]
fn the_scratch_folder_is_size_capped() {
    // The default cap, 64 MiB (a few pages go to the folder itself).
    let mib = written_until_full("$TMPDIR");
    assert!((60..=64).contains(&mib), "{mib} MiB written");
}

/// How many MiB a sandboxed bot writes to a file in `folder` before it is
/// full (it tries 200).
fn written_until_full(folder: &str) -> u64 {
    let (line, _) = run(
        &format!(
            "dd if=/dev/zero of=\"{folder}/fill\" bs=1M count=200 2>/dev/null && echo filled \
             || echo $(($(stat -c %s \"{folder}/fill\") >> 20))"
        ),
        &[],
    );
    line.parse()
        .unwrap_or_else(|_| panic!("{folder} not full: {line}"))
}

#[test]
fn the_bot_is_pid_2_under_its_namespaces_init_and_sees_no_host_process() {
    let (line, _) = run("echo \"$$ $(ls /proc | grep -c '^[0-9]')\"", &[]);
    // The namespace's init (PID 1), sh itself (PID 2), the `ls`, and the
    // command substitution's subshell.
    let (pid, count) = line.split_once(' ').unwrap();
    assert_eq!(pid, "2", "{line}");
    assert!(count.parse::<u32>().unwrap() <= 6, "{line}");
    let env = [("HOST", std::process::id().to_string())];
    let (line, _) = run(
        "cat /proc/\"$HOST\"/environ 2>/dev/null | head -c 1 | wc -c",
        &env,
    );
    assert_eq!(line, "0");
}

#[test]
fn the_bot_runs_as_an_unprivileged_id_with_no_capability() {
    let (line, _) = run(
        "echo \"$(id -u) $(id -g) $(id -G) $(grep CapEff /proc/self/status | tr -d '\\t')\"",
        &[],
    );
    let words: Vec<&str> = line.split(' ').collect();
    let uid: u32 = words[0].parse().unwrap();
    assert!(uid >= sandbox::UID_BASE, "{line}");
    assert_eq!(words[1], words[0], "{line}");
    assert_eq!(words[2], words[0], "no supplementary groups: {line}");
    assert_eq!(words[3], "CapEff:0000000000000000", "{line}");
}

#[test]
fn the_host_checkout_home_and_store_are_not_there() {
    // Paths through the environment: a path written in the command line is
    // the organiser's grant, and is bound (see `sandbox::own_folders`).
    let checkout = env!("CARGO_MANIFEST_DIR");
    let env = [
        ("CHECKOUT", checkout.to_string()),
        ("HOMES", "/root /home /var /srv /mnt /work".to_string()),
    ];
    let (line, _) = run(
        "ls -A \"$CHECKOUT\" $HOMES 2>/dev/null | tr '\\n' ' '",
        &env,
    );
    // All a home shows is the host's version-managed toolchain (this
    // machine's `~/.pyenv`), which every bot sees; nothing else of it.
    let mut expected = String::new();
    for root in ["/root", "/home", "/var", "/srv", "/mnt", "/work"] {
        let toolchains: Vec<String> = toolchain_roots()
            .iter()
            .filter(|t| t.parent() == Some(std::path::Path::new(root)))
            .map(|t| t.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        if !toolchains.is_empty() {
            expected.push_str(&format!("{root}: {} ", toolchains.join(" ")));
        }
    }
    let shown = line.replace("  ", " ");
    assert_eq!(
        shown.trim(),
        expected.trim(),
        "what the bot sees of homes: {line}"
    );
}

/// Where the version managers on this process's `PATH` are (their `shims`
/// folder's parent), as the sandbox finds them.
fn toolchain_roots() -> Vec<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .filter(|e| e.is_absolute() && e.ends_with("shims"))
        .filter_map(|e| Some(std::fs::canonicalize(e).ok()?.parent()?.to_path_buf()))
        .collect()
}

#[test]
fn python_found_through_a_pyenv_shim_runs() {
    // This machine's python3 is a pyenv shim (a bash script in
    // ~/.pyenv/shims that runs ~/.pyenv/libexec/pyenv): its root is bound.
    let (line, _) = run("python3 -c 'print(6 * 7)'", &[]);
    assert_eq!(line, "42");
}

#[test]
fn files_outside_its_folders_are_neither_read_nor_written() {
    let secret_dir = tempfile::tempdir().unwrap();
    let secret = secret_dir.path().join("secret");
    std::fs::write(&secret, "the murderer").unwrap();
    let env = [
        ("SECRET", secret.display().to_string()),
        ("OUTSIDE", secret_dir.path().display().to_string()),
    ];
    let (line, _) = run(
        "cat \"$SECRET\" 2>/dev/null && echo read || echo refused",
        &env,
    );
    assert_eq!(line, "refused");
    let (line, _) = run(
        "(echo x > \"$OUTSIDE/planted\") 2>/dev/null && echo wrote || echo refused",
        &env,
    );
    assert_eq!(line, "refused");
    assert!(!secret_dir.path().join("planted").exists());
    let (line, _) = run(
        "(echo x > /etc/clue-planted) 2>/dev/null && echo wrote || echo refused",
        &[],
    );
    assert_eq!(line, "refused");
}

#[test]
fn other_processes_cannot_be_signalled() {
    let mut victim = Command::new("sleep")
        .arg("60")
        .stdin(Stdio::null())
        .spawn()
        .unwrap();
    let env = [
        ("VICTIM", victim.id().to_string()),
        ("HOST", std::process::id().to_string()),
    ];
    let (line, _) = run(
        "kill -9 \"$VICTIM\" 2>/dev/null && echo killed || echo refused",
        &env,
    );
    assert_eq!(line, "refused");
    assert!(victim.try_wait().unwrap().is_none(), "the victim died");
    victim.kill().unwrap();
    victim.wait().unwrap();
}

#[test]
fn no_network_and_python_still_runs() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let script = format!(
        "/usr/bin/python3 -c 'import socket\ntry:\n socket.create_connection((\"127.0.0.1\", {port}), 2); print(\"connected\")\nexcept OSError: print(\"refused\")'"
    );
    let (line, _) = run(&script, &[]);
    assert_eq!(line, "refused");
    let mut buf = [0u8; 1];
    if let Ok((mut stream, _)) = listener.accept() {
        let _ = stream.read(&mut buf);
        panic!("a sandboxed bot reached the host's port");
    }
}

/// The pids of every process whose environment holds `marker`
/// (`NAME=value`), as the host sees them.
fn carrying(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| {
            std::fs::read(e.path().join("environ"))
                .unwrap_or_default()
                .split(|&b| b == 0)
                .any(|v| v == marker.as_bytes())
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_setsid_double_fork_does_not_outlive_the_game() {
    let marker = format!("CLUE_SANDBOX_TEST={}", std::process::id());
    let (name, value) = marker.split_once('=').unwrap();
    let (line, _) = run(
        "setsid sh -c 'sleep 300' </dev/null >/dev/null 2>&1 & echo started",
        &[(name, value.to_string())],
    );
    assert_eq!(line, "started");
    let survivors = carrying(&marker);
    assert!(survivors.is_empty(), "left running: {survivors:?}");
}

/// Runs `python3 -c program` sandboxed under `policy` and returns its first
/// line.
fn python_line(program: &str, policy: sandbox::SandboxPolicy) -> String {
    let limits = ProcessLimits {
        sandbox: policy,
        ..ProcessLimits::default()
    };
    let argv = ["python3", "-c", program].map(String::from);
    let mut bot = BotProcess::spawn(&argv, &limits)
        .unwrap_or_else(|e| panic!("cannot start a sandboxed bot: {e}"));
    bot.recv(Duration::from_secs(20), "its verdict")
        .unwrap_or_else(|f| panic!("no verdict: {f:?}; stderr {}", bot.stderr().text()))
}

/// Tries each socket of `kinds` (Python expressions of a family and a
/// type) and prints `ok` or the errno of each.
fn socket_probe(kinds: &[&str]) -> String {
    let tries: Vec<String> = kinds.iter().map(|k| format!("try_({k})")).collect();
    format!(
        "import socket\n\
         out = []\n\
         def try_(family, kind):\n \
          try:\n  socket.socket(family, kind).close(); out.append('ok')\n \
          except OSError as e: out.append(str(e.errno))\n\
         {}\n\
         print(' '.join(out))",
        tries.join("\n")
    )
}

#[test]
fn only_unix_sockets_can_be_made_by_a_bot_with_no_network() {
    let probe = socket_probe(&[
        "socket.AF_UNIX, socket.SOCK_STREAM",
        "socket.AF_UNIX, socket.SOCK_DGRAM",
        "socket.AF_INET, socket.SOCK_DGRAM",
        "socket.AF_INET, socket.SOCK_STREAM",
        "socket.AF_INET6, socket.SOCK_DGRAM",
        "socket.AF_NETLINK, socket.SOCK_RAW",
        "socket.AF_PACKET, socket.SOCK_RAW",
    ]);
    let afnosupport = libc_errno("EAFNOSUPPORT");
    assert_eq!(
        python_line(&probe, sandbox::SandboxPolicy::on()),
        format!("ok ok {0} {0} {0} {0} {0}", afnosupport)
    );
}

#[test]
fn a_speed_clue_bot_makes_tcp_sockets_only() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let probe = socket_probe(&[
        "socket.AF_UNIX, socket.SOCK_STREAM",
        "socket.AF_INET, socket.SOCK_STREAM",
        "socket.AF_INET6, socket.SOCK_STREAM",
        "socket.AF_INET, socket.SOCK_STREAM | socket.SOCK_NONBLOCK | socket.SOCK_CLOEXEC",
        "socket.AF_INET, socket.SOCK_DGRAM",
        "socket.AF_INET6, socket.SOCK_DGRAM",
        "socket.AF_INET, socket.SOCK_RAW",
        "socket.AF_NETLINK, socket.SOCK_RAW",
    ]);
    // SCTP over IPv4 (a stream socket Landlock's TCP rules would not see),
    // and the one port, reached.
    let program = format!(
        "{probe}\n\
         try:\n socket.socket(socket.AF_INET, socket.SOCK_STREAM, 132); print('sctp ok')\n\
         except OSError as e: print('sctp', e.errno)\n\
         socket.create_connection(('127.0.0.1', {port}), 5); print('connected')"
    );
    let mut bot = speed_clue_bot(program, port);
    let mut line = || {
        bot.recv(Duration::from_secs(20), "a line")
            .unwrap_or_else(|f| panic!("{f:?}"))
    };
    let (afnosupport, protonosupport) = (libc_errno("EAFNOSUPPORT"), libc_errno("EPROTONOSUPPORT"));
    assert_eq!(
        line(),
        format!("ok ok ok ok {0} {0} {0} {afnosupport}", protonosupport)
    );
    assert_eq!(line(), format!("sctp {protonosupport}"));
    assert_eq!(line(), "connected");
}

/// A Speed Clue bot needs TCP to its host's port, and Landlock's rule is by
/// port alone: in the host's network namespace the bot would reach any
/// address on that port number (another service of the host's, a machine
/// outside). Here a "spy" listens on the same port at 127.0.0.2 (all of
/// 127/8 is the host's loopback): the bot must not reach it, and must still
/// reach the listener the host is given for it.
#[test]
fn a_speed_clue_bot_reaches_its_own_listener_and_nothing_else() {
    let reserved = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = reserved.local_addr().unwrap().port();
    let spy = TcpListener::bind(("127.0.0.2", port))
        .unwrap_or_else(|e| panic!("bind 127.0.0.2:{port} (loopback): {e}"));
    spy.set_nonblocking(true).unwrap();
    let program = format!(
        "import socket\n\
         try:\n socket.create_connection(('127.0.0.2', {port}), 5); print('reached the spy')\n\
         except OSError as e: print('spy', e.errno)\n\
         s = socket.create_connection(('127.0.0.1', {port}), 5)\n\
         s.sendall(b'alive\\n'); print('connected')"
    );
    let mut bot = speed_clue_bot(program, port);
    let listener = match bot.tcp_listener(Duration::from_secs(20)) {
        Some(listener) => listener.expect("the sandbox hands over the bot's listener"),
        None => panic!("a sandboxed Speed Clue bot's listener is made in its sandbox"),
    };
    let (mut stream, _) = listener.accept().expect("the bot connects to its listener");
    let mut line = || {
        bot.recv(Duration::from_secs(20), "a line")
            .unwrap_or_else(|f| panic!("{f:?}; stderr {}", bot.stderr().text()))
    };
    assert_eq!(
        line(),
        "spy 111",
        "ECONNREFUSED: nothing listens there in its namespace"
    );
    assert_eq!(line(), "connected");
    let mut alive = [0u8; 6];
    stream.read_exact(&mut alive).unwrap();
    assert_eq!(&alive, b"alive\n");
    assert!(
        spy.accept().is_err(),
        "the spy on the bot's port at another address was reached"
    );
}

/// A Python program as a sandboxed Speed Clue bot, which may connect to `port`.
fn speed_clue_bot(program: String, port: u16) -> BotProcess {
    let limits = ProcessLimits {
        sandbox: sandbox::SandboxPolicy {
            tcp_port: Some(port),
            ..sandbox::SandboxPolicy::on()
        },
        ..ProcessLimits::default()
    };
    let argv = ["python3".to_string(), "-c".to_string(), program];
    BotProcess::spawn(&argv, &limits).expect("the bot starts")
}

/// An errno's number, by name (Linux, every architecture the host runs on).
fn libc_errno(name: &str) -> i32 {
    match name {
        "EAFNOSUPPORT" => 97,
        "EPROTONOSUPPORT" => 93,
        _ => panic!("unknown errno {name}"),
    }
}

/// This machine's `cgroup2` mount and a folder of it made ready for bots
/// (`clue-arena` at its root), or a failure saying what the test needs.
fn v2_hierarchy() -> (PathBuf, PathBuf) {
    use sandbox::cgroup::{self, Hierarchy};
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").unwrap();
    let (mount, _) = cgroup::parse_v2_location(&mountinfo, "0::/\n").unwrap_or_else(|| {
        panic!("no cgroup2 file system mounted: this test needs one (systemd mounts it)")
    });
    let Hierarchy::V2 { base, .. } = cgroup::v2_delegated(&mount) else {
        panic!("cannot make cgroups in {}: run as root", mount.display())
    };
    (mount, base)
}

/// The cgroup v2 code, run for real on this machine's v2 hierarchy: here it
/// has no `memory` or `pids` controller (both are v1's: a controller is in
/// one hierarchy only), so what this shows is the v2 cgroup made and joined,
/// `cpu.stat` counting background children, and the end killing them all;
/// `memory.max` and `pids.max` are not exercised here (docs/process-sandbox.md).
#[test]
fn a_cgroup_v2_folder_counts_the_cpu_of_every_process_and_ends_them_all() {
    let (_, base) = v2_hierarchy();
    let marker = format!("CLUE_SANDBOX_V2={}", std::process::id());
    let (name, value) = marker.split_once('=').unwrap();
    let limits = ProcessLimits {
        cpu_seconds: Some(1),
        env: vec![(name.to_string(), value.to_string())],
        sandbox: sandbox::SandboxPolicy {
            cgroup_v2: Some(base.clone()),
            ..sandbox::SandboxPolicy::on()
        },
        ..ProcessLimits::default()
    };
    let argv = [
        "sh".to_string(),
        "-c".to_string(),
        "(while :; do :; done) & (while :; do :; done) & echo started; exec sleep 60".to_string(),
    ];
    let mut bot = BotProcess::spawn(&argv, &limits).expect("the bot starts");
    assert_eq!(
        bot.recv(Duration::from_secs(20), "started").unwrap(),
        "started"
    );
    let ours = format!("bot-{}-", std::process::id());
    let folders = || -> Vec<PathBuf> {
        std::fs::read_dir(&base)
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().starts_with(&ours))
            .map(|e| e.path())
            .collect()
    };
    let joined: Vec<String> = folders()
        .iter()
        .map(|f| std::fs::read_to_string(f.join("cgroup.procs")).unwrap())
        .collect();
    assert!(
        joined.iter().any(|procs| procs.lines().count() >= 4),
        "the bot, its init and its two children are in its v2 cgroup: {joined:?}"
    );
    // The two spinning children are not the process the host waits on:
    // only the cgroup's count sees their time.
    let fault = bot
        .recv(Duration::from_secs(30), "nothing")
        .expect_err("the bot never answers");
    assert!(
        fault
            .detail
            .contains("of CPU time with its child processes"),
        "{fault:?}"
    );
    drop(bot);
    assert!(folders().is_empty(), "the bot's v2 cgroup is removed");
    let survivors = carrying(&marker);
    assert!(survivors.is_empty(), "left running: {survivors:?}");
}

/// The namespace's init is a fork of the host: it zeroes its copy of the
/// host's command line and environment before the bot starts, so that
/// nothing of them is in `/proc/<init>/cmdline` or `environ`. Read here
/// from the host, which may read any process's (the bot itself does not
/// even see the init: `hidepid=2`, Landlock and the init's capabilities).
#[test]
fn the_namespaces_init_wipes_its_copy_of_the_hosts_command_line() {
    let ours = std::fs::read("/proc/self/cmdline").unwrap();
    assert!(ours.iter().any(|&b| b != 0), "the host has a command line");
    let limits = ProcessLimits {
        sandbox: sandbox::SandboxPolicy::on(),
        ..ProcessLimits::default()
    };
    let argv = ["sh", "-c", "echo started; exec sleep 60"].map(String::from);
    let mut bot = BotProcess::spawn(&argv, &limits).expect("the bot starts");
    assert_eq!(
        bot.recv(Duration::from_secs(20), "started").unwrap(),
        "started"
    );
    // The process the host started is the tiny init outside; its one child
    // is the namespace's init.
    let outer = bot.id().to_string();
    let init = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .find(|e| {
            std::fs::read_to_string(e.path().join("status"))
                .is_ok_and(|s| s.lines().any(|l| l == format!("PPid:\t{outer}")))
        })
        .expect("the namespace's init is the child of the process the host started")
        .path();
    for file in ["cmdline", "environ"] {
        let bytes = std::fs::read(init.join(file)).unwrap();
        assert!(
            bytes.iter().all(|&b| b == 0),
            "{}/{file} still holds {:?}",
            init.display(),
            String::from_utf8_lossy(&bytes)
        );
    }
}

/// A bot's cgroup left by a host that is gone (killed, or exited with bots
/// seated) is removed by the next host; a live host's stays.
#[test]
fn cgroups_left_by_a_host_that_is_gone_are_swept() {
    use sandbox::cgroup::{V1_ROOT, sweep_stale};
    let dir = std::path::Path::new(V1_ROOT).join("pids/clue-arena");
    assert!(
        dir.is_dir(),
        "{} is missing: this test needs the v1 pids controller writable (root)",
        dir.display()
    );
    // No process has a pid over the kernel's maximum (at most 2^22).
    let gone = dir.join("bot-999999999-0");
    let live = dir.join(format!("bot-{}-999999", std::process::id()));
    let other = dir.join("not-a-bot");
    for d in [&gone, &live, &other] {
        std::fs::create_dir_all(d).unwrap();
    }
    sweep_stale(&dir);
    let (gone_left, live_left, other_left) = (gone.exists(), live.exists(), other.exists());
    for d in [&live, &other] {
        let _ = std::fs::remove_dir(d);
    }
    assert_eq!(
        (gone_left, live_left, other_left),
        (false, true, true),
        "only the dead host's cgroup is removed"
    );
}

/// What a sandboxed `sh` finds of the cgroup file systems: every
/// `cgroup.procs` under `/sys/fs/cgroup` (one per cgroup it can see), then
/// `|`, then the first line of each of `files` (paths inside the bot).
fn cgroups_seen(policy: sandbox::SandboxPolicy, files: &[&str]) -> String {
    let limits = ProcessLimits {
        sandbox: policy,
        ..ProcessLimits::default()
    };
    let reads: String = files
        .iter()
        .map(|f| format!(" $(head -n 1 {f} 2>&1)"))
        .collect();
    let argv = [
        "sh".to_string(),
        "-c".to_string(),
        format!("echo $(find /sys/fs/cgroup -name cgroup.procs 2>/dev/null | sort) \\|{reads}"),
    ];
    let mut bot = BotProcess::spawn(&argv, &limits).expect("the bot starts");
    bot.recv(Duration::from_secs(20), "what it sees")
        .unwrap_or_else(|f| panic!("no line: {f:?}; stderr {}", bot.stderr().text()))
}

/// A bot that could read the cgroup tree would see every other bot's
/// memory and CPU time (`clue-arena/bot-*/memory.usage_in_bytes`), a side
/// channel and a channel between two colluding entrants. It sees its own
/// cgroups only, where a container would (a JVM sizes its heap from them),
/// and its own limits in them.
#[test]
fn a_bot_sees_its_own_cgroups_and_not_the_other_bots() {
    use sandbox::cgroup::Hierarchy;
    let Hierarchy::V1 { controllers } = sandbox::cgroup::hierarchy() else {
        panic!(
            "this test needs writable cgroup v1 controllers (run as root): {}",
            sandbox::cgroup::hierarchy().describe()
        )
    };
    // Another bot, seated while this one looks.
    let limits = ProcessLimits {
        sandbox: sandbox::SandboxPolicy::on(),
        ..ProcessLimits::default()
    };
    let argv = [
        "sh".to_string(),
        "-c".to_string(),
        "echo up; exec sleep 60".to_string(),
    ];
    let mut other = BotProcess::spawn(&argv, &limits).expect("the other bot starts");
    assert_eq!(other.recv(Duration::from_secs(20), "up").unwrap(), "up");

    let seen = cgroups_seen(
        sandbox::SandboxPolicy::on(),
        &[
            "/sys/fs/cgroup/memory/memory.limit_in_bytes",
            "/sys/fs/cgroup/pids/pids.max",
        ],
    );
    let mut expected: Vec<String> = controllers
        .iter()
        .map(|c| format!("/sys/fs/cgroup/{c}/cgroup.procs"))
        .collect();
    expected.sort();
    let default_memory = sandbox::SandboxPolicy::default()
        .memory
        .expect("a default cap");
    let default_processes = ProcessLimits::default().processes.expect("a default cap");
    assert_eq!(
        seen,
        format!(
            "{} | {default_memory} {default_processes}",
            expected.join(" ")
        ),
        "the bot sees one cgroup per controller, its own, with its own caps"
    );
    drop(other);
}

/// The same on a cgroup v2 hierarchy: the bot's one folder where the
/// `cgroup2` file system is mounted, and nothing above or beside it.
#[test]
fn on_cgroup_v2_a_bot_sees_its_own_cgroup_only() {
    let (mount, base) = v2_hierarchy();
    let policy = sandbox::SandboxPolicy {
        cgroup_v2: Some(base),
        ..sandbox::SandboxPolicy::on()
    };
    let stat = mount.join("cpu.stat");
    let seen = cgroups_seen(policy, &[stat.to_str().unwrap()]);
    let expected = format!("{} | usage_usec ", mount.join("cgroup.procs").display());
    assert!(
        seen.starts_with(&expected),
        "the bot sees its own v2 cgroup, and its CPU count, only: {seen:?}, not {expected:?}..."
    );
}

/// The watcher of [`colluding_bots_cannot_signal_through_locks_or_file_watches`]:
/// it watches a file both bots may read (its argument, else Python's
/// `os.py`) with each kind of file watch the kernel offers, prints
/// `watching`, waits for a line, then reports what each watch saw, whether
/// another bot holds a lock on the file, and whether its first page is
/// cached.
const WATCHER: &str = r#"
import ctypes, fcntl, os, signal, struct, sys
path = sys.argv[1] if len(sys.argv) > 1 else os.__file__
libc = ctypes.CDLL(None, use_errno=True)
libc.fanotify_mark.argtypes = [ctypes.c_int, ctypes.c_uint, ctypes.c_uint64, ctypes.c_int, ctypes.c_char_p]
f = open(path, 'rb')
out = []
signals = []
signal.signal(signal.SIGIO, lambda *_: signals.append(1))
def watch(name, init, mark):
    fd = init()
    if fd < 0:
        out.append(f'{name}:refused-{ctypes.get_errno()}')
        return None
    if mark(fd) < 0:
        out.append(f'{name}:mark-refused-{ctypes.get_errno()}')
        return None
    return fd
# IN_ACCESS | IN_OPEN, and the same for fanotify (FAN_REPORT_FID | FAN_NONBLOCK, FAN_MARK_ADD).
ino = watch('inotify', lambda: libc.inotify_init1(os.O_NONBLOCK),
            lambda fd: libc.inotify_add_watch(fd, path.encode(), 0x21))
fan = watch('fanotify', lambda: libc.fanotify_init(0x202, os.O_RDONLY),
            lambda fd: libc.fanotify_mark(fd, 1, 0x21, -100, path.encode()))
folder = os.open(os.path.dirname(path), os.O_RDONLY)
try:
    fcntl.fcntl(folder, fcntl.F_NOTIFY, fcntl.DN_ACCESS | fcntl.DN_MULTISHOT)
    dnotify = True
except OSError as e:
    out.append(f'dnotify:refused-{e.errno}')
    dnotify = False
# mincore of a mapping of the file: whether its first page is cached, for a
# file the bot owns or may write (else every page reads as cached). Read
# before and after the signaller reads it, the page dropped first.
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
page = libc.mmap(None, 4096, 1, 1, f.fileno(), 0)
resident = (ctypes.c_ubyte * 1)()
def in_core():
    if libc.mincore(page, 4096, resident) != 0:
        return f'refused-{ctypes.get_errno()}'
    return str(resident[0] & 1)
os.posix_fadvise(f.fileno(), 0, 0, os.POSIX_FADV_DONTNEED)
core_before = in_core()
print('watching', flush=True)
sys.stdin.readline()
def events(fd):
    try:
        return 'events' if os.read(fd, 65536) else 'quiet'
    except BlockingIOError:
        return 'quiet'
if ino is not None:
    out.append('inotify:' + events(ino))
if fan is not None:
    out.append('fanotify:' + events(fan))
if dnotify:
    out.append('dnotify:' + ('events' if signals else 'quiet'))
try:
    fcntl.fcntl(f.fileno(), fcntl.F_SETLEASE, fcntl.F_RDLCK)
    out.append('lease:taken')
except OSError as e:
    out.append(f'lease:refused-{e.errno}')
try:
    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    out.append('flock:free')
except BlockingIOError:
    out.append('flock:held')
# F_GETLK reports a conflicting lock of either kind, POSIX or open file description.
probe = struct.pack('hhqqi4x', fcntl.F_WRLCK, 0, 0, 0, 0)
kind = struct.unpack('hhqqi4x', fcntl.fcntl(f.fileno(), fcntl.F_GETLK, probe))[0]
out.append('fcntl:' + ('free' if kind == fcntl.F_UNLCK else 'held'))
# The page cache, asked without timing: is the page the signaller read cached?
try:
    os.preadv(f.fileno(), [bytearray(1)], 0, os.RWF_NOWAIT)
    out.append('nowait:cached')
except BlockingIOError:
    out.append('nowait:cold')
except OSError as e:
    out.append(f'nowait:refused-{e.errno}')
stat = (ctypes.c_uint64 * 5)()
span = (ctypes.c_uint64 * 2)(0, 4096)
if libc.syscall(451, f.fileno(), span, stat, 0) == 0:
    out.append(f'cachestat:{stat[0]}')
else:
    out.append(f'cachestat:refused-{ctypes.get_errno()}')
out.append('mincore:' + core_before + in_core() if core_before.isdigit() else 'mincore:' + core_before)
print(' '.join(out), flush=True)
"#;

/// The signaller: locks the same file every way a process can (`flock`, a
/// POSIX read lock, an open file description's read lock), reads it three
/// times, prints `signalled` and holds the locks until its input ends.
const SIGNALLER: &str = r#"
import fcntl, os, struct, sys
path = sys.argv[1] if len(sys.argv) > 1 else os.__file__
f = open(path, 'rb')
fcntl.flock(f, fcntl.LOCK_EX)
fcntl.lockf(f, fcntl.LOCK_SH)
fcntl.fcntl(f.fileno(), fcntl.F_OFD_SETLK, struct.pack('hhqqi4x', fcntl.F_RDLCK, 0, 0, 0, 0))
for _ in range(3):
    with open(path, 'rb') as g:
        g.read(1)
print('signalled', flush=True)
sys.stdin.readline()
"#;

/// Two bots of one game see the same system files through their read-only
/// binds, so a lock taken on one, a watch on it, or a question to the page
/// cache about it would be a clean, noise-free channel between colluding
/// entrants (one tells the other its hand). Locks are taken without effect
/// (the call succeeds, so a program that locks its own files still runs);
/// file watches and the page-cache probes that need no clock are refused.
/// The watcher sees nothing of the signaller, and the signaller runs
/// unhindered. (Timing a read still tells a cached page from a cold one:
/// docs/process-sandbox.md.)
#[test]
fn colluding_bots_cannot_signal_through_locks_or_file_watches() {
    assert_nothing_passes_between_bots_watching(None);
}

/// The user a test run as root becomes to be a host that is not root.
const NOBODY: u32 = 65534;

/// Under a host that is not root, a bot runs as the host's user, so it owns
/// the files of its folders, and two entrants whose command lines name one
/// folder both see it. The kernel refuses a lease or a `cachestat` only to a
/// process that neither owns the file nor may write it, so here the
/// seccomp filter is all that stands between them: the watcher and the
/// signaller share a file of their own folder, and the watcher still sees
/// nothing. Run as root (as in CI), the test runs itself again as `nobody`.
#[test]
fn colluding_bots_of_a_non_root_host_cannot_signal_through_a_file_they_own() {
    const NAME: &str = "colluding_bots_of_a_non_root_host_cannot_signal_through_a_file_they_own";
    if euid() == 0 {
        run_again_as_nobody(NAME);
        return;
    }
    let dir = tempfile::tempdir().expect("a folder of the host's user");
    let shared = dir.path().join("shared.txt");
    let mut file = std::fs::File::create(&shared).expect("the shared file is made");
    std::io::Write::write_all(&mut file, &[b'x'; 1 << 16]).expect("the shared file is written");
    // On disk, so that the watcher can drop its pages from the cache.
    file.sync_all().expect("the shared file is synced");
    assert_nothing_passes_between_bots_watching(Some(&shared));
}

/// Runs the test `name` of this module again, in this test binary, as
/// [`NOBODY`], and asserts that it passed there: how a test run as root
/// (as in CI) also tries the sandbox of a host that is not root.
fn run_again_as_nobody(name: &str) {
    run_again(name, Some(NOBODY), &[]);
}

/// Runs the test `name` of this module again, in this test binary, as
/// `uid` (as this process's user when `None`) with `env` added to its
/// environment, and asserts that it passed there.
fn run_again(name: &str, uid: Option<u32>, env: &[(&str, &std::ffi::OsStr)]) {
    use std::os::unix::process::CommandExt;
    let exe = std::env::current_exe().expect("the test binary's path");
    // The test's name in its binary: its module path under the crate.
    let name = match module_path!().split_once("::") {
        Some((_, module)) => format!("{module}::{name}"),
        None => name.to_string(),
    };
    let mut again = Command::new(exe);
    again
        .args(["--exact", &name, "--nocapture", "--test-threads=1"])
        .envs(env.iter().copied());
    if let Some(uid) = uid {
        again.uid(uid).gid(uid);
    }
    let output = again.output().unwrap_or_else(|e| {
        panic!(
            "cannot run the test binary again as {uid:?} ({e}): its folders must be \
             open to other users (a checkout under /root is not)"
        )
    });
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("1 passed"),
        "as {uid:?} ({}):\n{stdout}\n{stderr}",
        output.status
    );
}

/// A version manager's hooks write its `shims` folder after an install
/// (pyenv's `pip install` runs `pyenv rehash`, and fails when it cannot:
/// "pyenv: cannot rehash: ~/.pyenv/shims isn't writable", after the
/// packages were installed). A sandboxed build gets a throwaway copy of
/// each `shims` folder on the host's `PATH`: it reads the host's scripts,
/// and what it writes or removes there goes to a `tmpfs` of its own,
/// leaving the host's as they were. A bot gets no such copy. Here the
/// manager is one of the test's (`mgr/shims` put first on `PATH` for a
/// second run of this test), as root and again as `nobody`.
#[test]
fn a_builds_toolchain_shims_are_a_throwaway_copy_it_may_write() {
    use clue_runtime::process::build::{BuildLimits, run_sandboxed};
    const SHIMS: &str = "CLUE_TEST_SHIMS";
    const FOLDER: &str = "CLUE_TEST_BUILD_FOLDER";
    const NAME: &str = "a_builds_toolchain_shims_are_a_throwaway_copy_it_may_write";
    let Some(shims) = std::env::var_os(SHIMS).map(PathBuf::from) else {
        let manager = entrant_folder();
        let shims = manager.path().join("shims");
        std::fs::create_dir(&shims).expect("the shims folder");
        open_to_all(&shims);
        for tool in ["other", "tool"] {
            let script = shims.join(tool);
            std::fs::write(&script, format!("#!/bin/sh\necho {tool}\n")).expect("a shim");
            open_to_all(&script);
        }
        let path = std::env::join_paths(std::iter::once(shims.clone()).chain(
            std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
        ))
        .expect("a PATH");
        // The build's folder, given to nobody (under a root host a build
        // runs as its folder's owner), for both runs.
        let folder = manager.path().join("entrant");
        std::fs::create_dir(&folder).expect("the build's folder");
        open_to_all(&folder);
        if euid() == 0 {
            std::os::unix::fs::chown(&folder, Some(NOBODY), Some(NOBODY)).expect("chown");
        }
        let env = [
            (SHIMS, shims.as_os_str()),
            ("PATH", path.as_os_str()),
            (FOLDER, folder.as_os_str()),
        ];
        run_again(NAME, None, &env);
        if euid() == 0 {
            run_again(NAME, Some(NOBODY), &env);
        }
        let mut left: Vec<String> = std::fs::read_dir(&shims)
            .expect("the host's shims")
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["other", "tool"], "the host's shims are as they were");
        return;
    };
    let folder = PathBuf::from(std::env::var_os(FOLDER).expect("the build's folder"));
    let s = shims.display();
    let built = run_sandboxed(
        &format!("echo made > {s}/made && rm {s}/tool && ls {s} && {s}/other"),
        &folder,
        &BuildLimits::default(),
    )
    .unwrap_or_else(|e| panic!("the build could not write its shims: {e}"));
    assert_eq!(built.output, "made\nother\nother", "{built:?}");
    assert!(shims.join("tool").is_file(), "the host's shim is there");
    assert!(
        !shims.join("made").exists(),
        "nothing was added to the host's"
    );
    let (line, _) = run(
        &format!("echo x 2>/dev/null > {s}/made && echo wrote || echo refused"),
        &[],
    );
    assert_eq!(line, "refused", "a bot's shims are the host's, read-only");
}

fn euid() -> u32 {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self")
        .expect("/proc/self is there")
        .uid()
}

/// Runs the [`WATCHER`] and the [`SIGNALLER`] on `file` (Python's `os.py`
/// when `None`) and asserts that the signaller's locks and reads succeed
/// and that the watcher sees none of them.
fn assert_nothing_passes_between_bots_watching(file: Option<&std::path::Path>) {
    let limits = ProcessLimits {
        sandbox: sandbox::SandboxPolicy::on(),
        ..ProcessLimits::default()
    };
    let spawn = |program: &str| {
        let mut argv = vec!["python3".to_string(), "-c".to_string(), program.to_string()];
        argv.extend(file.map(|f| f.display().to_string()));
        BotProcess::spawn(&argv, &limits).unwrap_or_else(|e| panic!("cannot start a bot: {e}"))
    };
    let mut watcher = spawn(WATCHER);
    let line = watcher
        .recv(Duration::from_secs(20), "watching")
        .unwrap_or_else(|f| panic!("no line: {f:?}; stderr {}", watcher.stderr().text()));
    assert_eq!(line, "watching");
    let mut signaller = spawn(SIGNALLER);
    let line = signaller
        .recv(Duration::from_secs(20), "signalled")
        .unwrap_or_else(|f| panic!("no line: {f:?}; stderr {}", signaller.stderr().text()));
    assert_eq!(line, "signalled", "the signaller's locks and reads succeed");
    watcher.send("look").unwrap();
    let seen = watcher
        .recv(Duration::from_secs(20), "what it saw")
        .unwrap_or_else(|f| panic!("no line: {f:?}; stderr {}", watcher.stderr().text()));
    let (eperm, enosys, eopnotsupp) = (1, 38, 95);
    assert_eq!(
        seen,
        format!(
            "inotify:refused-{eperm} fanotify:refused-{eperm} dnotify:refused-{eperm} \
             lease:refused-{eperm} flock:free fcntl:free nowait:refused-{eopnotsupp} \
             cachestat:refused-{eperm} mincore:refused-{enosys}"
        ),
        "the watcher saw the signaller"
    );
    drop(signaller);
}

/// A 32-bit x86 program of 96 bytes, `exit(42)` by `int 0x80`: what an old
/// contest's entrant built for i386 is to the host.
#[cfg(target_arch = "x86_64")]
fn i386_program(dir: &std::path::Path) -> PathBuf {
    // mov eax, 1; mov ebx, 42; int 0x80
    let code = [0xb8, 1, 0, 0, 0, 0xbb, 42, 0, 0, 0, 0xcd, 0x80];
    let size = (52 + 32 + code.len()) as u32;
    let entry: u32 = 0x0804_8000 + 52 + 32;
    let mut elf = b"\x7fELF\x01\x01\x01\x00".to_vec();
    elf.extend([0; 8]);
    // ELF header: an executable for EM_386, version 1, one program header.
    for half in [2u16, 3] {
        elf.extend(half.to_le_bytes());
    }
    for word in [1u32, entry, 52, 0, 0] {
        elf.extend(word.to_le_bytes());
    }
    for half in [52u16, 32, 1, 0, 0, 0] {
        elf.extend(half.to_le_bytes());
    }
    // One loadable, readable and executable segment: the whole file.
    for word in [1u32, 0, 0x0804_8000, 0x0804_8000, size, size, 5, 0x1000] {
        elf.extend(word.to_le_bytes());
    }
    elf.extend(code);
    let path = dir.join("entrant-i386");
    std::fs::write(&path, &elf).expect("the program is written");
    open_to_all(&path);
    path
}

/// Gives `path` mode 0755: a sandboxed bot runs as a uid of its own (under
/// a root host), so its folders and programs must be open to it.
fn open_to_all(path: &std::path::Path) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .unwrap_or_else(|e| panic!("cannot open {} to other users: {e}", path.display()));
}

/// A folder open to every user, not under `/tmp` (which is the bot's own
/// scratch folder in its root): where an entrant's files would be.
fn entrant_folder() -> tempfile::TempDir {
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("a folder");
    open_to_all(dir.path());
    dir
}

/// The fault of a bot that ran `argv` under `policy` and exited before its
/// first line.
fn first_fault(argv: &[String], policy: sandbox::SandboxPolicy) -> String {
    let limits = ProcessLimits {
        sandbox: policy,
        ..ProcessLimits::default()
    };
    let mut bot = BotProcess::spawn(argv, &limits).expect("the bot starts");
    match bot.recv(Duration::from_secs(20), "hello") {
        Ok(line) => panic!("{argv:?} printed {line:?}"),
        Err(fault) => fault.detail,
    }
}

/// A bot that worked at its author's terminal and crashes on a wall of
/// the sandbox (writing beside itself, looking up a host) is told which
/// wall, on top of its stderr; a crash of another kind, or of a bot with no
/// sandbox, is not.
#[test]
fn a_crash_on_a_wall_of_the_sandbox_says_which_wall() {
    let dir = entrant_folder();
    let bot = dir.path().join("bot.sh");
    std::fs::write(
        &bot,
        "echo learnt > \"$(dirname \"$0\")/memory.txt\" || exit 1\n",
    )
    .expect("the bot's file");
    let fault = first_fault(
        &["sh".into(), bot.display().to_string()],
        sandbox::SandboxPolicy::on(),
    );
    assert!(
        fault.starts_with("exited with status 1 before its hello; its stderr tells of a read-only file system: in the sandbox every folder is read-only, its own included, but its scratch folder `/tmp`"),
        "{fault}"
    );
    assert!(!dir.path().join("memory.txt").exists());

    let lookup = "import socket; socket.create_connection(('pypi.org', 443), timeout=5)";
    let fault = first_fault(
        &["python3".into(), "-c".into(), lookup.into()],
        sandbox::SandboxPolicy::on(),
    );
    assert!(
        fault.contains("; its stderr tells of a failed network lookup or connection: in the sandbox a bot has no network"),
        "{fault}"
    );

    // Its stderr decides nothing without a sandbox, nor when it tells of
    // something else.
    let claims = "echo 'OSError: [Errno 30] Read-only file system' >&2; exit 1";
    let sh = |script: &str| ["sh", "-c", script].map(String::from);
    let fault = first_fault(&sh(claims), sandbox::SandboxPolicy::off());
    assert_eq!(fault, "exited with status 1 before its hello");
    let other = "echo 'ModuleNotFoundError: No module named numpy' >&2; exit 1";
    let fault = first_fault(&sh(other), sandbox::SandboxPolicy::on());
    assert_eq!(fault, "exited with status 1 before its hello");
}

/// The seccomp filters are built for x86-64 and kill a process at its
/// first system call of another architecture. A 32-bit entrant named on
/// the command line is refused before it starts, saying what it is; one
/// started through a shell is killed, and its fault says why.
#[cfg(target_arch = "x86_64")]
#[test]
fn a_32_bit_program_is_refused_by_name_and_its_crash_says_why() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    open_to_all(dir.path());
    let program = i386_program(dir.path());
    // A process another test forks in the moment the program is written
    // holds its descriptor until its own `exec`: `ETXTBSY` for that moment.
    let mut tries = 0;
    let plain = loop {
        match Command::new(&program).status() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(20));
            }
            other => {
                break other.expect("this kernel runs 32-bit x86 programs (CONFIG_IA32_EMULATION)");
            }
        }
    };
    assert_eq!(
        plain.code(),
        Some(42),
        "the program runs outside the sandbox"
    );

    let limits = ProcessLimits {
        sandbox: sandbox::SandboxPolicy::on(),
        ..ProcessLimits::default()
    };
    let argv = [program.display().to_string()];
    let refused = match BotProcess::spawn(&argv, &limits) {
        Ok(_) => panic!("a 32-bit program was started in the sandbox"),
        Err(e) => e.to_string(),
    };
    assert!(
        refused.contains("entrant-i386 is a 32-bit x86 (i386) program")
            && refused.contains("rebuild it for x86_64"),
        "{refused}"
    );

    let argv = ["sh", "-c", &format!("exec {}", program.display())].map(String::from);
    let mut bot = BotProcess::spawn(&argv, &limits).expect("a shell starts");
    let fault = match bot.recv(Duration::from_secs(20), "a line") {
        Ok(line) => panic!("the 32-bit program ran and printed {line:?}"),
        Err(fault) => fault,
    };
    assert!(
        fault.detail.contains(
            "killed by signal 31 (SIGSYS; under the sandbox: a system call of another architecture"
        ),
        "{fault:?}"
    );
}

/// A bot that asks for real-time scheduling, or for a nice value under the
/// host's, is refused even when the host's own limits would allow it (an
/// audio group's `rtprio` in limits.conf): a `SCHED_FIFO` loop would starve
/// the host and the other bots of the CPU. Every bot starts with both
/// limits at 0. The test first raises its own limits where it may (with
/// `CAP_SYS_RESOURCE`); where it may not, as on the machine this was written
/// on (its root lacks that capability, and its limits are 0 already), it
/// cannot tell the host's limits from the bot's own.
#[test]
fn a_bot_cannot_take_real_time_scheduling_or_a_higher_priority() {
    for (resource, value) in [(libc::RLIMIT_RTPRIO, 50), (libc::RLIMIT_NICE, 40)] {
        let limit = libc::rlimit {
            rlim_cur: value,
            rlim_max: value,
        };
        // SAFETY: `setrlimit` reads the `rlimit` on this stack frame only.
        // Refused without `CAP_SYS_RESOURCE`, which changes nothing here.
        unsafe { libc::setrlimit(resource, &limit) };
    }
    let script = r#"python3 -c "
import os, resource
out = [f'limits:{resource.getrlimit(resource.RLIMIT_RTPRIO)}{resource.getrlimit(resource.RLIMIT_NICE)}']
try:
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
    out.append('fifo:taken')
except OSError as e:
    out.append(f'fifo:refused-{e.errno}')
try:
    os.setpriority(os.PRIO_PROCESS, 0, -10)
    out.append('nice:taken')
except OSError as e:
    out.append(f'nice:refused-{e.errno}')
print(' '.join(out))
""#;
    let (line, _) = run(script, &[]);
    let (eperm, eacces) = (1, 13);
    assert_eq!(
        line,
        format!("limits:(0, 0)(0, 0) fifo:refused-{eperm} nice:refused-{eacces}")
    );
}

/// The folder of a path on a bot's command line is bound into its root, and
/// a bind follows symbolic links: a link in an entrant's own folder, named
/// on the command line (`bot.py data/model`, `data` a link to the host's
/// checkout), would show the bot whatever it points at. Such a bot is
/// refused, saying where the link leads; a link to a system folder every
/// bot sees anyway still works.
#[test]
fn a_link_on_the_command_line_to_a_folder_elsewhere_is_refused() {
    let entrant = entrant_folder();
    let elsewhere = entrant_folder();
    std::fs::write(elsewhere.path().join("secret.txt"), "hunter2\n").expect("a secret");
    std::os::unix::fs::symlink(elsewhere.path(), entrant.path().join("data"))
        .expect("the entrant's link");
    let limits = ProcessLimits {
        sandbox: sandbox::SandboxPolicy::on(),
        ..ProcessLimits::default()
    };
    // The entrant's script: a secret if it finds one, else whether the
    // folder it is given is there.
    let run = entrant.path().join("run.sh");
    let script = "if [ -f \"$1/secret.txt\" ]; then cat \"$1/secret.txt\"; \
                  elif [ -d \"$1\" ]; then echo seen; else echo missing; fi\n";
    std::fs::write(&run, script).expect("the entrant's script");
    let with = |folder: &str| {
        [
            "sh".to_string(),
            run.display().to_string(),
            entrant.path().join(folder).display().to_string(),
        ]
    };
    let argv = with("data");
    let refused = match BotProcess::spawn(&argv, &limits) {
        Ok(mut bot) => panic!(
            "the bot started, and read {:?}",
            bot.recv(Duration::from_secs(20), "the secret")
        ),
        Err(e) => e.to_string(),
    };
    let real = std::fs::canonicalize(elsewhere.path()).expect("the real folder");
    assert!(
        refused.contains(&format!(
            "{} leads through a symbolic link to {}",
            entrant.path().join("data").display(),
            real.display()
        )),
        "{refused}"
    );

    std::os::unix::fs::symlink("/usr/share", entrant.path().join("share"))
        .expect("a link to a system folder");
    let argv = with("share");
    let mut bot = BotProcess::spawn(&argv, &limits).expect("a link to /usr/share is let through");
    let line = bot
        .recv(Duration::from_secs(20), "its verdict")
        .unwrap_or_else(|f| panic!("no verdict: {f:?}; stderr {}", bot.stderr().text()));
    assert_eq!(line, "seen");
}

/// A program named by its path that is a symbolic link out of its folder
/// (an entrant's `client -> ../bob/client`, or an organizer's
/// `bots/mine -> ~/src/mine/target/release/mine`): the sandbox shows the
/// bot only the folder it is named in, so it could not start there. It is
/// refused by name, saying where the link leads; a link to a program beside
/// it starts.
#[test]
fn a_program_linked_out_of_its_folder_is_refused_by_name() {
    let entrant = entrant_folder();
    let elsewhere = entrant_folder();
    let script = "#!/bin/sh\necho started\n";
    for folder in [entrant.path(), elsewhere.path()] {
        let real = folder.join("real");
        std::fs::write(&real, script).expect("a program");
        open_to_all(&real);
    }
    std::os::unix::fs::symlink(elsewhere.path().join("real"), entrant.path().join("out"))
        .expect("a link out");
    std::os::unix::fs::symlink("real", entrant.path().join("beside")).expect("a link beside");
    let limits = ProcessLimits {
        sandbox: sandbox::SandboxPolicy::on(),
        ..ProcessLimits::default()
    };
    let argv = [entrant.path().join("out").display().to_string()];
    let refused = match BotProcess::spawn(&argv, &limits) {
        Ok(_) => panic!("a program linked out of its folder started"),
        Err(e) => e.to_string(),
    };
    let real = std::fs::canonicalize(elsewhere.path().join("real")).expect("the real program");
    assert!(
        refused.contains(&format!(
            "the bot's file {} leads through a symbolic link to {}, out of the folder it is named in",
            argv[0],
            real.display()
        )),
        "{refused}"
    );
    assert!(
        sandbox::refuses(&argv).is_some(),
        "a tournament's check says so too"
    );
    let argv = [entrant.path().join("beside").display().to_string()];
    let mut bot = BotProcess::spawn(&argv, &limits).expect("a link beside it starts");
    let line = bot
        .recv(Duration::from_secs(20), "its first line")
        .unwrap_or_else(|f| panic!("it did not start: {f:?}; stderr {}", bot.stderr().text()));
    assert_eq!(line, "started");
}

/// A bot whose file lies directly in `/tmp` (`python3 /tmp/bot.py`, a
/// plugin at `/tmp/libbot.so`): the sandbox gives every bot a `/tmp` of its
/// own, so the file would not be there and the bot would fail with "No such
/// file". It is refused by name before it starts, saying where to put it; a
/// bot in a folder of its own below `/tmp` starts.
#[test]
fn a_bot_file_directly_in_tmp_is_refused_by_name() {
    struct Removed(PathBuf);
    impl Drop for Removed {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }
    let script = "#!/bin/sh\necho started\n";
    let file = Removed(PathBuf::from(format!(
        "/tmp/clue-test-bot-{}.sh",
        std::process::id()
    )));
    std::fs::write(&file.0, script).expect("a program in /tmp");
    open_to_all(&file.0);
    let limits = ProcessLimits {
        sandbox: sandbox::SandboxPolicy::on(),
        ..ProcessLimits::default()
    };
    // As the program, as an argument, inside an `sh -c` line, and named
    // relative to a working folder that is /tmp.
    let name = file.0.file_name().unwrap().to_str().unwrap().to_string();
    let lines = [
        vec![file.0.display().to_string()],
        vec!["sh".into(), file.0.display().to_string()],
        vec!["sh".into(), "-c".into(), format!("sh {}", file.0.display())],
        vec!["sh".into(), format!("/tmp/../tmp/{name}")],
    ];
    for argv in &lines {
        let refused = match BotProcess::spawn(argv, &limits) {
            Ok(_) => panic!("{argv:?}: a bot whose file is directly in /tmp started"),
            Err(e) => e.to_string(),
        };
        assert!(
            refused.contains(&format!(
                "the bot's file {} lies directly in /tmp, which the sandbox replaces with the bot's own empty scratch folder",
                file.0.display()
            )) && refused.contains(&format!("move it into a folder of its own, such as /tmp/bot/{name}")),
            "{argv:?}: {refused}"
        );
        assert!(
            sandbox::refuses(argv).is_some(),
            "{argv:?}: a tournament's check says so too"
        );
    }
    // /tmp itself named (a temporary folder flag) is no bot file.
    let entrant = entrant_folder();
    let program = entrant.path().join("bot");
    std::fs::write(&program, script).expect("a program");
    open_to_all(&program);
    let argv = [program.display().to_string(), "--scratch=/tmp".into()];
    assert!(sandbox::refuses(&argv).is_none(), "{argv:?}");
    let mut bot = BotProcess::spawn(&argv, &limits).expect("a bot in a folder of its own starts");
    let line = bot
        .recv(Duration::from_secs(20), "its first line")
        .unwrap_or_else(|f| panic!("it did not start: {f:?}; stderr {}", bot.stderr().text()));
    assert_eq!(line, "started");
    // A file the host's /tmp does not hold is one the bot makes in its own
    // scratch folder: a log, its redirected stderr. It starts, and writes
    // there, not in the host's /tmp.
    let own = Removed(PathBuf::from(format!(
        "/tmp/clue-test-bot-{}.log",
        std::process::id()
    )));
    let argv: Vec<String> = vec![
        program.display().to_string(),
        "--log".into(),
        own.0.display().to_string(),
    ];
    assert!(sandbox::refuses(&argv).is_none(), "{argv:?}");
    let argv: Vec<String> = vec![
        "sh".into(),
        "-c".into(),
        format!(
            "echo kept > {0} 2>{0}.err && cat {0} && {1}",
            own.0.display(),
            program.display()
        ),
    ];
    assert!(sandbox::refuses(&argv).is_none(), "{argv:?}");
    let mut bot = BotProcess::spawn(&argv, &limits).expect("a bot writing to its /tmp starts");
    for expected in ["kept", "started"] {
        let line = bot
            .recv(Duration::from_secs(20), "its line")
            .unwrap_or_else(|f| panic!("{argv:?}: {f:?}; stderr {}", bot.stderr().text()));
        assert_eq!(line, expected, "{argv:?}");
    }
    drop(bot);
    assert!(
        !own.0.exists(),
        "the bot wrote the host's {}",
        own.0.display()
    );
}

/// An entrant's "program" may be a FIFO (a tarball can hold one). The host
/// looks at a program's first bytes before it starts it; opening a FIFO to
/// read waits for a writer for ever, so the host must not block there: the
/// bot fails to start, at once.
#[test]
fn a_fifo_for_a_program_fails_to_start_without_hanging_the_host() {
    let dir = entrant_folder();
    let fifo = dir.path().join("bot");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success(), "mkfifo {}", fifo.display());
    open_to_all(&fifo);
    let argv = [fifo.display().to_string()];
    let (sender, started) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let limits = ProcessLimits {
            sandbox: sandbox::SandboxPolicy::on(),
            ..ProcessLimits::default()
        };
        let _ = sender.send(
            BotProcess::spawn(&argv, &limits)
                .err()
                .map(|e| e.to_string()),
        );
    });
    match started.recv_timeout(Duration::from_secs(20)) {
        Ok(Some(_refused)) => {}
        Ok(None) => panic!("a FIFO started as a bot"),
        Err(_) => panic!("starting a bot whose program is a FIFO hung the host"),
    }
}

/// A root host runs a sandboxed build as the owner of its folder, who may
/// have many processes and threads of its own (a desktop's browser):
/// `RLIMIT_NPROC`, which counts them all, would fail the build's first
/// forks. The build's `pids` cgroup counts its own processes alone. Here
/// the owner already runs twelve processes and the build's cap is eight:
/// its four children start, and a fork bomb still stops at the cap.
#[test]
fn a_builds_process_cap_counts_its_own_processes_not_its_owners() {
    use clue_runtime::process::build::{BuildError, BuildLimits, run_sandboxed};
    use std::os::unix::process::CommandExt;
    let folder = entrant_folder();
    let root = std::fs::metadata("/proc/self")
        .map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0)
        .expect("/proc/self");
    let owner = if root {
        let status = Command::new("chown")
            .arg("65534:65534")
            .arg(folder.path())
            .status()
            .expect("chown runs");
        assert!(status.success(), "the folder is given to nobody");
        Some(65534)
    } else {
        None
    };
    let mut others: Vec<_> = (0..12)
        .map(|_| {
            let mut sleep = Command::new("sleep");
            sleep.arg("60");
            if let Some(uid) = owner {
                sleep.uid(uid).gid(uid);
            }
            sleep.spawn().expect("one of the owner's processes")
        })
        .collect();
    let limits = BuildLimits {
        processes: 8,
        ..BuildLimits::default()
    };
    let built = run_sandboxed(
        "for i in 1 2 3 4; do sleep 0.1 & done; wait; echo four children",
        folder.path(),
        &limits,
    );
    let bomb = run_sandboxed(
        "i=0; while [ $i -lt 20 ]; do sleep 5 & i=$((i+1)); done; wait",
        folder.path(),
        &limits,
    );
    for other in &mut others {
        let _ = other.kill();
        let _ = other.wait();
    }
    let output = built.map(|b| b.output).unwrap_or_else(|e| {
        panic!("the build could not start its children ({e}): it needs a writable `pids` cgroup (run as root, or delegate a cgroup v2 subtree with the pids controller)")
    });
    assert!(output.contains("four children"), "{output}");
    // dash gives up at the first failed fork ("Cannot fork"), bash retries,
    // says so and goes on: either way a fork failed.
    match bomb {
        Ok(clue_runtime::process::build::Built { output, .. })
        | Err(BuildError::Failed { output, .. }) => {
            assert!(output.contains("fork"), "no fork failed: {output}")
        }
        other => panic!("the fork bomb's build ended otherwise: {other:?}"),
    }
}

/// What one of two colluding bots leaves for the other (`argv`: a System V
/// IPC key and a name): an abstract Unix socket listening, a System V shared
/// memory segment and message queue, a file in `/dev/shm` and one in `/tmp`.
/// It prints what it made, waits for a line, then removes them.
const HIDER: &str = r#"
import ctypes, os, socket, sys
key, name = int(sys.argv[1]), sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
out = []
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    listener.bind('\0' + name)
    listener.listen(1)
    out.append('abstract:made')
except OSError as e:
    out.append(f'abstract:refused-{e.errno}')
# IPC_CREAT | 0666
shm = libc.shmget(key, 4096, 0o1666)
out.append('shm:made' if shm >= 0 else f'shm:refused-{ctypes.get_errno()}')
msg = libc.msgget(key, 0o1666)
out.append('msg:made' if msg >= 0 else f'msg:refused-{ctypes.get_errno()}')
files = [('devshm', '/dev/shm/' + name), ('tmp', '/tmp/' + name)]
for label, path in files:
    try:
        with open(path, 'w') as f:
            f.write('my hand')
        out.append(f'{label}:made')
    except OSError as e:
        out.append(f'{label}:refused-{e.errno}')
print(' '.join(out), flush=True)
sys.stdin.readline()
# IPC_RMID
if shm >= 0:
    libc.shmctl(shm, 0, None)
if msg >= 0:
    libc.msgctl(msg, 0, None)
for _, path in files:
    try:
        os.unlink(path)
    except OSError:
        pass
print('gone', flush=True)
"#;

/// The other colluding bot: looks for each of the [`HIDER`]'s things by the
/// same key and name, and prints `met` or `none` for each.
const SEEKER: &str = r#"
import ctypes, os, socket, sys
key, name = int(sys.argv[1]), sys.argv[2]
libc = ctypes.CDLL(None, use_errno=True)
out = []
seeker = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    seeker.connect('\0' + name)
    out.append('abstract:met')
except OSError as e:
    out.append(f'abstract:none-{e.errno}')
shm = libc.shmget(key, 0, 0o666)
out.append('shm:met' if shm >= 0 else f'shm:none-{ctypes.get_errno()}')
msg = libc.msgget(key, 0o666)
out.append('msg:met' if msg >= 0 else f'msg:none-{ctypes.get_errno()}')
for label, path in [('devshm', '/dev/shm/' + name), ('tmp', '/tmp/' + name)]:
    out.append(f'{label}:met' if os.path.exists(path) else f'{label}:none')
print(' '.join(out), flush=True)
"#;

/// Starts the [`HIDER`], then the [`SEEKER`], both under `sandbox`, and
/// returns what each printed; the hider then cleans up.
fn hide_and_seek(sandbox: sandbox::SandboxPolicy) -> (String, String) {
    let limits = ProcessLimits {
        sandbox,
        ..ProcessLimits::default()
    };
    // Unique to this run, so that a test run beside it cannot meet it.
    let key = (0x434c_0000 | (std::process::id() & 0xffff)).to_string();
    let name = format!("clue-collude-{}", std::process::id());
    let spawn = |program: &str| {
        let argv = [
            "python3".to_string(),
            "-c".to_string(),
            program.to_string(),
            key.clone(),
            name.clone(),
        ];
        BotProcess::spawn(&argv, &limits).unwrap_or_else(|e| panic!("cannot start a bot: {e}"))
    };
    let mut hider = spawn(HIDER);
    let made = hider
        .recv(Duration::from_secs(20), "what it made")
        .unwrap_or_else(|f| panic!("no line: {f:?}; stderr {}", hider.stderr().text()));
    let mut seeker = spawn(SEEKER);
    let found = seeker
        .recv(Duration::from_secs(20), "what it found")
        .unwrap_or_else(|f| panic!("no line: {f:?}; stderr {}", seeker.stderr().text()));
    hider.send("done").unwrap();
    let gone = hider
        .recv(Duration::from_secs(20), "gone")
        .unwrap_or_else(|f| panic!("no line: {f:?}; stderr {}", hider.stderr().text()));
    assert_eq!(gone, "gone");
    (made, found)
}

/// Two bots of one author, in one game, look for each other through what
/// the files and locks of the test above leave out: an abstract Unix socket
/// (named by no file), System V shared memory and message queues (named by
/// a number), `/dev/shm` and `/tmp`. Each bot has its own network and IPC
/// namespaces, Landlock's scope and its own `/tmp`, so the seeker finds
/// none of what the hider made. Without the sandbox the same two bots meet
/// through every one of them, so the probe itself is sound.
#[test]
fn colluding_bots_cannot_meet_through_sockets_shared_memory_or_queues() {
    let (made, found) = hide_and_seek(sandbox::SandboxPolicy::off());
    assert_eq!(
        (made.as_str(), found.as_str()),
        (
            "abstract:made shm:made msg:made devshm:made tmp:made",
            "abstract:met shm:met msg:met devshm:met tmp:met"
        ),
        "unsandboxed, the bots meet"
    );
    let (made, found) = hide_and_seek(sandbox::SandboxPolicy::on());
    let items: Vec<&str> = found.split(' ').collect();
    assert_eq!(items.len(), 5, "{found}");
    assert!(
        made.contains("devshm:made") && made.contains("tmp:made"),
        "the hider writes its own /dev/shm and /tmp: {made}"
    );
    for item in &items {
        assert!(
            item.split_once(':')
                .is_some_and(|(_, seen)| seen.starts_with("none")),
            "the seeker found the hider's {item} (the hider: {made}; the seeker: {found})"
        );
    }
    eprintln!("sandboxed: the hider {made}; the seeker {found}");
}

/// A Python bot may use `multiprocessing`: its locks, queues and pools
/// need POSIX shared memory, which the bot's own `/dev/shm` gives (a
/// `tmpfs` like its `/tmp`, capped alike). Without it the bot, which runs
/// as it is under a contest's own server, failed at its first lock with
/// "No such file or directory".
#[test]
fn python_multiprocessing_runs_in_the_bots_own_shared_memory() {
    let (line, _) = run(
        "python3 -c \"
import multiprocessing as m
try:
    lock = m.Lock(); queue = m.Queue(); queue.put(7)
    with m.Pool(2) as pool:
        print('ok', pool.map(abs, [-1, -2]), queue.get())
except Exception as e:
    print('failed:', type(e).__name__, e)
\" 2>&1 | tail -1",
        &[],
    );
    assert_eq!(line, "ok [1, 2] 7");
    // The scratch folder's cap, 64 MiB.
    let mib = written_until_full("/dev/shm");
    assert!((60..=64).contains(&mib), "{mib} MiB written");
}

/// A bot may open its standard streams by name, as scripts and programs
/// often do (`read line < /dev/stdin`, `echo ... > /dev/stderr`, Python's
/// `open('/dev/stdin')`): its `/dev` has the standard links to them, and the
/// pipes are the bot's own. Before, the links were missing, and under a
/// root host the pipes were the host's (mode 0600), so each of these failed.
#[test]
fn a_bot_opens_its_standard_streams_by_name() {
    let limits = ProcessLimits {
        sandbox: sandbox::SandboxPolicy::on(),
        ..ProcessLimits::default()
    };
    let script = "read line < /dev/stdin && echo \"got $line\" > /dev/stdout \
                  && echo 'to stderr' > /dev/stderr && ls /dev/fd/ > /dev/null \
                  && python3 -c \"import sys; l = open('/dev/stdin').readline().strip(); \
                  open('/dev/stdout', 'w').write('python got ' + l + chr(10))\"";
    let argv = ["sh".to_string(), "-c".to_string(), script.to_string()];
    let mut bot = BotProcess::spawn(&argv, &limits).expect("a sandboxed bot starts");
    let wait = Duration::from_secs(20);
    bot.send("hello").unwrap();
    let line = bot
        .recv(wait, "its first answer")
        .unwrap_or_else(|f| panic!("no line: {f:?}; stderr {}", bot.stderr().text()));
    assert_eq!(line, "got hello", "stderr: {}", bot.stderr().text());
    bot.send("again").unwrap();
    let line = bot
        .recv(wait, "python's answer")
        .unwrap_or_else(|f| panic!("no line: {f:?}; stderr {}", bot.stderr().text()));
    assert_eq!(line, "python got again", "stderr: {}", bot.stderr().text());
    assert!(
        bot.stderr().text().contains("to stderr"),
        "stderr: {}",
        bot.stderr().text()
    );
}

/// A sandboxed bot is user `bot` by name (`USER`, `LOGNAME`): its uid has
/// no entry in the system's `/etc/passwd`, and Python's
/// `getpass.getuser()`, which asks the environment first, raised without
/// them (or, with the host's `USER` passed on, named the host's user).
#[test]
fn a_sandboxed_bot_has_a_user_name_of_its_own() {
    let (line, _) = run(
        "python3 -c \"import getpass, os; print(getpass.getuser(), os.environ['LOGNAME'])\" 2>&1 | tail -1",
        &[],
    );
    assert_eq!(line, format!("{0} {0}", sandbox::BOT_USER));
}

/// Under a root host a bot runs as a uid of its own, which the host's
/// `/etc/passwd` does not name: `whoami` failed ("cannot find name for user
/// ID"), Python's `pwd.getpwuid` raised, a JVM's `user.name` and
/// `user.home` were both `?`, and Node's `os.userInfo()` threw. Its `/etc/passwd` and `/etc/group` name it
/// `bot`, home `/tmp`, and keep the host's users (a file owned by root is
/// still root's), while the host's files stay as they were.
#[test]
fn a_bot_running_as_a_uid_of_its_own_finds_its_name_in_etc_passwd() {
    let host_passwd = std::fs::read("/etc/passwd").expect("the host's /etc/passwd");
    let host_group = std::fs::read("/etc/group").expect("the host's /etc/group");
    let (line, _) = run(
        "echo \"$(whoami 2>&1) $(id -un 2>&1) $(id -gn 2>&1) $(stat -c %U /etc/passwd) \
         $(python3 -c 'import os, pwd; p = pwd.getpwuid(os.getuid()); print(p.pw_name, p.pw_dir)' 2>&1 | tail -1)\"",
        &[],
    );
    if sandbox::host_uid() == 0 {
        assert_eq!(line, "bot bot bot root bot /tmp");
    } else {
        // The bot keeps the host's uid, and so the host's own entry.
        let name =
            String::from_utf8(Command::new("id").arg("-un").output().unwrap().stdout).unwrap();
        assert!(line.starts_with(name.trim()), "{line}");
    }
    let dir = entrant_folder();
    let source = dir.path().join("Who.java");
    std::fs::write(
        &source,
        "public class Who { public static void main(String[] a) { \
         System.out.println(System.getProperty(\"user.name\") + \" \" + System.getProperty(\"user.home\")); } }",
    )
    .unwrap();
    let (line, _) = run(&format!("java {} 2>&1 | tail -1", source.display()), &[]);
    if sandbox::host_uid() == 0 {
        assert_eq!(line, "bot /tmp", "a JVM's user.name and user.home");
    } else {
        assert!(
            !line.starts_with('?'),
            "a JVM's user.name and user.home: {line}"
        );
    }
    // Node's `os.userInfo()` asks libuv, which throws without an entry.
    let (line, _) = run(
        "node -e 'const u = require(\"os\").userInfo(); console.log(u.username, u.homedir)' 2>&1 | tail -1",
        &[],
    );
    if sandbox::host_uid() == 0 {
        assert_eq!(line, "bot /tmp", "Node's os.userInfo()");
    } else {
        assert!(!line.contains("Error"), "Node's os.userInfo(): {line}");
    }
    assert_eq!(std::fs::read("/etc/passwd").unwrap(), host_passwd);
    assert_eq!(std::fs::read("/etc/group").unwrap(), host_group);
}

/// A bot's host name is [`sandbox::BOT_HOSTNAME`] wherever it looks (the
/// system call, `/proc`, `uname`, `/etc/hostname`), never the host's (nor
/// is its `/etc/machine-id` the host's), and
/// its own `/etc/hosts` resolves it (a JVM's `InetAddress.getLocalHost()`
/// throws when the name does not resolve) without naming the host or its
/// neighbours. The bot cannot rename itself; the host's files and name stay
/// as they were.
#[test]
fn a_bot_sees_a_host_name_of_its_own_that_resolves() {
    let read = |path: &str| {
        std::fs::read_to_string(path).unwrap_or_else(|e| panic!("the host's {path}: {e}"))
    };
    let host = read("/proc/sys/kernel/hostname").trim().to_string();
    assert_ne!(
        host,
        sandbox::BOT_HOSTNAME,
        "the host must not be named like a bot"
    );
    let (host_hosts, host_hostname) = (read("/etc/hosts"), read("/etc/hostname"));
    let host_machine_id = read("/etc/machine-id");
    assert_ne!(host_machine_id.trim(), sandbox::BOT_MACHINE_ID);
    let probe = "import os, socket\n\
        try:\n    socket.sethostname('mallory'); renamed = 'renamed'\n\
        except OSError as e: renamed = 'refused'\n\
        hosts = open('/etc/hosts').read().split()\n\
        print(socket.gethostname(), open('/proc/sys/kernel/hostname').read().strip(), \
        os.uname().nodename, open('/etc/hostname').read().strip(), \
        socket.gethostbyname(socket.gethostname()), socket.gethostbyname('localhost'), \
        renamed, sys_host in hosts, open('/etc/machine-id').read().strip())";
    let program = format!("sys_host = {host:?}\n{probe}");
    let line = python_line(&program, sandbox::SandboxPolicy::on());
    let name = sandbox::BOT_HOSTNAME;
    assert_eq!(
        line,
        format!(
            "{name} {name} {name} {name} 127.0.1.1 127.0.0.1 refused False {}",
            sandbox::BOT_MACHINE_ID
        )
    );
    let dir = entrant_folder();
    let source = dir.path().join("Here.java");
    std::fs::write(
        &source,
        "public class Here { public static void main(String[] a) throws Exception { \
         System.out.println(java.net.InetAddress.getLocalHost()); } }",
    )
    .unwrap();
    let (line, _) = run(&format!("java {} 2>&1 | tail -1", source.display()), &[]);
    assert_eq!(line, format!("{name}/127.0.1.1"), "a JVM's getLocalHost()");
    assert_eq!(read("/proc/sys/kernel/hostname").trim(), host);
    assert_eq!(read("/etc/hosts"), host_hosts);
    assert_eq!(read("/etc/hostname"), host_hostname);
    assert_eq!(read("/etc/machine-id"), host_machine_id);
}

/// The host's network devices are not in a bot's `/sys`: a bind of the
/// host's listed every interface with its address and traffic counters
/// (`/sys/class/net/eth0/address`, `statistics/rx_bytes`). Its `sysfs` is
/// one of its own network namespace, read-only: its loopback alone, while
/// what a runtime reads there (the CPUs, its own cgroups) is still there.
/// Its host name is its own too ([`sandbox::BOT_HOSTNAME`]). Run as root
/// (as in CI), the test runs itself again as `nobody`, whose bots have a
/// user namespace: the kernel mounts their `sysfs` only while the host's
/// is still visible, before the `pivot_root`.
#[test]
fn a_bots_sys_shows_its_own_network_devices_not_the_hosts() {
    let host: Vec<String> = std::fs::read_dir("/sys/class/net")
        .expect("the host's /sys/class/net")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        host.iter().any(|name| name != "lo"),
        "the host has a network device besides loopback: {host:?}"
    );
    let (line, _) = run(
        "echo \"$(ls /sys/class/net /sys/devices/virtual/net | tr '\\n' ' ') \
         $(cat /sys/class/net/*/address | tr '\\n' ' ') \
         $(touch /sys/class/net/lo/x 2>/dev/null && echo wrote || echo read-only) \
         $(test -r /sys/devices/system/cpu/online && echo cpus) \
         $(uname -n) $(grep -c ' /sys/fs/cgroup' /proc/self/mountinfo)\"",
        &[],
    );
    let words: Vec<&str> = line.split_whitespace().collect();
    for name in host.iter().filter(|name| *name != "lo") {
        assert!(!words.contains(&name.as_str()), "the host's {name}: {line}");
    }
    assert_eq!(
        &words[..words.len() - 1],
        [
            "/sys/class/net:",
            "lo",
            "/sys/devices/virtual/net:",
            "lo",
            "00:00:00:00:00:00",
            "read-only",
            "cpus",
            sandbox::BOT_HOSTNAME
        ],
        "{line}"
    );
    let cgroups: usize = words[words.len() - 1].parse().expect("a count");
    if euid() == 0 {
        assert!(
            cgroups > 0,
            "the bot's own cgroups are still mounted: {line}"
        );
        run_again_as_nobody("a_bots_sys_shows_its_own_network_devices_not_the_hosts");
    }
}

/// The bot cannot change its `/etc/passwd` (a read-only bind of a file of
/// its own), and another bot's is not its: each sees its own uid named.
#[test]
fn a_bots_etc_passwd_is_read_only_and_its_own() {
    let (first, _) = run(
        "echo 'mallory:x:0:0::/:/bin/sh' >> /etc/passwd 2>/dev/null; echo \"rc=$? $(id -u) $(grep -c :/tmp:/bin/sh /etc/passwd) $(grep -c mallory /etc/passwd)\"",
        &[],
    );
    let (second, _) = run(
        "echo \"rc=1 $(id -u) $(grep -c :/tmp:/bin/sh /etc/passwd) 0\"",
        &[],
    );
    for line in [&first, &second] {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words.len(), 4, "{line}");
        assert_ne!(words[0], "rc=0", "the bot wrote its /etc/passwd: {line}");
        assert_eq!(words[3], "0", "{line}");
        if sandbox::host_uid() == 0 {
            assert_eq!(words[2], "1", "one bot entry: {line}");
        }
    }
    if sandbox::host_uid() == 0 {
        assert_ne!(
            first.split(' ').nth(1),
            second.split(' ').nth(1),
            "{first} / {second}"
        );
    }
}

/// Starts `argv` in the default sandbox and returns its first line.
fn first_line_of(argv: &[String]) -> String {
    let limits = ProcessLimits {
        sandbox: sandbox::SandboxPolicy::on(),
        ..ProcessLimits::default()
    };
    let mut bot = BotProcess::spawn(argv, &limits)
        .unwrap_or_else(|e| panic!("cannot start {argv:?} in the sandbox: {e}"));
    bot.recv(Duration::from_secs(30), "its first line")
        .unwrap_or_else(|f| {
            panic!(
                "{argv:?} said nothing: {f:?}; stderr {}",
                bot.stderr().text()
            )
        })
}

/// Opens `folder` and everything below it to other users, as an entrant's
/// files must be for a bot running as a uid of its own.
fn open_tree_to_all(folder: &std::path::Path) {
    let status = Command::new("chmod")
        .args(["-R", "o+rX"])
        .arg(folder)
        .status()
        .expect("chmod runs");
    assert!(status.success(), "chmod -R o+rX {}", folder.display());
}

/// An entrant's virtual environment made with the host's version-managed
/// Python (`python3 -m venv .venv`, as a sandboxed `build:` makes one; this
/// machine's `python3` is a pyenv shim): its `bin/python` links into
/// `~/.pyenv`, out of the entrant's folder. It was refused as a link out of
/// its folder; it runs, with the environment's packages, whether the bot's
/// script lies in the environment's folder or elsewhere (then the
/// environment's `pyvenv.cfg` was not there, and Python ran without it). A
/// made-up environment whose `bin/python` links into another entrant's
/// folder is still refused.
#[test]
fn a_virtual_environment_of_the_hosts_version_managed_python_runs_with_its_packages() {
    let entrant = entrant_folder();
    let venv = entrant.path().join(".venv");
    let status = Command::new("python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .status()
        .expect("python3 runs (install python3 and its venv module)");
    assert!(status.success(), "python3 -m venv failed");
    // Here `bin/python` links into `~/.pyenv`; on a machine whose
    // `python3` is the system's it links into `/usr`, and the rest holds.
    let python = venv.join("bin/python");
    let site = std::fs::read_dir(venv.join("lib"))
        .expect("the environment's lib")
        .map(|e| e.expect("an entry").path().join("site-packages"))
        .find(|p| p.is_dir())
        .expect("the environment's site-packages");
    std::fs::write(site.join("only_in_venv.py"), "WHERE = 'the venv'\n").unwrap();
    let script =
        "import sys, only_in_venv\nprint(only_in_venv.WHERE, sys.prefix != sys.base_prefix)\n";
    std::fs::write(entrant.path().join("bot.py"), script).unwrap();
    let elsewhere = entrant_folder();
    std::fs::write(elsewhere.path().join("bot.py"), script).unwrap();
    open_tree_to_all(entrant.path());
    open_tree_to_all(elsewhere.path());
    for bot in [entrant.path(), elsewhere.path()] {
        let argv = [
            python.display().to_string(),
            bot.join("bot.py").display().to_string(),
        ];
        assert_eq!(sandbox::refuses(&argv).map(|e| e.to_string()), None);
        assert_eq!(first_line_of(&argv), "the venv True", "{argv:?}");
    }

    let other = entrant_folder();
    let theirs = other.path().join("bot");
    std::fs::write(&theirs, "#!/bin/sh\necho theirs\n").unwrap();
    let fake = entrant_folder();
    std::fs::create_dir_all(fake.path().join(".venv/bin")).unwrap();
    std::fs::write(
        fake.path().join(".venv/pyvenv.cfg"),
        format!("home = {}\n", other.path().display()),
    )
    .unwrap();
    std::os::unix::fs::symlink(&theirs, fake.path().join(".venv/bin/python")).unwrap();
    open_tree_to_all(other.path());
    open_tree_to_all(fake.path());
    let argv = [fake.path().join(".venv/bin/python").display().to_string()];
    let refused = sandbox::refuses(&argv)
        .map(|e| e.to_string())
        .unwrap_or_else(|| panic!("a link into another entrant's folder is allowed"));
    assert!(
        refused.contains("leads through a symbolic link to"),
        "{refused}"
    );
}

/// A bot run by its `#!/usr/bin/env python3` line finds the Python the host
/// finds through `PATH`: this machine's is pyenv's, whose shims folder was
/// not in the bot's root, so the bot ran the system's `/usr/bin/python3`
/// instead, without the packages installed for the host's.
#[test]
fn a_bot_run_by_its_env_line_finds_the_hosts_python() {
    let entrant = entrant_folder();
    let bot = entrant.path().join("bot.py");
    std::fs::write(
        &bot,
        "#!/usr/bin/env python3\nimport sys\nprint(sys.executable, sys.version.split()[0])\n",
    )
    .unwrap();
    open_to_all(&bot);
    let on_host = Command::new(&bot)
        .output()
        .expect("the script runs on the host");
    let on_host = String::from_utf8(on_host.stdout).unwrap();
    // Here that is pyenv's; on a machine whose `python3` is the system's,
    // both are `/usr/bin/python3`.
    let argv = [bot.display().to_string()];
    assert_eq!(first_line_of(&argv), on_host.trim());
}

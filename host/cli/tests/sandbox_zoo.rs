//! The hostile zoo (sandbox-tests/zoo) in every runtime, and docs/SANDBOX.md:
//! this test plays each behaviour as seat 0 of a game against the built-in
//! bots, checks that it is contained, and renders the table. The table's
//! outcomes must equal the committed page's (timings may differ);
//! `UPDATE_SANDBOX=1 cargo test -p clue-cli --test sandbox_zoo` rewrites
//! the page instead.
//!
//! It counts this process's threads and children: the only other test here
//! is a pure function's, done long before the count.

mod zoo_support;

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clue_plugin_api::{DqReason, Event};
use zoo_support::*;

/// Every behaviour of the zoo, with what the table says it does.
const BEHAVIOURS: [(&str, &str); 45] = [
    ("loop-name", "endless loop in `name` (asked at start-up)"),
    ("loop-begin-game", "endless loop in `begin_game`"),
    ("loop-suggest", "endless loop in `suggest`"),
    ("loop-respond", "endless loop in `respond`"),
    ("loop-accuse", "endless loop in `accuse`"),
    ("loop-move", "endless loop in `move_to` (Classic board)"),
    ("loop-watch", "endless loop in `watch`"),
    ("sleep", "sleeps 2x the limit"),
    (
        "slow-legal",
        "legal, 0.6x the limit on its first 3 suggestions (must not be disqualified)",
    ),
    (
        "allocate",
        "allocates 1 MiB blocks (touching each) up to 2 GiB",
    ),
    ("recurse", "unbounded recursion"),
    ("panic", "panics"),
    ("abort", "aborts"),
    ("segfault", "writes through a null pointer"),
    ("exit", "`exit(3)` mid-game"),
    ("garbage-stdout", "a garbage line on stdout"),
    ("flood-stdout", "floods stdout with lines (up to 64 MiB)"),
    ("endless-line", "one line that never ends (up to 64 MiB)"),
    ("close-stdin", "closes its stdin"),
    ("fork-bomb", "fork bomb (30 processes, then sleeps)"),
    (
        "read-file",
        "reads its source checkout's Cargo.toml and /etc/shadow",
    ),
    (
        "read-env",
        "reads a variable of the host's it was not given",
    ),
    (
        "network",
        "sends a UDP datagram out, listens on and connects to loopback ports",
    ),
    ("illegal-move", "moves off the board (Classic board)"),
    ("illegal-suggestion", "suggests three rooms"),
    (
        "lie-when-disproving",
        "says \"none\" holding a matching card",
    ),
    ("show-card-not-held", "shows a card it does not hold"),
    ("malformed-accusation", "accuses with two persons"),
    ("repeated-suggestion", "repeats its suggestion"),
    ("out-of-turn", "an extra unsolicited reply line"),
    ("long-name", "a 1 MiB name"),
    (
        "kill-parent",
        "signals its parent, the host (signal 0: would a kill land?)",
    ),
    (
        "kill-scan",
        "signals every process it finds in /proc: the host, other bots (signal 0)",
    ),
    (
        "kill-any",
        "signals every pid up to 65535, seen or not: another bot (signal 0)",
    ),
    (
        "read-host-proc",
        "reads /proc of its parent and of pid 1 (`environ`, `cmdline`)",
    ),
    (
        "setsid-fork",
        "`setsid` plus a double fork: a grandchild that sleeps 2 minutes",
    ),
    (
        "write-outside",
        "writes into its source checkout, /etc and /var/tmp",
    ),
    ("fill-disk", "writes 1 GiB to its temp folder"),
    (
        "ptrace",
        "`ptrace`-attaches to its own child and to its parent",
    ),
    (
        "fork-bomb-unbounded",
        "forks sleeping children until refused (stops itself at 500)",
    ),
    (
        "cpu-burners",
        "two children spinning in the background, then 0.5 s per call",
    ),
    (
        "other-abis",
        "`unshare` and `io_uring_setup` by their x32 numbers, then a system call through i386's `int 0x80`",
    ),
    (
        "inherited-fds",
        "looks for a descriptor beyond stdin, stdout and stderr (the host holds one without close-on-exec)",
    ),
    (
        "at-load",
        "writes into its checkout and reads /etc/shadow from an ELF constructor, as its library is loaded",
    ),
    (
        "read-cgroups",
        "reads the memory or CPU count of a cgroup not its own under /sys/fs/cgroup (another bot's)",
    ),
];

/// Behaviours that either get out ("not prevented") or are prevented, the
/// game going on; the others are judged by their label alone.
const PREVENTABLE: [&str; 18] = [
    "read-file",
    "read-env",
    "network",
    "kill-parent",
    "kill-scan",
    "kill-any",
    "read-host-proc",
    "setsid-fork",
    "write-outside",
    "fill-disk",
    "ptrace",
    "fork-bomb-unbounded",
    "cpu-burners",
    "fork-bomb",
    "other-abis",
    "inherited-fds",
    "at-load",
    "read-cgroups",
];

/// Bots that get out print this in their panic (the zoo's `escaped`).
const ESCAPED: &str = "sandbox escaped: ";

/// Cells played at once. The machine may have two cores shared with others:
/// the spinning bots are cut off after a second, the rest mostly wait.
const WORKERS: usize = 3;

/// Memory bounds, in the KiB of /proc/self/status.
const GIB_2_IN_KIB: u64 = 2 << 20;
const MIB_64_IN_KIB: u64 = 64 << 10;

/// Why a cell's outcome is what it is, where the label alone would puzzle.
fn note(behaviour: &str, runtime: Runtime) -> Option<&'static str> {
    use Runtime::*;
    Some(match (behaviour, runtime) {
        ("sleep", Wasm) => "wasm timers are virtual: the sleep returns at once",
        ("sleep", NativeTrusted) => "seen when the call returns: the game waited for it",
        ("slow-legal", Wasm) => "wasm timers are virtual: no wall time passes",
        ("segfault", Wasm) => "address 0 is ordinary linear memory: nothing faults",
        ("garbage-stdout", Wasm) => "stdout is a log, not the protocol",
        ("endless-line", Wasm) => "stdout is a log: 2 MiB in one call is a flood",
        ("flood-stdout", Wasm) => "2 MiB in one call is a flood",
        ("allocate", Wasm) => "linear memory capped at 16 MiB",
        ("allocate", Native | Jsonl) => {
            "its memory cgroup's cap (OOM-killed, or held there past its time)"
        }
        ("read-file" | "network" | "write-outside" | "fill-disk" | "read-cgroups", Wasm) => {
            "no ambient capabilities: nothing to open"
        }
        ("read-env", Wasm) => "an empty environment",
        ("read-env", Native | Jsonl) => "the environment is cleared",
        ("read-file", Native | Jsonl) => "its own root folder: the checkout is not there",
        ("read-cgroups", Native | Jsonl) => {
            "its /sys/fs/cgroup holds its own cgroups only, read-only"
        }
        ("write-outside", Native | Jsonl) => "read-only binds; only its /tmp is writable",
        ("fill-disk", Native | Jsonl) => "its /tmp is a 64 MiB tmpfs",
        ("network", Native | Jsonl) => {
            "seccomp refuses every socket but a Unix one (and an empty network namespace, and Landlock)"
        }
        ("kill-parent", Native | Jsonl) => {
            "its own PID namespace, whose init it cannot see (`hidepid`): its parent is not in it"
        }
        ("read-host-proc", Native | Jsonl) => {
            "its own PID namespace, whose init it cannot see (`hidepid`) and which wiped its copy of the host's command line and environment"
        }
        ("kill-scan" | "kill-any", Native | Jsonl) => {
            "its own PID namespace and /proc: no other process"
        }
        ("setsid-fork", Native | Jsonl) => "every process of its PID namespace dies with it",
        ("ptrace", Native | Jsonl) => "seccomp refuses `ptrace`",
        ("fork-bomb-unbounded", Native | Jsonl) => {
            "its pids cgroup stops it at 100 processes, all killed with it"
        }
        ("cpu-burners", Native | Jsonl) => {
            "its cpuacct cgroup counts its children: over the 2 s CPU cap"
        }
        ("other-abis", Native | Jsonl) => {
            "seccomp answers every x32 call `EPERM` and kills a process that makes an i386 one"
        }
        ("inherited-fds", Native | Jsonl) => {
            "every descriptor but its stdin, stdout and stderr is closed at `exec`"
        }
        ("at-load", Native) => {
            "the host checks the library in a sandboxed process, as it runs the worker"
        }
        (
            "read-file" | "read-env" | "network" | "write-outside" | "read-cgroups",
            NativeTrusted,
        ) => "trusted code is the host",
        ("fork-bomb", Jsonl) => "its process group is killed with it",
        ("long-name", NativeTrusted) => "a name is not a line: no cap",
        ("long-name", Wasm) => "a call hands the host at most 8 KiB: returning the name traps",
        ("loop-name", Wasm) => "the name is asked at load, under the default fuel",
        ("loop-name", Native | Jsonl) => "the hello's start-up limit, 5 s",
        ("long-name", Native | Jsonl) => "the hello is a line over the 64 KiB cap",
        _ => return None,
    })
}

/// One game of one cell.
struct Observed {
    /// The cell's text in the table.
    text: String,
    /// What went wrong with containment (empty when all is well).
    problems: Vec<String>,
    /// The game, for comparing it with the other pass's.
    fingerprint: String,
}

/// A file the host holds open without close-on-exec, as a descriptor
/// inherited from its own parent would be (a shell's `3>file`, a `make`
/// jobserver's pipe): a child started with a plain `exec` gets it too, and
/// `inherited-fds` looks for it.
fn held_without_close_on_exec() -> std::fs::File {
    use std::os::fd::AsRawFd;
    let path = target().join("host-held-file");
    std::fs::write(&path, "the host's").expect("write the held file");
    let file = std::fs::File::open(&path).expect("open the held file");
    // SAFETY: `fcntl(F_SETFD)` on a descriptor this function owns.
    let cleared = unsafe { libc::fcntl(file.as_raw_fd(), libc::F_SETFD, 0) };
    assert_eq!(
        cleared,
        0,
        "clear close-on-exec: {}",
        std::io::Error::last_os_error()
    );
    file
}

/// What a bot that got out says it did: the rest of the line after
/// [`ESCAPED`].
fn escape_of(said: &str) -> String {
    let at = said
        .find(ESCAPED)
        .map_or(said.len(), |at| at + ESCAPED.len());
    said[at..]
        .chars()
        .take_while(|&c| !matches!(c, '\n' | '"' | '|'))
        .collect::<String>()
        .trim()
        .to_string()
}

/// Plays `behaviour` in `runtime` once and checks what the header promises.
fn observe(behaviour: &str, runtime: Runtime, seed: u64, marker: &str) -> Observed {
    let mut problems = Vec::new();
    let config = config_for(behaviour);
    let connecting = Instant::now();
    let seated = match connect(behaviour, runtime, marker) {
        Ok(seated) => seated,
        Err(e) if e.contains(ESCAPED) => {
            let what = escape_of(&e);
            return Observed {
                text: format!("**not prevented**: {what} (then refused at load)"),
                problems,
                fingerprint: String::new(),
            };
        }
        Err(e) => {
            // The error names files: keep only its label, if it has one.
            let took = connecting.elapsed();
            let mut text = match DqReason::ALL.into_iter().find(|r| e.contains(r.label())) {
                Some(reason) => {
                    format!("refused at load: `{reason}` [{:.2} s]", took.as_secs_f64())
                }
                None => format!("refused at load [{:.2} s]", took.as_secs_f64()),
            };
            // A load runs under the runtime's default limits, not the
            // seat's (wasm: 5 s of fuel, whatever that takes here). The
            // guard only catches a load that hung; the time is reported.
            if took > 2 * STARTUP + HANG_GUARD {
                text.push_str(&format!("; **refused after {:.2} s**", took.as_secs_f64()));
                problems.push(format!(
                    "the load hung: refused only after {:.2} s (hang guard {} s)",
                    took.as_secs_f64(),
                    HANG_GUARD.as_secs()
                ));
            }
            if let Some(why) = note(behaviour, runtime) {
                text.push_str(&format!("; {why}"));
            }
            return Observed {
                text,
                problems,
                fingerprint: String::new(),
            };
        }
    };
    let stderr = seated.stderr;
    let played = play(&config, seated.bot, seed);
    let record = &played.record;
    let label = outcome_label(record);
    // `name` is asked in the hello, under the start-up limit.
    let limit = if behaviour == "loop-name" {
        STARTUP
    } else {
        LIMIT
    };
    // The verdict is the label (compared with the page below) and what
    // happened to the other seats, never how long detection took on this
    // machine: that is reported in the table. A call that ran past the hang
    // guard without being punished means a limit that does not work.
    if label.is_none() && played.longest > limit + HANG_GUARD {
        problems.push(format!(
            "a call hung for {:.2} s (past the {} s hang guard) and went unpunished",
            played.longest.as_secs_f64(),
            HANG_GUARD.as_secs()
        ));
    }
    for seat in &record.seats[1..] {
        if matches!(seat.outcome, clue_engine::Outcome::Disqualified(_)) {
            problems.push(format!(
                "seat {} was disqualified too: {:?}",
                seat.seat.index(),
                seat.detail
            ));
        }
    }
    if !matches!(
        record.log.last().map(|e| &e.event),
        Some(Event::GameOver { .. })
    ) {
        problems.push("the game did not reach its end".into());
    }
    // A deadline only for processes to be reaped on a loaded machine.
    if !eventually(Duration::from_secs(60), || {
        marked_processes(marker).is_empty()
    }) {
        problems.push(format!("left behind {:?}", marked_processes(marker)));
    }
    let detail = record.seats[0].detail.clone().unwrap_or_default();
    let said = format!(
        "{detail}\n{}\n{}",
        record.seats[0].stderr.as_deref().unwrap_or_default(),
        stderr.map(|tap| tap.text()).unwrap_or_default()
    );
    let mut text = match label {
        Some(label) => format!("`{label}` [{:.2} s]", played.detection.as_secs_f64()),
        None => "not disqualified".to_string(),
    };
    if said.contains(ESCAPED) {
        let what = escape_of(&said);
        text = format!("**not prevented**: {what} (then {text})");
    } else if PREVENTABLE.contains(&behaviour) {
        text = format!("prevented, {text}");
    }
    if let Some(note) = note(behaviour, runtime) {
        text.push_str(&format!("; {note}"));
    }
    println!(
        "{behaviour} in {}: {text} (longest call {:.2} s; host RSS {} KiB)",
        runtime.name(),
        played.longest.as_secs_f64(),
        status_kib("VmRSS:")
    );
    Observed {
        text,
        problems,
        fingerprint: fingerprint(record),
    }
}

/// Every cell that applies, `WORKERS` at a time: `(row, column)` -> what happened.
fn pass(number: u8) -> Vec<((usize, usize), Observed)> {
    let mut cells = Vec::new();
    for (row, (behaviour, _)) in BEHAVIOURS.iter().enumerate() {
        for (column, runtime) in Runtime::ALL.into_iter().enumerate() {
            if applies(behaviour, runtime).is_ok() {
                cells.push((row, column, *behaviour, runtime));
            }
        }
    }
    let seen = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                while let Some(&(row, column, behaviour, runtime)) =
                    cells.get(next.fetch_add(1, Ordering::Relaxed))
                {
                    let marker = format!("{}-{number}-{row}-{column}", std::process::id());
                    let observed = observe(behaviour, runtime, 1000 + row as u64, &marker);
                    seen.lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(((row, column), observed));
                }
            });
        }
    });
    let mut seen = seen.into_inner().unwrap_or_else(|e| e.into_inner());
    seen.sort_by_key(|(at, _)| *at);
    seen
}

fn render(rows: &[(String, Vec<String>)]) -> String {
    let mut page = String::from(include_str!("zoo_support/header.md"));
    page.push('\n');
    page.push_str("| behaviour |");
    for runtime in Runtime::ALL {
        page.push_str(&format!(" {} |", runtime.name()));
    }
    page.push_str("\n| --- |");
    for _ in Runtime::ALL {
        page.push_str(" --- |");
    }
    page.push('\n');
    for (behaviour, cells) in rows {
        page.push_str(&format!("| {behaviour} |"));
        for cell in cells {
            page.push_str(&format!(" {cell} |"));
        }
        page.push('\n');
    }
    page
}

/// The page without its timings (`[0.52 s]`), which vary from run to run.
fn outcomes(page: &str) -> String {
    let mut out = String::with_capacity(page.len());
    let mut rest = page;
    while let Some(at) = rest.find(" [") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        match after.find(" s]") {
            Some(end) if after[..end].chars().all(|c| c.is_ascii_digit() || c == '.') => {
                rest = &after[end + 3..];
            }
            _ => {
                out.push_str(" [");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The lines of `now` that differ from `then`, as a small diff.
fn diff(then: &str, now: &str) -> String {
    let then: Vec<&str> = then.lines().collect();
    let now: Vec<&str> = now.lines().collect();
    let mut out = String::new();
    for i in 0..then.len().max(now.len()) {
        let (a, b) = (then.get(i), now.get(i));
        if a != b {
            if let Some(a) = a {
                out.push_str(&format!("- {a}\n"));
            }
            if let Some(b) = b {
                out.push_str(&format!("+ {b}\n"));
            }
        }
    }
    out
}

#[test]
fn every_hostile_bot_is_contained_and_the_page_says_so() {
    let started = Instant::now();
    built();
    let _held = held_without_close_on_exec();
    // The wasm runtime's shared threads (the epoch ticker, the WASI tokio
    // pool) start once per host and are reused: start them before counting.
    let warm = connect("sleep", Runtime::Wasm, "warm-up").expect("the warm-up bot loads");
    play(&config_for("sleep"), warm.bot, 1);
    let threads_before = threads();
    let rss_before = status_kib("VmRSS:");

    // Two passes: the second replays every game of the first (same seeds),
    // and shows that the host's memory does not grow with the games played
    // once every library and component is loaded.
    let first = pass(1);
    let rss_first = status_kib("VmRSS:");
    let second = pass(2);
    let rss_second = status_kib("VmRSS:");

    let mut problems = Vec::new();
    let mut texts = vec![vec![String::new(); Runtime::ALL.len()]; BEHAVIOURS.len()];
    for (row, (behaviour, _)) in BEHAVIOURS.iter().enumerate() {
        for (column, runtime) in Runtime::ALL.into_iter().enumerate() {
            if let Err(why) = applies(behaviour, runtime) {
                texts[row][column] = format!("n/a: {why}");
            }
        }
    }
    for (((row, column), one), (_, two)) in first.into_iter().zip(second) {
        let (behaviour, runtime) = (BEHAVIOURS[row].0, Runtime::ALL[column]);
        let mut cell_problems = one.problems;
        cell_problems.extend(two.problems);
        // `cpu-burners` is caught at the first call after its children's CPU
        // time passes the cap: which call that is depends on the machine's load.
        if one.fingerprint != two.fingerprint && behaviour != "cpu-burners" {
            cell_problems.push("the replay differs".into());
        }
        let mut text = one.text;
        for p in &cell_problems {
            text.push_str(&format!("; **{p}**"));
            problems.push(format!("{behaviour} in {}: {p}", runtime.name()));
        }
        texts[row][column] = text;
    }
    let rows: Vec<(String, Vec<String>)> = BEHAVIOURS
        .iter()
        .zip(texts)
        .map(|((behaviour, what), cells)| (format!("`{behaviour}`: {what}"), cells))
        .collect();

    if !eventually(Duration::from_secs(60), || threads() <= threads_before) {
        problems.push(format!("threads {threads_before} -> {}", threads()));
    }
    if !eventually(Duration::from_secs(60), || children().is_empty()) {
        problems.push(format!("child processes left: {:?}", children()));
    }
    println!(
        "zoo: {:.1} s; host RSS {rss_before} -> {rss_first} -> {rss_second} KiB \
         (peak {} KiB); threads {threads_before} -> {}",
        started.elapsed().as_secs_f64(),
        status_kib("VmHWM:"),
        threads()
    );
    // The first pass loads every library and component once: bounded by
    // the zoo's size. The second must not grow it.
    if rss_first > rss_before + GIB_2_IN_KIB {
        problems.push(format!(
            "the first pass grew the host from {rss_before} KiB to {rss_first} KiB"
        ));
    }
    if rss_second > rss_first + MIB_64_IN_KIB {
        problems.push(format!(
            "the second pass grew the host from {rss_first} KiB to {rss_second} KiB"
        ));
    }

    let page = render(&rows);
    let path = root().join("docs/SANDBOX.md");
    if std::env::var_os("UPDATE_SANDBOX").is_some() {
        std::fs::write(&path, &page).expect("docs/SANDBOX.md is writable");
    }
    assert!(
        problems.is_empty(),
        "not contained:\n{}",
        problems.join("\n")
    );
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let (then, now) = (outcomes(&committed), outcomes(&page));
    assert!(
        then == now,
        "docs/SANDBOX.md no longer says what the zoo does; check the change, then \
         rerun with UPDATE_SANDBOX=1 to rewrite it:\n{}",
        diff(&then, &now)
    );
}

#[test]
fn timings_are_left_out_of_the_comparison() {
    assert_eq!(
        outcomes("| `timeout` [1.02 s] | `crash` [0.00 s]; x [y] |"),
        "| `timeout` | `crash`; x [y] |"
    );
}

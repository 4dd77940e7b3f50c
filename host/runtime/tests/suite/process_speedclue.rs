//! 2014 Speed Clue bots over TCP: a small Python bot through whole games,
//! launch lines as the contest's launch files wrote them, and a bot that
//! breaks the protocol.

use std::path::Path;
use std::time::Duration;

use clue_engine::{GameConfig, Outcome, SeatController, play};
use clue_plugin_api::{DqReason, Variant};
use clue_runtime::bots::builtin;
use clue_runtime::process::ProcessLimits;
use clue_runtime::process::speedclue::SpeedclueBot;
use clue_runtime::sandbox::SandboxPolicy;

fn speedbot(id: Option<&str>) -> String {
    match id {
        Some(id) => speedbot_as("", id),
        None => format!("python3 {}", speedbot_script().display()),
    }
}

fn speedbot_script() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/process_bots/speedbot.py")
}

/// `speedbot.py FLAGS {ID} %%`: the launch line of the test bot in a mode.
fn speedbot_as(flags: &str, id: &str) -> String {
    format!(
        "python3 {} {flags} {{{id}}} %%",
        speedbot_script().display()
    )
}

fn limits() -> ProcessLimits {
    ProcessLimits {
        startup: Duration::from_secs(20),
        message: Duration::from_secs(10),
        ..ProcessLimits::default()
    }
}

/// Sandboxed, a bot connects to the listener made in its own network
/// namespace; unsandboxed (`--no-sandbox`), to the host's.
#[test]
fn python_tcp_bots_play_whole_games() {
    let runs = [
        (3u8, 1u64, SandboxPolicy::on()),
        (4, 2, SandboxPolicy::on()),
        (6, 3, SandboxPolicy::on()),
        (3, 1, SandboxPolicy::off()),
    ];
    for (players, seed, sandbox) in runs {
        let config = GameConfig::new(Variant::Speedclue, players);
        let limits = ProcessLimits {
            sandbox,
            ..limits()
        };
        let mut seats: Vec<Box<dyn SeatController>> = Vec::new();
        for i in 0..players {
            if i < 2 {
                let id = format!("Holmes{i}");
                let launch = speedbot(if i == 0 { Some(&id) } else { None });
                seats.push(Box::new(
                    SpeedclueBot::spawn(&launch, &limits).expect("starts"),
                ));
            } else {
                seats.push(builtin("notebook").expect("built-in"));
            }
        }
        let record = play(&config, seed, &mut seats).expect("valid");
        for seat in &record.seats {
            assert!(
                !matches!(seat.outcome, Outcome::Disqualified(_)),
                "{players} players: seat {} {:?} {:?}",
                seat.seat.0,
                seat.outcome,
                seat.detail
            );
        }
        assert!(record.winner.is_some() || record.rounds > 0);
    }
}

#[test]
fn a_wrong_alive_line_is_a_protocol_error() {
    let config = GameConfig::new(Variant::Speedclue, 3);
    let launch = "python3 -c 'import socket,sys,time; s=socket.create_connection((\"127.0.0.1\", int(sys.argv[2]))); s.sendall(b\"hello\\n\"); time.sleep(30)'";
    let bot = SpeedclueBot::spawn(launch, &limits()).expect("starts");
    let mut seats: Vec<Box<dyn SeatController>> = vec![
        Box::new(bot),
        builtin("notebook").expect("built-in"),
        builtin("clueless").expect("built-in"),
    ];
    let record = play(&config, 1, &mut seats).expect("valid");
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(DqReason::ProtocolError)
    );
    let detail = record.seats[0].detail.clone().unwrap_or_default();
    assert!(detail.contains("`hello`"), "{detail}");
}

#[test]
fn a_bot_that_never_connects_times_out() {
    let config = GameConfig::new(Variant::Speedclue, 3);
    let quick = ProcessLimits {
        startup: Duration::from_millis(300),
        ..limits()
    };
    let bot = SpeedclueBot::spawn("sh -c 'sleep 30'", &quick).expect("starts");
    let mut seats: Vec<Box<dyn SeatController>> = vec![
        Box::new(bot),
        builtin("notebook").expect("built-in"),
        builtin("clueless").expect("built-in"),
    ];
    let record = play(&config, 1, &mut seats).expect("valid");
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(DqReason::Timeout)
    );
}

/// Compiles the contest-style Java entrant once per content (cached under
/// the test's temporary directory) and returns its class directory.
fn java_entrant() -> std::path::PathBuf {
    use std::hash::{Hash, Hasher};
    let source =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/process_bots/java/ContestStyleBot.java");
    let text = std::fs::read_to_string(&source).expect("the Java entrant's source");
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("contest-java-{:016x}", hasher.finish()));
    if !dir.join("ContestStyleBot.class").exists() {
        std::fs::create_dir_all(&dir).expect("class directory");
        let status = std::process::Command::new("javac")
            .arg("-d")
            .arg(&dir)
            .arg(&source)
            .status()
            .expect("javac runs (install a JDK, e.g. `apt-get install default-jdk`)");
        assert!(status.success(), "javac failed on {}", source.display());
    }
    dir
}

/// Plays 3- to 6-player games with `launch(i)` seated in the first two
/// seats and built-in bots in the rest, under the default limits; none of
/// the launched bots may be disqualified.
fn plays_whole_games(launch: impl Fn(u8) -> String) {
    for (players, seed) in [(3u8, 11u64), (4, 12), (5, 13), (6, 14)] {
        let config = GameConfig::new(Variant::Speedclue, players);
        let mut seats: Vec<Box<dyn SeatController>> = Vec::new();
        for i in 0..players {
            if i < 2 {
                seats.push(Box::new(
                    SpeedclueBot::spawn(&launch(i), &ProcessLimits::default()).expect("starts"),
                ));
            } else {
                seats.push(
                    builtin(if i % 2 == 0 { "sleuth" } else { "notebook" }).expect("built-in"),
                );
            }
        }
        let record = play(&config, seed, &mut seats).expect("valid");
        for seat in &record.seats {
            assert!(
                !matches!(seat.outcome, Outcome::Disqualified(_)),
                "{players} players: seat {} {:?} {:?}",
                seat.seat.0,
                seat.outcome,
                seat.detail
            );
        }
        assert!(record.rounds > 0);
    }
}

#[test]
fn a_java_entrant_in_the_contest_base_class_style_plays_under_default_limits() {
    let classes = java_entrant();
    plays_whole_games(|i| {
        format!(
            "java -cp {} ContestStyleBot {{Java{i}}} %%",
            classes.display()
        )
    });
}

#[test]
fn a_python_entrant_with_the_buffer_messager_plays() {
    plays_whole_games(|i| speedbot_as("--buffer", &format!("Buf{i}")));
}

#[test]
fn a_python_entrant_with_the_line_messager_plays() {
    plays_whole_games(|i| speedbot_as("", &format!("Line{i}")));
}

/// TCP keeps no message boundaries: `--split` sends every answer of more
/// than one word in two writes 50 ms apart, cut right after its first word
/// (`suggest` | ` Gr Kn Di`, `show` | ` Kn`, `accuse` | ` Pl Ro Ki`). The
/// host reads on until the answer is whole (docs/speedclue.md, "Framing").
#[test]
fn an_answer_cut_after_the_word_suggest_is_put_together() {
    plays_whole_games(|i| speedbot_as("--buffer --split", &format!("Cut{i}")));
}

/// A bot seated first that says `ID alive` as given, then answers `reset`
/// with `answer` in one write.
fn answers_reset_with(alive: &str, answer: &str) -> (Outcome, String) {
    let launch = format!(
        "python3 -c 'import socket,sys,time; s=socket.create_connection((\"127.0.0.1\", int(sys.argv[2]))); s.sendall(b\"{alive}\"); s.recv(512); s.sendall(b\"{answer}\"); time.sleep(30)' {{Two}} %%"
    );
    let bot = SpeedclueBot::spawn(&launch, &limits()).expect("starts");
    let mut seats: Vec<Box<dyn SeatController>> = vec![
        Box::new(bot),
        builtin("notebook").expect("built-in"),
        builtin("clueless").expect("built-in"),
    ];
    let config = GameConfig::new(Variant::Speedclue, 3);
    let record = play(&config, 1, &mut seats).expect("valid");
    (
        record.seats[0].outcome,
        record.seats[0].detail.clone().unwrap_or_default(),
    )
}

/// Two messages in one read cannot come from a bot that waits for its
/// question: bare, they are longer than any whole answer and refused as one
/// message; as lines, the second is left for the next question, which it
/// does not answer.
#[test]
fn two_answers_in_one_read_are_a_protocol_error() {
    let (outcome, detail) = answers_reset_with("Two alive", "okok");
    assert_eq!(outcome, Outcome::Disqualified(DqReason::ProtocolError));
    assert!(
        detail.contains("sent `okok` in answer to `reset"),
        "{detail}"
    );
    let (outcome, detail) = answers_reset_with("Two alive\\n", "ok\\nok\\n");
    assert_eq!(outcome, Outcome::Disqualified(DqReason::ProtocolError));
    assert!(
        detail.contains("sent `ok` in answer to `suggest`"),
        "{detail}"
    );
}

/// The detail of the disqualification for `reason` of `launch`, seated
/// first under `limits` against two built-in bots.
fn first_seat(launch: &str, limits: &ProcessLimits, reason: DqReason) -> String {
    let bot = SpeedclueBot::spawn(launch, limits).expect("starts");
    let mut seats: Vec<Box<dyn SeatController>> = vec![
        Box::new(bot),
        builtin("notebook").expect("built-in"),
        builtin("clueless").expect("built-in"),
    ];
    let record = play(&GameConfig::new(Variant::Speedclue, 3), 1, &mut seats).expect("valid");
    let detail = record.seats[0].detail.clone().unwrap_or_default();
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(reason),
        "{detail}"
    );
    detail
}

/// A bot that writes to a buffered writer it never flushes sends nothing,
/// and then waits to read, as the host waits for it: its timeout says so and
/// how to flush, sandboxed (its connection in its own network namespace) or
/// not.
#[test]
fn a_bot_that_does_not_flush_is_told_to() {
    for sandbox in [SandboxPolicy::on(), SandboxPolicy::off()] {
        let quick = ProcessLimits {
            startup: Duration::from_secs(5),
            sandbox,
            ..limits()
        };
        let launch = speedbot_as("--no-flush", "Mute");
        let detail = first_seat(&launch, &quick, DqReason::Timeout);
        assert!(
            detail.starts_with("no `ID alive` within 5000 ms"),
            "{detail}"
        );
        assert!(
            detail.contains("it was waiting to read its connection")
                && detail.contains("did not flush")
                && detail.contains("`makefile` writer"),
            "{detail}"
        );
        assert!(
            detail.contains("the bot speaks first (`Mute alive`"),
            "{detail}"
        );
        // Not told about lines: it has not said `ID alive` yet.
        assert!(!detail.contains("whole lines"), "{detail}");
    }
}

/// The same mistake in Java (a `PrintWriter` made without auto-flush) is
/// told the same: its socket is a dual-stack IPv6 one, in the bot's `tcp6`
/// table.
#[test]
fn a_java_bot_that_does_not_flush_is_told_to() {
    let classes = java_entrant();
    let quick = ProcessLimits {
        startup: Duration::from_secs(8),
        ..limits()
    };
    let launch = format!(
        "java -cp {} ContestStyleBot {{Mute}} %% --no-flush",
        classes.display()
    );
    let detail = first_seat(&launch, &quick, DqReason::Timeout);
    assert!(
        detail.contains("it was waiting to read its connection") && detail.contains("Java's"),
        "{detail}"
    );
}

/// A Node bot whose `data` handler answers nothing waits in its event loop
/// (`epoll_pwait`), not in `read`: it is told so, sandboxed or not. (No
/// braces around anything in its script: the first such pair names the bot.)
#[test]
fn a_node_bot_that_answers_nothing_is_told_its_event_loop_waits() {
    let script = "const [id, port] = process.argv.slice(1);\n\
        const socket = require(\"net\").connect(+port, \"127.0.0.1\", \
            () => socket.write(id + \" alive\\n\"));\n\
        socket.on(\"data\", () => null);";
    for sandbox in [SandboxPolicy::on(), SandboxPolicy::off()] {
        let quick = ProcessLimits {
            message: Duration::from_secs(2),
            sandbox,
            ..limits()
        };
        let launch = format!("node -e '{script}' {{Quiet}} %%");
        let detail = first_seat(&launch, &quick, DqReason::Timeout);
        assert!(
            detail.contains("no answer to `reset")
                && detail.contains(
                    "; it was waiting in its event loop for its connection, with no timer \
                     pending, as if it had answered: it wrote no answer (a message its code \
                     passes over, or an error caught and passed over)"
                ),
            "{detail}"
        );
        // Node writes a socket at once: flushing is not the matter.
        assert!(!detail.contains("flush"), "{detail}");
    }
}

/// A bot that waits for its connection in `select` or `poll`, as the
/// contest's C entrants could, keeps the descriptors it waits on in its own
/// memory; read from there, it is told it waits for the host as the host
/// waits for it. With a timeout it may be waiting for that, and is not told.
#[test]
fn a_bot_polling_or_selecting_its_connection_is_told_it_waits() {
    let bot = |wait: &str| {
        let script = format!(
            "import select, socket, sys\n\
             connection = socket.create_connection((\"127.0.0.1\", int(sys.argv[2])))\n\
             connection.sendall((sys.argv[1] + \" alive\\n\").encode())\n\
             poller = select.poll()\n\
             poller.register(connection, select.POLLIN)\n\
             while True:\n\
             \x20   {wait}\n\
             \x20   connection.recv(4096)"
        );
        format!("python3 -c '{script}' {{Quiet}} %%")
    };
    for sandbox in [SandboxPolicy::on(), SandboxPolicy::off()] {
        let quick = ProcessLimits {
            message: Duration::from_secs(2),
            sandbox,
            ..limits()
        };
        for wait in ["select.select([connection], [], [])", "poller.poll()"] {
            let detail = first_seat(&bot(wait), &quick, DqReason::Timeout);
            assert!(
                detail.contains("no answer to `reset")
                    && detail.contains(
                        "; it was waiting in its event loop for its connection, with no timer \
                         pending, as if it had answered: it wrote no answer (a message its \
                         code passes over, or an error caught and passed over)"
                    ),
                "{wait}: {detail}"
            );
        }
        for wait in [
            "select.select([connection], [], [], 600)",
            "poller.poll(600000)",
        ] {
            let detail = first_seat(&bot(wait), &quick, DqReason::Timeout);
            assert!(
                detail.contains("no answer to `reset") && !detail.contains("waiting"),
                "{wait}: {detail}"
            );
        }
    }
}

/// A bot that says `ID alive` without a newline is sent messages without
/// one, as the contest's server sends them; one that reads lines then waits
/// for a newline that never comes, and is told why.
#[test]
fn a_line_reading_bot_sent_bare_messages_is_told_why() {
    let quick = ProcessLimits {
        message: Duration::from_secs(2),
        ..limits()
    };
    let launch = speedbot_as("--bare-alive", "Bare");
    let detail = first_seat(&launch, &quick, DqReason::Timeout);
    assert!(detail.contains("no answer to `reset"), "{detail}");
    assert!(
        detail.contains("it was waiting to read its connection")
            && detail.contains("its `ID alive` had no newline"),
        "{detail}"
    );
}

/// A bot that times out computing (here asleep, not reading) is not told
/// about flushing.
#[test]
fn a_bot_that_is_slow_is_not_told_to_flush() {
    let quick = ProcessLimits {
        message: Duration::from_secs(1),
        ..limits()
    };
    let launch = "python3 -c 'import socket,sys,time; s=socket.create_connection((\"127.0.0.1\", int(sys.argv[2]))); s.sendall(b\"Slow alive\\n\"); time.sleep(30)' {Slow} %%";
    let detail = first_seat(launch, &quick, DqReason::Timeout);
    assert!(detail.starts_with("no "), "{detail}");
    assert!(!detail.contains("waiting to read"), "{detail}");
}

/// A repeated suggestion, which the contest's rules forbid, is told with
/// the cards as the contest's protocol writes them (`Gr`), not as the host
/// numbers its deck.
#[test]
fn a_repeated_suggestion_names_the_cards_by_their_codes() {
    let launch = speedbot_as("--repeat", "Again");
    let detail = first_seat(&launch, &limits(), DqReason::RepeatedSuggestion);
    assert_eq!(
        detail,
        "repeated its suggestion Mr. Green (Gr), Knife (Kn), Dining Room (Di), which the \
         contest rules forbid"
    );
}

//! Issue 15's acceptance: a Java bot with no memory flags (no `-Xmx`, no
//! `-XX:` option) plays a tournament under the defaults: `clue tournament
//! run`, the real binary, with the sandbox on (the default) and the default
//! limits, whose memory cap is the bot's memory cgroup, not an address-space
//! limit a JVM's reservations would trip over (docs/process-sandbox.md).

use crate::compiled;
use crate::game_checks;

use std::path::{Path, PathBuf};
use std::process::Command;

use clue_arena::store::Store;
use game_checks::{assert_none_disqualified, assert_reached_its_end};

/// Runs `program -version`, failing the test with what to install when it
/// is missing: this test is not skipped on a machine without a JDK.
fn require(program: &str) {
    let found = Command::new(program)
        .arg("-version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "`{program}` is missing: this test needs a JDK 17 or later on PATH \
         (Debian/Ubuntu: `apt-get install openjdk-17-jdk-headless`)"
    );
}

/// The Java framework example, compiled once with `javac` (no flags), in a
/// folder the sandboxed bot's unprivileged uid can read.
fn java_classes() -> PathBuf {
    require("javac");
    require("java");
    let source = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../plugins/java-framework-example/FrameworkBot.java");
    let dir = compiled::cached(&source, |source, into| {
        let status = Command::new("javac")
            .arg("-d")
            .arg(into)
            .arg(source)
            .status()
            .expect("javac runs");
        assert!(status.success(), "javac failed on {}", source.display());
    });
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755))
        .expect("the classes' folder opens up");
    dir
}

/// The bot's `/sys/fs/cgroup` holds its own cgroups only (the other bots'
/// are masked, docs/process-sandbox.md), laid out as in a container: a JVM
/// still finds its memory cgroup there and sizes itself by its cap.
#[test]
fn a_sandboxed_jvm_finds_its_own_memory_limit() {
    use clue_runtime::process::{BotProcess, ProcessLimits};
    use clue_runtime::sandbox::SandboxPolicy;
    require("java");
    let limits = ProcessLimits {
        sandbox: SandboxPolicy::on(),
        ..ProcessLimits::default()
    };
    let argv = [
        "sh".to_string(),
        "-c".to_string(),
        "echo $(java -XshowSettings:system -version 2>&1 | grep -E 'Provider|Memory Limit:')"
            .to_string(),
    ];
    let mut bot = BotProcess::spawn(&argv, &limits).expect("the bot starts");
    let seen = bot
        .recv(std::time::Duration::from_secs(60), "what the JVM sees")
        .unwrap_or_else(|f| panic!("no line: {f:?}; stderr {}", bot.stderr().text()));
    let cap = limits.sandbox.memory.expect("a default memory cap");
    let gib = cap as f64 / f64::from(1u32 << 30);
    assert!(
        seen.contains("Provider: cgroupv") && seen.contains(&format!("Memory Limit: {gib:.2}G")),
        "the JVM reads its {cap}-byte memory cgroup: {seen:?}"
    );
}

#[test]
fn a_java_bot_with_no_memory_flags_plays_a_tournament_under_the_defaults() {
    let classes = java_classes();
    let dir = tempfile::tempdir().expect("a scratch directory");
    let file = dir.path().join("jvm.yaml");
    let db = dir.path().join("results.sqlite");
    // No `limits:` and no `sandbox:`: the defaults (sandbox on, 2 GiB of
    // memory for the bot's cgroup), but a per-call time a loaded machine's
    // JVM start-up stays within. The command has no memory flag.
    let text = format!(
        "variant: framework
players: 3
seed: 15
options: {{max_rounds: 200, width: 10, persons: 6, weapons: 6}}
limits: {{time_per_call_ms: 20000}}
schedule: {{kind: all-seatings, repeats: 1}}
bots:
  - {{name: notebook, kind: builtin, path: notebook}}
  - {{name: clueless, kind: builtin, path: clueless}}
  - {{name: java, kind: framework, command: \"java -cp {} FrameworkBot\"}}
",
        classes.display()
    );
    assert!(!text.contains("-X"), "the Java bot has no JVM option");
    std::fs::write(&file, &text).expect("the tournament file is written");
    let output = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["tournament", "run"])
        .arg(&file)
        .arg("--db")
        .arg(&db)
        .arg("--quiet")
        .output()
        .expect("clue runs");
    assert!(
        output.status.success(),
        "clue tournament run failed:\n{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let store = Store::open(&db).expect("the store opens");
    let games = store.games().expect("the games are stored");
    // Three bots, three seats, every seating once.
    assert_eq!(games.len(), 6, "{text}");
    for game in &games {
        let java = game
            .seats
            .iter()
            .find(|s| s.bot.as_deref() == Some("java"))
            .unwrap_or_else(|| panic!("game {}: the Java bot has no seat", game.index));
        assert_ne!(
            java.outcome, "disqualified",
            "game {}: the Java bot was disqualified: {:?} {:?}",
            game.index, java.dq_reason, java.detail
        );
        assert_none_disqualified(game, "");
        assert_reached_its_end(&store, game, "");
    }
}

//! Bots in Python and JavaScript as `clue:player@0.2.0` components
//! (docs/wasm.md, "Other languages"): the examples in
//! `plugins/python-wasm-example` (componentize-py) and
//! `plugins/js-wasm-example` (componentize-js) play every variant legally and
//! replay identically from a seed, and the sandbox holds for an interpreter as
//! it does for Rust.
//!
//! The toolchains are pinned and installed into the example folders by
//! `scripts/setup --wasm-languages` (CI: `scripts/setup --test`); without
//! them every test here fails saying so. The components are built once per
//! test binary into `$CARGO_TARGET_DIR/wasm-languages/tests`.

use crate::game_checks;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use clue_arena::store::Store;
use clue_engine::{GameConfig, GameRecord, Outcome, SeatController, play};
use clue_plugin_api::Variant;
use clue_runtime::bots::builtin;
use clue_runtime::wasm::{WasmBot, WasmError, WasmLimits, prepare};
use game_checks::{EVERY_VARIANT, assert_none_disqualified, assert_reached_its_end};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn out_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"))
        .join("wasm-languages")
        // Not where tournaments/languages.yaml builds (the tournament test
        // rebuilds those files while the other tests read these).
        .join("tests")
}

/// Runs a build command; panics with its output (which names the setup
/// command when a toolchain is missing) if it fails.
fn run(mut command: Command, what: &str) {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {command:?}: {e}"));
    assert!(
        output.status.success(),
        "{what} failed ({}):\n{}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A tool the setup installs into an example folder, or a panic saying how
/// to install it.
fn tool(relative: &str) -> PathBuf {
    let path = workspace().join(relative);
    assert!(
        path.exists(),
        "{} is missing: run `scripts/setup --wasm-languages` (it installs the \
         pinned componentize-py and componentize-js into the example folders)",
        path.display()
    );
    path
}

/// An example bot built by its own `build` script, once.
fn example(dir: &str) -> PathBuf {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    static JS: OnceLock<PathBuf> = OnceLock::new();
    let cell = if dir == "python-wasm-example" {
        &PYTHON
    } else {
        &JS
    };
    cell.get_or_init(|| {
        let out = out_dir().join(format!("{dir}.wasm"));
        let mut command = Command::new(workspace().join("plugins").join(dir).join("build"));
        command.arg(&out);
        run(command, &format!("plugins/{dir}/build"));
        out
    })
    .clone()
}

fn python() -> PathBuf {
    example("python-wasm-example")
}

fn js() -> PathBuf {
    example("js-wasm-example")
}

/// The limits docs/wasm.md recommends for an interpreter: the time limit's
/// fuel, and 64 MiB of linear memory (room for a bot's own state over the
/// interpreter's heap).
fn interpreter_limits() -> WasmLimits {
    WasmLimits {
        memory_bytes: 64 << 20,
        ..WasmLimits::default()
    }
}

/// One game: the component in seat 0 (the only bot in UniClue), built-in
/// bots in the other seats. Returns the record and the component's fuel.
fn game(path: &Path, variant: Variant, players: u8, seed: u64) -> (GameRecord, Option<u64>) {
    let config = GameConfig::new(variant, players);
    let bot = WasmBot::load(path, interpreter_limits()).unwrap_or_else(|e| panic!("{e}"));
    let mut bots: Vec<Box<dyn SeatController>> = vec![Box::new(bot)];
    if variant != Variant::Uniclue {
        for i in 1..players {
            let name = if i % 2 == 1 { "notebook" } else { "clueless" };
            bots.push(builtin(name).expect("built-in"));
        }
    }
    let record = play(&config, seed, &mut bots).expect("the game starts");
    let fuel = bots[0].fuel_used();
    (record, fuel)
}

/// Plays every variant twice from the same seed: no seat is disqualified,
/// and the two games are the same, event for event, fuel for fuel.
fn plays_every_variant_twice_alike(path: &Path) {
    for (variant, players) in EVERY_VARIANT {
        let (first, fuel) = game(path, variant, players, 40 + players as u64);
        for seat in &first.seats {
            assert!(
                !matches!(seat.outcome, Outcome::Disqualified(_)),
                "{variant}: seat {:?} disqualified: {:?} {:?}",
                seat.seat,
                seat.outcome,
                seat.detail
            );
        }
        assert!(fuel.unwrap_or(0) > 0, "{variant}: the component was called");
        assert!(
            first.winner.is_some() || first.rounds > 0,
            "{variant}: the game was played"
        );
        // The figures of docs/wasm.md's fuel table (`--nocapture` shows them).
        let calls = first.seats[0].calls;
        eprintln!(
            "{}: {variant}: {} fuel in {calls} calls, {} a call",
            path.display(),
            fuel.unwrap_or(0),
            fuel.unwrap_or(0) / u64::from(calls.max(1))
        );
        let (second, fuel_again) = game(path, variant, players, 40 + players as u64);
        assert_eq!(first, second, "{variant}: the same game from the same seed");
        assert_eq!(fuel, fuel_again, "{variant}: the same fuel");
    }
}

#[test]
fn the_python_component_plays_every_variant_twice_alike() {
    plays_every_variant_twice_alike(&python());
}

#[test]
fn the_javascript_component_plays_every_variant_twice_alike() {
    plays_every_variant_twice_alike(&js());
}

#[test]
fn both_examples_are_0_2_components_with_their_names() {
    for (path, name) in [(python(), "python-wasm-example"), (js(), "js-wasm-example")] {
        let prepared = prepare(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(prepared.wit_version, "0.2.0");
        assert_eq!(prepared.name, name);
    }
}

#[test]
fn both_examples_fit_the_default_limits() {
    // docs/wasm.md's table: the examples stay within the default 16 MiB and
    // 5e9 fuel a call; bigger interpreted bots get the interpreter limits.
    for path in [python(), js()] {
        let bot = WasmBot::load(&path, WasmLimits::default()).unwrap_or_else(|e| panic!("{e}"));
        let config = GameConfig::new(Variant::Speedclue, 4);
        let mut bots: Vec<Box<dyn SeatController>> = vec![Box::new(bot)];
        for _ in 1..4 {
            bots.push(builtin("notebook").expect("built-in"));
        }
        let record = play(&config, 1, &mut bots).expect("starts");
        assert!(
            !matches!(record.seats[0].outcome, Outcome::Disqualified(_)),
            "{}: {:?}",
            path.display(),
            record.seats[0]
        );
    }
}

/// Builds a probe of `sandbox-tests/wasm-languages` with the examples' tools.
fn probe(file: &str, extra: &[&str]) -> PathBuf {
    let dir = workspace().join("sandbox-tests/wasm-languages");
    let wit = workspace().join("plugin-api/wit/player.wit");
    let out = out_dir().join(format!(
        "probe-{}{}.wasm",
        file.replace('.', "-"),
        extra.len()
    ));
    std::fs::create_dir_all(out_dir()).expect("out dir");
    let mut command;
    if file.ends_with(".py") {
        command = Command::new(tool(
            "plugins/python-wasm-example/.venv/bin/componentize-py",
        ));
        command
            .arg("-d")
            .arg(&wit)
            .args(["-w", "bot", "componentize", "-p"])
            .arg(&dir)
            .arg("probe")
            .arg("-o")
            .arg(&out);
    } else {
        command = Command::new(tool(
            "plugins/js-wasm-example/node_modules/.bin/componentize-js",
        ));
        command
            .arg("--wit")
            .arg(&wit)
            .args(["--world-name", "bot"])
            .args(extra)
            .arg("-o")
            .arg(&out)
            .arg(dir.join(file));
    }
    run(command, &format!("building {file}"));
    out
}

#[test]
fn a_python_guest_finds_no_file_environment_or_network() {
    let path = probe("probe.py", &[]);
    let prepared = prepare(&path).unwrap_or_else(|e| panic!("{e}"));
    // What it found, as its name: no file, an empty root, no variables, no socket.
    let found = &prepared.name;
    assert!(found.contains("file:FileNotFoundError"), "{found}");
    assert!(
        found.contains("dir:FileNotFoundError") || found.contains("dir: "),
        "{found}"
    );
    assert!(found.contains("env: "), "{found}");
    assert!(!found.contains("net:connected"), "{found}");
}

#[test]
fn a_javascript_guest_finds_no_file_environment_or_network() {
    let path = probe("probe.js", &["--disable", "http", "fetch-event"]);
    let prepared = prepare(&path).unwrap_or_else(|e| panic!("{e}"));
    let found = &prepared.name;
    // StarlingMonkey has no file, environment or module-loading API; its one
    // way out, fetch, needs wasi:http (the next test).
    assert!(found.contains("process:undefined"), "{found}");
    assert!(found.contains("require:undefined"), "{found}");
}

#[test]
fn a_javascript_guest_that_imports_wasi_http_is_refused_at_load() {
    let path = probe("probe.js", &[]);
    let err = prepare(&path).err().expect("refused");
    assert!(matches!(err, WasmError::Link { .. }), "{err}");
    assert!(err.to_string().contains("wasi:http"), "{err}");
}

#[test]
fn the_languages_tournament_seats_rust_python_and_javascript_components_with_a_process_bot() {
    // The tournament builds its own bots (`build:`), into target/wasm-languages.
    tool("plugins/python-wasm-example/.venv/bin/componentize-py");
    tool("plugins/js-wasm-example/node_modules/.bin/componentize-js");
    let dir = tempfile::tempdir().expect("a temp dir");
    let db = dir.path().join("languages.sqlite");
    let output = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["tournament", "run", "tournaments/languages.yaml", "--db"])
        .arg(&db)
        .current_dir(workspace())
        .output()
        .expect("clue runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "clue tournament run failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for name in [
        "clueless-rust-wasm",
        "python-wasm",
        "js-wasm",
        "python-process",
    ] {
        assert!(stdout.contains(name), "{name} in the standings:\n{stdout}");
    }
    // Every seating of the four (4! games), each played to its end, and no
    // seat disqualified: the interpreters fit the limits the file gives them.
    let store = Store::open(&db).expect("the store opens");
    let games = store.games().expect("the games are stored");
    assert_eq!(games.len(), 24, "every seating of four bots:\n{stdout}");
    for game in &games {
        assert_eq!(game.seats.len(), 4, "game {}", game.index);
        assert_none_disqualified(game, "");
        assert_reached_its_end(&store, game, "");
    }
}

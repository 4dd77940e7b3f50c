//! The per-call cost of a native plugin, trusted (in-process) and isolated (a
//! worker process), against the same bot built in; and a whole game of each.
//! A plain timing harness, like `wasm_runtime`. Run:
//!
//!     cargo bench -p clue-cli --bench native
//!
//! It builds `plugins/notebook` and the test plugins `panicky` and
//! `loudpanic` (`host/cli/tests/plugins`) in release into
//! `target/native-tests` first.
//!
//! The second table is the time from a trusted plugin's panic to its `crash`
//! label: `panicky` panics under the quiet hook every plugin installs, and
//! `loudpanic` puts the standard hook back first, as plugins built before it
//! behaved. Run it with `RUST_BACKTRACE=1` to see what the standard hook
//! costs (it symbolises a backtrace of the whole process).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use clue_engine::{GameConfig, SeatController, play};
use clue_plugin_api::{
    Card, Event, Request, RespondRequest, Rules, Seat, Setup, Suggestion, Variant,
};
use clue_runtime::bots::builtin;
use clue_runtime::native::isolated::worker_limits;
use clue_runtime::native::{DEFAULT_CALL_LIMIT, IsolatedNative, TrustedNative};

const CALLS: u32 = 20_000;

/// Makes a fresh seat of one kind of bot.
type Factory<'a> = &'a dyn Fn() -> Box<dyn SeatController>;
const GAMES: u64 = 30;

/// Builds the plugins this benchmark loads and returns the folder they are in.
fn plugins() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let target = root.join("target").join("native-tests");
    let manifest = root.join("host/cli/tests/plugins/Cargo.toml");
    for args in [
        &["-p", "notebook"][..],
        &["--manifest-path", manifest.to_str().expect("a UTF-8 path")][..],
    ] {
        let status = Command::new(env!("CARGO"))
            .current_dir(&root)
            .args(["build", "--quiet", "--release"])
            .args(args)
            .arg("--target-dir")
            .arg(&target)
            .status()
            .expect("cargo runs");
        assert!(status.success(), "cargo build {args:?} failed");
    }
    target.join("release")
}

fn library_in(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!(
        "{}{name}{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    ))
}

const PANICS: u32 = 20;

/// The first and the mean of `PANICS` times from a `begin_game` that panics
/// to the fault, each on a fresh player.
fn panic_to_label(library: &Path) -> (Duration, Duration) {
    let mut times = Vec::new();
    for _ in 0..PANICS {
        let mut bot = TrustedNative::load(library, DEFAULT_CALL_LIMIT).expect("loads");
        let started = Instant::now();
        let fault = bot
            .call(&Request::BeginGame {
                setup: Box::new(setup()),
            })
            .expect_err("the plugin panics");
        times.push(started.elapsed());
        assert_eq!(fault.reason, clue_plugin_api::DqReason::Crash, "{fault}");
    }
    (times[0], times.iter().sum::<Duration>() / PANICS)
}

fn setup() -> Setup {
    Setup {
        variant: Variant::Speedclue,
        rules: Rules::speedclue_contest(),
        players: 4,
        seat: Seat(0),
        deck: clue_engine::decks::classic(),
        hand: vec![Card(0), Card(6), Card(12), Card(13), Card(14)],
        hand_sizes: vec![5, 5, 4, 4],
        board: None,
        starts: Vec::new(),
        seed: 1,
    }
}

/// The two requests timed: a `respond` (a decision) and a `watch` (an event).
fn requests() -> [Request; 2] {
    let suggestion = Suggestion {
        cards: vec![Card(0), Card(6), Card(12)],
        target: None,
    };
    [
        Request::Respond(RespondRequest {
            suggester: Seat(1),
            suggestion: suggestion.clone(),
            matching: vec![Card(6), Card(12)],
        }),
        Request::Watch {
            event: Event::Suggested {
                seat: Seat(2),
                suggestion,
            },
        },
    ]
}

/// Mean time per call over `CALLS` calls of each request.
fn per_call(bot: &mut dyn SeatController) -> [Duration; 2] {
    bot.call(&Request::BeginGame {
        setup: Box::new(setup()),
    })
    .expect("begins");
    requests().map(|request| {
        for _ in 0..CALLS / 20 {
            bot.call(&request).expect("answers");
        }
        let started = Instant::now();
        for _ in 0..CALLS {
            bot.call(&request).expect("answers");
        }
        started.elapsed() / CALLS
    })
}

/// Mean time of a 4-seat Speed Clue game with the bot in seat 0 and built-in
/// bots elsewhere, over `GAMES` seeds.
fn per_game(make: Factory) -> Duration {
    let config = GameConfig::new(Variant::Speedclue, 4);
    let started = Instant::now();
    for seed in 0..GAMES {
        let mut seats = vec![
            make(),
            builtin("clueless").expect("built-in"),
            builtin("notebook").expect("built-in"),
            builtin("clueless").expect("built-in"),
        ];
        play(&config, seed, &mut seats).expect("plays");
    }
    started.elapsed() / GAMES as u32
}

fn main() {
    let dir = plugins();
    let library = library_in(&dir, "notebook");
    let clue = Path::new(env!("CARGO_BIN_EXE_clue"));
    let builtin_bot = || builtin("notebook").expect("built-in");
    let trusted = || -> Box<dyn SeatController> {
        Box::new(TrustedNative::load(&library, DEFAULT_CALL_LIMIT).expect("loads"))
    };
    let isolated = || -> Box<dyn SeatController> {
        Box::new(IsolatedNative::spawn_with(clue, &library, &worker_limits()).expect("starts"))
    };
    let kinds: [(&str, Factory); 3] = [
        ("built-in", &builtin_bot),
        ("native, trusted", &trusted),
        ("native, isolated", &isolated),
    ];
    let mut rows = Vec::new();
    for (name, make) in kinds {
        let mut bot = make();
        let [respond, watch] = per_call(bot.as_mut());
        drop(bot);
        rows.push((name, respond, watch, per_game(make)));
    }
    let base = rows[0];
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64().max(1e-12);
    println!(
        "notebook, {CALLS} calls per request kind, {GAMES} 4-seat speedclue games (the bot in seat 0)"
    );
    println!(
        "{:<18} {:>12} {:>8} {:>12} {:>8} {:>12} {:>8}",
        "bot", "respond", "x", "watch", "x", "game", "x"
    );
    for (name, respond, watch, game) in rows {
        println!(
            "{:<18} {:>9.2} us {:>7.1}x {:>9.2} us {:>7.1}x {:>9.2} ms {:>7.1}x",
            name,
            respond.as_secs_f64() * 1e6,
            ratio(respond, base.1),
            watch.as_secs_f64() * 1e6,
            ratio(watch, base.2),
            game.as_secs_f64() * 1e3,
            ratio(game, base.3),
        );
    }

    println!();
    println!(
        "trusted plugin panic to `crash` label, {PANICS} panics each (RUST_BACKTRACE={})",
        std::env::var("RUST_BACKTRACE").unwrap_or_else(|_| "unset".into())
    );
    println!("{:<34} {:>12} {:>12}", "plugin", "first", "mean");
    for (name, plugin) in [
        ("panicky (quiet hook)", "panicky"),
        ("loudpanic (the standard hook)", "loudpanic"),
    ] {
        let (first, mean) = panic_to_label(&library_in(&dir, plugin));
        println!(
            "{:<34} {:>9.2} ms {:>9.2} ms",
            name,
            first.as_secs_f64() * 1e3,
            mean.as_secs_f64() * 1e3
        );
    }
}

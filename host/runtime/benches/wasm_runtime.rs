//! The cost of running a bot as a wasm component against the same bot built
//! in (and as a native plugin, when one is given): per call, per game, and
//! what loading costs. A plain timing harness (no criterion: its build costs
//! more than this measures). Run:
//!
//!     cargo bench -p clue-runtime --bench wasm_runtime
//!
//! Set `CLUE_BENCH_NATIVE=path/to/libnotebook.so` to add a native column.
//!
//! A second table compares the WIT versions and the languages per call: the
//! same Rust bot (`sandbox-tests/wasm-guests`: `legacy` for 0.1.0, `plain`
//! for 0.2.0) and the Python and JavaScript examples (built by their
//! `build` scripts; `scripts/setup --wasm-languages` first), each as a ratio
//! to the built-in notebook.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;
use std::time::{Duration, Instant};

use clue_engine::{Fault, GameConfig, SeatController, play};
use clue_plugin_api::{
    Card, DqReason, Event, Reply, Request, RespondRequest, Seat, Setup, Suggestion, Variant,
};
use clue_runtime::bots::{BotSpec, builtin, connect};
use clue_runtime::wasm::{WasmBot, WasmLimits, cache, prepare};

const GAMES: u64 = 30;
const CALLS: u32 = 20_000;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn target(sub: &str) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target"))
        .join(sub)
}

/// `legacy` (0.1.0) and `plain` (0.2.0), the same Rust bot in both versions.
fn guest(name: &str) -> PathBuf {
    let target = target("wasm-tests");
    let status = Command::new(env!("CARGO"))
        .current_dir(root().join("sandbox-tests/wasm-guests"))
        .args(["build", "--release", "--target", "wasm32-wasip2"])
        .args(["--example", name])
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building {name}.wasm failed");
    target.join(format!("wasm32-wasip2/release/examples/{name}.wasm"))
}

/// An example in another language, built by its script.
fn language(dir: &str) -> PathBuf {
    let out = target("wasm-languages").join(format!("{dir}.wasm"));
    let status = Command::new(root().join("plugins").join(dir).join("build"))
        .arg(&out)
        .status()
        .expect("the build script runs");
    assert!(
        status.success(),
        "plugins/{dir}/build failed (scripts/setup --wasm-languages installs its tools)"
    );
    out
}

fn notebook_wasm() -> PathBuf {
    let root = root();
    let target = target("wasm-tests");
    let status = Command::new(env!("CARGO"))
        .current_dir(&root)
        .args([
            "build",
            "--release",
            "--target",
            "wasm32-wasip2",
            "-p",
            "notebook",
        ])
        .env("CARGO_TARGET_DIR", &target)
        .status()
        .expect("cargo runs");
    assert!(status.success(), "building notebook.wasm failed");
    target.join("wasm32-wasip2/release/notebook.wasm")
}

type Factory<'a> = Box<dyn Fn() -> Box<dyn SeatController> + 'a>;

/// Plays `GAMES` four-seat speedclue games; returns time per call, calls,
/// and the fuel burnt (wasm) with the time spent.
fn games(make: &Factory) -> (Duration, u64, u64, Duration) {
    let config = GameConfig::new(Variant::Speedclue, 4);
    let mut fuel = 0u64;
    let mut calls = 0u64;
    let mut spent = Duration::ZERO;
    for seed in 0..GAMES {
        let mut bots: Vec<Box<dyn SeatController>> = (0..4).map(|_| make()).collect();
        let started = Instant::now();
        let record = play(&config, seed, &mut bots).expect("plays");
        spent += started.elapsed();
        calls += record.seats.iter().map(|s| u64::from(s.calls)).sum::<u64>();
        fuel += bots.iter().filter_map(|b| b.fuel_used()).sum::<u64>();
    }
    (spent / calls.max(1) as u32, calls, fuel, spent)
}

/// The setup seat 0 gets in a speedclue game: a seat that records it and
/// then faults (the game goes on without it).
fn setup() -> Setup {
    struct Grab(Rc<RefCell<Option<Setup>>>);
    impl SeatController for Grab {
        fn call(&mut self, r: &Request) -> Result<Reply, Fault> {
            if let Request::BeginGame { setup } = r {
                *self.0.borrow_mut() = Some((**setup).clone());
            }
            Err(Fault::new(DqReason::Crash, "only here for its setup"))
        }
    }
    let holder = Rc::new(RefCell::new(None));
    let mut bots: Vec<Box<dyn SeatController>> = vec![Box::new(Grab(holder.clone()))];
    for _ in 0..3 {
        bots.push(builtin("clueless").expect("built-in"));
    }
    let config = GameConfig::new(Variant::Speedclue, 4);
    let _ = play(&config, 1, &mut bots);
    holder.borrow().clone().expect("seat 0 was set up")
}

/// Time per call of `request` on a bot that has begun a game.
fn per_call(bot: &mut dyn SeatController, setup: &Setup, request: &Request) -> Duration {
    bot.call(&Request::BeginGame {
        setup: Box::new(setup.clone()),
    })
    .expect("begins");
    let started = Instant::now();
    for _ in 0..CALLS {
        bot.call(request).expect("answers");
    }
    started.elapsed() / CALLS
}

fn main() {
    // `cargo bench` passes `--bench`; nothing to filter.
    let path = notebook_wasm();
    let bytes = std::fs::read(&path).expect("reads");
    let engine = cache::engine().expect("engine");

    let started = Instant::now();
    let component = wasmtime::component::Component::new(engine, &bytes).expect("compiles");
    let compile = started.elapsed();
    let serialized = component.serialize().expect("serializes");
    let _ = prepare(&path).expect("loads");
    let started = Instant::now();
    let _ = cache::component(&bytes).expect("from the cache");
    let from_disk = started.elapsed();

    let prepared = prepare(&path).expect("loads");
    let setup = setup();
    let limits = WasmLimits::default();
    const GAMES_INST: u32 = 200;
    let started = Instant::now();
    for _ in 0..GAMES_INST {
        let mut bot = WasmBot::new(prepared.clone(), limits.clone());
        bot.call(&Request::BeginGame {
            setup: Box::new(setup.clone()),
        })
        .expect("begins");
    }
    let wasm_begin = started.elapsed() / GAMES_INST;
    let started = Instant::now();
    for _ in 0..GAMES_INST {
        let mut bot = builtin("notebook").expect("built-in");
        bot.call(&Request::BeginGame {
            setup: Box::new(setup.clone()),
        })
        .expect("begins");
    }
    let builtin_begin = started.elapsed() / GAMES_INST;

    let respond = Request::Respond(RespondRequest {
        suggester: Seat(1),
        suggestion: Suggestion {
            cards: vec![Card(0), Card(6), Card(12)],
            target: None,
        },
        matching: setup.hand.clone(),
    });
    let watch = Request::Watch {
        event: Event::Answered {
            suggester: Seat(1),
            passed: vec![Seat(2)],
            shown_by: Some(Seat(3)),
            card: None,
        },
    };

    let native = std::env::var("CLUE_BENCH_NATIVE").ok();
    let mut rows: Vec<(&str, Factory)> = vec![
        (
            "built-in",
            Box::new(|| builtin("notebook").expect("built-in")),
        ),
        (
            "wasm",
            Box::new(|| Box::new(WasmBot::new(prepared.clone(), WasmLimits::default()))),
        ),
    ];
    if let Some(native) = &native {
        let spec: BotSpec = format!("native:{native}").parse().expect("spec");
        rows.push((
            "native",
            Box::new(move || connect(&spec).expect("native loads")),
        ));
    }

    println!("notebook, {} bytes of wasm", bytes.len());
    println!("compile (cranelift)         {compile:>12.2?}");
    println!(
        "load from the disk cache    {from_disk:>12.2?}  ({} bytes)",
        serialized.len()
    );
    println!("begin-game, wasm            {wasm_begin:>12.2?}  (instantiate + begin-game)");
    println!("begin-game, built-in        {builtin_begin:>12.2?}");
    println!(
        "instantiation per game      {:>12.2?}",
        wasm_begin.saturating_sub(builtin_begin)
    );
    println!();
    println!(
        "{:<10} {:>14} {:>14} {:>14} {:>8}",
        "runtime", "game per call", "respond", "watch", "ratio"
    );
    let mut base = None;
    for (name, make) in &rows {
        let (game, calls, fuel, spent) = games(make);
        let mut bot = make();
        let respond_t = per_call(bot.as_mut(), &setup, &respond);
        let mut bot = make();
        let watch_t = per_call(bot.as_mut(), &setup, &watch);
        let base = *base.get_or_insert(game);
        println!(
            "{name:<10} {game:>14.2?} {respond_t:>14.2?} {watch_t:>14.2?} {:>7.1}x   ({calls} calls in {GAMES} games)",
            game.as_secs_f64() / base.as_secs_f64()
        );
        if fuel > 0 {
            println!(
                "{:<10} calibration: {fuel} fuel in {spent:.2?} = {:.0} fuel/s",
                "",
                fuel as f64 / spent.as_secs_f64()
            );
        }
    }

    versions_and_languages(&setup, &respond, &watch);
}

/// Per call of `respond` and `watch`, and per call over whole games, for the
/// two WIT versions of one Rust bot and the Python and JavaScript examples,
/// as ratios to the built-in notebook.
fn versions_and_languages(setup: &Setup, respond: &Request, watch: &Request) {
    let limits = WasmLimits {
        memory_bytes: 64 << 20,
        ..WasmLimits::default()
    };
    let load = |path: PathBuf| prepare(&path).unwrap_or_else(|e| panic!("{e}"));
    let rows: Vec<(&str, Option<std::sync::Arc<clue_runtime::wasm::Prepared>>)> = vec![
        ("built-in notebook", None),
        ("rust 0.1.0", Some(load(guest("legacy")))),
        ("rust 0.2.0", Some(load(guest("plain")))),
        ("python 0.2.0", Some(load(language("python-wasm-example")))),
        ("js 0.2.0", Some(load(language("js-wasm-example")))),
    ];
    println!();
    println!(
        "{:<18} {:>12} {:>7} {:>12} {:>7} {:>14} {:>7}",
        "bot", "respond", "ratio", "watch", "ratio", "game per call", "ratio"
    );
    let mut base: Option<(Duration, Duration, Duration)> = None;
    for (name, prepared) in rows {
        let make: Factory = match &prepared {
            None => Box::new(|| builtin("notebook").expect("built-in")),
            Some(p) => {
                let p = p.clone();
                let limits = limits.clone();
                Box::new(move || Box::new(WasmBot::new(p.clone(), limits.clone())))
            }
        };
        let respond_t = per_call(make().as_mut(), setup, respond);
        let watch_t = per_call(make().as_mut(), setup, watch);
        let (game, _, _, _) = games(&make);
        let (r0, w0, g0) = *base.get_or_insert((respond_t, watch_t, game));
        let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
        println!(
            "{name:<18} {respond_t:>12.2?} {:>6.1}x {watch_t:>12.2?} {:>6.1}x {game:>14.2?} {:>6.1}x",
            ratio(respond_t, r0),
            ratio(watch_t, w0),
            ratio(game, g0)
        );
    }
}

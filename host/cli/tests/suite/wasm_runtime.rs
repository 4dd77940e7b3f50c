//! WebAssembly bots (docs/wasm.md): hostile guests are contained and labelled,
//! the bundled bots play every variant as components, and fuel (not wall
//! time) decides, so a loaded machine plays the same game.
//!
//! The guests are built by this test binary, once, with
//! `cargo build --release --target wasm32-wasip2` into `target/wasm-tests`.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::rc::Rc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use clue_engine::{Fault, GameConfig, GameRecord, Outcome, SeatController, play};
use clue_plugin_api::version::compatible;
use clue_plugin_api::{DqReason, Reply, Request, Variant};
use clue_runtime::bots::{BotSpec, builtin};
use clue_runtime::sticky::Sticky;
use clue_runtime::wasm::{WIT_VERSIONS, WasmBot, WasmError, WasmLimits, cache, prepare};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `$CARGO_TARGET_DIR/wasm-tests` (or `target/wasm-tests`): a target dir of
/// its own, so the inner cargo never waits for the outer one's lock.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"))
        .join("wasm-tests")
}

/// Builds with the cargo running these tests, for wasm32-wasip2, into
/// `target/wasm-tests`; panics with cargo's output if the build fails.
fn cargo_build(dir: &Path, args: &[&str]) {
    let output = Command::new(env!("CARGO"))
        .current_dir(dir)
        .args(["build", "--release", "--target", "wasm32-wasip2"])
        .args(args)
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "building the wasm guests failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The hostile guests of `sandbox-tests/wasm-guests`, built once.
fn guest(name: &str) -> PathBuf {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        cargo_build(
            &workspace().join("sandbox-tests/wasm-guests"),
            &["--examples"],
        )
    });
    target_dir().join(format!("wasm32-wasip2/release/examples/{name}.wasm"))
}

/// A bundled bot as a component (`notebook`, `clueless`), built once.
fn bundled(name: &str) -> PathBuf {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| cargo_build(&workspace(), &["-p", "notebook", "-p", "clueless"]));
    target_dir().join(format!("wasm32-wasip2/release/{name}.wasm"))
}

/// A wasm bot the test can still look at after the game.
#[derive(Clone)]
struct Shared(Rc<RefCell<Sticky<WasmBot>>>);

impl SeatController for Shared {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        self.0.borrow_mut().call(request)
    }

    fn fuel_used(&self) -> Option<u64> {
        self.0.borrow().fuel_used()
    }

    fn stderr(&self) -> Option<String> {
        SeatController::stderr(&*self.0.borrow())
    }
}

fn wasm(path: &Path, limits: WasmLimits) -> Shared {
    let bot = WasmBot::load(path, limits).unwrap_or_else(|e| panic!("{e}"));
    Shared(Rc::new(RefCell::new(bot)))
}

/// Plays speedclue: `first` in seat 0, built-in bots in seats 1-3.
fn speedclue_with(first: Box<dyn SeatController>, seed: u64) -> GameRecord {
    let config = GameConfig::new(Variant::Speedclue, 4);
    let mut bots: Vec<Box<dyn SeatController>> = vec![first];
    for name in ["notebook", "clueless", "notebook"] {
        bots.push(builtin(name).expect("built-in"));
    }
    play(&config, seed, &mut bots).expect("the game starts")
}

/// Seat 0 was disqualified for `reason` and everyone else finished the game.
fn assert_contained(record: &GameRecord, reason: DqReason) -> String {
    assert_eq!(
        record.seats[0].outcome,
        Outcome::Disqualified(reason),
        "seat 0: {:?}",
        record.seats[0]
    );
    for seat in &record.seats[1..] {
        assert!(
            !matches!(seat.outcome, Outcome::Disqualified(_)),
            "{seat:?}"
        );
    }
    assert!(
        record.winner.is_some() || record.rounds >= 200,
        "the game went on to its end"
    );
    record.seats[0].detail.clone().unwrap_or_default()
}

#[test]
fn an_endless_loop_runs_out_of_fuel_within_its_budget() {
    let budget = 20_000_000;
    let limits = WasmLimits {
        fuel_per_call: Some(budget),
        wall_per_call: Duration::from_secs(60),
        ..WasmLimits::default()
    };
    let bot = wasm(&guest("spin"), limits);
    let record = speedclue_with(Box::new(bot.clone()), 1);
    let detail = assert_contained(&record, DqReason::OutOfFuel);
    assert!(detail.contains(&budget.to_string()), "{detail}");
    let stats = bot.0.borrow().fuel_stats();
    assert_eq!(
        stats.max, budget,
        "the looping call used exactly its budget"
    );
    // Fuel, not the 60 s wall limit, ended it: the label says so.
}

#[test]
fn an_endless_loop_without_fuel_times_out_by_the_epoch() {
    let limits = WasmLimits {
        fuel_per_call: None,
        wall_per_call: Duration::from_millis(300),
        ..WasmLimits::default()
    };
    let record = speedclue_with(Box::new(wasm(&guest("spin"), limits)), 2);
    let detail = assert_contained(&record, DqReason::Timeout);
    assert!(detail.contains("300"), "the epoch limit is named: {detail}");
}

#[test]
fn allocating_100_mib_is_out_of_memory() {
    let record = speedclue_with(Box::new(wasm(&guest("hog"), WasmLimits::default())), 3);
    let detail = assert_contained(&record, DqReason::OutOfMemory);
    assert!(detail.contains("16777216"), "{detail}");
}

/// A component a hostile author would build to hold many times the memory
/// limit: it exports `clue:player@0.2.0` (every function `unreachable`: the
/// dummy module wit-component makes from our WIT), and its core module
/// declares `memories` memories more, of `mib` MiB each, which its start
/// function fills with ones as it is instantiated, before any call. No Rust
/// guest can declare a second memory, so the module is printed as text,
/// extended and parsed again. wasmtime's own `StoreLimits` caps each memory
/// alone: before the host counted them together, 31 of 16 MiB each (496 MiB
/// resident in the host) instantiated under a limit of 16 MiB.
fn many_memories(memories: usize, mib: u32) -> PathBuf {
    let pages = mib * 16;
    let mut extra = String::new();
    for i in 0..memories {
        extra += &format!("(memory $hog{i} {pages})\n");
    }
    extra += "(func $hog\n";
    for i in 0..memories {
        extra += &format!(
            "(memory.fill $hog{i} (i32.const 0) (i32.const 1) (i32.const {}))\n",
            mib << 20
        );
    }
    extra += ")\n(start $hog)\n";
    dummy_bot_with(&extra, &format!("many-memories-{memories}x{mib}"))
}

/// A component exporting `clue:player@0.2.0` whose every function is
/// `unreachable` (wit-component's dummy module of our WIT), with `extra`
/// (core module text: memories, functions, a start function) added to its
/// module, written as `NAME.wasm`.
fn dummy_bot_with(extra: &str, name: &str) -> PathBuf {
    use wit_component::{ComponentEncoder, StringEncoding};
    use wit_parser::{LiftLowerAbi, ManglingAndAbi, Resolve};

    let mut resolve = Resolve::default();
    let package = resolve
        .push_file(workspace().join("plugin-api/wit/player.wit"))
        .expect("the WIT parses");
    let world = resolve
        .select_world(&[package], Some("bot"))
        .expect("world bot");
    let mangling = ManglingAndAbi::Legacy(LiftLowerAbi::Sync);
    let dummy = wit_component::dummy_module(&resolve, world, mangling);
    let text = wasmprinter::print_bytes(&dummy).expect("prints");
    let module = text.trim_end().strip_suffix(')').expect("one module");
    let mut core = wat::parse_str(format!("{module}\n{extra})")).expect("the module parses");
    wit_component::embed_component_metadata(&mut core, &resolve, world, StringEncoding::UTF8)
        .expect("embeds the WIT");
    let component = ComponentEncoder::default()
        .validate(true)
        .module(&core)
        .expect("a module with its WIT")
        .encode()
        .expect("encodes a component");
    let dir = target_dir();
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join(format!("{name}.wasm"));
    std::fs::write(&path, component).expect("writes");
    path
}

/// The fault `prepare` met as it started the component.
fn start_fault(path: &Path) -> Fault {
    match prepare(path) {
        Err(WasmError::Start { fault, .. }) => fault,
        Err(other) => panic!("refused before it started: {other}"),
        Ok(_) => panic!("{} started", path.display()),
    }
}

#[test]
fn the_memory_limit_is_over_all_of_a_bots_memories() {
    // 31 memories of 16 MiB: the second is already over the 16 MiB budget,
    // refused as the store makes it, before the start function runs.
    let fault = start_fault(&many_memories(31, 16));
    assert_eq!(fault.reason, DqReason::OutOfMemory, "{fault:?}");
    assert!(
        fault
            .detail
            .contains("bytes of linear memory in all, over its limit of 16777216 bytes"),
        "{fault:?}"
    );
    // Seven of 2 MiB (14 MiB in all) fit: the start function fills them and
    // the dummy's first export, the name, is what stops it.
    let fault = start_fault(&many_memories(7, 2));
    assert_eq!(fault.reason, DqReason::Crash, "{fault:?}");
    assert!(fault.detail.contains("unreachable"), "{fault:?}");
    // Eight of 2 MiB and the main memory's 0 bytes are exactly the budget;
    // nine are over it.
    assert_eq!(start_fault(&many_memories(8, 2)).reason, DqReason::Crash);
    assert_eq!(
        start_fault(&many_memories(9, 2)).reason,
        DqReason::OutOfMemory
    );
}

/// The table elements a component may hold are counted over all its
/// tables, as its memory is: wasmtime's `StoreLimits` caps each table alone,
/// so 32 tables of 20,000 elements each instantiated under a limit of
/// 20,000.
#[test]
fn the_table_limit_is_over_all_of_a_bots_tables() {
    let many_tables = |tables: usize, elements: usize| {
        let extra: String = (0..tables)
            .map(|i| format!("(table $t{i} {elements} funcref)\n"))
            .collect();
        start_fault(&dummy_bot_with(
            &extra,
            &format!("many-tables-{tables}x{elements}"),
        ))
    };
    let fault = many_tables(32, 20_000);
    assert_eq!(fault.reason, DqReason::OutOfMemory, "{fault:?}");
    assert!(
        fault
            .detail
            .contains("table elements in all, over its limit of 20000"),
        "{fault:?}"
    );
    // Two of 10,000 are exactly the budget (the dummy module has no table
    // of its own): they instantiate, and the dummy's first export stops it.
    let fault = many_tables(2, 10_000);
    assert_eq!(fault.reason, DqReason::Crash, "{fault:?}");
    assert!(fault.detail.contains("unreachable"), "{fault:?}");
    assert_eq!(many_tables(2, 10_001).reason, DqReason::OutOfMemory);
}

#[test]
fn an_unreachable_trap_is_a_crash_with_a_backtrace() {
    let record = speedclue_with(Box::new(wasm(&guest("trap"), WasmLimits::default())), 4);
    let detail = assert_contained(&record, DqReason::Crash);
    assert!(detail.contains("unreachable"), "{detail}");
    assert!(detail.contains("wasm backtrace"), "{detail}");
}

#[test]
fn a_panic_is_a_crash_with_its_message() {
    let record = speedclue_with(Box::new(wasm(&guest("panic"), WasmLimits::default())), 5);
    let detail = assert_contained(&record, DqReason::Crash);
    assert!(detail.contains("the butler did it"), "{detail}");
}

#[test]
fn output_is_captured_and_capped_and_the_bot_plays_on() {
    let limits = WasmLimits {
        output_bytes: 10_000,
        ..WasmLimits::default()
    };
    let bot = wasm(&guest("chatty"), limits);
    let record = speedclue_with(Box::new(bot.clone()), 6);
    assert!(
        !matches!(
            record.seats[0].outcome,
            Outcome::Disqualified(DqReason::Crash | DqReason::ProtocolError)
        ),
        "{:?}",
        record.seats[0]
    );
    let stdout = bot.0.borrow().stdout();
    assert!(
        stdout.starts_with("xxxx"),
        "{}",
        &stdout[..100.min(stdout.len())]
    );
    assert!(stdout.len() < 10_100, "{}", stdout.len());
    assert!(stdout.contains("more bytes dropped"));
    // The record keeps the guest's printing too, under its stdout heading.
    let kept = record.seats[0].stderr.clone().unwrap_or_default();
    assert!(
        kept.starts_with("\n[stdout]\nxxxx"),
        "{}",
        &kept[..40.min(kept.len())]
    );
}

#[test]
fn sleeping_does_not_hold_up_the_game() {
    // A guest's clocks are virtual: sleeping an hour of its time costs no
    // wall time, so the wall limit of its calls never fires.
    let record = speedclue_with(Box::new(wasm(&guest("sleepy"), WasmLimits::default())), 7);
    assert!(
        !matches!(
            record.seats[0].outcome,
            Outcome::Disqualified(DqReason::Timeout | DqReason::Crash | DqReason::OutOfFuel)
        ),
        "{:?}",
        record.seats[0]
    );
}

/// Host work burns no fuel of its own, so the host charges for it
/// (`sandbox::charge_host_calls`, docs/wasm.md): 1,000 fuel a call into the
/// host, and random bytes 1 a byte. Without it a bot looping over host calls
/// was stopped by the wall clock, whose verdict depends on the machine (1e9
/// fuel of clock reads took 4.9 s here, against 0.4 s with the charge).
#[test]
fn host_calls_are_paid_for_in_fuel() {
    let heaviest_call = |name: &str, limits: WasmLimits, seed| {
        let bot = wasm(&guest(name), limits);
        let record = speedclue_with(Box::new(bot.clone()), seed);
        let stats = bot.0.borrow().fuel_stats();
        (record, stats.max)
    };
    // 100,000 reads of the clock, each a call into the host.
    let (record, max) = heaviest_call("clocky", WasmLimits::default(), 8);
    assert_clean(&record);
    assert!(
        max >= 100_000 * 1_000,
        "100,000 clock reads cost at least 1e8 fuel, not {max}"
    );
    // 32 MiB of random bytes in 8 calls.
    let (record, max) = heaviest_call("dicey", WasmLimits::default(), 9);
    assert_clean(&record);
    let bytes = 8 * (4 << 20);
    assert!(
        max >= bytes,
        "{bytes} random bytes cost at least {bytes} fuel, not {max}"
    );
    // A budget the clock reads overrun ends the call `out-of-fuel`, with
    // the wall clock far off.
    let budget = 50_000_000;
    let limits = WasmLimits {
        fuel_per_call: Some(budget),
        wall_per_call: Duration::from_secs(60),
        ..WasmLimits::default()
    };
    let (record, max) = heaviest_call("clocky", limits, 8);
    assert_contained(&record, DqReason::OutOfFuel);
    assert_eq!(max, budget, "the call used exactly its budget");
}

/// Host work whose size the guest sets in one call is paid for by that
/// size or refused: polling a long list is charged per entry, handing the
/// host more than 8 KiB in one call traps, and a bot may hold at most
/// 10,000 handles (each holds host memory its memory limit does not count).
/// Before, the poller and the lifter each held one call for the whole
/// wall-clock backstop (`timeout`), and the hoarder played on holding
/// 20,000 pollables. The wall clock is set far off, so only fuel and the
/// caps can end these calls.
#[test]
fn host_work_sized_by_the_guest_is_paid_for_or_refused() {
    let limits = WasmLimits {
        wall_per_call: Duration::from_secs(120),
        ..WasmLimits::default()
    };
    let play =
        |name: &str, seed| speedclue_with(Box::new(wasm(&guest(name), limits.clone())), seed);
    // A million polls of a 500-entry list: 500 million entries.
    let record = play("poller", 10);
    assert_contained(&record, DqReason::OutOfFuel);
    // A host name of 1 MiB.
    let detail = assert_contained(&play("lifter", 11), DqReason::Crash);
    assert!(
        detail.contains("too much data is being copied between the host and the guest"),
        "the lifter was stopped by the cap on what one call hands over: {detail}"
    );
    // 20,000 pollables kept.
    let detail = assert_contained(&play("hoarder", 12), DqReason::Crash);
    assert!(
        detail.contains("store handle limit exceeded"),
        "the hoarder was stopped by the cap on handles: {detail}"
    );
}

/// Every wasm seat of the record finished without a fault of the runtime.
fn assert_clean(record: &GameRecord) {
    for seat in &record.seats {
        if let Outcome::Disqualified(reason) = seat.outcome {
            panic!(
                "seat {:?} disqualified: {reason} {:?}",
                seat.seat, seat.detail
            );
        }
    }
}

#[test]
fn wasm_notebook_and_clueless_play_speedclue_generalized_and_uniclue() {
    let notebook = bundled("notebook");
    let clueless = bundled("clueless");
    let seat = |path: &PathBuf| -> Box<dyn SeatController> {
        Box::new(WasmBot::load(path, WasmLimits::default()).unwrap_or_else(|e| panic!("{e}")))
    };

    let config = GameConfig::new(Variant::Speedclue, 4);
    let mut bots = vec![
        seat(&notebook),
        seat(&clueless),
        seat(&notebook),
        seat(&clueless),
    ];
    let record = play(&config, 11, &mut bots).expect("starts");
    assert_clean(&record);
    assert!(record.winner.is_some());
    for bot in &bots {
        assert!(bot.fuel_used().unwrap_or(0) > 0);
    }

    let config = GameConfig::new(Variant::Generalized, 3);
    let mut bots = vec![seat(&notebook), seat(&clueless), seat(&notebook)];
    let record = play(&config, 12, &mut bots).expect("starts");
    assert_clean(&record);

    let config = GameConfig::new(Variant::Uniclue, 4);
    let mut bots = vec![seat(&notebook)];
    let record = play(&config, 13, &mut bots).expect("starts");
    assert_clean(&record);
}

#[test]
fn wasm_bots_play_every_board_variant() {
    let notebook = bundled("notebook");
    let clueless = bundled("clueless");
    for (variant, players) in [
        (Variant::Classic, 4),
        (Variant::Csci306, 6),
        (Variant::Framework, 3),
        (Variant::Cyberclue, 4),
    ] {
        let config = GameConfig::new(variant, players);
        let mut bots: Vec<Box<dyn SeatController>> = (0..players)
            .map(|i| {
                let path = if i % 2 == 0 { &notebook } else { &clueless };
                Box::new(WasmBot::load(path, WasmLimits::default()).expect("loads"))
                    as Box<dyn SeatController>
            })
            .collect();
        let record = play(&config, 21, &mut bots).expect("starts");
        assert_clean(&record);
        let moves = record
            .log
            .iter()
            .filter(|e| matches!(e.event, clue_plugin_api::Event::Moved { .. }))
            .count();
        assert!(moves > 0, "{variant}: the wasm bots moved on the board");
    }
}

#[test]
fn the_same_seed_gives_the_same_game_on_a_loaded_machine() {
    let notebook = bundled("notebook");
    let clueless = bundled("clueless");
    let game = || {
        let config = GameConfig::new(Variant::Speedclue, 4);
        let mut bots: Vec<Box<dyn SeatController>> = [&notebook, &clueless, &notebook, &clueless]
            .into_iter()
            .map(|p| {
                Box::new(WasmBot::load(p, WasmLimits::default()).expect("loads"))
                    as Box<dyn SeatController>
            })
            .collect();
        let record = play(&config, 99, &mut bots).expect("starts");
        let fuel: Vec<Option<u64>> = bots.iter().map(|b| b.fuel_used()).collect();
        (record, fuel)
    };
    let idle = game();

    let stop = AtomicBool::new(false);
    let loaded = std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                }
            });
        }
        let loaded = game();
        stop.store(true, Ordering::Relaxed);
        loaded
    });
    assert_eq!(idle.0, loaded.0, "the same game, event for event");
    assert_eq!(idle.1, loaded.1, "the same fuel, seat for seat");
}

#[test]
fn the_command_line_plays_a_wasm_bot() {
    let notebook = bundled("notebook");
    let cache = tempfile::tempdir().expect("a cache folder");
    let output = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args([
            "play",
            "--variant",
            "speedclue",
            "--players",
            "4",
            "--seed",
            "3",
        ])
        .arg("--bot")
        .arg(format!("wasm:{}", notebook.display()))
        .env("CLUE_WASM_CACHE", cache.path())
        .output()
        .expect("clue runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("wasm:"), "{stdout}");
    // `clue` compiled it in its compile worker, and cached what came back.
    let cached: Vec<_> = std::fs::read_dir(cache.path())
        .expect("the cache folder was made")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    assert_eq!(cached.len(), 1, "{cached:?}");
    assert!(
        cached[0].to_string_lossy().ends_with(".cwasm"),
        "{cached:?}"
    );
}

/// A component whose one function is `ops` additions long. Cranelift's time
/// and memory grow with a function's size: 300,000 (a 2.4 MB file) took
/// 1.9 GiB and 34 s of the host before compiling moved to a worker.
fn compile_bomb(ops: usize) -> PathBuf {
    let mut text = String::from("(component (core module (func (param i32) (result i32)\n");
    for i in 0..ops {
        text += &format!("local.get 0 i32.const {} i32.add local.set 0\n", i % 100);
    }
    text += "local.get 0)))";
    let bytes = wat::parse_str(&text).expect("the bomb parses");
    let dir = target_dir();
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join(format!("compile-bomb-{ops}.wasm"));
    std::fs::write(&path, bytes).expect("writes");
    path
}

/// `clue play` with `bot` in seat 0, the environment `env` (the compile
/// worker's limits) and a cache of its own: the status and stderr.
fn play_compiling(bot: &Path, env: &[(&str, &str)]) -> (bool, String, tempfile::TempDir) {
    let cache = tempfile::tempdir().expect("a cache folder");
    let output = Command::new(env!("CARGO_BIN_EXE_clue"))
        .args(["play", "--variant", "speedclue", "--players", "3", "--bot"])
        .arg(format!("wasm:{}", bot.display()))
        .env("CLUE_WASM_CACHE", cache.path())
        .envs(env.iter().copied())
        .output()
        .expect("clue runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    (output.status.success(), stderr, cache)
}

/// `clue` with the `args`, on a machine without Landlock (a kernel before
/// 6.12): a seccomp filter, inherited by everything it starts, answers
/// Landlock's system calls `ENOSYS`. Its status and stderr.
fn clue_without_landlock(args: &[String], env: &[(&str, &str)]) -> (bool, String) {
    use std::os::unix::process::CommandExt;
    let landlock = [
        libc::SYS_landlock_create_ruleset,
        libc::SYS_landlock_add_rule,
        libc::SYS_landlock_restrict_self,
    ];
    let filter = seccompiler::SeccompFilter::new(
        landlock.into_iter().map(|call| (call, vec![])).collect(),
        seccompiler::SeccompAction::Allow,
        seccompiler::SeccompAction::Errno(libc::ENOSYS as u32),
        std::env::consts::ARCH
            .try_into()
            .expect("a seccomp architecture"),
    )
    .expect("the filter builds");
    let program: seccompiler::BpfProgram = filter.try_into().expect("the filter compiles");
    let cache = tempfile::tempdir().expect("a cache folder");
    let mut command = Command::new(env!("CARGO_BIN_EXE_clue"));
    command
        .args(args)
        .env("CLUE_WASM_CACHE", cache.path())
        .envs(env.iter().copied());
    // SAFETY: between fork and exec the child only installs the filter
    // compiled above (`prctl` and `seccomp`).
    unsafe {
        command
            .pre_exec(move || seccompiler::apply_filter(&program).map_err(std::io::Error::other));
    }
    let output = command.output().expect("clue runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned()
            + &String::from_utf8_lossy(&output.stderr),
    )
}

/// Where the process sandbox is missing, process bots need `--no-sandbox`,
/// but wasm bots, sandboxed by wasmtime on any machine, still play: their
/// compile worker runs without the process sandbox, under its memory and
/// CPU caps, which still refuse a component too costly to compile.
#[test]
fn where_the_process_sandbox_is_missing_wasm_bots_still_play() {
    let play = |bot: &Path| -> Vec<String> {
        ["play", "--variant", "speedclue", "--players", "3", "--bot"]
            .into_iter()
            .map(String::from)
            .chain([format!("wasm:{}", bot.display())])
            .collect()
    };
    let (ok, said) = clue_without_landlock(&play(&bundled("notebook")), &[]);
    assert!(ok, "{said}");
    assert!(
        said.contains("the process sandbox is missing here (Landlock"),
        "the user is told why the compile worker runs without it: {said}"
    );
    let bomb = compile_bomb(300_000);
    let (ok, said) = clue_without_landlock(&play(&bomb), &[("CLUE_WASM_COMPILE_MEMORY", "256")]);
    assert!(!ok, "{said}");
    assert!(
        said.contains("compiling it needed more than 256 MiB, its compile worker's memory limit"),
        "{said}"
    );
    // A process bot still needs the user's `--no-sandbox`.
    let args: Vec<String> = ["play", "--variant", "speedclue", "--players", "3", "--bot"]
        .into_iter()
        .map(String::from)
        .chain(["jsonl:python3 -c 'import sys'".to_string()])
        .collect();
    let (ok, said) = clue_without_landlock(&args, &[]);
    assert!(!ok, "{said}");
    assert!(
        said.contains("Landlock"),
        "the missing layer is named: {said}"
    );
}

#[test]
fn a_component_too_costly_to_compile_is_refused_by_its_compile_worker() {
    let bomb = compile_bomb(300_000);
    let (ok, stderr, cache) = play_compiling(&bomb, &[("CLUE_WASM_COMPILE_MEMORY", "256")]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "wasm bot {}: not a valid component: compiling it needed more than 256 MiB, \
             its compile worker's memory limit",
            bomb.display()
        )),
        "{stderr}"
    );
    let cached = std::fs::read_dir(cache.path()).map_or(0, |d| d.count());
    assert_eq!(cached, 0, "nothing was cached");

    // Memory enough, but one second of CPU time.
    let (ok, stderr, _cache) = play_compiling(&bomb, &[("CLUE_WASM_COMPILE_CPU", "1")]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains("compiling it took more than 1 s of CPU time, its compile worker's limit"),
        "{stderr}"
    );
}

#[test]
fn the_compile_worker_says_what_is_wrong_with_a_file_that_is_no_component() {
    let dir = target_dir();
    std::fs::create_dir_all(&dir).expect("dir");
    let junk = dir.join("junk-for-the-worker.wasm");
    std::fs::write(&junk, b"\0asm\x0d\x00\x01\x00\x01\xff").expect("writes");
    let (ok, stderr, _cache) = play_compiling(&junk, &[]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "wasm bot {}: not a valid component: ",
            junk.display()
        )),
        "{stderr}"
    );
    // wasmparser's own words, passed on from the worker, and an offset.
    assert!(stderr.contains("at offset"), "{stderr}");
    // Words wasmparser writes over several lines come whole, on one.
    let garbage = dir.join("garbage-for-the-worker.wasm");
    std::fs::write(&garbage, b"not wasm at all").expect("writes");
    let (ok, stderr, _cache) = play_compiling(&garbage, &[]);
    assert!(!ok, "{stderr}");
    let said = stderr
        .lines()
        .find(|l| l.contains("bad magic number"))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        said.contains("expected=[ 0x0, 0x61, 0x73, 0x6d, ] actual=["),
        "{stderr}"
    );
    // A core module (a wasm32-wasip1 or wasm32-unknown-unknown build) is
    // named for what it is, with the target that makes a component.
    let core = dir.join("core-module.wasm");
    std::fs::write(&core, b"\0asm\x01\0\0\0").expect("writes");
    let (ok, stderr, _cache) = play_compiling(&core, &[]);
    assert!(!ok, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "wasm bot {}: a core WebAssembly module, not a component: build it for wasm32-wasip2",
            core.display()
        )),
        "{stderr}"
    );
    // A native library named as a component, likewise.
    let library = dir.join("libbot.so");
    std::fs::write(&library, b"\x7fELF\x02\x01\x01\0").expect("writes");
    let (ok, stderr, _cache) = play_compiling(&library, &[]);
    assert!(!ok, "{stderr}");
    let shown = library.display();
    assert!(
        stderr.contains(&format!(
            "wasm bot {shown}: an ELF file (a native library or program), not a component: \
             seat a plugin library as `native:{shown}`"
        )),
        "{stderr}"
    );
    let bad = play_compiling(&bundled("clueless"), &[("CLUE_WASM_COMPILE_MEMORY", "0")]);
    assert!(!bad.0);
    assert!(
        bad.1
            .contains("CLUE_WASM_COMPILE_MEMORY=0: not a positive whole number"),
        "{}",
        bad.1
    );
}

/// `CLUE_WASM_CACHE_MIB` caps the compile cache: a game that compiles a
/// bot into a cache over the cap drops the least recently used files (here
/// a stale 2 MiB one) and keeps the one it wrote. A value that is not a
/// positive whole number is refused by name.
#[test]
fn the_compile_cache_keeps_within_clue_wasm_cache_mib() {
    let cache = tempfile::tempdir().expect("a cache folder");
    let stale = cache.path().join("stale.cwasm");
    std::fs::write(&stale, vec![0u8; 2 << 20]).expect("writes");
    let bot = bundled("clueless");
    let play = |mib: &str| {
        Command::new(env!("CARGO_BIN_EXE_clue"))
            .args(["play", "--variant", "speedclue", "--players", "3", "--bot"])
            .arg(format!("wasm:{}", bot.display()))
            .env("CLUE_WASM_CACHE", cache.path())
            .env("CLUE_WASM_CACHE_MIB", mib)
            .output()
            .expect("clue runs")
    };
    let output = play("1");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let bytes = std::fs::read(&bot).expect("reads");
    let engine = cache::engine().expect("the engine starts");
    let compiled = cache::cache_path_in(cache.path(), engine, &bytes);
    let left: Vec<_> = std::fs::read_dir(cache.path())
        .expect("lists")
        .map(|e| e.expect("an entry").path())
        .collect();
    assert_eq!(left, vec![compiled], "only the file just written is kept");

    let bad = play("lots");
    assert!(!bad.status.success());
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(
        said.contains("CLUE_WASM_CACHE_MIB=lots: not a positive whole number"),
        "{said}"
    );
}

#[test]
fn components_are_compiled_once_and_cached_on_disk() {
    let path = bundled("clueless");
    let first = prepare(&path).expect("loads");
    let again = prepare(&path).expect("loads");
    assert_eq!(first.digest, again.digest);
    assert_eq!(again.source, None, "the second load is the in-process memo");
    let bytes = std::fs::read(&path).expect("reads");
    let engine = cache::engine().expect("engine");
    assert!(cache::cache_path(engine, &bytes).exists());
    assert_eq!(first.name, "clueless");
}

#[test]
fn files_that_are_not_bots_are_refused_by_name() {
    let missing = prepare(Path::new("no/such/bot.wasm"));
    assert!(matches!(missing, Err(WasmError::Read { .. })));

    let dir = target_dir();
    std::fs::create_dir_all(&dir).expect("dir");
    let junk = dir.join("junk.wasm");
    std::fs::write(&junk, b"\0asm not really").expect("writes");
    let err = prepare(&junk).err().expect("refused");
    assert!(matches!(err, WasmError::Compile { .. }), "{err}");

    // A component is read whole into the host: a file of any size, or one
    // whose read never ends, is refused before it is read.
    let huge = dir.join("huge.wasm");
    let file = std::fs::File::create(&huge).expect("creates");
    file.set_len(clue_runtime::wasm::MAX_COMPONENT_BYTES + 1)
        .expect("a sparse file");
    let err = prepare(&huge).err().expect("refused");
    assert!(
        err.to_string()
            .ends_with("huge.wasm: it is 268435457 bytes, over the 256 MiB a component may be"),
        "{err}"
    );
    let fifo = dir.join("fifo.wasm");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let err = prepare(&fifo).err().expect("refused");
    assert!(
        err.to_string()
            .ends_with("fifo.wasm: cannot read it: not a regular file"),
        "{err}"
    );
    let err = prepare(Path::new("/dev/zero")).err().expect("refused");
    assert!(err.to_string().contains("not a regular file"), "{err}");

    let spec: BotSpec = "wasm:no/such/bot.wasm".parse().expect("parses");
    let err = clue_runtime::bots::connect(&spec).err().expect("refused");
    assert!(err.to_string().contains("no/such/bot.wasm"), "{err}");
}

#[test]
fn wit_versions_are_compatible_as_semver_reads_them() {
    assert_eq!(WIT_VERSIONS, ["0.1.0", "0.2.0"]);
    // Each served version takes its own patch releases and not the other's.
    assert!(compatible("0.1.3", WIT_VERSIONS[0]));
    assert!(!compatible("0.1.3", WIT_VERSIONS[1]));
    assert!(compatible("0.2.9", WIT_VERSIONS[1]));
    assert!(!compatible("0.3.0", WIT_VERSIONS[0]) && !compatible("0.3.0", WIT_VERSIONS[1]));
}

#[test]
fn a_0_1_component_and_a_0_2_component_play_one_game() {
    let legacy = prepare(&guest("legacy")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(legacy.wit_version, "0.1.0");
    assert_eq!(legacy.name, "legacy-0.1");
    let notebook = prepare(&bundled("notebook")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(notebook.wit_version, "0.2.0");
    for (variant, players) in [(Variant::Classic, 3), (Variant::Speedclue, 4)] {
        let config = GameConfig::new(variant, players);
        let mut bots: Vec<Box<dyn SeatController>> = (0..players)
            .map(|i| {
                let prepared = if i % 2 == 0 { &legacy } else { &notebook };
                Box::new(WasmBot::new(prepared.clone(), WasmLimits::default()))
                    as Box<dyn SeatController>
            })
            .collect();
        let record = play(&config, 31, &mut bots).expect("starts");
        assert_clean(&record);
        assert!(
            bots[0].fuel_used().unwrap_or(0) > 0,
            "the 0.1 bot was called"
        );
    }
}

#[test]
fn an_unknown_wit_version_is_refused_naming_both_versions() {
    let path = guest("future");
    let err = prepare(&path).err().expect("refused");
    assert!(matches!(err, WasmError::WitVersion { .. }), "{err}");
    assert_eq!(
        err.to_string(),
        format!(
            "bot {} was built against clue:player 0.9.0; this host speaks 0.1.0 and 0.2.0",
            path.display()
        )
    );
}

#[test]
fn a_component_exporting_the_wrong_interface_is_refused_naming_both_versions() {
    let path = guest("misshapen");
    let err = prepare(&path).err().expect("refused");
    assert!(matches!(err, WasmError::Interface { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.starts_with(&format!(
            "bot {} exports clue:player/player@0.2.0 but not as that version defines it \
             (this host speaks 0.1.0 and 0.2.0): ",
            path.display()
        )),
        "{text}"
    );
    // wasmtime's reason names what is wrong.
    assert!(
        text.contains("name") || text.contains("begin-game"),
        "{text}"
    );
}

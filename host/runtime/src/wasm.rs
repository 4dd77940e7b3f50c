//! WebAssembly bots: `clue:player` components (plugin-api/wit) run in
//! wasmtime, sandboxed and metered. See docs/wasm.md.
//!
//! - One engine per host ([`cache::engine`]); components are compiled once
//!   and cached on disk ([`cache::component`]) and in memory per process.
//! - A [`WasmBot`] is loaded once per seat; it instantiates a fresh instance
//!   at `begin-game`, seeding every random source from the bot's game seed.
//! - Every call gets a fuel budget ([`WasmLimits::fuel_per_call`]): fuel, not
//!   wall time, decides, so a game replays identically on a loaded machine.
//!   An epoch watchdog is the wall-clock backstop; memory, tables and
//!   instances are capped by a `StoreLimits`.
//! - A trap becomes a [`Fault`]: `out-of-fuel`, `out-of-memory` (a refused
//!   growth), `protocol-error` (more output in one call than
//!   [`WasmLimits::output_per_call`]), `timeout` (the epoch deadline) or
//!   `crash` (anything else, with the wasm backtrace and the tail of the
//!   bot's stderr).

pub mod cache;
pub mod compile;
mod convert;
mod load;
pub mod sandbox;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use clue_engine::Fault;

use crate::sticky::{Exchange, Sticky};
use clue_plugin_api::{Card, DqReason, Reply, Request};
use wasmtime::{Store, Trap, WasmBacktrace};

use load::Pre;
pub use load::{MAX_COMPONENT_BYTES, Prepared, prepare};
use sandbox::HostState;

/// Host bindings generated from `plugin-api/wit/player.wit`, `clue:player@0.2.0`.
mod bindings {
    wasmtime::component::bindgen!({
        path: "../../plugin-api/wit/player.wit",
        world: "bot",
    });
}

/// Host bindings of the first version, `plugin-api/wit/0.1.0/player.wit`
/// (the setup and the events as JSON text), kept so that bots built against
/// it still load.
mod bindings_0_1 {
    wasmtime::component::bindgen!({
        path: "../../plugin-api/wit/0.1.0/player.wit",
        world: "bot",
    });
}

/// The `clue:player` WIT package version this host's own guests are built
/// against (plugin-api's `export_wasm_player!`).
pub const WIT_VERSION: &str = "0.2.0";

/// Every `clue:player` version this host seats, oldest first.
pub const WIT_VERSIONS: [&str; 2] = ["0.1.0", WIT_VERSION];

/// The host's versions, as an error message names them.
pub const WIT_VERSIONS_SHOWN: &str = "0.1.0 and 0.2.0";

/// Fuel a wasm bot burns per second of compute on the calibration machine
/// (see docs/wasm.md, "Calibration"): the default fuel budget of a call is
/// this times the time limit.
pub const FUEL_PER_SECOND: u64 = 1_000_000_000;

/// The default time limit of one call, from which the fuel budget derives.
pub const DEFAULT_TIME_PER_CALL: Duration = Duration::from_secs(5);

/// What a wasm bot may use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WasmLimits {
    /// Fuel per call (`None`: unmetered, only the wall clock stops it).
    pub fuel_per_call: Option<u64>,
    /// Wall time per call before the epoch watchdog interrupts it. A backstop:
    /// with fuel on it is well above the time the fuel takes.
    pub wall_per_call: Duration,
    /// Linear memory, in bytes, over all the bot's memories.
    pub memory_bytes: usize,
    /// Table elements, over all the bot's tables.
    pub table_elements: usize,
    /// Core instances, and tables and memories each.
    pub instances: usize,
    /// Bytes of stdout and of stderr kept; the rest is dropped.
    pub output_bytes: usize,
    /// Bytes the bot may write to stdout, and to stderr, in one call; more
    /// is a `protocol-error` (a flood), at once.
    pub output_per_call: u64,
}

impl WasmLimits {
    /// Limits for a time limit per call: fuel = `FUEL_PER_SECOND` x the limit,
    /// the wall-clock backstop at three times the limit plus a second.
    pub fn for_time(limit: Duration) -> WasmLimits {
        let fuel = (limit.as_secs_f64() * FUEL_PER_SECOND as f64) as u64;
        WasmLimits {
            fuel_per_call: Some(fuel.max(1)),
            wall_per_call: limit * 3 + Duration::from_secs(1),
            memory_bytes: 16 << 20,
            table_elements: 20_000,
            instances: 32,
            output_bytes: 64 << 10,
            output_per_call: 2 << 20,
        }
    }
}

impl Default for WasmLimits {
    fn default() -> WasmLimits {
        WasmLimits::for_time(DEFAULT_TIME_PER_CALL)
    }
}

/// Why a wasm bot could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum WasmError {
    #[error("wasm bot {path}: cannot read it: {error}")]
    Read { path: String, error: std::io::Error },
    #[error(
        "wasm bot {path}: it is {bytes} bytes, over the {} MiB a component may be",
        MAX_COMPONENT_BYTES >> 20
    )]
    TooLarge { path: String, bytes: u64 },
    #[error("wasm bot {path}: not a valid component: {detail}")]
    Compile { path: String, detail: String },
    #[error(
        "wasm bot {path}: a core WebAssembly module, not a component: build it for \
         wasm32-wasip2 (`cargo build --release --target wasm32-wasip2`; a wasm32-wasip1 or \
         wasm32-unknown-unknown build is a core module), docs/wasm.md"
    )]
    CoreModule { path: String },
    #[error(
        "wasm bot {path}: an ELF file (a native library or program), not a component: seat a \
         plugin library as `native:{path}`, a program as `jsonl:{path}`"
    )]
    Elf { path: String },
    #[error("wasm bot {path}: not a Clue bot: it exports no clue:player/player interface")]
    NotABot { path: String },
    #[error("bot {path} was built against clue:player {theirs}; this host speaks {ours}")]
    WitVersion {
        path: String,
        theirs: String,
        ours: &'static str,
    },
    #[error(
        "bot {path} exports clue:player/player@{theirs} but not as that version defines it \
         (this host speaks {ours}): {detail}"
    )]
    Interface {
        path: String,
        theirs: String,
        ours: &'static str,
        detail: String,
    },
    #[error("bot {path}: {mismatch}")]
    Protocol {
        path: String,
        mismatch: clue_plugin_api::wire::VersionMismatch,
    },
    #[error(
        "wasm bot {path}: cannot be linked (it imports something this host does not give): {detail}"
    )]
    Link { path: String, detail: String },
    #[error("wasm bot {path}: failed to start: {fault}")]
    Start { path: String, fault: Fault },
    #[error("the wasm runtime could not start: {0}")]
    Runtime(String),
}

/// An instance of one of the versions.
enum Instance {
    V0_1(bindings_0_1::Bot),
    V0_2(bindings::Bot),
}

/// One instance of a bot, in its own store, for one game.
struct Live {
    store: Store<HostState>,
    bot: Instance,
}

impl Live {
    fn start(pre: &Pre, limits: &WasmLimits, seed: u64) -> Result<Live, Fault> {
        let engine = match pre {
            Pre::V0_1(pre) => pre.engine(),
            Pre::V0_2(pre) => pre.engine(),
        };
        let mut store = Store::new(engine, HostState::new(limits, seed));
        store.limiter(|state| &mut state.limits);
        store.call_hook(sandbox::charge_host_calls);
        store.set_hostcall_fuel(sandbox::HOSTCALL_BYTES);
        store.set_max_component_handles(sandbox::MAX_HANDLES);
        arm(&mut store, limits);
        let bot = match pre {
            Pre::V0_1(pre) => pre.instantiate(&mut store).map(Instance::V0_1),
            Pre::V0_2(pre) => pre.instantiate(&mut store).map(Instance::V0_2),
        };
        match bot {
            Ok(bot) => Ok(Live { store, bot }),
            Err(e) => Err(classify(&store, limits, e, "instantiation")),
        }
    }

    /// Runs one call under the per-call budget; returns its result or the
    /// fault a trap means.
    fn run<R>(
        &mut self,
        limits: &WasmLimits,
        f: impl FnOnce(&Instance, &mut Store<HostState>) -> wasmtime::Result<R>,
    ) -> Result<R, Fault> {
        arm(&mut self.store, limits);
        f(&self.bot, &mut self.store).map_err(|e| classify(&self.store, limits, e, "call"))
    }

    /// Fuel spent since the last [`arm`].
    fn fuel_spent(&self, limits: &WasmLimits) -> u64 {
        let left = self.store.get_fuel().unwrap_or(0);
        limits
            .fuel_per_call
            .unwrap_or(UNMETERED)
            .saturating_sub(left)
    }
}

/// "No fuel limit": fuel is always on in the engine, so give plenty.
const UNMETERED: u64 = u64::MAX / 2;

/// Resets the store's budget for one call: its fuel, its epoch deadline and
/// the limiter's memory of a refused growth.
fn arm(store: &mut Store<HostState>, limits: &WasmLimits) {
    // Fuel is on in the engine, so setting it cannot fail.
    let _ = store.set_fuel(limits.fuel_per_call.unwrap_or(UNMETERED));
    let ticks = limits.wall_per_call.as_nanos() / cache::EPOCH_TICK.as_nanos() + 1;
    store.set_epoch_deadline(u64::try_from(ticks).unwrap_or(u64::MAX));
    store.epoch_deadline_trap();
    store.data_mut().limits.refused = None;
    store.data().stdout.new_call();
    store.data().stderr.new_call();
}

/// The fault a failed call stands for.
fn classify(
    store: &Store<HostState>,
    limits: &WasmLimits,
    error: wasmtime::Error,
    what: &str,
) -> Fault {
    let state = store.data();
    let stderr = state.stderr.tail(2000);
    let stderr = if stderr.is_empty() {
        String::new()
    } else {
        format!("\nstderr: {stderr}")
    };
    let backtrace = error
        .downcast_ref::<WasmBacktrace>()
        .map(|bt| format!("\n{bt}"))
        .unwrap_or_default();
    if let Some((kind, size)) = state.limits.refused {
        let detail = match kind {
            "memory" => format!(
                "the bot asked for {size} bytes of linear memory in all, over its limit of {} bytes",
                limits.memory_bytes
            ),
            _ => format!(
                "the bot asked for {size} table elements in all, over its limit of {}",
                limits.table_elements
            ),
        };
        return Fault::new(DqReason::OutOfMemory, format!("{detail}{stderr}"));
    }
    for (stream, captured) in [("stdout", &state.stdout), ("stderr", &state.stderr)] {
        if let Some(bytes) = captured.flooded() {
            return Fault::new(
                DqReason::ProtocolError,
                format!(
                    "flooded its {stream} ({bytes} bytes in one {what}, over the cap of {})",
                    limits.output_per_call
                ),
            );
        }
    }
    match error.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) => Fault::new(
            DqReason::OutOfFuel,
            format!(
                "used all {} fuel of one {what}{stderr}",
                limits.fuel_per_call.unwrap_or(UNMETERED)
            ),
        ),
        Some(Trap::Interrupt) => Fault::new(
            DqReason::Timeout,
            format!(
                "still running after {:?} of wall time in one {what}{stderr}",
                limits.wall_per_call
            ),
        ),
        Some(trap) => Fault::new(
            DqReason::Crash,
            format!("{what} trapped: {trap}{backtrace}{stderr}"),
        ),
        None => Fault::new(DqReason::Crash, format!("{what} failed: {error:#}{stderr}")),
    }
}

/// Fuel a bot burned in one game, per call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FuelStats {
    pub calls: u64,
    pub total: u64,
    pub max: u64,
}

impl FuelStats {
    pub fn mean(&self) -> u64 {
        self.total.checked_div(self.calls).unwrap_or(0)
    }
}

/// A wasm bot seated at the table.
pub struct WasmBot {
    prepared: Arc<Prepared>,
    limits: WasmLimits,
    live: Option<Live>,
    stats: FuelStats,
}

impl WasmBot {
    /// Loads (or reuses) the component at `path` and seats it with `limits`.
    /// Once a call has faulted the instance is dead; later calls repeat it
    /// ([`Sticky`]).
    pub fn load(path: &Path, limits: WasmLimits) -> Result<Sticky<WasmBot>, WasmError> {
        Ok(WasmBot::new(prepare(path)?, limits))
    }

    pub fn new(prepared: Arc<Prepared>, limits: WasmLimits) -> Sticky<WasmBot> {
        Sticky::new(WasmBot {
            prepared,
            limits,
            live: None,
            stats: FuelStats::default(),
        })
    }

    /// The bot's name, as it reported it at load.
    pub fn name(&self) -> &str {
        &self.prepared.name
    }

    pub fn fuel_stats(&self) -> FuelStats {
        self.stats
    }

    /// What the bot wrote to stdout this game (capped).
    pub fn stdout(&self) -> String {
        self.live
            .as_ref()
            .map(|l| l.store.data().stdout.text())
            .unwrap_or_default()
    }

    /// What the bot wrote to stderr this game (capped).
    pub fn stderr(&self) -> String {
        self.live
            .as_ref()
            .map(|l| l.store.data().stderr.text())
            .unwrap_or_default()
    }

    fn dispatch(&mut self, request: &Request) -> Result<Reply, Fault> {
        if let Request::BeginGame { setup } = request {
            self.live = Some(Live::start(&self.prepared.pre, &self.limits, setup.seed)?);
        }
        let limits = &self.limits;
        let live = self.live.as_mut().ok_or_else(|| {
            Fault::new(
                DqReason::ProtocolError,
                format!("{} before begin-game", request.kind()),
            )
        })?;
        let result = call(live, limits, request);
        let spent = live.fuel_spent(limits);
        self.stats.calls += 1;
        self.stats.total += spent;
        self.stats.max = self.stats.max.max(spent);
        result
    }
}

/// One request as the `clue:player` call it names, in the instance's version.
fn call(live: &mut Live, limits: &WasmLimits, request: &Request) -> Result<Reply, Fault> {
    match live.bot {
        Instance::V0_1(_) => call_0_1(live, limits, request),
        Instance::V0_2(_) => call_0_2(live, limits, request),
    }
}

/// A `clue:player@0.2.0` call: every argument typed.
fn call_0_2(live: &mut Live, limits: &WasmLimits, request: &Request) -> Result<Reply, Fault> {
    // `call` matched the version; a 0.1 instance never reaches here.
    fn player(bot: &Instance) -> &bindings::exports::clue::player::player::Guest {
        match bot {
            Instance::V0_2(bot) => bot.clue_player_player(),
            Instance::V0_1(_) => unreachable!("call_0_2 on a 0.1 instance"),
        }
    }
    match request {
        Request::BeginGame { setup } => {
            let setup = convert::setup(setup);
            live.run(limits, |bot, store| {
                player(bot).call_begin_game(store, &setup)
            })?;
            Ok(Reply::Ok)
        }
        Request::Watch { event } => {
            let event = convert::event(event);
            live.run(limits, |bot, store| player(bot).call_watch(store, &event))?;
            Ok(Reply::Ok)
        }
        Request::Accuse(r) => {
            let r = convert::accuse_request(r);
            let accusation = live.run(limits, |bot, store| player(bot).call_accuse(store, r))?;
            Ok(Reply::Accuse {
                accusation: accusation.map(convert::accusation_back),
            })
        }
        Request::Move(r) => {
            let r = convert::move_request(r);
            let to = live.run(limits, |bot, store| player(bot).call_move_to(store, &r))?;
            Ok(Reply::Move {
                to: convert::position_back(to),
            })
        }
        Request::Suggest(r) => {
            let r = convert::suggest_request(r);
            let suggestion = live.run(limits, |bot, store| player(bot).call_suggest(store, &r))?;
            Ok(Reply::Suggest {
                suggestion: suggestion.map(convert::suggestion_back),
            })
        }
        Request::Respond(r) => {
            let r = convert::respond_request(r);
            let card = live.run(limits, |bot, store| player(bot).call_respond(store, &r))?;
            Ok(Reply::Respond {
                card: card.map(Card),
            })
        }
    }
}

/// A `clue:player@0.1.0` call: the setup and the events as JSON text.
fn call_0_1(live: &mut Live, limits: &WasmLimits, request: &Request) -> Result<Reply, Fault> {
    use bindings_0_1::exports::clue::player::player::Guest;
    // `call` matched the version; a 0.2 instance never reaches here.
    fn player(bot: &Instance) -> &Guest {
        match bot {
            Instance::V0_1(bot) => bot.clue_player_player(),
            Instance::V0_2(_) => unreachable!("call_0_1 on a 0.2 instance"),
        }
    }
    let refused = |what: &str, detail: String| {
        Fault::new(
            DqReason::ProtocolError,
            format!("the bot could not read the {what}: {detail}"),
        )
    };
    match request {
        Request::BeginGame { setup } => {
            let json = serde_json::to_string(setup).unwrap_or_default();
            live.run(limits, |bot, store| {
                player(bot).call_begin_game(store, &json)
            })?
            .map_err(|e| refused("setup", e))?;
            Ok(Reply::Ok)
        }
        Request::Watch { event } => {
            let json = serde_json::to_string(event).unwrap_or_default();
            live.run(limits, |bot, store| player(bot).call_watch(store, &json))?
                .map_err(|e| refused("event", e))?;
            Ok(Reply::Ok)
        }
        Request::Accuse(r) => {
            let r = convert::v0_1::accuse_request(r);
            let accusation = live.run(limits, |bot, store| player(bot).call_accuse(store, r))?;
            Ok(Reply::Accuse {
                accusation: accusation.map(convert::v0_1::accusation_back),
            })
        }
        Request::Move(r) => {
            let r = convert::v0_1::move_request(r);
            let to = live.run(limits, |bot, store| player(bot).call_move_to(store, &r))?;
            Ok(Reply::Move {
                to: convert::v0_1::position_back(to),
            })
        }
        Request::Suggest(r) => {
            let r = convert::v0_1::suggest_request(r);
            let suggestion = live.run(limits, |bot, store| player(bot).call_suggest(store, &r))?;
            Ok(Reply::Suggest {
                suggestion: suggestion.map(convert::v0_1::suggestion_back),
            })
        }
        Request::Respond(r) => {
            let r = convert::v0_1::respond_request(r);
            let card = live.run(limits, |bot, store| player(bot).call_respond(store, &r))?;
            Ok(Reply::Respond {
                card: card.map(Card),
            })
        }
    }
}

impl Exchange for WasmBot {
    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault> {
        self.dispatch(request)
    }

    fn fuel_used(&self) -> Option<u64> {
        Some(self.stats.total)
    }

    /// The guest's stderr, then its stdout (which is not the protocol in a
    /// component, so anything there is the author's own printing).
    fn stderr(&self, _abandoned: bool) -> Option<String> {
        let mut text = WasmBot::stderr(self);
        let stdout = self.stdout();
        if !stdout.is_empty() {
            text.push_str("\n[stdout]\n");
            text.push_str(&stdout);
        }
        Some(text)
    }
}

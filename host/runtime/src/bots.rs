//! Bot specs (`KIND:TARGET`) and turning them into seated bots. Every loader
//! hands the engine a [`SeatController`]; the engine never learns which kind.

use std::fmt;
use std::str::FromStr;

use clue_engine::{InProcess, SeatController};
use serde::{Deserialize, Serialize};

use crate::sticky::{Exchange, Sticky};

/// How a bot is loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BotKind {
    /// Compiled into the host, run in-process.
    Builtin,
    /// A Rust cdylib through the stable ABI, in a worker process (docs/native.md).
    Native,
    /// A Rust cdylib through the stable ABI, loaded into the host's process:
    /// only for bots you trust (it cannot be pre-empted or survived).
    NativeTrusted,
    /// A WebAssembly component.
    Wasm,
    /// A process speaking the JSON-lines protocol.
    Jsonl,
    /// A process speaking the `seeds/000` framework text protocol.
    Framework,
    /// A process speaking the `seeds/001` UniClue client protocol.
    Uniclue,
    /// A process speaking the 2014 Speed Clue TCP protocol.
    Speedclue,
}

impl BotKind {
    pub const ALL: [BotKind; 8] = [
        BotKind::Builtin,
        BotKind::Native,
        BotKind::NativeTrusted,
        BotKind::Wasm,
        BotKind::Jsonl,
        BotKind::Framework,
        BotKind::Uniclue,
        BotKind::Speedclue,
    ];

    /// Whether a bot of this kind is a program the host starts and talks to
    /// over pipes or a socket (a command line), rather than a file it loads
    /// (native, wasm) or a name (built-in).
    pub fn is_process(self) -> bool {
        match self {
            BotKind::Jsonl | BotKind::Framework | BotKind::Uniclue | BotKind::Speedclue => true,
            BotKind::Builtin | BotKind::Native | BotKind::NativeTrusted | BotKind::Wasm => false,
        }
    }

    /// Whether a bot of this kind is a file the host loads (native, wasm).
    pub fn is_file(self) -> bool {
        matches!(
            self,
            BotKind::Native | BotKind::NativeTrusted | BotKind::Wasm
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            BotKind::Builtin => "builtin",
            BotKind::Native => "native",
            BotKind::NativeTrusted => "native-trusted",
            BotKind::Wasm => "wasm",
            BotKind::Jsonl => "jsonl",
            BotKind::Framework => "framework",
            BotKind::Uniclue => "uniclue",
            BotKind::Speedclue => "speedclue",
        }
    }
}

/// A bot as named on the command line or in a tournament file: `builtin:notebook`,
/// `native:target/release/libnotebook.so`, `jsonl:python3 bot.py`, ...
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BotSpec {
    pub kind: BotKind,
    pub target: String,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    #[error("bot `{0}` has no kind: write it as KIND:TARGET, e.g. builtin:notebook")]
    NoKind(String),
    /// `hint`: [`crate::suggest::did_you_mean`]'s, or nothing.
    #[error("bot `{spec}`: unknown kind `{kind}` (expected one of: {expected}){hint}")]
    UnknownKind {
        spec: String,
        kind: String,
        expected: String,
        hint: String,
    },
    #[error("bot `{0}`: nothing after the colon")]
    NoTarget(String),
    #[error("unknown built-in bot `{name}` (built-in bots: {known}){hint}")]
    UnknownBuiltin {
        name: String,
        known: String,
        hint: String,
    },
    #[error("bot `{spec}`: {kind} bots are not supported by this build of the host yet")]
    Unsupported { spec: String, kind: &'static str },
    /// A wasm bot that does not load (docs/wasm.md).
    #[error("{0}")]
    Wasm(String),
    /// A process bot that does not start (docs/protocol.md).
    #[error("bot `{spec}`: {message}")]
    Process { spec: String, message: String },
    /// A native bot that does not load (docs/native.md).
    #[error("{0}")]
    Native(String),
    /// `builtin:human` asked of a caller that has no person to seat.
    #[error("builtin:human plays at a terminal: only `clue play` and `clue framework` seat it")]
    Human,
}

/// The error for a built-in bot name that is none of [`BUILTINS`] (the
/// tournament file's check words it the same way).
pub fn unknown_builtin(name: &str) -> SpecError {
    SpecError::UnknownBuiltin {
        name: name.into(),
        known: BUILTINS.join(", "),
        hint: crate::suggest::did_you_mean(name, BUILTINS),
    }
}

impl FromStr for BotSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (kind, target) = s
            .split_once(':')
            .ok_or_else(|| SpecError::NoKind(s.into()))?;
        let kind = BotKind::ALL
            .into_iter()
            .find(|k| k.name() == kind.trim())
            .ok_or_else(|| SpecError::UnknownKind {
                spec: s.into(),
                kind: kind.into(),
                expected: BotKind::ALL.map(BotKind::name).join(", "),
                hint: crate::suggest::did_you_mean(kind, BotKind::ALL.map(BotKind::name)),
            })?;
        let target = target.trim();
        if target.is_empty() {
            return Err(SpecError::NoTarget(s.into()));
        }
        if kind == BotKind::Builtin && !BUILTINS.contains(&target) && target != HUMAN {
            return Err(unknown_builtin(target));
        }
        Ok(BotSpec {
            kind,
            target: target.to_string(),
        })
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.kind.name(), self.target)
    }
}

/// The bots compiled into the host.
pub const BUILTINS: [&str; 4] = ["clueless", "notebook", "sleuth", "rival"];

include!(concat!(env!("OUT_DIR"), "/builtin_code.rs"));

/// The SHA-256 of a built-in bot's code: the sources of its player crate
/// and of the workspace's crates it uses, and the versions `Cargo.lock`
/// pins of the other crates it uses (`build/fingerprint.rs`). Two `clue`
/// binaries built from the same sources and lock file give it the same on
/// any machine; `None` for a name that is not one of [`BUILTINS`].
pub fn builtin_code(name: &str) -> Option<&'static str> {
    BUILTIN_CODE
        .iter()
        .find(|(bot, _)| *bot == name)
        .map(|(_, code)| *code)
}

/// `builtin:human`: the person at this terminal (`clue play`; not a tournament entrant).
pub const HUMAN: &str = "human";

/// Creates a fresh built-in bot by name. `human` is not one of them: the
/// person at a terminal is seated by the `clue` binary (see
/// [`SpecError::Human`]).
pub fn builtin(name: &str) -> Option<Box<dyn SeatController>> {
    match name {
        "clueless" => Some(in_process(clueless::Clueless::default())),
        "notebook" => Some(in_process(notebook::Notebook::default())),
        "sleuth" => Some(in_process(sleuth::Sleuth::default())),
        "rival" => Some(in_process(rival::Rival::default())),
        _ => None,
    }
}

/// A built-in bot answers every call (its bridge cannot fault), so
/// [`Sticky`] serves it only for the `call` spans: when those are logged it
/// goes through `Sticky` like every other runtime's bot; otherwise it is
/// seated bare, and a call costs what it did before there were spans (a
/// few nanoseconds of a call this cheap, docs/logging.md).
fn in_process<P: clue_plugin_api::Player + 'static>(player: P) -> Box<dyn SeatController> {
    if crate::sticky::calls_logged() {
        Box::new(Sticky::new(InProcess(player)))
    } else {
        Box::new(InProcess(player))
    }
}

impl<P: clue_plugin_api::Player> Exchange for InProcess<P> {
    fn exchange(
        &mut self,
        request: &clue_plugin_api::Request,
    ) -> Result<clue_plugin_api::Reply, clue_engine::Fault> {
        self.call(request)
    }
}

/// Limits a tournament or a command sets on one bot; `None` keeps the
/// runtime's default. Each runtime applies what it can enforce: the time per
/// call everywhere, fuel in wasm, memory in wasm (linear memory) and in
/// processes and isolated native workers (their memory cgroup where one is
/// writable, else their address space).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BotLimits {
    pub time_per_call: Option<std::time::Duration>,
    pub fuel: Option<u64>,
    pub memory_bytes: Option<u64>,
    /// Run a process bot or isolated native worker without its sandbox
    /// (`sandbox: off` in a tournament file); the sandbox is on otherwise
    /// (docs/process-sandbox.md).
    pub no_sandbox: bool,
}

/// Seats a bot for one game with the runtimes' default limits.
pub fn connect(spec: &BotSpec) -> Result<Box<dyn SeatController>, SpecError> {
    connect_with(spec, &BotLimits::default())
}

/// Which runtime runs a bot of this kind, for logs.
pub fn runtime_of(kind: BotKind) -> &'static str {
    match kind {
        BotKind::Builtin => "in-process",
        BotKind::Native => "native-worker",
        BotKind::NativeTrusted => "native-in-process",
        BotKind::Wasm => "wasmtime",
        BotKind::Jsonl | BotKind::Framework | BotKind::Uniclue | BotKind::Speedclue => "process",
    }
}

/// Seats a bot for one game under `limits`.
pub fn connect_with(
    spec: &BotSpec,
    limits: &BotLimits,
) -> Result<Box<dyn SeatController>, SpecError> {
    let process_limits = |base: crate::process::ProcessLimits| crate::process::ProcessLimits {
        message: limits.time_per_call.unwrap_or(base.message),
        address_space: limits.memory_bytes.or(base.address_space),
        sandbox: crate::sandbox::SandboxPolicy {
            enabled: base.sandbox.enabled && !limits.no_sandbox,
            memory: limits.memory_bytes.or(base.sandbox.memory),
            ..base.sandbox.clone()
        },
        ..base
    };
    // The seat's span (the caller's, e.g. the arena's `seat`) learns which
    // runtime runs the bot; the bot's own calls become its children.
    tracing::Span::current().record("runtime", runtime_of(spec.kind));
    tracing::debug!(bot = %spec, runtime = runtime_of(spec.kind), "seating");
    match spec.kind {
        BotKind::Builtin if spec.target == HUMAN => Err(SpecError::Human),
        BotKind::Builtin => builtin(&spec.target).ok_or_else(|| unknown_builtin(&spec.target)),
        BotKind::Native => crate::native::isolated::IsolatedNative::spawn(
            std::path::Path::new(&spec.target),
            &process_limits(crate::native::isolated::worker_limits()),
        )
        .map(|bot| Box::new(bot) as Box<dyn SeatController>)
        .map_err(|e| SpecError::Native(e.to_string())),
        BotKind::NativeTrusted => crate::native::TrustedNative::load(
            std::path::Path::new(&spec.target),
            limits
                .time_per_call
                .unwrap_or(crate::native::DEFAULT_CALL_LIMIT),
        )
        .map(|bot| Box::new(bot) as Box<dyn SeatController>)
        .map_err(|e| SpecError::Native(e.to_string())),
        BotKind::Jsonl | BotKind::Framework | BotKind::Uniclue | BotKind::Speedclue => {
            use crate::process::{self, Protocol};
            let protocol = match spec.kind {
                BotKind::Framework => Protocol::Framework,
                BotKind::Uniclue => Protocol::Uniclue,
                BotKind::Speedclue => Protocol::Speedclue,
                _ => Protocol::Jsonl,
            };
            let limits = process_limits(process::ProcessLimits::default());
            process::connect(protocol, &spec.target, &limits).map_err(|e| SpecError::Process {
                spec: spec.to_string(),
                message: e.to_string(),
            })
        }
        BotKind::Wasm => {
            let prepared = crate::wasm::prepare(std::path::Path::new(&spec.target))
                .map_err(|e| SpecError::Wasm(e.to_string()))?;
            let base = match limits.time_per_call {
                Some(time) => crate::wasm::WasmLimits::for_time(time),
                None => crate::wasm::WasmLimits::default(),
            };
            let wasm_limits = crate::wasm::WasmLimits {
                fuel_per_call: limits.fuel.or(base.fuel_per_call),
                memory_bytes: limits.memory_bytes.map_or(base.memory_bytes, |m| {
                    usize::try_from(m).unwrap_or(usize::MAX)
                }),
                ..base
            };
            tracing::debug!(
                fuel_per_call = wasm_limits.fuel_per_call,
                memory_bytes = wasm_limits.memory_bytes,
                "wasm sandbox set up"
            );
            Ok(Box::new(crate::wasm::WasmBot::new(prepared, wasm_limits)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every built-in bot has the fingerprint of its code, each its own
    /// (`rival` uses `sleuth`'s crates but is not `sleuth`), and nothing
    /// else has one.
    #[test]
    fn every_built_in_bot_has_its_codes_fingerprint() {
        let codes: Vec<&str> = BUILTINS
            .iter()
            .map(|bot| builtin_code(bot).unwrap_or_else(|| panic!("no code for {bot}")))
            .collect();
        for code in &codes {
            assert!(
                code.len() == 64 && code.bytes().all(|b| b.is_ascii_hexdigit()),
                "{code}"
            );
        }
        let distinct: std::collections::BTreeSet<&&str> = codes.iter().collect();
        assert_eq!(distinct.len(), BUILTINS.len(), "{codes:?}");
        assert_eq!(builtin_code(HUMAN), None);
        assert_eq!(builtin_code("sherlock"), None);
    }
}

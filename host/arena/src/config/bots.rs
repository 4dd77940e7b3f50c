//! One bot of a tournament file: its entry ([`BotEntry`]: kind, what it
//! plays from, isolation, sandbox, limits, build) and the checks of its
//! lines, each error at the line it is about.

use std::path::Path;

use clue_plugin_api::Variant;
use clue_runtime::bots::{BUILTINS, BotKind, BotSpec, unknown_builtin};
use clue_runtime::suggest::did_you_mean;
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

use super::build::{Build, RawBuild, validate_build};
use super::files::paths_beside_file;
use super::{FileError, Pos};

/// Resource limits of a bot call; `None` leaves the runtime's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Wall time per call, in milliseconds.
    pub time_per_call_ms: Option<u64>,
    /// Wasm fuel per call.
    pub fuel: Option<u64>,
    /// Memory, in MiB.
    pub memory_mb: Option<u64>,
}

impl Limits {
    /// These limits, with `fallback` filling what is not set.
    pub fn or(self, fallback: Limits) -> Limits {
        Limits {
            time_per_call_ms: self.time_per_call_ms.or(fallback.time_per_call_ms),
            fuel: self.fuel.or(fallback.fuel),
            memory_mb: self.memory_mb.or(fallback.memory_mb),
        }
    }
}

/// Whether a bot runs with the host's full trust or in its sandbox.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Isolation {
    Trusted,
    #[default]
    Isolated,
}

/// `sandbox:` of a tournament file or of one bot: `on` (the default) or
/// `off`, the explicit opt-out that runs process bots and isolated native
/// workers as ordinary processes of the host's user (docs/process-sandbox.md).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sandbox {
    #[default]
    On,
    Off,
}

/// One entrant of the tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotEntry {
    pub name: String,
    /// What [`clue_runtime::bots::connect`] seats: native and wasm paths are resolved
    /// against the tournament file's folder.
    pub spec: BotSpec,
    pub isolation: Isolation,
    /// The bot's `sandbox:`, else the tournament's.
    #[serde(default)]
    pub sandbox: Sandbox,
    /// The bot's own limits, the tournament's filling the rest.
    pub limits: Limits,
    /// Run once before the first game.
    pub build: Option<Build>,
    /// Where the bot's path or command is written, for errors found later.
    pub target_pos: Pos,
    pub build_pos: Pos,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBot {
    pub(super) name: Spanned<String>,
    /// Optional to the parser, so that its absence is told with the kinds.
    kind: Option<Spanned<String>>,
    path: Option<Spanned<String>>,
    command: Option<Spanned<String>>,
    isolation: Option<Spanned<Isolation>>,
    sandbox: Option<Sandbox>,
    limits: Option<Limits>,
    build: Option<Spanned<RawBuild>>,
}

/// Which variants a bot kind can play: the text protocols each speak one.
pub fn plays(kind: BotKind, variant: Variant) -> bool {
    match kind {
        BotKind::Framework => variant == Variant::Framework,
        BotKind::Uniclue => variant == Variant::Uniclue,
        BotKind::Speedclue => variant == Variant::Speedclue,
        // Built-in, native, wasm and JSON-lines bots speak the full vocabulary.
        _ => true,
    }
}

pub(super) fn validate_bot(
    bot: &RawBot,
    variant: Variant,
    limits: Limits,
    sandbox: Sandbox,
    base_dir: &Path,
    file: &str,
) -> Result<BotEntry, FileError> {
    let err = |pos: Pos, message: String| FileError::at(file, pos, message);
    let name = bot.name.value.trim();
    if name.is_empty() {
        return Err(err(
            Pos::from(&bot.name),
            "a bot name may not be empty".into(),
        ));
    }
    // A name is printed as it is in every standings table, the progress
    // line and the browser's list: one from an entrants' list must not
    // clear the organiser's screen, break a table's rows or reorder it.
    if let Some(c) = name
        .chars()
        .find(|&c| c == '\t' || crate::account::unsafe_char(c))
    {
        return Err(err(
            Pos::from(&bot.name),
            format!(
                "bot `{}`: a bot name may not hold U+{:04X} (a control character, a direction override or an invisible character): names are printed as they are in every report",
                crate::account::printable(name),
                u32::from(c)
            ),
        ));
    }
    let Some(kind_at) = &bot.kind else {
        return Err(err(
            Pos::from(&bot.name),
            format!(
                "bot `{name}`: no `kind` (one of: {})",
                BotKind::ALL.map(BotKind::name).join(", ")
            ),
        ));
    };
    let kind = BotKind::ALL
        .into_iter()
        .find(|k| k.name() == kind_at.value)
        .ok_or_else(|| {
            err(
                Pos::from(kind_at),
                format!(
                    "bot `{name}`: unknown kind `{}` (expected one of: {}){}",
                    kind_at.value,
                    BotKind::ALL.map(BotKind::name).join(", "),
                    did_you_mean(&kind_at.value, BotKind::ALL.map(BotKind::name)),
                ),
            )
        })?;
    if !plays(kind, variant) {
        return Err(err(
            Pos::from(kind_at),
            format!(
                "bot `{name}`: the {} protocol plays only {}, not {variant}",
                kind.name(),
                kind.name()
            ),
        ));
    }
    let process = kind.is_process();
    let (wanted, wrong) = if process {
        (
            &bot.command,
            bot.path.as_ref().map(|p| (p, "path", "command")),
        )
    } else {
        (
            &bot.path,
            bot.command.as_ref().map(|c| (c, "command", "path")),
        )
    };
    if let Some((at, given, want)) = wrong {
        return Err(err(
            Pos::from(at),
            format!(
                "bot `{name}`: {} bots take `{want}`, not `{given}`",
                kind.name()
            ),
        ));
    }
    let target = wanted.as_ref().ok_or_else(|| {
        let want = match kind {
            BotKind::Builtin => {
                format!("`path`, the built-in bot's name ({})", BUILTINS.join(", "))
            }
            _ if process => "`command`, the command line that starts it".to_string(),
            _ => "`path`, its file".to_string(),
        };
        err(
            Pos::from(&bot.name),
            format!("bot `{name}`: a {} bot needs {want}", kind.name()),
        )
    })?;
    let target_pos = Pos::from(target);
    let text = target.value.trim();
    if text.is_empty() {
        return Err(err(
            target_pos,
            format!("bot `{name}`: empty path or command"),
        ));
    }
    let resolved = match kind {
        BotKind::Builtin => {
            if !BUILTINS.contains(&text) {
                return Err(err(
                    target_pos,
                    format!("bot `{name}`: {}", unknown_builtin(text)),
                ));
            }
            text.to_string()
        }
        kind if kind.is_file() => base_dir.join(text).display().to_string(),
        _ => paths_beside_file(text, base_dir),
    };
    let bot_sandbox = bot.sandbox.unwrap_or(sandbox);
    let build = bot
        .build
        .as_ref()
        .map(|b| validate_build(&b.value, name, bot_sandbox, base_dir, file))
        .transpose()?;
    let isolation = bot.isolation.as_ref().map(|i| i.value).unwrap_or_default();
    // A build in the sandbox is for an entrant not trusted: its bot may not
    // then run outside it.
    if let (Some(_), Some(at)) = (build.as_ref().filter(|b| b.sandboxed), &bot.build) {
        if bot_sandbox == Sandbox::Off {
            return Err(err(
                Pos::from(at),
                format!(
                    "bot `{name}`: its build runs in the sandbox (`sandbox: on` in its \
                     `build:`) but the bot itself would not (`sandbox: off`): an entrant whose \
                     build you do not trust should not play unsandboxed; drop one of them"
                ),
            ));
        }
        if let Some(trusted) = bot
            .isolation
            .as_ref()
            .filter(|i| i.value == Isolation::Trusted && kind == BotKind::Native)
        {
            return Err(err(
                Pos::from(trusted),
                format!(
                    "bot `{name}`: `isolation: trusted` loads the library into `clue` itself, \
                     but its build runs in the sandbox, as for an entrant you do not trust: \
                     drop one of them"
                ),
            ));
        }
    }
    // A trusted native plugin is loaded in-process; every other bot keeps its kind.
    let kind = match (kind, isolation) {
        (BotKind::Native, Isolation::Trusted) => BotKind::NativeTrusted,
        (kind, _) => kind,
    };
    Ok(BotEntry {
        name: name.to_string(),
        spec: BotSpec {
            kind,
            target: resolved,
        },
        isolation,
        sandbox: bot_sandbox,
        limits: bot.limits.unwrap_or_default().or(limits),
        build,
        target_pos,
        build_pos: bot.build.as_ref().map(Pos::from).unwrap_or_default(),
    })
}

//! A bot's `build:` in a tournament file: the one-line form (run in the
//! file's folder, as the user, for the user's own bots) and the map form
//! `{command, dir}` (run sandboxed in the entrant's folder, the only one it
//! may write; `clue_runtime::process::build`), validated with their
//! positions: the folder a sandboxed build may write must be an entrant's
//! own (docs/tournament.md, "Building entrants").

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;

use super::{BotEntry, FileError, Pos, Sandbox, positive};

/// A bot's `build:`: a shell command run once before the first game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    pub command: String,
    /// The map form's `dir` (resolved against the file's folder): the
    /// entrant's folder, where the build runs and the only one it may write
    /// when sandboxed. `None` for the one-line form, which runs in the
    /// file's folder.
    pub dir: Option<PathBuf>,
    /// Whether it runs in the sandbox: the map form does unless it, its
    /// bot or the tournament says `sandbox: off`; the one-line form never.
    pub sandboxed: bool,
    /// The map form's `time_limit_s` (default 600).
    pub time_limit_s: u64,
    /// The map form's `memory_mb` (default 4096).
    pub memory_mb: u64,
    /// The map form's `disk_mb`: how much it may add to its folder
    /// (default 4096).
    pub disk_mb: u64,
    /// The map form's `scratch_mb`: the size of its scratch `/tmp`, also
    /// its `HOME`, where pip, npm and cargo keep their caches (default 256).
    pub scratch_mb: u64,
    /// The map form's `network`: the hosts a sandboxed build may reach
    /// through the host's proxy, as `host:port` (`*.domain:port` for every
    /// host of a domain); empty for none, and then it has no network.
    pub network: Vec<String>,
    /// Where `dir` is written.
    pub dir_pos: Pos,
}

impl Build {
    /// Whether it runs in the sandbox now: [`Build::sandboxed`], unless
    /// `--no-sandbox` opted out for the whole run.
    pub fn runs_sandboxed(&self) -> bool {
        self.sandboxed && clue_runtime::sandbox::SandboxPolicy::default().enabled
    }
}

/// The default wall time of a sandboxed build, in seconds.
pub const BUILD_TIME_LIMIT_S: u64 = 600;
/// The default memory of a sandboxed build, in MiB.
pub const BUILD_MEMORY_MB: u64 = 4096;
/// The default of what a sandboxed build may add to its folder, in MiB.
pub const BUILD_DISK_MB: u64 = 4096;
/// The default size of a sandboxed build's scratch folder, in MiB.
pub const BUILD_SCRATCH_MB: u64 = 256;

/// `build:` as written: one line, or a map.
pub(super) enum RawBuild {
    Line(String),
    Map(Box<RawBuildMap>),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBuildMap {
    command: Spanned<String>,
    dir: Spanned<String>,
    sandbox: Option<Sandbox>,
    time_limit_s: Option<Spanned<u64>>,
    memory_mb: Option<Spanned<u64>>,
    disk_mb: Option<Spanned<u64>>,
    scratch_mb: Option<Spanned<u64>>,
    network: Option<Vec<Spanned<String>>>,
}

impl<'de> Deserialize<'de> for RawBuild {
    /// A string or a map, each with its own errors (`serde(untagged)` would
    /// say only that neither matched).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<RawBuild, D::Error> {
        struct Either;
        impl<'de> serde::de::Visitor<'de> for Either {
            type Value = RawBuild;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a shell command, or a map with `command` and `dir`")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<RawBuild, E> {
                Ok(RawBuild::Line(v.to_string()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<RawBuild, A::Error> {
                RawBuildMap::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(|m| RawBuild::Map(Box::new(m)))
            }
        }
        d.deserialize_any(Either)
    }
}

/// Why a built bot's file may not be used: it lies in its sandboxed
/// build's folder by name but leads through a symbolic link out of it. The
/// folder's contents are the entrant's (its build may have made the link),
/// and the host reads a wasm file itself, following links: a link to
/// another entrant's file would have the entrant play with that bot. A
/// link into the folders every sandboxed bot sees (the system's, the host's
/// toolchains: `clue_runtime::sandbox::seen_by_every_bot`) is allowed, as
/// the sandbox allows it: no entrant writes there, and it is what a virtual
/// environment's `python` is (`.venv/bin/python` ->
/// `~/.pyenv/versions/3.11.7/bin/python3.11`, or `/usr/bin/python3`).
pub(super) fn linked_out(bot: &BotEntry) -> Option<String> {
    let build = bot.build.as_ref().filter(|b| b.runs_sandboxed())?;
    let dir = build.dir.as_deref()?;
    let file = bot_file(bot)?;
    let (named, dir_named) = (by_name(&file), by_name(dir));
    if !named.starts_with(&dir_named) {
        return None;
    }
    let (real, dir_real) = (
        std::fs::canonicalize(&named).ok()?,
        std::fs::canonicalize(dir).ok()?,
    );
    let stays = real.starts_with(&dir_real) || clue_runtime::sandbox::seen_by_every_bot(&real);
    (!stays).then(|| {
        format!(
            "its file {} leads through a symbolic link to {}, out of its build's folder {} \
             (an entrant's link could so name another entrant's bot)",
            named.display(),
            real.display(),
            dir_real.display()
        )
    })
}

/// The file a bot plays from: a native or wasm bot's path, a process bot's
/// program when written as a path; `None` for a built-in bot or a program
/// found in `PATH`.
fn bot_file(bot: &BotEntry) -> Option<PathBuf> {
    if bot.spec.kind.is_file() {
        return Some(PathBuf::from(&bot.spec.target));
    }
    let program = bot.spec.target.split_whitespace().next()?;
    (bot.spec.kind.is_process() && program.contains('/')).then(|| PathBuf::from(program))
}

/// `path` made absolute with its `.` and `..` taken away by the words
/// alone, as if no folder on it were a link.
fn by_name(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    clue_runtime::sandbox::lexically_normal(&absolute)
}

/// A sandboxed build whose folder holds another bot's file or build folder
/// (or lies in that build's folder): it could overwrite what another bot
/// runs, a native plugin the host may load in its own process among them.
/// Where its `dir` is written, and why.
pub(super) fn builds_overlapping(bots: &[BotEntry]) -> Option<(Pos, String)> {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    for bot in bots {
        let Some(build) = bot.build.as_ref().filter(|b| b.sandboxed) else {
            continue;
        };
        let Some(dir) = build.dir.as_deref().map(real) else {
            continue;
        };
        for other in bots.iter().filter(|o| o.name != bot.name) {
            // The file itself may not be built yet: its folder decides.
            let file = bot_file(other).map(|f| match (f.parent(), f.file_name()) {
                (Some(parent), Some(name)) => real(parent).join(name),
                _ => real(&f),
            });
            let other_dir = other
                .build
                .as_ref()
                .and_then(|b| b.dir.as_deref())
                .map(real);
            let clash = if let Some(file) = file.filter(|f| f.starts_with(&dir)) {
                format!("holds {}, the file of bot `{}`", file.display(), other.name)
            } else if let Some(other_dir) =
                other_dir.filter(|o| o.starts_with(&dir) || dir.starts_with(o))
            {
                format!(
                    "overlaps {}, the build folder of bot `{}`",
                    other_dir.display(),
                    other.name
                )
            } else {
                continue;
            };
            return Some((
                build.dir_pos,
                format!(
                    "bot `{}`: the build's folder {} {clash}; a sandboxed build may write \
                     only its own entrant's folder: give each entrant a folder of its own",
                    bot.name,
                    dir.display()
                ),
            ));
        }
    }
    None
}

/// A bot's `build:`: the map form's folder must be a folder of its own (not
/// the tournament's, nor one the sandbox refuses to let a build write).
pub(super) fn validate_build(
    raw: &RawBuild,
    name: &str,
    sandbox: Sandbox,
    base_dir: &Path,
    file: &str,
) -> Result<Build, FileError> {
    let err =
        |pos: Pos, message: String| FileError::at(file, pos, format!("bot `{name}`: {message}"));
    let map = match raw {
        RawBuild::Line(command) => {
            return Ok(Build {
                command: command.clone(),
                dir: None,
                sandboxed: false,
                time_limit_s: BUILD_TIME_LIMIT_S,
                memory_mb: BUILD_MEMORY_MB,
                disk_mb: BUILD_DISK_MB,
                scratch_mb: BUILD_SCRATCH_MB,
                network: Vec::new(),
                dir_pos: Pos::default(),
            });
        }
        RawBuild::Map(map) => map,
    };
    if map.command.value.trim().is_empty() {
        return Err(err(Pos::from(&map.command), "empty build command".into()));
    }
    let at_least_1 = |v: &Option<Spanned<u64>>, default: u64, what: &str| {
        positive(v, default, what, file).map_err(|e| err(e.pos, e.message))
    };
    let time_limit_s = at_least_1(&map.time_limit_s, BUILD_TIME_LIMIT_S, "time_limit_s")?;
    let memory_mb = at_least_1(&map.memory_mb, BUILD_MEMORY_MB, "memory_mb")?;
    let disk_mb = at_least_1(&map.disk_mb, BUILD_DISK_MB, "disk_mb")?;
    let scratch_mb = at_least_1(&map.scratch_mb, BUILD_SCRATCH_MB, "scratch_mb")?;
    let mut network = Vec::new();
    for entry in map.network.iter().flatten() {
        let allowed = clue_runtime::process::proxy::Allowed::parse(&entry.value)
            .map_err(|why| err(Pos::from(entry), format!("the build's network: {why}")))?;
        network.push(allowed.to_string());
    }
    let dir_pos = Pos::from(&map.dir);
    let dir = base_dir.join(map.dir.value.trim());
    if !dir.is_dir() {
        return Err(err(
            dir_pos,
            format!("the build's folder {} is not a folder", dir.display()),
        ));
    }
    let sandboxed = map.sandbox.unwrap_or(sandbox) == Sandbox::On;
    if sandboxed {
        let (real, home) = (std::fs::canonicalize(&dir), std::fs::canonicalize(base_dir));
        if let (Ok(real), Ok(home)) = (real, home)
            && home.starts_with(&real)
        {
            return Err(err(
                dir_pos,
                format!(
                    "the build's folder {} holds the tournament file, and a sandboxed build \
                     may write only an entrant's own folder: name that folder",
                    dir.display()
                ),
            ));
        }
        if let Some(refused) = clue_runtime::sandbox::refuses_build(&dir) {
            return Err(err(dir_pos, refused.to_string()));
        }
    }
    Ok(Build {
        command: map.command.value.clone(),
        dir: Some(dir),
        sandboxed,
        time_limit_s,
        memory_mb,
        disk_mb,
        scratch_mb,
        network,
        dir_pos,
    })
}

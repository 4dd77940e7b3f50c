//! The tournament file (`tournament.yaml`): parsed with source locations, then
//! validated into a [`Tournament`]. Every error names the file, line and column.

use std::path::{Path, PathBuf};

use clue_engine::{ConfigError, GameConfig, GameOptions, acting_seats};
use clue_plugin_api::Variant;
use clue_runtime::suggest::did_you_mean;
use serde::{Deserialize, Serialize};
use serde_saphyr::Spanned;
use sha2::{Digest, Sha256};

use crate::board_files;

mod bots;
mod build;
mod files;
pub use bots::{BotEntry, Isolation, Limits, Sandbox, plays};
use bots::{RawBot, validate_bot};
use build::builds_overlapping;
pub use build::{BUILD_DISK_MB, BUILD_MEMORY_MB, BUILD_TIME_LIMIT_S, Build};
pub use files::{check_files, given_bot_problem, refused_bots};
use files::{check_files_before_builds, paths_beside_file};

pub use crate::span::Pos;

/// A tournament file that cannot be run: where, and why. A position of
/// line 0 (a file that cannot be read at all) is not written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub file: String,
    pub pos: Pos,
    pub message: String,
    /// The other errors the same check found (every bot whose files are
    /// refused, say, not only the first), each written on a line of its own.
    pub more: Vec<FileError>,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.pos.line {
            0 => write!(f, "{}: {}", self.file, self.message),
            line => write!(
                f,
                "{}:{line}:{}: {}",
                self.file, self.pos.column, self.message
            ),
        }?;
        for more in &self.more {
            write!(f, "\n{more}")?;
        }
        Ok(())
    }
}

impl std::error::Error for FileError {}

impl FileError {
    /// The error at `pos` of `file`.
    pub fn at(file: &str, pos: Pos, message: impl Into<String>) -> FileError {
        FileError {
            file: file.to_string(),
            pos,
            message: message.into(),
            more: Vec::new(),
        }
    }
}

/// How tables are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ScheduleKind {
    /// Every combination of N bots, every seat order, `repeats` times.
    AllSeatings { repeats: u32 },
    /// `games` tables of N distinct bots drawn from the tournament seed.
    Random { games: u32 },
    /// The 2014 Speed Clue contest's format (its `tournament.md` and
    /// `ContestServer.java`): every player count from 3 to min(6, bots),
    /// every combination of bots, every seat order, `games` games each in a
    /// row. The player counts are the settings (`players=3`, ...).
    SpeedclueContest { games: u32 },
}

impl ScheduleKind {
    /// The names the file takes, for messages.
    pub const NAMES: &str = "all-seatings, random or speedclue-contest";
}

/// The player counts the contest's format plays with `bots` entrants:
/// `for playerCount in range[3..min(6, number of entries)]`.
pub fn contest_player_counts(bots: usize) -> std::ops::RangeInclusive<u8> {
    3..=bots.min(6) as u8
}

/// One setting of a sweep (or the one setting of a tournament without a sweep).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setting {
    /// E.g. `players=4 items=26 hidden=2`, or `default`.
    pub label: String,
    pub config: GameConfig,
}

/// A validated tournament: everything the schedule and the runner need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    /// The file's text, stored with the results so a resume can check it.
    pub source: String,
    /// The file's name, for messages.
    pub file: String,
    /// The folder paths in the file are relative to.
    pub base_dir: PathBuf,
    pub seed: u64,
    pub concurrency: usize,
    pub store: PathBuf,
    pub bots: Vec<BotEntry>,
    pub schedule: ScheduleKind,
    pub settings: Vec<Setting>,
    pub limits: Limits,
    /// The board files the settings name, with their text when loaded.
    pub inputs: Vec<(String, String)>,
}

impl Tournament {
    /// After the builds: each built process bot's command line with the
    /// words its build made beside the file, and not where `clue` runs,
    /// taken beside the file, as the words already there were when the
    /// file was read (`paths_beside_file`; `java -cp entrants/a/out Main`
    /// where the build makes `out`).
    pub fn take_built_paths(&mut self) {
        for bot in &mut self.bots {
            if bot.build.is_some() && bot.spec.kind.is_process() {
                bot.spec.target = paths_beside_file(&bot.spec.target, &self.base_dir);
            }
        }
    }

    /// What a store checks on resume: the tournament file's text and the
    /// text of every board file it names (a file with no boards keeps the
    /// plain hash of its text).
    pub fn fingerprint(&self) -> String {
        self.fingerprint_of(&self.source)
    }

    /// [`Self::fingerprint`] of another text of the file with this
    /// tournament's board files: a store started by `text` is checked
    /// against the board files as they are now, whatever comments the
    /// file has gained since (the settings themselves are compared by
    /// [`settings_of`]).
    pub fn fingerprint_of(&self, text: &str) -> String {
        if self.inputs.is_empty() {
            return hash(text);
        }
        let mut all = text.to_string();
        for (name, text) in &self.inputs {
            all.push('\0');
            all.push_str(name);
            all.push('\0');
            all.push_str(text);
        }
        hash(&all)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    variant: Spanned<String>,
    players: Option<Spanned<u8>>,
    options: Option<Spanned<RawOptions>>,
    seed: Option<u64>,
    concurrency: Option<Spanned<usize>>,
    limits: Option<Limits>,
    sandbox: Option<Sandbox>,
    store: Option<String>,
    /// Default: every seating once (`{kind: all-seatings, repeats: 1}`).
    schedule: Option<Spanned<RawSchedule>>,
    sweep: Option<Vec<Spanned<RawOptions>>>,
    bots: Spanned<Vec<RawBot>>,
}

/// Variant options, named as in the variant file (`--variant-file`).
#[derive(Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOptions {
    players: Option<Spanned<u8>>,
    max_rounds: Option<Spanned<u32>>,
    items: Option<Spanned<u16>>,
    hidden: Option<Spanned<u16>>,
    rooms: Option<Spanned<Vec<Spanned<u8>>>>,
    query_limit: Option<Spanned<u32>>,
    contest_rules: Option<Spanned<bool>>,
    width: Option<Spanned<u16>>,
    persons: Option<Spanned<u16>>,
    weapons: Option<Spanned<u16>>,
    /// csci306/classic: a board layout CSV and its setup TXT (both or neither).
    layout: Option<Spanned<String>>,
    setup: Option<Spanned<String>>,
    /// framework: a board in the protocol's table form.
    table: Option<Spanned<String>>,
}

impl RawOptions {
    /// The options given, without their places.
    fn plain(&self) -> GameOptions {
        let value = |s: &Spanned<u16>| s.value;
        GameOptions {
            max_rounds: self.max_rounds.as_ref().map(|s| s.value),
            items: self.items.as_ref().map(value),
            hidden: self.hidden.as_ref().map(value),
            rooms: (self.rooms.as_ref()).map(|s| s.value.iter().map(|r| r.value).collect()),
            query_limit: self.query_limit.as_ref().map(|s| s.value),
            contest_rules: self.contest_rules.as_ref().map(|s| s.value),
            width: self.width.as_ref().map(value),
            persons: self.persons.as_ref().map(value),
            weapons: self.weapons.as_ref().map(value),
        }
    }

    /// Where option `name` (as [`GameOptions::given`] names it) is written.
    fn pos_of(&self, name: &str) -> Option<Pos> {
        match name {
            "max_rounds" => self.max_rounds.as_ref().map(Pos::from),
            "items" => self.items.as_ref().map(Pos::from),
            "hidden" => self.hidden.as_ref().map(Pos::from),
            "rooms" => self.rooms.as_ref().map(Pos::from),
            "query_limit" => self.query_limit.as_ref().map(Pos::from),
            "contest_rules" => self.contest_rules.as_ref().map(Pos::from),
            "width" => self.width.as_ref().map(Pos::from),
            "persons" => self.persons.as_ref().map(Pos::from),
            "weapons" => self.weapons.as_ref().map(Pos::from),
            _ => None,
        }
    }
}

/// The sections of the file whose fields one may write a level too high,
/// with their fields: `games:` at the top level, where it belongs under
/// `schedule:`.
const SECTIONS: [(&str, &[&str]); 3] = [
    (
        "options",
        &[
            "max_rounds",
            "items",
            "hidden",
            "rooms",
            "query_limit",
            "contest_rules",
            "width",
            "persons",
            "weapons",
            "layout",
            "setup",
            "table",
        ],
    ),
    ("schedule", &["kind", "repeats", "games"]),
    ("limits", &["time_per_call_ms", "fuel", "memory_mb"]),
];

/// Where a field the parser calls unknown belongs, when it is a field of a
/// section the place it was written has (the parser's message lists that
/// place's fields): `; `games` is a field of `schedule:`, indented under it`.
/// A bot's `spec:` (the command line's `KIND:TARGET`) is told how a file
/// writes it.
fn misplaced(message: &str) -> String {
    let Some((field, rest)) = message
        .strip_prefix("unknown field `")
        .and_then(|rest| rest.split_once('`'))
    else {
        return String::new();
    };
    let Some((_, list)) = rest.split_once("expected one of ") else {
        return String::new();
    };
    // The list ends where a "did you mean" begins.
    let here: Vec<&str> = list.split(':').next().unwrap_or(list).split(", ").collect();
    if field == "spec" && here.contains(&"kind") {
        return "; a bot's `KIND:TARGET` is written `kind: KIND` with `command: TARGET` (a \
                process bot) or `path: TARGET` (a native or wasm file)"
            .to_string();
    }
    SECTIONS
        .iter()
        .find(|(section, fields)| here.contains(section) && fields.contains(&field))
        .map(|(section, _)| format!("; `{field}` is a field of `{section}:`, indented under it"))
        .unwrap_or_default()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSchedule {
    /// Optional to the parser, so that its absence is told with the kinds.
    kind: Option<Spanned<String>>,
    repeats: Option<Spanned<u32>>,
    games: Option<Spanned<u32>>,
}

/// Reads and validates a tournament file, including that every bot's file
/// exists (for bots without a `build:` command; see [`check_files`]).
pub fn load(path: &Path) -> Result<Tournament, FileError> {
    let file = path.display().to_string();
    let text = crate::input::read_text(path).map_err(|e| {
        FileError::at(
            &file,
            Pos::default(),
            format!("cannot read the tournament file: {e}"),
        )
    })?;
    let base = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let base = if base.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        base
    };
    // Absolute, so that the paths of its bots are too: a stored game's
    // seats then name their files wherever `clue replay --db` runs, and a
    // resume finds the file's folder from anywhere.
    let base = std::path::absolute(&base).unwrap_or(base);
    parse(&text, &file, &base)
}

/// Validates a tournament file's text. Paths resolve against `base_dir`.
pub fn parse(text: &str, file: &str, base_dir: &Path) -> Result<Tournament, FileError> {
    let err = |pos: Pos, message: String| FileError::at(file, pos, message);
    let raw: RawFile = serde_saphyr::from_str(text).map_err(|e| {
        let (pos, message) = crate::span::yaml_error(&e, text);
        let hint = misplaced(&message);
        err(pos, message + &hint)
    })?;

    let variant: Variant = raw.variant.value.parse().map_err(|_| {
        err(
            Pos::from(&raw.variant),
            format!(
                "unknown variant `{}` (expected one of: {}){}",
                raw.variant.value,
                Variant::ALL.map(Variant::name).join(", "),
                did_you_mean(&raw.variant.value, Variant::ALL.map(Variant::name)),
            ),
        )
    })?;

    let base_options = raw.options.as_ref().map(|o| o.value.clone());
    let options_pos = raw.options.as_ref().map(Pos::from);
    if let Some(p) = base_options.as_ref().and_then(|o| o.players.as_ref()) {
        return Err(err(
            Pos::from(p),
            "`players` belongs at the top level (or in a sweep setting), not in `options`".into(),
        ));
    }
    for options in raw.options.iter().chain(raw.sweep.iter().flatten()) {
        if let Some((pos, why)) = other_variants_option(&options.value, variant) {
            return Err(err(pos, why));
        }
    }
    let schedule = match &raw.schedule {
        Some(schedule) => schedule_of(schedule, file)?,
        None => ScheduleKind::AllSeatings { repeats: 1 },
    };

    // The contest's format plays every player count itself.
    let contest = matches!(schedule, ScheduleKind::SpeedclueContest { .. });
    // Set when `contest`, which only a written `schedule:` makes.
    let kind_pos = raw
        .schedule
        .as_ref()
        .and_then(|s| s.value.kind.as_ref())
        .map(Pos::from);
    if contest {
        let given = raw.players.as_ref().map(Pos::from).or_else(|| {
            raw.sweep
                .iter()
                .flatten()
                .find_map(|s| s.value.players.as_ref().map(Pos::from))
        });
        if let Some(pos) = given {
            return Err(err(
                pos,
                "the `speedclue-contest` schedule plays every player count from 3 to \
                 min(6, bots) itself: leave `players` out"
                    .into(),
            ));
        }
        if raw.bots.value.len() < 3 {
            return Err(err(
                Pos::from(&raw.bots),
                format!(
                    "the `speedclue-contest` schedule needs at least 3 bots, but only {} are listed",
                    raw.bots.value.len()
                ),
            ));
        }
    }
    // Each setting once, or once per player count of the contest's format.
    let counts: Vec<Option<u8>> = if contest {
        contest_player_counts(raw.bots.value.len())
            .map(Some)
            .collect()
    } else {
        vec![None]
    };

    let top_players = raw.players.as_ref().map(|p| (p.value, Pos::from(p)));
    let settings_raw: Vec<(Option<Pos>, RawOptions)> = match &raw.sweep {
        Some(sweep) if sweep.is_empty() => {
            return Err(err(
                Pos::default(),
                "`sweep` is empty: give at least one setting or leave it out".into(),
            ));
        }
        Some(sweep) => sweep
            .iter()
            .map(|s| (Some(Pos::from(s)), s.value.clone()))
            .collect(),
        None => vec![(options_pos, RawOptions::default())],
    };
    let mut settings = Vec::new();
    let mut inputs: Vec<(String, String)> = Vec::new();
    let each = settings_raw
        .iter()
        .flat_map(|(pos, over)| counts.iter().map(move |&count| (pos, over, count)));
    for (setting_pos, over, count) in each {
        let base = base_options.clone().unwrap_or_default();
        let (players, players_pos) = match (count, &over.players, top_players) {
            (Some(count), _, _) => (count, kind_pos),
            (None, Some(p), _) => (p.value, Some(Pos::from(p))),
            (None, None, Some((p, pos))) => (p, Some(pos)),
            (None, None, None) => (GameConfig::default_players(variant), None),
        };
        let mut config = over.plain().or(base.plain()).config(variant, players);
        let layout = over.layout.as_ref().or(base.layout.as_ref());
        let table = over.table.as_ref().or(base.table.as_ref());
        let boards = board_files::read(
            variant,
            layout,
            over.setup.as_ref().or(base.setup.as_ref()),
            table,
            base_dir,
        )
        .map_err(|(pos, message)| err(pos, message))?;
        config.board = boards.board;
        config.framework.table = boards.table;
        for input in boards.inputs {
            if !inputs.contains(&input) {
                inputs.push(input);
            }
        }
        let fallback = setting_pos
            .or(options_pos)
            .unwrap_or(Pos::from(&raw.variant));
        if let Err(e) = clue_engine::check(&config) {
            let pos = match &e {
                // A board's fault, or a deck too large that its files make.
                ConfigError::Board(_)
                | ConfigError::HandTooLarge { .. }
                | ConfigError::DeckTooLarge { .. }
                    if let Some(file) = layout.or(table) =>
                {
                    Pos::from(file)
                }
                ConfigError::Players { .. } => players_pos.unwrap_or(Pos::from(&raw.variant)),
                // The room itself, not the list.
                ConfigError::UniclueRoom(bad) => (over.rooms.as_ref().or(base.rooms.as_ref()))
                    .and_then(|rooms| rooms.value.iter().find(|r| r.value == *bad))
                    .map(Pos::from)
                    .unwrap_or(fallback),
                e => e
                    .options()
                    .iter()
                    .find_map(|&name| match name {
                        "players" => players_pos,
                        name => over.pos_of(name).or(base.pos_of(name)),
                    })
                    .unwrap_or(fallback),
            };
            return Err(err(pos, e.to_string()));
        }
        let label = if raw.sweep.is_some() || contest {
            setting_label(&config, over)
        } else {
            "default".to_string()
        };
        settings.push(Setting { label, config });
    }

    let limits = raw.limits.unwrap_or_default();
    let sandbox = raw.sandbox.unwrap_or_default();
    let mut bots: Vec<BotEntry> = Vec::new();
    for bot in &raw.bots.value {
        bots.push(validate_bot(bot, variant, limits, sandbox, base_dir, file)?);
        let this = &bots[bots.len() - 1];
        if let Some(first) = bots[..bots.len() - 1].iter().find(|b| b.name == this.name) {
            let _ = first;
            let first_pos = raw
                .bots
                .value
                .iter()
                .find(|b| b.name.value == this.name)
                .map(|b| Pos::from(&b.name))
                .unwrap_or_default();
            return Err(err(
                Pos::from(&bot.name),
                format!(
                    "duplicate bot name `{}` (first used at line {})",
                    this.name, first_pos.line
                ),
            ));
        }
    }
    if let Some((pos, message)) = builds_overlapping(&bots) {
        return Err(err(pos, message));
    }
    for setting in &settings {
        let seats = acting_seats(&setting.config);
        if bots.len() < seats {
            return Err(err(
                Pos::from(&raw.bots),
                format!(
                    "{} with {} players seats {seats} bots per game, but only {} are listed",
                    setting.config.variant,
                    setting.config.players,
                    bots.len()
                ),
            ));
        }
    }
    let games = crate::schedule::count(schedule, &settings, bots.len());
    if games > crate::schedule::MAX_GAMES {
        let pos = raw
            .schedule
            .as_ref()
            .map_or_else(|| Pos::from(&raw.bots), Pos::from);
        return Err(err(
            pos,
            format!(
                "this schedule has {games} games, more than the {} a tournament may hold (the \
                 whole schedule is made before play, in memory and in the store): use `kind: \
                 random` with `games:` the number you want",
                crate::schedule::MAX_GAMES
            ),
        ));
    }
    let concurrency = match &raw.concurrency {
        Some(c) if c.value == 0 => {
            return Err(err(Pos::from(c), "concurrency must be at least 1".into()));
        }
        Some(c) if c.value > crate::runner::MAX_CONCURRENCY => {
            return Err(err(Pos::from(c), too_many_at_once(c.value)));
        }
        Some(c) => c.value,
        None => std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(crate::runner::MAX_CONCURRENCY),
    };
    let tournament = Tournament {
        source: text.to_string(),
        file: file.to_string(),
        base_dir: base_dir.to_path_buf(),
        seed: raw.seed.unwrap_or(1),
        concurrency,
        store: PathBuf::from(raw.store.unwrap_or_else(|| "results.sqlite".into())),
        bots,
        schedule,
        settings,
        limits,
        inputs,
    };
    check_files_before_builds(&tournament)?;
    Ok(tournament)
}

/// The schedule a file's `schedule:` names.
fn schedule_of(schedule: &Spanned<RawSchedule>, file: &str) -> Result<ScheduleKind, FileError> {
    let err = |pos: Pos, message: String| FileError::at(file, pos, message);
    let Some(kind) = &schedule.value.kind else {
        let with = match (&schedule.value.games, &schedule.value.repeats) {
            (Some(_), _) => {
                "; `games: G` goes with `kind: random` (G tables drawn from the seed) or \
                 `kind: speedclue-contest` (G games of each table)"
            }
            (None, Some(_)) => "; `repeats: R` goes with `kind: all-seatings`",
            (None, None) => "",
        };
        return Err(err(
            Pos::from(schedule),
            format!("a schedule needs `kind:` ({}){with}", ScheduleKind::NAMES),
        ));
    };
    Ok(match kind.value.as_str() {
        "all-seatings" => ScheduleKind::AllSeatings {
            repeats: positive(&schedule.value.repeats, 1, "repeats", file)?,
        },
        "random" => match &schedule.value.games {
            Some(_) => ScheduleKind::Random {
                games: positive(&schedule.value.games, 1, "games", file)?,
            },
            None => {
                return Err(err(
                    Pos::from(schedule),
                    "a `random` schedule needs `games: G`".into(),
                ));
            }
        },
        "speedclue-contest" => ScheduleKind::SpeedclueContest {
            games: positive(&schedule.value.games, 1, "games", file)?,
        },
        other => {
            return Err(err(
                Pos::from(kind),
                format!(
                    "unknown schedule kind `{other}` (expected {}){}",
                    ScheduleKind::NAMES,
                    did_you_mean(other, ["all-seatings", "random", "speedclue-contest"]),
                ),
            ));
        }
    })
}

/// A count of the file that must be at least 1, or `default` when absent.
fn positive<N: Copy + PartialEq + From<u8>>(
    value: &Option<Spanned<N>>,
    default: N,
    what: &str,
    file: &str,
) -> Result<N, FileError> {
    match value {
        Some(v) if v.value == N::from(0) => Err(FileError::at(
            file,
            Pos::from(v),
            format!("`{what}` must be at least 1"),
        )),
        Some(v) => Ok(v.value),
        None => Ok(default),
    }
}

/// An option of `options` that does not apply to `variant`, where it is
/// and why (`clue_engine::config::option_refused`). A board's files are
/// refused by [`board_files::read`], which says more.
fn other_variants_option(options: &RawOptions, variant: Variant) -> Option<(Pos, String)> {
    let (name, why) = options.plain().refused(variant)?;
    Some((options.pos_of(name)?, why))
}

fn setting_label(config: &GameConfig, over: &RawOptions) -> String {
    let mut parts = vec![format!("players={}", config.players)];
    if config.variant == Variant::Generalized {
        parts.push(format!("items={}", config.generalized.items));
        parts.push(format!("hidden={}", config.generalized.hidden));
    }
    if over.max_rounds.is_some() {
        parts.push(format!("max_rounds={}", config.max_rounds));
    }
    if over.contest_rules.is_some() {
        parts.push(format!("contest_rules={}", config.speedclue.contest_rules));
    }
    if let Some(layout) = &over.layout {
        parts.push(format!("layout={}", layout.value));
    }
    if let Some(table) = &over.table {
        parts.push(format!("table={}", table.value));
    }
    parts.join(" ")
}

/// The SHA-256 of a tournament file's text, in hex.
/// What of a tournament file's text decides its games: the YAML read as
/// data, so that comments, blank lines, quoting and layout do not count,
/// nor do `concurrency` and `store`, which say how many games are played at
/// once and where they are kept, not which games or how. A store refuses a
/// file whose settings differ from the one it was started with, and takes
/// one edited only in those. A text that is not YAML is its own settings.
pub fn settings_of(text: &str) -> String {
    match serde_saphyr::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(mut top)) => {
            top.remove("concurrency");
            top.remove("store");
            // serde_json's maps are ordered by key, so the order of the
            // fields does not count either.
            serde_json::Value::Object(top).to_string()
        }
        _ => text.to_string(),
    }
}

pub fn hash(text: &str) -> String {
    hex(&Sha256::digest(text.as_bytes()))
}

/// Bytes as lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Why `concurrency` (the file's, or `--concurrency`) of `n` is refused.
pub fn too_many_at_once(n: usize) -> String {
    format!(
        "concurrency {n} is more than the {} games one process may play at once (each game \
         starts its bots together, so with process bots that many games would start that many \
         processes at once): for more, run more workers (`clue tournament worker`)",
        crate::runner::MAX_CONCURRENCY
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_written_a_level_too_high_is_told_where_it_belongs() {
        let error = |text: &str| match parse(text, "t.yaml", Path::new(".")) {
            Ok(_) => panic!("accepted: {text}"),
            Err(e) => e.to_string(),
        };
        let bots = "bots:\n  - name: nb\n    kind: builtin\n    path: notebook\n";
        assert_eq!(
            error(&format!("variant: speedclue\ngames: 6\n{bots}")),
            "t.yaml:2:1: unknown field `games`, expected one of variant, players, options, \
             seed, concurrency, limits, sandbox, store, schedule, sweep, bots; `games` is a \
             field of `schedule:`, indented under it"
        );
        assert!(
            error(&format!("variant: speedclue\nmax_rounds: 9\n{bots}"))
                .ends_with("; `max_rounds` is a field of `options:`, indented under it")
        );
        // A bot's own limits.
        assert!(
            error("variant: speedclue\nbots:\n  - name: nb\n    kind: builtin\n    fuel: 9\n")
                .ends_with("; `fuel` is a field of `limits:`, indented under it")
        );
        assert!(
            error("variant: speedclue\nbots:\n  - name: nb\n    spec: builtin:notebook\n")
                .ends_with("; a bot's `KIND:TARGET` is written `kind: KIND` with `command: TARGET` (a process bot) or `path: TARGET` (a native or wasm file)")
        );
        // A field of no section: the parser's words alone.
        assert!(error(&format!("variant: speedclue\nrounds: 9\n{bots}")).ends_with("sweep, bots"));
    }

    #[test]
    fn the_sections_fields_are_fields_of_those_sections() {
        for (section, fields) in SECTIONS {
            for field in fields {
                let text = format!("{field}: null\n");
                let read = match section {
                    "options" => serde_saphyr::from_str::<RawOptions>(&text).err(),
                    "schedule" if *field == "kind" => None,
                    "schedule" => {
                        serde_saphyr::from_str::<RawSchedule>(&format!("kind: random\n{text}"))
                            .err()
                    }
                    _ => serde_saphyr::from_str::<Limits>(&text).err(),
                };
                assert!(read.is_none(), "{section}.{field}: {read:?}");
            }
        }
    }

    #[test]
    fn a_file_error_without_a_line_names_only_the_file() {
        let error = |line| FileError {
            file: "t.yaml".into(),
            pos: Pos { line, column: 3 },
            message: "why".into(),
            more: Vec::new(),
        };
        assert_eq!(error(0).to_string(), "t.yaml: why");
        assert_eq!(error(7).to_string(), "t.yaml:7:3: why");
        let both = FileError {
            more: vec![error(9)],
            ..error(7)
        };
        assert_eq!(both.to_string(), "t.yaml:7:3: why\nt.yaml:9:3: why");
    }
}

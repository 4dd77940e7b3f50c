//! Variant options from flags and from a variant file (YAML), flags winning.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::Args;
use clue_engine::config::BoardText;
use clue_engine::{GameConfig, GameOptions};
use clue_plugin_api::Variant;
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_saphyr::Spanned;

/// The variant and its options, as flags.
#[derive(Args, Clone, Debug, Default)]
pub struct VariantArgs {
    /// The variant: classic, csci306, framework, uniclue, generalized, cyberclue, speedclue
    #[arg(long, value_parser = variant)]
    pub variant: Option<Variant>,
    /// Seats at the table (generalized: p)
    #[arg(long)]
    pub players: Option<u8>,
    /// Rounds after which the game ends
    #[arg(long)]
    pub max_rounds: Option<u32>,
    /// generalized: the number of items (n)
    #[arg(long)]
    pub items: Option<u16>,
    /// generalized: the number of hidden items (k)
    #[arg(long)]
    pub hidden: Option<u16>,
    /// uniclue: the room sequence, e.g. 3,5,3,4 (then 1..9 repeats)
    #[arg(long, value_delimiter = ',')]
    pub rooms: Option<Vec<u8>>,
    /// uniclue: the query limit
    #[arg(long)]
    pub query_limit: Option<u32>,
    /// speedclue: play without the 2014 contest rules
    #[arg(long)]
    pub no_contest_rules: bool,
    /// framework: the board width (and number of rooms)
    #[arg(long)]
    pub width: Option<u16>,
    /// framework: the number of persons
    #[arg(long)]
    pub persons: Option<u16>,
    /// framework: the number of weapons
    #[arg(long)]
    pub weapons: Option<u16>,
    /// csci306/classic: the board's layout CSV (with --setup, or the
    /// variant file's `setup:`; default: the project's board)
    #[arg(long, value_name = "FILE")]
    pub layout: Option<PathBuf>,
    /// csci306/classic: the board's setup TXT (with --layout, or the
    /// variant file's `layout:`)
    #[arg(long, value_name = "FILE")]
    pub setup: Option<PathBuf>,
    /// framework: a board in the protocol's table form instead of a random one
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// A YAML file with any of these options (flags given on the command line win)
    #[arg(long, value_name = "FILE")]
    pub variant_file: Option<PathBuf>,
}

/// The variant file: every field optional; names as in the flags, with `_`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VariantFile {
    pub variant: Option<Variant>,
    pub players: Option<u8>,
    pub max_rounds: Option<u32>,
    pub items: Option<u16>,
    pub hidden: Option<u16>,
    /// Each room with where it is written.
    pub rooms: Option<Vec<Spanned<u8>>>,
    pub query_limit: Option<u32>,
    pub contest_rules: Option<bool>,
    pub width: Option<u16>,
    pub persons: Option<u16>,
    pub weapons: Option<u16>,
    /// Paths relative to the variant file.
    pub layout: Option<PathBuf>,
    pub setup: Option<PathBuf>,
    pub table: Option<PathBuf>,
    /// Where each field's value is written: (line, column).
    #[serde(skip)]
    pub places: BTreeMap<String, (u64, u64)>,
}

#[derive(Debug, thiserror::Error)]
pub enum OptionsError {
    #[error("{path}: {source}")]
    Read {
        path: String,
        source: std::io::Error,
    },
    /// A file that is not the YAML of a variant file, at its place
    /// (`FILE:LINE:COLUMN`, or the file alone when the parser gives none).
    #[error("{path}{}: {message}", place(*line, *column))]
    Parse {
        path: String,
        line: u64,
        column: u64,
        message: String,
    },
    #[error(transparent)]
    Config(#[from] clue_engine::ConfigError),
    /// A value of the variant file the variant's rules refuse, at its place.
    #[error("{path}:{line}:{column}: {source}")]
    At {
        path: String,
        line: u64,
        column: u64,
        source: clue_engine::ConfigError,
    },
    /// Values that do not go together, some or all from the variant file:
    /// `whence` names the file, and the flags given with it.
    #[error("{whence}: {source}")]
    Values {
        whence: String,
        source: clue_engine::ConfigError,
    },
    /// An option for another variant than the one played.
    #[error("{given}: {why}")]
    OtherVariant { given: String, why: String },
    /// One of a board's two files, without the other.
    #[error(
        "a board is two files: the {given} is given ({path}, {whence}) but not the {missing}: \
         give --{missing} FILE or `{missing}:` in the variant file"
    )]
    HalfBoard {
        given: &'static str,
        path: String,
        whence: &'static str,
        missing: &'static str,
    },
}

impl VariantFile {
    /// The options the file gives.
    fn options(&self) -> GameOptions {
        GameOptions {
            max_rounds: self.max_rounds,
            items: self.items,
            hidden: self.hidden,
            rooms: (self.rooms.as_ref()).map(|rooms| rooms.iter().map(|r| r.value).collect()),
            query_limit: self.query_limit,
            contest_rules: self.contest_rules,
            width: self.width,
            persons: self.persons,
            weapons: self.weapons,
        }
    }

    pub fn load(path: &Path) -> Result<VariantFile, OptionsError> {
        let text = read(path)?;
        let mut file = VariantFile::parse(&text, &path.display().to_string())?;
        let base = path.parent().unwrap_or(Path::new("."));
        for p in [&mut file.layout, &mut file.setup, &mut file.table] {
            if let Some(p) = p.as_mut() {
                *p = base.join(&*p);
            }
        }
        Ok(file)
    }

    pub fn parse(text: &str, name: &str) -> Result<VariantFile, OptionsError> {
        if text.trim().is_empty() {
            return Ok(VariantFile::default());
        }
        let parse_error = |e: serde_saphyr::Error| {
            let (pos, message) = clue_arena::span::yaml_error(&e, text);
            OptionsError::Parse {
                path: name.to_string(),
                line: pos.line,
                column: pos.column,
                message,
            }
        };
        let mut file: VariantFile = serde_saphyr::from_str(text).map_err(parse_error)?;
        // The same text again, for where each value is written.
        let places: BTreeMap<String, Spanned<IgnoredAny>> =
            serde_saphyr::from_str(text).map_err(parse_error)?;
        file.places = places
            .iter()
            .map(|(key, value)| {
                (
                    key.clone(),
                    (value.referenced.line(), value.referenced.column()),
                )
            })
            .collect();
        Ok(file)
    }
}

/// A `--variant` flag's value, with the variant a slip of a name was
/// meant to be.
pub fn variant(name: &str) -> Result<Variant, String> {
    name.parse::<Variant>().map_err(|e| {
        let hint = clue_runtime::suggest::did_you_mean(name, Variant::ALL.map(Variant::name));
        format!("{e}{hint}")
    })
}

/// The flag that gives option `name` (as [`GameOptions::given`] names it).
fn flag(name: &str) -> String {
    match name {
        "contest_rules" => "--no-contest-rules".to_string(),
        name => format!("--{}", name.replace('_', "-")),
    }
}

/// `:LINE:COLUMN` after a file's name, or nothing for line 0 (unknown).
fn place(line: u64, column: u64) -> String {
    if line == 0 {
        String::new()
    } else {
        format!(":{line}:{column}")
    }
}

fn read(path: &Path) -> Result<String, OptionsError> {
    clue_arena::input::read_text(path).map_err(|source| OptionsError::Read {
        path: path.display().to_string(),
        source,
    })
}

impl VariantArgs {
    /// The options given as flags.
    fn options(&self) -> GameOptions {
        GameOptions {
            max_rounds: self.max_rounds,
            items: self.items,
            hidden: self.hidden,
            rooms: self.rooms.clone(),
            query_limit: self.query_limit,
            contest_rules: self.no_contest_rules.then_some(false),
            width: self.width,
            persons: self.persons,
            weapons: self.weapons,
        }
    }

    /// Refuses an option, given as a flag or in the variant file, that does
    /// not apply to `variant` (`clue_engine::config::option_refused`): it
    /// would be ignored.
    fn refuse_other_variants(
        &self,
        file: &VariantFile,
        variant: Variant,
    ) -> Result<(), OptionsError> {
        // The names of the options given as flags (true) and in the file.
        let named = |options: GameOptions, files: [(&'static str, bool); 3], flag: bool| {
            let files = files
                .into_iter()
                .filter_map(|(name, given)| given.then_some(name));
            let names = options.given().into_iter().chain(files);
            names.map(move |name| (name, flag)).collect::<Vec<_>>()
        };
        let board = |layout: &Option<PathBuf>, setup: &Option<PathBuf>, table: &Option<PathBuf>| {
            [
                ("layout", layout.is_some()),
                ("setup", setup.is_some()),
                ("table", table.is_some()),
            ]
        };
        let flags = named(
            self.options(),
            board(&self.layout, &self.setup, &self.table),
            true,
        );
        let keys = named(
            file.options(),
            board(&file.layout, &file.setup, &file.table),
            false,
        );
        for (name, by_flag) in flags.into_iter().chain(keys) {
            let Some(why) = clue_engine::config::option_refused(name, variant) else {
                continue;
            };
            let given = match (by_flag, &self.variant_file) {
                (true, _) => flag(name),
                (false, Some(path)) => format!("{}: `{name}:`", path.display()),
                (false, None) => continue,
            };
            return Err(OptionsError::OtherVariant { given, why });
        }
        Ok(())
    }

    /// The game configuration: defaults, then the variant file, then the flags.
    pub fn config(&self) -> Result<GameConfig, OptionsError> {
        let file = match &self.variant_file {
            Some(path) => VariantFile::load(path)?,
            None => VariantFile::default(),
        };
        let variant = self.variant.or(file.variant).unwrap_or(Variant::Speedclue);
        let players = self
            .players
            .or(file.players)
            .unwrap_or_else(|| GameConfig::default_players(variant));
        self.refuse_other_variants(&file, variant)?;
        let mut config = self.options().or(file.options()).config(variant, players);
        if let Some(path) = self.table.clone().or(file.table.clone()) {
            let text = read(&path)?;
            clue_engine::config::check_table(&path.display().to_string(), &text)?;
            config.framework.table = Some(text);
        }
        let whence = |flag: &Option<PathBuf>, name: &'static str| match flag {
            Some(_) => name,
            None => "from the variant file",
        };
        let layout = self.layout.clone().or(file.layout.clone());
        let setup = self.setup.clone().or(file.setup.clone());
        match (layout, setup) {
            (Some(layout), Some(setup)) => {
                config.board = Some(BoardText {
                    layout_name: layout.display().to_string(),
                    layout: read(&layout)?,
                    setup_name: setup.display().to_string(),
                    setup: read(&setup)?,
                });
            }
            (Some(path), None) => {
                return Err(OptionsError::HalfBoard {
                    given: "layout",
                    path: path.display().to_string(),
                    whence: whence(&self.layout, "from --layout"),
                    missing: "setup",
                });
            }
            (None, Some(path)) => {
                return Err(OptionsError::HalfBoard {
                    given: "setup",
                    path: path.display().to_string(),
                    whence: whence(&self.setup, "from --setup"),
                    missing: "layout",
                });
            }
            (None, None) => {}
        }
        config
            .validate()
            .map_err(|source| self.placed(source, &file))?;
        Ok(config)
    }

    /// A configuration error, placed when the variant file gave the variant
    /// or a value the error is about: at the value (`v.yaml:2:12`) when no
    /// flag gave one of them, else `v.yaml with --players`. An error of the
    /// flags alone, or of a board (which names its own file), is as it is.
    fn placed(&self, source: clue_engine::ConfigError, file: &VariantFile) -> OptionsError {
        let Some(path) = &self.variant_file else {
            return source.into();
        };
        if matches!(source, clue_engine::ConfigError::Board(_)) {
            return source.into();
        }
        let given = self.options().given();
        let flagged = |name: &str| match name {
            "variant" => self.variant.is_some(),
            "players" => self.players.is_some(),
            name => given.contains(&name),
        };
        let about = source.options();
        let from_file = |name: &str| file.places.contains_key(name) && !flagged(name);
        if !from_file("variant") && !about.iter().any(|&name| from_file(name)) {
            return source.into();
        }
        let place = match (&source, &file.rooms) {
            // The room itself, not the list.
            (clue_engine::ConfigError::UniclueRoom(bad), Some(rooms)) => rooms
                .iter()
                .find(|r| r.value == *bad)
                .map(|r| (r.referenced.line(), r.referenced.column())),
            _ => about
                .iter()
                .find_map(|&name| file.places.get(name).copied()),
        };
        if let (false, Some((line, column))) = (about.iter().any(|&name| flagged(name)), place) {
            return OptionsError::At {
                path: path.display().to_string(),
                line,
                column,
                source,
            };
        }
        let flags: Vec<String> = [
            ("variant", self.variant.is_some()),
            ("players", self.players.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .chain(given)
        .map(flag)
        .collect();
        let whence = match flags.as_slice() {
            [] => path.display().to_string(),
            flags => format!("{} with {}", path.display(), flags.join(", ")),
        };
        OptionsError::Values { whence, source }
    }
}

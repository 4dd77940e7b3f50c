//! The results store: one SQLite file per tournament, or one PostgreSQL
//! database that many machines share, chosen by the store's name: a
//! `postgres://` or `postgresql://` URL is PostgreSQL (`pg.rs`), anything else
//! a SQLite file (`sqlite.rs`). Both sit behind [`Backend`] (`backend.rs`);
//! [`Store`] holds the logic they share (the tournament it holds,
//! `binding.rs`; a game as rows and its log deflated, `rows.rs`; JSON), so the two
//! behave the same and one set of tests runs against both. Each finished game
//! is written in one transaction, so after a crash a game is either wholly
//! there or not at all, and `resume` plays exactly the indices that are missing.
//!
//! Schema (version 2; PostgreSQL spells the types BIGINT, BYTEA and so on):
//!
//! ```sql
//! meta(key TEXT PRIMARY KEY, value TEXT)      -- format, file, hash, bots, settings, base_dir
//! games(idx INTEGER PRIMARY KEY, setting, seed, variant, players, winner, rounds,
//!       wall_ms, log BLOB)                    -- log: the JSON-lines game log, deflated
//! seats(game, seat, bot, spec, outcome, dq_reason, detail, rank, turns, calls,
//!       suggestions, wall_ns, max_call_ns, fuel, PRIMARY KEY (game, seat))
//! live_games(idx INTEGER PRIMARY KEY, header TEXT) -- games in play: the log header
//! live_events(game, seq, entry TEXT, PRIMARY KEY (game, seq)) -- their events so far
//! schedule(idx PRIMARY KEY, setting, seed, seats TEXT, done, worker, claims,
//!          lease_until)                       -- version 2: every game, and who holds it
//! workers(id PRIMARY KEY, host, started, last_seen, stored) -- version 2: who plays
//! ```
//!
//! Version 2 added the schedule and its leases ([`claims`]): every player of
//! the tournament, on this machine or another, claims games from `schedule`
//! and stores each with a check that it still holds the claim. A version 1
//! store is upgraded when it is opened (the tables are added; its games are
//! marked done when the schedule is written).
//!
//! The two `live_` tables let `clue serve` follow a running tournament: the
//! runner writes the events of games that last a while, in batches, and
//! deletes them when the game itself is stored.

use std::collections::BTreeSet;
use std::io::Read;
use std::path::Path;
use std::time::Duration;

use clue_engine::GameRecord;

use serde::{Deserialize, Serialize};

use crate::config::Tournament;
use crate::logfile::{GameLog, Header};
use clue_engine::LogEntry;

/// What one seat's bot cost in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Meter {
    pub calls: u32,
    pub wall: Duration,
    pub max_call: Duration,
    /// Fuel used in this game, where the runtime counts it.
    pub fuel: Option<u64>,
    /// The most fuel one call used.
    pub max_call_fuel: Option<u64>,
}

/// A game as it left the engine, with what each seat cost.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    pub index: u64,
    pub setting: usize,
    pub seed: u64,
    /// The bot of each acting seat.
    pub seats: Vec<usize>,
    pub record: GameRecord,
    pub meters: Vec<Meter>,
    pub wall: Duration,
}

mod backend;
mod binding;
pub mod claims;
mod files;
mod pg;
mod rows;
mod sqlite;

use backend::attach_seats;
pub use backend::{Backend, GameInsert, LiveInsert, SeatInsert};
pub use claims::{Claim, Lease, Progress, WorkerProgress};
pub use files::Unlike;
pub use rows::outcome_label;

/// The schema version this build writes and reads. A store of another
/// version is refused ([`StoreError::Version`]); version 1 is upgraded.
pub const STORE_FORMAT: &str = "2";
/// [`STORE_FORMAT`] as a number, as PostgreSQL's `schema_version` holds it.
pub const SCHEMA_VERSION: i64 = 2;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Sql {
        path: String,
        source: rusqlite::Error,
    },
    #[error("{path}: {message}")]
    Postgres { path: String, message: String },
    /// A SQLite file that cannot be opened (`doing`: "open") or made
    /// ("make"), with the system's reason.
    #[error("{path}: cannot {doing} the store: {message}")]
    Open {
        path: String,
        doing: &'static str,
        message: String,
    },
    #[error(
        "{path} has store schema version {found}; this clue reads version {expected} only \
         (use the clue that made it, or another store)"
    )]
    Version {
        path: String,
        found: String,
        expected: String,
    },
    #[error(
        "{path} holds the results of a different tournament file, or one whose board files have changed since: {what} (fingerprint {stored}, now {given}); \
         use another --db or delete it"
    )]
    Different {
        path: String,
        /// How: the first line of the file that differs, or its boards.
        what: String,
        stored: String,
        given: String,
    },
    #[error(
        "{path} was started by an older clue, whose fingerprint of the tournament's files \
         (a 64-bit FNV-1a hash, {stored}) this clue no longer makes: finish it with the clue \
         that started it, or use another --db"
    )]
    OlderFingerprint { path: String, stored: String },
    #[error("{path} holds no tournament (run `clue tournament run FILE --db {path}` first)")]
    Empty { path: String },
    #[error("{path}: no game {index} in the store{why}")]
    NoGame {
        path: String,
        index: u64,
        /// What the store holds instead: the tournament's games, or that
        /// this one is not played yet.
        why: String,
    },
    #[error("{path}: {message}")]
    Worker { path: String, message: String },
    #[error("{path}: game {index}: the stored log is damaged: {message}")]
    Log {
        path: String,
        index: u64,
        message: String,
    },
}

/// What the store knows of its tournament, written once at the start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Meta {
    pub source: String,
    pub file: String,
    pub hash: String,
    pub base_dir: String,
    pub bots: Vec<String>,
    pub settings: Vec<String>,
}

/// One seat of a stored game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatRow {
    pub seat: u8,
    /// The entrant's name; `None` for seats the server plays (`uniclue`).
    pub bot: Option<String>,
    pub outcome: String,
    pub dq_reason: Option<String>,
    pub detail: Option<String>,
    pub rank: u8,
    pub turns: u32,
    pub calls: u32,
    pub wall_ns: u64,
    pub max_call_ns: u64,
    pub fuel: Option<u64>,
    /// The most fuel one call used, where the runtime counts fuel.
    #[serde(default)]
    pub max_call_fuel: Option<u64>,
}

/// One stored game, as the statistics read it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRow {
    pub index: u64,
    pub setting: usize,
    pub seed: u64,
    /// The variant's name (`speedclue`, `csci306`, ...).
    pub variant: String,
    pub winner: Option<u8>,
    pub rounds: u32,
    pub seats: Vec<SeatRow>,
}

/// Events of one game in play, for [`Store::live_write`].
pub struct LiveBatch<'a> {
    pub index: u64,
    pub header: &'a Header,
    /// The sequence number of `entries[0]`.
    pub from: usize,
    pub entries: &'a [LogEntry],
}

/// A game in play, as [`Store::live_games`] lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveGame {
    pub index: u64,
    pub header: Header,
    /// How many of its events are stored so far.
    pub events: u64,
}

/// The store's name in messages: a PostgreSQL URL without its password,
/// whether in the user part (`postgres://user:PASSWORD@host/db`) or a
/// parameter (`?password=PASSWORD`, which libpq and the client take too).
/// The web page shows this name, so nothing of a password may stay in it.
pub fn display_name(path: &Path) -> String {
    let name = path.display().to_string();
    if !is_url(path) {
        return name;
    }
    // Written by hand rather than with a URL parser: the name must come out
    // without its password even for a URL that does not parse (a bad port),
    // whose error message names it.
    let (address, query) = name.split_once('?').unwrap_or((&name, ""));
    let address = match address.split_once("://") {
        Some((scheme, rest)) => {
            let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            let authority = match authority.rsplit_once('@') {
                Some((user, host)) => {
                    format!("{}@{host}", user.split(':').next().unwrap_or_default())
                }
                None => authority.to_string(),
            };
            format!("{scheme}://{authority}{path}")
        }
        None => address.to_string(),
    };
    let query: Vec<&str> = query
        .split('&')
        .filter(|pair| !pair.is_empty() && pair.split('=').next() != Some("password"))
        .collect();
    if query.is_empty() {
        address
    } else {
        format!("{address}?{}", query.join("&"))
    }
}

/// Whether `path` names a PostgreSQL store rather than a SQLite file.
pub fn is_url(path: &Path) -> bool {
    path.to_str()
        .is_some_and(|p| p.starts_with("postgres://") || p.starts_with("postgresql://"))
}

/// Whether the store exists: a SQLite file on disk; a PostgreSQL URL is taken
/// to exist (opening it says if it does not).
pub fn exists(path: &Path) -> bool {
    is_url(path) || path.exists()
}

pub struct Store {
    db: Box<dyn Backend>,
    path: std::path::PathBuf,
}

impl Store {
    /// Opens (creating if needed) the store at `path`: a SQLite file, or a
    /// PostgreSQL database when `path` is a `postgres://` URL.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let db: Box<dyn Backend> = if is_url(path) {
            let url = path.to_str().unwrap_or_default();
            Box::new(pg::PgStore::open(url, display_name(path))?)
        } else {
            Box::new(sqlite::SqliteStore::open(path)?)
        };
        let store = Store {
            db,
            path: path.to_path_buf(),
        };
        if let Some(found) = store.db.get("format")?
            && found != STORE_FORMAT
        {
            return Err(StoreError::Version {
                path: store.db.name().to_string(),
                found,
                expected: STORE_FORMAT.into(),
            });
        }
        Ok(store)
    }

    /// The store's name for messages.
    pub fn name(&self) -> &str {
        self.db.name()
    }

    /// The path or URL the store was opened with.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Another handle on the same store, for another thread.
    pub fn another(&self) -> Result<Store, StoreError> {
        Ok(Store {
            db: self.db.another()?,
            path: self.path.clone(),
        })
    }

    /// The tournament this store holds, if any.
    pub fn meta(&self) -> Result<Option<Meta>, StoreError> {
        let Some(source) = self.db.get("file")? else {
            return Ok(None);
        };
        let json = |v: Option<String>| -> Vec<String> {
            v.and_then(|v| serde_json::from_str(&v).ok())
                .unwrap_or_default()
        };
        Ok(Some(Meta {
            source,
            file: self.db.get("path")?.unwrap_or_default(),
            hash: self.db.get("hash")?.unwrap_or_default(),
            base_dir: self.db.get("base_dir")?.unwrap_or_else(|| ".".into()),
            bots: json(self.db.get("bots")?),
            settings: json(self.db.get("settings")?),
        }))
    }

    /// The stored tournament, or an error when there is none.
    pub fn require_meta(&self) -> Result<Meta, StoreError> {
        self.meta()?.ok_or_else(|| StoreError::Empty {
            path: self.db.name().to_string(),
        })
    }

    /// The indices of the games already stored.
    pub fn done(&self) -> Result<BTreeSet<u64>, StoreError> {
        self.db.done()
    }

    /// Stores one finished game and its seats in one transaction, if
    /// `lease` still holds its claim: `Ok(false)` (nothing stored) when
    /// another worker claimed the game since.
    pub fn insert(
        &mut self,
        game: &FinishedGame,
        t: &Tournament,
        lease: &Lease,
    ) -> Result<bool, StoreError> {
        let row = rows::game_insert(game, t);
        self.db.insert(&row, lease)
    }

    /// Forgets every game in play (a run begins or ends; nothing is playing).
    pub fn live_clear(&mut self) -> Result<(), StoreError> {
        self.db.live_clear()
    }

    /// Appends events of games in play, in one transaction: for each game its
    /// log header (written once) and its entries from sequence number `from`.
    pub fn live_write(&mut self, batch: &[LiveBatch<'_>]) -> Result<(), StoreError> {
        let batch: Vec<LiveInsert> = batch
            .iter()
            .map(|g| LiveInsert {
                index: g.index as i64,
                header: serde_json::to_string(g.header).unwrap_or_default(),
                from: g.from as i64,
                entries: g
                    .entries
                    .iter()
                    .map(|e| serde_json::to_string(e).unwrap_or_default())
                    .collect(),
            })
            .collect();
        self.db.live_write(&batch)
    }

    /// The games in play, with how many of their events are stored so far.
    pub fn live_games(&self) -> Result<Vec<LiveGame>, StoreError> {
        let mut out = Vec::new();
        for (index, header, events) in self.db.live_rows()? {
            let header: Header = serde_json::from_str(&header).map_err(|e| StoreError::Log {
                path: self.db.name().to_string(),
                index,
                message: e.to_string(),
            })?;
            out.push(LiveGame {
                index,
                header,
                events,
            });
        }
        Ok(out)
    }

    /// A game in play: its header and its events so far; `None` when it is
    /// not in play (not begun, or already stored).
    pub fn live_log(&self, index: u64) -> Result<Option<GameLog>, StoreError> {
        let Some(game) = self.live_games()?.into_iter().find(|g| g.index == index) else {
            return Ok(None);
        };
        let mut entries = Vec::new();
        for text in self.db.live_entries(index)? {
            let entry: LogEntry = serde_json::from_str(&text).map_err(|e| StoreError::Log {
                path: self.db.name().to_string(),
                index,
                message: e.to_string(),
            })?;
            entries.push(entry);
        }
        Ok(Some(GameLog {
            header: game.header,
            entries,
            summary: None,
        }))
    }

    /// Every stored game in index order.
    pub fn games(&self) -> Result<Vec<GameRow>, StoreError> {
        self.db.games()
    }

    /// How many games the stored schedule holds, once one is written.
    fn scheduled(&self) -> Result<Option<u64>, StoreError> {
        Ok(self
            .db
            .get("scheduled")?
            .and_then(|n| n.parse::<u64>().ok()))
    }

    /// The stored game log of game `index`.
    pub fn log(&self, index: u64) -> Result<GameLog, StoreError> {
        let Some(blob) = self.db.log_blob(index)? else {
            let why = match self.scheduled()? {
                Some(0) | None => String::new(),
                Some(n) if index >= n => format!(": its tournament's games are 0 to {}", n - 1),
                Some(_) => ": it is not played yet (`clue tournament resume` plays it)".into(),
            };
            return Err(StoreError::NoGame {
                path: self.db.name().to_string(),
                index,
                why,
            });
        };
        let damaged = |message: String| StoreError::Log {
            path: self.db.name().to_string(),
            index,
            message,
        };
        let mut text = Vec::new();
        flate2::read::DeflateDecoder::new(&blob[..])
            .read_to_end(&mut text)
            .map_err(|e| damaged(e.to_string()))?;
        GameLog::read(&text[..], &format!("game {index}")).map_err(|e| damaged(e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgresql_url_is_named_without_its_password() {
        let name = |url: &str| display_name(Path::new(url));
        assert_eq!(
            name("postgres://clue:s3cret@db.lan:5432/t"),
            "postgres://clue@db.lan:5432/t"
        );
        assert_eq!(
            name("postgresql://clue@db.lan/t"),
            "postgresql://clue@db.lan/t"
        );
        assert_eq!(name("postgres://db.lan/t"), "postgres://db.lan/t");
        assert_eq!(
            name("postgres://db.lan/t?user=clue&password=s3cret&sslmode=disable"),
            "postgres://db.lan/t?user=clue&sslmode=disable"
        );
        assert_eq!(name("postgresql:///t?password=s3cret"), "postgresql:///t");
        // An `@` after the address is not the user's.
        assert_eq!(
            name("postgres://clue:s3cret@h/t?application_name=a@b"),
            "postgres://clue@h/t?application_name=a@b"
        );
        assert_eq!(
            name("postgres://clue:s3cret@h:notaport/t"),
            "postgres://clue@h:notaport/t"
        );
        assert_eq!(name("results.sqlite"), "results.sqlite");
    }

    #[test]
    fn a_store_that_cannot_be_opened_or_made_is_named_for_why() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("nothere/t.sqlite");
        let error = Store::open(&path).err().expect("refused");
        assert!(matches!(error, StoreError::Open { .. }), "{error:?}");
        assert!(
            error.to_string().ends_with(&format!(
                "cannot make the store: its folder {} does not exist",
                dir.path().join("nothere").display()
            )),
            "{error}"
        );
        assert!(!dir.path().join("nothere").exists(), "nothing made");
        // A folder named as the store, and a file system that makes no
        // files: the system's reason, once.
        let error = Store::open(dir.path()).err().expect("refused");
        assert_eq!(
            error.to_string(),
            format!(
                "{}: cannot open the store: Is a directory (os error 21)",
                dir.path().display()
            )
        );
        let yaml = dir.path().join("t.yaml");
        std::fs::write(&yaml, "variant: speedclue\nbots: []\n".repeat(40)).unwrap();
        let error = Store::open(&yaml).err().expect("refused");
        let kept = std::fs::read_to_string(&yaml).unwrap();
        assert_eq!(
            kept,
            "variant: speedclue\nbots: []\n".repeat(40),
            "left as it was"
        );
        assert_eq!(
            error.to_string(),
            format!(
                "{}: cannot open the store: it is not a results store (not a SQLite database)",
                yaml.display()
            )
        );
        let error = Store::open(Path::new("/proc/t.sqlite"))
            .err()
            .expect("refused");
        assert_eq!(
            error.to_string(),
            "/proc/t.sqlite: cannot make the store: No such file or directory (os error 2)"
        );
    }
}

//! The results store: one SQLite file per tournament, or one PostgreSQL
//! database that many machines share, chosen by the store's name: a
//! `postgres://` or `postgresql://` URL is PostgreSQL (`pg.rs`), anything else
//! a SQLite file (`sqlite.rs`). Both sit behind [`Backend`]; [`Store`] holds
//! the logic they share (fingerprint, log compression, JSON), so the two
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
use std::io::{Read, Write};
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

pub mod claims;
mod pg;
mod sqlite;

pub use claims::{Claim, Lease, Progress, Unlike, WorkerProgress};

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
    #[error("{path}: no game {index} in the store")]
    NoGame { path: String, index: u64 },
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

/// The store's name in messages: a PostgreSQL URL without its password.
pub fn display_name(path: &Path) -> String {
    let name = path.display().to_string();
    if !is_url(path) {
        return name;
    }
    match (name.find("://"), name.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let user = &name[scheme + 3..at];
            let user = user.split(':').next().unwrap_or_default();
            format!("{}{user}{}", &name[..scheme + 3], &name[at..])
        }
        _ => name,
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

/// A game ready for the store: the values of its `games` and `seats` rows.
pub struct GameInsert {
    pub index: i64,
    pub setting: i64,
    pub seed: i64,
    pub variant: String,
    pub players: i64,
    pub winner: Option<i64>,
    pub rounds: i64,
    pub wall_ms: f64,
    pub log: Vec<u8>,
    pub seats: Vec<SeatInsert>,
}

/// One `seats` row of a [`GameInsert`].
pub struct SeatInsert {
    pub seat: i64,
    pub bot: Option<String>,
    pub spec: Option<String>,
    pub outcome: String,
    pub dq_reason: Option<String>,
    pub detail: Option<String>,
    pub rank: i64,
    pub turns: i64,
    pub calls: i64,
    pub suggestions: i64,
    pub wall_ns: i64,
    pub max_call_ns: i64,
    pub fuel: Option<i64>,
    pub max_call_fuel: Option<i64>,
}

/// Events of one game in play, serialised, for [`Backend::live_write`].
pub struct LiveInsert {
    pub index: i64,
    pub header: String,
    pub from: i64,
    pub entries: Vec<String>,
}

/// What a store's database does; [`Store`] adds the logic both share.
/// Errors name the store ([`Backend::name`]).
pub trait Backend: Send {
    /// The store's name for messages (no password).
    fn name(&self) -> &str;
    /// Another handle on the same store, for another thread (the
    /// heartbeat): a new SQLite connection, or the same PostgreSQL pool.
    fn another(&self) -> Result<Box<dyn Backend>, StoreError>;
    /// One `meta` value.
    fn get(&self, key: &str) -> Result<Option<String>, StoreError>;
    /// Writes (or overwrites) `meta` rows in one transaction.
    fn put_meta(&mut self, rows: &[(&str, String)]) -> Result<(), StoreError>;
    /// The indices of the stored games.
    fn done(&self) -> Result<BTreeSet<u64>, StoreError>;
    /// Stores a game and its seats, marks it done in the schedule, counts it
    /// for its worker and forgets it as a live game, in one transaction,
    /// provided `lease` still holds the game's claim; `Ok(false)` (and
    /// nothing changed) when another worker claimed it since. A game
    /// already stored is an error and changes nothing.
    fn insert(&mut self, game: &GameInsert, lease: &Lease) -> Result<bool, StoreError>;
    /// Writes the schedule rows not yet written (one transaction per
    /// chunk), then marks done those whose game is already stored.
    fn write_schedule(&mut self, rows: &[claims::ScheduleInsert]) -> Result<(), StoreError>;
    /// Claims up to `n` games, lowest index first, that are not done and
    /// not leased (or whose lease expired): each is leased to `worker` for
    /// `lease`, its claim count raised by one, its live rows deleted.
    fn claim(
        &mut self,
        worker: &str,
        n: usize,
        lease: Duration,
    ) -> Result<Vec<claims::ClaimRow>, StoreError>;
    /// Extends `worker`'s leases on `held` (game indices) to now + `lease`,
    /// and marks the worker seen.
    fn heartbeat(&mut self, worker: &str, held: &[i64], lease: Duration) -> Result<(), StoreError>;
    /// Gives back `worker`'s claims on `held` games not done.
    fn release(&mut self, worker: &str, held: &[i64]) -> Result<(), StoreError>;
    /// Records a worker starting (a restarted id starts its count over).
    fn register(&mut self, worker: &str, host: &str) -> Result<(), StoreError>;
    /// Games not done, games leased now, and each worker's count and
    /// times (milliseconds on the store's clock).
    fn progress(&self) -> Result<claims::ProgressRows, StoreError>;
    /// Forgets every game in play.
    fn live_clear(&mut self) -> Result<(), StoreError>;
    /// Appends events of games in play in one transaction.
    fn live_write(&mut self, batch: &[LiveInsert]) -> Result<(), StoreError>;
    /// The games in play: index, header JSON, number of events stored.
    fn live_rows(&self) -> Result<Vec<(u64, String, u64)>, StoreError>;
    /// The events of one game in play, as JSON, in order.
    fn live_entries(&self, index: u64) -> Result<Vec<String>, StoreError>;
    /// Every stored game with its seats, in index order.
    fn games(&self) -> Result<Vec<GameRow>, StoreError>;
    /// The deflated log of one stored game.
    fn log_blob(&self, index: u64) -> Result<Option<Vec<u8>>, StoreError>;
}

pub struct Store {
    db: Box<dyn Backend>,
    path: std::path::PathBuf,
}

/// Where a tournament file's text `here` first differs from the text a
/// store was started with, said for the organizer: `line 3 is `seed: 5`
/// here, `seed: 1` there`.
fn first_different_line(there: &str, here: &str) -> Option<String> {
    let (mut a, mut b) = (there.lines(), here.lines());
    for number in 1.. {
        match (a.next(), b.next()) {
            (None, None) => return None,
            (Some(x), Some(y)) if x == y => {}
            (x, y) => {
                let shown = |line: Option<&str>| match line {
                    Some(line) => format!("`{}`", clue_runtime::process::clip(line)),
                    None => "past the end".to_string(),
                };
                // The one field a resume is often edited for, though the
                // results do not depend on it: its flag changes it instead.
                let concurrency = |line: Option<&str>| {
                    line.is_some_and(|l| l.trim_start().starts_with("concurrency:"))
                };
                let hint = if concurrency(x) || concurrency(y) {
                    " (the games played at once: keep the file as it was and give \
                     `--concurrency N` to `run` or `resume`)"
                } else {
                    ""
                };
                return Some(format!(
                    "line {number} is {} here, {} there{hint}",
                    shown(y),
                    shown(x)
                ));
            }
        }
    }
    None
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

    /// Binds the store to `t`: records it in a new store, or checks that an
    /// existing store holds the same file.
    pub fn bind(&mut self, t: &Tournament) -> Result<(), StoreError> {
        let given = t.fingerprint();
        if let Some(meta) = self.meta()? {
            if is_older_fingerprint(&meta.hash) {
                return Err(StoreError::OlderFingerprint {
                    path: self.db.name().to_string(),
                    stored: meta.hash,
                });
            }
            if meta.hash != given || meta.source != t.source {
                return Err(StoreError::Different {
                    path: self.db.name().to_string(),
                    what: first_different_line(&meta.source, &t.source).unwrap_or_else(|| {
                        "the file's text is the same, a board file it names is not".into()
                    }),
                    stored: meta.hash,
                    given,
                });
            }
            return Ok(());
        }
        let bots: Vec<&str> = t.bots.iter().map(|b| b.name.as_str()).collect();
        let settings: Vec<&str> = t.settings.iter().map(|s| s.label.as_str()).collect();
        let rows = [
            ("format", STORE_FORMAT.to_string()),
            ("file", t.source.clone()),
            ("path", t.file.clone()),
            ("hash", given),
            ("base_dir", t.base_dir.display().to_string()),
            ("bots", serde_json::to_string(&bots).unwrap_or_default()),
            (
                "settings",
                serde_json::to_string(&settings).unwrap_or_default(),
            ),
        ];
        self.db.put_meta(&rows)
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
        let record = &game.record;
        let specs: Vec<_> = game.seats.iter().map(|&b| t.bots[b].spec.clone()).collect();
        let log = compress(&GameLog::from_record(record, &specs));
        let seats = record
            .seats
            .iter()
            .map(|s| {
                let i = s.seat.index();
                let bot = game.seats.get(i).map(|&b| &t.bots[b]);
                let meter = game.meters.get(i);
                let (outcome, dq_reason) = outcome_label(&s.outcome);
                SeatInsert {
                    seat: i64::from(s.seat.0),
                    bot: bot.map(|b| b.name.clone()),
                    spec: bot.map(|b| b.spec.to_string()),
                    outcome,
                    dq_reason,
                    detail: stored_detail(s),
                    rank: i64::from(s.rank),
                    turns: i64::from(s.turns),
                    calls: i64::from(s.calls),
                    suggestions: i64::from(s.suggestions),
                    wall_ns: meter.map_or(0, |m| m.wall.as_nanos() as i64),
                    max_call_ns: meter.map_or(0, |m| m.max_call.as_nanos() as i64),
                    fuel: meter.and_then(|m| m.fuel).map(|f| f as i64),
                    max_call_fuel: meter.and_then(|m| m.max_call_fuel).map(|f| f as i64),
                }
            })
            .collect();
        let row = GameInsert {
            index: game.index as i64,
            setting: game.setting as i64,
            seed: game.seed as i64,
            variant: record.config.variant.name().to_string(),
            players: record.config.players as i64,
            winner: record.winner.map(|s| i64::from(s.0)),
            rounds: i64::from(record.rounds),
            wall_ms: game.wall.as_secs_f64() * 1000.0,
            log,
            seats,
        };
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

    /// The stored game log of game `index`.
    pub fn log(&self, index: u64) -> Result<GameLog, StoreError> {
        let blob = self.db.log_blob(index)?.ok_or_else(|| StoreError::NoGame {
            path: self.db.name().to_string(),
            index,
        })?;
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

/// Attaches the seat rows (ordered by game, seat) to their games (ordered by index).
fn attach_seats(games: &mut [GameRow], seats: impl IntoIterator<Item = (u64, SeatRow)>) {
    let mut at = 0;
    for (game, seat) in seats {
        while at < games.len() && games[at].index < game {
            at += 1;
        }
        if let Some(g) = games.get_mut(at).filter(|g| g.index == game) {
            g.seats.push(seat);
        }
    }
}

/// The outcome label and the disqualification reason, as stored.
pub fn outcome_label(outcome: &clue_engine::Outcome) -> (String, Option<String>) {
    use clue_engine::Outcome;
    match outcome {
        Outcome::Won => ("won".into(), None),
        Outcome::Lost => ("lost".into(), None),
        Outcome::WrongAccusation => ("wrong-accusation".into(), None),
        Outcome::GuessedRight => ("guessed-right".into(), None),
        Outcome::Disqualified(r) => ("disqualified".into(), Some(r.label().to_string())),
    }
}

fn compress(log: &GameLog) -> Vec<u8> {
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    // Writing to a Vec cannot fail.
    let _ = log.write_to(&mut enc);
    let _ = enc.flush();
    enc.finish().unwrap_or_default()
}

/// A seat's `detail` as the store keeps it for the report: what the bot did
/// wrong and, for a disqualified bot that wrote to stderr, the end of it
/// (often why: "can't open file 'bot.py'"), which the game's log keeps
/// whole.
fn stored_detail(seat: &clue_engine::SeatRecord) -> Option<String> {
    let tail = match (&seat.outcome, seat.stderr.as_deref()) {
        (clue_engine::Outcome::Disqualified(_), Some(stderr)) => stderr_tail(stderr),
        _ => String::new(),
    };
    match (&seat.detail, tail.is_empty()) {
        (detail, true) => detail.clone(),
        (Some(detail), false) => Some(format!("{detail}; its stderr ends: {tail}")),
        (None, false) => Some(format!("its stderr ends: {tail}")),
    }
}

/// The last few lines a bot wrote to stderr, on one line.
fn stderr_tail(stderr: &str) -> String {
    clue_runtime::process::last_lines(stderr, 3, 300)
}

/// Whether a stored fingerprint is of the form clue made before it used
/// SHA-256 (sixteen hex digits of FNV-1a): such a store's board files cannot
/// be checked.
fn is_older_fingerprint(stored: &str) -> bool {
    stored.len() == 16 && stored.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clue_engine::{Outcome, SeatRecord};
    use clue_plugin_api::{DqReason, Seat};

    fn seat(outcome: Outcome, detail: Option<&str>, stderr: Option<&str>) -> SeatRecord {
        SeatRecord {
            seat: Seat(0),
            outcome,
            rank: 1,
            detail: detail.map(String::from),
            turns: 0,
            calls: 1,
            suggestions: 0,
            stderr: stderr.map(String::from),
        }
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

    /// A small tournament file: one game of `generalized` between two bots.
    const TWO_BOTS: &str = "variant: generalized\nplayers: 2\nseed: 1\n\
                            schedule: {kind: random, games: 1}\nbots:\n\
                            \x20 - {name: a, kind: builtin, path: notebook}\n\
                            \x20 - {name: b, kind: builtin, path: clueless}\n";

    /// Another tournament file on a store is refused at its first line that
    /// differs, both versions shown.
    #[test]
    fn another_file_is_refused_at_its_first_different_line() {
        let dir = tempfile::tempdir().unwrap();
        let text = TWO_BOTS;
        let parse = |text: &str| crate::config::parse(text, "t.yaml", dir.path()).unwrap();
        let mut store = Store::open(&dir.path().join("t.sqlite")).unwrap();
        store.bind(&parse(text)).unwrap();
        let error = store
            .bind(&parse(&text.replace("seed: 1", "seed: 5")))
            .unwrap_err();
        assert!(matches!(error, StoreError::Different { .. }), "{error:?}");
        assert!(
            error
                .to_string()
                .contains("line 3 is `seed: 5` here, `seed: 1` there"),
            "{error}"
        );
        // An edited `concurrency:` is named with the flag that sets it.
        let error = store
            .bind(&parse(
                &text.replace("seed: 1\n", "seed: 1\nconcurrency: 3\n"),
            ))
            .unwrap_err();
        assert!(
            error.to_string().contains(
                "line 4 is `concurrency: 3` here, `schedule: {kind: random, games: 1}` there \
                 (the games played at once: keep the file as it was and give `--concurrency N` \
                 to `run` or `resume`)"
            ),
            "{error}"
        );
        let longer = format!("{text}  - {{name: c, kind: builtin, path: sleuth}}\n");
        let error = store.bind(&parse(&longer)).unwrap_err();
        assert!(
            error.to_string().contains(
                "line 8 is `  - {name: c, kind: builtin, path: sleuth}` here, past the end there"
            ),
            "{error}"
        );
    }

    #[test]
    fn a_store_started_by_an_older_clue_is_named_as_such() {
        let dir = tempfile::tempdir().unwrap();
        let text = TWO_BOTS;
        let t = crate::config::parse(text, "t.yaml", dir.path()).unwrap();
        let mut store = Store::open(&dir.path().join("t.sqlite")).unwrap();
        store.bind(&t).unwrap();
        let stored = store.require_meta().unwrap().hash;
        assert_eq!(stored, t.fingerprint());
        assert_eq!(stored.len(), 64, "a SHA-256 in hex: {stored}");
        store.bind(&t).expect("the same file binds again");
        // What an older clue wrote: sixteen hex digits of FNV-1a.
        store
            .db
            .put_meta(&[("hash", "84a5bd1fc2a4e7c0".into())])
            .unwrap();
        let error = store.bind(&t).unwrap_err();
        assert!(
            matches!(error, StoreError::OlderFingerprint { .. }),
            "{error:?}"
        );
        assert!(
            error.to_string().contains("started by an older clue")
                && error.to_string().contains("84a5bd1fc2a4e7c0"),
            "{error}"
        );
    }

    #[test]
    fn a_disqualified_seats_stored_detail_ends_with_its_stderr() {
        let crash = Outcome::Disqualified(DqReason::Crash);
        let said =
            "starting\n\nTraceback (most recent call last):\n  File \"bot.py\"\nKeyError: 'x'\n";
        assert_eq!(
            stored_detail(&seat(crash, Some("exited with status 1"), Some(said))).as_deref(),
            Some(
                "exited with status 1; its stderr ends: Traceback (most recent call last): | \
                 File \"bot.py\" | KeyError: 'x'"
            )
        );
        assert_eq!(
            stored_detail(&seat(crash, None, Some("gone\n"))).as_deref(),
            Some("its stderr ends: gone")
        );
        // Nothing written, or not disqualified: the detail as it was.
        for (outcome, stderr) in [
            (crash, Some(" \n")),
            (crash, None),
            (Outcome::Lost, Some("chatter")),
        ] {
            assert_eq!(
                stored_detail(&seat(outcome, Some("d"), stderr)).as_deref(),
                Some("d")
            );
        }
        // A long tail keeps its end, where the reason usually is.
        let long = format!("{}END", "x".repeat(1000));
        let tail = stderr_tail(&long);
        assert!(tail.starts_with("...") && tail.ends_with("xEND"), "{tail}");
        assert_eq!(tail.chars().count(), 303);
    }
}

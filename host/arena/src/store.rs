//! The results store: one SQLite file per tournament. Each finished game is
//! written in one transaction, so after a crash a game is either wholly there
//! or not at all, and `resume` plays exactly the indices that are missing.
//!
//! Schema (version 1):
//!
//! ```sql
//! meta(key TEXT PRIMARY KEY, value TEXT)      -- format, file, hash, bots, settings, base_dir
//! games(idx INTEGER PRIMARY KEY, setting, seed, variant, players, winner, rounds,
//!       wall_ms, log BLOB)                    -- log: the JSON-lines game log, deflated
//! seats(game, seat, bot, spec, outcome, dq_reason, detail, rank, turns, calls,
//!       suggestions, wall_ns, max_call_ns, fuel, PRIMARY KEY (game, seat))
//! live_games(idx INTEGER PRIMARY KEY, header TEXT) -- games in play: the log header
//! live_events(game, seq, entry TEXT, PRIMARY KEY (game, seq)) -- their events so far
//! ```
//!
//! The two `live_` tables let `clue serve` follow a running tournament: the
//! runner writes the events of games that last a while, in batches, and
//! deletes them when the game itself is stored.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::Path;
use std::time::Duration;

use clue_engine::GameRecord;

use rusqlite::{Connection, OptionalExtension, params};
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

pub const STORE_FORMAT: &str = "1";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: {source}")]
    Sql {
        path: String,
        source: rusqlite::Error,
    },
    #[error(
        "{path} holds the results of a different tournament file, or one whose board files have changed since (fingerprint {stored}, now {given}); \
         use another --db or delete it"
    )]
    Different {
        path: String,
        stored: String,
        given: String,
    },
    #[error("{path} holds no tournament (run `clue tournament run FILE --db {path}` first)")]
    Empty { path: String },
    #[error("{path}: no game {index} in the store")]
    NoGame { path: String, index: u64 },
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

pub struct Store {
    conn: Connection,
    path: String,
}

impl Store {
    /// Opens (creating if needed) the store at `path`.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let name = path.display().to_string();
        let sql = |source| StoreError::Sql {
            path: name.clone(),
            source,
        };
        let conn = Connection::open(path).map_err(sql)?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(sql)?;
        conn.execute_batch(
            "PRAGMA journal_mode = WAL;
             PRAGMA synchronous = NORMAL;
             CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS games (
                 idx INTEGER PRIMARY KEY, setting INTEGER NOT NULL, seed INTEGER NOT NULL,
                 variant TEXT NOT NULL, players INTEGER NOT NULL, winner INTEGER,
                 rounds INTEGER NOT NULL, wall_ms REAL NOT NULL, log BLOB NOT NULL);
             CREATE TABLE IF NOT EXISTS seats (
                 game INTEGER NOT NULL REFERENCES games(idx), seat INTEGER NOT NULL,
                 bot TEXT, spec TEXT, outcome TEXT NOT NULL, dq_reason TEXT, detail TEXT,
                 rank INTEGER NOT NULL, turns INTEGER NOT NULL, calls INTEGER NOT NULL,
                 suggestions INTEGER NOT NULL, wall_ns INTEGER NOT NULL,
                 max_call_ns INTEGER NOT NULL, fuel INTEGER, max_call_fuel INTEGER,
                 PRIMARY KEY (game, seat));
             CREATE TABLE IF NOT EXISTS live_games (idx INTEGER PRIMARY KEY, header TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS live_events (
                 game INTEGER NOT NULL, seq INTEGER NOT NULL, entry TEXT NOT NULL,
                 PRIMARY KEY (game, seq));",
        )
        .map_err(sql)?;
        Ok(Store { conn, path: name })
    }

    fn sql(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sql {
            path: self.path.clone(),
            source,
        }
    }

    fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(|e| self.sql(e))
    }

    /// The tournament this store holds, if any.
    pub fn meta(&self) -> Result<Option<Meta>, StoreError> {
        let Some(source) = self.get("file")? else {
            return Ok(None);
        };
        let json = |v: Option<String>| -> Vec<String> {
            v.and_then(|v| serde_json::from_str(&v).ok())
                .unwrap_or_default()
        };
        Ok(Some(Meta {
            source,
            file: self.get("path")?.unwrap_or_default(),
            hash: self.get("hash")?.unwrap_or_default(),
            base_dir: self.get("base_dir")?.unwrap_or_else(|| ".".into()),
            bots: json(self.get("bots")?),
            settings: json(self.get("settings")?),
        }))
    }

    /// The stored tournament, or an error when there is none.
    pub fn require_meta(&self) -> Result<Meta, StoreError> {
        self.meta()?.ok_or_else(|| StoreError::Empty {
            path: self.path.clone(),
        })
    }

    /// Binds the store to `t`: records it in a new store, or checks that an
    /// existing store holds the same file.
    pub fn bind(&mut self, t: &Tournament) -> Result<(), StoreError> {
        let given = t.fingerprint();
        if let Some(meta) = self.meta()? {
            if meta.hash != given || meta.source != t.source {
                return Err(StoreError::Different {
                    path: self.path.clone(),
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
        let tx = self.conn.transaction().map_err(|e| StoreError::Sql {
            path: self.path.clone(),
            source: e,
        })?;
        for (k, v) in rows {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2)",
                params![k, v],
            )
            .map_err(|e| StoreError::Sql {
                path: self.path.clone(),
                source: e,
            })?;
        }
        tx.commit().map_err(|e| self.sql(e))
    }

    /// The indices of the games already stored.
    pub fn done(&self) -> Result<BTreeSet<u64>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT idx FROM games")
            .map_err(|e| self.sql(e))?;
        let rows = stmt
            .query_map([], |r| r.get::<_, i64>(0))
            .map_err(|e| self.sql(e))?;
        let mut out = BTreeSet::new();
        for r in rows {
            out.insert(r.map_err(|e| self.sql(e))? as u64);
        }
        Ok(out)
    }

    /// Stores one finished game and its seats in one transaction.
    pub fn insert(&mut self, game: &FinishedGame, t: &Tournament) -> Result<(), StoreError> {
        let path = self.path.clone();
        let sql = |source| StoreError::Sql {
            path: path.clone(),
            source,
        };
        let record = &game.record;
        let specs: Vec<_> = game.seats.iter().map(|&b| t.bots[b].spec.clone()).collect();
        let log = compress(&GameLog::from_record(record, &specs));
        let tx = self.conn.transaction().map_err(sql)?;
        tx.execute(
            "INSERT INTO games (idx, setting, seed, variant, players, winner, rounds, wall_ms, log)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                game.index as i64,
                game.setting as i64,
                game.seed as i64,
                record.config.variant.name(),
                record.config.players,
                record.winner.map(|s| s.0),
                record.rounds,
                game.wall.as_secs_f64() * 1000.0,
                log,
            ],
        )
        .map_err(sql)?;
        for s in &record.seats {
            let i = s.seat.index();
            let bot = game.seats.get(i).map(|&b| &t.bots[b]);
            let meter = game.meters.get(i);
            let (outcome, reason) = outcome_label(&s.outcome);
            tx.execute(
                "INSERT INTO seats (game, seat, bot, spec, outcome, dq_reason, detail, rank,
                     turns, calls, suggestions, wall_ns, max_call_ns, fuel, max_call_fuel)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                params![
                    game.index as i64,
                    s.seat.0,
                    bot.map(|b| b.name.clone()),
                    bot.map(|b| b.spec.to_string()),
                    outcome,
                    reason,
                    s.detail,
                    s.rank,
                    s.turns,
                    s.calls,
                    s.suggestions,
                    meter.map_or(0, |m| m.wall.as_nanos() as i64),
                    meter.map_or(0, |m| m.max_call.as_nanos() as i64),
                    meter.and_then(|m| m.fuel).map(|f| f as i64),
                    meter.and_then(|m| m.max_call_fuel).map(|f| f as i64),
                ],
            )
            .map_err(sql)?;
        }
        tx.execute(
            "DELETE FROM live_events WHERE game = ?1",
            [game.index as i64],
        )
        .map_err(sql)?;
        tx.execute("DELETE FROM live_games WHERE idx = ?1", [game.index as i64])
            .map_err(sql)?;
        tx.commit().map_err(sql)
    }

    /// Forgets every game in play (a run begins or ends; nothing is playing).
    pub fn live_clear(&mut self) -> Result<(), StoreError> {
        self.conn
            .execute_batch("DELETE FROM live_events; DELETE FROM live_games;")
            .map_err(|e| self.sql(e))
    }

    /// Appends events of games in play, in one transaction: for each game its
    /// log header (written once) and its entries from sequence number `from`.
    pub fn live_write(&mut self, batch: &[LiveBatch<'_>]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let sql = |source| StoreError::Sql {
            path: path.clone(),
            source,
        };
        let tx = self.conn.transaction().map_err(sql)?;
        for game in batch {
            let header = serde_json::to_string(game.header).unwrap_or_default();
            tx.execute(
                "INSERT OR IGNORE INTO live_games (idx, header) VALUES (?1, ?2)",
                params![game.index as i64, header],
            )
            .map_err(sql)?;
            for (k, entry) in game.entries.iter().enumerate() {
                let text = serde_json::to_string(entry).unwrap_or_default();
                tx.execute(
                    "INSERT OR REPLACE INTO live_events (game, seq, entry) VALUES (?1, ?2, ?3)",
                    params![game.index as i64, (game.from + k) as i64, text],
                )
                .map_err(sql)?;
            }
        }
        tx.commit().map_err(sql)
    }

    /// The games in play, with how many of their events are stored so far.
    pub fn live_games(&self) -> Result<Vec<LiveGame>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT g.idx, g.header, (SELECT COUNT(*) FROM live_events e WHERE e.game = g.idx)
                 FROM live_games g ORDER BY g.idx",
            )
            .map_err(|e| self.sql(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)?,
                ))
            })
            .map_err(|e| self.sql(e))?;
        let mut out = Vec::new();
        for row in rows {
            let (index, header, events) = row.map_err(|e| self.sql(e))?;
            let header: Header = serde_json::from_str(&header).map_err(|e| StoreError::Log {
                path: self.path.clone(),
                index: index as u64,
                message: e.to_string(),
            })?;
            out.push(LiveGame {
                index: index as u64,
                header,
                events: events as u64,
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
        let mut stmt = self
            .conn
            .prepare("SELECT entry FROM live_events WHERE game = ?1 ORDER BY seq")
            .map_err(|e| self.sql(e))?;
        let rows = stmt
            .query_map([index as i64], |r| r.get::<_, String>(0))
            .map_err(|e| self.sql(e))?;
        let mut entries = Vec::new();
        for row in rows {
            let text = row.map_err(|e| self.sql(e))?;
            let entry: LogEntry = serde_json::from_str(&text).map_err(|e| StoreError::Log {
                path: self.path.clone(),
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
        let mut games: Vec<GameRow> = Vec::new();
        {
            let mut stmt = self
                .conn
                .prepare("SELECT idx, setting, seed, winner, rounds FROM games ORDER BY idx")
                .map_err(|e| self.sql(e))?;
            let rows = stmt
                .query_map([], |r| {
                    Ok(GameRow {
                        index: r.get::<_, i64>(0)? as u64,
                        setting: r.get::<_, i64>(1)? as usize,
                        seed: r.get::<_, i64>(2)? as u64,
                        winner: r.get(3)?,
                        rounds: r.get(4)?,
                        seats: Vec::new(),
                    })
                })
                .map_err(|e| self.sql(e))?;
            for r in rows {
                games.push(r.map_err(|e| self.sql(e))?);
            }
        }
        let mut stmt = self
            .conn
            .prepare(
                "SELECT game, seat, bot, outcome, dq_reason, detail, rank, turns, calls,
                        wall_ns, max_call_ns, fuel, max_call_fuel FROM seats ORDER BY game, seat",
            )
            .map_err(|e| self.sql(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)? as u64,
                    SeatRow {
                        seat: r.get(1)?,
                        bot: r.get(2)?,
                        outcome: r.get(3)?,
                        dq_reason: r.get(4)?,
                        detail: r.get(5)?,
                        rank: r.get(6)?,
                        turns: r.get(7)?,
                        calls: r.get(8)?,
                        wall_ns: r.get::<_, i64>(9)? as u64,
                        max_call_ns: r.get::<_, i64>(10)? as u64,
                        fuel: r.get::<_, Option<i64>>(11)?.map(|f| f as u64),
                        max_call_fuel: r.get::<_, Option<i64>>(12)?.map(|f| f as u64),
                    },
                ))
            })
            .map_err(|e| self.sql(e))?;
        let mut at = 0;
        for r in rows {
            let (game, seat) = r.map_err(|e| self.sql(e))?;
            while at < games.len() && games[at].index < game {
                at += 1;
            }
            if let Some(g) = games.get_mut(at).filter(|g| g.index == game) {
                g.seats.push(seat);
            }
        }
        Ok(games)
    }

    /// The stored game log of game `index`.
    pub fn log(&self, index: u64) -> Result<GameLog, StoreError> {
        let blob: Option<Vec<u8>> = self
            .conn
            .query_row(
                "SELECT log FROM games WHERE idx = ?1",
                [index as i64],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        let blob = blob.ok_or_else(|| StoreError::NoGame {
            path: self.path.clone(),
            index,
        })?;
        let damaged = |message: String| StoreError::Log {
            path: self.path.clone(),
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

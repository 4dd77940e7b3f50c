//! The SQLite store: one file, for one machine.

use std::collections::BTreeSet;
use std::path::Path;

use std::time::Duration;

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use super::claims::{ClaimRow, ProgressRows, ScheduleInsert, now_ms};
use super::{Backend, GameInsert, GameRow, Lease, LiveInsert, SeatRow, StoreError, attach_seats};

pub struct SqliteStore {
    conn: Connection,
    path: String,
}

impl SqliteStore {
    /// Opens (creating if needed) the store at `path`.
    pub fn open(path: &Path) -> Result<SqliteStore, StoreError> {
        let name = path.display().to_string();
        let sql = |source| StoreError::Sql {
            path: name.clone(),
            source,
        };
        // SQLite's own word for it is "unable to open database file".
        if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty())
            && !folder.is_dir()
        {
            return Err(StoreError::Open {
                path: name,
                doing: "make",
                message: format!("its folder {} does not exist", folder.display()),
            });
        }
        let conn = Connection::open(path).map_err(|e| cannot_open(path, &name, e))?;
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
                 PRIMARY KEY (game, seq));
             CREATE TABLE IF NOT EXISTS schedule (
                 idx INTEGER PRIMARY KEY, setting INTEGER NOT NULL, seed INTEGER NOT NULL,
                 seats TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0, worker TEXT,
                 claims INTEGER NOT NULL DEFAULT 0, lease_until INTEGER);
             CREATE INDEX IF NOT EXISTS schedule_open ON schedule (idx) WHERE done = 0;
             CREATE TABLE IF NOT EXISTS workers (
                 id TEXT PRIMARY KEY, host TEXT NOT NULL, started INTEGER NOT NULL,
                 last_seen INTEGER NOT NULL, stored INTEGER NOT NULL DEFAULT 0);
             -- Version 1 had no schedule: the tables above are the upgrade.
             UPDATE meta SET value = '2' WHERE key = 'format' AND value = '1';",
        )
        .map_err(|e| {
            // Any other file named as the store (a tournament file, say).
            if e.sqlite_error_code() == Some(rusqlite::ErrorCode::NotADatabase) {
                StoreError::Open {
                    path: name.clone(),
                    doing: "open",
                    message: "it is not a results store (not a SQLite database)".into(),
                }
            } else {
                sql(e)
            }
        })?;
        Ok(SqliteStore { conn, path: name })
    }

    fn open_path(&self) -> &Path {
        Path::new(&self.path)
    }

    fn sql(&self, source: rusqlite::Error) -> StoreError {
        StoreError::Sql {
            path: self.path.clone(),
            source,
        }
    }
}

impl Backend for SqliteStore {
    fn name(&self) -> &str {
        &self.path
    }

    fn another(&self) -> Result<Box<dyn Backend>, StoreError> {
        Ok(Box::new(SqliteStore::open(self.open_path())?))
    }

    fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
        self.conn
            .query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0))
            .optional()
            .map_err(|e| self.sql(e))
    }

    fn put_meta(&mut self, rows: &[(&str, String)]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let sql = |source| StoreError::Sql {
            path: path.clone(),
            source,
        };
        let tx = self.conn.transaction().map_err(sql)?;
        for (k, v) in rows {
            tx.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?1, ?2)",
                params![k, v],
            )
            .map_err(sql)?;
        }
        tx.commit().map_err(sql)
    }

    fn done(&self) -> Result<BTreeSet<u64>, StoreError> {
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

    fn insert(&mut self, game: &GameInsert, lease: &Lease) -> Result<bool, StoreError> {
        let path = self.path.clone();
        let sql = |source| StoreError::Sql {
            path: path.clone(),
            source,
        };
        // IMMEDIATE: the write lock first, so the lease read below cannot
        // change before the commit.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        let holder: Option<(Option<String>, i64)> = tx
            .query_row(
                "SELECT worker, claims FROM schedule WHERE idx = ?1",
                [game.index],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(sql)?;
        if holder != Some((Some(lease.worker.clone()), lease.claims)) {
            return Ok(false);
        }
        tx.execute(
            "INSERT INTO games (idx, setting, seed, variant, players, winner, rounds, wall_ms, log)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                game.index,
                game.setting,
                game.seed,
                game.variant,
                game.players,
                game.winner,
                game.rounds,
                game.wall_ms,
                game.log,
            ],
        )
        .map_err(sql)?;
        for s in &game.seats {
            tx.execute(
                "INSERT INTO seats (game, seat, bot, spec, outcome, dq_reason, detail, rank,
                     turns, calls, suggestions, wall_ns, max_call_ns, fuel, max_call_fuel)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
                params![
                    game.index,
                    s.seat,
                    s.bot,
                    s.spec,
                    s.outcome,
                    s.dq_reason,
                    s.detail,
                    s.rank,
                    s.turns,
                    s.calls,
                    s.suggestions,
                    s.wall_ns,
                    s.max_call_ns,
                    s.fuel,
                    s.max_call_fuel,
                ],
            )
            .map_err(sql)?;
        }
        tx.execute(
            "UPDATE schedule SET done = 1, lease_until = NULL WHERE idx = ?1",
            [game.index],
        )
        .map_err(sql)?;
        tx.execute(
            "UPDATE workers SET stored = stored + 1, last_seen = ?2 WHERE id = ?1",
            params![lease.worker, now_ms()],
        )
        .map_err(sql)?;
        tx.execute("DELETE FROM live_events WHERE game = ?1", [game.index])
            .map_err(sql)?;
        tx.execute("DELETE FROM live_games WHERE idx = ?1", [game.index])
            .map_err(sql)?;
        tx.commit().map_err(sql)?;
        Ok(true)
    }

    fn write_schedule(&mut self, rows: &[ScheduleInsert]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let sql = |source| StoreError::Sql {
            path: path.clone(),
            source,
        };
        let tx = self.conn.transaction().map_err(sql)?;
        {
            let mut insert = tx
                .prepare(
                    "INSERT OR IGNORE INTO schedule (idx, setting, seed, seats)
                     VALUES (?1, ?2, ?3, ?4)",
                )
                .map_err(sql)?;
            for r in rows {
                insert
                    .execute(params![r.index, r.setting, r.seed, r.seats])
                    .map_err(sql)?;
            }
        }
        tx.execute(
            "UPDATE schedule SET done = 1, lease_until = NULL
             WHERE done = 0 AND idx IN (SELECT idx FROM games)",
            [],
        )
        .map_err(sql)?;
        tx.commit().map_err(sql)
    }

    fn claim(
        &mut self,
        worker: &str,
        n: usize,
        lease: Duration,
    ) -> Result<Vec<ClaimRow>, StoreError> {
        let path = self.path.clone();
        let sql = |source| StoreError::Sql {
            path: path.clone(),
            source,
        };
        let now = now_ms();
        let until = now + lease.as_millis() as i64;
        // SQLite has one writer at a time: the IMMEDIATE transaction is what
        // `FOR UPDATE SKIP LOCKED` is on PostgreSQL.
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        let mut out = Vec::new();
        {
            let mut pick = tx
                .prepare(
                    "SELECT idx, setting, seed, seats, claims FROM schedule
                     WHERE done = 0 AND (lease_until IS NULL OR lease_until < ?1)
                     ORDER BY idx LIMIT ?2",
                )
                .map_err(sql)?;
            let rows = pick
                .query_map(params![now, n as i64], |r| {
                    Ok(ClaimRow {
                        index: r.get(0)?,
                        setting: r.get(1)?,
                        seed: r.get(2)?,
                        seats: r.get(3)?,
                        claims: r.get::<_, i64>(4)? + 1,
                    })
                })
                .map_err(sql)?;
            for r in rows {
                out.push(r.map_err(sql)?);
            }
        }
        for c in &out {
            tx.execute(
                "UPDATE schedule SET worker = ?2, claims = ?3, lease_until = ?4 WHERE idx = ?1",
                params![c.index, worker, c.claims, until],
            )
            .map_err(sql)?;
            tx.execute("DELETE FROM live_events WHERE game = ?1", [c.index])
                .map_err(sql)?;
            tx.execute("DELETE FROM live_games WHERE idx = ?1", [c.index])
                .map_err(sql)?;
        }
        tx.commit().map_err(sql)?;
        Ok(out)
    }

    fn heartbeat(&mut self, worker: &str, held: &[i64], lease: Duration) -> Result<(), StoreError> {
        let path = self.path.clone();
        let sql = |source| StoreError::Sql {
            path: path.clone(),
            source,
        };
        let now = now_ms();
        let tx = self.conn.transaction().map_err(sql)?;
        for idx in held {
            tx.execute(
                "UPDATE schedule SET lease_until = ?3 WHERE idx = ?1 AND worker = ?2 AND done = 0",
                params![idx, worker, now + lease.as_millis() as i64],
            )
            .map_err(sql)?;
        }
        tx.execute(
            "UPDATE workers SET last_seen = ?2 WHERE id = ?1",
            params![worker, now],
        )
        .map_err(sql)?;
        tx.commit().map_err(sql)
    }

    fn release(&mut self, worker: &str, held: &[i64]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let sql = |source| StoreError::Sql {
            path: path.clone(),
            source,
        };
        let tx = self.conn.transaction().map_err(sql)?;
        for idx in held {
            tx.execute(
                "UPDATE schedule SET lease_until = NULL WHERE idx = ?1 AND worker = ?2 AND done = 0",
                params![idx, worker],
            )
            .map_err(sql)?;
        }
        tx.commit().map_err(sql)
    }

    fn register(&mut self, worker: &str, host: &str) -> Result<(), StoreError> {
        let now = now_ms();
        self.conn
            .execute(
                "INSERT OR REPLACE INTO workers (id, host, started, last_seen, stored)
                 VALUES (?1, ?2, ?3, ?3, 0)",
                params![worker, host, now],
            )
            .map(|_| ())
            .map_err(|e| self.sql(e))
    }

    fn progress(&self) -> Result<ProgressRows, StoreError> {
        let now = now_ms();
        let (remaining, in_play): (i64, i64) = self
            .conn
            .query_row(
                "SELECT COUNT(*), COALESCE(SUM(lease_until >= ?1), 0)
                 FROM schedule WHERE done = 0",
                [now],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(|e| self.sql(e))?;
        let mut stmt = self
            .conn
            .prepare("SELECT id, host, started, last_seen, stored FROM workers")
            .map_err(|e| self.sql(e))?;
        let workers = stmt
            .query_map([], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
            })
            .map_err(|e| self.sql(e))?
            .collect::<Result<_, _>>()
            .map_err(|e| self.sql(e))?;
        Ok(ProgressRows {
            remaining: remaining as u64,
            in_play: in_play as u64,
            now_ms: now,
            workers,
        })
    }

    fn live_clear(&mut self) -> Result<(), StoreError> {
        self.conn
            .execute_batch("DELETE FROM live_events; DELETE FROM live_games;")
            .map_err(|e| self.sql(e))
    }

    fn live_write(&mut self, batch: &[LiveInsert]) -> Result<(), StoreError> {
        let path = self.path.clone();
        let sql = |source| StoreError::Sql {
            path: path.clone(),
            source,
        };
        let tx = self.conn.transaction().map_err(sql)?;
        for game in batch {
            tx.execute(
                "INSERT OR IGNORE INTO live_games (idx, header) VALUES (?1, ?2)",
                params![game.index, game.header],
            )
            .map_err(sql)?;
            for (k, entry) in game.entries.iter().enumerate() {
                tx.execute(
                    "INSERT OR REPLACE INTO live_events (game, seq, entry) VALUES (?1, ?2, ?3)",
                    params![game.index, game.from + k as i64, entry],
                )
                .map_err(sql)?;
            }
        }
        tx.commit().map_err(sql)
    }

    fn live_rows(&self) -> Result<Vec<(u64, String, u64)>, StoreError> {
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
                    r.get::<_, i64>(0)? as u64,
                    r.get::<_, String>(1)?,
                    r.get::<_, i64>(2)? as u64,
                ))
            })
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }

    fn live_entries(&self, index: u64) -> Result<Vec<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT entry FROM live_events WHERE game = ?1 ORDER BY seq")
            .map_err(|e| self.sql(e))?;
        let rows = stmt
            .query_map([index as i64], |r| r.get::<_, String>(0))
            .map_err(|e| self.sql(e))?;
        rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))
    }

    fn games(&self) -> Result<Vec<GameRow>, StoreError> {
        let mut games: Vec<GameRow> = Vec::new();
        {
            let mut stmt = self
                .conn
                .prepare(
                    "SELECT idx, setting, seed, variant, winner, rounds FROM games ORDER BY idx",
                )
                .map_err(|e| self.sql(e))?;
            let rows = stmt
                .query_map([], |r| {
                    Ok(GameRow {
                        index: r.get::<_, i64>(0)? as u64,
                        setting: r.get::<_, i64>(1)? as usize,
                        seed: r.get::<_, i64>(2)? as u64,
                        variant: r.get(3)?,
                        winner: r.get(4)?,
                        rounds: r.get(5)?,
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
        let seats: Vec<(u64, SeatRow)> = rows.collect::<Result<_, _>>().map_err(|e| self.sql(e))?;
        attach_seats(&mut games, seats);
        Ok(games)
    }

    fn log_blob(&self, index: u64) -> Result<Option<Vec<u8>>, StoreError> {
        self.conn
            .query_row(
                "SELECT log FROM games WHERE idx = ?1",
                [index as i64],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))
    }
}

/// SQLite's "unable to open database file" (its whole message repeats the
/// path and the code), told as the system's reason where one opening of
/// the file by hand finds it (a folder, no permission, a file system that
/// makes no files). A file that opening makes is removed again.
fn cannot_open(path: &Path, name: &str, error: rusqlite::Error) -> StoreError {
    if error.sqlite_error_code() == Some(rusqlite::ErrorCode::CannotOpen) {
        let existed = path.exists();
        match std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
        {
            Err(reason) => {
                return StoreError::Open {
                    path: name.to_string(),
                    doing: if existed { "open" } else { "make" },
                    message: reason.to_string(),
                };
            }
            Ok(_) if !existed => {
                let _ = std::fs::remove_file(path);
            }
            Ok(_) => {}
        }
    }
    StoreError::Sql {
        path: name.to_string(),
        source: error,
    }
}

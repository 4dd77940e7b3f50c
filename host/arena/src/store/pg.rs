//! The PostgreSQL store: one database that the machines of a tournament
//! share. A pool of synchronous connections (`postgres` + `r2d2`), since the
//! runner is plain threads.
//!
//! Migrations are numbered SQL scripts in [`MIGRATIONS`], applied in order
//! under an advisory lock (so workers starting together do not race) and
//! recorded in `schema_version`. A store whose version is newer than this
//! build knows is refused with both versions named. Hand-numbered rather than
//! a migration crate: there are two short scripts, and the version check is
//! the part that matters, shared in spirit with the SQLite store's `format`.
//!
//! Leases are timed on the server's clock (`clock_timestamp()` in
//! milliseconds), so the workers' clocks need not agree.

use std::collections::BTreeSet;
use std::time::Duration;

use postgres::{Client, NoTls};
use r2d2_postgres::{PostgresConnectionManager, r2d2};

use super::claims::{ClaimRow, ProgressRows, ScheduleInsert};
use super::{
    Backend, GameInsert, GameRow, Lease, LiveInsert, SCHEMA_VERSION, SeatRow, StoreError,
    attach_seats,
};

/// The server's clock in milliseconds since the epoch.
const NOW_MS: &str = "(extract(epoch FROM clock_timestamp()) * 1000)::BIGINT";

/// The schema's migrations: version, then the SQL that brings the previous
/// version to it.
const MIGRATIONS: &[(i64, &str)] = &[
    (
        1,
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
     CREATE TABLE games (
         idx BIGINT PRIMARY KEY, setting BIGINT NOT NULL, seed BIGINT NOT NULL,
         variant TEXT NOT NULL, players BIGINT NOT NULL, winner BIGINT,
         rounds BIGINT NOT NULL, wall_ms DOUBLE PRECISION NOT NULL, log BYTEA NOT NULL);
     CREATE TABLE seats (
         game BIGINT NOT NULL REFERENCES games(idx), seat BIGINT NOT NULL,
         bot TEXT, spec TEXT, outcome TEXT NOT NULL, dq_reason TEXT, detail TEXT,
         rank BIGINT NOT NULL, turns BIGINT NOT NULL, calls BIGINT NOT NULL,
         suggestions BIGINT NOT NULL, wall_ns BIGINT NOT NULL,
         max_call_ns BIGINT NOT NULL, fuel BIGINT, max_call_fuel BIGINT,
         PRIMARY KEY (game, seat));
     CREATE TABLE live_games (idx BIGINT PRIMARY KEY, header TEXT NOT NULL);
     CREATE TABLE live_events (
         game BIGINT NOT NULL, seq BIGINT NOT NULL, entry TEXT NOT NULL,
         PRIMARY KEY (game, seq));",
    ),
    (
        2,
        "CREATE TABLE schedule (
         idx BIGINT PRIMARY KEY, setting BIGINT NOT NULL, seed BIGINT NOT NULL,
         seats TEXT NOT NULL, done BOOLEAN NOT NULL DEFAULT FALSE, worker TEXT,
         claims BIGINT NOT NULL DEFAULT 0, lease_until BIGINT);
     CREATE INDEX schedule_open ON schedule (idx) WHERE NOT done;
     CREATE TABLE workers (
         id TEXT PRIMARY KEY, host TEXT NOT NULL, started BIGINT NOT NULL,
         last_seen BIGINT NOT NULL, stored BIGINT NOT NULL DEFAULT 0);
     UPDATE meta SET value = '2' WHERE key = 'format';",
    ),
];

/// The advisory lock key that serialises migrations ("clue" in ASCII).
const MIGRATION_LOCK: i64 = 0x636c_7565;

type Pool = r2d2::Pool<PostgresConnectionManager<NoTls>>;

#[derive(Clone)]
pub struct PgStore {
    pool: Pool,
    name: String,
}

impl PgStore {
    /// Connects to the database at `url` and brings its schema up to date.
    /// `name` is the URL without its password, for messages.
    pub fn open(url: &str, name: String) -> Result<PgStore, StoreError> {
        let fail = |message: String| StoreError::Postgres {
            path: name.clone(),
            message,
        };
        let mut config: postgres::Config = url
            .parse()
            .map_err(|e| fail(format!("not a PostgreSQL URL: {e}")))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        // One connection first, so an unreachable server or a refused login
        // is reported at once rather than after the pool's timeout.
        let mut client = config
            .connect(NoTls)
            .map_err(|e| fail(postgres_message(&e)))?;
        migrate(&mut client, &name)?;
        drop(client);
        let pool = r2d2::Pool::builder()
            .max_size(8)
            .min_idle(Some(1))
            .connection_timeout(Duration::from_secs(30))
            .build(PostgresConnectionManager::new(config, NoTls))
            .map_err(|e| fail(format!("cannot open a connection pool: {e}")))?;
        Ok(PgStore { pool, name })
    }

    fn client(
        &self,
    ) -> Result<r2d2::PooledConnection<PostgresConnectionManager<NoTls>>, StoreError> {
        self.pool.get().map_err(|e| StoreError::Postgres {
            path: self.name.clone(),
            message: format!("no connection: {e}"),
        })
    }

    fn pg(&self, e: postgres::Error) -> StoreError {
        StoreError::Postgres {
            path: self.name.clone(),
            message: postgres_message(&e),
        }
    }
}

/// A PostgreSQL error on one line, with the server's message when there is one.
fn postgres_message(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{}: {}", db.severity(), db.message());
    }
    let mut text = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        let more = s.to_string();
        if !text.contains(&more) {
            text = format!("{text}: {more}");
        }
        source = s.source();
    }
    text.replace('\n', " ")
}

fn migrate(client: &mut Client, name: &str) -> Result<(), StoreError> {
    let pg = |e: postgres::Error| StoreError::Postgres {
        path: name.to_string(),
        message: postgres_message(&e),
    };
    let mut tx = client.transaction().map_err(pg)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .map_err(pg)?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        .map_err(pg)?;
    let found: Option<i64> = tx
        .query_one("SELECT max(version) FROM schema_version", &[])
        .map_err(pg)?
        .get(0);
    let found = found.unwrap_or(0);
    if found > SCHEMA_VERSION {
        return Err(StoreError::Version {
            path: name.to_string(),
            found: found.to_string(),
            expected: SCHEMA_VERSION.to_string(),
        });
    }
    for (version, sql) in MIGRATIONS.iter().filter(|(v, _)| *v > found) {
        tx.batch_execute(sql).map_err(pg)?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[version],
        )
        .map_err(pg)?;
    }
    tx.commit().map_err(pg)
}

impl Backend for PgStore {
    fn name(&self) -> &str {
        &self.name
    }

    fn another(&self) -> Result<Box<dyn Backend>, StoreError> {
        Ok(Box::new(self.clone()))
    }

    fn get(&self, key: &str) -> Result<Option<String>, StoreError> {
        let row = self
            .client()?
            .query_opt("SELECT value FROM meta WHERE key = $1", &[&key])
            .map_err(|e| self.pg(e))?;
        Ok(row.map(|r| r.get(0)))
    }

    fn put_meta(&mut self, rows: &[(&str, String)]) -> Result<(), StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(|e| self.pg(e))?;
        for (k, v) in rows {
            tx.execute(
                "INSERT INTO meta (key, value) VALUES ($1, $2)
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                &[k, v],
            )
            .map_err(|e| self.pg(e))?;
        }
        tx.commit().map_err(|e| self.pg(e))
    }

    fn done(&self) -> Result<BTreeSet<u64>, StoreError> {
        let rows = self
            .client()?
            .query("SELECT idx FROM games", &[])
            .map_err(|e| self.pg(e))?;
        Ok(rows.iter().map(|r| r.get::<_, i64>(0) as u64).collect())
    }

    fn insert(&mut self, game: &GameInsert, lease: &Lease) -> Result<bool, StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(|e| self.pg(e))?;
        // The row stays locked to the commit: no claim slips in between.
        let holder = tx
            .query_opt(
                "SELECT worker, claims FROM schedule WHERE idx = $1 FOR UPDATE",
                &[&game.index],
            )
            .map_err(|e| self.pg(e))?
            .map(|r| (r.get::<_, Option<String>>(0), r.get::<_, i64>(1)));
        if holder != Some((Some(lease.worker.clone()), lease.claims)) {
            return Ok(false);
        }
        tx.execute(
            "INSERT INTO games (idx, setting, seed, variant, players, winner, rounds, wall_ms, log)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            &[
                &game.index,
                &game.setting,
                &game.seed,
                &game.variant,
                &game.players,
                &game.winner,
                &game.rounds,
                &game.wall_ms,
                &game.log,
            ],
        )
        .map_err(|e| self.pg(e))?;
        for s in &game.seats {
            tx.execute(
                "INSERT INTO seats (game, seat, bot, spec, outcome, dq_reason, detail, rank,
                     turns, calls, suggestions, wall_ns, max_call_ns, fuel, max_call_fuel)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
                &[
                    &game.index,
                    &s.seat,
                    &s.bot,
                    &s.spec,
                    &s.outcome,
                    &s.dq_reason,
                    &s.detail,
                    &s.rank,
                    &s.turns,
                    &s.calls,
                    &s.suggestions,
                    &s.wall_ns,
                    &s.max_call_ns,
                    &s.fuel,
                    &s.max_call_fuel,
                ],
            )
            .map_err(|e| self.pg(e))?;
        }
        tx.execute(
            "UPDATE schedule SET done = TRUE, lease_until = NULL WHERE idx = $1",
            &[&game.index],
        )
        .map_err(|e| self.pg(e))?;
        tx.execute(
            &format!("UPDATE workers SET stored = stored + 1, last_seen = {NOW_MS} WHERE id = $1"),
            &[&lease.worker],
        )
        .map_err(|e| self.pg(e))?;
        tx.execute("DELETE FROM live_events WHERE game = $1", &[&game.index])
            .map_err(|e| self.pg(e))?;
        tx.execute("DELETE FROM live_games WHERE idx = $1", &[&game.index])
            .map_err(|e| self.pg(e))?;
        tx.commit().map_err(|e| self.pg(e))?;
        Ok(true)
    }

    fn write_schedule(&mut self, rows: &[ScheduleInsert]) -> Result<(), StoreError> {
        let mut client = self.client()?;
        // Arrays of 10 000 rows a statement: a million-game schedule is a
        // hundred round trips.
        for chunk in rows.chunks(10_000) {
            let index: Vec<i64> = chunk.iter().map(|r| r.index).collect();
            let setting: Vec<i64> = chunk.iter().map(|r| r.setting).collect();
            let seed: Vec<i64> = chunk.iter().map(|r| r.seed).collect();
            let seats: Vec<&str> = chunk.iter().map(|r| r.seats.as_str()).collect();
            client
                .execute(
                    "INSERT INTO schedule (idx, setting, seed, seats)
                     SELECT * FROM unnest($1::BIGINT[], $2::BIGINT[], $3::BIGINT[], $4::TEXT[])
                     ON CONFLICT (idx) DO NOTHING",
                    &[&index, &setting, &seed, &seats],
                )
                .map_err(|e| self.pg(e))?;
        }
        client
            .execute(
                "UPDATE schedule SET done = TRUE, lease_until = NULL
                 WHERE NOT done AND idx IN (SELECT idx FROM games)",
                &[],
            )
            .map_err(|e| self.pg(e))?;
        Ok(())
    }

    fn claim(
        &mut self,
        worker: &str,
        n: usize,
        lease: Duration,
    ) -> Result<Vec<ClaimRow>, StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(|e| self.pg(e))?;
        let rows = tx
            .query(
                &format!(
                    "UPDATE schedule s SET worker = $1, claims = s.claims + 1,
                         lease_until = {NOW_MS} + $2
                     FROM (SELECT idx FROM schedule
                           WHERE NOT done AND (lease_until IS NULL OR lease_until < {NOW_MS})
                           ORDER BY idx LIMIT $3
                           FOR UPDATE SKIP LOCKED) c
                     WHERE s.idx = c.idx
                     RETURNING s.idx, s.setting, s.seed, s.seats, s.claims"
                ),
                &[&worker, &(lease.as_millis() as i64), &(n as i64)],
            )
            .map_err(|e| self.pg(e))?;
        let mut out: Vec<ClaimRow> = rows
            .iter()
            .map(|r| ClaimRow {
                index: r.get(0),
                setting: r.get(1),
                seed: r.get(2),
                seats: r.get(3),
                claims: r.get(4),
            })
            .collect();
        out.sort_by_key(|c| c.index);
        let claimed: Vec<i64> = out.iter().map(|c| c.index).collect();
        if !claimed.is_empty() {
            // A game claimed again starts its live rows over.
            tx.execute("DELETE FROM live_events WHERE game = ANY($1)", &[&claimed])
                .map_err(|e| self.pg(e))?;
            tx.execute("DELETE FROM live_games WHERE idx = ANY($1)", &[&claimed])
                .map_err(|e| self.pg(e))?;
        }
        tx.commit().map_err(|e| self.pg(e))?;
        Ok(out)
    }

    fn heartbeat(&mut self, worker: &str, held: &[i64], lease: Duration) -> Result<(), StoreError> {
        let mut client = self.client()?;
        let lease = lease.as_millis() as i64;
        client
            .execute(
                &format!(
                    "UPDATE schedule SET lease_until = {NOW_MS} + $3
                     WHERE idx = ANY($1) AND worker = $2 AND NOT done"
                ),
                &[&held, &worker, &lease],
            )
            .map_err(|e| self.pg(e))?;
        client
            .execute(
                &format!("UPDATE workers SET last_seen = {NOW_MS} WHERE id = $1"),
                &[&worker],
            )
            .map_err(|e| self.pg(e))?;
        Ok(())
    }

    fn release(&mut self, worker: &str, held: &[i64]) -> Result<(), StoreError> {
        self.client()?
            .execute(
                "UPDATE schedule SET lease_until = NULL
                 WHERE idx = ANY($1) AND worker = $2 AND NOT done",
                &[&held, &worker],
            )
            .map(|_| ())
            .map_err(|e| self.pg(e))
    }

    fn register(&mut self, worker: &str, host: &str) -> Result<(), StoreError> {
        self.client()?
            .execute(
                &format!(
                    "INSERT INTO workers (id, host, started, last_seen, stored)
                     VALUES ($1, $2, {NOW_MS}, {NOW_MS}, 0)
                     ON CONFLICT (id) DO UPDATE SET host = EXCLUDED.host,
                         started = EXCLUDED.started, last_seen = EXCLUDED.last_seen, stored = 0"
                ),
                &[&worker, &host],
            )
            .map(|_| ())
            .map_err(|e| self.pg(e))
    }

    fn progress(&self) -> Result<ProgressRows, StoreError> {
        let mut client = self.client()?;
        let row = client
            .query_one(
                &format!(
                    "SELECT COUNT(*), COUNT(*) FILTER (WHERE lease_until >= {NOW_MS}), {NOW_MS}
                     FROM schedule WHERE NOT done"
                ),
                &[],
            )
            .map_err(|e| self.pg(e))?;
        let (remaining, in_play, now_ms): (i64, i64, i64) = (row.get(0), row.get(1), row.get(2));
        let workers = client
            .query(
                "SELECT id, host, started, last_seen, stored FROM workers",
                &[],
            )
            .map_err(|e| self.pg(e))?
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
            .collect();
        Ok(ProgressRows {
            remaining: remaining as u64,
            in_play: in_play as u64,
            now_ms,
            workers,
        })
    }

    fn live_clear(&mut self) -> Result<(), StoreError> {
        self.client()?
            .batch_execute("DELETE FROM live_events; DELETE FROM live_games;")
            .map_err(|e| self.pg(e))
    }

    fn live_write(&mut self, batch: &[LiveInsert]) -> Result<(), StoreError> {
        let mut client = self.client()?;
        let mut tx = client.transaction().map_err(|e| self.pg(e))?;
        for game in batch {
            tx.execute(
                "INSERT INTO live_games (idx, header) VALUES ($1, $2) ON CONFLICT (idx) DO NOTHING",
                &[&game.index, &game.header],
            )
            .map_err(|e| self.pg(e))?;
            for (k, entry) in game.entries.iter().enumerate() {
                tx.execute(
                    "INSERT INTO live_events (game, seq, entry) VALUES ($1, $2, $3)
                     ON CONFLICT (game, seq) DO UPDATE SET entry = EXCLUDED.entry",
                    &[&game.index, &(game.from + k as i64), entry],
                )
                .map_err(|e| self.pg(e))?;
            }
        }
        tx.commit().map_err(|e| self.pg(e))
    }

    fn live_rows(&self) -> Result<Vec<(u64, String, u64)>, StoreError> {
        let rows = self
            .client()?
            .query(
                "SELECT g.idx, g.header, (SELECT COUNT(*) FROM live_events e WHERE e.game = g.idx)
                 FROM live_games g ORDER BY g.idx",
                &[],
            )
            .map_err(|e| self.pg(e))?;
        Ok(rows
            .iter()
            .map(|r| {
                (
                    r.get::<_, i64>(0) as u64,
                    r.get::<_, String>(1),
                    r.get::<_, i64>(2) as u64,
                )
            })
            .collect())
    }

    fn live_entries(&self, index: u64) -> Result<Vec<String>, StoreError> {
        let rows = self
            .client()?
            .query(
                "SELECT entry FROM live_events WHERE game = $1 ORDER BY seq",
                &[&(index as i64)],
            )
            .map_err(|e| self.pg(e))?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn games(&self) -> Result<Vec<GameRow>, StoreError> {
        let mut client = self.client()?;
        let rows = client
            .query(
                "SELECT idx, setting, seed, variant, winner, rounds FROM games ORDER BY idx",
                &[],
            )
            .map_err(|e| self.pg(e))?;
        let mut games: Vec<GameRow> = rows
            .iter()
            .map(|r| GameRow {
                index: r.get::<_, i64>(0) as u64,
                setting: r.get::<_, i64>(1) as usize,
                seed: r.get::<_, i64>(2) as u64,
                variant: r.get(3),
                winner: r.get::<_, Option<i64>>(4).map(|w| w as u8),
                rounds: r.get::<_, i64>(5) as u32,
                seats: Vec::new(),
            })
            .collect();
        let rows = client
            .query(
                "SELECT game, seat, bot, outcome, dq_reason, detail, rank, turns, calls,
                        wall_ns, max_call_ns, fuel, max_call_fuel FROM seats ORDER BY game, seat",
                &[],
            )
            .map_err(|e| self.pg(e))?;
        let seats = rows.iter().map(|r| {
            (
                r.get::<_, i64>(0) as u64,
                SeatRow {
                    seat: r.get::<_, i64>(1) as u8,
                    bot: r.get(2),
                    outcome: r.get(3),
                    dq_reason: r.get(4),
                    detail: r.get(5),
                    rank: r.get::<_, i64>(6) as u8,
                    turns: r.get::<_, i64>(7) as u32,
                    calls: r.get::<_, i64>(8) as u32,
                    wall_ns: r.get::<_, i64>(9) as u64,
                    max_call_ns: r.get::<_, i64>(10) as u64,
                    fuel: r.get::<_, Option<i64>>(11).map(|f| f as u64),
                    max_call_fuel: r.get::<_, Option<i64>>(12).map(|f| f as u64),
                },
            )
        });
        attach_seats(&mut games, seats);
        Ok(games)
    }

    fn log_blob(&self, index: u64) -> Result<Option<Vec<u8>>, StoreError> {
        let row = self
            .client()?
            .query_opt("SELECT log FROM games WHERE idx = $1", &[&(index as i64)])
            .map_err(|e| self.pg(e))?;
        Ok(row.map(|r| r.get(0)))
    }
}

//! The schedule in the store, and who plays it: every game of the tournament
//! is a row of `schedule` (index, setting, seed, seats), written once by
//! `clue tournament run`. Whoever plays (the coordinator's own threads, or a
//! `clue tournament worker` on any machine) claims games from it: a claim is
//! a lease (the worker's id, the row's claim count, an expiry on the store's
//! clock) that the worker's heartbeat keeps extending. A worker that dies
//! stops extending its leases; once they expire, another worker claims the
//! games again. A result is stored only while its claim still stands (same
//! worker, same claim count), in the transaction that stores the game, and
//! `games` has the index as its primary key: no game is stored twice.
//!
//! A worker also proves it plays the same tournament: the file's text, its
//! board files and a SHA-256 of each bot's files are written with the
//! schedule ([`Store::write_schedule`]) and compared before it plays
//! ([`Store::check_worker`], in `files.rs`).

use std::time::Duration;

use super::files::file_hashes;
use super::{Store, StoreError};
use crate::config::Tournament;
use crate::schedule::{ScheduledGame, schedule};

/// One `schedule` row to write.
pub struct ScheduleInsert {
    pub index: i64,
    pub setting: i64,
    pub seed: i64,
    /// The bots of the acting seats, as JSON (`[0,2,1]`).
    pub seats: String,
}

/// A claimed `schedule` row, as the backend returns it.
pub struct ClaimRow {
    pub index: i64,
    pub setting: i64,
    pub seed: i64,
    pub seats: String,
    pub claims: i64,
}

/// What a worker holds on a game: its id and the game's claim count when it
/// claimed it. The lease stands while the row still says both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    pub worker: String,
    pub claims: i64,
}

/// A claimed game: what to play, and the lease to store it with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    pub game: ScheduledGame,
    pub lease: Lease,
}

/// What a backend counts for [`Store::progress`].
pub struct ProgressRows {
    /// Games not done.
    pub remaining: u64,
    /// Games not done with a lease that has not expired.
    pub in_play: u64,
    /// The store's clock, in milliseconds since the epoch.
    pub now_ms: i64,
    /// id, host, started, last seen (ms on the store's clock), games stored.
    pub workers: Vec<(String, String, i64, i64, i64)>,
}

/// The tournament as every worker sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub scheduled: u64,
    pub done: u64,
    pub in_play: u64,
    /// Workers seen in the last minute, busiest first.
    pub workers: Vec<WorkerProgress>,
}

/// One worker's share.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerProgress {
    pub id: String,
    pub host: String,
    /// Games it stored since it started.
    pub stored: u64,
    /// Games stored per second since it started.
    pub per_second: f64,
    /// Since its last heartbeat.
    pub seen_ago: Duration,
}

/// Milliseconds since the epoch on this machine's clock (the SQLite store's
/// clock; PostgreSQL uses the server's, so workers' clocks need not agree).
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A worker's id: `HOST:PID:XXXX`, the last part from the clock so a
/// restarted process (same pid in a container) is a new worker.
pub fn worker_id() -> String {
    let suffix = (now_ms() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 48;
    format!("{}:{}:{suffix:04x}", host_name(), std::process::id())
}

/// This machine's name, for the workers table.
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".into())
}

impl Store {
    /// Writes the tournament's schedule (the rows not yet written; games
    /// already stored are marked done), then the hashes of its files and
    /// where the file is, for workers. `bind` first.
    pub fn write_schedule(&mut self, t: &Tournament) -> Result<u64, StoreError> {
        let games = schedule(t);
        let written = self.scheduled()?;
        if written != Some(games.len() as u64) {
            let rows: Vec<ScheduleInsert> = games
                .iter()
                .map(|g| ScheduleInsert {
                    index: g.index as i64,
                    setting: g.setting as i64,
                    seed: g.seed as i64,
                    seats: serde_json::to_string(&g.seats).unwrap_or_default(),
                })
                .collect();
            self.db.write_schedule(&rows)?;
        }
        let origin = std::fs::canonicalize(&t.file)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| t.file.clone());
        let files = serde_json::to_string(&file_hashes(t)).unwrap_or_default();
        self.db.put_meta(&[
            ("origin", origin),
            ("files", files),
            ("scheduled", games.len().to_string()),
        ])?;
        Ok(games.len() as u64)
    }

    /// The tournament file a worker should load when it is not given one:
    /// where the coordinator's was.
    pub fn origin(&self) -> Result<Option<String>, StoreError> {
        self.db.get("origin")
    }

    /// Records `worker` (on `host`) as starting.
    pub fn register(&mut self, worker: &str, host: &str) -> Result<(), StoreError> {
        self.db.register(worker, host)
    }

    /// Claims up to `n` games for `worker`, leased for `lease`.
    pub fn claim(
        &mut self,
        worker: &str,
        n: usize,
        lease: Duration,
    ) -> Result<Vec<Claim>, StoreError> {
        let rows = self.db.claim(worker, n, lease)?;
        let mut out = Vec::with_capacity(rows.len());
        for row in rows {
            let seats: Vec<usize> =
                serde_json::from_str(&row.seats).map_err(|e| StoreError::Worker {
                    path: self.name().to_string(),
                    message: format!("schedule row {}: bad seats `{}`: {e}", row.index, row.seats),
                })?;
            out.push(Claim {
                game: ScheduledGame {
                    index: row.index as u64,
                    setting: row.setting as usize,
                    seed: row.seed as u64,
                    seats,
                },
                lease: Lease {
                    worker: worker.to_string(),
                    claims: row.claims,
                },
            });
        }
        Ok(out)
    }

    /// Extends `worker`'s leases on the games `held`.
    pub fn heartbeat(
        &mut self,
        worker: &str,
        held: &[u64],
        lease: Duration,
    ) -> Result<(), StoreError> {
        let held: Vec<i64> = held.iter().map(|&i| i as i64).collect();
        self.db.heartbeat(worker, &held, lease)
    }

    /// Gives back `worker`'s claims on the games `held` that are not done.
    pub fn release(&mut self, worker: &str, held: &[u64]) -> Result<(), StoreError> {
        let held: Vec<i64> = held.iter().map(|&i| i as i64).collect();
        self.db.release(worker, &held)
    }

    /// Games done and in play, and each worker's throughput.
    pub fn progress(&self) -> Result<Progress, StoreError> {
        let scheduled = self.scheduled()?.unwrap_or(0);
        let rows = self.db.progress()?;
        let mut workers: Vec<WorkerProgress> = rows
            .workers
            .into_iter()
            .map(|(id, host, started, last_seen, stored)| {
                let seconds = (last_seen - started).max(1) as f64 / 1000.0;
                WorkerProgress {
                    id,
                    host,
                    stored: stored.max(0) as u64,
                    per_second: stored.max(0) as f64 / seconds,
                    seen_ago: Duration::from_millis((rows.now_ms - last_seen).max(0) as u64),
                }
            })
            .filter(|w| w.seen_ago < Duration::from_secs(60))
            .collect();
        workers.sort_by(|a, b| b.stored.cmp(&a.stored).then(a.id.cmp(&b.id)));
        Ok(Progress {
            scheduled,
            done: scheduled.saturating_sub(rows.remaining),
            in_play: rows.in_play,
            workers,
        })
    }
}

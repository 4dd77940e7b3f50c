//! What a store's database does ([`Backend`]), and the rows a game is
//! handed to it as: the SQLite and PostgreSQL backends (`sqlite.rs`, `pg.rs`)
//! implement the one trait, and [`Store`](super::Store) holds the logic both
//! share.

use std::collections::BTreeSet;
use std::time::Duration;

use super::claims::{self, Lease};
use super::{GameRow, SeatRow, StoreError};

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

/// What a store's database does; [`Store`](super::Store) adds the logic both share.
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

/// Attaches the seat rows (ordered by game, seat) to their games (ordered by index).
pub(super) fn attach_seats(games: &mut [GameRow], seats: impl IntoIterator<Item = (u64, SeatRow)>) {
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

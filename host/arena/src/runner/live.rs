//! The events of games in play, written to the store's live tables in
//! batches for `clue serve` to follow (docs/web.md, *Watching*).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use clue_engine::LogEntry;

use crate::config::Tournament;
use crate::logfile::{Header, LOG_FORMAT};
use crate::store::{Claim, LiveBatch, Store};

/// How often the events of games in play are written for `clue serve` to
/// follow. Games shorter than this never reach the live tables.
pub(super) const LIVE_EVERY: Duration = Duration::from_millis(250);

/// The games in play: their events not yet written, for spectators.
#[derive(Default)]
pub(super) struct Live {
    games: BTreeMap<u64, LiveGame>,
    last_flush: Option<Instant>,
}

struct LiveGame {
    written: usize,
    entries: Vec<LogEntry>,
}

impl Live {
    pub(super) fn push(&mut self, index: u64, entry: LogEntry) {
        self.games
            .entry(index)
            .or_insert_with(|| LiveGame {
                written: 0,
                entries: Vec::new(),
            })
            .entries
            .push(entry);
    }

    /// Forgets a game that ended: the store holds it whole now.
    pub(super) fn end(&mut self, index: u64) {
        self.games.remove(&index);
    }

    pub(super) fn due(&self) -> bool {
        self.last_flush.is_none_or(|t| t.elapsed() >= LIVE_EVERY)
    }

    /// Writes the new events of every game in play (the workers send only
    /// those of games in play for [`LIVE_EVERY`] or more). A failed write
    /// only costs the spectators.
    pub(super) fn flush(
        &mut self,
        t: &Tournament,
        in_flight: &BTreeMap<u64, Claim>,
        store: &mut Store,
    ) {
        self.last_flush = Some(Instant::now());
        let mut headers = Vec::new();
        for (&index, game) in &self.games {
            if game.written == game.entries.len() {
                continue;
            }
            let Some(claim) = in_flight.get(&index) else {
                continue;
            };
            let scheduled = &claim.game;
            headers.push((
                index,
                Header {
                    format: LOG_FORMAT.to_string(),
                    seed: scheduled.seed,
                    config: t.settings[scheduled.setting].config.clone(),
                    bots: scheduled
                        .seats
                        .iter()
                        .map(|&b| t.bots[b].spec.clone())
                        .collect(),
                },
            ));
        }
        if headers.is_empty() {
            return;
        }
        let batch: Vec<LiveBatch<'_>> = headers
            .iter()
            .filter_map(|(index, header)| {
                let game = self.games.get(index)?;
                Some(LiveBatch {
                    index: *index,
                    header,
                    from: game.written,
                    entries: &game.entries[game.written..],
                })
            })
            .collect();
        if store.live_write(&batch).is_ok() {
            for (index, _) in &headers {
                if let Some(game) = self.games.get_mut(index) {
                    game.written = game.entries.len();
                }
            }
        }
    }
}

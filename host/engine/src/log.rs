//! The event log: every event of a game with the seats that saw it.

use clue_plugin_api::{Event, Seat};
use serde::{Deserialize, Serialize};

/// One event of the log. `seen_by` saw it whole; `partly_seen_by` saw it with
/// its hidden details removed (see [`redact`]); nobody else saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    #[serde(flatten)]
    pub event: Event,
    pub seen_by: Vec<Seat>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partly_seen_by: Vec<Seat>,
}

impl LogEntry {
    /// The event as `seat` saw it, if it saw it at all.
    pub fn view_for(&self, seat: Seat) -> Option<Event> {
        if self.seen_by.contains(&seat) {
            Some(self.event.clone())
        } else if self.partly_seen_by.contains(&seat) {
            Some(redact(&self.event))
        } else {
            None
        }
    }
}

/// The event without its private details: the card shown, the accusation made
/// and whether it was right.
pub fn redact(event: &Event) -> Event {
    match event {
        Event::Answered {
            suggester,
            passed,
            shown_by,
            ..
        } => Event::Answered {
            suggester: *suggester,
            passed: passed.clone(),
            shown_by: *shown_by,
            card: None,
        },
        Event::Accused { seat, .. } => Event::Accused {
            seat: *seat,
            accusation: None,
            correct: None,
        },
        other => other.clone(),
    }
}

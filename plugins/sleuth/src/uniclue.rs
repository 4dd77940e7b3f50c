//! `uniclue`: the client's queries (seeds/001, docs/uniclue.md).
//!
//! The server answers for every other player, and only the client's own
//! queries teach it anything. Two facts of that server shape the choice
//! beyond the expected information of one query (`gain.rs`):
//!
//! - A player shows a card it has already shown the client if it can. Once
//!   it has shown the room card of room `r`, every later query in `r` stops
//!   at it and can never show one of its other cards: a first showing of
//!   the room card costs something ([`FRESH_ROOM_COST`]).
//! - The room is imposed, and after the configured sequence the rooms come
//!   round 1..9 in order. A player sitting behind the holders of most rooms
//!   is reached in few of the coming rooms, so a chance to see one of its
//!   suspects or weapons now is worth more than one of an early player,
//!   which will come again ([`SCARCE_CARD_WEIGHT`]). The credit shrinks as
//!   the card's category closes (the chance that its likeliest envelope card
//!   is the one): a suspect seen once the suspect is nearly known teaches
//!   little.
//!
//! Both weights were chosen on `clue bench strength --uniclue-games`
//! (docs/strength.md).
//!
//! The choice looks one query ahead only. Looking further was measured
//! and did not pay: an exact second query gained 0.09 queries a deal for
//! thirty times the work, and rollouts through the coming rooms in deals
//! drawn from the belief did no better than this score, because a deal's
//! queries to certainty vary far more from draw to draw than the
//! candidates differ, so the draws a 100 ms decision affords pick among
//! them nearly at random.

use crate::Game;
use crate::belief::Belief;
use crate::gain::Table;

/// Bits charged for the chance that a player shows a room card it has not
/// shown the client before.
const FRESH_ROOM_COST: f64 = 0.3;

/// Bits credited for the chance of seeing a suspect or weapon whose owner
/// is not certain, times the chance that its category's likeliest envelope
/// card is not the one, divided by one plus the number of the next eight
/// rooms expected to reach the player who shows it.
const SCARCE_CARD_WEIGHT: f64 = 6.0;

impl Game {
    /// The suspect and weapon to query in `room` (which is imposed), as the
    /// three cards of the query.
    pub(crate) fn uniclue_query(&mut self, room: usize) -> Vec<usize> {
        let responders = self.seating.responders();
        let (Some(notes), [persons, weapons, rooms]) =
            (self.notes.as_mut(), self.seating.categories.as_slice())
        else {
            return self.best_suggestion(Some(room)).0;
        };
        let belief = notes.belief().clone();
        let table = Table {
            belief: &belief,
            me: self.seating.me,
            shown: &self.shown_to_me,
        };
        let reach = reach(&belief, rooms, room, &responders);
        let open = [open(&belief, persons), open(&belief, weapons)];
        let mut best: Option<(Vec<usize>, f64)> = None;
        for &person in persons {
            for &weapon in weapons {
                let cards = vec![person, weapon, room];
                // The server answers the same query the same way.
                if self.seating.made.contains(&cards) {
                    continue;
                }
                let mut score = table.suggestion_gain(&cards, &responders);
                for (j, i, chance) in answers(&table, &cards, &responders) {
                    let seat = responders[j];
                    if table.shown[seat].contains(&cards[i]) {
                        continue;
                    }
                    if i == 2 {
                        score -= FRESH_ROOM_COST * chance;
                    } else if belief.holds(cards[i], seat) < 0.999 {
                        score += SCARCE_CARD_WEIGHT * open[i] * chance / (1.0 + reach[j]);
                    }
                }
                if best.as_ref().is_none_or(|(_, s)| score > *s + 1e-12) {
                    best = Some((cards, score));
                }
            }
        }
        match best {
            Some((cards, _)) => cards,
            None => self.best_suggestion(Some(room)).0,
        }
    }
}

/// How open a category still is: the chance that its likeliest envelope
/// card is not the one (0 once the category is solved).
fn open(belief: &Belief, category: &[usize]) -> f64 {
    1.0 - category
        .iter()
        .map(|&card| belief.envelope(card))
        .fold(0.0, f64::max)
}

/// `reach[j]`: of the next eight rooms (the server's 1..9 round after
/// `room`), how many are expected to reach responder `j`: none of the
/// responders before it holds that room.
fn reach(belief: &Belief, rooms: &[usize], room: usize, responders: &[usize]) -> Vec<f64> {
    let at = rooms.iter().position(|&r| r == room).unwrap_or(0);
    (0..responders.len())
        .map(|j| {
            (1..rooms.len())
                .map(|k| {
                    let next = rooms[(at + k) % rooms.len()];
                    responders[..j]
                        .iter()
                        .map(|&seat| 1.0 - belief.holds(next, seat))
                        .product::<f64>()
                })
                .sum()
        })
        .collect()
}

/// The answers to a query of `cards` as `(responder index, card index,
/// chance)`: each card held by each responder independently by its chance;
/// the first responder holding one shows a card it has shown before if it
/// can, else one of those it holds, each as likely.
fn answers(table: &Table, cards: &[usize], responders: &[usize]) -> Vec<(usize, usize, f64)> {
    let belief = table.belief;
    let mut out = Vec::new();
    let m = cards.len();
    // The chance that no responder so far holds any of the cards.
    let mut clear = 1.0;
    for (j, &seat) in responders.iter().enumerate() {
        let held: Vec<f64> = cards.iter().map(|&c| belief.holds(c, seat)).collect();
        let shown = table.shown.get(seat).map_or(&[][..], Vec::as_slice);
        for mask in 1u32..(1 << m) {
            let mut chance = clear;
            for (i, h) in held.iter().enumerate() {
                chance *= if mask & (1 << i) != 0 { *h } else { 1.0 - h };
            }
            if chance <= 0.0 {
                continue;
            }
            let hold: Vec<usize> = (0..m).filter(|i| mask & (1 << i) != 0).collect();
            match hold.iter().find(|&&i| shown.contains(&cards[i])) {
                Some(&i) => out.push((j, i, chance)),
                None => {
                    for &i in &hold {
                        out.push((j, i, chance / hold.len() as f64));
                    }
                }
            }
        }
        clear *= held.iter().map(|h| 1.0 - h).product::<f64>();
    }
    out
}

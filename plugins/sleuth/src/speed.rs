//! Speed Clue questions: the contest winner's minimax, with the expected
//! information as the tie-break.
//!
//! Asking the question of most expected information (`gain.rs`) lost to
//! `rival`'s minimax at 4 players (18% of the games, against a fair 25%):
//! its answer model takes the asked cards' owners as independent, which
//! misjudges a question most where several opponents answer. Here every
//! answer is applied to the exact knowledge (`worst.rs`) and the question
//! whose worst answer leaves the fewest envelopes wins, then the fewest
//! `(player, card)` pairs left open (as `rival`). Among those equally good
//! in the worst case: the one naming fewest of this bot's own cards, then
//! the one `gain.rs` expects to teach most. Naming our own cards to hide
//! from the opponents which card we are after measured worse, not better
//! (`docs/strength.md`).

use crate::belief::Belief;
use crate::gain::Table;
use crate::worst::{Left, worst_case};
use sleuth_infer::Knowledge;

/// What the question is chosen from.
pub struct Ask<'a> {
    pub knowledge: &'a Knowledge,
    pub belief: &'a Belief,
    pub table: &'a Table<'a>,
    /// The seats that answer, in order.
    pub responders: &'a [usize],
    /// Suggestions already made (the contest rules forbid repeating one).
    pub made: &'a [Vec<usize>],
}

impl Ask<'_> {
    /// The best unrepeated suggestion of one person, one weapon and one of
    /// `rooms`, and its expected information; `None` when every one was made
    /// or the knowledge allows no answer to any.
    pub fn best(
        &self,
        persons: &[usize],
        weapons: &[usize],
        rooms: &[usize],
    ) -> Option<(Vec<usize>, f64)> {
        let candidates: Vec<Vec<usize>> = self
            .belief
            .solutions
            .iter()
            .map(|(cards, _)| cards.clone())
            .collect();
        let mut best: Option<(Left, Vec<usize>, usize, f64)> = None;
        for &room in rooms {
            for &person in persons {
                for &weapon in weapons {
                    let cards = vec![person, weapon, room];
                    if self.made.contains(&cards) {
                        continue;
                    }
                    let bound = best.as_ref().map(|(left, ..)| *left);
                    let Some(left) =
                        worst_case(self.knowledge, &candidates, self.responders, &cards, bound)
                    else {
                        continue;
                    };
                    // `worst_case` stops at the first answer worse than the
                    // bound: such a question is out.
                    if bound.is_some_and(|b| left > b) {
                        continue;
                    }
                    let own = cards
                        .iter()
                        .filter(|&&c| self.belief.holds(c, self.table.me) > 0.999)
                        .count();
                    let gain = self.table.suggestion_gain(&cards, self.responders);
                    let better = match &best {
                        None => true,
                        Some((b, _, o, g)) => {
                            (left, own) < (*b, *o) || ((left, own) == (*b, *o) && gain > *g + 1e-12)
                        }
                    };
                    if better {
                        best = Some((left, cards, own, gain));
                    }
                }
            }
        }
        best.map(|(_, cards, _, gain)| (cards, gain))
    }
}

//! `generalized` (seeds/003): the interrogations. One opponent is asked
//! about a list of items and shows one it holds, or says "0"; everyone sees
//! the list and whether an item was shown.
//!
//! Each list is scored by the expected information about the hidden items
//! (`gain.rs`) plus [`SHOWN_WEIGHT`] times the chance that the target shows
//! an item. The candidates are prefixes of the open items (those the target
//! may or may not hold), ordered by their chance of being hidden and by the
//! chance the target holds them, and the whole open list.
//!
//! Why the second term: the game is a race (only the first right guess
//! wins), and an opponent that asks for every item it has not placed
//! (`notebook`) places one item every turn. Information about the hidden
//! items alone prefers shorter lists, which often place nothing; `sleuth`
//! then knew the hidden items later than `notebook` and won 40% of
//! 3-player games against two of them. Placing an item each turn keeps pace,
//! and the guess made when an opponent is about to know (`guess_threshold`)
//! does the rest (docs/strength.md).

use clue_plugin_api::{Seat, Suggestion};

use crate::gain::Table;
use crate::{Game, seating};

/// Bits credited for the chance that the target shows an item: large
/// enough that a list sure to place an item wins over any list that may
/// place none (0.1 and up measured the same; 0.03 fell between).
const SHOWN_WEIGHT: f64 = 1.0;

/// The prefix lengths tried, besides the whole open list.
const LENGTHS: [usize; 15] = [1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48, 63];

impl Game {
    /// The best interrogation among `opponents`.
    pub(crate) fn best_interrogation(&mut self, opponents: &[Seat]) -> Option<Suggestion> {
        let items = self.seating.categories.first()?.clone();
        let mut best: Option<(usize, Vec<usize>, f64)> = None;
        if let Some(notes) = self.notes.as_mut() {
            let belief = notes.belief().clone();
            let table = Table {
                belief: &belief,
                me: self.seating.me,
                shown: &self.shown_to_me,
            };
            for target in opponents.iter().map(|s| s.index()) {
                let open: Vec<usize> = items
                    .iter()
                    .copied()
                    .filter(|&c| {
                        let p = belief.holds(c, target);
                        p > 1e-9 && p < 0.999
                    })
                    .collect();
                let mut by_envelope = open.clone();
                by_envelope.sort_by(|&a, &b| belief.envelope(b).total_cmp(&belief.envelope(a)));
                let mut by_holding = open.clone();
                by_holding
                    .sort_by(|&a, &b| belief.holds(b, target).total_cmp(&belief.holds(a, target)));
                for order in [&by_envelope, &by_holding] {
                    let lengths = LENGTHS
                        .into_iter()
                        .filter(|&l| l < order.len())
                        .chain((!order.is_empty()).then_some(order.len()));
                    for length in lengths {
                        let list = &order[..length];
                        let none: f64 = list
                            .iter()
                            .map(|&c| 1.0 - belief.holds(c, target))
                            .product();
                        let gain =
                            table.interrogation_gain(list, target) + SHOWN_WEIGHT * (1.0 - none);
                        if best.as_ref().is_none_or(|(_, _, g)| gain > *g + 1e-12) {
                            best = Some((target, list.to_vec(), gain));
                        }
                    }
                }
            }
        }
        match best {
            Some((target, list, _)) => Some(seating::interrogation(target, &list)),
            None => self.seating.safe_interrogation(opponents),
        }
    }
}

//! How much a question teaches about the envelope: the mutual information
//! between the answer and which of the asked cards are in the envelope.
//!
//! The answer's distribution is simulated from the card-owner probabilities:
//! every asked card outside the envelope is with some other seat (each card
//! independently, by its chances given that it is not in the envelope); the
//! first responder in order that holds one shows a card it has already shown
//! the asker if it can (what the `uniclue` server and careful bots do), else
//! any of them with equal chance.

use crate::belief::{Belief, entropy};

/// Who answers questions and what they have already shown the asker.
pub struct Table<'a> {
    pub belief: &'a Belief,
    /// The asker (this bot).
    pub me: usize,
    /// `shown[seat]`: the cards `seat` has shown the asker.
    pub shown: &'a [Vec<usize>],
}

/// Weight of the secondary score: the chance that the answer names a card
/// whose owner was not certain (it helps later deductions, not the envelope
/// at once). Small, so it only breaks ties.
const NEW_OWNER_BONUS: f64 = 0.02;

impl Table<'_> {
    /// Bits of information about the envelope the answer to a suggestion of
    /// `cards`, answered by `responders` in order, is expected to give.
    pub fn suggestion_gain(&self, cards: &[usize], responders: &[usize]) -> f64 {
        let m = cards.len();
        if m == 0 || m > 8 {
            return 0.0;
        }
        let patterns = self.patterns(cards);
        let outcomes = 1 + responders.len() * m;
        let mut joint = vec![0.0; patterns.len() * outcomes];
        let mut bonus = 0.0;
        for (g, &(mask, pg)) in patterns.iter().enumerate() {
            let mut out = vec![0.0; outcomes];
            let mut new_owner = 0.0;
            self.answers(cards, mask, responders, &mut out, &mut new_owner);
            for (o, p) in out.iter().enumerate() {
                joint[g * outcomes + o] = pg * p;
            }
            bonus += pg * new_owner;
        }
        mutual_information(&joint, patterns.len(), outcomes) + NEW_OWNER_BONUS * bonus
    }

    /// Bits about the envelope from interrogating `target` (alone) about `items`.
    pub fn interrogation_gain(&self, items: &[usize], target: usize) -> f64 {
        if items.is_empty() || items.len() > 63 {
            return 0.0;
        }
        let patterns = self.patterns(items);
        let outcomes = 1 + items.len();
        let mut joint = vec![0.0; patterns.len() * outcomes];
        let mut bonus = 0.0;
        let q: Vec<f64> = items.iter().map(|&c| self.outside(c, target)).collect();
        let shown = self.shown.get(target).map_or(&[][..], Vec::as_slice);
        let repeat = items.iter().position(|c| shown.contains(c));
        for (g, &(mask, pg)) in patterns.iter().enumerate() {
            let row = &mut joint[g * outcomes..(g + 1) * outcomes];
            if let Some(i) = repeat {
                row[1 + i] = pg;
                continue;
            }
            // Independent cards: the chance it holds none; if it holds some,
            // each held card equally likely to be the one shown (weighted by
            // its chance of being held).
            let mut none = 1.0;
            let mut weight = 0.0;
            for (i, &qi) in q.iter().enumerate() {
                if mask & (1 << i) == 0 {
                    none *= 1.0 - qi;
                    weight += qi;
                }
            }
            row[0] = pg * none;
            if weight > 0.0 {
                for (i, &qi) in q.iter().enumerate() {
                    if mask & (1 << i) == 0 {
                        let p = (1.0 - none) * qi / weight;
                        row[1 + i] = pg * p;
                        if qi < 0.999 {
                            bonus += pg * p;
                        }
                    }
                }
            }
        }
        mutual_information(&joint, patterns.len(), outcomes) + NEW_OWNER_BONUS * bonus
    }

    /// The chance `seat` holds `card`, given that it is not in the envelope.
    fn outside(&self, card: usize, seat: usize) -> f64 {
        let rest = 1.0 - self.belief.envelope(card);
        if rest <= 1e-12 {
            return 0.0;
        }
        (self.belief.holds(card, seat) / rest).clamp(0.0, 1.0)
    }

    /// The distribution of which of `cards` are in the envelope, as
    /// `(bitmask of positions, chance)`, from the listed envelopes.
    fn patterns(&self, cards: &[usize]) -> Vec<(u64, f64)> {
        let mut patterns: Vec<(u64, f64)> = Vec::new();
        let mut total = 0.0;
        for (envelope, p) in &self.belief.solutions {
            let mut mask = 0u64;
            for (i, card) in cards.iter().enumerate() {
                if envelope.binary_search(card).is_ok() {
                    mask |= 1 << i;
                }
            }
            total += p;
            match patterns.iter_mut().find(|(m, _)| *m == mask) {
                Some(entry) => entry.1 += p,
                None => patterns.push((mask, *p)),
            }
        }
        if total > 0.0 {
            patterns.iter_mut().for_each(|(_, p)| *p /= total);
        }
        patterns
    }

    /// The answer distribution of a suggestion of `cards` when exactly the
    /// cards of `mask` are in the envelope.
    fn answers(
        &self,
        cards: &[usize],
        mask: u64,
        responders: &[usize],
        out: &mut [f64],
        new_owner: &mut f64,
    ) {
        // Each card outside the envelope and not ours: its owners among the responders.
        let mut placed: Vec<(usize, Vec<(usize, f64)>)> = Vec::new();
        for (i, &card) in cards.iter().enumerate() {
            if mask & (1 << i) != 0 || self.belief.holds(card, self.me) > 0.999 {
                continue;
            }
            let mut owners: Vec<(usize, f64)> = responders
                .iter()
                .enumerate()
                .map(|(r, &seat)| (r, self.outside(card, seat)))
                .filter(|&(_, p)| p > 0.0)
                .collect();
            let sum: f64 = owners.iter().map(|(_, p)| p).sum();
            if sum <= 0.0 {
                continue;
            }
            owners.iter_mut().for_each(|(_, p)| *p /= sum);
            placed.push((i, owners));
        }
        let mut at = vec![usize::MAX; cards.len()];
        self.enumerate(cards, responders, &placed, 0, 1.0, &mut at, out, new_owner);
    }

    #[allow(clippy::too_many_arguments)]
    fn enumerate(
        &self,
        cards: &[usize],
        responders: &[usize],
        placed: &[(usize, Vec<(usize, f64)>)],
        depth: usize,
        weight: f64,
        at: &mut [usize],
        out: &mut [f64],
        new_owner: &mut f64,
    ) {
        if let Some((i, owners)) = placed.get(depth) {
            for &(r, p) in owners {
                at[*i] = r;
                self.enumerate(
                    cards,
                    responders,
                    placed,
                    depth + 1,
                    weight * p,
                    at,
                    out,
                    new_owner,
                );
            }
            at[*i] = usize::MAX;
            return;
        }
        let m = cards.len();
        let Some(first) = at.iter().copied().filter(|&r| r != usize::MAX).min() else {
            out[0] += weight;
            return;
        };
        let seat = responders[first];
        let held: Vec<usize> = (0..m).filter(|&i| at[i] == first).collect();
        let shown = self.shown.get(seat).map_or(&[][..], Vec::as_slice);
        if let Some(&i) = held.iter().find(|&&i| shown.contains(&cards[i])) {
            out[1 + first * m + i] += weight;
            return;
        }
        let share = weight / held.len() as f64;
        for &i in &held {
            out[1 + first * m + i] += share;
            if self.belief.holds(cards[i], seat) < 0.999 {
                *new_owner += share;
            }
        }
    }
}

/// `I(G; O)` of a joint table `rows x cols` (rows: patterns, cols: answers).
fn mutual_information(joint: &[f64], rows: usize, cols: usize) -> f64 {
    let row_sums = (0..rows).map(|g| joint[g * cols..(g + 1) * cols].iter().sum::<f64>());
    let col_sums = (0..cols).map(|o| (0..rows).map(|g| joint[g * cols + o]).sum::<f64>());
    let h_rows = entropy(row_sums);
    let h_cols = entropy(col_sums);
    let h_joint = entropy(joint.iter().copied());
    (h_rows + h_cols - h_joint).max(0.0)
}

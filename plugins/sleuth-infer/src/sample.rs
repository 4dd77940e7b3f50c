//! The fallback when exact counting would cost too much: a seeded Markov
//! chain over consistent deals.
//!
//! A chain starts from a deal found by randomized depth-first search and
//! moves by swapping the owners of two cards or rotating the owners of
//! three, keeping a move only if the deal stays consistent. Both proposals
//! are symmetric, so the chain is uniform over the deals it can reach; it
//! may not reach them all (constraints can cut the space into pieces a swap
//! or rotation cannot cross), which is one more reason the result is only
//! an estimate. Several chains from independent starts soften that.

use std::collections::HashMap;

use crate::cards::CardSet;
use crate::knowledge::Knowledge;
use crate::problem::Problem;

/// Independent chains run for one estimate.
const CHAINS: usize = 4;
/// Search nodes allowed when looking for a starting deal, over all tries.
const SEARCH_BUDGET: usize = 1_000_000;
/// Search nodes of the first try; each try after a failed one gets twice
/// as many (see `start`).
const FIRST_TRY: usize = 1_000;

/// Deals drawn and how often each card was with each owner.
pub(crate) struct Tally {
    pub(crate) samples: usize,
    /// `card * owners + owner index`.
    pub(crate) per_cell: Vec<u64>,
    /// How often each full envelope came up.
    pub(crate) envelopes: HashMap<CardSet, u64>,
}

/// SplitMix64: small, seedable, and the same on every platform and in
/// wasm. Hand-written rather than taken from `rand`: ten lines keep the
/// solver free of dependencies, and its samples (and `sleuth`'s race, which
/// draws deals with it) the same wherever the bot runs.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..bound` (`bound > 0`).
    pub fn below(&mut self, bound: usize) -> usize {
        ((self.next_u64() as u128 * bound as u128) >> 64) as usize
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniform shuffle (Fisher-Yates).
    pub fn shuffle(&mut self, items: &mut [usize]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// The rules a deal of the open cards must follow.
struct Rules<'a> {
    knowledge: &'a Knowledge,
    open: Vec<usize>,
    /// Per open position: owner indices that may take it.
    allowed: Vec<Vec<usize>>,
    /// Per open position: the same as a mask of owner indices.
    allowed_mask: Vec<u64>,
    /// Per owner index: the card sets of its clauses.
    clauses: Vec<Vec<CardSet>>,
    /// Per owner index: cards it must take besides the certain ones.
    need: Vec<usize>,
    /// Per category: envelope cards still to place.
    envelope_need: Vec<usize>,
    envelope: usize,
    /// The open part of each ruled-out envelope: a deal putting exactly
    /// these open cards in the envelope is not consistent.
    excluded: Vec<CardSet>,
}

impl Rules<'_> {
    /// Whether every clause can still be met while `unplaced` cards are
    /// still to deal.
    fn clauses_hold(&self, hands: &[CardSet], unplaced: CardSet) -> bool {
        self.knowledge.clause_list().iter().all(|clause| {
            !(hands[clause.player] & clause.cards).is_empty()
                || (!(unplaced & clause.cards).is_empty()
                    && hands[clause.player].len() < self.need[clause.player])
        })
    }

    /// Whether the full hand of `owner` meets its clauses.
    fn hand_meets_clauses(&self, hands: &[CardSet], owner: usize) -> bool {
        self.clauses[owner]
            .iter()
            .all(|&cards| !(hands[owner] & cards).is_empty())
    }

    /// Whether every hand and every category of the envelope can still be
    /// filled from the `unplaced` cards it may take.
    fn can_fill(&self, hands: &[CardSet], unplaced: CardSet) -> bool {
        (0..self.need.len()).all(|owner| {
            let may = unplaced & self.knowledge.possible_set(owner);
            if owner == self.envelope {
                (0..self.envelope_need.len()).all(|category| {
                    let of = self.knowledge.category_set(category);
                    (hands[owner] & of).len() + (may & of).len() >= self.envelope_need[category]
                })
            } else {
                hands[owner].len() + may.len() >= self.need[owner]
            }
        })
    }

    fn envelope_holds(&self, hands: &[CardSet]) -> bool {
        (0..self.envelope_need.len()).all(|category| {
            (hands[self.envelope] & self.knowledge.category_set(category)).len()
                == self.envelope_need[category]
        }) && !self.excluded.contains(&hands[self.envelope])
    }
}

/// Draws `samples` deals (about; split over the chains) consistent with
/// `knowledge`, or `None` if no starting deal was found within the search
/// budget.
pub(crate) fn sample(knowledge: &Knowledge, samples: usize, seed: u64) -> Option<Tally> {
    let problem = Problem::new(knowledge);
    let owners = knowledge.players() + 1;
    let envelope = knowledge.envelope();
    let mut open = problem.open.to_vec();
    open.sort_by_key(|&card| {
        (0..owners)
            .filter(|&o| knowledge.possible_set(o).contains(card))
            .count()
    });
    let allowed: Vec<Vec<usize>> = open
        .iter()
        .map(|&card| {
            (0..owners)
                .filter(|&o| knowledge.possible_set(o).contains(card))
                .collect()
        })
        .collect();
    let allowed_mask = allowed
        .iter()
        .map(|owners| owners.iter().fold(0u64, |mask, &o| mask | 1 << o))
        .collect();
    let mut clauses = vec![Vec::new(); owners];
    for clause in knowledge.clause_list() {
        clauses[clause.player].push(clause.cards);
    }
    let need: Vec<usize> = (0..owners)
        .map(|o| {
            let size = if o == envelope {
                knowledge.hidden_counts().iter().sum()
            } else {
                knowledge.hand_size(o)
            };
            size - problem.held[o].len()
        })
        .collect();
    let envelope_need = (0..knowledge.categories())
        .map(|category| {
            knowledge.hidden(category)
                - (problem.held[envelope] & knowledge.category_set(category)).len()
        })
        .collect();
    let there = problem.held[envelope];
    let excluded = knowledge
        .excluded_list()
        .iter()
        .filter(|set| there.is_subset(**set))
        .map(|set| set.minus(there))
        .collect();
    let rules = Rules {
        excluded,
        knowledge,
        open,
        allowed,
        allowed_mask,
        clauses,
        need,
        envelope_need,
        envelope,
    };

    let mut rng = Rng::new(seed);
    let mut tally = Tally {
        samples: 0,
        per_cell: vec![0; knowledge.cards() * owners],
        envelopes: HashMap::new(),
    };
    let per_chain = samples.div_ceil(CHAINS).max(1);
    // Moves between kept deals: most proposals are refused, so a few per
    // open card keep successive samples from being near copies.
    let thinning = 4 * rules.open.len().max(1);
    for _ in 0..CHAINS {
        let mut owner_of = start(&rules, &mut rng)?;
        let mut hands = vec![CardSet::EMPTY; owners];
        for (position, &owner) in owner_of.iter().enumerate() {
            hands[owner].insert(rules.open[position]);
        }
        for _ in 0..thinning * 50 {
            step(&rules, &mut owner_of, &mut hands, &mut rng);
        }
        for _ in 0..per_chain {
            for _ in 0..thinning {
                step(&rules, &mut owner_of, &mut hands, &mut rng);
            }
            for (position, &owner) in owner_of.iter().enumerate() {
                tally.per_cell[rules.open[position] * owners + owner] += 1;
            }
            *tally.envelopes.entry(hands[envelope]).or_insert(0) += 1;
            tally.samples += 1;
        }
    }
    Some(tally)
}

/// A consistent deal of the open cards (owner per position in `rules.open`)
/// by randomized depth-first search, pruned by `can_fill` and restarted
/// with a doubled budget whenever a try runs out.
///
/// One randomized search is heavy-tailed (Gomes, Selman and Kautz,
/// "Heavy-tailed phenomena in satisfiability and constraint satisfaction
/// problems", 2000). On 3,625 sampled states of six-player `framework`
/// games, a single search of a million nodes left 15 estimates uniform (no
/// start found) and took up to 168 ms (p99 29 ms); with `can_fill` and
/// restarts none failed and the slowest estimate took 8.6 ms (p99 4.8 ms).
/// Either alone was not enough: restarts alone 39 ms at most, the pruning
/// alone 3 failures.
fn start(rules: &Rules, rng: &mut Rng) -> Option<Vec<usize>> {
    let owners = rules.need.len();
    let unplaced = CardSet::of(&rules.open);
    let mut left = SEARCH_BUDGET;
    let mut size = FIRST_TRY;
    while left > 0 {
        let mut budget = size.min(left);
        let granted = budget;
        let mut hands = vec![CardSet::EMPTY; owners];
        let mut owner_of = vec![usize::MAX; rules.open.len()];
        if search(
            rules,
            0,
            &mut hands,
            &mut owner_of,
            unplaced,
            &mut budget,
            rng,
        ) {
            return Some(owner_of);
        }
        if budget > 0 {
            // The whole tree was searched: there is no consistent deal.
            return None;
        }
        left -= granted;
        size = size.saturating_mul(2);
    }
    None
}

fn search(
    rules: &Rules,
    position: usize,
    hands: &mut [CardSet],
    owner_of: &mut [usize],
    unplaced: CardSet,
    budget: &mut usize,
    rng: &mut Rng,
) -> bool {
    if position == rules.open.len() {
        return rules.envelope_holds(hands);
    }
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let card = rules.open[position];
    let category = rules.knowledge.category_of(card);
    let mut choices = rules.allowed[position].clone();
    for i in (1..choices.len()).rev() {
        choices.swap(i, rng.below(i + 1));
    }
    let rest = {
        let mut rest = unplaced;
        rest.remove(card);
        rest
    };
    for owner in choices {
        let full = if owner == rules.envelope {
            (hands[owner] & rules.knowledge.category_set(category)).len()
                >= rules.envelope_need[category]
        } else {
            hands[owner].len() >= rules.need[owner]
        };
        if full {
            continue;
        }
        hands[owner].insert(card);
        owner_of[position] = owner;
        if rules.clauses_hold(hands, rest)
            && rules.can_fill(hands, rest)
            && search(rules, position + 1, hands, owner_of, rest, budget, rng)
        {
            return true;
        }
        hands[owner].remove(card);
    }
    false
}

/// One move of the chain: swap two owners or rotate three, kept only if the
/// deal stays consistent.
fn step(rules: &Rules, owner_of: &mut [usize], hands: &mut [CardSet], rng: &mut Rng) {
    let cards = owner_of.len();
    if cards < 2 {
        return;
    }
    let length = if cards >= 3 && rng.below(2) == 1 {
        3
    } else {
        2
    };
    let mut picked = [0usize; 3];
    for i in 0..length {
        picked[i] = rng.below(cards);
        if picked[..i].contains(&picked[i]) {
            return;
        }
    }
    let mut before = [0usize; 3];
    for i in 0..length {
        before[i] = owner_of[picked[i]];
    }
    // Card i goes to the owner of card i + 1.
    let mut after = [0usize; 3];
    for i in 0..length {
        after[i] = before[(i + 1) % length];
        if before[i] == after[i] || rules.allowed_mask[picked[i]] >> after[i] & 1 == 0 {
            return;
        }
    }
    let apply = |owner_of: &mut [usize], hands: &mut [CardSet], from: &[usize], to: &[usize]| {
        for i in 0..length {
            let card = rules.open[picked[i]];
            hands[from[i]].remove(card);
            hands[to[i]].insert(card);
            owner_of[picked[i]] = to[i];
        }
    };
    apply(owner_of, hands, &before, &after);
    let consistent = rules.envelope_holds(hands)
        && before[..length]
            .iter()
            .all(|&owner| rules.hand_meets_clauses(hands, owner));
    if !consistent {
        apply(owner_of, hands, &after, &before);
    }
}

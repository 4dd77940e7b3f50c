//! `Knowledge::probabilities`: the chance of every card being with every
//! owner, and of every complete envelope, from exact counts when the work is
//! bounded and from a seeded estimate otherwise.

use std::cmp::Reverse;

use crate::cards::CardSet;
use crate::error::Contradiction;
use crate::exact::{self, Counts};
use crate::knowledge::{Knowledge, Owner};
use crate::problem::Problem;
use crate::ring::{Binomials, Ring, Wide, log2_multinomial};
use crate::sample;

/// Knobs for [`Knowledge::probabilities`].
///
/// Counting is exact when all three bounds hold; otherwise the result is a
/// sampled estimate with `exact: false`.
///
/// - **Work**: `cells * sum(s_c + 1) * owners <= work_limit`, where the open
///   cards fall into classes of interchangeable cards with sizes `s_c`,
///   `cells = prod(s_c + 1)` and `owners` counts the hands and envelope still
///   open. The count takes about that many ring operations: on the classic
///   deck at most `2^18 * 36 * 6`, about 57 million, and usually far fewer.
/// - **Memory**: `cells * (owners + 1) * (ring_bytes + 8) <= memory_limit`,
///   with 8, 16, 32 or 64 byte rings.
/// - **Size**: the number of deals, bounded by the multinomial of the open
///   hand sizes, is below `2^510` (so exact counts fit the widest ring).
#[derive(Clone, Debug)]
pub struct Config {
    /// Seed of the sampled estimate; the exact count ignores it.
    pub seed: u64,
    /// Most ring operations spent counting exactly.
    pub work_limit: u64,
    /// Most bytes of tables held while counting exactly.
    pub memory_limit: usize,
    /// Deals drawn for a sampled estimate.
    pub samples: usize,
    /// Most envelope combinations listed in [`Probabilities::solutions`].
    pub max_solutions: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            seed: 0,
            work_limit: 1 << 28,
            memory_limit: 64 << 20,
            samples: 20_000,
            max_solutions: 1024,
        }
    }
}

/// One complete envelope and its chance.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Every card of the envelope, in increasing id order.
    pub cards: Vec<usize>,
    pub probability: f64,
    /// Consistent deals with this envelope, when counted exactly and below
    /// `2^128`.
    pub deals: Option<u128>,
}

/// What [`Knowledge::probabilities`] found.
#[derive(Clone, Debug)]
pub struct Probabilities {
    /// Whether the numbers come from an exact count (`false`: sampled).
    pub exact: bool,
    /// Consistent deals, when counted exactly and below `2^128`.
    pub deals: Option<u128>,
    /// Deals drawn, when sampled (0 when exact).
    pub samples: usize,
    /// The ring operations of the exact count, as [`Config::work_limit`]
    /// bounds them (`cells * sum(s_c + 1) * owners`; 0 when sampled). The
    /// work varies by orders of magnitude from one state to the next, and a
    /// caller that counts many states per decision budgets with it.
    pub work: u64,
    /// The most likely envelopes, most likely first (ties by card ids),
    /// at most [`Config::max_solutions`].
    pub solutions: Vec<Solution>,
    /// Envelopes with a positive chance (when sampled: distinct envelopes
    /// drawn). More than `solutions.len()` when the list was cut.
    pub solution_count: u128,
    owners: usize,
    /// `card * owners + owner index`.
    cells: Vec<f64>,
    counts: Option<Vec<u128>>,
}

impl Probabilities {
    /// The chance that `owner` holds `card`.
    pub fn probability(&self, card: usize, owner: Owner) -> f64 {
        self.cells[card * self.owners + self.index(owner)]
    }

    /// The chance that `card` is in the envelope.
    pub fn envelope(&self, card: usize) -> f64 {
        self.probability(card, Owner::Envelope)
    }

    /// Consistent deals in which `owner` holds `card`, when counted exactly
    /// and the total is below `2^128`.
    pub fn deals_with(&self, card: usize, owner: Owner) -> Option<u128> {
        let index = self.index(owner);
        self.counts
            .as_ref()
            .map(|counts| counts[card * self.owners + index])
    }

    fn index(&self, owner: Owner) -> usize {
        match owner {
            Owner::Player(player) => {
                assert!(
                    player + 1 < self.owners,
                    "player {player} is not in the game"
                );
                player
            }
            Owner::Envelope => self.owners - 1,
        }
    }
}

/// The ring an exact count is made in: the narrowest whose width holds the
/// number of deals with two bits of margin.
#[derive(Clone, Copy)]
enum RingWidth {
    U64,
    U128,
    Wide4,
    Wide8,
}

/// How an exact count within [`Config`]'s bounds would be made.
struct Plan {
    ring: RingWidth,
    cells: usize,
    work: u64,
}

/// The exact count `config` allows for `problem`, if any (see [`Config`]
/// for the three bounds).
fn plan(problem: &Problem, config: &Config) -> Option<Plan> {
    let cells = problem.cells()?;
    let log2_deals = log2_multinomial(&problem.needs());
    let owners = problem.owners.len() as u64;
    let axes: u64 = problem.sizes().iter().map(|&s| s as u64 + 1).sum();
    let work = (cells as u64)
        .saturating_mul(axes.max(1))
        .saturating_mul(owners.max(1));
    if work > config.work_limit {
        return None;
    }
    // Ring tables: one per owner and one more; hand types: a cell each.
    let fits = |bytes: usize| {
        cells.saturating_mul((bytes + 8) * (problem.owners.len() + 1)) <= config.memory_limit
    };
    [
        (64.0, 8, RingWidth::U64),
        (128.0, 16, RingWidth::U128),
        (256.0, 32, RingWidth::Wide4),
        (512.0, 64, RingWidth::Wide8),
    ]
    .into_iter()
    // Two bits of margin over the bound on the total.
    .find(|&(bits, bytes, _)| log2_deals + 2.0 < bits && fits(bytes))
    .map(|(_, _, ring)| Plan { ring, cells, work })
}

impl Knowledge {
    /// The chance of every card being with every owner, and of every
    /// envelope, over all deals consistent with what is known, each deal
    /// equally likely. Exact when the bounds of [`Config`] allow, otherwise
    /// a seeded estimate (`exact: false`), the same for the same seed.
    ///
    /// Returns [`Contradiction::NoConsistentDeal`] when an exact count finds
    /// no deal at all.
    pub fn probabilities(&self, config: &Config) -> Result<Probabilities, Contradiction> {
        let problem = Problem::new(self);
        let Some(plan) = plan(&problem, config) else {
            return Ok(self.sampled_result(&problem, config));
        };
        let result = match plan.ring {
            RingWidth::U64 => self.exact_in::<u64>(&problem, plan.cells, config),
            RingWidth::U128 => self.exact_in::<u128>(&problem, plan.cells, config),
            RingWidth::Wide4 => self.exact_in::<Wide<4>>(&problem, plan.cells, config),
            RingWidth::Wide8 => self.exact_in::<Wide<8>>(&problem, plan.cells, config),
        };
        result.map(|probabilities| Probabilities {
            work: plan.work,
            ..probabilities
        })
    }

    /// The ring operations an exact count would take
    /// ([`Probabilities::work`]) when `config`'s memory and size bounds
    /// allow one, whatever its `work_limit`; `None` when they do not (the
    /// count would be sampled). Cheap next to the count itself, so a caller
    /// with a budget for many counts can check before it spends.
    pub fn exact_work(&self, config: &Config) -> Option<u64> {
        let unbounded = Config {
            work_limit: u64::MAX,
            ..config.clone()
        };
        plan(&Problem::new(self), &unbounded).map(|plan| plan.work)
    }

    /// Deals per `card * owners + owner index`, from the counts of `problem`.
    fn cell_counts<R: Ring>(&self, problem: &Problem, counts: &Counts<R>) -> Vec<R> {
        let owners = self.players() + 1;
        let mut cell_counts = vec![R::ZERO; self.cards() * owners];
        for (index, held) in problem.held.iter().enumerate() {
            for card in held.iter() {
                cell_counts[card * owners + index] = counts.total;
            }
        }
        for (position, spec) in problem.owners.iter().enumerate() {
            for (class, members) in problem.classes.iter().enumerate() {
                for &card in &members.cards {
                    cell_counts[card * owners + spec.index] = counts.per_card[position][class];
                }
            }
        }
        cell_counts
    }

    /// The deals (total, and per cell) whose envelope is exactly `excluded`,
    /// counted in the ring of the whole count (they are fewer). `None` when
    /// there are none.
    fn excluded_counts<R: Ring>(&self, excluded: CardSet) -> Option<(R, Vec<R>)> {
        let mut fixed = self.without_excluded();
        for card in excluded.iter() {
            fixed.add_has(Owner::Envelope, card).ok()?;
        }
        let problem = Problem::new(&fixed);
        let counts = exact::count::<R>(&problem, problem.cells()?);
        if counts.total.is_zero() {
            return None;
        }
        let cells = fixed.cell_counts(&problem, &counts);
        Some((counts.total, cells))
    }

    /// `counts` are of `problem`, the knowledge without its ruled-out
    /// envelopes: the deals with a ruled-out envelope are counted apart and
    /// taken away (two envelopes never share a deal, so subtracting each is
    /// exact).
    /// The exact count of `problem` over `cells` in the ring `R`.
    fn exact_in<R: Ring>(
        &self,
        problem: &Problem,
        cells: usize,
        config: &Config,
    ) -> Result<Probabilities, Contradiction> {
        self.exact_result(problem, exact::count::<R>(problem, cells), config)
    }

    fn exact_result<R: Ring>(
        &self,
        problem: &Problem,
        counts: Counts<R>,
        config: &Config,
    ) -> Result<Probabilities, Contradiction> {
        let owners = self.players() + 1;
        let mut whole = counts.total;
        let mut cell_counts = self.cell_counts(problem, &counts);
        let mut ruled_out = Vec::new();
        for &excluded in self.excluded_list() {
            let Some((deals, cells)) = self.excluded_counts::<R>(excluded) else {
                continue;
            };
            whole = whole.sub(deals);
            for (cell, taken) in cell_counts.iter_mut().zip(cells) {
                *cell = cell.sub(taken);
            }
            ruled_out.push(excluded);
        }
        if whole.is_zero() {
            return Err(Contradiction::NoConsistentDeal);
        }
        let total = whole.to_f64();
        let exact_total = whole.to_u128();
        let envelope = self.envelope();
        let known = problem.held[envelope];
        let mut solutions = Vec::new();
        let solution_count;
        if problem.owners.iter().any(|spec| spec.index == envelope) {
            let binomials = Binomials::<u128>::new();
            let mut types = counts.envelope_types;
            types.sort_by_key(|(_, deals)| Reverse(*deals));
            solution_count = types
                .iter()
                .fold(0u128, |sum, (taken, _)| {
                    let ways = taken.iter().enumerate().fold(1u128, |ways, (class, &k)| {
                        let size = problem.classes[class].cards.len();
                        ways.saturating_mul(binomials.get(size, k as usize))
                    });
                    sum.saturating_add(ways)
                })
                .saturating_sub(ruled_out.len() as u128);
            for (taken, deals) in &types {
                let picks: Vec<(&[usize], usize)> = taken
                    .iter()
                    .enumerate()
                    .filter(|&(_, &k)| k > 0)
                    .map(|(class, &k)| (problem.classes[class].cards.as_slice(), k as usize))
                    .collect();
                combinations(&picks, known, &mut |cards| {
                    if ruled_out.contains(&CardSet::of(cards)) {
                        return true;
                    }
                    solutions.push(Solution {
                        cards: cards.to_vec(),
                        probability: deals.to_f64() / total,
                        deals: exact_total.and(deals.to_u128()),
                    });
                    solutions.len() < config.max_solutions
                });
                if solutions.len() >= config.max_solutions {
                    break;
                }
            }
        } else {
            solution_count = 1;
            solutions.push(Solution {
                cards: known.to_vec(),
                probability: 1.0,
                deals: exact_total,
            });
        }
        solutions.truncate(config.max_solutions);
        solutions.sort_by(|a, b| {
            b.probability
                .total_cmp(&a.probability)
                .then_with(|| a.cards.cmp(&b.cards))
        });
        Ok(Probabilities {
            exact: true,
            deals: exact_total,
            samples: 0,
            work: 0,
            solutions,
            solution_count,
            owners,
            cells: cell_counts.iter().map(|c| c.to_f64() / total).collect(),
            counts: exact_total.map(|_| cell_counts.iter().filter_map(|c| c.to_u128()).collect()),
        })
    }

    fn sampled_result(&self, problem: &Problem, config: &Config) -> Probabilities {
        let owners = self.players() + 1;
        let Some(tally) = sample::sample(self, config.samples, config.seed) else {
            return self.uniform_guess();
        };
        let samples = tally.samples as f64;
        let mut seen: Vec<(CardSet, u64)> = tally
            .envelopes
            .into_iter()
            .map(|(open_part, hits)| (open_part | problem.held[self.envelope()], hits))
            .collect();
        seen.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.to_vec().cmp(&b.0.to_vec())));
        let solution_count = seen.len() as u128;
        let mut cells: Vec<f64> = tally.per_cell.iter().map(|&h| h as f64 / samples).collect();
        for (index, held) in problem.held.iter().enumerate() {
            for card in held.iter() {
                cells[card * owners + index] = 1.0;
            }
        }
        Probabilities {
            exact: false,
            deals: None,
            samples: tally.samples,
            work: 0,
            solutions: seen
                .into_iter()
                .take(config.max_solutions)
                .map(|(cards, hits)| Solution {
                    cards: cards.to_vec(),
                    probability: hits as f64 / samples,
                    deals: None,
                })
                .collect(),
            solution_count,
            owners,
            cells,
            counts: None,
        }
    }

    /// The last resort when sampling found no starting deal: each card
    /// equally likely with each owner that may hold it.
    fn uniform_guess(&self) -> Probabilities {
        let owners = self.players() + 1;
        let mut cells = vec![0.0; self.cards() * owners];
        for card in 0..self.cards() {
            let may: Vec<usize> = (0..owners)
                .filter(|&o| self.possible_set(o).contains(card))
                .collect();
            for &owner in &may {
                cells[card * owners + owner] = 1.0 / may.len() as f64;
            }
        }
        Probabilities {
            exact: false,
            deals: None,
            samples: 0,
            work: 0,
            solutions: Vec::new(),
            solution_count: 0,
            owners,
            cells,
            counts: None,
        }
    }
}

/// Calls `visit` with every union of `known` and one choice of `k` cards
/// from each `(cards, k)` in `picks`, in lexicographic order of choices,
/// until `visit` returns `false`.
fn combinations(
    picks: &[(&[usize], usize)],
    known: CardSet,
    visit: &mut dyn FnMut(&[usize]) -> bool,
) {
    fn walk(
        picks: &[(&[usize], usize)],
        from: usize,
        chosen: CardSet,
        visit: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        let Some(&(cards, k)) = picks.first() else {
            return visit(&chosen.to_vec());
        };
        let taken = (chosen & CardSet::of(cards)).len();
        if taken == k {
            return walk(&picks[1..], 0, chosen, visit);
        }
        for (offset, &card) in cards.iter().enumerate().skip(from) {
            if cards.len() - offset < k - taken {
                break;
            }
            let mut next = chosen;
            next.insert(card);
            if !walk(picks, offset + 1, next, visit) {
                return false;
            }
        }
        true
    }
    walk(picks, 0, known, visit);
}

//! The race in Speed Clue: whether to accuse the likeliest envelope before
//! being certain of it. A wrong accusation eliminates, so it is worth making
//! only when waiting loses more: when an opponent is likely to be certain
//! by its next turn, which comes before this bot's next one.
//!
//! What an opponent knows is private only in part: its hand and the cards
//! shown to it. The rest (its questions, who passed, who showed) is public.
//! So deals are drawn consistent with what this bot knows; in each, the
//! opponent's knowledge is rebuilt (its hand in that deal, the public record,
//! and for each of its questions a card the shower held, the one it really
//! showed when this bot saw it), and its envelopes still possible are
//! counted exactly, as `rival` (and Spock before it) counts them.
//!
//! So every opponent is taken for an exact counter that accuses as soon as
//! it is certain. Against bots that are not (`clueless`) it races when
//! there is no race, and loses games it would have won (docs/strength.md).

use sleuth_infer::{Config, Knowledge, Owner, Rng};

use crate::belief::Belief;

/// A question somebody disproved, as this bot saw it.
pub(crate) struct Exchange {
    pub(crate) suggester: usize,
    pub(crate) cards: Vec<usize>,
    pub(crate) shower: usize,
    /// The card shown, when this bot saw it (it asked or it showed).
    pub(crate) card: Option<usize>,
}

/// The bounds of this bot's own counts (`belief.rs`); only the number of
/// envelopes is read, so none is listed.
const COUNT: Config = Config {
    seed: 0,
    work_limit: 1 << 25,
    memory_limit: 6 << 20,
    samples: 0,
    max_solutions: 1,
};

/// Counts (a deal drawn, an opponent's envelopes counted) per decision: at
/// six players 96 took a decision past 100 ms (`clue bench decisions`), 64
/// stay under 60 ms and win as often.
const COUNTS: usize = 64;

/// An opponent whose knowledge leaves more envelopes than this by its
/// categories alone (the product of each one's candidates) is not counted
/// exactly: at most one envelope in so many is its chance, which the race
/// weighs near zero anyway, and the exact counts were what made a race
/// decision slow (21 ms at most natively, over a billion fuel in wasm,
/// which the default tournament limits disqualify; 3.3 ms with the bound,
/// and the same win rates: docs/strength.md).
const NEAR: usize = 4;

/// The least chance of the envelope worth accusing on the odds.
pub(crate) const LEAST_CHANCE: f64 = 0.2;

/// Accuse when the chance that no opponent is certain before this bot's
/// next turn falls below this. Measured against `rival` (3,000 games per
/// table, docs/strength.md); comparing it with the envelope's own chance
/// instead did not pay.
pub(crate) const LOST_BY_WAITING: f64 = 0.15;

/// Tries at drawing one deal before giving up on it.
const TRIES: usize = 200;

/// What the race is judged from.
pub(crate) struct Race<'a> {
    /// What this bot knows, and the chances it gives.
    pub(crate) knowledge: &'a Knowledge,
    pub(crate) belief: &'a Belief,
    /// What every seat knows.
    pub(crate) public: &'a Knowledge,
    pub(crate) exchanges: &'a [Exchange],
    /// Opponents still taking turns.
    pub(crate) rivals: &'a [usize],
    pub(crate) seed: u64,
}

impl Race<'_> {
    /// The chance that no opponent accuses the right envelope before this
    /// bot's next turn; `None` when no deal could be drawn.
    pub(crate) fn nobody_solves(&self) -> Option<f64> {
        if self.rivals.is_empty() {
            return Some(1.0);
        }
        let mut rng = Rng::new(self.seed);
        let deals = (COUNTS / self.rivals.len()).max(4);
        let mut total = 0.0;
        let mut drawn = 0;
        for _ in 0..deals {
            let Some(hands) = self.deal(&mut rng) else {
                continue;
            };
            let mut nobody = 1.0;
            for &rival in self.rivals {
                let left = self.envelopes_left(rival, &hands, &mut rng);
                nobody *= 1.0 - solve_chance(left);
            }
            total += nobody;
            drawn += 1;
        }
        (drawn > 0).then(|| total / f64::from(drawn))
    }

    /// Every player's hand in one deal consistent with this bot's knowledge:
    /// the envelope drawn by its exact chance, the open cards dealt at
    /// random to players who may hold them, kept if every clause holds.
    fn deal(&self, rng: &mut Rng) -> Option<Vec<Vec<usize>>> {
        let k = self.knowledge;
        let players = k.players();
        let mut r = rng.unit();
        let (envelope, _) = self
            .belief
            .solutions
            .iter()
            .find(|(_, p)| {
                r -= p;
                r < 0.0
            })
            .or(self.belief.solutions.last())?;
        let known: Vec<Vec<usize>> = (0..players)
            .map(|p| k.known_cards(Owner::Player(p)))
            .collect();
        let mut open: Vec<usize> = (0..k.cards())
            .filter(|&c| !envelope.contains(&c) && k.owner_of(c).is_none())
            .collect();
        let clauses = k.open_clauses();
        'tries: for _ in 0..TRIES {
            let mut hands = known.clone();
            rng.shuffle(&mut open);
            for &card in &open {
                let takers: Vec<usize> = (0..players)
                    .filter(|&p| {
                        hands[p].len() < k.hand_size(p) && k.possible(Owner::Player(p), card)
                    })
                    .collect();
                if takers.is_empty() {
                    continue 'tries;
                }
                hands[takers[rng.below(takers.len())]].push(card);
            }
            let holds = clauses
                .iter()
                .all(|(p, cards)| cards.iter().any(|c| hands[*p].contains(c)));
            if holds {
                return Some(hands);
            }
        }
        None
    }

    /// How many envelopes `rival` has left in the deal `hands` (`None`
    /// when its knowledge could not be rebuilt or counted).
    fn envelopes_left(&self, rival: usize, hands: &[Vec<usize>], rng: &mut Rng) -> Option<u128> {
        let mut knowledge = self.public.clone();
        knowledge.add_hand(rival, &hands[rival]).ok()?;
        for exchange in self.exchanges.iter().filter(|e| e.suggester == rival) {
            let card = match exchange.card {
                Some(card) => card,
                None => {
                    let held: Vec<usize> = exchange
                        .cards
                        .iter()
                        .copied()
                        .filter(|c| hands[exchange.shower].contains(c))
                        .collect();
                    *held.get(rng.below(held.len().max(1)))?
                }
            };
            knowledge
                .add_has(Owner::Player(exchange.shower), card)
                .ok()?;
        }
        if knowledge.envelope_solved().is_some() {
            return Some(1);
        }
        let bound = crate::worst::solutions_left(&knowledge, &[]);
        if bound > NEAR {
            return Some(bound as u128);
        }
        let odds = knowledge.probabilities(&COUNT).ok()?;
        odds.exact.then_some(odds.solution_count)
    }
}

/// The chance an opponent with `left` envelopes (`None`: not counted) is
/// certain after its next question: with one it already is; with two, one
/// question nearly always tells them apart; past that, a question's worst
/// answer leaves more than one.
fn solve_chance(left: Option<u128>) -> f64 {
    match left {
        Some(0 | 1) => 1.0,
        Some(2) => 0.8,
        Some(n) => 1.0 / n as f64,
        None => 0.0,
    }
}

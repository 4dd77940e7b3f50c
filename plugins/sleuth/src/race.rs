//! The race in Speed Clue (and on the `framework` grid, where it was
//! measured to pay too): whether to accuse the likeliest envelope before
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

/// The same bar when the envelope's odds are [`named_odds`], against a
/// field that names its own cards: the likeliest envelope is right far more
/// often than on the plain counts, and betting earlier pays (0.45 to 0.75
/// won about as often against `rival`; 0.8 and up lost ground).
pub(crate) const LOST_BY_WAITING_NAMED: f64 = 0.6;

/// The factor on an envelope's odds for each time an opponent named one of
/// its cards in a question. Exact counters (`rival`, Spock) name their own
/// cards to narrow a question: `rival` names a card of its own hand 42% of
/// the time, twice the share of its hand in the deck. The plain counts miss
/// that, so against `rival` a category's likeliest card at 0.2-0.5 was the
/// envelope's 37% of the time when no opponent had named it and 8% when
/// opponents had named it three times or more, while the counts gave it
/// about a third in both cases (1,000 games, docs/strength.md). Any factor
/// from 0.05 to 0.3 won as often; 0.6 and up lost ground.
pub(crate) const NAMED_FACTOR: f64 = 0.2;

/// The envelopes the race bets on, most likely first: `solutions` (the
/// exact counts) with each envelope's odds times [`NAMED_FACTOR`] for every
/// time an opponent named one of its cards (`named[card]`).
pub(crate) fn named_odds(solutions: &[(Vec<usize>, f64)], named: &[u32]) -> Vec<(Vec<usize>, f64)> {
    let mut odds: Vec<(Vec<usize>, f64)> = solutions
        .iter()
        .map(|(cards, p)| {
            let times: i32 = cards
                .iter()
                .map(|&c| named.get(c).map_or(0, |&n| n as i32))
                .sum();
            (cards.clone(), p * NAMED_FACTOR.powi(times))
        })
        .collect();
    let total: f64 = odds.iter().map(|(_, p)| p).sum();
    if total > 0.0 {
        for (_, p) in &mut odds {
            *p /= total;
        }
    }
    // Stable: equal odds keep the counts' order.
    odds.sort_by(|a, b| b.1.total_cmp(&a.1));
    odds
}

/// The ring operations of exact counting (`Probabilities::work`) one
/// decision may spend, sleuth's own belief included. The race gets what the
/// belief's count left and checks each count's work before making it
/// (`Knowledge::exact_work`), so a decision counts at most this or the
/// belief's own count, whichever is more (that one is bounded by its 6 MiB
/// of tables: 9.1 million at most, measured). Wasm burns 22 to 40 fuel per
/// ring operation; with this bound the heaviest call of `sleuth.wasm` in
/// 150 games at six players on the framework grid took 0.38e9 of the
/// default 1e9 fuel (0.50e9 before).
///
/// Measured per race judgement in `clue bench decisions`, 1,500 games
/// against `rival` at each size, the belief's count and the race's
/// together (before this bound): at most 0.9 and 6.4 million in Speed Clue
/// at 3 and 4 players, 13.0 million at 6; 20.9 million at six players on
/// the framework grid. The bound cut 0 and 1 of 1,935 and 1,620 judgements
/// at 3 and 4 players (the Speed Clue tables against `rival` are the same
/// to the win), 23 of 1,296 at 6, and 28 of 1,781 on the framework grid.
/// It depends on the state alone, so every form still plays the same game
/// (docs/strength.md).
pub(crate) const DECISION_WORK: u64 = 8 << 20;

/// A race count that would take more than the work left.
struct OverBudget;

/// Tries at drawing one deal before giving up on it.
const TRIES: usize = 200;

/// What the race is judged from.
pub(crate) struct Race<'a> {
    /// What this bot knows, and the envelopes it bets on with their
    /// chances (`Game::guess_odds`).
    pub(crate) knowledge: &'a Knowledge,
    pub(crate) odds: &'a [(Vec<usize>, f64)],
    /// What every seat knows.
    pub(crate) public: &'a Knowledge,
    pub(crate) exchanges: &'a [Exchange],
    /// Opponents still taking turns.
    pub(crate) rivals: &'a [usize],
    pub(crate) seed: u64,
    /// The ring operations of exact counting the judgement may spend
    /// ([`DECISION_WORK`] less the belief's count).
    pub(crate) budget: u64,
}

impl Race<'_> {
    /// The chance that no opponent accuses the right envelope before this
    /// bot's next turn; `None` when no deal could be drawn, or the budget
    /// did not cover one.
    pub(crate) fn nobody_solves(&self) -> Option<f64> {
        if self.rivals.is_empty() {
            return Some(1.0);
        }
        let mut rng = Rng::new(self.seed);
        let deals = (COUNTS / self.rivals.len()).max(4);
        let mut total = 0.0;
        let mut drawn = 0;
        let mut budget = self.budget;
        'deals: for _ in 0..deals {
            let Some(hands) = self.deal(&mut rng) else {
                continue;
            };
            let mut nobody = 1.0;
            for &rival in self.rivals {
                // A deal the budget cannot finish is left unused.
                let Ok(left) = self.envelopes_left(rival, &hands, &mut rng, &mut budget) else {
                    break 'deals;
                };
                nobody *= 1.0 - solve_chance(left);
            }
            total += nobody;
            drawn += 1;
        }
        (drawn > 0).then(|| total / f64::from(drawn))
    }

    /// Every player's hand in one deal consistent with this bot's knowledge:
    /// the envelope drawn by its chance in `odds`, the open cards dealt at
    /// random to players who may hold them, kept if every clause holds.
    fn deal(&self, rng: &mut Rng) -> Option<Vec<Vec<usize>>> {
        let k = self.knowledge;
        let players = k.players();
        let mut r = rng.unit();
        let (envelope, _) = self
            .odds
            .iter()
            .find(|(_, p)| {
                r -= p;
                r < 0.0
            })
            .or(self.odds.last())?;
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

    /// What `rival` knows in the deal `hands`: the public record, its hand,
    /// and a card for each of its questions (`None` when it cannot be
    /// rebuilt).
    fn rebuilt(&self, rival: usize, hands: &[Vec<usize>], rng: &mut Rng) -> Option<Knowledge> {
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
        Some(knowledge)
    }

    /// How many envelopes `rival` has left in the deal `hands` (`None`
    /// when its knowledge could not be rebuilt or counted), the count's work
    /// taken from `budget`.
    fn envelopes_left(
        &self,
        rival: usize,
        hands: &[Vec<usize>],
        rng: &mut Rng,
        budget: &mut u64,
    ) -> Result<Option<u128>, OverBudget> {
        let Some(knowledge) = self.rebuilt(rival, hands, rng) else {
            return Ok(None);
        };
        if knowledge.envelope_solved().is_some() {
            return Ok(Some(1));
        }
        let bound = crate::worst::solutions_left(&knowledge, &[]);
        if bound > NEAR {
            return Ok(Some(bound as u128));
        }
        // Past the tables' bounds it is not counted (`COUNT` samples none).
        let Some(work) = knowledge.exact_work(&COUNT) else {
            return Ok(None);
        };
        if work > COUNT.work_limit {
            return Ok(None);
        }
        if work > *budget {
            return Err(OverBudget);
        }
        *budget -= work;
        let Ok(odds) = knowledge.probabilities(&COUNT) else {
            return Ok(None);
        };
        Ok(odds.exact.then_some(odds.solution_count))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Three players; this bot is seat 0 and the opponent seat 1. Seat 2's
    /// hand is public, and so are five of seat 0's cards, so in any deal
    /// seat 1 has at most two envelopes left and is counted exactly.
    fn judged(budget: u64, check: impl FnOnce(&Race)) {
        let mine = [0, 1, 6, 7, 12, 13];
        let seat_2 = [2, 3, 8, 9, 14, 15];
        let mut knowledge = crate::worst::tests::classic(3);
        knowledge.add_hand(0, &mine).unwrap();
        knowledge.add_hand(2, &seat_2).unwrap();
        let mut public = crate::worst::tests::classic(3);
        public.add_hand(2, &seat_2).unwrap();
        for card in [0, 1, 6, 7, 12] {
            public.add_has(Owner::Player(0), card).unwrap();
        }
        let odds = vec![(vec![4, 10, 16], 1.0)];
        let race = Race {
            knowledge: &knowledge,
            odds: &odds,
            public: &public,
            exchanges: &[],
            rivals: &[1],
            seed: 7,
            budget,
        };
        check(&race);
    }

    #[test]
    fn a_judgement_counts_only_within_its_budget() {
        // With room to count, a chance; with none, no judgement (and so no
        // bet), not a count past the budget: the first deal is not exempt.
        judged(u64::MAX, |race| {
            let nobody = race.nobody_solves().expect("counted");
            assert!((0.0..1.0).contains(&nobody), "{nobody}");
        });
        judged(0, |race| assert_eq!(race.nobody_solves(), None));
    }

    #[test]
    fn odds_without_namings_are_the_counts() {
        let solutions = vec![
            (vec![0, 6, 12], 0.5),
            (vec![1, 6, 12], 0.3),
            (vec![2, 7, 13], 0.2),
        ];
        assert_eq!(named_odds(&solutions, &[0; 21]), solutions);
    }

    #[test]
    fn every_naming_of_a_card_weighs_its_envelopes_down() {
        let solutions = vec![(vec![0, 6, 12], 0.5), (vec![1, 6, 12], 0.5)];
        let mut named = vec![0; 21];
        // Card 0 named twice; card 6, in both envelopes, once: it changes
        // nothing between them.
        named[0] = 2;
        named[6] = 1;
        let odds = named_odds(&solutions, &named);
        let weighed = NAMED_FACTOR * NAMED_FACTOR;
        assert_eq!(odds[0].0, vec![1, 6, 12], "the unnamed envelope first");
        assert!(close(odds[0].1, 1.0 / (1.0 + weighed)), "{odds:?}");
        assert!(close(odds[1].1, weighed / (1.0 + weighed)), "{odds:?}");
    }

    #[test]
    fn a_likelier_count_can_lose_to_fewer_namings() {
        let solutions = vec![(vec![0, 6, 12], 0.6), (vec![1, 6, 12], 0.4)];
        let mut named = vec![0; 21];
        named[0] = 1;
        let odds = named_odds(&solutions, &named);
        assert_eq!(odds[0].0, vec![1, 6, 12]);
        let sum: f64 = odds.iter().map(|(_, p)| p).sum();
        assert!(close(sum, 1.0));
        // Cards past the end of `named` (a bigger deck) count as unnamed.
        assert_eq!(named_odds(&solutions, &[]), solutions);
    }
}

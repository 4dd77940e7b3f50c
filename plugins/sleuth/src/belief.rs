//! What sleuth knows: the constraints of everything it has seen, fed to
//! `sleuth-infer`, and the probabilities they give, computed when a decision
//! needs them and kept until something new is learnt.

use sleuth_infer::{Config, Knowledge, Owner, Probabilities};

/// The probabilities of one state of knowledge, with the envelopes known to
/// be wrong (wrong accusations) taken out.
#[derive(Clone, Debug)]
pub struct Belief {
    /// Whether the numbers come from an exact count.
    pub exact: bool,
    /// Whether `solutions` lists every envelope still possible.
    pub complete: bool,
    /// Envelopes (sorted card ids) and their chances, most likely first.
    pub solutions: Vec<(Vec<usize>, f64)>,
    /// Players plus one (the envelope is the last owner).
    pub owners: usize,
    /// `card * owners + owner`: the chance that owner holds the card.
    pub cells: Vec<f64>,
}

impl Belief {
    /// The chance that `player` holds `card`.
    pub fn holds(&self, card: usize, player: usize) -> f64 {
        self.cells[card * self.owners + player]
    }

    /// The chance that `card` is in the envelope.
    pub fn envelope(&self, card: usize) -> f64 {
        self.cells[card * self.owners + self.owners - 1]
    }
}

/// Entropy in bits of a distribution (zero weights are skipped).
pub fn entropy(probabilities: impl Iterator<Item = f64>) -> f64 {
    probabilities
        .filter(|&p| p > 0.0)
        .map(|p| -p * p.log2())
        .sum()
}

/// The constraints sleuth has gathered and the belief they give.
pub struct Notes {
    knowledge: Knowledge,
    config: Config,
    cache: Option<Belief>,
    /// The ring operations of the exact count behind the current belief
    /// (`Probabilities::work`; 0 when sampled or not yet computed).
    work: u64,
    /// Constraints refused as contradictory (a bug somewhere, or a lying host).
    pub contradictions: u32,
}

impl Notes {
    pub fn new(knowledge: Knowledge, seed: u64) -> Notes {
        Notes {
            knowledge,
            // Small tables: sleuth must fit in a 16 MiB wasm sandbox and
            // decide in a few milliseconds; past these bounds it samples.
            config: Config {
                seed,
                work_limit: 1 << 25,
                memory_limit: 6 << 20,
                samples: 1500,
                max_solutions: 4096,
            },
            cache: None,
            work: 0,
            contradictions: 0,
        }
    }

    pub fn knowledge(&self) -> &Knowledge {
        &self.knowledge
    }

    /// Applies one change to the knowledge; a contradiction leaves it as it was.
    pub fn learn(
        &mut self,
        change: impl FnOnce(&mut Knowledge) -> Result<(), sleuth_infer::Contradiction>,
    ) {
        match change(&mut self.knowledge) {
            Ok(()) => self.cache = None,
            Err(_) => self.contradictions += 1,
        }
    }

    /// A wrong accusation: the envelope is not exactly `cards`. The counts
    /// take it exactly (`Knowledge::add_not_envelope`): every chance, of a
    /// card in a hand as of an envelope, is over the deals it leaves.
    pub fn exclude(&mut self, cards: &[usize]) {
        self.learn(|k| k.add_not_envelope(cards));
    }

    /// The current belief, computed if something changed since the last call.
    pub fn belief(&mut self) -> &Belief {
        let belief = match self.cache.take() {
            Some(belief) => belief,
            None => self.compute(),
        };
        self.cache.insert(belief)
    }

    fn compute(&mut self) -> Belief {
        let players = self.knowledge.players();
        let cards = self.knowledge.cards();
        let Ok(odds) = self.knowledge.probabilities(&self.config) else {
            self.contradictions += 1;
            self.work = 0;
            return self.propagated_only();
        };
        self.work = odds.work;
        from_probabilities(&odds, players, cards)
    }

    /// Without counts: every possible owner of a card equally likely.
    fn propagated_only(&self) -> Belief {
        let players = self.knowledge.players();
        let cards = self.knowledge.cards();
        let mut belief = unreachable_belief(players + 1, cards);
        for card in 0..cards {
            let owners: Vec<usize> = (0..=players)
                .filter(|&o| self.knowledge.possible(owner(o, players), card))
                .collect();
            for &o in &owners {
                belief.cells[card * (players + 1) + o] = 1.0 / owners.len() as f64;
            }
        }
        if let Some(envelope) = self.knowledge.envelope_solved() {
            belief.solutions.push((envelope, 1.0));
        }
        belief
    }

    /// The ring operations of the exact count behind the current belief
    /// (0 when it was sampled): a decision that counts more budgets with it.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The envelope, when it is certain (a ruled-out envelope never is:
    /// the knowledge refuses that as a contradiction).
    pub fn certain(&mut self) -> Option<Vec<usize>> {
        if let Some(envelope) = self.knowledge.envelope_solved() {
            return Some(envelope);
        }
        let belief = self.belief();
        match belief.solutions.as_slice() {
            [(cards, _)] if belief.exact && belief.complete => Some(cards.clone()),
            _ => None,
        }
    }
}

fn owner(index: usize, players: usize) -> Owner {
    if index == players {
        Owner::Envelope
    } else {
        Owner::Player(index)
    }
}

fn unreachable_belief(owners: usize, cards: usize) -> Belief {
    Belief {
        exact: false,
        complete: false,
        solutions: Vec::new(),
        owners,
        cells: vec![0.0; owners * cards],
    }
}

fn from_probabilities(odds: &Probabilities, players: usize, cards: usize) -> Belief {
    let owners = players + 1;
    let mut cells = vec![0.0; owners * cards];
    for card in 0..cards {
        for o in 0..owners {
            cells[card * owners + o] = odds.probability(card, owner(o, players));
        }
    }
    Belief {
        exact: odds.exact,
        complete: odds.solution_count == odds.solutions.len() as u128,
        solutions: odds
            .solutions
            .iter()
            .filter(|s| s.probability > 0.0)
            .map(|s| (s.cards.clone(), s.probability))
            .collect(),
        owners,
        cells,
    }
}

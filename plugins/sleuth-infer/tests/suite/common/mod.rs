//! Shared test vocabulary: constraints as data, and brute-force enumeration
//! of every deal of a small deck.

use std::collections::BTreeMap;

use sleuth_infer::{Contradiction, Knowledge, Owner};

/// A small deck: categories of card ids, envelope counts, hand sizes.
#[derive(Clone, Debug)]
pub struct Deck {
    pub categories: Vec<Vec<usize>>,
    pub hidden: Vec<usize>,
    pub hand_sizes: Vec<usize>,
}

impl Deck {
    pub fn cards(&self) -> usize {
        self.categories.iter().map(Vec::len).sum()
    }

    pub fn players(&self) -> usize {
        self.hand_sizes.len()
    }

    pub fn knowledge(&self) -> Knowledge {
        Knowledge::new(&self.categories, &self.hidden, &self.hand_sizes).unwrap()
    }

    pub fn category_of(&self, card: usize) -> usize {
        self.categories
            .iter()
            .position(|members| members.contains(&card))
            .unwrap()
    }

    pub fn owners(&self) -> Vec<Owner> {
        (0..self.players())
            .map(Owner::Player)
            .chain([Owner::Envelope])
            .collect()
    }
}

/// One thing learned during a game.
#[derive(Clone, Debug)]
pub enum Fact {
    Has(Owner, usize),
    Lacks(Owner, usize),
    OneOf(usize, Vec<usize>),
    CannotDisprove(usize, Vec<usize>),
    Hand(usize, Vec<usize>),
    /// The envelope is not exactly these cards.
    NotEnvelope(Vec<usize>),
}

impl Fact {
    pub fn add_to(&self, knowledge: &mut Knowledge) -> Result<(), Contradiction> {
        match self {
            Fact::Has(owner, card) => knowledge.add_has(*owner, *card),
            Fact::Lacks(owner, card) => knowledge.add_lacks(*owner, *card),
            Fact::OneOf(player, cards) => knowledge.add_has_one_of(*player, cards),
            Fact::CannotDisprove(player, cards) => knowledge.add_cannot_disprove(*player, cards),
            Fact::Hand(player, cards) => knowledge.add_hand(*player, cards),
            Fact::NotEnvelope(cards) => knowledge.add_not_envelope(cards),
        }
    }

    /// Whether the fact is true of `deal` (owner per card).
    pub fn holds(&self, deal: &[Owner]) -> bool {
        match self {
            Fact::Has(owner, card) => deal[*card] == *owner,
            Fact::Lacks(owner, card) => deal[*card] != *owner,
            Fact::OneOf(player, cards) => cards.iter().any(|&c| deal[c] == Owner::Player(*player)),
            Fact::CannotDisprove(player, cards) => {
                cards.iter().all(|&c| deal[c] != Owner::Player(*player))
            }
            Fact::Hand(player, cards) => {
                let held = deal
                    .iter()
                    .filter(|&&o| o == Owner::Player(*player))
                    .count();
                held == cards.len() && cards.iter().all(|&c| deal[c] == Owner::Player(*player))
            }
            Fact::NotEnvelope(cards) => {
                let envelope: Vec<usize> = (0..deal.len())
                    .filter(|&c| deal[c] == Owner::Envelope)
                    .collect();
                let mut cards = cards.clone();
                cards.sort_unstable();
                cards.dedup();
                envelope != cards
            }
        }
    }
}

/// What enumerating every deal found.
#[derive(Debug, Default, PartialEq)]
pub struct Brute {
    pub deals: u128,
    /// `(card, owner)` -> deals putting the card there.
    pub cells: BTreeMap<(usize, Owner), u128>,
    /// Envelope cards (sorted) -> deals with that envelope.
    pub envelopes: BTreeMap<Vec<usize>, u128>,
}

impl Brute {
    pub fn cell(&self, card: usize, owner: Owner) -> u128 {
        self.cells.get(&(card, owner)).copied().unwrap_or(0)
    }
}

/// Every deal of `deck` satisfying all `facts`.
pub fn brute_force(deck: &Deck, facts: &[Fact]) -> Brute {
    let mut brute = Brute::default();
    let mut deal = vec![Owner::Envelope; deck.cards()];
    let mut hands = deck.hand_sizes.clone();
    let mut hidden = deck.hidden.clone();
    let category_of: Vec<usize> = (0..deck.cards()).map(|c| deck.category_of(c)).collect();
    deal_from(
        0,
        &category_of,
        &mut deal,
        &mut hands,
        &mut hidden,
        &mut |deal| {
            if facts.iter().all(|fact| fact.holds(deal)) {
                brute.deals += 1;
                for (card, &owner) in deal.iter().enumerate() {
                    *brute.cells.entry((card, owner)).or_insert(0) += 1;
                }
                let envelope: Vec<usize> = (0..deal.len())
                    .filter(|&c| deal[c] == Owner::Envelope)
                    .collect();
                *brute.envelopes.entry(envelope).or_insert(0) += 1;
            }
        },
    );
    brute
}

fn deal_from(
    card: usize,
    category_of: &[usize],
    deal: &mut Vec<Owner>,
    hands: &mut [usize],
    hidden: &mut [usize],
    visit: &mut dyn FnMut(&[Owner]),
) {
    if card == deal.len() {
        visit(deal);
        return;
    }
    for player in 0..hands.len() {
        if hands[player] > 0 {
            hands[player] -= 1;
            deal[card] = Owner::Player(player);
            deal_from(card + 1, category_of, deal, hands, hidden, visit);
            hands[player] += 1;
        }
    }
    let category = category_of[card];
    if hidden[category] > 0 {
        hidden[category] -= 1;
        deal[card] = Owner::Envelope;
        deal_from(card + 1, category_of, deal, hands, hidden, visit);
        hidden[category] += 1;
    }
}

/// SplitMix64, for building random cases from one seed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// A random deal of `deck`: owner per card.
pub fn random_deal(deck: &Deck, rng: &mut Rng) -> Vec<Owner> {
    let mut deal = vec![Owner::Envelope; deck.cards()];
    let mut rest = Vec::new();
    for (category, members) in deck.categories.iter().enumerate() {
        let mut members = members.clone();
        rng.shuffle(&mut members);
        rest.extend_from_slice(&members[deck.hidden[category]..]);
    }
    rng.shuffle(&mut rest);
    let mut cards = rest.into_iter();
    for (player, &size) in deck.hand_sizes.iter().enumerate() {
        for card in cards.by_ref().take(size) {
            deal[card] = Owner::Player(player);
        }
    }
    deal
}

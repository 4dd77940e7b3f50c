//! The notebook: who holds which card, as far as simple rules can tell.

use clue_plugin_api::{Card, Deck, Seat};

/// Where a card is known to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    Seat(Seat),
    Envelope,
}

#[derive(Clone, Debug)]
pub struct Knowledge {
    deck: Deck,
    hidden: Vec<u8>,
    hand_sizes: Vec<usize>,
    holder: Vec<Option<Holder>>,
    /// `lacks[seat][card]`: the seat does not hold the card.
    lacks: Vec<Vec<bool>>,
    /// The seat holds at least one of these cards.
    clauses: Vec<(Seat, Vec<Card>)>,
}

impl Knowledge {
    pub fn new(deck: &Deck, hidden: &[u8], hand_sizes: &[u8]) -> Knowledge {
        Knowledge {
            deck: deck.clone(),
            hidden: hidden.to_vec(),
            hand_sizes: hand_sizes.iter().map(|&h| usize::from(h)).collect(),
            holder: vec![None; deck.len()],
            lacks: vec![vec![false; deck.len()]; hand_sizes.len()],
            clauses: Vec::new(),
        }
    }

    pub fn holder(&self, card: Card) -> Option<Holder> {
        self.holder.get(card.index()).copied().flatten()
    }

    pub fn lacks(&self, seat: Seat, card: Card) -> bool {
        self.lacks[seat.index()][card.index()]
    }

    /// Whether the card may still be in the envelope.
    pub fn maybe_envelope(&self, card: Card) -> bool {
        !matches!(self.holder(card), Some(Holder::Seat(_)))
    }

    pub fn holds(&mut self, seat: Seat, card: Card) {
        self.holds_all(seat, &[card]);
    }

    /// [`Knowledge::holds`] for each card, deduced from once: a hand of 255
    /// cards at 32 seats, propagated card by card, took a builtin
    /// `notebook` seconds to begin and ran a wasm one out of fuel.
    pub fn holds_all(&mut self, seat: Seat, cards: &[Card]) {
        if seat.index() >= self.lacks.len() {
            return;
        }
        for card in cards {
            if let Some(holder) = self.holder.get_mut(card.index()) {
                *holder = Some(Holder::Seat(seat));
            }
        }
        self.propagate();
    }

    pub fn holds_none_of(&mut self, seat: Seat, cards: &[Card]) {
        for &card in cards {
            if let Some(l) = self
                .lacks
                .get_mut(seat.index())
                .and_then(|l| l.get_mut(card.index()))
            {
                *l = true;
            }
        }
        self.propagate();
    }

    pub fn holds_one_of(&mut self, seat: Seat, cards: &[Card]) {
        if seat.index() < self.lacks.len() {
            self.clauses.push((seat, cards.to_vec()));
            self.propagate();
        }
    }

    /// The envelope, if the notebook is certain of every card in it: in each
    /// category, the cards known to be in it, or the only cards no seat is
    /// known to hold. (Before, only the second: a category whose envelope
    /// share was found while two seats could still hold one of its other
    /// cards never counted, and on a `framework` board of 150 rooms three
    /// `notebook`s sat in the envelope's room, certain of every card, for
    /// 2,000 rounds without accusing.)
    pub fn solution(&self) -> Option<Vec<Card>> {
        let mut cards = Vec::new();
        for (category, &count) in self.deck.categories().iter().zip(&self.hidden) {
            let found: Vec<Card> = self
                .deck
                .of(*category)
                .into_iter()
                .filter(|&c| self.holder(c) == Some(Holder::Envelope))
                .collect();
            if found.len() == usize::from(count) {
                cards.extend(found);
                continue;
            }
            let candidates: Vec<Card> = self
                .deck
                .of(*category)
                .into_iter()
                .filter(|&c| self.maybe_envelope(c))
                .collect();
            if candidates.len() != usize::from(count) {
                return None;
            }
            cards.extend(candidates);
        }
        Some(cards)
    }

    /// Applies the simple rules until nothing changes.
    fn propagate(&mut self) {
        let seats = self.lacks.len();
        loop {
            let mut changed = false;
            for card in self.deck.all() {
                // A card held by one seat is lacked by every other.
                if let Some(Holder::Seat(owner)) = self.holder(card) {
                    for s in 0..seats {
                        if s != owner.index() && !self.lacks[s][card.index()] {
                            self.lacks[s][card.index()] = true;
                            changed = true;
                        }
                    }
                }
                // A card every seat lacks is in the envelope.
                if self.holder(card).is_none() && (0..seats).all(|s| self.lacks[s][card.index()]) {
                    self.holder[card.index()] = Some(Holder::Envelope);
                    changed = true;
                }
            }
            for s in 0..seats {
                let seat = Seat(s as u8);
                let held = self
                    .deck
                    .all()
                    .filter(|&c| self.holder(c) == Some(Holder::Seat(seat)))
                    .count();
                let possible: Vec<Card> = self
                    .deck
                    .all()
                    .filter(|&c| self.holder(c).is_none() && !self.lacks[s][c.index()])
                    .collect();
                if held == self.hand_sizes[s] {
                    // A full hand: the seat lacks everything else.
                    for c in possible {
                        self.lacks[s][c.index()] = true;
                        changed = true;
                    }
                } else if held + possible.len() == self.hand_sizes[s] {
                    // Exactly enough candidates left: it holds them all.
                    for c in possible {
                        self.holder[c.index()] = Some(Holder::Seat(seat));
                        changed = true;
                    }
                }
            }
            // A category whose envelope share is found: its other cards are held.
            for (category, &count) in self.deck.categories().iter().zip(&self.hidden) {
                let cards = self.deck.of(*category);
                let in_envelope = cards
                    .iter()
                    .filter(|&&c| self.holder(c) == Some(Holder::Envelope))
                    .count();
                if in_envelope != usize::from(count) {
                    continue;
                }
                for &c in &cards {
                    if self.holder(c).is_some() {
                        continue;
                    }
                    let able: Vec<usize> =
                        (0..seats).filter(|&s| !self.lacks[s][c.index()]).collect();
                    if let [only] = able.as_slice() {
                        self.holder[c.index()] = Some(Holder::Seat(Seat(*only as u8)));
                        changed = true;
                    }
                }
            }
            // Clauses: drop lacked cards; one left means held; a held card satisfies.
            let mut kept = Vec::new();
            for (seat, cards) in std::mem::take(&mut self.clauses) {
                if cards
                    .iter()
                    .any(|&c| self.holder(c) == Some(Holder::Seat(seat)))
                {
                    changed = true;
                    continue;
                }
                let left: Vec<Card> = cards
                    .iter()
                    .copied()
                    .filter(|&c| !self.lacks[seat.index()][c.index()])
                    .collect();
                if let [only] = left.as_slice() {
                    self.holder[only.index()] = Some(Holder::Seat(seat));
                    changed = true;
                } else if !left.is_empty() {
                    changed |= left.len() != cards.len();
                    kept.push((seat, left));
                }
            }
            self.clauses = kept;
            if !changed {
                break;
            }
        }
    }
}

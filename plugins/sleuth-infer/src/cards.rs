//! `CardSet`: a set of card ids below 128, one bit per card.

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign};

/// Most cards a deck may have: one bit per card in a `u128`.
pub const MAX_CARDS: usize = 128;

#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub(crate) struct CardSet(u128);

impl CardSet {
    pub(crate) const EMPTY: CardSet = CardSet(0);

    /// The cards `0..n`.
    pub(crate) fn first(n: usize) -> CardSet {
        if n >= MAX_CARDS {
            CardSet(u128::MAX)
        } else {
            CardSet((1u128 << n) - 1)
        }
    }

    pub(crate) fn single(card: usize) -> CardSet {
        CardSet(1u128 << card)
    }

    pub(crate) fn of(cards: &[usize]) -> CardSet {
        cards
            .iter()
            .fold(CardSet::EMPTY, |set, &card| set | CardSet::single(card))
    }

    pub(crate) fn contains(self, card: usize) -> bool {
        self.0 >> card & 1 == 1
    }

    pub(crate) fn insert(&mut self, card: usize) {
        self.0 |= 1u128 << card;
    }

    pub(crate) fn remove(&mut self, card: usize) {
        self.0 &= !(1u128 << card);
    }

    pub(crate) fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cards of `self` that are not in `other`.
    pub(crate) fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    pub(crate) fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    pub(crate) fn lowest(self) -> Option<usize> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as usize)
    }

    pub(crate) fn iter(self) -> impl Iterator<Item = usize> {
        let mut rest = self.0;
        std::iter::from_fn(move || {
            if rest == 0 {
                return None;
            }
            let card = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            Some(card)
        })
    }

    pub(crate) fn to_vec(self) -> Vec<usize> {
        self.iter().collect()
    }
}

impl BitOr for CardSet {
    type Output = CardSet;
    fn bitor(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }
}

impl BitAnd for CardSet {
    type Output = CardSet;
    fn bitand(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }
}

impl BitOrAssign for CardSet {
    fn bitor_assign(&mut self, other: CardSet) {
        self.0 |= other.0;
    }
}

impl BitAndAssign for CardSet {
    fn bitand_assign(&mut self, other: CardSet) {
        self.0 &= other.0;
    }
}

//! The counting problem left after propagation: the cards whose owner is
//! still open, grouped into classes of interchangeable cards, and what each
//! owner still needs.
//!
//! Two cards are interchangeable when they share a category, the set of
//! owners that may hold them, and the set of clauses they appear in: swapping
//! them maps consistent deals to consistent deals. Counting then works on
//! how many cards of each class an owner takes (a "type"), not on which.

use std::collections::HashMap;

use crate::cards::CardSet;
use crate::knowledge::Knowledge;

/// Cards that no constraint tells apart.
#[derive(Clone, Debug)]
pub(crate) struct Class {
    pub(crate) cards: Vec<usize>,
}

/// What an owner whose hand is not yet certain must still take.
#[derive(Clone, Debug)]
pub(crate) struct OwnerSpec {
    /// Owner index in [`Knowledge`] (players, then the envelope).
    pub(crate) index: usize,
    /// `(classes, count)`: exactly `count` cards from these classes. The
    /// groups are disjoint and cover every class the owner may take from.
    pub(crate) groups: Vec<(u128, usize)>,
    /// At least one card from each of these class sets.
    pub(crate) clauses: Vec<u128>,
}

/// The open part of a deal.
#[derive(Clone, Debug)]
pub(crate) struct Problem {
    pub(crate) classes: Vec<Class>,
    pub(crate) owners: Vec<OwnerSpec>,
    /// Per owner index: the cards it certainly holds.
    pub(crate) held: Vec<CardSet>,
    /// The open cards.
    pub(crate) open: CardSet,
}

impl Problem {
    /// The open part of a propagated `knowledge`.
    pub(crate) fn new(knowledge: &Knowledge) -> Problem {
        let owners = knowledge.players() + 1;
        let envelope = knowledge.envelope();
        let held: Vec<CardSet> = (0..owners).map(|o| knowledge.held(o)).collect();
        let certain = held.iter().fold(CardSet::EMPTY, |all, &set| all | set);
        let open = CardSet::first(knowledge.cards()).minus(certain);
        let clauses = knowledge.clause_list();

        // Class signature: category, owner mask, clause membership.
        let mut classes: Vec<Class> = Vec::new();
        let mut class_of_signature: HashMap<(usize, u64, Vec<u64>), usize> = HashMap::new();
        let mut class_of_card = vec![usize::MAX; knowledge.cards()];
        for card in open.iter() {
            let owner_mask = (0..owners)
                .filter(|&o| knowledge.possible_set(o).contains(card))
                .fold(0u64, |mask, o| mask | 1 << o);
            let mut membership = vec![0u64; clauses.len().div_ceil(64)];
            for (i, clause) in clauses.iter().enumerate() {
                if clause.cards.contains(card) {
                    membership[i / 64] |= 1 << (i % 64);
                }
            }
            let signature = (knowledge.category_of(card), owner_mask, membership);
            let next = classes.len();
            let class = *class_of_signature.entry(signature).or_insert(next);
            if class == next {
                classes.push(Class { cards: Vec::new() });
            }
            classes[class].cards.push(card);
            class_of_card[card] = class;
        }
        let classes_of = |cards: CardSet| {
            cards
                .iter()
                .filter(|&card| class_of_card[card] != usize::MAX)
                .fold(0u128, |mask, card| mask | 1 << class_of_card[card])
        };

        let mut specs = Vec::new();
        for (index, &certain_cards) in held.iter().enumerate() {
            let allowed = knowledge.possible_set(index) & open;
            if allowed.is_empty() {
                continue;
            }
            let groups = if index == envelope {
                (0..knowledge.categories())
                    .filter_map(|category| {
                        let cards = allowed & knowledge.category_set(category);
                        let known = (certain_cards & knowledge.category_set(category)).len();
                        let need = knowledge.hidden(category).saturating_sub(known);
                        (!cards.is_empty()).then(|| (classes_of(cards), need))
                    })
                    .collect()
            } else {
                let need = knowledge
                    .hand_size(index)
                    .saturating_sub(certain_cards.len());
                vec![(classes_of(allowed), need)]
            };
            let owner_clauses = clauses
                .iter()
                .filter(|clause| clause.player == index)
                .map(|clause| classes_of(clause.cards & open))
                .collect();
            specs.push(OwnerSpec {
                index,
                groups,
                clauses: owner_clauses,
            });
        }
        Problem {
            classes,
            owners: specs,
            held,
            open,
        }
    }

    /// Cards each class holds.
    pub(crate) fn sizes(&self) -> Vec<usize> {
        self.classes.iter().map(|class| class.cards.len()).collect()
    }

    /// Number of cells of the grid of class counts, `prod (size + 1)`, or
    /// `None` past `usize::MAX`.
    pub(crate) fn cells(&self) -> Option<usize> {
        self.classes.iter().try_fold(1usize, |cells, class| {
            cells.checked_mul(class.cards.len() + 1)
        })
    }

    /// How many cards each active owner still takes.
    pub(crate) fn needs(&self) -> Vec<usize> {
        self.owners
            .iter()
            .map(|spec| spec.groups.iter().map(|&(_, need)| need).sum())
            .collect()
    }
}

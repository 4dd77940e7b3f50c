//! `Knowledge`: what is certain about a deal, kept at a fixpoint of the
//! local rules (one owner per card, exact hand sizes, exact envelope counts,
//! clauses).

use crate::cards::{CardSet, MAX_CARDS};
use crate::error::{Contradiction, SetupError};

/// Most players a deal may have (owners are kept in a `u64` mask elsewhere).
pub const MAX_PLAYERS: usize = 63;

/// Where a card can be: in a player's hand or in the envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Owner {
    /// The hand of player `0..players`.
    Player(usize),
    /// The envelope (the solution).
    Envelope,
}

/// "`player` holds at least one of `cards`": the player showed one of them
/// to someone else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Clause {
    pub(crate) player: usize,
    pub(crate) cards: CardSet,
}

/// Everything known about one deal, at a fixpoint of the local rules.
///
/// Every `add_*` method checks the new constraint against what is known,
/// propagates, and either keeps the result or returns the [`Contradiction`]
/// and leaves the knowledge as it was before the call.
///
/// Card ids are `0..cards()`, players `0..players()`; an id out of range is a
/// bug in the caller and panics.
#[derive(Clone, Debug)]
pub struct Knowledge {
    category_of: Vec<usize>,
    categories: Vec<CardSet>,
    hidden: Vec<usize>,
    hand_sizes: Vec<usize>,
    /// Per owner index (players, then the envelope): cards it may hold.
    possible: Vec<CardSet>,
    clauses: Vec<Clause>,
    /// Complete envelopes ruled out (someone accused them and was wrong),
    /// each still possible and not yet decided by the rules.
    excluded: Vec<CardSet>,
}

impl Knowledge {
    /// A deal of the cards in `categories` (ids exactly `0..n`), the envelope
    /// hiding `hidden[c]` cards of category `c`, player `i` holding
    /// `hand_sizes[i]` cards.
    pub fn new(
        categories: &[Vec<usize>],
        hidden: &[usize],
        hand_sizes: &[usize],
    ) -> Result<Knowledge, SetupError> {
        let cards: usize = categories.iter().map(Vec::len).sum();
        if cards > MAX_CARDS {
            return Err(SetupError::TooManyCards { cards });
        }
        if hand_sizes.len() > MAX_PLAYERS {
            return Err(SetupError::TooManyPlayers {
                players: hand_sizes.len(),
            });
        }
        if hidden.len() != categories.len() {
            return Err(SetupError::HiddenCounts {
                categories: categories.len(),
                hidden: hidden.len(),
            });
        }
        let mut category_of = vec![usize::MAX; cards];
        let mut sets = Vec::with_capacity(categories.len());
        for (category, members) in categories.iter().enumerate() {
            for &card in members {
                if card >= cards {
                    // `cards` ids, one out of range: some id below is absent.
                    let present = CardSet::of(
                        &categories
                            .iter()
                            .flatten()
                            .copied()
                            .filter(|&c| c < cards)
                            .collect::<Vec<_>>(),
                    );
                    let missing = CardSet::first(cards).minus(present).lowest().unwrap_or(0);
                    return Err(SetupError::MissingCard { card: missing });
                }
                if category_of[card] != usize::MAX {
                    return Err(SetupError::DuplicateCard { card });
                }
                category_of[card] = category;
            }
            if hidden[category] > members.len() {
                return Err(SetupError::HiddenTooMany {
                    category,
                    hidden: hidden[category],
                    cards: members.len(),
                });
            }
            sets.push(CardSet::of(members));
        }
        let placed = hidden.iter().sum::<usize>() + hand_sizes.iter().sum::<usize>();
        if placed != cards {
            return Err(SetupError::CardsDoNotAddUp { cards, placed });
        }
        let mut knowledge = Knowledge {
            category_of,
            categories: sets,
            hidden: hidden.to_vec(),
            hand_sizes: hand_sizes.to_vec(),
            possible: vec![CardSet::first(cards); hand_sizes.len() + 1],
            clauses: Vec::new(),
            excluded: Vec::new(),
        };
        // Sizes add up, so only empty hands or categories can change anything.
        knowledge
            .propagate()
            .map_err(|_| SetupError::CardsDoNotAddUp { cards, placed })?;
        Ok(knowledge)
    }

    /// Number of cards in the deck.
    pub fn cards(&self) -> usize {
        self.category_of.len()
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.hand_sizes.len()
    }

    /// The category of `card`.
    pub fn category_of(&self, card: usize) -> usize {
        self.category_of[card]
    }

    /// Number of categories.
    pub fn categories(&self) -> usize {
        self.categories.len()
    }

    /// The cards of `category`, in increasing id order.
    pub fn category_cards(&self, category: usize) -> Vec<usize> {
        self.categories[category].to_vec()
    }

    /// Cards the envelope hides in `category`.
    pub fn hidden(&self, category: usize) -> usize {
        self.hidden[category]
    }

    /// Cards in the hand of `player`.
    pub fn hand_size(&self, player: usize) -> usize {
        self.hand_sizes[player]
    }

    /// `owner` holds `card`: it was shown to us, or to everyone.
    pub fn add_has(&mut self, owner: Owner, card: usize) -> Result<(), Contradiction> {
        let index = self.index(owner);
        self.check_card(card);
        self.transaction(|k| {
            if !k.possible[index].contains(card) {
                return Err(Contradiction::NoOwner { card });
            }
            k.give(index, card);
            Ok(())
        })
    }

    /// `owner` does not hold `card`.
    pub fn add_lacks(&mut self, owner: Owner, card: usize) -> Result<(), Contradiction> {
        let index = self.index(owner);
        self.check_card(card);
        self.transaction(|k| {
            k.possible[index].remove(card);
            Ok(())
        })
    }

    /// `player` holds at least one of `cards` (it showed one of them to
    /// someone else). An empty list is a contradiction.
    pub fn add_has_one_of(&mut self, player: usize, cards: &[usize]) -> Result<(), Contradiction> {
        self.check_player(player);
        cards.iter().for_each(|&card| self.check_card(card));
        self.transaction(|k| {
            k.clauses.push(Clause {
                player,
                cards: CardSet::of(cards),
            });
            Ok(())
        })
    }

    /// `player` could not disprove a suggestion of `cards`: it holds none.
    pub fn add_cannot_disprove(
        &mut self,
        player: usize,
        cards: &[usize],
    ) -> Result<(), Contradiction> {
        self.check_player(player);
        cards.iter().for_each(|&card| self.check_card(card));
        self.transaction(|k| {
            for &card in cards {
                k.possible[player].remove(card);
            }
            Ok(())
        })
    }

    /// The envelope is not exactly `cards` (someone accused them and was
    /// told they were wrong). A set that is not a whole envelope (the hidden
    /// count of every category) cannot be the envelope: it teaches nothing.
    /// Counting takes every such fact exactly; the local rules use it when
    /// all of its cards but one are certainly in the envelope (the last one
    /// is then not) or all are (a contradiction).
    pub fn add_not_envelope(&mut self, cards: &[usize]) -> Result<(), Contradiction> {
        cards.iter().for_each(|&card| self.check_card(card));
        let set = CardSet::of(cards);
        let whole = set.len() == cards.len()
            && (0..self.categories.len())
                .all(|c| (set & self.categories[c]).len() == self.hidden[c]);
        if !whole {
            return Ok(());
        }
        self.transaction(|k| {
            k.excluded.push(set);
            Ok(())
        })
    }

    /// The complete envelopes ruled out and not yet settled by the rules,
    /// each in increasing id order.
    pub fn excluded_envelopes(&self) -> Vec<Vec<usize>> {
        self.excluded.iter().map(|set| set.to_vec()).collect()
    }

    /// `player` revealed its whole hand: it holds exactly `cards`.
    pub fn add_hand(&mut self, player: usize, cards: &[usize]) -> Result<(), Contradiction> {
        self.check_player(player);
        cards.iter().for_each(|&card| self.check_card(card));
        let hand = CardSet::of(cards);
        if hand.len() != self.hand_sizes[player] {
            return Err(Contradiction::RevealedHandSize {
                player,
                shown: hand.len(),
                size: self.hand_sizes[player],
            });
        }
        self.transaction(|k| {
            if let Some(card) = hand.minus(k.possible[player]).lowest() {
                return Err(Contradiction::NoOwner { card });
            }
            k.possible[player] = hand;
            for card in hand.iter() {
                k.give(player, card);
            }
            Ok(())
        })
    }

    /// The owner of `card`, if it is certain.
    pub fn owner_of(&self, card: usize) -> Option<Owner> {
        self.check_card(card);
        let mut owners = (0..self.possible.len()).filter(|&o| self.possible[o].contains(card));
        match (owners.next(), owners.next()) {
            (Some(only), None) => Some(self.owner(only)),
            _ => None,
        }
    }

    /// Whether `owner` may still hold `card`.
    pub fn possible(&self, owner: Owner, card: usize) -> bool {
        self.check_card(card);
        self.possible[self.index(owner)].contains(card)
    }

    /// The cards certainly held by `owner`, in increasing id order.
    pub fn known_cards(&self, owner: Owner) -> Vec<usize> {
        self.held(self.index(owner)).to_vec()
    }

    /// The whole envelope, in increasing id order, once every hidden card is
    /// certain.
    pub fn envelope_solved(&self) -> Option<Vec<usize>> {
        let envelope = self.envelope();
        let held = self.held(envelope);
        (held.len() == self.hidden.iter().sum::<usize>()).then(|| held.to_vec())
    }

    /// The clauses still open (not yet satisfied by a certain card), as
    /// `(player, cards)` with the cards that player may still hold.
    pub fn open_clauses(&self) -> Vec<(usize, Vec<usize>)> {
        self.clauses
            .iter()
            .map(|clause| (clause.player, clause.cards.to_vec()))
            .collect()
    }

    /// Applies the local rules until nothing changes. Every `add_*` method
    /// already does this; it is public for callers that build a state by
    /// hand and want to be sure.
    ///
    /// Rules: each card has exactly one owner; a player whose certain cards
    /// fill the hand lacks everything else, and one whose possible cards
    /// number exactly the hand size holds them all; the same per category
    /// for the envelope; a clause forgets cards its player lacks, is dropped
    /// once a certain card satisfies it, becomes a certain card when one
    /// possible card is left, and is dropped when it contains another clause
    /// of the same player.
    pub fn propagate(&mut self) -> Result<(), Contradiction> {
        while self.propagate_once()? {}
        Ok(())
    }

    /// One pass of every rule; whether anything changed.
    fn propagate_once(&mut self) -> Result<bool, Contradiction> {
        let all = CardSet::first(self.cards());
        let mut once = CardSet::EMPTY;
        let mut twice = CardSet::EMPTY;
        for &possible in &self.possible {
            twice |= once & possible;
            once |= possible;
        }
        if let Some(card) = all.minus(once).lowest() {
            return Err(Contradiction::NoOwner { card });
        }
        let certain = once.minus(twice);
        let before = self.possible.clone();

        for player in 0..self.players() {
            let size = self.hand_sizes[player];
            let possible = self.possible[player];
            let held = possible & certain;
            self.fill(player, possible, held, size)
                .map_err(|overfull| {
                    if overfull {
                        Contradiction::HandOverfull {
                            player,
                            known: held.len(),
                            size,
                        }
                    } else {
                        Contradiction::HandUnderfull {
                            player,
                            possible: possible.len(),
                            size,
                        }
                    }
                })?;
        }
        let envelope = self.envelope();
        for category in 0..self.categories.len() {
            let hidden = self.hidden[category];
            let possible = self.possible[envelope] & self.categories[category];
            let held = possible & certain;
            self.fill(envelope, possible, held, hidden)
                .map_err(|overfull| {
                    if overfull {
                        Contradiction::EnvelopeOverfull {
                            category,
                            known: held.len(),
                            hidden,
                        }
                    } else {
                        Contradiction::EnvelopeUnderfull {
                            category,
                            possible: possible.len(),
                            hidden,
                        }
                    }
                })?;
        }
        if self.possible != before {
            return Ok(true);
        }

        let mut forced = Vec::new();
        let mut kept: Vec<Clause> = Vec::with_capacity(self.clauses.len());
        for clause in &self.clauses {
            let cards = clause.cards & self.possible[clause.player];
            if !(cards & certain).is_empty() {
                continue;
            }
            match cards.len() {
                0 => {
                    return Err(Contradiction::EmptyClause {
                        player: clause.player,
                    });
                }
                1 => forced.push((clause.player, cards)),
                _ => kept.push(Clause {
                    player: clause.player,
                    cards,
                }),
            }
        }
        for (player, cards) in forced {
            if let Some(card) = cards.lowest() {
                self.give(player, card);
            }
        }
        // The clause list needs no new pass by itself: the rules above read
        // clauses only through the cards they force.
        self.clauses = drop_subsumed(kept);
        if self.possible != before {
            return Ok(true);
        }

        // A ruled-out envelope that can no longer be the envelope is
        // dropped; one all of whose cards but one are certainly there rules
        // that one out; one entirely there cannot be.
        let envelope = self.envelope();
        let there = self.held(envelope);
        let mut excluded = Vec::with_capacity(self.excluded.len());
        for &set in &self.excluded {
            if !set.is_subset(self.possible[envelope]) {
                continue;
            }
            let undecided = set.minus(there);
            match undecided.lowest() {
                None => return Err(Contradiction::ExcludedEnvelope),
                Some(card) if undecided.len() == 1 => self.possible[envelope].remove(card),
                Some(_) if !excluded.contains(&set) => excluded.push(set),
                Some(_) => {}
            }
        }
        self.excluded = excluded;
        Ok(self.possible != before)
    }

    /// Applies the exact-count rule to owner `index` for the cards in
    /// `possible` (all of a hand, or one envelope category), which must hold
    /// exactly `size` of them: `Err(true)` if overfull, `Err(false)` if
    /// underfull.
    fn fill(
        &mut self,
        index: usize,
        possible: CardSet,
        held: CardSet,
        size: usize,
    ) -> Result<(), bool> {
        if held.len() > size {
            return Err(true);
        }
        if possible.len() < size {
            return Err(false);
        }
        if held.len() == size {
            self.possible[index] = self.possible[index].minus(possible.minus(held));
        } else if possible.len() == size {
            for card in possible.minus(held).iter() {
                self.give(index, card);
            }
        }
        Ok(())
    }

    /// `card` is certainly with owner `index`: nobody else may hold it.
    fn give(&mut self, index: usize, card: usize) {
        for (other, possible) in self.possible.iter_mut().enumerate() {
            if other != index {
                possible.remove(card);
            }
        }
    }

    /// Runs `change` on a copy, propagates, and keeps the copy only if both
    /// succeed.
    fn transaction(
        &mut self,
        change: impl FnOnce(&mut Knowledge) -> Result<(), Contradiction>,
    ) -> Result<(), Contradiction> {
        let mut next = self.clone();
        change(&mut next)?;
        next.propagate()?;
        *self = next;
        Ok(())
    }

    /// Cards certainly held by owner index `index`.
    pub(crate) fn held(&self, index: usize) -> CardSet {
        let others = self
            .possible
            .iter()
            .enumerate()
            .filter(|&(o, _)| o != index)
            .fold(CardSet::EMPTY, |all, (_, &set)| all | set);
        self.possible[index].minus(others)
    }

    pub(crate) fn possible_set(&self, index: usize) -> CardSet {
        self.possible[index]
    }

    /// The ruled-out envelopes still open (see [`Knowledge::add_not_envelope`]).
    pub(crate) fn excluded_list(&self) -> &[CardSet] {
        &self.excluded
    }

    /// The same knowledge without the ruled-out envelopes.
    pub(crate) fn without_excluded(&self) -> Knowledge {
        Knowledge {
            excluded: Vec::new(),
            ..self.clone()
        }
    }

    pub(crate) fn clause_list(&self) -> &[Clause] {
        &self.clauses
    }

    pub(crate) fn category_set(&self, category: usize) -> CardSet {
        self.categories[category]
    }

    pub(crate) fn hidden_counts(&self) -> &[usize] {
        &self.hidden
    }

    /// The owner index of the envelope (players come first).
    pub(crate) fn envelope(&self) -> usize {
        self.hand_sizes.len()
    }

    pub(crate) fn index(&self, owner: Owner) -> usize {
        match owner {
            Owner::Player(player) => {
                self.check_player(player);
                player
            }
            Owner::Envelope => self.envelope(),
        }
    }

    pub(crate) fn owner(&self, index: usize) -> Owner {
        if index == self.envelope() {
            Owner::Envelope
        } else {
            Owner::Player(index)
        }
    }

    fn check_card(&self, card: usize) {
        assert!(
            card < self.cards(),
            "card {card} is not in a deck of {} cards",
            self.cards()
        );
    }

    fn check_player(&self, player: usize) {
        assert!(
            player < self.players(),
            "player {player} is not in a game of {} players",
            self.players()
        );
    }
}

/// Drops duplicate clauses and those containing another clause of the same
/// player (implied by it), keeping the first-added order.
fn drop_subsumed(clauses: Vec<Clause>) -> Vec<Clause> {
    let mut kept: Vec<Clause> = Vec::with_capacity(clauses.len());
    for (i, clause) in clauses.iter().enumerate() {
        let implied = clauses.iter().enumerate().any(|(j, other)| {
            other.player == clause.player
                && other.cards.is_subset(clause.cards)
                && (other.cards != clause.cards || j < i)
        });
        if !implied {
            kept.push(*clause);
        }
    }
    kept
}

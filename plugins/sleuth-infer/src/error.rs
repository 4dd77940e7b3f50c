//! The two ways things go wrong: a deck that cannot be dealt, and knowledge
//! that no deal satisfies.

use std::fmt;

/// Why [`Knowledge::new`](crate::Knowledge::new) rejected a deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// More than [`MAX_CARDS`](crate::MAX_CARDS) cards.
    TooManyCards { cards: usize },
    /// More than [`MAX_PLAYERS`](crate::MAX_PLAYERS) players.
    TooManyPlayers { players: usize },
    /// A card id appears in two categories, or twice in one.
    DuplicateCard { card: usize },
    /// The ids are not exactly `0..n`.
    MissingCard { card: usize },
    /// `hidden` does not have one entry per category.
    HiddenCounts { categories: usize, hidden: usize },
    /// The envelope would hold more cards of a category than it has.
    HiddenTooMany {
        category: usize,
        hidden: usize,
        cards: usize,
    },
    /// Hand sizes and hidden counts do not add up to the deck.
    CardsDoNotAddUp { cards: usize, placed: usize },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::TooManyCards { cards } => write!(
                f,
                "the deck has {cards} cards, more than the {} supported",
                crate::MAX_CARDS
            ),
            SetupError::TooManyPlayers { players } => write!(
                f,
                "there are {players} players, more than the {} supported",
                crate::MAX_PLAYERS
            ),
            SetupError::DuplicateCard { card } => write!(f, "card {card} is listed twice"),
            SetupError::MissingCard { card } => {
                write!(f, "card {card} is missing: ids must be exactly 0..n")
            }
            SetupError::HiddenCounts { categories, hidden } => write!(
                f,
                "{hidden} hidden counts given for {categories} categories"
            ),
            SetupError::HiddenTooMany {
                category,
                hidden,
                cards,
            } => write!(
                f,
                "the envelope cannot hide {hidden} cards of category {category}, which has {cards}"
            ),
            SetupError::CardsDoNotAddUp { cards, placed } => write!(
                f,
                "hands and envelope hold {placed} cards but the deck has {cards}"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// A constraint that no deal can satisfy together with what was known.
///
/// [`Knowledge`](crate::Knowledge) rejects the constraint that raised it and
/// keeps its state from before that call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contradiction {
    /// No owner is left for a card.
    NoOwner { card: usize },
    /// More cards are known to be in a hand than it holds.
    HandOverfull {
        player: usize,
        known: usize,
        size: usize,
    },
    /// Fewer cards may still be in a hand than it holds.
    HandUnderfull {
        player: usize,
        possible: usize,
        size: usize,
    },
    /// More cards of a category are known to be in the envelope than it hides.
    EnvelopeOverfull {
        category: usize,
        known: usize,
        hidden: usize,
    },
    /// Fewer cards of a category may be in the envelope than it hides.
    EnvelopeUnderfull {
        category: usize,
        possible: usize,
        hidden: usize,
    },
    /// A player must hold one of some cards but can hold none of them.
    EmptyClause { player: usize },
    /// A revealed hand does not have the size of that hand.
    RevealedHandSize {
        player: usize,
        shown: usize,
        size: usize,
    },
    /// The envelope is certainly one that was ruled out.
    ExcludedEnvelope,
    /// Every local rule holds but no complete deal fits (found by counting).
    NoConsistentDeal,
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contradiction::NoOwner { card } => write!(f, "card {card} can no longer be anywhere"),
            Contradiction::HandOverfull {
                player,
                known,
                size,
            } => write!(
                f,
                "player {player} holds {size} cards but {known} are known to be in the hand"
            ),
            Contradiction::HandUnderfull {
                player,
                possible,
                size,
            } => write!(
                f,
                "player {player} holds {size} cards but only {possible} may be in the hand"
            ),
            Contradiction::EnvelopeOverfull {
                category,
                known,
                hidden,
            } => write!(
                f,
                "the envelope hides {hidden} cards of category {category} but {known} are known to be there"
            ),
            Contradiction::EnvelopeUnderfull {
                category,
                possible,
                hidden,
            } => write!(
                f,
                "the envelope hides {hidden} cards of category {category} but only {possible} may be there"
            ),
            Contradiction::EmptyClause { player } => write!(
                f,
                "player {player} must hold one of some cards but can hold none of them"
            ),
            Contradiction::RevealedHandSize {
                player,
                shown,
                size,
            } => write!(f, "player {player} revealed {shown} cards but holds {size}"),
            Contradiction::ExcludedEnvelope => {
                write!(f, "the envelope is certainly one that was ruled out")
            }
            Contradiction::NoConsistentDeal => {
                write!(f, "no deal is consistent with everything known")
            }
        }
    }
}

impl std::error::Error for Contradiction {}

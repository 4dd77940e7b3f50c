//! Cards, categories and seats: the nouns every variant shares.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The category a card belongs to. `generalized` uses only [`Category::Item`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Category {
    Person,
    Weapon,
    Room,
    Item,
}

impl Category {
    /// Every category, in the order accusations and suggestions list them.
    pub const ALL: [Category; 4] = [
        Category::Person,
        Category::Weapon,
        Category::Room,
        Category::Item,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Category::Person => "person",
            Category::Weapon => "weapon",
            Category::Room => "room",
            Category::Item => "item",
        }
    }
}

/// A card's stable id: its index in the game's [`Deck`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Card(pub u16);

impl Card {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// A seat at the table, numbered from 0 in turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
    }
}

/// One card's description.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardInfo {
    pub category: Category,
    pub name: String,
}

/// Every card of a game, indexed by [`Card`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deck {
    pub cards: Vec<CardInfo>,
}

impl Deck {
    pub fn len(&self) -> usize {
        self.cards.len()
    }

    pub fn is_empty(&self) -> bool {
        self.cards.is_empty()
    }

    /// Every card id, in deck order.
    pub fn all(&self) -> impl Iterator<Item = Card> + '_ {
        (0..self.cards.len()).map(|i| Card(i as u16))
    }

    pub fn category(&self, card: Card) -> Option<Category> {
        self.cards.get(card.index()).map(|c| c.category)
    }

    pub fn name(&self, card: Card) -> &str {
        self.cards
            .get(card.index())
            .map_or("?", |c| c.name.as_str())
    }

    pub fn contains(&self, card: Card) -> bool {
        card.index() < self.cards.len()
    }

    /// The cards of one category, in deck order.
    pub fn of(&self, category: Category) -> Vec<Card> {
        self.all()
            .filter(|&c| self.category(c) == Some(category))
            .collect()
    }

    /// The categories present in this deck, in [`Category::ALL`] order.
    pub fn categories(&self) -> Vec<Category> {
        Category::ALL
            .into_iter()
            .filter(|&cat| self.cards.iter().any(|c| c.category == cat))
            .collect()
    }

    /// Finds a card by name, ignoring ASCII case.
    pub fn find(&self, name: &str) -> Option<Card> {
        self.all()
            .find(|&c| self.cards[c.index()].name.eq_ignore_ascii_case(name))
    }
}

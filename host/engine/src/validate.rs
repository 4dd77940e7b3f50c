//! Checks of what a bot proposes against the game: the rules errors that follow
//! a reply which parsed fine.

use clue_plugin_api::{Accusation, Card, Category, Deck, Seat, Suggestion, Variant};

use crate::config::GameConfig;

/// A suggestion (or `generalized` interrogation) is well formed and legal now.
pub fn suggestion(
    deck: &Deck,
    suggestion: &Suggestion,
    required_room: Option<Card>,
    opponents: &[Seat],
    config: &GameConfig,
) -> Result<(), String> {
    let cards = &suggestion.cards;
    if let Some(bad) = cards.iter().find(|c| !deck.contains(**c)) {
        return Err(format!("named card {bad}, which is not in the deck"));
    }
    if config.variant == Variant::Generalized {
        let Some(target) = suggestion.target else {
            return Err("named no opponent to interrogate".to_string());
        };
        if !opponents.contains(&target) {
            return Err(format!(
                "interrogated {target}, which is not an opponent in play"
            ));
        }
        if cards.is_empty() {
            return Err("interrogated with an empty list of items".to_string());
        }
        if has_duplicates(cards) {
            return Err("listed an item twice".to_string());
        }
        return Ok(());
    }
    if suggestion.target.is_some() {
        return Err("named an opponent; only generalized interrogates one".to_string());
    }
    one_of_each(deck, cards)?;
    if let (Some(room), Some(&named)) = (required_room, cards.last()) {
        if named != room {
            return Err(format!(
                "suggested the room {}, but must name {}",
                deck.name(named),
                deck.name(room)
            ));
        }
    }
    Ok(())
}

/// An accusation has the envelope's shape: one card per category in category
/// order, or `k` distinct items.
pub fn accusation(deck: &Deck, hidden: &[u8], accusation: &Accusation) -> Result<(), String> {
    let cards = &accusation.cards;
    if let Some(bad) = cards.iter().find(|c| !deck.contains(**c)) {
        return Err(format!("named card {bad}, which is not in the deck"));
    }
    if deck.categories() == [Category::Item] {
        let k = usize::from(hidden.first().copied().unwrap_or(0));
        if cards.len() != k || has_duplicates(cards) {
            return Err(format!(
                "guessed {} items; the envelope holds {k} distinct items",
                cards.len()
            ));
        }
        return Ok(());
    }
    one_of_each(deck, cards)
}

/// A card an accusation names that its accuser has seen: one it holds, or
/// one shown to it (see [`seen_card`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenCard {
    pub card: Card,
    /// Who showed it; `None`: the accuser holds it.
    pub shown_by: Option<Seat>,
}

impl SeenCard {
    /// `Mustard, a card it holds`, `the Rope, a card seat 2 showed it`.
    pub fn describe(&self, deck: &Deck) -> String {
        match self.shown_by {
            None => format!("{}, a card it holds", deck.name(self.card)),
            Some(seat) => format!("{}, a card seat {} showed it", deck.name(self.card), seat.0),
        }
    }
}

/// Speed Clue under the 2014 contest rules: the first card `accusation`
/// names that its accuser holds (`hand`) or was shown when it suggested
/// (`shown`, with who showed it). The contest's judge keeps both, per
/// player, as the cards it has seen and refuses an accusation naming any of
/// them as suicidal (`contestserver/Player.java` of
/// `sadakatsu/SpeedClueContest`).
pub fn seen_card(
    accusation: &Accusation,
    hand: &[Card],
    shown: &[(Card, Seat)],
) -> Option<SeenCard> {
    accusation.cards.iter().find_map(|&card| {
        if hand.contains(&card) {
            return Some(SeenCard {
                card,
                shown_by: None,
            });
        }
        let &(_, by) = shown.iter().find(|(c, _)| *c == card)?;
        Some(SeenCard {
            card,
            shown_by: Some(by),
        })
    })
}

fn one_of_each(deck: &Deck, cards: &[Card]) -> Result<(), String> {
    let categories = deck.categories();
    if cards.len() != categories.len() {
        return Err(format!(
            "named {} cards; it takes one {}",
            cards.len(),
            categories
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(", one ")
        ));
    }
    for (card, want) in cards.iter().zip(&categories) {
        if deck.category(*card) != Some(*want) {
            return Err(format!(
                "named {} where a {} belongs",
                deck.name(*card),
                want.name()
            ));
        }
    }
    Ok(())
}

fn has_duplicates(cards: &[Card]) -> bool {
    let mut sorted = cards.to_vec();
    sorted.sort();
    sorted.windows(2).any(|w| w[0] == w[1])
}

/// Whether two lists hold the same cards, in any order.
pub fn same_cards(a: &[Card], b: &[Card]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort();
    b.sort();
    a == b
}

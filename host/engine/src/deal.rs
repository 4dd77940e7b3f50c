//! The envelope and the hands, drawn from the seed or given.

use clue_plugin_api::{Card, Deck};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

/// Where every card is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deal {
    /// The hidden cards, in category order.
    pub envelope: Vec<Card>,
    /// Each seat's hand in the order dealt.
    pub hands: Vec<Vec<Card>>,
}

/// How many cards seat `seat` of `players` gets from `dealt` cards.
pub fn hand_size(dealt: usize, players: usize, seat: usize) -> usize {
    dealt / players + usize::from(seat < dealt % players)
}

/// Draws `hidden[c]` cards of each category for the envelope, shuffles the rest
/// and deals them one at a time starting at seat 0.
pub fn deal(deck: &Deck, hidden: &[u8], players: usize, rng: &mut ChaCha8Rng) -> Deal {
    let mut envelope = Vec::new();
    for (category, &count) in deck.categories().iter().zip(hidden) {
        let mut cards = deck.of(*category);
        cards.shuffle(rng);
        envelope.extend(cards.into_iter().take(usize::from(count)));
    }
    let mut rest: Vec<Card> = deck.all().filter(|c| !envelope.contains(c)).collect();
    rest.shuffle(rng);
    let mut hands = vec![Vec::new(); players];
    for (i, card) in rest.into_iter().enumerate() {
        hands[i % players].push(card);
    }
    Deal { envelope, hands }
}

/// Checks a given deal: every card at most once, valid ids, hand sizes as the
/// rules deal them, and exactly `hidden[c]` undealt cards of each category.
pub fn fixed(deck: &Deck, hidden: &[u8], hands: &[Vec<Card>]) -> Result<Deal, String> {
    let mut seen = vec![false; deck.len()];
    for (seat, hand) in hands.iter().enumerate() {
        for &card in hand {
            if !deck.contains(card) {
                return Err(format!(
                    "seat {seat} holds card {card}, which is not in the deck"
                ));
            }
            if std::mem::replace(&mut seen[card.index()], true) {
                return Err(format!("card {} is dealt twice", deck.name(card)));
            }
        }
    }
    let envelope: Vec<Card> = deck.all().filter(|c| !seen[c.index()]).collect();
    for (category, &count) in deck.categories().iter().zip(hidden) {
        let left = envelope
            .iter()
            .filter(|&&c| deck.category(c) == Some(*category))
            .count();
        if left != usize::from(count) {
            return Err(format!(
                "{left} {} cards are left for the envelope; it takes {count}",
                category.name()
            ));
        }
    }
    let dealt: usize = hands.iter().map(Vec::len).sum();
    for (seat, hand) in hands.iter().enumerate() {
        let want = hand_size(dealt, hands.len(), seat);
        if hand.len() != want {
            return Err(format!(
                "seat {seat} holds {} cards; the deal gives it {want}",
                hand.len()
            ));
        }
    }
    Ok(Deal {
        envelope,
        hands: hands.to_vec(),
    })
}

//! `clueless`: the seeds' CluelessPlayer. It moves and suggests at random and
//! keeps a poor notebook: only its own hand and the cards shown to it. It
//! accuses once that notebook leaves one candidate per envelope slot.
//!
//! ```
//! use clue_plugin_api::Player;
//! let bot = clueless::Clueless::default();
//! assert_eq!(bot.name(), "clueless");
//! ```

#![forbid(unsafe_code)]

use clue_plugin_api::{
    Accusation, AccusePoint, AccuseRequest, Card, Category, Event, MoveRequest, Player, Position,
    RespondRequest, Setup, SuggestRequest, Suggestion,
};
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[derive(Default)]
pub struct Clueless {
    setup: Option<Setup>,
    rng: Option<ChaCha8Rng>,
    /// Cards it knows are not in the envelope: its hand and cards shown to it.
    seen: Vec<Card>,
    made: Vec<Suggestion>,
}

impl Clueless {
    fn rng(&mut self) -> &mut ChaCha8Rng {
        self.rng.get_or_insert_with(|| ChaCha8Rng::seed_from_u64(0))
    }

    /// Cards of a category it has not seen.
    fn unseen(&self, category: Category) -> Vec<Card> {
        let Some(setup) = &self.setup else {
            return Vec::new();
        };
        setup
            .deck
            .of(category)
            .into_iter()
            .filter(|c| !self.seen.contains(c))
            .collect()
    }

    fn random_suggestion(&mut self, request: &SuggestRequest) -> Option<Suggestion> {
        let setup = self.setup.clone()?;
        if let Some(&target) = request.opponents.choose(self.rng()) {
            let mut items = setup.deck.of(Category::Item);
            items.shuffle(self.rng());
            let count = self.rng().random_range(1..=3usize).min(items.len());
            items.truncate(count);
            return Some(Suggestion {
                cards: items,
                target: Some(target),
            });
        }
        let cards = setup
            .deck
            .categories()
            .into_iter()
            .map(|category| match (category, request.turn.room) {
                (Category::Room, Some(room)) => room,
                _ => *setup
                    .deck
                    .of(category)
                    .choose(self.rng())
                    .unwrap_or(&Card(0)),
            })
            .collect();
        Some(Suggestion {
            cards,
            target: None,
        })
    }
}

impl Player for Clueless {
    fn name(&self) -> String {
        "clueless".to_string()
    }

    fn begin_game(&mut self, setup: &Setup) {
        self.rng = Some(ChaCha8Rng::seed_from_u64(setup.seed));
        self.seen = setup.hand.clone();
        self.made.clear();
        self.setup = Some(setup.clone());
    }

    fn accuse(&mut self, request: &AccuseRequest) -> Option<Accusation> {
        let setup = self.setup.clone()?;
        let mut cards = Vec::new();
        let mut certain = true;
        for (category, &count) in setup.deck.categories().iter().zip(&setup.rules.hidden) {
            let mut unseen = self.unseen(*category);
            certain &= unseen.len() == usize::from(count);
            unseen.shuffle(self.rng());
            cards.extend(unseen.into_iter().take(usize::from(count)));
        }
        if certain {
            return Some(Accusation { cards });
        }
        // Out of UniClue queries: a guess, not the disqualification the
        // next query would be.
        let out_of_queries = setup
            .rules
            .query_limit
            .is_some_and(|limit| self.made.len() >= limit as usize);
        match request.point {
            _ if out_of_queries => Some(Accusation { cards }),
            // Under the contest rule, the undisproved suggestion is the answer.
            AccusePoint::Forced if setup.rules.contest_rules => {
                self.made.last().map(|s| Accusation {
                    cards: s.cards.clone(),
                })
            }
            AccusePoint::Forced => Some(Accusation { cards }),
            _ => None,
        }
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        *request
            .targets
            .choose(self.rng())
            .unwrap_or(&request.targets[0])
    }

    fn suggest(&mut self, request: &SuggestRequest) -> Option<Suggestion> {
        if request.optional && self.rng().random_bool(0.1) {
            return None;
        }
        // Random, but never the same suggestion twice (the Speed Clue rule).
        let mut suggestion = self.random_suggestion(request)?;
        for _ in 0..200 {
            if !self.made.contains(&suggestion) {
                break;
            }
            suggestion = self.random_suggestion(request)?;
        }
        self.made.push(suggestion.clone());
        Some(suggestion)
    }

    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        request.matching.choose(self.rng()).copied()
    }

    fn watch(&mut self, event: &Event) {
        let me = self.setup.as_ref().map(|s| s.seat);
        if let Event::Answered {
            suggester,
            card: Some(card),
            ..
        } = event
        {
            if Some(*suggester) == me && !self.seen.contains(card) {
                self.seen.push(*card);
            }
        }
    }
}

//! `notebook`: keeps a detective's notebook (its hand, the cards shown to it,
//! who could not disprove, who showed something) with simple deductions, asks
//! about what it does not know, and accuses only when certain.
//!
//! ```
//! use clue_plugin_api::Player;
//! assert_eq!(notebook::Notebook::default().name(), "notebook");
//! ```

#![forbid(unsafe_code)]

mod knowledge;

pub use knowledge::{Holder, Knowledge};

use clue_plugin_api::{
    Accusation, AccusePoint, AccuseRequest, BoardView, Card, Category, Event, MoveRequest, Player,
    Position, RespondRequest, Seat, Setup, SuggestRequest, Suggestion,
};
use rand::SeedableRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand_chacha::ChaCha8Rng;

#[derive(Default)]
pub struct Notebook {
    setup: Option<Setup>,
    rng: Option<ChaCha8Rng>,
    knowledge: Option<Knowledge>,
    /// The suggestion being answered, from the last `Suggested` event.
    current: Option<Suggestion>,
    made: Vec<Suggestion>,
    /// Cards already shown to each seat.
    shown_to: Vec<Vec<Card>>,
}

impl Notebook {
    fn rng(&mut self) -> &mut ChaCha8Rng {
        self.rng.get_or_insert_with(|| ChaCha8Rng::seed_from_u64(0))
    }

    /// The notebook, if the game has begun.
    pub fn knowledge(&self) -> Option<&Knowledge> {
        self.knowledge.as_ref()
    }

    /// Cards of a category that may still be in the envelope.
    fn candidates(&self, category: Category) -> Vec<Card> {
        match (&self.setup, &self.knowledge) {
            (Some(setup), Some(k)) => setup
                .deck
                .of(category)
                .into_iter()
                .filter(|&c| k.maybe_envelope(c))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn interrogation(&mut self, opponents: &[Seat]) -> Option<Suggestion> {
        let setup = self.setup.clone()?;
        let k = self.knowledge.as_ref()?;
        // Ask the opponent with the most unknown items it might hold, for all of them:
        // a shown item is learnt for sure, a "0" rules them all out.
        let unknown = |s: Seat| -> Vec<Card> {
            setup
                .deck
                .all()
                .filter(|&c| k.holder(c).is_none() && !k.lacks(s, c))
                .collect()
        };
        let best = opponents
            .iter()
            .copied()
            .max_by_key(|&s| (unknown(s).len(), std::cmp::Reverse(s)))?;
        let mut items = unknown(best);
        if items.is_empty() {
            items = setup
                .deck
                .all()
                .filter(|c| !setup.hand.contains(c))
                .collect();
            items.truncate(1);
        }
        Some(Suggestion {
            cards: items,
            target: Some(best),
        })
    }

    fn three_card_suggestion(&mut self, room: Option<Card>) -> Option<Suggestion> {
        let setup = self.setup.clone()?;
        let mut options: Vec<Vec<Card>> = Vec::new();
        for category in setup.deck.categories() {
            if category == Category::Room {
                if let Some(room) = room {
                    options.push(vec![room]);
                    continue;
                }
            }
            let unknown: Vec<Card> = self
                .candidates(category)
                .into_iter()
                .filter(|&c| {
                    self.knowledge
                        .as_ref()
                        .is_some_and(|k| k.holder(c).is_none())
                })
                .collect();
            // Unknown cards teach most; a solved category is filled with a card
            // nobody else can show (its envelope card or one of our own).
            let pool = if unknown.is_empty() {
                let mut own: Vec<Card> = setup
                    .hand
                    .iter()
                    .copied()
                    .filter(|&c| setup.deck.category(c) == Some(category))
                    .collect();
                own.extend(self.candidates(category));
                own
            } else {
                unknown
            };
            options.push(if pool.is_empty() {
                setup.deck.of(category)
            } else {
                pool
            });
        }
        // Never repeat a suggestion: draw until a fresh one turns up.
        for attempt in 0..400 {
            let cards: Vec<Card> = options
                .iter()
                .enumerate()
                .map(|(i, pool)| {
                    let pool = if attempt > 100 && i + 1 < options.len() {
                        setup.deck.of(setup.deck.categories()[i])
                    } else {
                        pool.clone()
                    };
                    *pool.choose(self.rng()).unwrap_or(&Card(0))
                })
                .collect();
            let suggestion = Suggestion {
                cards,
                target: None,
            };
            if !self.made.contains(&suggestion) {
                return Some(suggestion);
            }
        }
        None
    }

    /// The first suggestion made in `room` (in any room when `None`).
    fn made_in(&self, room: Option<Card>) -> Option<Suggestion> {
        self.made
            .iter()
            .find(|s| room.is_none_or(|room| s.cards.contains(&room)))
            .cloned()
    }

    fn contest_rules(&self) -> bool {
        self.setup.as_ref().is_some_and(|s| s.rules.contest_rules)
    }

    /// Board play: the target that brings it into, or nearest to, a room whose
    /// card may still be in the envelope.
    fn best_target(&mut self, request: &MoveRequest) -> Position {
        let setup = self.setup.clone();
        let wanted: Vec<Card> = self.candidates(Category::Room);
        let score = |p: &Position| -> u32 {
            match (p, setup.as_ref().and_then(|s| s.board.as_ref())) {
                (Position::Room(room), _) if wanted.contains(room) => 0,
                (Position::Room(_), _) => 1000,
                (Position::Cell { row, col }, Some(board)) => {
                    distance_to_rooms(board, *row, *col, &wanted)
                }
                _ => 500,
            }
        };
        let best = request.targets.iter().map(score).min().unwrap_or(0);
        let choices: Vec<Position> = request
            .targets
            .iter()
            .copied()
            .filter(|p| score(p) == best)
            .collect();
        *choices.choose(self.rng()).unwrap_or(&request.targets[0])
    }
}

/// Manhattan distance from a cell to the nearest cell of a wanted room.
fn distance_to_rooms(board: &BoardView, row: u16, col: u16, wanted: &[Card]) -> u32 {
    let (cols, room_cells): (u16, Vec<(usize, Card)>) = match board {
        BoardView::Grid {
            width,
            cells,
            rooms,
        } => (
            *width,
            cells
                .iter()
                .enumerate()
                .filter_map(|(i, &v)| {
                    let room = rooms.get(usize::from(v).checked_sub(1)?)?;
                    Some((i, *room))
                })
                .collect(),
        ),
        BoardView::Rooms { cols, cells, .. } => (
            *cols,
            cells
                .iter()
                .enumerate()
                .filter_map(|(i, c)| Some((i, c.room?)))
                .collect(),
        ),
        BoardView::Ring { .. } => return 0,
    };
    room_cells
        .iter()
        .filter(|(_, room)| wanted.contains(room))
        .map(|&(i, _)| {
            let (r, c) = (
                (i / usize::from(cols.max(1))) as i64,
                (i % usize::from(cols.max(1))) as i64,
            );
            ((r - i64::from(row)).abs() + (c - i64::from(col)).abs()) as u32
        })
        .min()
        .unwrap_or(999)
}

impl Player for Notebook {
    fn name(&self) -> String {
        "notebook".to_string()
    }

    fn begin_game(&mut self, setup: &Setup) {
        self.rng = Some(ChaCha8Rng::seed_from_u64(setup.seed));
        let mut k = Knowledge::new(&setup.deck, &setup.rules.hidden, &setup.hand_sizes);
        for &card in &setup.hand {
            k.holds(setup.seat, card);
        }
        let others: Vec<Card> = setup
            .deck
            .all()
            .filter(|c| !setup.hand.contains(c))
            .collect();
        k.holds_none_of(setup.seat, &others);
        self.knowledge = Some(k);
        self.made.clear();
        self.current = None;
        self.shown_to = vec![Vec::new(); usize::from(setup.players)];
        self.setup = Some(setup.clone());
    }

    fn accuse(&mut self, request: &AccuseRequest) -> Option<Accusation> {
        if let Some(cards) = self.knowledge.as_ref().and_then(Knowledge::solution) {
            return Some(Accusation { cards });
        }
        // Out of UniClue queries: a guess, not the disqualification the
        // next query would be.
        let out_of_queries = self.setup.as_ref().is_some_and(|s| {
            s.rules
                .query_limit
                .is_some_and(|limit| self.made.len() >= limit as usize)
        });
        if request.point != AccusePoint::Forced && !out_of_queries {
            return None;
        }
        // Forced to guess: the candidates, first ones of each category.
        let setup = self.setup.clone()?;
        let mut cards = Vec::new();
        for (category, &count) in setup.deck.categories().iter().zip(&setup.rules.hidden) {
            let mut pool = self.candidates(*category);
            pool.shuffle(self.rng());
            cards.extend(pool.into_iter().take(usize::from(count)));
        }
        Some(Accusation { cards })
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        self.best_target(request)
    }

    fn suggest(&mut self, request: &SuggestRequest) -> Option<Suggestion> {
        let suggestion = if request.opponents.is_empty() {
            match self.three_card_suggestion(request.turn.room) {
                Some(suggestion) => suggestion,
                // Every suggestion of this room made already (a bot that
                // stays in one room of a large `framework` board): a turn
                // that requires one repeats one, where repeats are allowed.
                None if !request.optional && !self.contest_rules() => {
                    self.made_in(request.turn.room)?
                }
                None => return None,
            }
        } else {
            self.interrogation(&request.opponents)?
        };
        self.made.push(suggestion.clone());
        Some(suggestion)
    }

    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        // Show what this suggester has already seen, so it learns nothing new.
        let seen = self.shown_to.get(request.suggester.index())?;
        let card = request
            .matching
            .iter()
            .copied()
            .find(|c| seen.contains(c))
            .or_else(|| request.matching.first().copied())?;
        if let Some(seen) = self.shown_to.get_mut(request.suggester.index()) {
            if !seen.contains(&card) {
                seen.push(card);
            }
        }
        Some(card)
    }

    fn watch(&mut self, event: &Event) {
        let Some(k) = self.knowledge.as_mut() else {
            return;
        };
        match event {
            Event::Suggested { suggestion, .. } => self.current = Some(suggestion.clone()),
            Event::Answered {
                passed,
                shown_by,
                card,
                ..
            } => {
                let Some(suggestion) = &self.current else {
                    return;
                };
                for &seat in passed {
                    k.holds_none_of(seat, &suggestion.cards);
                }
                match (shown_by, card) {
                    (Some(seat), Some(card)) => k.holds(*seat, *card),
                    (Some(seat), None) => k.holds_one_of(*seat, &suggestion.cards),
                    _ => {}
                }
            }
            Event::HandRevealed { seat, hand } => {
                for &card in hand {
                    k.holds(*seat, card);
                }
            }
            _ => {}
        }
    }
}

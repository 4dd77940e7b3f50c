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
    /// Each room cell of the board (row, column, room), read once: a move
    /// measures from every target to the rooms it wants.
    room_cells: Vec<(i64, i64, Card)>,
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
        let wanted: Vec<Card> = self.candidates(Category::Room);
        let on_board = self.setup.as_ref().and_then(|s| s.board.as_ref());
        // A ring has no cells: every computer is as near.
        let grid = on_board.is_some_and(|b| !matches!(b, BoardView::Ring { .. }));
        let near = grid.then(|| nearest_cells(&self.room_cells, &wanted));
        let scores: Vec<u32> = request
            .targets
            .iter()
            .map(|p| match (p, &near) {
                (Position::Room(room), _) if wanted.contains(room) => 0,
                (Position::Room(_), _) => 1000,
                (Position::Cell { row, col }, Some(near)) => distance(near, *row, *col),
                (Position::Cell { .. }, None) if on_board.is_some() => 0,
                _ => 500,
            })
            .collect();
        let best = scores.iter().copied().min().unwrap_or(0);
        let choices: Vec<Position> = request
            .targets
            .iter()
            .zip(&scores)
            .filter(|&(_, &score)| score == best)
            .map(|(&p, _)| p)
            .collect();
        *choices.choose(self.rng()).unwrap_or(&request.targets[0])
    }
}

/// Each room cell of a board (row, column, room); none for a ring.
fn room_cells(board: &BoardView) -> Vec<(i64, i64, Card)> {
    let (cols, rooms): (u16, Vec<Option<Card>>) = match board {
        BoardView::Grid {
            width,
            cells,
            rooms,
        } => (
            *width,
            cells
                .iter()
                .map(|&v| rooms.get(usize::from(v).checked_sub(1)?).copied())
                .collect(),
        ),
        BoardView::Rooms { cols, cells, .. } => (*cols, cells.iter().map(|c| c.room).collect()),
        BoardView::Ring { .. } => return Vec::new(),
    };
    let cols = usize::from(cols.max(1));
    rooms
        .into_iter()
        .enumerate()
        .filter_map(|(i, room)| Some(((i / cols) as i64, (i % cols) as i64, room?)))
        .collect()
}

/// The cells of the wanted rooms.
fn nearest_cells(room_cells: &[(i64, i64, Card)], wanted: &[Card]) -> Vec<(i64, i64)> {
    let top = wanted.iter().map(|c| usize::from(c.0)).max().unwrap_or(0);
    let mut is_wanted = vec![false; top + 1];
    for c in wanted {
        is_wanted[usize::from(c.0)] = true;
    }
    room_cells
        .iter()
        .filter(|(_, _, room)| is_wanted.get(usize::from(room.0)) == Some(&true))
        .map(|&(r, c, _)| (r, c))
        .collect()
}

/// Manhattan distance from a cell to the nearest of `cells` (999 if none).
fn distance(cells: &[(i64, i64)], row: u16, col: u16) -> u32 {
    let (row, col) = (i64::from(row), i64::from(col));
    cells
        .iter()
        .map(|&(r, c)| ((r - row).abs() + (c - col).abs()) as u32)
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
        k.holds_all(setup.seat, &setup.hand);
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
        self.room_cells = setup.board.as_ref().map(room_cells).unwrap_or_default();
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
            Event::HandRevealed { seat, hand } => k.holds_all(*seat, hand),
            _ => {}
        }
    }
}

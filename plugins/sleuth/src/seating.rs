//! What `sleuth` and `rival` (plugins/rival) share of a seat at the table:
//! the setup read once (this bot's seat, the player count, the card ids of
//! each category), the knowledge a game starts from, the questions (the one
//! being answered, this bot's own, the cards it has shown whom), and the
//! steps both bots take alike: checking an answer, ordering an accusation,
//! the accusations that are certain, the likeliest envelope, the walk to the
//! rooms worth asking in. Each bot keeps its own notes and makes its own
//! choices of question, card and bet; what is here is only where the two
//! agree to the letter.
//!
//! ```
//! use clue_engine::decks;
//! use clue_plugin_api::{Card, Rules, Seat, Setup, Suggestion, Variant};
//! use sleuth::seating::Seating;
//!
//! let setup = Setup {
//!     variant: Variant::Speedclue,
//!     rules: Rules::speedclue_contest(),
//!     players: 3,
//!     seat: Seat(1),
//!     deck: decks::classic(),
//!     hand: [1, 7, 13, 14, 15, 16].map(Card).to_vec(),
//!     hand_sizes: vec![6, 6, 6],
//!     board: None,
//!     starts: Vec::new(),
//!     seed: 1,
//! };
//! let mut seating = Seating::new(&setup);
//! assert_eq!(seating.responders(), [2, 0]);
//! let question = Suggestion {
//!     cards: vec![Card(0), Card(6), Card(12)],
//!     target: None,
//! };
//! seating.suggested(Seat(2), &question);
//! // Seat 0 showed seat 2 a card this bot did not see.
//! let answer = seating.answered(Seat(2), &[], Some(Seat(0)), None).unwrap();
//! assert_eq!(answer.cards, [0, 6, 12]);
//! assert_eq!(answer.shown, Some((0, None)));
//! ```

use clue_plugin_api::{
    Accusation, Card, MoveRequest, Position, Seat, Setup, SuggestRequest, Suggestion, Variant,
};
use sleuth_infer::Knowledge;

use crate::{Belief, Map, Notes};

/// One bot's seat in one game: its setup, and what it has asked and shown.
pub struct Seating {
    pub setup: Setup,
    /// This bot's seat.
    pub me: usize,
    /// Seats at the table.
    pub players: usize,
    /// Card ids of each category, in deck category order.
    pub categories: Vec<Vec<usize>>,
    /// This bot's questions so far (card ids as asked; in `generalized` the
    /// items of each interrogation).
    pub made: Vec<Vec<usize>>,
    /// The question being answered.
    current: Option<Asked>,
    /// This bot's last question and whether someone disproved it.
    last: Option<(Vec<usize>, bool)>,
    /// `shown_by_me[seat]`: cards this bot has shown that seat.
    shown_by_me: Vec<Vec<usize>>,
}

/// The question being answered.
struct Asked {
    suggester: usize,
    cards: Vec<usize>,
}

/// An answer to the question being answered, its seats and cards checked
/// against the table.
#[derive(Debug)]
pub struct Answer {
    /// The cards asked.
    pub cards: Vec<usize>,
    /// The seats that could not disprove them, in order.
    pub passed: Vec<usize>,
    /// The seat that showed one of them (`None`: nobody could), and the
    /// card when this bot saw it.
    pub shown: Option<(usize, Option<usize>)>,
}

impl Seating {
    pub fn new(setup: &Setup) -> Seating {
        let players = usize::from(setup.players);
        let categories = setup
            .deck
            .categories()
            .into_iter()
            .map(|c| ids(&setup.deck.of(c)))
            .collect();
        Seating {
            setup: setup.clone(),
            me: setup.seat.index(),
            players,
            categories,
            made: Vec::new(),
            current: None,
            last: None,
            shown_by_me: vec![Vec::new(); players],
        }
    }

    /// What every seat knows when the game begins: the categories, how many
    /// cards of each are hidden and the hand sizes (`None` when the deck is
    /// too big for the solver).
    pub fn public(&self) -> Option<Knowledge> {
        let counts = |of: &[u8]| -> Vec<usize> { of.iter().map(|&n| usize::from(n)).collect() };
        let hidden = counts(&self.setup.rules.hidden);
        Knowledge::new(&self.categories, &hidden, &counts(&self.setup.hand_sizes)).ok()
    }

    /// What this bot knows when the game begins: [`Seating::public`] and its
    /// own hand, counted from the setup's seed.
    pub fn notes(&self) -> Option<Notes> {
        let mut knowledge = self.public()?;
        knowledge.add_hand(self.me, &ids(&self.setup.hand)).ok()?;
        Some(Notes::new(knowledge, self.setup.seed))
    }

    /// The seats that answer this bot's suggestions, in order.
    pub fn responders(&self) -> Vec<usize> {
        (1..self.players)
            .map(|i| (self.me + i) % self.players)
            .collect()
    }

    /// Whether `card` is in this bot's hand.
    pub fn holds(&self, card: usize) -> bool {
        self.setup.hand.iter().any(|c| c.index() == card)
    }

    /// How many cards the deck has.
    fn deck_size(&self) -> usize {
        self.categories.iter().map(Vec::len).sum()
    }

    /// Whether every card of `cards` is in the deck.
    pub fn in_deck(&self, cards: &[usize]) -> bool {
        let deck = self.deck_size();
        cards.iter().all(|&c| c < deck)
    }

    /// Orders envelope cards as an accusation: one per category, in category order.
    pub fn accusation(&self, cards: &[usize]) -> Accusation {
        let mut ordered = Vec::with_capacity(cards.len());
        for category in &self.categories {
            ordered.extend(cards.iter().copied().filter(|c| category.contains(c)));
        }
        Accusation {
            cards: ordered.into_iter().map(|c| Card(c as u16)).collect(),
        }
    }

    /// The first card of each category, the last replaced by `room` when
    /// given: a question for when there is nothing to choose by.
    pub fn first_cards(&self, room: Option<usize>) -> Vec<usize> {
        let mut cards: Vec<usize> = self
            .categories
            .iter()
            .filter_map(|c| c.first().copied())
            .collect();
        if let (Some(room), Some(last)) = (room, cards.last_mut()) {
            *last = room;
        }
        cards
    }

    /// `generalized` with nothing left to learn: the first of `opponents`
    /// asked about a card of this bot's own hand (a safe "0"), or else about
    /// the first item.
    pub fn safe_interrogation(&self, opponents: &[Seat]) -> Option<Suggestion> {
        let item = self
            .setup
            .hand
            .first()
            .map(|c| c.index())
            .or_else(|| self.categories.first()?.first().copied())?;
        Some(interrogation(opponents.first()?.index(), &[item]))
    }

    /// The envelope `notes` are certain of, unless it names a card of this
    /// bot's hand.
    pub fn certain(&self, notes: Option<&mut Notes>) -> Option<Vec<usize>> {
        notes
            .and_then(Notes::certain)
            .filter(|cards| !cards.iter().any(|&c| self.holds(c)))
    }

    /// Speed Clue: this bot's last question when nobody could disprove it
    /// and it names none of this bot's cards. It is the envelope.
    pub fn last_undisproved(&self) -> Option<&[usize]> {
        match &self.last {
            Some((cards, false))
                if self.setup.variant == Variant::Speedclue
                    && !cards.iter().any(|&c| self.holds(c)) =>
            {
                Some(cards)
            }
            _ => None,
        }
    }

    /// The first envelope of `odds` (most likely first) holding none of this
    /// bot's cards, with its chance; when there is none, the likeliest cards
    /// of each category by `belief`, at chance 0.
    pub fn likeliest(&self, odds: &[(Vec<usize>, f64)], belief: &Belief) -> (Vec<usize>, f64) {
        if let Some((cards, p)) = odds
            .iter()
            .find(|(cards, _)| !cards.iter().any(|&c| self.holds(c)))
        {
            return (cards.clone(), *p);
        }
        let mut cards = Vec::new();
        for (category, &count) in self.categories.iter().zip(&self.setup.rules.hidden) {
            let mut pool: Vec<usize> = category
                .iter()
                .copied()
                .filter(|&c| !self.holds(c))
                .collect();
            pool.sort_by(|&a, &b| belief.envelope(b).total_cmp(&belief.envelope(a)));
            cards.extend(pool.into_iter().take(usize::from(count)));
        }
        (cards, 0.0)
    }

    /// `Event::Suggested`: `seat` asks `suggestion`, the question the next
    /// answer is to.
    pub fn suggested(&mut self, seat: Seat, suggestion: &Suggestion) {
        self.current = Some(Asked {
            suggester: seat.index(),
            cards: ids(&suggestion.cards),
        });
    }

    /// `Event::Answered`: the answer to the question asked (`None` when it
    /// is another seat's question or names a card outside the deck), noted
    /// as this bot's last when it asked it.
    pub fn answered(
        &mut self,
        suggester: Seat,
        passed: &[Seat],
        shown_by: Option<Seat>,
        card: Option<Card>,
    ) -> Option<Answer> {
        let Asked {
            suggester: asker,
            cards,
        } = self.current.take()?;
        if !self.in_deck(&cards) || suggester.index() != asker {
            return None;
        }
        if asker == self.me {
            self.last = Some((cards.clone(), shown_by.is_some()));
        }
        let players = self.players;
        let card = card.map(|c| c.index()).filter(|&c| c < self.deck_size());
        Some(Answer {
            passed: passed
                .iter()
                .map(|s| s.index())
                .filter(|&s| s < players)
                .collect(),
            shown: shown_by
                .map(|s| s.index())
                .filter(|&s| s < players)
                .map(|s| (s, card)),
            cards,
        })
    }

    /// After a wrong accusation by `seat`: the seat known to hold none of its
    /// cards. Only under the contest rules, which refuse an accusation naming
    /// a card of one's own hand.
    pub fn accuser_holds_none(&self, seat: Seat) -> Option<usize> {
        Some(seat.index()).filter(|&s| self.setup.rules.contest_rules && s < self.players)
    }

    /// Whether `request` asks for an interrogation of one opponent
    /// (`generalized`) rather than three cards.
    pub fn interrogates(&self, request: &SuggestRequest) -> bool {
        !request.opponents.is_empty() || self.setup.variant == Variant::Generalized
    }

    /// Notes `suggestion` among this bot's questions (`made`) and returns it.
    pub fn ask(&mut self, suggestion: Suggestion) -> Suggestion {
        self.made.push(ids(&suggestion.cards));
        suggestion
    }

    /// The cards this bot has shown `seat` so far.
    pub fn shown_to(&self, seat: Seat) -> &[usize] {
        self.shown_by_me
            .get(seat.index())
            .map_or(&[], Vec::as_slice)
    }

    /// Notes that this bot shows `card` to `seat`.
    pub fn show(&mut self, seat: Seat, card: Card) {
        if let Some(seen) = self.shown_by_me.get_mut(seat.index()) {
            if !seen.contains(&card.index()) {
                seen.push(card.index());
            }
        }
    }
}

/// The card ids of `cards`.
pub fn ids(cards: &[Card]) -> Vec<usize> {
    cards.iter().map(|c| c.index()).collect()
}

/// A suggestion of three cards (no target).
pub fn suggestion(cards: &[usize]) -> Suggestion {
    Suggestion {
        cards: cards.iter().map(|&c| Card(c as u16)).collect(),
        target: None,
    }
}

/// An interrogation of `target` about `items` (`generalized`).
pub fn interrogation(target: usize, items: &[usize]) -> Suggestion {
    Suggestion {
        cards: items.iter().map(|&c| Card(c as u16)).collect(),
        target: Some(Seat(target as u8)),
    }
}

/// Where to move: the target whose room is worth most now plus 0.8 of what
/// the rooms in reach next turn are worth, by `room_values` of the map's
/// rooms (the first target without a map; staying put without a target).
pub fn move_to(
    map: Option<&Map>,
    request: &MoveRequest,
    room_values: impl FnOnce(&[Card]) -> Vec<f64>,
) -> Position {
    let Some(fallback) = request.targets.first().copied() else {
        return request
            .turn
            .position
            .unwrap_or(Position::Cell { row: 0, col: 0 });
    };
    let Some(map) = map else {
        return fallback;
    };
    let rooms = map.rooms();
    let values = room_values(rooms);
    let value_of = |room: Card| {
        rooms
            .iter()
            .position(|&r| r == room)
            .map_or(0.0, |i| values[i])
    };
    let mut best = (fallback, f64::NEG_INFINITY);
    for &target in &request.targets {
        let now = map.room_at(target).map_or(0.0, value_of);
        let score = now + 0.8 * map.next_turn(target, &values);
        if score > best.1 + 1e-12 {
            best = (target, score);
        }
    }
    best.0
}

/// A deck past the solver's [`sleuth_infer::MAX_CARDS`] (a `generalized`
/// deck of 200 items, a `framework` board of 200 rooms): no counts, so the
/// bot plays `notebook`'s exact bookkeeping instead, which accuses when
/// certain. Without it, `sleuth` and `rival` asked questions they learnt
/// nothing from and lost every such game to `notebook`.
#[derive(Default)]
pub struct PastSolver(Option<notebook::Notebook>);

impl PastSolver {
    /// Starts a game: takes it over, and says so, when its deck is too big
    /// to count.
    pub fn begin_game(&mut self, setup: &Setup) -> bool {
        self.0 = (setup.deck.len() > sleuth_infer::MAX_CARDS).then(|| {
            let mut notebook = notebook::Notebook::default();
            clue_plugin_api::Player::begin_game(&mut notebook, setup);
            notebook
        });
        self.0.is_some()
    }

    /// The bookkeeping playing this game, when it took the game over.
    pub fn playing(&mut self) -> Option<&mut notebook::Notebook> {
        self.0.as_mut()
    }
}

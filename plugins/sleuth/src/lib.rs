//! `sleuth`: the reference bot. It records everything it may see as
//! constraints on who holds which card, counts the deals consistent with them
//! exactly (`sleuth-infer`), asks the questions whose answers are expected to
//! teach most about the envelope (in Speed Clue, unless the opponents ask
//! like a weak field: whose worst answer leaves the fewest envelopes,
//! `speed.rs`), walks towards the rooms where it can ask
//! them, and accuses only when it is certain where a wrong accusation
//! eliminates (earlier, on good odds, where it does not), but for Speed
//! Clue's race: its likeliest envelope when an opponent is likely to be
//! certain first (`race.rs`).
//!
//! ```
//! use clue_engine::{GameConfig, InProcess, SeatController, play};
//! use clue_plugin_api::{Player, Variant};
//!
//! assert_eq!(sleuth::Sleuth::default().name(), "sleuth");
//! let config = GameConfig::new(Variant::Speedclue, 3);
//! let mut bots: Vec<Box<dyn SeatController>> = vec![
//!     Box::new(InProcess(sleuth::Sleuth::default())),
//!     Box::new(InProcess(notebook::Notebook::default())),
//!     Box::new(InProcess(notebook::Notebook::default())),
//! ];
//! let record = play(&config, 1, &mut bots).unwrap();
//! assert!(record.winner.is_some());
//! ```

#![forbid(unsafe_code)]

mod accuse;
mod belief;
mod board;
mod gain;
mod generalized;
mod race;
pub mod seating;
mod speed;
mod uniclue;
pub mod worst;

// Shared with `rival` (plugins/rival), which plays on the same counts and
// walks the same boards: one solver, one set of walking helpers, one worst
// case of a question (`worst`) and one seat's bookkeeping (`seating`).
pub use belief::{Belief, Notes};
pub use board::Map;
use clue_plugin_api::{
    Accusation, AccuseRequest, Card, Event, MoveRequest, Player, Position, RespondRequest, Seat,
    Setup, SuggestRequest, Suggestion, Variant,
};
use gain::Table;
use race::Exchange;
use seating::Seating;
use sleuth_infer::{Knowledge, Owner};

/// The reference bot. One value plays one game at a time; `begin_game`
/// starts afresh.
#[derive(Default)]
pub struct Sleuth {
    game: Option<Game>,
    /// A deck past its solver's 128 cards is played by `notebook`'s
    /// bookkeeping.
    past_solver: seating::PastSolver,
}

/// Why `sleuth` made an accusation: the bench counts a wrong accusation
/// against it only when it was certain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grounds {
    /// Only one envelope is consistent with what it knows.
    Certain,
    /// The likeliest envelope, on the odds: the race against the opponents
    /// (`generalized`'s guesses), a cheap guess where a wrong one only costs
    /// a turn (`csci306`), or a guess the rules force (out of queries, the
    /// turn limit).
    Odds,
}

struct Game {
    seating: Seating,
    /// What this bot knows (`None` when the solver refuses the setup: then
    /// it only plays legally; a deck too big to count is played by
    /// `seating::PastSolver` instead).
    notes: Option<Notes>,
    /// What every seat knows: used to show the card that leaks least.
    public: Option<Knowledge>,
    map: Option<Map>,
    /// `shown_to_me[seat]`: cards that seat has shown this bot.
    shown_to_me: Vec<Vec<usize>>,
    round: u32,
    /// `learnt[seat]`: cards shown to that seat so far (or revealed to all).
    learnt: Vec<usize>,
    /// Seats that no longer take turns.
    gone: Vec<bool>,
    /// How the opponents ask (Speed Clue picks its question score by it).
    field: speed::Field,
    /// Why this bot made its latest accusation.
    grounds: Option<Grounds>,
    /// Every question somebody disproved, in order.
    exchanges: Vec<Exchange>,
    /// Speed Clue, contest rules: another seat's question nobody disproved,
    /// while that seat may still accuse on it.
    undisproved: Option<(usize, Vec<usize>)>,
    /// Every opponent question: the asker and the cards.
    asked: Vec<(usize, Vec<usize>)>,
}

impl Sleuth {
    /// Bits about the envelope a suggestion of `cards` by this bot is
    /// expected to teach now (answered by the seats after it, in order).
    /// `None` before the game begins.
    pub fn suggestion_gain(&mut self, cards: &[Card]) -> Option<f64> {
        let game = self.game.as_mut()?;
        let cards: Vec<usize> = cards.iter().map(|c| c.index()).collect();
        let responders = game.seating.responders();
        let belief = game.notes.as_mut()?.belief().clone();
        let table = Table {
            belief: &belief,
            me: game.seating.me,
            shown: &game.shown_to_me,
        };
        Some(table.suggestion_gain(&cards, &responders))
    }

    /// Why this bot made its latest accusation in this game (`None` before
    /// the first).
    pub fn last_grounds(&self) -> Option<Grounds> {
        self.game.as_ref()?.grounds
    }

    /// Whether this bot takes its opponents for a weak field: their
    /// questions name cards it knows to be held elsewhere (`speed::Field`).
    /// Then it asks by the expected information and does not race.
    pub fn weak_field(&self) -> Option<bool> {
        Some(self.game.as_ref()?.field.weak())
    }

    /// The chance this bot gives each envelope card being `card`.
    pub fn envelope_chance(&mut self, card: Card) -> Option<f64> {
        let notes = self.game.as_mut()?.notes.as_mut()?;
        (card.index() < notes.knowledge().cards()).then(|| notes.belief().envelope(card.index()))
    }
}

impl Game {
    fn new(setup: &Setup) -> Game {
        let seating = Seating::new(setup);
        let players = seating.players;
        Game {
            notes: seating.notes(),
            public: seating.public(),
            map: setup.board.as_ref().and_then(Map::new),
            shown_to_me: vec![Vec::new(); players],
            round: 0,
            learnt: vec![0; players],
            gone: vec![false; players],
            field: speed::Field::default(),
            grounds: None,
            exchanges: Vec::new(),
            undisproved: None,
            asked: Vec::new(),
            seating,
        }
    }

    fn learn_both(
        &mut self,
        change: impl Fn(&mut Knowledge) -> Result<(), sleuth_infer::Contradiction>,
    ) {
        if let Some(notes) = self.notes.as_mut() {
            notes.learn(&change);
        }
        if let Some(public) = self.public.as_mut() {
            let _ = change(public);
        }
    }

    fn watch(&mut self, event: &Event) {
        if let Event::Accused { seat, .. } = event {
            // After its unanswered question a seat accused, forced or not:
            // nothing is known of its hand.
            if self
                .undisproved
                .as_ref()
                .is_some_and(|(s, _)| *s == seat.index())
            {
                self.undisproved = None;
            }
        }
        match event {
            Event::TurnBegan { round, .. } => {
                self.round = *round;
                // Had it held none of the cards it asked, the rules would
                // have made it accuse; it did not, so it holds one of them.
                if let Some((seat, cards)) = self.undisproved.take() {
                    self.learn_both(|k| k.add_has_one_of(seat, &cards));
                }
            }
            Event::Disqualified { seat, .. } => {
                if let Some(gone) = self.gone.get_mut(seat.index()) {
                    *gone = true;
                }
            }
            Event::Suggested { seat, suggestion } => {
                self.seating.suggested(*seat, suggestion);
                if let Some(notes) = self
                    .notes
                    .as_ref()
                    .filter(|_| seat.index() != self.seating.me)
                {
                    let cards = seating::ids(&suggestion.cards);
                    self.field.observe(notes.knowledge(), seat.index(), &cards);
                    self.asked.push((seat.index(), cards));
                }
            }
            Event::Answered {
                suggester,
                passed,
                shown_by,
                card,
            } => self.answered(*suggester, passed, *shown_by, *card),
            Event::Accused {
                seat,
                accusation: Some(accusation),
                correct: Some(false),
            } => {
                let cards = seating::ids(&accusation.cards);
                if !self.seating.in_deck(&cards) {
                    return;
                }
                if let Some(notes) = self.notes.as_mut() {
                    notes.exclude(&cards);
                }
                if let Some(seat) = self.seating.accuser_holds_none(*seat) {
                    self.learn_both(|k| k.add_cannot_disprove(seat, &cards));
                }
            }
            Event::HandRevealed { seat, hand } => {
                let seat = seat.index();
                let hand = seating::ids(hand);
                if seat < self.seating.players {
                    self.gone[seat] = true;
                    if self.seating.in_deck(&hand) {
                        self.learn_both(|k| k.add_hand(seat, &hand));
                        self.learnt.iter_mut().for_each(|l| *l += hand.len());
                    }
                }
            }
            _ => {}
        }
    }

    fn answered(
        &mut self,
        suggester: Seat,
        passed: &[Seat],
        shown_by: Option<Seat>,
        card: Option<Card>,
    ) {
        let Some(answer) = self.seating.answered(suggester, passed, shown_by, card) else {
            return;
        };
        let cards = answer.cards;
        for &seat in &answer.passed {
            self.learn_both(|k| k.add_cannot_disprove(seat, &cards));
        }
        let suggester = suggester.index();
        let setup = &self.seating.setup;
        if suggester != self.seating.me
            && shown_by.is_none()
            && setup.variant == Variant::Speedclue
            && setup.rules.contest_rules
        {
            self.undisproved = Some((suggester, cards.clone()));
        }
        let Some((seat, card)) = answer.shown else {
            return;
        };
        if let Some(learnt) = self.learnt.get_mut(suggester) {
            *learnt += 1;
        }
        self.exchanges.push(Exchange {
            suggester,
            cards: cards.clone(),
            shower: seat,
            card,
        });
        match card {
            Some(card) => {
                if let Some(notes) = self.notes.as_mut() {
                    notes.learn(|k| k.add_has(Owner::Player(seat), card));
                }
                if let Some(public) = self.public.as_mut() {
                    let _ = if self.seating.setup.rules.shown_to_all {
                        public.add_has(Owner::Player(seat), card)
                    } else {
                        public.add_has_one_of(seat, &cards)
                    };
                }
                if suggester == self.seating.me && !self.shown_to_me[seat].contains(&card) {
                    self.shown_to_me[seat].push(card);
                }
            }
            None => self.learn_both(|k| k.add_has_one_of(seat, &cards)),
        }
    }

    /// The best three-card suggestion (the room fixed when `room` is given).
    fn best_suggestion(&mut self, room: Option<usize>) -> (Vec<usize>, f64) {
        let responders = self.seating.responders();
        let rooms: Vec<usize> = match (room, self.seating.categories.last()) {
            (Some(room), _) => vec![room],
            (None, Some(rooms)) => rooms.clone(),
            (None, None) => Vec::new(),
        };
        let no_repeats = self.seating.setup.variant == Variant::Speedclue;
        let fallback = || self.seating.first_cards(room);
        let mut best: Option<(Vec<usize>, f64)> = None;
        let (Some(notes), [persons, weapons, _]) =
            (self.notes.as_mut(), self.seating.categories.as_slice())
        else {
            return (fallback(), 0.0);
        };
        let belief = notes.belief().clone();
        let table = Table {
            belief: &belief,
            me: self.seating.me,
            shown: &self.shown_to_me,
        };
        if self.seating.setup.variant == Variant::Speedclue && !self.field.weak() {
            let ask = speed::Ask {
                knowledge: notes.knowledge(),
                belief: &belief,
                table: &table,
                responders: &responders,
                made: &self.seating.made,
            };
            if let Some(best) = ask.best(persons, weapons, &rooms) {
                return best;
            }
        }
        for &r in &rooms {
            for &p in persons {
                for &w in weapons {
                    let cards = vec![p, w, r];
                    if no_repeats && self.seating.made.contains(&cards) {
                        continue;
                    }
                    let gain = table.suggestion_gain(&cards, &responders);
                    if best.as_ref().is_none_or(|(_, g)| gain > *g + 1e-12) {
                        best = Some((cards, gain));
                    }
                }
            }
        }
        best.unwrap_or_else(|| (fallback(), 0.0))
    }

    /// The value of suggesting in each room of the map (0 when solved).
    fn room_values(&mut self, map_rooms: &[Card]) -> Vec<f64> {
        if self.notes.as_mut().and_then(Notes::certain).is_some() {
            return vec![0.0; map_rooms.len()];
        }
        map_rooms
            .iter()
            .map(|room| self.best_suggestion(Some(room.index())).1)
            .collect()
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        let map = self.map.take();
        let target = seating::move_to(map.as_ref(), request, |rooms| self.room_values(rooms));
        self.map = map;
        target
    }

    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        let seen = self.seating.shown_to(request.suggester);
        let leak = |card: Card| -> usize {
            let c = card.index();
            if seen.contains(&c) {
                return 0;
            }
            match &self.public {
                Some(public) if c < public.cards() => {
                    let mut owners = usize::from(public.possible(Owner::Envelope, c));
                    owners += (0..public.players())
                        .filter(|&p| public.possible(Owner::Player(p), c))
                        .count();
                    owners
                }
                _ => usize::MAX,
            }
        };
        let card = request.matching.iter().copied().min_by_key(|&c| leak(c))?;
        self.seating.show(request.suggester, card);
        Some(card)
    }
}

impl Player for Sleuth {
    fn name(&self) -> String {
        "sleuth".to_string()
    }

    fn begin_game(&mut self, setup: &Setup) {
        self.game = (!self.past_solver.begin_game(setup)).then(|| Game::new(setup));
    }

    fn accuse(&mut self, request: &AccuseRequest) -> Option<Accusation> {
        if let Some(notebook) = self.past_solver.playing() {
            return notebook.accuse(request);
        }
        self.game.as_mut()?.accuse(request)
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        if let Some(notebook) = self.past_solver.playing() {
            return notebook.move_to(request);
        }
        match self.game.as_mut() {
            Some(game) => game.move_to(request),
            None => request
                .targets
                .first()
                .copied()
                .unwrap_or(Position::Cell { row: 0, col: 0 }),
        }
    }

    fn suggest(&mut self, request: &SuggestRequest) -> Option<Suggestion> {
        if let Some(notebook) = self.past_solver.playing() {
            return notebook.suggest(request);
        }
        let game = self.game.as_mut()?;
        let suggestion = if game.seating.interrogates(request) {
            game.best_interrogation(&request.opponents)?
        } else {
            let cards = match (game.seating.setup.variant, request.turn.room) {
                (Variant::Uniclue, Some(room)) => game.uniclue_query(room.index()),
                (_, room) => game.best_suggestion(room.map(|r| r.index())).0,
            };
            seating::suggestion(&cards)
        };
        Some(game.seating.ask(suggestion))
    }

    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        if let Some(notebook) = self.past_solver.playing() {
            return notebook.respond(request);
        }
        match self.game.as_mut() {
            Some(game) => game.respond(request),
            None => request.matching.first().copied(),
        }
    }

    fn watch(&mut self, event: &Event) {
        if let Some(notebook) = self.past_solver.playing() {
            notebook.watch(event);
        }
        if let Some(game) = self.game.as_mut() {
            game.watch(event);
        }
    }
}

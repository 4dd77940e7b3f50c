//! `rival`: a sparring partner for `sleuth`, playing the approach of the
//! winner of the 2014 Speed Clue contest in our own words.
//!
//! The contest (codegolf.stackexchange.com "King of the Hill: Speed Clue
//! AI", entries in the repository `sadakatsu/SpeedClueContest`) was won by
//! `SpockAI` (`entries/gamecoder/SpockAI/src/com/sadakatsu/clue/ai/SpockAI.java`
//! with its `knowledge/Knowledge.java`). This bot follows that file's
//! decisions:
//!
//! - **What it knows**: every envelope still possible given everything seen
//!   (hand sizes, cards shown to it, passes, who showed something to whom,
//!   wrong accusations, revealed hands). Spock kept a set of solutions
//!   pruned by its own deductions; here the set is exact, the envelopes with
//!   a consistent deal counted by `sleuth-infer` (through `sleuth::Notes`,
//!   the same counts and bounds as `sleuth`).
//! - **Its question** (`SpockAI.suggest` / `SuggestionTest`): of the
//!   suggestions it has not made yet, the one whose worst answer leaves the
//!   fewest solutions. Every answer is tried (`Knowledge.getOutcomes`: each
//!   responder in turn showing each card it may hold, stopping at one certain
//!   to hold a card, or nobody), applied to what is known and propagated; the
//!   solutions left are those of the exact list the answer does not rule out
//!   (`sleuth::worst`). Spock broke ties on how many hands each player may still
//!   hold; here on the `(player, card)` pairs still open, then at random from
//!   the seed `Setup.seed`.
//! - **The card it shows** (`SpockAI.disprove`): one it has already shown
//!   the suggester, otherwise the one of the category with the most
//!   envelope candidates left (rooms first, then persons, then weapons on a
//!   tie, as Spock's stable sort of `[rooms, suspects, weapons]` does).
//! - **Accusing** (`SpockAI.accuse`): only when one solution remains. Where
//!   the rules force a guess (Speed Clue after an undisproved suggestion, the
//!   UniClue query limit, `generalized` at the turn limit) it names the
//!   likeliest envelope rather than be disqualified.
//!
//! Beyond Speed Clue it plays every variant of the host the same way: on the
//! boards it walks with `sleuth::Map` towards the rooms whose best question
//! removes the most solutions in the worst case; in `generalized` it asks
//! one opponent about a list of items, chosen by the same worst case. On a
//! deck past the solver's 128 cards it plays `notebook`'s bookkeeping
//! (`sleuth::seating::PastSolver`), as `sleuth` does.
//!
//! What it does as `sleuth` does (reading the setup, checking answers,
//! ordering an accusation, the accusations that are certain, the likeliest
//! envelope, the walk) is `sleuth::seating`, shared by the two.
//!
//! ```
//! use clue_engine::{GameConfig, InProcess, SeatController, play};
//! use clue_plugin_api::{Player, Variant};
//!
//! assert_eq!(rival::Rival::default().name(), "rival");
//! let config = GameConfig::new(Variant::Speedclue, 3);
//! let mut bots: Vec<Box<dyn SeatController>> = vec![
//!     Box::new(InProcess(rival::Rival::default())),
//!     Box::new(InProcess(notebook::Notebook::default())),
//!     Box::new(InProcess(notebook::Notebook::default())),
//! ];
//! let record = play(&config, 1, &mut bots).unwrap();
//! assert!(record.winner.is_some());
//! ```

#![forbid(unsafe_code)]

// The worst case of a question lives in `sleuth` (plugins/sleuth/src/worst.rs),
// whose Speed Clue questions use it too.
pub use sleuth::worst::{Left, solutions_left, worst_case};

use clue_plugin_api::{
    Accusation, AccusePoint, AccuseRequest, Card, Event, MoveRequest, Player, Position,
    RespondRequest, Seat, Setup, SuggestRequest, Suggestion, Variant,
};
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use sleuth::seating::{self, PastSolver, Seating};
use sleuth::{Map, Notes};
use sleuth_infer::{Knowledge, Owner};

/// The sparring partner. One value plays one game at a time; `begin_game`
/// starts afresh.
#[derive(Default)]
pub struct Rival {
    game: Option<Game>,
    /// A deck past the solver's 128 cards is played by `notebook`'s
    /// bookkeeping, as `sleuth` plays it.
    past_solver: PastSolver,
}

struct Game {
    seating: Seating,
    /// What this bot knows (`None` when the solver refuses the setup: then
    /// it only plays legally; a deck too big to count is played by
    /// `seating::PastSolver` instead).
    notes: Option<Notes>,
    map: Option<Map>,
    rng: ChaCha8Rng,
}

/// The questions whose worst answer is least bad, and that answer.
struct Best {
    ties: Vec<Vec<usize>>,
    left: Left,
}

impl Best {
    fn offer(best: &mut Option<Best>, cards: Vec<usize>, left: Left) {
        match best {
            Some(b) if left < b.left => {
                b.ties = vec![cards];
                b.left = left;
            }
            Some(b) if left == b.left => b.ties.push(cards),
            Some(_) => {}
            None => {
                *best = Some(Best {
                    ties: vec![cards],
                    left,
                })
            }
        }
    }
}

impl Rival {
    /// The solutions this bot still thinks possible; `None` before the game
    /// begins or when the deck is too big for the solver.
    pub fn solutions(&mut self) -> Option<usize> {
        let game = self.game.as_mut()?;
        let candidates = game.candidates();
        let notes = game.notes.as_ref()?;
        Some(solutions_left(notes.knowledge(), &candidates))
    }
}

impl Game {
    fn new(setup: &Setup) -> Game {
        let seating = Seating::new(setup);
        Game {
            notes: seating.notes(),
            map: setup.board.as_ref().and_then(Map::new),
            rng: ChaCha8Rng::seed_from_u64(setup.seed),
            seating,
        }
    }

    fn learn(
        &mut self,
        change: impl FnOnce(&mut Knowledge) -> Result<(), sleuth_infer::Contradiction>,
    ) {
        if let Some(notes) = self.notes.as_mut() {
            notes.learn(change);
        }
    }

    /// The exact list of envelopes still possible (empty when the solver
    /// could not list them).
    fn candidates(&mut self) -> Vec<Vec<usize>> {
        match self.notes.as_mut() {
            Some(notes) => notes
                .belief()
                .solutions
                .iter()
                .map(|(cards, _)| cards.clone())
                .collect(),
            None => Vec::new(),
        }
    }

    fn watch(&mut self, event: &Event) {
        match event {
            Event::Suggested { seat, suggestion } => {
                self.seating.suggested(*seat, suggestion);
            }
            Event::Answered {
                suggester,
                passed,
                shown_by,
                card,
            } => {
                let Some(answer) = self.seating.answered(*suggester, passed, *shown_by, *card)
                else {
                    return;
                };
                for &seat in &answer.passed {
                    self.learn(|k| k.add_cannot_disprove(seat, &answer.cards));
                }
                match answer.shown {
                    Some((seat, Some(card))) => {
                        self.learn(|k| k.add_has(Owner::Player(seat), card))
                    }
                    Some((seat, None)) => self.learn(|k| k.add_has_one_of(seat, &answer.cards)),
                    None => {}
                }
            }
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
                    self.learn(|k| k.add_cannot_disprove(seat, &cards));
                }
            }
            Event::HandRevealed { seat, hand } => {
                let seat = seat.index();
                let hand = seating::ids(hand);
                if seat < self.seating.players && self.seating.in_deck(&hand) {
                    self.learn(|k| k.add_hand(seat, &hand));
                }
            }
            _ => {}
        }
    }

    /// The best three-card suggestions (the room fixed when `room` is
    /// given): those not made yet whose worst answer leaves the fewest
    /// solutions; made ones only when every one was made.
    fn best_suggestions(&self, room: Option<usize>, candidates: &[Vec<usize>]) -> Option<Best> {
        let notes = self.notes.as_ref()?;
        let [persons, weapons, rooms] = self.seating.categories.as_slice() else {
            return None;
        };
        let rooms = match room {
            Some(room) => vec![room],
            None => rooms.clone(),
        };
        let responders = self.seating.responders();
        let knowledge = notes.knowledge();
        for repeats in [false, true] {
            let mut best: Option<Best> = None;
            for &r in &rooms {
                for &p in persons {
                    for &w in weapons {
                        let cards = vec![p, w, r];
                        if !repeats && self.seating.made.contains(&cards) {
                            continue;
                        }
                        let bound = best.as_ref().map(|b| b.left);
                        if let Some(left) =
                            worst_case(knowledge, candidates, &responders, &cards, bound)
                        {
                            Best::offer(&mut best, cards, left);
                        }
                    }
                }
            }
            if best.is_some() {
                return best;
            }
        }
        None
    }

    /// A suggestion in the room given (any room when `None`).
    fn suggestion(&mut self, room: Option<usize>) -> Vec<usize> {
        let candidates = self.candidates();
        if let Some(best) = self.best_suggestions(room, &candidates) {
            if let Some(cards) = best.ties.choose(&mut self.rng) {
                return cards.clone();
            }
        }
        // No solver: the first card of each category, in the room required.
        self.seating.first_cards(room)
    }

    /// `generalized`: the interrogation of one opponent whose worst answer
    /// leaves the fewest solutions. The lists tried for each opponent are
    /// each single item it may hold, and the items it may hold likeliest to
    /// be hidden first, 2 to 8 of them.
    fn interrogation(&mut self, opponents: &[Seat]) -> Option<Suggestion> {
        let candidates = self.candidates();
        let items = self.seating.categories.first()?.clone();
        let mut best: Option<Best> = None;
        if let Some(notes) = self.notes.as_mut() {
            let envelope: Vec<f64> = {
                let belief = notes.belief();
                items.iter().map(|&c| belief.envelope(c)).collect()
            };
            let knowledge = notes.knowledge();
            for target in opponents.iter().map(|s| s.index()) {
                if target >= self.seating.players {
                    continue;
                }
                let mut open: Vec<(usize, f64)> = items
                    .iter()
                    .zip(&envelope)
                    .filter(|&(&c, _)| {
                        knowledge.possible(Owner::Player(target), c)
                            && knowledge.owner_of(c).is_none()
                    })
                    .map(|(&c, &p)| (c, p))
                    .collect();
                open.sort_by(|a, b| b.1.total_cmp(&a.1));
                let mut lists: Vec<Vec<usize>> = open.iter().map(|&(c, _)| vec![c]).collect();
                for length in [2, 3, 4, 6, 8] {
                    if length <= open.len() {
                        lists.push(open[..length].iter().map(|&(c, _)| c).collect());
                    }
                }
                for list in lists {
                    let bound = best.as_ref().map(|b| b.left);
                    if let Some(left) = worst_case(knowledge, &candidates, &[target], &list, bound)
                    {
                        // The target is kept as the list's last entry.
                        let mut question = list;
                        question.push(target);
                        Best::offer(&mut best, question, left);
                    }
                }
            }
        }
        match best.and_then(|b| b.ties.choose(&mut self.rng).cloned()) {
            Some(mut question) => {
                let target = question.pop()?;
                Some(seating::interrogation(target, &question))
            }
            None => self.seating.safe_interrogation(opponents),
        }
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        let map = self.map.take();
        let target = seating::move_to(map.as_ref(), request, |rooms| self.room_values(rooms));
        self.map = map;
        target
    }

    /// What asking in each room is worth: the bits of solutions its best
    /// question is sure to remove (0 once solved).
    fn room_values(&mut self, rooms: &[Card]) -> Vec<f64> {
        let candidates = self.candidates();
        let now = match self.notes.as_ref() {
            Some(notes) => solutions_left(notes.knowledge(), &candidates),
            None => 0,
        };
        if now <= 1 {
            return vec![0.0; rooms.len()];
        }
        rooms
            .iter()
            .map(
                |room| match self.best_suggestions(Some(room.index()), &candidates) {
                    Some(best) => (now as f64 / best.left.solutions.max(1) as f64).log2(),
                    None => 0.0,
                },
            )
            .collect()
    }

    fn accuse(&mut self, request: &AccuseRequest) -> Option<Accusation> {
        if let Some(cards) = self.seating.certain(self.notes.as_mut()) {
            return Some(self.seating.accusation(&cards));
        }
        let forced = request.point == AccusePoint::Forced;
        // Out of UniClue queries: a guess beats the certain disqualification.
        let setup = &self.seating.setup;
        let limit = setup.rules.query_limit.map(|l| l as usize);
        let out_of_queries = setup.variant == Variant::Uniclue
            && limit.is_some_and(|l| self.seating.made.len() >= l);
        if !forced && !out_of_queries {
            return None;
        }
        if forced {
            if let Some(cards) = self.seating.last_undisproved() {
                return Some(self.seating.accusation(cards));
            }
        }
        let guess = self.likeliest();
        Some(self.seating.accusation(&guess))
    }

    /// The likeliest envelope holding none of this bot's cards
    /// (`Seating::likeliest`); without a solver, the first such cards of
    /// each category.
    fn likeliest(&mut self) -> Vec<usize> {
        if let Some(notes) = self.notes.as_mut() {
            let belief = notes.belief();
            return self.seating.likeliest(&belief.solutions, belief).0;
        }
        let seating = &self.seating;
        let mut cards = Vec::new();
        for (category, &count) in seating.categories.iter().zip(&seating.setup.rules.hidden) {
            cards.extend(
                category
                    .iter()
                    .copied()
                    .filter(|&c| !seating.holds(c))
                    .take(usize::from(count)),
            );
        }
        cards
    }

    /// The card to show: one the suggester has seen from this bot already,
    /// otherwise one of the category with the most envelope candidates left.
    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        let seen = self.seating.shown_to(request.suggester);
        let card = match request
            .matching
            .iter()
            .copied()
            .find(|c| seen.contains(&c.index()))
        {
            Some(card) => card,
            None => {
                let open = |category: &[usize]| -> usize {
                    match &self.notes {
                        Some(notes) => category
                            .iter()
                            .filter(|&&c| notes.knowledge().possible(Owner::Envelope, c))
                            .count(),
                        None => category.len(),
                    }
                };
                // Rooms (the last category) first, then the others in order;
                // a stable sort keeps that order among equal counts.
                let categories = &self.seating.categories;
                let mut order: Vec<&Vec<usize>> = categories.iter().rev().take(1).collect();
                order.extend(categories.iter().take(categories.len().saturating_sub(1)));
                order.sort_by_key(|category| std::cmp::Reverse(open(category)));
                order
                    .iter()
                    .find_map(|category| {
                        request
                            .matching
                            .iter()
                            .copied()
                            .find(|c| category.contains(&c.index()))
                    })
                    .or_else(|| request.matching.first().copied())?
            }
        };
        self.seating.show(request.suggester, card);
        Some(card)
    }
}

impl Player for Rival {
    fn name(&self) -> String {
        "rival".to_string()
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
            game.interrogation(&request.opponents)?
        } else {
            seating::suggestion(&game.suggestion(request.turn.room.map(|r| r.index())))
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

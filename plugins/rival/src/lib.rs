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
//! one opponent about a list of items, chosen by the same worst case.
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
use sleuth::{Map, Notes};
use sleuth_infer::{Knowledge, Owner};

/// The sparring partner. One value plays one game at a time; `begin_game`
/// starts afresh.
#[derive(Default)]
pub struct Rival {
    game: Option<Game>,
}

/// The suggestion being answered.
struct Asked {
    suggester: usize,
    cards: Vec<usize>,
}

struct Game {
    setup: Setup,
    me: usize,
    players: usize,
    /// What this bot knows (`None` when the deck is too big for the solver:
    /// then it only plays legally).
    notes: Option<Notes>,
    /// Card ids of each category, in deck category order.
    categories: Vec<Vec<usize>>,
    map: Option<Map>,
    rng: ChaCha8Rng,
    current: Option<Asked>,
    /// This bot's suggestions so far (card ids as asked).
    made: Vec<Vec<usize>>,
    /// This bot's last suggestion and whether someone disproved it.
    last: Option<(Vec<usize>, bool)>,
    /// `shown_by_me[seat]`: cards this bot has shown that seat.
    shown_by_me: Vec<Vec<usize>>,
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
        let me = setup.seat.index();
        let players = usize::from(setup.players);
        let categories: Vec<Vec<usize>> = setup
            .deck
            .categories()
            .into_iter()
            .map(|c| setup.deck.of(c).iter().map(|card| card.index()).collect())
            .collect();
        let hidden: Vec<usize> = setup.rules.hidden.iter().map(|&h| usize::from(h)).collect();
        let sizes: Vec<usize> = setup.hand_sizes.iter().map(|&h| usize::from(h)).collect();
        let notes = Knowledge::new(&categories, &hidden, &sizes)
            .ok()
            .and_then(|mut knowledge| {
                let hand: Vec<usize> = setup.hand.iter().map(|c| c.index()).collect();
                knowledge.add_hand(me, &hand).ok()?;
                Some(Notes::new(knowledge, setup.seed))
            });
        Game {
            setup: setup.clone(),
            me,
            players,
            notes,
            categories,
            map: setup.board.as_ref().and_then(Map::new),
            rng: ChaCha8Rng::seed_from_u64(setup.seed),
            current: None,
            made: Vec::new(),
            last: None,
            shown_by_me: vec![Vec::new(); players],
        }
    }

    /// The seats that answer this bot's suggestions, in order.
    fn responders(&self) -> Vec<usize> {
        (1..self.players)
            .map(|i| (self.me + i) % self.players)
            .collect()
    }

    fn holds(&self, card: usize) -> bool {
        self.setup.hand.iter().any(|c| c.index() == card)
    }

    /// Orders envelope cards as an accusation: one per category, in category order.
    fn accusation(&self, cards: &[usize]) -> Accusation {
        let mut ordered = Vec::with_capacity(cards.len());
        for category in &self.categories {
            ordered.extend(cards.iter().copied().filter(|c| category.contains(c)));
        }
        Accusation {
            cards: ordered.into_iter().map(|c| Card(c as u16)).collect(),
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
                self.current = Some(Asked {
                    suggester: seat.index(),
                    cards: suggestion.cards.iter().map(|c| c.index()).collect(),
                });
            }
            Event::Answered {
                suggester,
                passed,
                shown_by,
                card,
            } => self.answered(suggester.index(), passed, *shown_by, *card),
            Event::Accused {
                seat,
                accusation: Some(accusation),
                correct: Some(false),
            } => {
                let cards: Vec<usize> = accusation.cards.iter().map(|c| c.index()).collect();
                let deck = self.categories.iter().map(Vec::len).sum::<usize>();
                if cards.iter().any(|&c| c >= deck) {
                    return;
                }
                if let Some(notes) = self.notes.as_mut() {
                    notes.exclude(&cards);
                }
                // Under the contest rules an accusation naming a card of one's
                // own hand is refused, so one that was made names none.
                if self.setup.rules.contest_rules && seat.index() < self.players {
                    let seat = seat.index();
                    self.learn(|k| k.add_cannot_disprove(seat, &cards));
                }
            }
            Event::HandRevealed { seat, hand } => {
                let seat = seat.index();
                let hand: Vec<usize> = hand.iter().map(|c| c.index()).collect();
                let deck = self.categories.iter().map(Vec::len).sum::<usize>();
                if seat < self.players && hand.iter().all(|&c| c < deck) {
                    self.learn(|k| k.add_hand(seat, &hand));
                }
            }
            _ => {}
        }
    }

    fn answered(
        &mut self,
        suggester: usize,
        passed: &[Seat],
        shown_by: Option<Seat>,
        card: Option<Card>,
    ) {
        let Some(asked) = self.current.take() else {
            return;
        };
        let cards = asked.cards;
        let deck = self.categories.iter().map(Vec::len).sum::<usize>();
        let valid = |c: usize| c < deck;
        if !cards.iter().all(|&c| valid(c)) || suggester != asked.suggester {
            return;
        }
        let players = self.players;
        for seat in passed.iter().map(|s| s.index()).filter(|&s| s < players) {
            self.learn(|k| k.add_cannot_disprove(seat, &cards));
        }
        if suggester == self.me {
            self.last = Some((cards.clone(), shown_by.is_some()));
        }
        let Some(seat) = shown_by.map(|s| s.index()).filter(|&s| s < players) else {
            return;
        };
        match card.map(|c| c.index()).filter(|&c| valid(c)) {
            Some(card) => self.learn(|k| k.add_has(Owner::Player(seat), card)),
            None => self.learn(|k| k.add_has_one_of(seat, &cards)),
        }
    }

    /// The best three-card suggestions (the room fixed when `room` is
    /// given): those not made yet whose worst answer leaves the fewest
    /// solutions; made ones only when every one was made.
    fn best_suggestions(&self, room: Option<usize>, candidates: &[Vec<usize>]) -> Option<Best> {
        let notes = self.notes.as_ref()?;
        let [persons, weapons, rooms] = self.categories.as_slice() else {
            return None;
        };
        let rooms = match room {
            Some(room) => vec![room],
            None => rooms.clone(),
        };
        let responders = self.responders();
        let knowledge = notes.knowledge();
        for repeats in [false, true] {
            let mut best: Option<Best> = None;
            for &r in &rooms {
                for &p in persons {
                    for &w in weapons {
                        let cards = vec![p, w, r];
                        if !repeats && self.made.contains(&cards) {
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

    /// `generalized`: the interrogation of one opponent whose worst answer
    /// leaves the fewest solutions. The lists tried for each opponent are
    /// each single item it may hold, and the items it may hold likeliest to
    /// be hidden first, 2 to 8 of them.
    fn interrogation(&mut self, opponents: &[Seat]) -> Option<Suggestion> {
        let candidates = self.candidates();
        let items = self.categories.first()?.clone();
        let mut best: Option<Best> = None;
        if let Some(notes) = self.notes.as_mut() {
            let envelope: Vec<f64> = {
                let belief = notes.belief();
                items.iter().map(|&c| belief.envelope(c)).collect()
            };
            let knowledge = notes.knowledge();
            for target in opponents.iter().map(|s| s.index()) {
                if target >= self.players {
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
        let (target, list) = match best.and_then(|b| b.ties.choose(&mut self.rng).cloned()) {
            Some(mut question) => {
                let target = question.pop()?;
                (target, question)
            }
            None => {
                // Nothing left to learn: ask about a card of our own (a safe "no").
                let item = self
                    .setup
                    .hand
                    .first()
                    .map(|c| c.index())
                    .or_else(|| items.first().copied())?;
                (opponents.first()?.index(), vec![item])
            }
        };
        Some(Suggestion {
            cards: list.into_iter().map(|c| Card(c as u16)).collect(),
            target: Some(Seat(target as u8)),
        })
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        let Some(fallback) = request.targets.first().copied() else {
            return request
                .turn
                .position
                .unwrap_or(Position::Cell { row: 0, col: 0 });
        };
        let Some(map) = self.map.take() else {
            return fallback;
        };
        let rooms = map.rooms().to_vec();
        let values = self.room_values(&rooms);
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
        self.map = Some(map);
        best.0
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
        let certain = self.notes.as_mut().and_then(Notes::certain);
        if let Some(cards) = certain {
            if !cards.iter().any(|&c| self.holds(c)) {
                return Some(self.accusation(&cards));
            }
        }
        let forced = request.point == AccusePoint::Forced;
        // Out of UniClue queries: a guess beats the certain disqualification.
        let limit = self.setup.rules.query_limit.map(|l| l as usize);
        let out_of_queries =
            self.setup.variant == Variant::Uniclue && limit.is_some_and(|l| self.made.len() >= l);
        if !forced && !out_of_queries {
            return None;
        }
        if forced && self.setup.variant == Variant::Speedclue {
            if let Some((cards, false)) = &self.last {
                if !cards.iter().any(|&c| self.holds(c)) {
                    return Some(self.accusation(cards));
                }
            }
        }
        let guess = self.likeliest();
        Some(self.accusation(&guess))
    }

    /// The likeliest envelope holding none of this bot's cards.
    fn likeliest(&mut self) -> Vec<usize> {
        let hand: Vec<usize> = self.setup.hand.iter().map(|c| c.index()).collect();
        let mut cards = Vec::new();
        if let Some(notes) = self.notes.as_mut() {
            let belief = notes.belief();
            if let Some((envelope, _)) = belief
                .solutions
                .iter()
                .find(|(cards, _)| !cards.iter().any(|c| hand.contains(c)))
            {
                return envelope.clone();
            }
            // No listed envelope: the likeliest cards of each category.
            for (category, &count) in self.categories.iter().zip(&self.setup.rules.hidden) {
                let mut pool: Vec<usize> = category
                    .iter()
                    .copied()
                    .filter(|c| !hand.contains(c))
                    .collect();
                pool.sort_by(|&a, &b| belief.envelope(b).total_cmp(&belief.envelope(a)));
                cards.extend(pool.into_iter().take(usize::from(count)));
            }
            return cards;
        }
        for (category, &count) in self.categories.iter().zip(&self.setup.rules.hidden) {
            cards.extend(
                category
                    .iter()
                    .copied()
                    .filter(|c| !hand.contains(c))
                    .take(usize::from(count)),
            );
        }
        cards
    }

    /// The card to show: one the suggester has seen from this bot already,
    /// otherwise one of the category with the most envelope candidates left.
    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        let asker = request.suggester.index();
        let seen = self.shown_by_me.get(asker).cloned().unwrap_or_default();
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
                let mut order: Vec<&Vec<usize>> = self.categories.iter().rev().take(1).collect();
                order.extend(
                    self.categories
                        .iter()
                        .take(self.categories.len().saturating_sub(1)),
                );
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
        if let Some(seen) = self.shown_by_me.get_mut(asker) {
            if !seen.contains(&card.index()) {
                seen.push(card.index());
            }
        }
        Some(card)
    }
}

impl Player for Rival {
    fn name(&self) -> String {
        "rival".to_string()
    }

    fn begin_game(&mut self, setup: &Setup) {
        self.game = Some(Game::new(setup));
    }

    fn accuse(&mut self, request: &AccuseRequest) -> Option<Accusation> {
        self.game.as_mut()?.accuse(request)
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
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
        let game = self.game.as_mut()?;
        if !request.opponents.is_empty() || game.setup.variant == Variant::Generalized {
            let suggestion = game.interrogation(&request.opponents)?;
            game.made
                .push(suggestion.cards.iter().map(|c| c.index()).collect());
            return Some(suggestion);
        }
        let cards = game.suggestion(request.turn.room.map(|r| r.index()));
        game.made.push(cards.clone());
        Some(Suggestion {
            cards: cards.into_iter().map(|c| Card(c as u16)).collect(),
            target: None,
        })
    }

    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        match self.game.as_mut() {
            Some(game) => game.respond(request),
            None => request.matching.first().copied(),
        }
    }

    fn watch(&mut self, event: &Event) {
        if let Some(game) = self.game.as_mut() {
            game.watch(event);
        }
    }
}

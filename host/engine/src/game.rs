//! The game state and the plumbing every turn uses: calling bots, emitting
//! events, disqualifying seats and deciding when the game is over.

use clue_plugin_api::{
    Card, Deck, DqReason, Event, Position, Reply, Request, Rules, Seat, Setup, Suggestion, Variant,
};
use rand::{Rng, RngExt};
use rand_chacha::ChaCha8Rng;

use crate::config::{ConfigError, GameConfig};
use crate::deal::{self, Deal};
use crate::log::LogEntry;
use crate::record::{GameRecord, Outcome, SeatRecord};
use crate::rng::{self, Stream};
use crate::seat::SeatController;
use crate::topology::Topology;
use crate::validate;

/// Where a seat stands in the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// Takes turns.
    Playing,
    /// Made a wrong accusation: no more turns, still answers and watches.
    Eliminated,
    /// `generalized`: guessed; out, hand revealed, no longer asked anything.
    Guessed { correct: bool, order: u32 },
    /// No longer contacted; the engine answers for it.
    Disqualified(DqReason),
}

pub(crate) struct SeatState {
    pub hand: Vec<Card>,
    pub status: Status,
    /// Index of this seat's controller; `None` for seats the server plays (`uniclue`).
    pub controller: Option<usize>,
    pub detail: Option<String>,
    pub suggestions: Vec<Suggestion>,
    pub turns: u32,
    pub calls: u32,
    /// `uniclue`: the cards this seat has already shown the client.
    pub shown_to_client: Vec<Card>,
    /// Under Speed Clue's contest rules, the cards shown to this seat when it
    /// suggested, and who showed each: with its hand, what the 2014
    /// contest's judge calls the cards it has seen, which it may not accuse.
    pub shown: Vec<(Card, Seat)>,
    pub position: Option<Position>,
    /// `classic`: moved into a room by someone else's suggestion since its last turn.
    pub summoned: bool,
}

pub(crate) enum Ending {
    Winner(Seat),
    Draw,
    /// `generalized`: everyone has guessed; ranks come from the guesses.
    AllGuessed,
}

pub(crate) struct Game<'a, 'b> {
    pub config: &'a GameConfig,
    pub deck: Deck,
    pub hidden: Vec<u8>,
    pub deal: Deal,
    pub seats: Vec<SeatState>,
    pub controllers: &'a mut [Box<dyn SeatController + 'b>],
    /// Told of every event as it is logged (a live spectator).
    pub observer: &'a mut dyn FnMut(&LogEntry),
    pub topology: Topology,
    pub dice: ChaCha8Rng,
    pub log: Vec<LogEntry>,
    pub round: u32,
    pub ending: Option<Ending>,
    pub guesses: u32,
    /// `uniclue`: position in the room sequence.
    pub room_cursor: usize,
    /// While the seats are being begun: the disqualifications so far, shown
    /// to everyone once every seat has had its `begin-game` (a seat must
    /// not be shown an event before its game has begun).
    pub held: Option<Vec<(Seat, DqReason)>>,
}

/// Checks `config` as [`play`] does before the first deal: its options, and
/// the board it names (a board file's errors carry that file's line and
/// column). Tools that load a configuration long before playing it (a
/// tournament file) call this to fail at load time.
pub fn check(config: &GameConfig) -> Result<(), ConfigError> {
    config.validate()?;
    deck(config, &Topology::build(config, 0)?).map(|_| ())
}

/// The deck a game of `config` on `topology` is played with, refused if a
/// hand dealt from it would not fit the wire form (`validate` checked the
/// decks options make; this also checks a board's and a framework table's).
fn deck(config: &GameConfig, topology: &Topology) -> Result<Deck, ConfigError> {
    let deck = match config.standard_deck() {
        Some(deck) => deck,
        None => topology
            .deck()
            .ok_or(ConfigError::NoBoard(config.variant))?,
    };
    let hidden = config
        .hidden_counts(&deck)
        .iter()
        .map(|&h| usize::from(h))
        .sum();
    config.check_deal(deck.len(), hidden)?;
    Ok(deck)
}

/// The seats of a variant that a bot plays: all of them, except in `uniclue`,
/// where only seat 0 (the client) is a bot and the server plays the rest.
pub fn acting_seats(config: &GameConfig) -> usize {
    match config.variant {
        Variant::Uniclue => 1,
        _ => usize::from(config.players),
    }
}

/// Why a game could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("{variant} with {players} players needs {needed} bots, got {given}")]
    Bots {
        variant: Variant,
        players: u8,
        needed: usize,
        given: usize,
    },
}

/// Plays one game to the end. `controllers` holds one bot per acting seat, in
/// seat order. The same config, seed and bot decisions give the same record.
pub fn play(
    config: &GameConfig,
    seed: u64,
    controllers: &mut [Box<dyn SeatController + '_>],
) -> Result<GameRecord, StartError> {
    play_observed(config, seed, controllers, &mut |_| {})
}

/// [`play`], telling `observer` of every log entry (the whole event and who
/// saw it) as soon as it is logged, before the seats are shown it: what a
/// spectator of a running game sees.
pub fn play_observed(
    config: &GameConfig,
    seed: u64,
    controllers: &mut [Box<dyn SeatController + '_>],
    observer: &mut dyn FnMut(&LogEntry),
) -> Result<GameRecord, StartError> {
    config.validate()?;
    let needed = acting_seats(config);
    if controllers.len() != needed {
        return Err(StartError::Bots {
            variant: config.variant,
            players: config.players,
            needed,
            given: controllers.len(),
        });
    }
    let topology = Topology::build(config, seed)?;
    let deck = deck(config, &topology)?;
    let hidden = config.hidden_counts(&deck);
    let players = usize::from(config.players);
    let deal = match &config.deal {
        Some(hands) if hands.len() == players => {
            deal::fixed(&deck, &hidden, hands).map_err(ConfigError::Deal)?
        }
        Some(hands) => {
            return Err(ConfigError::Deal(format!(
                "{} hands given for {players} players",
                hands.len()
            ))
            .into());
        }
        None => deal::deal(
            &deck,
            &hidden,
            players,
            &mut rng::stream(seed, Stream::Deal),
        ),
    };
    let starts = topology.starts(players, &mut rng::stream(seed, Stream::Starts));
    let seats = (0..players)
        .map(|s| SeatState {
            hand: deal.hands[s].clone(),
            status: Status::Playing,
            controller: (s < needed).then_some(s),
            detail: None,
            suggestions: Vec::new(),
            turns: 0,
            calls: 0,
            shown_to_client: Vec::new(),
            shown: Vec::new(),
            position: starts.get(s).copied(),
            summoned: false,
        })
        .collect();
    let mut game = Game {
        config,
        deck,
        hidden,
        deal,
        seats,
        controllers,
        observer,
        topology,
        dice: rng::stream(seed, Stream::Dice),
        log: Vec::new(),
        round: 0,
        ending: None,
        guesses: 0,
        room_cursor: 0,
        held: None,
    };
    game.begin(seed);
    game.run();
    Ok(game.finish(seed))
}

impl Game<'_, '_> {
    pub fn players(&self) -> usize {
        self.seats.len()
    }

    pub fn all_seats(&self) -> Vec<Seat> {
        (0..self.players()).map(|s| Seat(s as u8)).collect()
    }

    /// Whether the seat's bot is still contacted.
    pub fn reachable(&self, seat: Seat) -> bool {
        let state = &self.seats[seat.index()];
        state.controller.is_some() && matches!(state.status, Status::Playing | Status::Eliminated)
    }

    pub fn in_play(&self, seat: Seat) -> bool {
        self.seats[seat.index()].status == Status::Playing
    }

    /// `generalized`: whether the seat's hand is still hidden from the table,
    /// so it may be interrogated: it has not guessed (a guess reveals it).
    pub fn holds_hidden_hand(&self, seat: Seat) -> bool {
        !matches!(self.seats[seat.index()].status, Status::Guessed { .. })
    }

    fn rules(&self) -> Rules {
        self.config.rules(&self.deck)
    }

    pub fn contest_rules(&self) -> bool {
        self.config.variant == Variant::Speedclue && self.config.speedclue.contest_rules
    }

    fn begin(&mut self, seed: u64) {
        let mut bot_seeds = rng::stream(seed, Stream::BotSeeds);
        // `deck` refused a deal of a hand past a byte (`MAX_HAND`).
        let hand_sizes: Vec<u8> = self.seats.iter().map(|s| s.hand.len() as u8).collect();
        let starts: Vec<Position> = self.seats.iter().filter_map(|s| s.position).collect();
        let board = self.topology.view();
        self.held = Some(Vec::new());
        for s in 0..self.players() {
            let bot_seed = bot_seeds.next_u64();
            if self.seats[s].controller.is_none() {
                continue;
            }
            let setup = Setup {
                variant: self.config.variant,
                rules: self.rules(),
                players: self.config.players,
                seat: Seat(s as u8),
                deck: self.deck.clone(),
                hand: self.seats[s].hand.clone(),
                hand_sizes: hand_sizes.clone(),
                board: board.clone(),
                starts: starts.clone(),
                seed: bot_seed,
            };
            let request = Request::BeginGame {
                setup: Box::new(setup),
            };
            self.decide(Seat(s as u8), &request);
        }
        let everyone = self.all_seats();
        for (seat, reason) in self.held.take().unwrap_or_default() {
            self.emit(
                Event::Disqualified { seat, reason },
                everyone.clone(),
                Vec::new(),
            );
        }
    }

    /// Makes one request of a seat's bot. `None` when the seat is not reachable
    /// or its bot failed (the seat is then disqualified).
    pub fn call(&mut self, seat: Seat, request: &Request) -> Option<Reply> {
        if !self.reachable(seat) {
            return None;
        }
        let index = self.seats[seat.index()].controller?;
        self.seats[seat.index()].calls += 1;
        match self.controllers[index].call(request) {
            Ok(reply) => Some(reply),
            Err(fault) => {
                self.disqualify(seat, fault.reason, fault.detail);
                None
            }
        }
    }

    /// Makes one request of a seat's bot and judges the reply by the rules
    /// ([`validate::reply`]). `None` when the seat is not reachable, its bot
    /// failed, or the reply breaks a rule (the seat is then disqualified for
    /// it), so a reply returned is of the request's kind and legal.
    pub fn decide(&mut self, seat: Seat, request: &Request) -> Option<Reply> {
        let reply = self.call(seat, request)?;
        let state = &self.seats[seat.index()];
        let judge = validate::Judge {
            variant: self.config.variant,
            deck: &self.deck,
            hidden: &self.hidden,
            contest_rules: self.contest_rules(),
            hand: &state.hand,
            suggestions: &state.suggestions,
            shown: &state.shown,
        };
        match validate::reply(&judge, request, &reply) {
            Ok(()) => Some(reply),
            Err(violation) => {
                // The cards as the seat's protocol writes them.
                let controller = state.controller.map(|i| &self.controllers[i]);
                let detail = violation.detail_as(&self.deck, &|card| {
                    controller.and_then(|c| c.card_word(card))
                });
                self.disqualify(seat, violation.reason(self.config.variant), detail);
                None
            }
        }
    }

    pub fn disqualify(&mut self, seat: Seat, reason: DqReason, detail: String) {
        let state = &mut self.seats[seat.index()];
        if matches!(state.status, Status::Disqualified(_)) {
            return;
        }
        state.status = Status::Disqualified(reason);
        state.detail = Some(detail);
        if let Some(held) = &mut self.held {
            held.push((seat, reason));
            return;
        }
        let everyone = self.all_seats();
        self.emit(Event::Disqualified { seat, reason }, everyone, Vec::new());
    }

    /// Logs an event and shows it to every reachable seat entitled to it, in seat order.
    pub fn emit(&mut self, event: Event, seen_by: Vec<Seat>, partly_seen_by: Vec<Seat>) {
        let entry = LogEntry {
            event,
            seen_by,
            partly_seen_by,
        };
        let views: Vec<(Seat, Event)> = self
            .all_seats()
            .into_iter()
            .filter_map(|s| entry.view_for(s).map(|view| (s, view)))
            .collect();
        (self.observer)(&entry);
        self.log.push(entry);
        for (seat, event) in views {
            let request = Request::Watch { event };
            self.decide(seat, &request);
        }
    }

    /// Rolls the variant's die, if it has one.
    pub fn roll(&mut self) -> Option<u8> {
        let sides = match self.config.variant {
            Variant::Classic | Variant::Csci306 => 6,
            Variant::Framework => 12,
            Variant::Cyberclue => 4,
            _ => return None,
        };
        Some(self.dice.random_range(1..=sides))
    }

    fn run(&mut self) {
        let players = self.players();
        'game: for round in 1..=self.config.max_rounds {
            self.round = round;
            let mut anyone = false;
            for s in 0..players {
                let seat = Seat(s as u8);
                if !self.takes_turns(seat) {
                    continue;
                }
                anyone = true;
                self.seats[s].turns += 1;
                self.turn(seat);
                if self.ending.is_none() {
                    self.ending = self.check_end();
                }
                if self.ending.is_some() {
                    break 'game;
                }
            }
            if !anyone {
                break;
            }
        }
        if self.ending.is_none() {
            self.ending = Some(self.at_limit());
        }
    }

    pub fn takes_turns(&self, seat: Seat) -> bool {
        self.in_play(seat) && self.seats[seat.index()].controller.is_some()
    }

    /// Whether the game is over after a turn (apart from a correct accusation).
    fn check_end(&self) -> Option<Ending> {
        let in_play: Vec<Seat> = self
            .all_seats()
            .into_iter()
            .filter(|&s| self.takes_turns(s))
            .collect();
        match self.config.variant {
            Variant::Generalized => in_play.is_empty().then_some(Ending::AllGuessed),
            Variant::Uniclue => in_play.is_empty().then_some(Ending::Draw),
            _ => match in_play.as_slice() {
                [] => Some(Ending::Draw),
                [last] => Some(Ending::Winner(*last)),
                _ => None,
            },
        }
    }

    /// The turn limit is reached: a draw, or in `generalized` everyone left guesses.
    fn at_limit(&mut self) -> Ending {
        if self.config.variant != Variant::Generalized {
            return Ending::Draw;
        }
        for s in 0..self.players() {
            let seat = Seat(s as u8);
            if self.takes_turns(seat) {
                self.forced_guess(seat);
            }
        }
        Ending::AllGuessed
    }

    fn finish(mut self, seed: u64) -> GameRecord {
        let players = self.players();
        let mut ranks = vec![2u8; players];
        let mut outcomes: Vec<Outcome> = self
            .seats
            .iter()
            .map(|s| match s.status {
                Status::Playing => Outcome::Lost,
                Status::Eliminated => Outcome::WrongAccusation,
                Status::Guessed { correct: true, .. } => Outcome::GuessedRight,
                Status::Guessed { correct: false, .. } => Outcome::WrongAccusation,
                Status::Disqualified(reason) => Outcome::Disqualified(reason),
            })
            .collect();
        let (winner, ranking) = match self.ending {
            Some(Ending::Winner(w)) => {
                ranks.iter_mut().for_each(|r| *r = 2);
                ranks[w.index()] = 1;
                outcomes[w.index()] = Outcome::Won;
                let mut ranking = vec![w];
                ranking.extend(self.all_seats().into_iter().filter(|&s| s != w));
                (Some(w), ranking)
            }
            Some(Ending::AllGuessed) => {
                let ranking = self.guess_ranking();
                for (i, seat) in ranking.iter().enumerate() {
                    ranks[seat.index()] = (i + 1) as u8;
                }
                // Disqualified seats that never guessed share the last place.
                let last = (ranking.len() + 1) as u8;
                for (s, rank) in ranks.iter_mut().enumerate() {
                    if !ranking.contains(&Seat(s as u8)) {
                        *rank = last;
                    }
                }
                let winner = ranking.first().copied().filter(|w| {
                    matches!(
                        self.seats[w.index()].status,
                        Status::Guessed { correct: true, .. }
                    )
                });
                if let Some(w) = winner {
                    outcomes[w.index()] = Outcome::Won;
                }
                (winner, ranking)
            }
            Some(Ending::Draw) | None => {
                ranks.iter_mut().for_each(|r| *r = 1);
                (None, Vec::new())
            }
        };
        let everyone = self.all_seats();
        self.emit(
            Event::GameOver {
                winner,
                ranking,
                envelope: self.deal.envelope.clone(),
            },
            everyone,
            Vec::new(),
        );
        let seats = self
            .seats
            .iter()
            .enumerate()
            .map(|(s, state)| SeatRecord {
                seat: Seat(s as u8),
                outcome: outcomes[s],
                rank: ranks[s],
                detail: state.detail.clone(),
                turns: state.turns,
                calls: state.calls,
                suggestions: state.suggestions.len() as u32,
                stderr: self
                    .controllers
                    .get(s)
                    .and_then(|c| c.stderr())
                    .filter(|text| !text.is_empty()),
            })
            .collect();
        GameRecord {
            config: self.config.clone(),
            seed,
            deck: self.deck.clone(),
            envelope: self.deal.envelope.clone(),
            hands: self.deal.hands.clone(),
            winner,
            rounds: self.round,
            seats,
            log: self.log,
        }
    }

    /// `generalized` ranking: right guessers in guessing order, then wrong
    /// guessers in reverse guessing order.
    fn guess_ranking(&self) -> Vec<Seat> {
        let mut right = Vec::new();
        let mut wrong = Vec::new();
        for (s, state) in self.seats.iter().enumerate() {
            if let Status::Guessed { correct, order } = state.status {
                if correct {
                    right.push((order, Seat(s as u8)));
                } else {
                    wrong.push((order, Seat(s as u8)));
                }
            }
        }
        right.sort();
        wrong.sort_by(|a, b| b.cmp(a));
        right.into_iter().chain(wrong).map(|(_, s)| s).collect()
    }
}

//! One turn of each variant: the order of rolling, accusing, moving and
//! suggesting, and the disprove round.

use clue_plugin_api::{
    Accusation, AccusePoint, AccuseRequest, Card, DqReason, Event, MoveRequest, Position, Reply,
    Request, RespondRequest, Seat, SuggestRequest, Suggestion, Turn, Variant,
};

use crate::game::{Ending, Game, Status};
use crate::validate;

impl Game<'_, '_> {
    pub(crate) fn turn(&mut self, seat: Seat) {
        match self.config.variant {
            Variant::Speedclue => self.speedclue_turn(seat),
            Variant::Generalized => self.generalized_turn(seat),
            Variant::Uniclue => self.uniclue_turn(seat),
            Variant::Classic | Variant::Csci306 | Variant::Framework | Variant::Cyberclue => {
                self.board_turn(seat)
            }
        }
    }

    fn new_turn(&mut self, seat: Seat, roll: Option<u8>, room: Option<Card>) -> Turn {
        let position = self.seats[seat.index()].position;
        self.emit(
            Event::TurnBegan {
                seat,
                round: self.round,
                roll,
                room: room.filter(|_| self.config.variant == Variant::Uniclue),
            },
            self.all_seats(),
            Vec::new(),
        );
        Turn {
            seat,
            round: self.round,
            roll,
            position,
            room,
        }
    }

    /// Speed Clue: suggest anything, the disprove round, then an optional
    /// (or, under the contest rules, forced) accusation.
    fn speedclue_turn(&mut self, seat: Seat) {
        let turn = self.new_turn(seat, None, None);
        let Some(suggestion) = self.ask_suggestion(&turn, false, Vec::new()) else {
            return;
        };
        let shown_by = self.disprove(seat, &suggestion);
        if !self.reachable(seat) {
            return;
        }
        let hand = &self.seats[seat.index()].hand;
        let forced = self.contest_rules()
            && shown_by.is_none()
            && !suggestion.cards.iter().any(|c| hand.contains(c));
        let point = if forced {
            AccusePoint::Forced
        } else {
            AccusePoint::AfterSuggestion
        };
        self.offer_accusation(&turn, point);
    }

    /// Generalized Clue: guess the hidden items, or interrogate one opponent.
    ///
    /// Every other seat that has not guessed may be interrogated, a
    /// disqualified one too: RULES.md section 1 keeps a seat's cards in the
    /// game after it can no longer answer, and the engine answers for it
    /// (`disprove`). A seat that guessed has shown its hand to everyone.
    fn generalized_turn(&mut self, seat: Seat) {
        let turn = self.new_turn(seat, None, None);
        let opponents: Vec<Seat> = self
            .all_seats()
            .into_iter()
            .filter(|&s| s != seat && self.holds_hidden_hand(s))
            .collect();
        if opponents.is_empty() {
            self.forced_guess(seat);
            return;
        }
        if self.offer_accusation(&turn, AccusePoint::StartOfTurn) {
            return;
        }
        if let Some(suggestion) = self.ask_suggestion(&turn, false, opponents) {
            self.disprove(seat, &suggestion);
        }
    }

    /// `generalized` at the turn limit (or with nobody left to interrogate).
    pub(crate) fn forced_guess(&mut self, seat: Seat) {
        let turn = Turn {
            seat,
            round: self.round,
            roll: None,
            position: None,
            room: None,
        };
        self.offer_accusation(&turn, AccusePoint::Forced);
    }

    /// UniClue: the server names the client's room; the client queries it or accuses.
    fn uniclue_turn(&mut self, seat: Seat) {
        let room = self.next_uniclue_room();
        let turn = self.new_turn(seat, None, Some(room));
        if self.offer_accusation(&turn, AccusePoint::StartOfTurn) {
            return;
        }
        let made = self.seats[seat.index()].suggestions.len() as u32;
        if made >= self.config.uniclue.query_limit {
            let detail = format!(
                "made {made} queries and queried again (the limit is {})",
                self.config.uniclue.query_limit
            );
            self.disqualify(seat, DqReason::QueryLimit, detail);
            return;
        }
        if let Some(suggestion) = self.ask_suggestion(&turn, false, Vec::new()) {
            self.disprove(seat, &suggestion);
        }
    }

    fn next_uniclue_room(&mut self) -> Card {
        let rooms = self.deck.of(clue_plugin_api::Category::Room);
        let sequence = &self.config.uniclue.rooms;
        let number = match sequence.get(self.room_cursor) {
            Some(&n) => usize::from(n),
            None => (self.room_cursor - sequence.len()) % 9 + 1,
        };
        self.room_cursor += 1;
        rooms[(number - 1).min(rooms.len() - 1)]
    }

    /// The board variants: roll, (accuse), move, suggest in the room reached, (accuse).
    fn board_turn(&mut self, seat: Seat) {
        let variant = self.config.variant;
        let roll = self.roll();
        let here = self.seats[seat.index()].position;
        let turn = self.new_turn(seat, roll, here.and_then(|p| self.topology.room_at(p)));
        let accuse_first = matches!(
            variant,
            Variant::Framework | Variant::Csci306 | Variant::Classic
        );
        if accuse_first && self.offer_accusation(&turn, AccusePoint::StartOfTurn) {
            return;
        }
        let stay_allowed = variant == Variant::Framework
            || (variant == Variant::Classic && self.seats[seat.index()].summoned);
        self.seats[seat.index()].summoned = false;
        let Some(to) = self.move_seat(&turn, stay_allowed) else {
            return;
        };
        let room = self.topology.room_at(to);
        let entered = to != here.unwrap_or(to) || (stay_allowed && room.is_some());
        if let (Some(room), true) = (room, entered) {
            let turn = Turn {
                position: Some(to),
                room: Some(room),
                ..turn.clone()
            };
            let optional = variant != Variant::Framework;
            if let Some(suggestion) = self.ask_suggestion(&turn, optional, Vec::new()) {
                self.summon(seat, &suggestion, to);
                self.disprove(seat, &suggestion);
            }
        }
        if matches!(variant, Variant::Classic | Variant::Cyberclue) && self.reachable(seat) {
            let turn = Turn {
                position: Some(to),
                room,
                ..turn
            };
            self.offer_accusation(&turn, AccusePoint::AfterSuggestion);
        }
    }

    /// Asks for a move among the legal targets and applies it. `None` when the
    /// seat was disqualified.
    fn move_seat(&mut self, turn: &Turn, stay_allowed: bool) -> Option<Position> {
        let seat = turn.seat;
        let from = turn.position?;
        let occupied: Vec<Position> = (0..self.players())
            .filter(|&s| s != seat.index())
            .filter_map(|s| self.seats[s].position)
            .collect();
        let mut targets = self
            .topology
            .targets(from, turn.roll.unwrap_or(0), &occupied);
        if stay_allowed && !targets.contains(&from) {
            targets.push(from);
            targets.sort();
        }
        if targets.is_empty() {
            return Some(from);
        }
        let request = Request::Move(MoveRequest {
            turn: turn.clone(),
            targets,
        });
        let Reply::Move { to } = self.decide(seat, &request)? else {
            return None;
        };
        self.seats[seat.index()].position = Some(to);
        self.emit(Event::Moved { seat, to }, self.all_seats(), Vec::new());
        Some(to)
    }

    /// Moves the suggested person's token into the suggestion's room.
    fn summon(&mut self, suggester: Seat, suggestion: &Suggestion, room: Position) {
        let Some(&person) = suggestion.cards.first() else {
            return;
        };
        let index = self
            .deck
            .of(clue_plugin_api::Category::Person)
            .iter()
            .position(|&p| p == person);
        let summoned = index
            .filter(|&i| i < self.players() && i != suggester.index())
            .map(|i| Seat(i as u8));
        if self.config.variant == Variant::Framework {
            return;
        }
        if let Some(s) = summoned {
            if self.seats[s.index()].position != Some(room) {
                self.seats[s.index()].position = Some(room);
                self.seats[s.index()].summoned = true;
            }
        }
        self.emit(
            Event::TokenMoved {
                person,
                to: room,
                summoned,
            },
            self.all_seats(),
            Vec::new(),
        );
    }

    /// Asks for a suggestion and validates it. `None` when there is none (declined
    /// where optional, or the seat was disqualified).
    fn ask_suggestion(
        &mut self,
        turn: &Turn,
        optional: bool,
        opponents: Vec<Seat>,
    ) -> Option<Suggestion> {
        let seat = turn.seat;
        let request = Request::Suggest(SuggestRequest {
            turn: turn.clone(),
            optional,
            opponents,
        });
        let Reply::Suggest { suggestion } = self.decide(seat, &request)? else {
            return None;
        };
        let suggestion = suggestion?;
        self.seats[seat.index()]
            .suggestions
            .push(suggestion.clone());
        self.emit(
            Event::Suggested {
                seat,
                suggestion: suggestion.clone(),
            },
            self.all_seats(),
            Vec::new(),
        );
        Some(suggestion)
    }

    /// The disprove round. Returns the seat that showed a card, if any.
    fn disprove(&mut self, suggester: Seat, suggestion: &Suggestion) -> Option<Seat> {
        let players = self.players();
        let order: Vec<Seat> = match suggestion.target {
            Some(target) => vec![target],
            None => (1..players)
                .map(|i| Seat(((suggester.index() + i) % players) as u8))
                .collect(),
        };
        let mut passed = Vec::new();
        for seat in order {
            let matching: Vec<Card> = self.seats[seat.index()]
                .hand
                .iter()
                .copied()
                .filter(|c| suggestion.cards.contains(c))
                .collect();
            if matching.is_empty() {
                passed.push(seat);
                continue;
            }
            let card = self.shown_card(seat, suggester, suggestion, matching);
            if self.contest_rules() {
                self.seats[suggester.index()].shown.push((card, seat));
            }
            let (seen_by, partly) = if self.config.variant == Variant::Csci306 {
                (self.all_seats(), Vec::new())
            } else {
                let others = self
                    .all_seats()
                    .into_iter()
                    .filter(|&s| s != suggester && s != seat)
                    .collect();
                (vec![suggester, seat], others)
            };
            self.emit(
                Event::Answered {
                    suggester,
                    passed,
                    shown_by: Some(seat),
                    card: Some(card),
                },
                seen_by,
                partly,
            );
            return Some(seat);
        }
        self.emit(
            Event::Answered {
                suggester,
                passed,
                shown_by: None,
                card: None,
            },
            self.all_seats(),
            Vec::new(),
        );
        None
    }

    /// The card `seat` shows: its bot's choice, validated; or, for a seat that
    /// cannot answer, the first matching card in hand order (the `uniclue`
    /// server prefers a card it has already shown the client).
    fn shown_card(
        &mut self,
        seat: Seat,
        suggester: Seat,
        suggestion: &Suggestion,
        matching: Vec<Card>,
    ) -> Card {
        let fallback = matching[0];
        if self.seats[seat.index()].controller.is_none() {
            let state = &mut self.seats[seat.index()];
            let card = matching
                .iter()
                .copied()
                .find(|c| state.shown_to_client.contains(c))
                .unwrap_or(fallback);
            if !state.shown_to_client.contains(&card) {
                state.shown_to_client.push(card);
            }
            return card;
        }
        let request = Request::Respond(RespondRequest {
            suggester,
            suggestion: suggestion.clone(),
            matching: matching.clone(),
        });
        match self.decide(seat, &request) {
            Some(Reply::Respond { card: Some(card) }) => card,
            _ => fallback,
        }
    }

    /// Offers an accusation. Returns whether the turn is over because of it.
    fn offer_accusation(&mut self, turn: &Turn, point: AccusePoint) -> bool {
        let seat = turn.seat;
        let request = Request::Accuse(AccuseRequest {
            turn: turn.clone(),
            point,
        });
        let Some(Reply::Accuse { accusation }) = self.decide(seat, &request) else {
            return true;
        };
        match accusation {
            Some(accusation) => {
                self.accuse(seat, accusation);
                true
            }
            None => false,
        }
    }

    /// Applies an accusation `decide` has judged legal: right, it wins the
    /// game; wrong, it eliminates the seat (in `csci306` the seat plays on,
    /// in `generalized` every guess is ranked at the end).
    fn accuse(&mut self, seat: Seat, accusation: Accusation) {
        let correct = validate::same_cards(&accusation.cards, &self.deal.envelope);
        let everyone = self.all_seats();
        let event = Event::Accused {
            seat,
            accusation: Some(accusation),
            correct: Some(correct),
        };
        match self.config.variant {
            Variant::Generalized => {
                // Nobody learns the guess or whether it was right; the hand is shown.
                self.emit(event, Vec::new(), everyone.clone());
                self.guesses += 1;
                self.seats[seat.index()].status = Status::Guessed {
                    correct,
                    order: self.guesses,
                };
                let hand = self.seats[seat.index()].hand.clone();
                let watchers = everyone.into_iter().filter(|&s| self.in_play(s)).collect();
                self.emit(Event::HandRevealed { seat, hand }, watchers, Vec::new());
            }
            Variant::Csci306 if !correct => {
                // Only the accuser is told; it keeps playing.
                self.emit(event, vec![seat], Vec::new());
            }
            _ => {
                self.emit(event, everyone, Vec::new());
                if correct {
                    self.ending = Some(Ending::Winner(seat));
                } else {
                    self.seats[seat.index()].status = Status::Eliminated;
                }
            }
        }
    }
}

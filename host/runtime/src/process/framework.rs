//! The text protocol of the Clue AI framework (`seeds/000`, `docs/framework.md`),
//! for the `framework` variant. The host plays the framework's engine: it
//! tells the bot its id, the table, the board, the names and its cards, then
//! asks `Move <time> <roll>` once per turn and `Disprove ...` when the bot
//! must show a card, and tells it what the others did.
//!
//! The engine asks a framework seat three things per turn (accuse, move,
//! suggest); the bot answers all three with its one reply to `Move`:
//! `Accusation p w r`, `Move y x`, `Move y x p w r` or `Guess p w r`. The
//! reply is parsed (a syntax error is `protocol-error`, quoting the line) and
//! handed to the engine piece by piece, which validates it.

use clue_engine::Fault;
use clue_plugin_api::{
    Accusation, AccusePoint, BoardView, Card, Category, Deck, DqReason, Event, MoveRequest,
    Position, Reply, Request, RespondRequest, Seat, Setup, Suggestion,
};

use super::{BotProcess, ProcessLimits, SpawnError, StderrTap, clip, own_print, split_command};
use crate::sticky::{Exchange, Sticky};

/// The categories in the protocol's card `type` order: 0 person, 1 weapon, 2 room.
pub const TYPES: [Category; 3] = [Category::Person, Category::Weapon, Category::Room];

/// A bot's answer to `Move <time> <roll>`, as written (numbers not yet checked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TurnReply {
    /// `Accusation p w r`
    Accusation([i64; 3]),
    /// `Move y x`, or `Move y x p w r` (move, then guess)
    Move {
        y: i64,
        x: i64,
        guess: Option<[i64; 3]>,
    },
    /// `Guess p w r`: stay and guess
    Guess([i64; 3]),
}

/// Parses the answer to `Move`; extra whitespace is fine.
pub fn parse_turn(line: &str) -> Option<TurnReply> {
    let mut words = line.split_whitespace();
    let keyword = words.next()?;
    let numbers: Vec<i64> = words.map(|w| w.parse().ok()).collect::<Option<_>>()?;
    match (keyword, numbers.as_slice()) {
        ("Accusation", &[p, w, r]) => Some(TurnReply::Accusation([p, w, r])),
        ("Guess", &[p, w, r]) => Some(TurnReply::Guess([p, w, r])),
        ("Move", &[y, x]) => Some(TurnReply::Move { y, x, guess: None }),
        ("Move", &[y, x, p, w, r]) => Some(TurnReply::Move {
            y,
            x,
            guess: Some([p, w, r]),
        }),
        _ => None,
    }
}

/// Parses the answer to `Disprove`: `Disprove N` or a bare `N`, `N` being
/// -1 (no card) or a card type 0, 1 or 2.
pub fn parse_disprove(line: &str) -> Option<i8> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let number = match words.as_slice() {
        [n] | ["Disprove", n] => n.parse::<i8>().ok()?,
        _ => return None,
    };
    (-1..=2).contains(&number).then_some(number)
}

/// The deck by protocol type: `cards[type][id]`.
#[derive(Clone, Debug, Default)]
struct Tables {
    cards: [Vec<Card>; 3],
}

impl Tables {
    fn new(deck: &Deck) -> Tables {
        Tables {
            cards: TYPES.map(|c| deck.of(c)),
        }
    }

    /// A card's `(type, id)`.
    fn code(&self, card: Card) -> (usize, usize) {
        for (t, cards) in self.cards.iter().enumerate() {
            if let Some(id) = cards.iter().position(|&c| c == card) {
                return (t, id);
            }
        }
        (0, 0)
    }

    fn ids(&self, cards: &[Card]) -> String {
        cards
            .iter()
            .map(|&c| self.code(c).1.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The cards named by `p w r`, or which id names no card.
    fn triple(&self, ids: [i64; 3]) -> Result<Vec<Card>, String> {
        TYPES
            .iter()
            .zip(ids)
            .enumerate()
            .map(|(t, (category, id))| {
                usize::try_from(id)
                    .ok()
                    .and_then(|i| self.cards[t].get(i).copied())
                    .ok_or_else(|| {
                        format!(
                            "there is no {} {id} (they are 0 to {})",
                            category.name(),
                            self.cards[t].len().saturating_sub(1)
                        )
                    })
            })
            .collect()
    }
}

/// What the bot said it does this turn, waiting for the engine's `move` and
/// `suggest` requests.
#[derive(Clone, Debug)]
struct Plan {
    /// `None`: stay put (`Guess`).
    to: Option<Position>,
    guess: Option<Vec<Card>>,
}

/// A process bot speaking the framework protocol.
pub struct FrameworkBot {
    process: BotProcess,
    limits: ProcessLimits,
    seat: Seat,
    /// The name the bot printed after `Name`.
    name: Option<String>,
    tables: Tables,
    width: u16,
    cells: Vec<u16>,
    plan: Option<Plan>,
    guess: Option<Vec<Card>>,
    /// Told of its own wrong accusation: out of the game, so a bot that exits
    /// now is not a crash; the host answers for it from then on.
    removed: bool,
    gone: bool,
}

impl FrameworkBot {
    /// Starts the command line `command` (split like a shell would).
    pub fn spawn(
        command: &str,
        limits: &ProcessLimits,
    ) -> Result<Sticky<FrameworkBot>, SpawnError> {
        let argv = split_command(command)?;
        Ok(Sticky::new(FrameworkBot {
            process: BotProcess::spawn(&argv, limits)?,
            limits: limits.clone(),
            seat: Seat(0),
            name: None,
            tables: Tables::default(),
            width: 0,
            cells: Vec::new(),
            plan: None,
            guess: None,
            removed: false,
            gone: false,
        }))
    }

    /// The name the bot gave (`None` before the game began).
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// The bot's stderr, kept up to `limits.max_stderr`.
    pub fn stderr(&self) -> StderrTap {
        self.process.stderr()
    }

    fn tell(&mut self, line: &str) -> Result<(), Fault> {
        self.process.send(line)
    }

    /// Sends a request line and returns the bot's answer, refusing lines the
    /// bot wrote unasked.
    fn ask(&mut self, line: &str, timeout: std::time::Duration) -> Result<String, Fault> {
        if let Some(stray) = self.process.stray_line() {
            let stray = stray?;
            return Err(Fault::new(
                DqReason::ProtocolError,
                format!("sent `{}` unasked{}", clip(&stray), super::OWN_PRINT),
            ));
        }
        self.tell(line)?;
        self.process
            .recv(timeout, &format!("answer to `{}`", clip(line)))
    }

    fn room_at(&self, position: Position) -> Option<usize> {
        let Position::Cell { row, col } = position else {
            return None;
        };
        if row >= self.width || col >= self.width {
            return None;
        }
        let v = self.cells[usize::from(row) * usize::from(self.width) + usize::from(col)];
        usize::from(v).checked_sub(1)
    }

    fn begin(&mut self, setup: &Setup) -> Result<Reply, Fault> {
        let Some(BoardView::Grid { width, cells, .. }) = &setup.board else {
            return Err(Fault::new(
                DqReason::ProtocolError,
                format!(
                    "a framework bot plays only the framework variant, not {}",
                    setup.variant
                ),
            ));
        };
        self.seat = setup.seat;
        self.width = *width;
        self.cells = cells.clone();
        self.tables = Tables::new(&setup.deck);
        self.tell(&format!("ID {}", setup.seat.0))?;
        self.tell(&format!("Playercount {}", setup.players))?;
        self.tell(&format!("Board {width} {width}"))?;
        for row in cells.chunks(usize::from(*width).max(1)) {
            let row: Vec<String> = row.iter().map(u16::to_string).collect();
            self.tell(&row.join(" "))?;
        }
        let name = self.ask("Name", self.limits.startup)?;
        self.name = Some(name.trim().to_string());
        let deck = &setup.deck;
        let mut lines: Vec<String> = self.tables.cards[2]
            .iter()
            .enumerate()
            .map(|(id, &room)| format!("Roomname {id} {}", deck.name(room)))
            .collect();
        for (t, keyword) in [(1, "Weaponname"), (0, "Personname")] {
            let cards = &self.tables.cards[t];
            lines.extend(
                cards.iter().enumerate().map(|(id, &card)| {
                    format!("{keyword} {} {id} {}", cards.len(), deck.name(card))
                }),
            );
        }
        lines.extend(setup.hand.iter().map(|&card| {
            let (t, id) = self.tables.code(card);
            format!("Card {t} {id}")
        }));
        for line in &lines {
            self.tell(line)?;
        }
        Ok(Reply::Ok)
    }

    /// The start of a turn: `Move <time> <roll>`, and the bot's whole turn back.
    fn turn(&mut self, roll: u8) -> Result<Reply, Fault> {
        let nanos = u64::try_from(self.limits.message.as_nanos()).unwrap_or(u64::MAX);
        let line = format!("Move {nanos} {roll}");
        let answer = self.ask(&line, self.limits.message)?;
        let quoted = clip(&answer);
        let reply = parse_turn(&answer).ok_or_else(|| {
            Fault::new(
                DqReason::ProtocolError,
                format!(
                    "sent `{quoted}` in answer to `{line}` (expected `Move y x`, \
                     `Move y x p w r`, `Guess p w r` or `Accusation p w r`){}",
                    own_print(&answer, &["Move", "Guess", "Accusation"])
                ),
            )
        })?;
        let cards = |ids, reason| {
            self.tables
                .triple(ids)
                .map_err(|e| Fault::new(reason, format!("sent `{quoted}`: {e}")))
        };
        match reply {
            TurnReply::Accusation(ids) => {
                let cards = cards(ids, DqReason::InvalidAccusation)?;
                Ok(Reply::Accuse {
                    accusation: Some(Accusation { cards }),
                })
            }
            TurnReply::Guess(ids) => {
                let guess = Some(cards(ids, DqReason::InvalidSuggestion)?);
                self.plan = Some(Plan { to: None, guess });
                Ok(Reply::Accuse { accusation: None })
            }
            TurnReply::Move { y, x, guess } => {
                let guess = guess
                    .map(|ids| cards(ids, DqReason::InvalidSuggestion))
                    .transpose()?;
                let on_board = |v: i64| u16::try_from(v).ok().filter(|&v| v < self.width);
                let (Some(row), Some(col)) = (on_board(y), on_board(x)) else {
                    let w = self.width;
                    return Err(Fault::new(
                        DqReason::InvalidMove,
                        format!("sent `{quoted}`: ({y}, {x}) is off the {w}x{w} board"),
                    ));
                };
                let to = Some(Position::Cell { row, col });
                self.plan = Some(Plan { to, guess });
                Ok(Reply::Accuse { accusation: None })
            }
        }
    }

    /// The move the bot chose at the start of the turn. A guess made where
    /// the move ends in the hallway names a room the bot is not in.
    fn move_to(&mut self, request: &MoveRequest) -> Result<Reply, Fault> {
        let plan = self.plan.take().unwrap_or(Plan {
            to: None,
            guess: None,
        });
        let here = request.turn.position.or(request.targets.first().copied());
        let Some(to) = plan.to.or(here) else {
            return Err(Fault::new(
                DqReason::InvalidMove,
                "has no position to move from",
            ));
        };
        if let (Some(_), Position::Cell { row, col }) = (&plan.guess, to)
            && request.targets.contains(&to)
            && self.room_at(to).is_none()
        {
            return Err(Fault::new(
                DqReason::InvalidSuggestion,
                format!("guessed while ending its move in the hallway at {row} {col}"),
            ));
        }
        self.guess = plan.guess;
        Ok(Reply::Move { to })
    }

    fn respond(&mut self, request: &RespondRequest) -> Result<Reply, Fault> {
        let line = format!(
            "Disprove {} {}",
            request.suggester.0,
            self.tables.ids(&request.suggestion.cards)
        );
        let answer = self.ask(&line, self.limits.message)?;
        let kind = parse_disprove(&answer).ok_or_else(|| {
            Fault::new(
                DqReason::ProtocolError,
                format!(
                    "sent `{}` in answer to `{line}` (expected `Disprove N` or `N`, N one of -1, 0, 1, 2){}",
                    clip(&answer),
                    own_print(&answer, &["Disprove", "-1", "0", "1", "2"])
                ),
            )
        })?;
        // The engine checks the card: a type the bot does not hold, or -1
        // while holding one, is an invalid response.
        let card = usize::try_from(kind)
            .ok()
            .and_then(|t| request.suggestion.cards.get(t).copied());
        Ok(Reply::Respond { card })
    }

    fn watch(&mut self, event: &Event) -> Result<(), Fault> {
        match event {
            Event::Moved {
                seat,
                to: Position::Cell { row, col },
            } if *seat != self.seat => self.tell(&format!("Opponent {} {row} {col}", seat.0)),
            Event::Answered {
                suggester,
                shown_by: Some(by),
                card,
                ..
            } => {
                if *suggester != self.seat {
                    self.tell(&format!("Disproved {}", by.0))
                } else if let Some(card) = card {
                    let (t, id) = self.tables.code(*card);
                    self.tell(&format!("Card From {} {t} {id}", by.0))
                } else {
                    Ok(())
                }
            }
            Event::Accused {
                seat,
                accusation: Some(accusation),
                correct: Some(false),
            } => {
                let ids = self.tables.ids(&accusation.cards);
                let told = self.tell(&format!("Accusation {} {ids}", seat.0));
                if *seat == self.seat {
                    self.removed = true;
                }
                told
            }
            Event::GameOver { winner, .. } => {
                if let Some(w) = winner {
                    // The bot may exit at once: the game is over either way.
                    let _ = self.tell(&format!("Win {}", w.0));
                }
                self.process.close_input();
                Ok(())
            }
            _ => Ok(()),
        }
    }

    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault> {
        match request {
            Request::BeginGame { setup } => self.begin(setup),
            Request::Accuse(r) if r.point == AccusePoint::StartOfTurn => {
                self.turn(r.turn.roll.unwrap_or(0))
            }
            Request::Accuse(_) => Ok(Reply::Accuse { accusation: None }),
            Request::Move(r) => self.move_to(r),
            Request::Suggest(_) => Ok(Reply::Suggest {
                suggestion: self.guess.take().map(|cards| Suggestion {
                    cards,
                    target: None,
                }),
            }),
            Request::Respond(r) => self.respond(r),
            Request::Watch { event } => self.watch(event).map(|()| Reply::Ok),
        }
    }
}

/// What the host answers for a removed bot that has gone away.
fn answer_for(request: &Request) -> Reply {
    match request {
        Request::Respond(r) => Reply::Respond {
            card: r.matching.first().copied(),
        },
        Request::Accuse(_) => Reply::Accuse { accusation: None },
        Request::Suggest(_) => Reply::Suggest { suggestion: None },
        Request::Move(r) => Reply::Move {
            to: r.turn.position.unwrap_or(Position::Cell { row: 0, col: 0 }),
        },
        Request::BeginGame { .. } | Request::Watch { .. } => Reply::Ok,
    }
}

impl Exchange for FrameworkBot {
    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault> {
        if self.gone {
            return Ok(answer_for(request));
        }
        match FrameworkBot::exchange(self, request) {
            // A bot out of the game (a wrong accusation) may quit: the host
            // answers for it from then on.
            Err(fault) if self.removed && fault.reason == DqReason::Crash => {
                self.gone = true;
                self.process.kill();
                Ok(answer_for(request))
            }
            result => result,
        }
    }

    fn abandon(&mut self) {
        self.process.kill();
    }

    fn stderr(&self, abandoned: bool) -> Option<String> {
        Some(self.process.stderr_text(abandoned))
    }

    /// `person 2`, `weapon 0`, `room 3`: a card's type and its id among
    /// its type, as `Guess p w r` and `Card t id` give it.
    fn card_word(&self, card: Card) -> Option<String> {
        let (t, id) = self.tables.code(card);
        let owned = self.tables.cards.get(t)?.contains(&card);
        owned.then(|| format!("{} {id}", TYPES[t].name()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_replies_parse_with_extra_whitespace() {
        let check = |line, expected| assert_eq!(parse_turn(line), expected, "{line:?}");
        check(
            "Move 8 3",
            Some(TurnReply::Move {
                y: 8,
                x: 3,
                guess: None,
            }),
        );
        check(
            "  Move\t8  3 8 4 9 ",
            Some(TurnReply::Move {
                y: 8,
                x: 3,
                guess: Some([8, 4, 9]),
            }),
        );
        check("Guess 1 2 3", Some(TurnReply::Guess([1, 2, 3])));
        check("Accusation 10 3 4", Some(TurnReply::Accusation([10, 3, 4])));
        check(
            "Move -1 3",
            Some(TurnReply::Move {
                y: -1,
                x: 3,
                guess: None,
            }),
        );
        for bad in [
            "",
            "Move",
            "Move 1",
            "Move 1 2 3",
            "move 1 2",
            "Guess 1 2",
            "Accusation 1 2 3 4",
            "Move a b",
            "Pass",
        ] {
            check(bad, None);
        }
    }

    #[test]
    fn disprove_answers_take_both_forms() {
        assert_eq!(parse_disprove("Disprove 0"), Some(0));
        assert_eq!(parse_disprove(" 2 "), Some(2));
        assert_eq!(parse_disprove("-1"), Some(-1));
        assert_eq!(parse_disprove("Disprove   -1"), Some(-1));
        for bad in ["", "3", "-2", "Disprove", "Disprove 0 1", "disprove 0", "x"] {
            assert_eq!(parse_disprove(bad), None, "{bad:?}");
        }
    }
}

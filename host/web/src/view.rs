//! What the page is shown: the setup of any stored game (by probing the
//! engine), where tokens stand after each event, the person's notebook, and
//! each event in words.

use std::cell::RefCell;
use std::rc::Rc;

use clue_engine::{Fault, GameConfig, SeatController, acting_seats, play};
use clue_plugin_api::{Card, Category, DqReason, Event, Position, Reply, Request, Seat, Setup};
use serde::Serialize;

pub use clue_arena::narrate::describe;

/// A seat that records its setup and then refuses to play.
struct Probe(Rc<RefCell<Option<Setup>>>);

impl SeatController for Probe {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        match request {
            Request::BeginGame { setup } => {
                let mut first = self.0.borrow_mut();
                if first.is_none() {
                    *first = Some((**setup).clone());
                }
                Ok(Reply::Ok)
            }
            Request::Watch { .. } => Ok(Reply::Ok),
            _ => Err(Fault::new(DqReason::Crash, "probe")),
        }
    }
}

/// The setup seat 0 of a game would be given (deck, board, starts): the
/// engine deals and places tokens before any decision, so a game whose bots
/// all refuse to play shows it. Fails with the engine's message for a
/// configuration it refuses (a bad board names file, line and column).
pub fn probe(config: &GameConfig, seed: u64) -> Result<Setup, String> {
    let seen = Rc::new(RefCell::new(None));
    let mut seats: Vec<Box<dyn SeatController>> = (0..acting_seats(config))
        .map(|_| Box::new(Probe(seen.clone())) as Box<dyn SeatController>)
        .collect();
    play(config, seed, &mut seats).map_err(|e| e.to_string())?;
    seen.take()
        .ok_or_else(|| "the game seated no bot to show".to_string())
}

/// Where every seat's token stands, after applying `events` to the starts.
pub fn positions(starts: &[Position], players: usize, events: &[Event]) -> Vec<Option<Position>> {
    let mut at: Vec<Option<Position>> = (0..players).map(|s| starts.get(s).copied()).collect();
    for event in events {
        apply(&mut at, event);
    }
    at
}

pub fn apply(at: &mut [Option<Position>], event: &Event) {
    match event {
        Event::Moved { seat, to } => {
            if let Some(p) = at.get_mut(seat.index()) {
                *p = Some(*to);
            }
        }
        Event::TokenMoved {
            summoned: Some(seat),
            to,
            ..
        } => {
            if let Some(p) = at.get_mut(seat.index()) {
                *p = Some(*to);
            }
        }
        _ => {}
    }
}

/// The last token move: whose token, where it stood and where it went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LastMove {
    pub seat: Seat,
    pub from: Option<Position>,
    pub to: Position,
}

/// Where the tokens stand, whose turn it is and the last move, after the
/// events given so far: what the board marks.
#[derive(Clone, Debug, Serialize)]
pub struct Board {
    pub positions: Vec<Option<Position>>,
    pub turn: Option<Seat>,
    pub last_move: Option<LastMove>,
}

impl Board {
    pub fn new(starts: &[Position], players: usize) -> Board {
        Board {
            positions: positions(starts, players, &[]),
            turn: None,
            last_move: None,
        }
    }

    pub fn apply(&mut self, event: &Event) {
        let moved = match event {
            Event::TurnBegan { seat, .. } => {
                self.turn = Some(*seat);
                None
            }
            Event::Moved { seat, to } => Some((*seat, *to)),
            Event::TokenMoved {
                summoned: Some(seat),
                to,
                ..
            } => Some((*seat, *to)),
            Event::GameOver { .. } => {
                self.turn = None;
                None
            }
            _ => None,
        };
        if let Some((seat, to)) = moved {
            let from = self.positions.get(seat.index()).copied().flatten();
            self.last_move = Some(LastMove { seat, from, to });
        }
        apply(&mut self.positions, event);
    }
}

/// The board after `events`.
pub fn board(starts: &[Position], players: usize, events: &[Event]) -> Board {
    let mut board = Board::new(starts, players);
    for event in events {
        board.apply(event);
    }
    board
}

/// What the person knows of one card and one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    Unknown,
    Holds,
    Lacks,
}

#[derive(Clone, Debug, Serialize)]
pub struct NotebookRow {
    pub card: Card,
    pub name: String,
    pub category: Category,
    /// One mark per seat.
    pub marks: Vec<Mark>,
    /// Known to be in the envelope (nobody holds it, or the game revealed it).
    pub envelope: bool,
}

/// The detective notebook, filled in from the seat's hand and what it saw:
/// a shown card is held by the shower; seats that passed lack every card of
/// the suggestion; a revealed hand is held; the envelope at the end.
pub fn notebook(setup: &Setup, events: &[Event]) -> Vec<NotebookRow> {
    let players = usize::from(setup.players);
    let mut rows: Vec<NotebookRow> = setup
        .deck
        .all()
        .map(|card| NotebookRow {
            card,
            name: setup.deck.name(card).to_string(),
            category: setup.deck.category(card).unwrap_or(Category::Item),
            marks: vec![Mark::Unknown; players],
            envelope: false,
        })
        .collect();
    let me = setup.seat.index();
    for row in rows.iter_mut() {
        if me < players {
            row.marks[me] = if setup.hand.contains(&row.card) {
                Mark::Holds
            } else {
                Mark::Lacks
            };
        }
    }
    let holds = |rows: &mut Vec<NotebookRow>, seat: Seat, card: Card| {
        if let Some(row) = rows.get_mut(card.index()) {
            for (s, mark) in row.marks.iter_mut().enumerate() {
                *mark = if s == seat.index() {
                    Mark::Holds
                } else {
                    Mark::Lacks
                };
            }
        }
    };
    let mut last: Option<Vec<Card>> = None;
    for event in events {
        match event {
            Event::Suggested { suggestion, .. } => last = Some(suggestion.cards.clone()),
            Event::Answered {
                passed,
                shown_by,
                card,
                ..
            } => {
                for seat in passed {
                    for &c in last.iter().flatten() {
                        if let Some(mark) = rows
                            .get_mut(c.index())
                            .and_then(|r| r.marks.get_mut(seat.index()))
                        {
                            *mark = Mark::Lacks;
                        }
                    }
                }
                if let (Some(seat), Some(card)) = (shown_by, card) {
                    holds(&mut rows, *seat, *card);
                }
            }
            Event::HandRevealed { seat, hand } => {
                for &card in hand {
                    holds(&mut rows, *seat, card);
                }
            }
            Event::GameOver { envelope, .. } => {
                for &card in envelope {
                    if let Some(row) = rows.get_mut(card.index()) {
                        row.envelope = true;
                        row.marks.iter_mut().for_each(|m| *m = Mark::Lacks);
                    }
                }
            }
            _ => {}
        }
    }
    for row in rows.iter_mut() {
        if row.marks.iter().all(|&m| m == Mark::Lacks) {
            row.envelope = true;
        }
    }
    rows
}

/// How each seat is named on the page: the person it plays on a board with
/// persons, then its bot (or "you").
pub fn seat_names(setup: &Setup, labels: &[String]) -> Vec<String> {
    let persons = setup.deck.of(Category::Person);
    let named = matches!(
        setup.variant,
        clue_plugin_api::Variant::Csci306
            | clue_plugin_api::Variant::Classic
            | clue_plugin_api::Variant::Cyberclue
    );
    (0..usize::from(setup.players))
        .map(|s| {
            let label = labels
                .get(s)
                .cloned()
                .unwrap_or_else(|| "server".to_string());
            match persons.get(s).filter(|_| named) {
                Some(&p) => format!("{} ({label})", setup.deck.name(p)),
                None => format!("seat {s} ({label})"),
            }
        })
        .collect()
}

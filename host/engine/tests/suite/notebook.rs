//! `notebook` accuses only when certain: never a wrong accusation of its own choosing.

use crate::common;

use std::cell::RefCell;
use std::rc::Rc;

use clue_engine::{Fault, GameConfig, InProcess, SeatController, acting_seats, play};
use clue_plugin_api::{
    Accusation, AccusePoint, BoardView, Position, Reply, Request, Setup, Variant,
};

/// Records the accusations notebook makes when it is not forced to: not
/// at a forced point, and not a UniClue client's guess once its queries are
/// used up (the next query would disqualify it).
struct Spy {
    inner: InProcess<notebook::Notebook>,
    voluntary: Vec<Accusation>,
    query_limit: Option<u32>,
    queries: u32,
}

impl SeatController for Spy {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        let reply = self.inner.call(request)?;
        match (request, &reply) {
            (Request::BeginGame { setup }, _) => {
                self.query_limit = setup.rules.query_limit;
                self.queries = 0;
            }
            (
                Request::Suggest(_),
                Reply::Suggest {
                    suggestion: Some(_),
                },
            ) => self.queries += 1,
            (
                Request::Accuse(r),
                Reply::Accuse {
                    accusation: Some(a),
                },
            ) => {
                let out_of_queries = self.query_limit.is_some_and(|l| self.queries >= l);
                if r.point != AccusePoint::Forced && !out_of_queries {
                    self.voluntary.push(a.clone());
                }
            }
            _ => {}
        }
        Ok(reply)
    }
}

#[test]
fn notebook_never_accuses_wrongly() {
    let mut configs = common::boardless_configs();
    configs.push(GameConfig::new(Variant::Speedclue, 6));
    let mut accusations = 0;
    for config in configs {
        for seed in 0..250u64 {
            let seats = acting_seats(&config);
            let mut spies: Vec<Spy> = (0..seats)
                .map(|_| Spy {
                    inner: InProcess(notebook::Notebook::default()),
                    voluntary: Vec::new(),
                    query_limit: None,
                    queries: 0,
                })
                .collect();
            let record = {
                let mut bots: Vec<Box<dyn SeatController + '_>> = spies
                    .iter_mut()
                    .map(|s| Box::new(s) as Box<dyn SeatController + '_>)
                    .collect();
                play(&config, seed, &mut bots).expect("valid")
            };
            let mut envelope = record.envelope.clone();
            envelope.sort();
            for spy in &spies {
                for a in &spy.voluntary {
                    let mut cards = a.cards.clone();
                    cards.sort();
                    assert_eq!(
                        cards, envelope,
                        "{} seed {seed}: wrong accusation",
                        config.variant
                    );
                    accusations += 1;
                }
            }
        }
    }
    assert!(
        accusations > 1000,
        "notebook should solve most games, made {accusations}"
    );
}

impl SeatController for &mut Spy {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        (**self).call(request)
    }
}

/// What `notebook` was set up with, and the targets and choice of its
/// first move.
type Seen = Rc<RefCell<(Option<Setup>, Option<(Vec<Position>, Position)>)>>;

/// Records the first move `notebook` makes on a board, with what it knew.
struct FirstMove {
    inner: InProcess<notebook::Notebook>,
    seen: Seen,
}

impl SeatController for FirstMove {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        let reply = self.inner.call(request)?;
        let mut seen = self.seen.borrow_mut();
        match (request, &reply) {
            (Request::BeginGame { setup }, _) => seen.0 = Some((**setup).clone()),
            (Request::Move(r), Reply::Move { to }) if seen.1.is_none() => {
                seen.1 = Some((r.targets.clone(), *to));
            }
            _ => {}
        }
        Ok(reply)
    }
}

/// On a `framework` grid, `notebook`'s first move (it knows only its hand
/// then) is to a target nearest, in Manhattan steps, a cell of a room it
/// does not hold: measured here by brute force over every cell.
#[test]
fn notebook_walks_to_the_nearest_room_it_does_not_hold() {
    let mut config = GameConfig::new(Variant::Framework, 3);
    config.framework.width = 30;
    for seed in 0..40 {
        let seen = Seen::default();
        let mut bots = common::builtins(3);
        bots[0] = Box::new(FirstMove {
            inner: InProcess(notebook::Notebook::default()),
            seen: Rc::clone(&seen),
        });
        play(&config, seed, &mut bots).expect("valid config");
        let (setup, moved) = seen.take();
        let setup = setup.expect("begun");
        let (targets, to) = moved.expect("moved at least once");
        let Some(BoardView::Grid {
            width,
            cells,
            rooms,
        }) = &setup.board
        else {
            panic!("a framework grid");
        };
        let width = usize::from(*width);
        let wanted: Vec<usize> = (0..cells.len())
            .filter(|&i| {
                let room = usize::from(cells[i]).checked_sub(1).map(|r| rooms[r]);
                room.is_some_and(|room| !setup.hand.contains(&room))
            })
            .collect();
        let distance = |p: &Position| match *p {
            Position::Cell { row, col } => wanted
                .iter()
                .map(|&i| {
                    (i / width).abs_diff(usize::from(row)) + (i % width).abs_diff(usize::from(col))
                })
                .min()
                .unwrap_or(999),
            Position::Room(_) => panic!("a grid's targets are cells"),
        };
        let best = targets.iter().map(distance).min().expect("targets");
        assert_eq!(distance(&to), best, "seed {seed}: moved to {to:?}");
        assert!(targets.len() > 1, "seed {seed}: a choice to make");
    }
}

/// A category whose envelope card is found is solved, though its other
/// cards may still be in either of two hands: `notebook` is certain then.
/// (Before, it counted a category solved only once every other card's
/// holder was known, and on a `framework` board of 150 rooms three
/// `notebook`s sat certain in the envelope's room for 2,000 rounds.)
#[test]
fn notebook_is_certain_once_each_envelope_card_is_found() {
    use clue_plugin_api::{Card, Seat};
    use notebook::{Holder, Knowledge};

    let deck = clue_engine::decks::classic();
    let mut k = Knowledge::new(&deck, &[1, 1, 1], &[6, 6, 6]);
    // Seat 0 holds two of each category; neither other seat holds
    // Green (0), the Lead Pipe (8) or the Conservatory (14).
    let hand = [1, 2, 6, 7, 12, 13].map(Card);
    for card in hand {
        k.holds(Seat(0), card);
    }
    let others: Vec<Card> = deck.all().filter(|c| !hand.contains(c)).collect();
    k.holds_none_of(Seat(0), &others);
    assert_eq!(k.solution(), None, "nothing is known of the others yet");
    let envelope = [Card(0), Card(8), Card(14)];
    for seat in [Seat(1), Seat(2)] {
        k.holds_none_of(seat, &envelope);
    }
    for card in envelope {
        assert_eq!(k.holder(card), Some(Holder::Envelope));
    }
    // Plum (3) may be in seat 1's hand or seat 2's.
    assert_eq!(k.holder(Card(3)), None);
    assert_eq!(k.solution(), Some(envelope.to_vec()));
}

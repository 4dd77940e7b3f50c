//! Seating `sleuth` among built-in bots and watching what it does.

use clue_engine::{Fault, GameConfig, GameRecord, InProcess, SeatController, acting_seats, play};
use clue_engine::{deal, decks};
use clue_plugin_api::{Accusation, AccusePoint, Card, Reply, Request, Rules, Seat, Setup, Variant};

/// Passes requests to `sleuth` and records its accusations and queries.
pub struct Spy {
    pub inner: InProcess<sleuth::Sleuth>,
    /// Every accusation it made, with whether it was forced.
    pub accusations: Vec<(Accusation, bool)>,
    /// Why it made each of them, as it says.
    pub grounds: Vec<Option<sleuth::Grounds>>,
    /// Whether it took the opponents for a weak field when it made each.
    pub weak_field: Vec<Option<bool>>,
    pub suggestions: usize,
}

impl Spy {
    pub fn new() -> Spy {
        Spy {
            inner: InProcess(sleuth::Sleuth::default()),
            accusations: Vec::new(),
            grounds: Vec::new(),
            weak_field: Vec::new(),
            suggestions: 0,
        }
    }
}

impl SeatController for &mut Spy {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        let reply = self.inner.call(request)?;
        match (request, &reply) {
            (
                Request::Accuse(r),
                Reply::Accuse {
                    accusation: Some(a),
                },
            ) => {
                self.accusations
                    .push((a.clone(), r.point == AccusePoint::Forced));
                self.grounds.push(self.inner.0.last_grounds());
                self.weak_field.push(self.inner.0.weak_field());
            }
            (
                Request::Suggest(_),
                Reply::Suggest {
                    suggestion: Some(_),
                },
            ) => self.suggestions += 1,
            _ => {}
        }
        Ok(reply)
    }
}

/// Which bots sit with sleuth.
#[derive(Clone, Copy, Debug)]
pub enum Opponents {
    Notebook,
    Clueless,
    /// More `sleuth`s: exact counters, the field its race is made for.
    Sleuth,
}

/// One game with sleuth at `seat` (the client in `uniclue`), the other
/// acting seats played by `opponents`.
pub fn game(
    config: &GameConfig,
    seed: u64,
    seat: usize,
    opponents: Opponents,
) -> (GameRecord, Spy) {
    let mut spy = Spy::new();
    let seats = acting_seats(config);
    let seat = seat_of(config, seat);
    let record = {
        let mut bots: Vec<Box<dyn SeatController + '_>> = Vec::new();
        let mut spy_slot = Some(&mut spy);
        for s in 0..seats {
            if s == seat {
                if let Some(spy) = spy_slot.take() {
                    bots.push(Box::new(spy));
                }
            } else {
                bots.push(match opponents {
                    Opponents::Notebook => Box::new(InProcess(notebook::Notebook::default())),
                    Opponents::Clueless => Box::new(InProcess(clueless::Clueless::default())),
                    Opponents::Sleuth => Box::new(InProcess(sleuth::Sleuth::default())),
                });
            }
        }
        play(config, seed, &mut bots).expect("valid config")
    };
    (record, spy)
}

/// The seat `game` gives sleuth when asked for `seat`.
pub fn seat_of(config: &GameConfig, seat: usize) -> usize {
    seat % acting_seats(config)
}

/// A configuration of every variant, at its default table size.
pub fn every_variant() -> Vec<GameConfig> {
    Variant::ALL
        .into_iter()
        .map(|v| GameConfig::new(v, GameConfig::default_players(v)))
        .collect()
}

/// Whether a wrong accusation takes the accuser out of the game.
pub fn eliminates(variant: Variant) -> bool {
    !matches!(variant, Variant::Csci306 | Variant::Generalized)
}

/// Speed Clue under the contest rules at `players` seats, the classic deck,
/// sleuth in seat 0 holding `hand`.
pub fn speedclue_setup(players: u8, hand: &[u16]) -> Setup {
    Setup {
        variant: Variant::Speedclue,
        rules: Rules::speedclue_contest(),
        players,
        seat: Seat(0),
        deck: decks::classic(),
        hand: hand.iter().map(|&c| Card(c)).collect(),
        hand_sizes: (0..usize::from(players))
            .map(|p| deal::hand_size(18, usize::from(players), p) as u8)
            .collect(),
        board: None,
        starts: Vec::new(),
        seed: 1,
    }
}

//! Plays legally until it panics in the method its seat names:
//! seat % 6 = 0 `begin_game`, 1 `suggest`, 2 `accuse`, 3 `watch`,
//! 4 `respond`, 5 `move_to`. The panic message is `panicky: <method>`.

use clue_plugin_api::*;

#[derive(Default)]
pub struct Panicky {
    setup: Option<Setup>,
    turns: usize,
    last: Option<Suggestion>,
}

const METHODS: [&str; 6] = [
    "begin_game",
    "suggest",
    "accuse",
    "watch",
    "respond",
    "move_to",
];

impl Panicky {
    fn maybe_panic(&self, method: &str, seat: Option<Seat>) {
        let seat = seat.or_else(|| self.setup.as_ref().map(|s| s.seat));
        if let Some(seat) = seat {
            if METHODS[seat.index() % 6] == method {
                panic!("panicky: {method}");
            }
        }
    }
}

impl Player for Panicky {
    fn begin_game(&mut self, setup: &Setup) {
        self.maybe_panic("begin_game", Some(setup.seat));
        self.setup = Some(setup.clone());
    }

    fn accuse(&mut self, request: &AccuseRequest) -> Option<Accusation> {
        self.maybe_panic("accuse", None);
        match request.point {
            AccusePoint::Forced => self.last.clone().map(|s| Accusation { cards: s.cards }),
            _ => None,
        }
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        self.maybe_panic("move_to", None);
        request.targets[0]
    }

    fn suggest(&mut self, request: &SuggestRequest) -> Option<Suggestion> {
        self.maybe_panic("suggest", None);
        let deck = &self.setup.as_ref()?.deck;
        // A different suggestion every turn (the contest rules forbid repeats).
        let mut n = self.turns;
        self.turns += 1;
        let cards = deck
            .categories()
            .into_iter()
            .map(|c| match (c, request.turn.room) {
                (Category::Room, Some(room)) => room,
                _ => {
                    let of = deck.of(c);
                    let card = of[n % of.len()];
                    n /= of.len();
                    card
                }
            })
            .collect();
        let suggestion = Suggestion {
            cards,
            target: request.opponents.first().copied(),
        };
        self.last = Some(suggestion.clone());
        Some(suggestion)
    }

    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        self.maybe_panic("respond", None);
        request.matching.first().copied()
    }

    fn watch(&mut self, _: &Event) {
        self.maybe_panic("watch", None);
    }
}

clue_plugin_api::export_native_player!(Panicky);

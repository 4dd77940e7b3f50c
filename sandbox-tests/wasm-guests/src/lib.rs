//! A bot that plays legally until its first suggestion, then misbehaves in
//! the way the example names. Each example exports one of these.

use clue_plugin_api::*;

/// Plays the first legal answer to everything; `on_suggest` runs before each
/// suggestion (most examples never get past their first).
pub struct Hostile {
    setup: Option<Setup>,
    on_suggest: fn(),
    made: usize,
}

impl Hostile {
    pub fn new(on_suggest: fn()) -> Hostile {
        Hostile {
            setup: None,
            on_suggest,
            made: 0,
        }
    }
}

impl Player for Hostile {
    fn name(&self) -> String {
        "hostile".into()
    }
    fn begin_game(&mut self, setup: &Setup) {
        self.setup = Some(setup.clone());
    }
    fn accuse(&mut self, _: &AccuseRequest) -> Option<Accusation> {
        None
    }
    fn move_to(&mut self, request: &MoveRequest) -> Position {
        request.targets[0]
    }
    fn suggest(&mut self, request: &SuggestRequest) -> Option<Suggestion> {
        (self.on_suggest)();
        let deck = &self.setup.as_ref()?.deck;
        // A different suggestion each time (the contest forbids repeats).
        let mut n = self.made;
        self.made += 1;
        let cards = deck
            .categories()
            .iter()
            .map(|&c| match (c, request.turn.room) {
                (Category::Room, Some(room)) => room,
                _ => {
                    let of = deck.of(c);
                    let card = of[n % of.len()];
                    n /= of.len();
                    card
                }
            })
            .collect();
        Some(Suggestion {
            cards,
            target: request.opponents.first().copied(),
        })
    }
    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        request.matching.first().copied()
    }
}

/// Declares a `Default` bot type running `$body` before each suggestion and
/// exports it.
#[macro_export]
macro_rules! hostile {
    ($body:expr) => {
        pub struct Bot(wasm_guests::Hostile);
        impl Default for Bot {
            fn default() -> Bot {
                Bot(wasm_guests::Hostile::new($body))
            }
        }
        impl clue_plugin_api::Player for Bot {
            fn name(&self) -> String {
                self.0.name()
            }
            fn begin_game(&mut self, s: &clue_plugin_api::Setup) {
                self.0.begin_game(s)
            }
            fn accuse(
                &mut self,
                r: &clue_plugin_api::AccuseRequest,
            ) -> Option<clue_plugin_api::Accusation> {
                self.0.accuse(r)
            }
            fn move_to(&mut self, r: &clue_plugin_api::MoveRequest) -> clue_plugin_api::Position {
                self.0.move_to(r)
            }
            fn suggest(
                &mut self,
                r: &clue_plugin_api::SuggestRequest,
            ) -> Option<clue_plugin_api::Suggestion> {
                self.0.suggest(r)
            }
            fn respond(
                &mut self,
                r: &clue_plugin_api::RespondRequest,
            ) -> Option<clue_plugin_api::Card> {
                self.0.respond(r)
            }
        }
        clue_plugin_api::export_wasm_player!(Bot);
    };
}

//! What a Clue Arena bot author depends on: the game vocabulary ([`Card`],
//! [`Seat`], [`Suggestion`], [`Event`], ...), the one [`Player`] trait every bot
//! implements, and the versioned serde [`wire`] form the wasm and process
//! bridges speak. No host code lives here.
//!
//! ```
//! use clue_plugin_api::*;
//!
//! /// Suggests the first card of each category and never accuses.
//! #[derive(Default)]
//! struct Simple { setup: Option<Setup> }
//!
//! impl Player for Simple {
//!     fn begin_game(&mut self, setup: &Setup) { self.setup = Some(setup.clone()); }
//!     fn accuse(&mut self, _: &AccuseRequest) -> Option<Accusation> { None }
//!     fn move_to(&mut self, request: &MoveRequest) -> Position { request.targets[0] }
//!     fn suggest(&mut self, request: &SuggestRequest) -> Option<Suggestion> {
//!         let deck = &self.setup.as_ref()?.deck;
//!         let cards = deck.categories().iter().map(|&c| match (c, request.turn.room) {
//!             (Category::Room, Some(room)) => room,
//!             _ => deck.of(c)[0],
//!         }).collect();
//!         Some(Suggestion { cards, target: None })
//!     }
//!     fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
//!         request.matching.first().copied()
//!     }
//! }
//!
//! let mut bot = Simple::default();
//! let request = Request::Respond(RespondRequest {
//!     suggester: Seat(1),
//!     suggestion: Suggestion { cards: vec![Card(0), Card(6), Card(12)], target: None },
//!     matching: vec![Card(6)],
//! });
//! assert_eq!(dispatch(&mut bot, &request), Reply::Respond { card: Some(Card(6)) });
//! ```

pub mod board;
pub mod cards;
pub mod messages;
#[cfg(feature = "native")]
pub mod native;
pub mod player;
#[cfg(feature = "stdio")]
pub mod stdio;
pub mod variant;
pub mod version;
#[cfg(feature = "wasm")]
pub mod wasm;
pub mod wire;

pub use board::{BoardView, CellView, Direction, Position};
pub use cards::{Card, CardInfo, Category, Deck, Seat};
pub use messages::{
    Accusation, AccusePoint, AccuseRequest, DqReason, Event, MoveRequest, Reply, Request,
    RespondRequest, Rules, Setup, SuggestRequest, Suggestion, Turn,
};
pub use player::{Player, dispatch};
pub use variant::{UnknownVariant, Variant};

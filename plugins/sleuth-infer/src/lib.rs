//! `sleuth-infer`: exact inference over Clue deals, the core of the
//! reference bot `sleuth`. Pure and standalone: no I/O, no clock, no global
//! randomness, nothing from the rest of the workspace.
//!
//! A deal puts every card of a deck in exactly one place: a player's hand
//! (of a fixed size) or the envelope (a fixed number of cards per category).
//! [`Knowledge`] records what a player learns during a game (who has or
//! lacks a card, who showed one of some cards, who could not disprove, whole
//! hands revealed, envelopes ruled out by a wrong accusation) and keeps it
//! propagated to a fixpoint of simple rules, so
//! certain facts are always at hand ([`Knowledge::owner_of`],
//! [`Knowledge::envelope_solved`]).
//!
//! [`Knowledge::probabilities`] then weighs every consistent deal equally
//! and gives the chance of each card being with each owner and of each
//! complete envelope, from exact counts of deals:
//!
//! - open cards that no constraint tells apart (same category, same possible
//!   owners, same clauses) form a class, and a set of cards is reduced to how
//!   many it holds of each class: a cell of a grid of `prod(s_c + 1)` cells;
//! - per owner, `F_o(T)` counts the hands it may take inside `T` (closed
//!   form, or a subset-sum transform when it has clauses);
//! - hand sizes add up to the open cards, so Möbius inversion of the product
//!   of the other owners' `F` counts the ways they share what an owner's hand
//!   leaves: summed over that owner's hands it gives the total, the count per
//!   card, and for the envelope the count per envelope;
//! - signed sums run in wrapping integers (64 to 512 bits) wider than a proven
//!   bound on the total, so every count read out is exact.
//!
//! Past the work bound stated on [`Config`] it falls back to a seeded
//! sampled estimate, flagged `exact: false`.
//!
//! ```
//! use sleuth_infer::{Config, Knowledge, Owner};
//!
//! // Classic deck: 6 persons (0..6), 6 weapons (6..12), 9 rooms (12..21),
//! // one of each hidden, 18 cards dealt to 6 players.
//! let categories = [(0..6).collect(), (6..12).collect(), (12..21).collect()];
//! let mut knowledge = Knowledge::new(&categories, &[1, 1, 1], &[3; 6]).unwrap();
//!
//! // We are player 0 and hold persons 0 and 1 and weapon 6.
//! knowledge.add_hand(0, &[0, 1, 6]).unwrap();
//! // Player 1 could not disprove (person 2, weapon 7, room 12) ...
//! knowledge.add_cannot_disprove(1, &[2, 7, 12]).unwrap();
//! // ... and player 2 showed one of them to player 5, not to us.
//! knowledge.add_has_one_of(2, &[2, 7, 12]).unwrap();
//! // Player 3 showed us weapon 8.
//! knowledge.add_has(Owner::Player(3), 8).unwrap();
//!
//! assert_eq!(knowledge.owner_of(8), Some(Owner::Player(3)));
//! assert!(!knowledge.possible(Owner::Player(1), 12));
//!
//! let odds = knowledge.probabilities(&Config::default()).unwrap();
//! assert!(odds.exact);
//! let sum: f64 = (0..6).map(|person| odds.envelope(person)).sum();
//! assert!((sum - 1.0).abs() < 1e-9);
//! assert_eq!(odds.envelope(0), 0.0);
//! // 4 persons, 4 weapons, 9 rooms, but not (2, 7, 12): player 2 holds one.
//! assert_eq!(odds.solution_count, 4 * 4 * 9 - 1);
//!
//! // A constraint that cannot hold is refused and changes nothing.
//! assert!(knowledge.add_has(Owner::Player(1), 8).is_err());
//! assert_eq!(knowledge.owner_of(8), Some(Owner::Player(3)));
//! ```

#![forbid(unsafe_code)]

mod cards;
mod error;
mod exact;
mod knowledge;
mod probabilities;
mod problem;
mod ring;
mod sample;

pub use cards::MAX_CARDS;
pub use error::{Contradiction, SetupError};
pub use knowledge::{Knowledge, MAX_PLAYERS, Owner};
pub use probabilities::{Config, Probabilities, Solution};
pub use sample::Rng;

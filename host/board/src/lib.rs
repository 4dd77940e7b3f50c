//! Clue boards in the CSCI306 format: parsing, validation, movement and a
//! terminal drawing.
//!
//! A board is two text files: a layout CSV (one initial per cell, plus an
//! optional marker) and a setup TXT (the legend of rooms and spaces, and the
//! persons and weapons). [`parse`] takes both texts and returns a validated
//! [`RoomBoard`] or a [`BoardError`] naming the file, line and column. The
//! crate is pure: it reads no files, keeps no clock and draws no random
//! numbers.
//!
//! On the board, a room is one [`Node`] standing at its centre cell.
//! [`RoomBoard::targets`] gives where a roll can take a token (exact-length
//! paths on the walkway, rooms entered early, secret passages in one step),
//! [`RoomBoard::render`] draws the board and [`RoomBoard::view`] gives what a
//! bot is told.
//!
//! ```
//! use clue_board::{Node, parse};
//!
//! let layout = "\
//! K,K*,K#,W,Wv,W
//! W,W^,W,W,H,H
//! W,W,W,W,H*,H#
//! ";
//! let setup = "\
//! // Rooms and room cards
//! Room, Kitchen, K
//! Room, Hall, H
//! Space, Walkway, W
//! Player, Miss Scarlet, red, Human, 2, 1
//! Weapon, Rope
//! ";
//! let board = parse(layout, "ClueLayout.csv", setup, "ClueSetup.txt").unwrap();
//! assert_eq!((board.rows(), board.cols()), (3, 6));
//! assert_eq!(board.persons()[0].start, Some((2, 1)));
//!
//! // From (2,1), a roll of 3 reaches walkway cells such as (1,3), and the
//! // Kitchen (through the door at (1,1)) with a step to spare.
//! let kitchen = Node::Room(board.room_index('K').unwrap());
//! let from = board.start_nodes()[0];
//! assert_eq!(from, Node::Cell { row: 2, col: 1 });
//! let targets = board.targets(from, 3, &[]);
//! assert!(targets.contains(&kitchen));
//! assert!(targets.contains(&Node::Cell { row: 1, col: 3 }));
//! assert!(!targets.contains(&from));
//! print!("{}", board.render(false, &targets, &[(from, 'S')]));
//!
//! // A bad cell is reported where it is.
//! let err = parse("K,Q", "ClueLayout.csv", setup, "ClueSetup.txt").unwrap_err();
//! assert_eq!(err.to_string(), "ClueLayout.csv:1:3: unknown room initial `Q`");
//! ```
//!
//! # What is accepted
//!
//! Everything in the CSCI306 assignment's files and in the student boards of
//! `shared/boards/community`: LF, CRLF or mixed line ends, a missing final
//! newline, blank lines, trailing spaces (also inside cells, `Wv `), `//`
//! comments, and the many player- and weapon-line formats (see the `setup`
//! and `people` modules). The walkway is the Space named `Walkway`; a board
//! that names none (`Boardwalk`, `Water`, or amfunk's `Hallway` next to a
//! *room* called `W`) uses the one Space whose cells carry the doors, and is
//! rejected if two Spaces do. Every other Space is impassable.
//!
//! # Decisions on the nonconforming student boards
//!
//! - **amfunk-ClueGame: loaded.** `W` is a room (Wine Cellar) and the
//!   walkway is `H` (Hallway), the only Space whose cells carry doors; the
//!   file agrees with its own legend, so its meaning is unambiguous. Mr.
//!   Green's start (18,0) is a Gym cell, so he starts in the Gym.
//! - **JPBROHM-ClueGame: rejected** at `ClueLayout.csv:3:41`: `WC` puts a
//!   passage letter on a walkway cell (and `CW` at 24:7 a passage to a
//!   Space). Whether they are stray letters or meant something cannot be
//!   told, so the board is not guessed at.
//! - **jlwoolf-ClueGame: rejected** at `ClueLayout.csv:1:15`: `W%` uses a
//!   marker the format does not have. It marks start cells, but which person
//!   starts on which of them is not written anywhere. (Its trailing comma on
//!   `Room, Berthoud Hall, b,` alone would be accepted: an empty last field
//!   says nothing.)

#![forbid(unsafe_code)]

mod error;
mod layout;
mod model;
mod movement;
mod parse;
mod people;
mod render;
mod setup;
mod text;

pub use clue_plugin_api::Direction;
pub use error::{BoardError, Problem};
pub use model::{Cell, CellKind, Person, PlayerKind, Room, RoomBoard, Space, Weapon};
pub use movement::Node;
pub use parse::parse;

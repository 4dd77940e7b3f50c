//! One module per subcommand of `clue`.

pub mod play;
pub mod replay;
pub mod tournament;
pub mod uniclue;

//! One module per subcommand of `clue`.

pub mod bench;
pub mod bench_decisions;
pub mod board;
pub mod framework;
pub mod play;
pub mod replay;
pub mod serve;
pub mod speedclue;
pub mod tournament;
pub mod uniclue;
pub mod uniclue_client;
pub mod worker;

//! The runtimes bots run in, other than in-process: each turns a bot into an
//! engine `SeatController`.

pub mod native;
pub mod process;
pub mod wasm;

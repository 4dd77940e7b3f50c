//! Clue Arena's bot runtimes: a bot spec (`KIND:TARGET`, [`bots`]) becomes a
//! seated bot, a [`clue_engine::SeatController`], whatever it is: built into
//! the host, a native plugin ([`native`]: isolated in a worker process, or
//! trusted in-process), a WebAssembly component ([`wasm`]: fuel, memory
//! limits, no ambient capabilities), or a process speaking one of four
//! protocols ([`process`]: JSON lines, the `seeds/000` framework, UniClue,
//! Speed Clue). The containment of every kind lives here, and nothing here
//! knows about tournaments, stores or the web.
//!
//! ```
//! use clue_runtime::bots::{self, BotSpec};
//!
//! let spec: BotSpec = "builtin:notebook".parse().unwrap();
//! let seats = vec![bots::connect(&spec).unwrap(), bots::connect(&"builtin:clueless".parse().unwrap()).unwrap()];
//! assert_eq!(seats.len(), 2);
//! assert!("python:bot.py".parse::<BotSpec>().is_err());
//! ```

pub mod bots;
pub mod native;
pub mod process;
pub mod sandbox;
pub mod sticky;
pub mod suggest;
pub mod wasm;

include!(concat!(env!("OUT_DIR"), "/engine_code.rs"));

/// The SHA-256 of the game engine's code (`clue-engine`): the sources of
/// the workspace's crates it uses and the versions `Cargo.lock` pins of the
/// others, as for a built-in bot ([`bots::builtin_code`]). Games of one
/// seed play alike under two `clue` binaries that give the same.
pub fn engine_code() -> &'static str {
    ENGINE_CODE
}

/// `build.rs`'s fingerprint of a built-in bot's code, compiled here as well
/// so that its unit tests run with the crate's.
#[cfg(test)]
#[path = "../build/fingerprint.rs"]
mod fingerprint;

#[cfg(test)]
mod tests {
    #[test]
    fn the_engine_has_a_fingerprint_of_its_own() {
        let engine = super::engine_code();
        assert!(
            engine.len() == 64 && engine.bytes().all(|b| b.is_ascii_hexdigit()),
            "{engine}"
        );
        for bot in crate::bots::BUILTINS {
            assert_ne!(crate::bots::builtin_code(bot), Some(engine), "{bot}");
        }
    }
}

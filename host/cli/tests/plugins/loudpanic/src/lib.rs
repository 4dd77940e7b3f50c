//! Panics in `begin_game` the way a plugin built before the quiet panic hook
//! did: it first puts the standard hook back (which prints the message and,
//! with `RUST_BACKTRACE` set, symbolises a backtrace of the whole process).
//! The native benchmark times a panic of this plugin against `panicky`'s.

use clue_plugin_api::*;

#[derive(Default)]
pub struct LoudPanic;

impl Player for LoudPanic {
    fn begin_game(&mut self, _: &Setup) {
        // `take_hook` installs the default hook in place of the quiet one.
        drop(std::panic::take_hook());
        panic!("loudpanic: begin_game");
    }

    fn accuse(&mut self, _: &AccuseRequest) -> Option<Accusation> {
        None
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        request.targets[0]
    }

    fn suggest(&mut self, _: &SuggestRequest) -> Option<Suggestion> {
        None
    }

    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        request.matching.first().copied()
    }

    fn watch(&mut self, _: &Event) {}
}

clue_plugin_api::export_native_player!(LoudPanic);

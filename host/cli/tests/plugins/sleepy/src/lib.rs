//! Answers everything at once except `suggest`, where it first sleeps for
//! 300 ms: over a short per-call limit.

use std::time::Duration;

use clue_plugin_api::*;

#[derive(Default)]
pub struct Sleepy;

impl Player for Sleepy {
    fn begin_game(&mut self, _: &Setup) {}

    fn accuse(&mut self, _: &AccuseRequest) -> Option<Accusation> {
        None
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        request.targets[0]
    }

    fn suggest(&mut self, _: &SuggestRequest) -> Option<Suggestion> {
        std::thread::sleep(Duration::from_millis(300));
        None
    }

    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        request.matching.first().copied()
    }
}

clue_plugin_api::export_native_player!(Sleepy);

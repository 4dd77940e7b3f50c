//! Ends its own process on its first suggestion, the way its seat names:
//! seat % 4 = 0 segfault, 1 abort, 2 stack overflow, 3 `exit(3)`.
//! Only ever run isolated.

use clue_plugin_api::*;

#[derive(Default)]
pub struct Crashy {
    seat: usize,
}

#[allow(unconditional_recursion)]
fn overflow(depth: u64) -> u64 {
    let pad = std::hint::black_box([depth; 512]);
    overflow(pad[7] + 1) + pad[3]
}

impl Player for Crashy {
    fn begin_game(&mut self, setup: &Setup) {
        self.seat = setup.seat.index();
    }

    fn accuse(&mut self, _: &AccuseRequest) -> Option<Accusation> {
        None
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        request.targets[0]
    }

    fn suggest(&mut self, _: &SuggestRequest) -> Option<Suggestion> {
        match self.seat % 4 {
            0 => {
                let null = std::hint::black_box(std::ptr::null_mut::<u64>());
                // SAFETY: none; writing through null is the point of this bot.
                unsafe { null.write_volatile(7) };
            }
            1 => std::process::abort(),
            2 => {
                std::hint::black_box(overflow(0));
            }
            _ => std::process::exit(3),
        }
        None
    }

    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        request.matching.first().copied()
    }
}

clue_plugin_api::export_native_player!(Crashy);

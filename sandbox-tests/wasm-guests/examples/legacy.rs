//! A well-behaved bot built against the first WIT version,
//! `clue:player@0.1.0` (`plugin-api/wit/0.1.0/player.wit`: the setup and the
//! events as JSON text), as a bot built before 0.2.0 was. The host must keep
//! seating it.

wit_bindgen::generate!({
    path: "../../plugin-api/wit/0.1.0/player.wit",
    world: "bot",
});

use std::cell::RefCell;

use clue_plugin_api::{Player, Setup};
use exports::clue::player::player as wit;
use wasm_guests::Hostile;

thread_local! {
    static BOT: RefCell<Hostile> = RefCell::new(Hostile::new(|| {}));
}

struct Legacy;

fn card_list(cards: &[clue_plugin_api::Card]) -> Vec<u16> {
    cards.iter().map(|c| c.0).collect()
}

impl wit::Guest for Legacy {
    fn name() -> String {
        "legacy-0.1".into()
    }

    fn protocol() -> String {
        clue_plugin_api::wire::PROTOCOL_VERSION.into()
    }

    fn begin_game(setup_json: String) -> Result<(), String> {
        let setup: Setup = serde_json::from_str(&setup_json).map_err(|e| e.to_string())?;
        BOT.with(|bot| bot.borrow_mut().begin_game(&setup));
        Ok(())
    }

    fn accuse(_: wit::AccuseRequest) -> Option<wit::Accusation> {
        None
    }

    fn move_to(request: wit::MoveRequest) -> wit::Position {
        // The first target, as the hostile bots play.
        match request.targets.into_iter().next() {
            Some(p) => p,
            None => wit::Position::Cell(wit::Cell { row: 0, col: 0 }),
        }
    }

    fn suggest(request: wit::SuggestRequest) -> Option<wit::Suggestion> {
        let request = clue_plugin_api::SuggestRequest {
            turn: clue_plugin_api::Turn {
                seat: clue_plugin_api::Seat(request.turn.seat),
                round: request.turn.round,
                roll: request.turn.roll,
                position: None,
                room: request.turn.room.map(clue_plugin_api::Card),
            },
            optional: request.optional,
            opponents: request
                .opponents
                .into_iter()
                .map(clue_plugin_api::Seat)
                .collect(),
        };
        BOT.with(|bot| bot.borrow_mut().suggest(&request))
            .map(|s| wit::Suggestion {
                cards: card_list(&s.cards),
                target: s.target.map(|t| t.0),
            })
    }

    fn respond(request: wit::RespondRequest) -> Option<u16> {
        request.matching.first().copied()
    }

    fn watch(event_json: String) -> Result<(), String> {
        // Read it as a 0.1 bot must, to prove the host still sends JSON.
        let _: clue_plugin_api::Event =
            serde_json::from_str(&event_json).map_err(|e| e.to_string())?;
        Ok(())
    }
}

export!(Legacy);

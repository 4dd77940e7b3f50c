//! The bounds of everything a request may ask for, checked before anything
//! is allocated for it (docs/web.md lists them). A request past one is
//! refused with 422 and a message naming the limit.
//!
//! Each option alone is bounded by [`check`]; together they can still ask
//! for a game that grows large (many rounds of many seats with a big deck),
//! so [`check_game`] bounds what the whole game can pile up, [`GameSize::bytes`],
//! before its thread starts.

use clue_plugin_api::Setup;

use super::ApiError;
use super::api::StartRequest;

/// The largest request body, in bytes (an uploaded board's two files fit).
pub const MAX_BODY: usize = 256 * 1024;
/// The largest uploaded layout or setup file, in bytes.
pub const MAX_UPLOAD: usize = 64 * 1024;
/// The widest `framework` board (`width` x `width` cells, `width` rooms).
pub const MAX_WIDTH: u16 = 40;
/// The most `generalized` items.
pub const MAX_ITEMS: u16 = 128;
/// The most rounds a game may be set to last.
pub const MAX_ROUNDS: u32 = 1000;
/// The longest bot spec.
pub const MAX_SPEC: usize = 1024;
/// The most games in play at once; one more is refused (429) until one ends.
pub const MAX_GAMES: usize = 16;

/// The most a game may pile up, in bytes of [`GameSize::bytes`].
pub const MAX_GAME_BYTES: u64 = 16 * 1024 * 1024;

/// The most events one turn logs: its start, a move, a summoned token, a
/// suggestion, its answer, an accusation, a revealed hand, a
/// disqualification, and the end of the game.
const EVENTS_PER_TURN: u64 = 9;
/// The words of an event besides the cards and seats it names ("round 1000:
/// ... rolls 12", "... cannot disprove; ... shows ..."), with the bytes of
/// its `String` and of its place in the engine's log.
const EVENT_BYTES: u64 = 96;

/// An upper bound of the bytes a game holds and sends the page: every event
/// it can log in words (at most `max_rounds` turns of every seat, each
/// naming at most every card twice, a suggestion and a revealed hand or
/// accusation, and every seat twice, the seats that passed and the
/// disqualified), with the board, the deck and the notebook.
///
/// The engine's own log holds each event as a few numbers per card and
/// seat, less than its words, so this bounds it too.
#[derive(Clone, Copy, Debug)]
pub struct GameSize {
    /// The board, deck and notebook.
    pub fixed: u64,
    /// One turn's events.
    pub turn: u64,
    pub players: u64,
}

impl GameSize {
    /// The size of the game of `setup`; `names` are the seats as the page
    /// names them (a bot's spec is part of its name).
    pub fn of(setup: &Setup, names: &[String]) -> GameSize {
        let deck = setup.deck.cards.len() as u64;
        let players = u64::from(setup.players);
        // The longest name, and the ", " that joins it to the next.
        let card_name = setup
            .deck
            .cards
            .iter()
            .map(|c| c.name.len())
            .max()
            .unwrap_or(0) as u64
            + 2;
        let seat_name = names.iter().map(String::len).max().unwrap_or(0) as u64 + 2;
        let board = setup
            .board
            .as_ref()
            .and_then(|b| serde_json::to_vec(b).ok())
            .map_or(0, |b| b.len() as u64);
        GameSize {
            // The board twice: drawn, and as the targets of a move.
            fixed: 2 * board + deck * (card_name + 64) + deck * players * 16,
            turn: EVENTS_PER_TURN * EVENT_BYTES
                + (2 * deck + 4) * card_name
                + (2 * players + 8) * seat_name,
            players,
        }
    }

    /// The bound for a game of `max_rounds` rounds (and its last event).
    pub fn bytes(&self, max_rounds: u32) -> u64 {
        self.fixed + (u64::from(max_rounds) * self.players + 1) * self.turn
    }

    /// The most rounds that fit in `limit` bytes.
    pub fn rounds_within(&self, limit: u64) -> u64 {
        limit.saturating_sub(self.fixed + self.turn) / (self.players * self.turn).max(1)
    }
}

/// Refuses a game whose [`GameSize`] is over [`MAX_GAME_BYTES`], saying how
/// many rounds would fit.
pub fn check_game(setup: &Setup, max_rounds: u32, names: &[String]) -> Result<(), ApiError> {
    let size = GameSize::of(setup, names);
    let bytes = size.bytes(max_rounds);
    if bytes <= MAX_GAME_BYTES {
        return Ok(());
    }
    let advice = match size.rounds_within(MAX_GAME_BYTES) {
        0 => "use fewer seats or cards, or shorter names".to_string(),
        r => format!("set max_rounds to {r} or less"),
    };
    Err(ApiError::bad(format!(
        "this game could grow to {} KiB ({max_rounds} rounds of {} seats with {} cards), \
         over the limit of {} KiB a game: {advice}",
        bytes.div_ceil(1024),
        setup.players,
        setup.deck.cards.len(),
        MAX_GAME_BYTES / 1024
    )))
}

/// Refuses a start request past any of the limits, naming it.
pub fn check(request: &StartRequest) -> Result<(), ApiError> {
    let over = |what: &str, value: u64, max: u64| {
        Err(ApiError::bad(format!(
            "{what} {value} is over the limit of {max}"
        )))
    };
    if let Some(width) = request.width
        && width > MAX_WIDTH
    {
        return over("width", width.into(), MAX_WIDTH.into());
    }
    if let Some(items) = request.items
        && items > MAX_ITEMS
    {
        return over("items", items.into(), MAX_ITEMS.into());
    }
    if let Some(hidden) = request.hidden
        && hidden > MAX_ITEMS
    {
        return over("hidden", hidden.into(), MAX_ITEMS.into());
    }
    if let Some(rounds) = request.max_rounds
        && rounds > MAX_ROUNDS
    {
        return over("max_rounds", rounds.into(), MAX_ROUNDS.into());
    }
    for upload in [&request.layout, &request.setup].into_iter().flatten() {
        let size = upload.text.len() + upload.name.len();
        if size > MAX_UPLOAD {
            return Err(ApiError::bad(format!(
                "uploaded file `{}` is {size} bytes, over the limit of {MAX_UPLOAD}",
                short(&upload.name)
            )));
        }
    }
    for (i, spec) in request.bots.iter().enumerate() {
        if spec.len() > MAX_SPEC {
            return Err(ApiError::bad(format!(
                "bot {}: its spec is {} bytes, over the limit of {MAX_SPEC}",
                i + 1,
                spec.len()
            )));
        }
    }
    Ok(())
}

/// A name cut short enough to quote in a message.
fn short(name: &str) -> String {
    name.chars().take(80).collect()
}

/// The places for games in play: a [`Slot`] is taken when a game starts and
/// given back when its thread ends.
#[derive(Debug, Default)]
pub struct Slots(std::sync::Arc<std::sync::atomic::AtomicUsize>);

/// One game's place; given back on drop.
#[derive(Debug)]
pub struct Slot(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl Slots {
    /// A place, unless [`MAX_GAMES`] are taken.
    pub fn take(&self) -> Option<Slot> {
        use std::sync::atomic::Ordering;
        self.0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < MAX_GAMES).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(self.0.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view;
    use clue_engine::{GameConfig, SeatController, acting_seats};
    use clue_plugin_api::Variant;
    use clue_runtime::bots::{self, BotSpec};

    /// Plays `config` with random bots (they rarely solve the case, so the
    /// games run to their last round) and checks everything the game
    /// logged, in words as the page shows it, against [`GameSize`].
    fn check(config: &GameConfig, seed: u64) {
        let setup = view::probe(config, seed).expect("probe");
        let acting = acting_seats(config);
        let spec = BotSpec {
            kind: bots::BotKind::Builtin,
            target: "clueless".to_string(),
        };
        let labels = vec![spec.to_string(); usize::from(setup.players)];
        let names = view::seat_names(&setup, &labels);
        let mut seats: Vec<Box<dyn SeatController>> = (0..acting)
            .map(|_| bots::connect(&spec).expect("builtin bot"))
            .collect();
        let record = clue_engine::play(config, seed, &mut seats).expect("game");
        let words: u64 = record
            .log
            .iter()
            .map(|e| view::describe(&e.event, &setup.deck, &names).len() as u64 + 24)
            .sum();
        let size = GameSize::of(&setup, &names);
        let bound = size.bytes(config.max_rounds) - size.fixed;
        eprintln!(
            "{}: {words} bytes of events in {} rounds, bound {bound}",
            config.variant, record.rounds
        );
        assert!(
            words <= bound,
            "{}: {words} bytes of events over the bound of {bound} ({} rounds)",
            config.variant,
            record.rounds
        );
    }

    #[test]
    fn the_events_of_long_games_stay_within_the_bound() {
        let mut csci306 = GameConfig::new(Variant::Csci306, 6);
        csci306.max_rounds = 40;
        check(&csci306, 1);
        let mut framework = GameConfig::new(Variant::Framework, 12);
        framework.framework.width = MAX_WIDTH;
        framework.max_rounds = 20;
        check(&framework, 2);
        let mut generalized = GameConfig::new(Variant::Generalized, 32);
        generalized.generalized.items = MAX_ITEMS;
        generalized.generalized.hidden = 32;
        generalized.max_rounds = 10;
        check(&generalized, 3);
        let mut cyberclue = GameConfig::new(Variant::Cyberclue, 5);
        cyberclue.max_rounds = 40;
        check(&cyberclue, 4);
    }

    #[test]
    fn a_game_too_big_is_refused_with_the_rounds_that_fit() {
        let mut config = GameConfig::new(Variant::Generalized, 32);
        config.generalized.items = MAX_ITEMS;
        config.generalized.hidden = 32;
        config.max_rounds = MAX_ROUNDS;
        let setup = view::probe(&config, 1).expect("probe");
        let names = vec!["seat 0 (builtin:notebook)".to_string(); 32];
        let size = GameSize::of(&setup, &names);
        let err = check_game(&setup, MAX_ROUNDS, &names).expect_err("too big");
        assert_eq!(err.status, axum::http::StatusCode::UNPROCESSABLE_ENTITY);
        let fit = size.rounds_within(MAX_GAME_BYTES);
        assert!(fit > 0 && fit < u64::from(MAX_ROUNDS), "{fit}");
        assert!(
            err.message
                .contains(&format!("set max_rounds to {fit} or less")),
            "{}",
            err.message
        );
        assert!(err.message.contains("16384 KiB"), "{}", err.message);
        eprintln!("{}", err.message);
        // The rounds it names fit; one more does not.
        let fit = u32::try_from(fit).expect("rounds");
        assert!(check_game(&setup, fit, &names).is_ok());
        assert!(check_game(&setup, fit + 1, &names).is_err());
        // The default game fits with room to spare.
        let default = GameConfig::new(Variant::Csci306, 6);
        let setup = view::probe(&default, 1).expect("probe");
        let names = vec!["Mrs. White (builtin:notebook)".to_string(); 6];
        assert!(GameSize::of(&setup, &names).bytes(default.max_rounds) < MAX_GAME_BYTES / 4);
    }
}

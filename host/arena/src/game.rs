//! Playing and replaying single games with bots named by spec.

use clue_engine::{GameConfig, GameRecord, Outcome, SeatController, acting_seats, play};

use crate::logfile::GameLog;
use clue_runtime::bots::{self, BotSpec};

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error(transparent)]
    Spec(#[from] bots::SpecError),
    #[error(transparent)]
    Start(#[from] clue_engine::StartError),
    #[error("{given} bots given, but {variant} with {players} players seats {seats}")]
    TooManyBots {
        given: usize,
        variant: clue_plugin_api::Variant,
        players: u8,
        seats: usize,
    },
    #[error("bot `{spec}`: {problem}")]
    BotFiles { spec: BotSpec, problem: String },
}

/// Refuses the first of bots named on the command line whose files are not
/// there ([`crate::config::given_bot_problem`]).
pub fn check_given(given: &[BotSpec]) -> Result<(), RunError> {
    match given
        .iter()
        .find_map(|spec| Some((spec, crate::config::given_bot_problem(spec)?)))
    {
        Some((spec, problem)) => Err(RunError::BotFiles {
            spec: spec.clone(),
            problem,
        }),
        None => Ok(()),
    }
}

/// The bots of a game: those given ([`check_given`]), then built-in bots
/// for the seats left (`notebook` and `clueless` by turns).
pub fn fill_seats(config: &GameConfig, given: &[BotSpec]) -> Result<Vec<BotSpec>, RunError> {
    check_given(given)?;
    let seats = acting_seats(config);
    if given.len() > seats {
        return Err(RunError::TooManyBots {
            given: given.len(),
            variant: config.variant,
            players: config.players,
            seats,
        });
    }
    let mut specs = given.to_vec();
    specs.extend((given.len()..seats).map(filler));
    Ok(specs)
}

/// The built-in bot that fills the `i`th seat no bot was given for (counting
/// every seat the caller fills): `notebook` and `clueless` by turns.
pub fn filler(i: usize) -> BotSpec {
    let name = if i.is_multiple_of(2) {
        "notebook"
    } else {
        "clueless"
    };
    BotSpec {
        kind: bots::BotKind::Builtin,
        target: name.to_string(),
    }
}

/// Seats one bot: [`bots::connect`], or a caller's own (the `clue` binary
/// seats the person at the terminal for `builtin:human`).
pub type Seater<'a> = &'a dyn Fn(&BotSpec) -> Result<Box<dyn SeatController>, bots::SpecError>;

/// Plays one game with freshly loaded bots.
pub fn play_game(
    config: &GameConfig,
    seed: u64,
    specs: &[BotSpec],
) -> Result<GameRecord, RunError> {
    play_game_with(config, seed, specs, &bots::connect)
}

/// [`play_game`], seating each bot with `seat`.
pub fn play_game_with(
    config: &GameConfig,
    seed: u64,
    specs: &[BotSpec],
    seat: Seater<'_>,
) -> Result<GameRecord, RunError> {
    let game = game_span(seed, specs);
    let _game = game.enter();
    let mut controllers: Vec<Box<dyn SeatController>> = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| seat_span(i, spec).in_scope(|| seat(spec)))
        .collect::<Result<_, _>>()?;
    let record = play(config, seed, &mut controllers)?;
    log_disqualifications(&record);
    tracing::debug!(winner = record.winner.map(|w| w.0), "game over");
    Ok(record)
}

/// One `disqualified` event per disqualified seat of a finished game, with
/// the label and the detail (for a protocol error, the bot's exact line).
/// Emitted here, in the game's span, and not by the engine, which stays
/// pure: no global state, not even a log dispatcher.
pub fn log_disqualifications(record: &GameRecord) {
    for seat in &record.seats {
        if let clue_engine::Outcome::Disqualified(reason) = seat.outcome {
            tracing::info!(
                seat = seat.seat.0,
                label = reason.label(),
                detail = seat.detail.as_deref().unwrap_or_default(),
                "disqualified"
            );
        }
    }
}

/// A game's span: its seed and seats (docs/logging.md).
pub fn game_span(seed: u64, specs: &[BotSpec]) -> tracing::Span {
    tracing::info_span!(
        "game",
        index = tracing::field::Empty,
        seed,
        seats = %SeatList(specs)
    )
}

/// A seat's span, entered while its bot is seated: the runtime records
/// which `runtime` runs it, and the bot's calls are its children.
pub fn seat_span(seat: usize, spec: &BotSpec) -> tracing::Span {
    tracing::debug_span!(
        "seat",
        seat,
        bot = %spec,
        kind = spec.kind.name(),
        runtime = tracing::field::Empty
    )
}

/// Bot specs, comma-separated, for a span field.
struct SeatList<'a>(&'a [BotSpec]);

impl std::fmt::Display for SeatList<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, spec) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{spec}")?;
        }
        Ok(())
    }
}

/// The result of re-running a logged game.
#[derive(Debug, PartialEq, Eq)]
pub enum ReplayResult {
    Identical {
        events: usize,
    },
    /// The first event that differs (0-based), with both versions as JSON.
    Differs {
        index: usize,
        logged: Option<String>,
        replayed: Option<String>,
        /// When the replayed event is a disqualification: the seat, its
        /// bot, what it did and the end of its stderr (a bot whose files
        /// are not where they were when the game was played crashes at
        /// its start).
        disqualified: Option<String>,
    },
}

/// What a disqualification of `seat` in `record` was, said in one line.
fn disqualification(
    record: &GameRecord,
    specs: &[BotSpec],
    seat: clue_plugin_api::Seat,
) -> Option<String> {
    let seat_record = record.seats.get(seat.index())?;
    let Outcome::Disqualified(reason) = seat_record.outcome else {
        return None;
    };
    let mut line = format!(
        "seat {} ({}) was disqualified on replay: {}",
        seat.0,
        specs
            .get(seat.index())
            .map(ToString::to_string)
            .unwrap_or_default(),
        reason.label()
    );
    if let Some(detail) = &seat_record.detail {
        line.push_str(&format!(", {detail}"));
    }
    if let Some(stderr) = seat_record
        .stderr
        .as_deref()
        .filter(|e| !e.trim().is_empty())
    {
        line.push_str(&format!(
            "; its stderr ends: {}",
            clue_runtime::process::last_lines(stderr, 2, 300)
        ));
    }
    Some(line)
}

/// Re-runs a logged game from its seed and bots and compares every event.
pub fn replay(log: &GameLog) -> Result<ReplayResult, RunError> {
    let record = play_game(&log.header.config, log.header.seed, &log.header.bots)?;
    let again = GameLog::from_record(&record, &log.header.bots);
    let show = |e: Option<&clue_engine::LogEntry>| e.and_then(|e| serde_json::to_string(e).ok());
    let length = log.entries.len().max(again.entries.len());
    for index in 0..length {
        let (a, b) = (log.entries.get(index), again.entries.get(index));
        if a != b {
            let disqualified = match b.map(|b| &b.event) {
                Some(clue_plugin_api::Event::Disqualified { seat, .. }) => {
                    disqualification(&record, &log.header.bots, *seat)
                }
                _ => None,
            };
            return Ok(ReplayResult::Differs {
                index,
                logged: show(a),
                replayed: show(b),
                disqualified,
            });
        }
    }
    // What a bot printed to stderr is kept but not compared: it may differ
    // between runs (timings) without the game differing.
    let compared = |summary: &Option<crate::logfile::Summary>| {
        summary.clone().map(|mut summary| {
            summary.seats.iter_mut().for_each(|seat| seat.stderr = None);
            summary
        })
    };
    if log.summary.is_some() && compared(&log.summary) != compared(&again.summary) {
        return Ok(ReplayResult::Differs {
            index: length,
            logged: log
                .summary
                .as_ref()
                .and_then(|s| serde_json::to_string(s).ok()),
            replayed: again
                .summary
                .as_ref()
                .and_then(|s| serde_json::to_string(s).ok()),
            disqualified: None,
        });
    }
    Ok(ReplayResult::Identical { events: length })
}

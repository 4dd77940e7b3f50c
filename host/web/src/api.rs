//! The game API: start a game with the person in one seat, show the seat's
//! view, and take the person's answers after checking them.

use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use clue_engine::config::BoardText;
use clue_engine::{GameConfig, GameOptions, SeatController, acting_seats};
use clue_plugin_api::{Seat, Variant};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::seat::{Paced, Table, WebHuman};
use super::view;
use super::{ApiError, AppState, limits};
use clue_runtime::bots::{self, BotKind, BotSpec};

mod answer;

pub use answer::{Seen, act, check};

/// The project's own boards, offered by name.
pub const BOARDS: [(&str, &str, &str); 2] = [
    (
        "csci306",
        include_str!("../../../boards/csci306/ClueLayout.csv"),
        include_str!("../../../boards/csci306/ClueSetup.txt"),
    ),
    (
        "classic",
        include_str!("../../../boards/classic/ClueLayout.csv"),
        include_str!("../../../boards/classic/ClueSetup.txt"),
    ),
];

/// A game being played with a person in it.
pub struct Session {
    pub config: GameConfig,
    pub seed: u64,
    pub seat: Seat,
    /// Each acting seat's bot spec, "you" for the person.
    pub labels: Vec<String>,
    pub table: Arc<Table>,
}

/// An uploaded file: its name (for error messages) and its text.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Upload {
    pub name: String,
    pub text: String,
}

/// A game's seed as `POST /api/games` takes it: a JSON number, or the
/// number's decimal digits as a string. The page sends the string, since a
/// JavaScript number keeps only 53 bits: a seed the page shows (the server
/// draws them from all 64 bits) would come back as another seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seed(pub u64);

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visitor;
        impl serde::de::Visitor<'_> for Visitor {
            type Value = Seed;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(
                    f,
                    "a seed: a whole number from 0 to {}, or its digits as a string",
                    u64::MAX
                )
            }
            fn visit_u64<E: serde::de::Error>(self, seed: u64) -> Result<Seed, E> {
                Ok(Seed(seed))
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Seed, E> {
                // Digits only: `u64`'s own parse also takes a leading `+`.
                let digits = text.trim();
                let refused = || E::invalid_value(serde::de::Unexpected::Str(text), &self);
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(refused());
                }
                digits.parse().map(Seed).map_err(|_| refused())
            }
        }
        deserializer.deserialize_any(Visitor)
    }
}

/// What `POST /api/games` takes. Everything but the variant is optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRequest {
    pub variant: Option<Variant>,
    pub players: Option<u8>,
    pub seed: Option<Seed>,
    /// The person's seat (default 0).
    pub seat: Option<u8>,
    /// Bot specs for the other acting seats, in seat order; missing ones are
    /// built-in bots (notebook and clueless by turns).
    #[serde(default)]
    pub bots: Vec<String>,
    /// One of the project's boards by name (csci306, classic).
    pub board: Option<String>,
    /// An uploaded board: both files.
    pub layout: Option<Upload>,
    pub setup: Option<Upload>,
    pub max_rounds: Option<u32>,
    pub items: Option<u16>,
    pub hidden: Option<u16>,
    pub width: Option<u16>,
    /// Milliseconds each bot waits before moving or suggesting, so a person
    /// can follow (default 0).
    pub delay_ms: Option<u64>,
}

#[derive(Serialize)]
pub struct Started {
    pub id: u64,
}

pub async fn options(State(app): State<Arc<AppState>>) -> Json<Value> {
    Json(json!({
        "bots": app.bots.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "allow_bots": app.allow_bots,
        "variants": Variant::ALL.iter().map(|v| json!({
            "name": v.name(),
            "players": GameConfig::default_players(*v),
            "acting": acting_seats(&GameConfig::new(*v, GameConfig::default_players(*v))),
        })).collect::<Vec<_>>(),
        "builtins": bots::BUILTINS.iter().filter(|b| **b != "human").map(|b| format!("builtin:{b}")).collect::<Vec<_>>(),
        "kinds": BotKind::ALL.iter().map(|k| k.name()).collect::<Vec<_>>(),
        "boards": BOARDS.iter().map(|b| b.0).collect::<Vec<_>>(),
        "default": { "variant": "csci306", "players": 6, "board": "csci306" },
    }))
}

fn parse_body<T: for<'de> Deserialize<'de>>(body: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| {
        let message = e.to_string();
        let hint = clue_runtime::suggest::serde_hint(&message);
        ApiError::new(
            StatusCode::BAD_REQUEST,
            format!("bad request body: {message}{hint}"),
        )
    })
}

/// Builds the game configuration a start request asks for.
pub fn config_of(request: &StartRequest) -> Result<GameConfig, ApiError> {
    let variant = request.variant.unwrap_or(Variant::Csci306);
    let players = request
        .players
        .unwrap_or_else(|| GameConfig::default_players(variant));
    let options = GameOptions {
        max_rounds: request.max_rounds,
        items: request.items,
        hidden: request.hidden,
        width: request.width,
        ..GameOptions::default()
    };
    // An option of another variant would be ignored: refused, as the
    // command line and tournament files refuse it.
    let boards = [
        ("layout", request.layout.is_some()),
        ("setup", request.setup.is_some()),
        ("board", request.board.is_some()),
    ];
    let boards = boards
        .iter()
        .filter(|(_, given)| *given)
        .map(|(name, _)| *name);
    for name in options.given().into_iter().chain(boards) {
        if let Some(why) = clue_engine::config::option_refused(name, variant) {
            return Err(ApiError::bad(why));
        }
    }
    let mut config = options.config(variant, players);
    match (&request.layout, &request.setup, &request.board) {
        (Some(layout), Some(setup), _) => {
            config.board = Some(BoardText {
                layout_name: layout.name.clone(),
                layout: layout.text.clone(),
                setup_name: setup.name.clone(),
                setup: setup.text.clone(),
            });
        }
        (Some(_), None, _) | (None, Some(_), _) => {
            return Err(ApiError::bad(
                "an uploaded board needs both files: the layout csv and the setup txt",
            ));
        }
        (None, None, Some(name)) => {
            let Some((dir, layout, setup)) = BOARDS.iter().find(|b| b.0 == name) else {
                let known: Vec<&str> = BOARDS.iter().map(|b| b.0).collect();
                return Err(ApiError::bad(format!(
                    "unknown board `{name}` (boards: {})",
                    known.join(", ")
                )));
            };
            config.board = Some(BoardText {
                layout_name: format!("boards/{dir}/ClueLayout.csv"),
                layout: layout.to_string(),
                setup_name: format!("boards/{dir}/ClueSetup.txt"),
                setup: setup.to_string(),
            });
        }
        (None, None, None) => {}
    }
    config
        .validate()
        .map_err(|e| ApiError::bad(e.to_string()))?;
    Ok(config)
}

pub async fn start(
    State(app): State<Arc<AppState>>,
    body: Bytes,
) -> Result<Json<Started>, ApiError> {
    let request: StartRequest = parse_body(&body)?;
    limits::check(&request)?;
    let config = config_of(&request)?;
    let acting = acting_seats(&config);
    let seat = request.seat.unwrap_or(0);
    if usize::from(seat) >= acting {
        return Err(ApiError::bad(format!(
            "seat {seat} is not a seat you can play: {} has {acting} acting seat(s)",
            config.variant
        )));
    }
    if request.bots.len() > acting - 1 {
        return Err(ApiError::bad(format!(
            "{} bots given, but only {} seat(s) are left besides yours",
            request.bots.len(),
            acting - 1
        )));
    }
    let mut specs = Vec::new();
    for (i, text) in request.bots.iter().enumerate() {
        let spec = BotSpec::from_str(text).map_err(|e| ApiError::bad(e.to_string()))?;
        if spec.kind == BotKind::Builtin && spec.target == "human" {
            return Err(ApiError::bad(format!(
                "bot {}: builtin:human plays in a terminal; in the browser, you are the human",
                i + 1
            )));
        }
        if spec.kind != BotKind::Builtin && !app.allow_bots && !app.bots.contains(&spec) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "bot {}: `{text}` is not seated here: this server seats built-in bots and \
                     the bots of its tournament file; start it with --allow-bots to seat \
                     process, native and wasm bots named by the page",
                    i + 1
                ),
            ));
        }
        specs.push(spec);
    }
    // Held by the game's thread until the game ends.
    let Some(slot) = app.slots.take() else {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "{} games are in play, the most this server runs at once; try again when one ends",
                limits::MAX_GAMES
            ),
        ));
    };
    specs.extend((specs.len()..acting - 1).map(clue_arena::game::filler));
    let seed = request.seed.map_or_else(random_seed, |Seed(seed)| seed);
    let delay = Duration::from_millis(request.delay_ms.unwrap_or(0).min(5_000));
    let idle_limit = app.idle_limit;
    let checked = config.clone();
    // The board and deck are bounded by the options checked above; the
    // game's whole size is checked before its thread starts.
    let setup = tokio::task::spawn_blocking(move || view::probe(&checked, seed))
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
        .map_err(ApiError::bad)?;
    let mut labels: Vec<String> = specs.iter().map(ToString::to_string).collect();
    labels.insert(usize::from(seat), "you".to_string());
    limits::check_game(
        &setup,
        config.max_rounds,
        &view::seat_names(&setup, &labels),
    )?;

    let table = Arc::new(Table::default());
    let id = app.next_id.fetch_add(1, Ordering::SeqCst);
    let session = Arc::new(Session {
        config: config.clone(),
        seed,
        seat: Seat(seat),
        labels,
        table: table.clone(),
    });
    let (ready_tx, ready_rx) = std::sync::mpsc::channel::<Result<(), String>>();
    let game_table = table.clone();
    std::thread::Builder::new()
        .name(format!("web-game-{id}"))
        .spawn(move || {
            let _slot = slot;
            let mut seats: Vec<Box<dyn SeatController>> = Vec::new();
            let mut bots = specs.iter();
            for s in 0..acting {
                if s == usize::from(seat) {
                    seats.push(Box::new(WebHuman {
                        table: game_table.clone(),
                        idle_limit,
                    }));
                    continue;
                }
                let Some(spec) = bots.next() else { break };
                match bots::connect(spec) {
                    Ok(bot) => seats.push(Box::new(Paced { inner: bot, delay })),
                    Err(e) => {
                        let _ = ready_tx.send(Err(e.to_string()));
                        return;
                    }
                }
            }
            let _ = ready_tx.send(Ok(()));
            let result = clue_engine::play(&config, seed, &mut seats).map_err(|e| e.to_string());
            game_table.finish(result);
        })
        .map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot start the game: {e}"),
            )
        })?;
    let waited = table.clone();
    let ready = tokio::task::spawn_blocking(move || {
        let ready = ready_rx
            .recv()
            .unwrap_or_else(|_| Err("the game stopped before it began".to_string()));
        if ready.is_ok() {
            waited.wait_started(Duration::from_secs(10));
        }
        ready
    })
    .await
    .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    ready.map_err(ApiError::bad)?;
    let mut games = app.games.lock().unwrap_or_else(|e| e.into_inner());
    // A server runs for days: forget games that ended long ago.
    games.retain(|_, game| !game.table.ended_before(KEEP_ENDED));
    games.insert(id, session);
    Ok(Json(Started { id }))
}

/// How long an ended game stays on the server for its page to show.
const KEEP_ENDED: Duration = Duration::from_secs(60 * 60);

fn random_seed() -> u64 {
    use std::hash::{BuildHasher, RandomState};
    RandomState::new().hash_one(std::time::SystemTime::now())
}

fn session(app: &AppState, id: &str) -> Result<Arc<Session>, ApiError> {
    let not_found = || ApiError::new(StatusCode::NOT_FOUND, format!("no game `{id}`"));
    let id: u64 = id.parse().map_err(|_| not_found())?;
    app.games
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&id)
        .cloned()
        .ok_or_else(not_found)
}

#[derive(Deserialize)]
pub struct Since {
    since: Option<u64>,
}

pub async fn state(
    State(app): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(since): Query<Since>,
) -> Result<Json<Value>, ApiError> {
    let session = session(&app, &id)?;
    if let Some(version) = since.since {
        let table = session.table.clone();
        let _ = tokio::task::spawn_blocking(move || {
            table.wait_change(version, Duration::from_secs(20))
        })
        .await;
    }
    Ok(Json(seat_view(&session)))
}

/// The person's view of the game, as the page draws it.
pub fn seat_view(session: &Session) -> Value {
    let state = session.table.lock();
    let Some(setup) = &state.setup else {
        return json!({ "version": state.version, "error": state.error, "setup": null });
    };
    let names = view::seat_names(setup, &session.labels);
    let board = view::board(&setup.starts, usize::from(setup.players), &state.events);
    let events: Vec<String> = state
        .events
        .iter()
        .map(|e| view::describe(e, &setup.deck, &names))
        .collect();
    let finished = state.record.as_ref().map(|r| {
        json!({
            "winner": r.winner,
            "envelope": r.envelope,
            "outcomes": r.seats.iter().map(|s| format!("{:?}", s.outcome).to_lowercase()).collect::<Vec<_>>(),
            "hands": r.hands,
        })
    });
    json!({
        "version": state.version,
        // A string: JavaScript numbers cannot hold every u64.
        "seed": session.seed.to_string(),
        "variant": setup.variant,
        "seat": setup.seat,
        "players": setup.players,
        "names": names,
        "deck": setup.deck.cards.iter().enumerate().map(|(i, c)| json!({"id": i, "name": c.name, "category": c.category})).collect::<Vec<_>>(),
        "hand": setup.hand,
        "hand_sizes": setup.hand_sizes,
        "rules": setup.rules,
        "board": setup.board,
        "positions": board.positions,
        "turn": board.turn,
        "last_move": board.last_move,
        "events": events,
        "pending": state.pending.as_ref().map(|p| json!({"id": p.id, "request": p.request})),
        "notebook": view::notebook(setup, &state.events),
        "finished": finished,
        "error": state.error,
    })
}

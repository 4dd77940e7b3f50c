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
use clue_engine::validate::{self, Violation};
use clue_engine::{GameConfig, GameOptions, SeatController, acting_seats};
use clue_plugin_api::{
    Accusation, Card, Deck, Event, Position, Reply, Request, Seat, Setup, Suggestion, Variant,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::seat::{Paced, Table, WebHuman};
use super::view;
use super::{ApiError, AppState, limits};
use clue_runtime::bots::{self, BotKind, BotSpec};

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

/// What `POST /api/games` takes. Everything but the variant is optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRequest {
    pub variant: Option<Variant>,
    pub players: Option<u8>,
    pub seed: Option<u64>,
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
    let seed = request.seed.unwrap_or_else(random_seed);
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

/// The page's answers, one shape per action.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveBody {
    request: u64,
    to: Position,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SuggestBody {
    request: u64,
    suggestion: Option<Suggestion>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RespondBody {
    request: u64,
    card: Card,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AccuseBody {
    request: u64,
    accusation: Option<Accusation>,
}

pub async fn act(
    State(app): State<Arc<AppState>>,
    Path((id, action)): Path<(String, String)>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let session = session(&app, &id)?;
    if action == "leave" {
        session.table.abandon();
        return Ok(Json(json!({ "ok": true })));
    }
    let (request_id, reply) = match action.as_str() {
        "move" => {
            let b: MoveBody = parse_body(&body)?;
            (b.request, Reply::Move { to: b.to })
        }
        "suggest" => {
            let b: SuggestBody = parse_body(&body)?;
            (
                b.request,
                Reply::Suggest {
                    suggestion: b.suggestion,
                },
            )
        }
        "respond" => {
            let b: RespondBody = parse_body(&body)?;
            (b.request, Reply::Respond { card: Some(b.card) })
        }
        "accuse" => {
            let b: AccuseBody = parse_body(&body)?;
            (
                b.request,
                Reply::Accuse {
                    accusation: b.accusation,
                },
            )
        }
        other => {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                format!("unknown action `{other}` (move, suggest, respond, accuse, leave)"),
            ));
        }
    };
    let (pending, setup, seen) = {
        let state = session.table.lock();
        let Some(pending) = state.pending.clone() else {
            let why = if state.record.is_some() {
                "the game is over"
            } else {
                "the game is not waiting for you right now"
            };
            return Err(ApiError::new(StatusCode::CONFLICT, why));
        };
        let Some(setup) = state.setup.clone() else {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "the game has not begun",
            ));
        };
        let seen = Seen {
            suggestions: state.suggestions.clone(),
            shown: shown_to(setup.seat, &state.events),
        };
        (pending, setup, seen)
    };
    if pending.id != request_id {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "request {request_id} is stale: the game is waiting for request {}",
                pending.id
            ),
        ));
    }
    check(&session.config, &setup, &seen, &pending.request, &reply).map_err(ApiError::bad)?;
    session
        .table
        .answer(request_id, reply)
        .map_err(|e| ApiError::new(StatusCode::CONFLICT, e.to_string()))?;
    Ok(Json(json!({ "ok": true })))
}

/// What the contest rules of Speed Clue hold against the person's seat:
/// its suggestions so far (none may be repeated) and the cards shown to it,
/// with who showed each (none may be accused, nor a card of its hand).
pub struct Seen {
    pub suggestions: Vec<Suggestion>,
    pub shown: Vec<(Card, Seat)>,
}

/// The cards shown to `seat` when it suggested, and who showed each, from
/// the events it saw.
fn shown_to(seat: Seat, events: &[Event]) -> Vec<(Card, Seat)> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Answered {
                suggester,
                shown_by: Some(by),
                card: Some(card),
                ..
            } if *suggester == seat => Some((*card, *by)),
            _ => None,
        })
        .collect()
}

/// Whether `reply` is a legal answer to `request`, by the engine's own
/// rules ([`validate::reply`]): the engine would disqualify the seat
/// otherwise, so the person is told instead, in their words.
pub fn check(
    config: &GameConfig,
    setup: &Setup,
    seen: &Seen,
    request: &Request,
    reply: &Reply,
) -> Result<(), String> {
    let judge = validate::Judge {
        config,
        deck: &setup.deck,
        hidden: &setup.rules.hidden,
        contest_rules: setup.rules.contest_rules,
        hand: &setup.hand,
        suggestions: &seen.suggestions,
        shown: &seen.shown,
    };
    validate::reply(&judge, request, reply).map_err(|v| to_person(&v, &setup.deck))
}

/// A rule the person's answer breaks, said to them.
fn to_person(violation: &Violation, deck: &Deck) -> String {
    let name = |card: &Card| deck.name(*card).to_string();
    match violation {
        Violation::WrongKind { request, reply } => {
            format!("the game is waiting for you to {request}, not to {reply}")
        }
        Violation::NotATarget { to, targets } => format!(
            "you cannot move to {}: it is not one of the {targets} targets of your roll",
            place(deck, *to)
        ),
        Violation::DeclinedSuggestion => "you must make a suggestion now".to_string(),
        Violation::Suggestion(shape) => format!("that suggestion {}", shape.describe(deck)),
        Violation::RepeatedSuggestion(_) => {
            "you made that suggestion before; the contest rules forbid repeating it".to_string()
        }
        Violation::HidMatchingCard { matching } => match matching.as_slice() {
            [card] => format!("you hold {}: show it", name(card)),
            cards => format!(
                "you hold {}: show one of them",
                cards.iter().map(name).collect::<Vec<_>>().join(" and ")
            ),
        },
        Violation::ShowedOther(card) if !deck.contains(*card) => {
            format!("there is no card {card}")
        }
        Violation::ShowedOther(card) => format!(
            "you cannot show {}: show one of your cards in the suggestion",
            name(card)
        ),
        Violation::DeclinedAccusation => "you must accuse now".to_string(),
        Violation::Accusation(shape) => format!("that accusation {}", shape.describe(deck)),
        Violation::Suicidal(seen) => {
            let whence = match seen.shown_by {
                None => format!("you hold {}", name(&seen.card)),
                Some(by) => format!("seat {} showed you {}", by.0, name(&seen.card)),
            };
            format!("{whence}; the contest rules forbid accusing a card you have seen")
        }
    }
}

fn place(deck: &Deck, to: Position) -> String {
    match to {
        Position::Room(card) => format!("the {}", deck.name(card)),
        Position::Cell { row, col } => format!("({row}, {col})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clue_engine::validate::Shape;
    use clue_plugin_api::Category;

    /// Each rule a person's answer can break is said to them in the second
    /// person, naming the cards.
    #[test]
    fn each_violation_is_said_to_the_person() {
        let deck = GameConfig::new(Variant::Speedclue, 3)
            .standard_deck()
            .expect("the classic deck");
        let [person, weapon] = [Category::Person, Category::Weapon].map(|c| deck.of(c)[0]);
        let said = |violation: Violation| to_person(&violation, &deck);
        let (p, w) = (deck.name(person), deck.name(weapon));
        assert_eq!(
            said(Violation::HidMatchingCard {
                matching: vec![person]
            }),
            format!("you hold {p}: show it")
        );
        assert_eq!(
            said(Violation::HidMatchingCard {
                matching: vec![person, weapon]
            }),
            format!("you hold {p} and {w}: show one of them")
        );
        assert_eq!(
            said(Violation::ShowedOther(Card(200))),
            "there is no card #200"
        );
        assert_eq!(
            said(Violation::ShowedOther(weapon)),
            format!("you cannot show {w}: show one of your cards in the suggestion")
        );
        assert_eq!(
            said(Violation::Suggestion(Shape::Category {
                card: weapon,
                want: Category::Person
            })),
            format!("that suggestion named {w} where a person belongs")
        );
        assert_eq!(
            said(Violation::Suicidal(validate::SeenCard {
                card: person,
                shown_by: Some(Seat(2))
            })),
            format!(
                "seat 2 showed you {p}; the contest rules forbid accusing a card you have seen"
            )
        );
        assert_eq!(
            said(Violation::WrongKind {
                request: "move",
                reply: "respond"
            }),
            "the game is waiting for you to move, not to respond"
        );
    }
}

//! Stored games: the list of the results store given to `clue serve --db`,
//! and one game decoded from its compressed log, every event with the tokens
//! after it, as the omniscient viewer sees it. A tournament writing to the
//! same store shows its games here as each one is stored, and its games in
//! play (`live`) with their events so far.

use std::path::Path;
use std::sync::Arc;

use axum::Json;
use axum::extract::{Path as UrlPath, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::view;
use super::{ApiError, AppState};
use clue_arena::logfile::GameLog;
use clue_arena::store::{Store, StoreError};

fn open(db: &Path) -> Result<Store, ApiError> {
    if !clue_arena::store::exists(db) {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "{}: no such results store (run a tournament first)",
                db.display()
            ),
        ));
    }
    Store::open(db).map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))
}

/// Runs `f` on the server's one handle on the store, opening it the first
/// time (a store that does not open is tried again at the next request).
/// Requests take turns on it: a spectators' page asks little.
fn with_store<T>(
    app: &AppState,
    db: &Path,
    f: impl FnOnce(&Store) -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    let mut kept = app.store.lock().map_err(|_| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the store's handle was poisoned by a failed request",
        )
    })?;
    let store = match kept.take() {
        Some(store) => store,
        None => open(db)?,
    };
    let result = f(&store);
    *kept = Some(store);
    result
}

async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
}

/// Stored games a page of the list shows.
pub const PAGE_SIZE: usize = 50;

#[derive(Deserialize)]
pub struct ListQuery {
    /// Which page of [`PAGE_SIZE`] games, from 0; past the last, the last.
    page: Option<usize>,
}

/// What the list is made of: the stored games' indices and the games in
/// play with their event counts. Cheap to read (no game rows, no logs), so
/// an unchanged list is answered `304 Not Modified` without building it.
fn fingerprint(store: &Store) -> Result<(usize, u64), ApiError> {
    use std::hash::{Hash, Hasher};
    let done = store.done().map_err(internal)?;
    let live = store.live_games().map_err(internal)?;
    // Not a security token: it only tells this page's list from another.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    done.hash(&mut hasher);
    for game in &live {
        (game.index, game.events).hash(&mut hasher);
    }
    Ok((done.len(), hasher.finish()))
}

fn internal(e: StoreError) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
}

/// `GET /api/replays?page=P`: one page of the stored games and every game
/// in play, with an `ETag`; a request naming that `ETag` in
/// `If-None-Match` gets `304 Not Modified` while nothing has changed.
pub async fn list(
    State(app): State<Arc<AppState>>,
    Query(query): Query<ListQuery>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let Some(db) = app.db.clone() else {
        return Ok(Json(json!({ "db": null, "games": [], "live": [], "total": 0, "page": 0, "pages": 0, "per_page": PAGE_SIZE })).into_response());
    };
    let seen = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    blocking(move || {
        if !clue_arena::store::exists(&db) {
            return Ok(Json(
                json!({ "db": clue_arena::store::display_name(&db), "games": [], "live": [], "missing": true, "total": 0, "page": 0, "pages": 0, "per_page": PAGE_SIZE }),
            )
            .into_response());
        }
        with_store(&app, &db, |store| {
            let (total, hash) = fingerprint(store)?;
            let pages = total.div_ceil(PAGE_SIZE);
            let page = query.page.unwrap_or(0).min(pages.saturating_sub(1));
            let etag = format!("\"{total}-{page}-{hash:016x}\"");
            let tagged = |response: Response| {
                let mut response = response;
                if let Ok(value) = header::HeaderValue::from_str(&etag) {
                    response.headers_mut().insert(header::ETAG, value);
                }
                // The page asks every time; the tag makes an unchanged answer empty.
                response.headers_mut().insert(
                    header::CACHE_CONTROL,
                    header::HeaderValue::from_static("no-cache"),
                );
                response
            };
            if seen.as_deref() == Some(etag.as_str()) {
                return Ok(tagged(StatusCode::NOT_MODIFIED.into_response()));
            }
            let rows: Vec<_> = store
                .games()
                .map_err(internal)?
                .into_iter()
                .skip(page * PAGE_SIZE)
                .take(PAGE_SIZE)
                .collect();
            let mut games = serde_json::to_value(rows)
                .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
            // Seeds are 64-bit: as text, so JavaScript shows them exactly.
            for game in games.as_array_mut().into_iter().flatten() {
                if let Some(seed) = game.get("seed").and_then(Value::as_u64) {
                    game["seed"] = json!(seed.to_string());
                }
            }
            let live: Vec<Value> = store
                .live_games()
                .map_err(internal)?
                .into_iter()
                .map(|g| {
                    json!({
                        "index": g.index,
                        "seed": g.header.seed.to_string(),
                        "variant": g.header.config.variant,
                        "bots": g.header.bots.iter().map(ToString::to_string).collect::<Vec<_>>(),
                        "events": g.events,
                    })
                })
                .collect();
            Ok(tagged(
                Json(json!({
                    "db": clue_arena::store::display_name(&db),
                    "games": games,
                    "live": live,
                    "total": total,
                    "page": page,
                    "pages": pages,
                    "per_page": PAGE_SIZE,
                }))
                .into_response(),
            ))
        })
    })
    .await
}

/// A stored game, or else one still in play (its events so far, no summary).
fn stored_or_live(store: &Store, index: u64) -> Result<GameLog, ApiError> {
    let internal = |e: StoreError| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string());
    // Twice: a game that ends between the two looks is stored the second time.
    for _ in 0..2 {
        match store.log(index) {
            Ok(log) => return Ok(log),
            Err(StoreError::NoGame { .. }) => {}
            Err(e) => return Err(internal(e)),
        }
        if let Some(log) = store.live_log(index).map_err(internal)? {
            return Ok(log);
        }
    }
    Err(ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no game {index} in the store, stored or in play"),
    ))
}

pub async fn game(
    State(app): State<Arc<AppState>>,
    UrlPath(index): UrlPath<String>,
) -> Result<Json<Value>, ApiError> {
    let Some(db) = app.db.clone() else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            "no results store: start `clue serve --db results.sqlite`",
        ));
    };
    let index: u64 = index
        .parse()
        .map_err(|_| ApiError::new(StatusCode::NOT_FOUND, format!("no game `{index}`")))?;
    blocking(move || {
        let log = with_store(&app, &db, |store| stored_or_live(store, index))?;
        let live = log.summary.is_none();
        let setup = view::probe(&log.header.config, log.header.seed)
            .map_err(|e| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e))?;
        let labels: Vec<String> = log.header.bots.iter().map(ToString::to_string).collect();
        let names = view::seat_names(&setup, &labels);
        let players = usize::from(setup.players);
        let mut board = view::Board::new(&setup.starts, players);
        let frames: Vec<Value> = log
            .entries
            .iter()
            .map(|entry| {
                board.apply(&entry.event);
                json!({
                    "text": view::describe(&entry.event, &setup.deck, &names),
                    "positions": board.positions,
                    "turn": board.turn,
                    "last_move": board.last_move,
                    "seen_by": entry.seen_by,
                })
            })
            .collect();
        Ok(Json(json!({
            "index": index,
            "variant": log.header.config.variant,
            "seed": log.header.seed.to_string(),
            "players": players,
            "names": names,
            "deck": setup.deck.cards.iter().enumerate().map(|(i, c)| json!({"id": i, "name": c.name, "category": c.category})).collect::<Vec<_>>(),
            "board": setup.board,
            "starts": view::positions(&setup.starts, players, &[]),
            "hands": log.summary.as_ref().map(|s| s.hands.clone()),
            "envelope": log.summary.as_ref().map(|s| s.envelope.clone()),
            "winner": log.summary.as_ref().and_then(|s| s.winner),
            "live": live,
            "frames": frames,
        })))
    })
    .await
}

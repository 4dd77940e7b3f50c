//! `clue serve`: play and watch Clue in the browser.
//!
//! One page (HTML, CSS and plain JavaScript, bundled into the binary) talks
//! to a small JSON API:
//!
//! | method and path | what it does |
//! | --- | --- |
//! | `GET /api/options` | variants, built-in bots and boards the page offers |
//! | `POST /api/games` | starts a game with the person in one seat ([`api::StartRequest`]) |
//! | `GET /api/games/{id}?since=V` | the person's view; waits up to 20 s for a version past `V` |
//! | `POST /api/games/{id}/{move,suggest,respond,accuse}` | answers the pending request |
//! | `POST /api/games/{id}/leave` | abandons the game (the seat times out) |
//! | `GET /api/replays?page=P` | a page of the games of the results store (`--db`), with an `ETag` |
//! | `GET /api/replays/{index}` | one stored game, every event with the tokens after it |
//!
//! Every refusal is an HTTP 4xx with `{"error": "..."}`; nothing the page
//! sends reaches the engine before it is checked against the request the
//! engine is waiting on. Requests from other sites are refused ([`guard`]),
//! every option and the whole game are bounded ([`limits`]), and the page seats only built-in
//! bots and the bots of the server's tournament file unless the server was
//! started with `allow_bots`.
//!
//! ```no_run
//! use clue_web::{IDLE_LIMIT, ServeOptions, serve};
//!
//! let options = ServeOptions {
//!     addr: "127.0.0.1:8080".parse().unwrap(),
//!     db: Some("results.sqlite".into()),
//!     idle_limit: IDLE_LIMIT,
//!     allow_bots: false,
//!     allow_remote: false,
//!     bots: Vec::new(),
//! };
//! serve(&options).unwrap(); // runs until the process is stopped
//! ```

#![forbid(unsafe_code)]

pub mod api;
pub mod guard;
pub mod limits;
pub mod replay;
pub mod seat;
pub mod view;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{StatusCode, header};
use axum::middleware;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use clue_runtime::bots::BotSpec;

const INDEX_HTML: &str = include_str!("static/index.html");
const APP_JS: &str = include_str!("static/app.js");
const APP_CSS: &str = include_str!("static/app.css");

/// How `clue serve` is set up.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    pub addr: SocketAddr,
    /// A tournament results store to list and replay games from.
    pub db: Option<PathBuf>,
    /// How long a person's seat waits for an answer (see [`seat::WebHuman`]).
    pub idle_limit: Duration,
    /// Seat process, native and wasm bots a request names (`--allow-bots`).
    pub allow_bots: bool,
    /// Answer to any `Host` name (`--allow-remote`, for a server bound to a
    /// non-loopback address).
    pub allow_remote: bool,
    /// Bots the page may seat besides the built-in ones (a tournament file's).
    pub bots: Vec<BotSpec>,
}

/// The default of [`ServeOptions::idle_limit`]: half an hour per decision.
pub const IDLE_LIMIT: Duration = Duration::from_secs(30 * 60);

/// Everything the handlers share.
pub struct AppState {
    pub games: Mutex<HashMap<u64, Arc<api::Session>>>,
    pub next_id: AtomicU64,
    pub db: Option<PathBuf>,
    /// The store at `db`, opened at the first request that finds it and
    /// kept: one SQLite connection, or one PostgreSQL connection pool, for
    /// the server's lifetime.
    pub store: Mutex<Option<clue_arena::store::Store>>,
    pub idle_limit: Duration,
    pub allow_bots: bool,
    pub bots: Vec<BotSpec>,
    /// One permit per game in play, at most [`limits::MAX_GAMES`].
    pub slots: limits::Slots,
}

/// A refusal: an HTTP status and a lowercase message, sent as JSON.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, axum::Json(body)).into_response()
    }
}

/// The router, for the server and for tests that run it in-process;
/// `options.addr` is the address it answers as (with its real port).
pub fn router(options: &ServeOptions) -> Router {
    let state = Arc::new(AppState {
        games: Mutex::new(HashMap::new()),
        next_id: AtomicU64::new(1),
        db: options.db.clone(),
        store: Mutex::new(None),
        idle_limit: options.idle_limit,
        allow_bots: options.allow_bots,
        bots: options.bots.clone(),
        slots: limits::Slots::default(),
    });
    let guard = Arc::new(guard::Guard {
        addr: options.addr,
        any_host: options.allow_remote,
    });
    Router::new()
        .route(
            "/",
            get(|| async { page("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { page("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/app.css",
            get(|| async { page("text/css; charset=utf-8", APP_CSS) }),
        )
        .route("/api/options", get(api::options))
        .route("/api/games", post(api::start))
        .route("/api/games/{id}", get(api::state))
        .route("/api/games/{id}/{action}", post(api::act))
        .route("/api/replays", get(replay::list))
        .route("/api/replays/{index}", get(replay::game))
        .fallback(|| async { ApiError::new(StatusCode::NOT_FOUND, "no such page") })
        .with_state(state)
        .layer(DefaultBodyLimit::max(limits::MAX_BODY))
        .layer(middleware::from_fn_with_state(guard, guard::check))
}

fn page(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type)], body).into_response()
}

#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    #[error("cannot start the server runtime: {0}")]
    Runtime(std::io::Error),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("the server stopped: {0}")]
    Serve(std::io::Error),
}

/// Serves the page until the process is stopped. Prints the address it
/// listens on (`listening on http://ADDR`) once it accepts connections.
pub fn serve(options: &ServeOptions) -> Result<(), ServeError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_io()
        .build()
        .map_err(ServeError::Runtime)?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(options.addr)
            .await
            .map_err(|source| ServeError::Bind {
                addr: options.addr,
                source,
            })?;
        let addr = listener.local_addr().unwrap_or(options.addr);
        println!("listening on http://{addr}");
        use std::io::Write;
        let _ = std::io::stdout().flush();
        let options = ServeOptions {
            addr,
            ..options.clone()
        };
        axum::serve(listener, router(&options))
            .await
            .map_err(ServeError::Serve)
    })
}

//! The worker's side of an isolated native bot: `clue worker native PATH`
//! loads the plugin and serves it over standard input and output with the
//! JSON-lines protocol of process bots (`clue_plugin_api::stdio`).
//!
//! A call that comes back with an error (the bot panicked) is reported on
//! stderr and ends the worker with [`PANIC_STATUS`]; the host sees the worker
//! exit, labels the seat `crash` and quotes the report. A segfault, abort,
//! stack overflow or `exit()` in the plugin ends the worker by itself.

use std::io::Write;
use std::path::Path;

use abi_stable::std_types::{RResult, RStr};
use clue_plugin_api::native::{CallError, PlayerBox};
use clue_plugin_api::{
    Accusation, AccuseRequest, Card, Event, MoveRequest, Player, Position, Reply, Request,
    RespondRequest, Setup, SuggestRequest, Suggestion, wire,
};

use super::library::{LoadError, NativePlugin};

/// The worker's exit status after the plugin panicked (Rust's own panic status).
pub const PANIC_STATUS: i32 = 101;

/// The marker that starts the worker's report of a failed call on stderr.
pub const REPORT: &str = "clue worker: ";

/// Why the worker stopped before or while serving.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("serving the bot: {0}")]
    Io(#[from] std::io::Error),
}

/// Loads the plugin at `path` and plays one game over stdin and stdout.
pub fn serve(path: &Path) -> Result<(), WorkerError> {
    let plugin = NativePlugin::load(path)?;
    let player = plugin.new_player(path)?;
    clue_plugin_api::stdio::serve_stdio(Remote { player })?;
    Ok(())
}

/// The plugin's player as a [`Player`], so that the protocol is served by the
/// same code as every process bot. Each call is re-encoded for the FFI.
struct Remote {
    player: PlayerBox,
}

impl Remote {
    fn ask(&mut self, request: Request) -> Reply {
        let encoded = wire::encode_request(&request);
        let answer = match self.player.call(RStr::from(encoded.as_str())) {
            RResult::ROk(reply) => wire::decode_reply(&reply)
                .map_err(|e| format!("the bot answered `{}` with `{reply}` ({e})", request.kind())),
            RResult::RErr(CallError::Panicked(message)) => {
                Err(format!("panicked in `{}`: {message}", request.kind()))
            }
            RResult::RErr(CallError::BadRequest(message)) => Err(format!(
                "the bot could not read the `{}` request: {message}",
                request.kind()
            )),
        };
        match answer {
            Ok(reply) => reply,
            Err(report) => give_up(&report),
        }
    }
}

/// Reports a failed call on stderr and ends the worker: the bot's state after
/// a panic is not to be trusted, and the host counts the exit as a crash.
fn give_up(report: &str) -> ! {
    // One write, so that the report reaches the pipe whole (a formatted
    // `writeln!` writes its pieces one by one).
    let line = format!("{REPORT}{report}\n");
    let mut stderr = std::io::stderr().lock();
    let _ = stderr.write_all(line.as_bytes());
    let _ = stderr.flush();
    std::process::exit(PANIC_STATUS)
}

fn wrong_kind(reply: &Reply, asked: &str) -> ! {
    give_up(&format!(
        "the bot answered `{asked}` with a `{}` reply",
        reply.kind()
    ))
}

impl Player for Remote {
    fn name(&self) -> String {
        match self.player.name() {
            RResult::ROk(name) => name.into_string(),
            RResult::RErr(CallError::Panicked(m) | CallError::BadRequest(m)) => {
                give_up(&format!("panicked in `name`: {m}"))
            }
        }
    }

    fn begin_game(&mut self, setup: &Setup) {
        let reply = self.ask(Request::BeginGame {
            setup: Box::new(setup.clone()),
        });
        if reply != Reply::Ok {
            wrong_kind(&reply, "begin-game");
        }
    }

    fn accuse(&mut self, request: &AccuseRequest) -> Option<Accusation> {
        match self.ask(Request::Accuse(request.clone())) {
            Reply::Accuse { accusation } => accusation,
            other => wrong_kind(&other, "accuse"),
        }
    }

    fn move_to(&mut self, request: &MoveRequest) -> Position {
        match self.ask(Request::Move(request.clone())) {
            Reply::Move { to } => to,
            other => wrong_kind(&other, "move"),
        }
    }

    fn suggest(&mut self, request: &SuggestRequest) -> Option<Suggestion> {
        match self.ask(Request::Suggest(request.clone())) {
            Reply::Suggest { suggestion } => suggestion,
            other => wrong_kind(&other, "suggest"),
        }
    }

    fn respond(&mut self, request: &RespondRequest) -> Option<Card> {
        match self.ask(Request::Respond(request.clone())) {
            Reply::Respond { card } => card,
            other => wrong_kind(&other, "respond"),
        }
    }

    fn watch(&mut self, event: &Event) {
        let reply = self.ask(Request::Watch {
            event: event.clone(),
        });
        if reply != Reply::Ok {
            wrong_kind(&reply, "watch");
        }
    }
}

//! A trusted native bot: the plugin's player called directly, in the host's
//! process.
//!
//! A panic in the bot comes back as an error value (the plugin side runs every
//! call under `catch_unwind`) and costs the seat a `crash`, however long it
//! took. The per-call time limit is checked when the call returns: a reply
//! that came too late is a `timeout`, thrown away. A trusted plugin that never returns cannot
//! be pre-empted (nor can one that segfaults or exits be survived): that is
//! what the default, isolated mode is for.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use abi_stable::std_types::{RResult, RStr};
use clue_engine::Fault;

use crate::sticky::{Exchange, Sticky};
use clue_plugin_api::native::{CallError, PlayerBox};
use clue_plugin_api::{DqReason, Reply, Request, wire};

use super::library::{LoadError, NativePlugin};

/// A native plugin's player, called in-process.
pub struct TrustedNative {
    path: PathBuf,
    player: PlayerBox,
    limit: Duration,
}

impl TrustedNative {
    /// Loads the plugin at `path` (or finds it already loaded) and makes a
    /// fresh player, whose every call may take at most `limit`.
    pub fn load(path: &Path, limit: Duration) -> Result<Sticky<TrustedNative>, LoadError> {
        let plugin = NativePlugin::load(path)?;
        Ok(TrustedNative::new(path, plugin.new_player(path)?, limit))
    }

    pub fn new(path: &Path, player: PlayerBox, limit: Duration) -> Sticky<TrustedNative> {
        Sticky::new(TrustedNative {
            path: path.to_path_buf(),
            player,
            limit,
        })
    }

    /// The bot's own name ([`clue_plugin_api::Player::name`]), if it can say it
    /// without panicking.
    pub fn name(&self) -> Option<String> {
        self.player
            .name()
            .into_result()
            .ok()
            .map(|n| n.into_string())
    }

    /// The library this player came from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault> {
        let encoded = wire::encode_request(request);
        let started = Instant::now();
        let result = self.player.call(RStr::from(encoded.as_str()));
        let took = started.elapsed();
        // A panic is a `crash` however long it took to unwind (a first
        // backtrace can take longer than a short limit): the label says what
        // the bot did, not how loaded the host was.
        let reply = match result {
            RResult::ROk(reply) => reply,
            RResult::RErr(error) => return Err(fault_of(request, error)),
        };
        if took > self.limit {
            return Err(Fault::new(
                DqReason::Timeout,
                format!(
                    "took {} ms to answer `{}` (limit {} ms)",
                    took.as_millis(),
                    request.kind(),
                    self.limit.as_millis()
                ),
            ));
        }
        wire::decode_reply(&reply).map_err(|e| {
            Fault::new(
                DqReason::ProtocolError,
                format!("answered `{}` with `{reply}` ({e})", request.kind()),
            )
        })
    }
}

/// The fault for a call that came back with an error.
pub fn fault_of(request: &Request, error: CallError) -> Fault {
    match error {
        CallError::Panicked(message) => Fault::new(
            DqReason::Crash,
            format!("panicked in `{}`: {message}", request.kind()),
        ),
        CallError::BadRequest(message) => Fault::new(
            DqReason::ProtocolError,
            format!(
                "could not read the `{}` request (built against another wire form?): {message}",
                request.kind()
            ),
        ),
    }
}

impl Exchange for TrustedNative {
    fn exchange(&mut self, request: &Request) -> Result<Reply, Fault> {
        TrustedNative::exchange(self, request)
    }
}

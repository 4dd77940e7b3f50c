//! The versioned serde wire form of every request and reply, used by the wasm
//! and process bridges. One JSON document per message.

use crate::messages::{Reply, Request};
use serde::{Deserialize, Serialize};

/// The wire protocol version. Bump the minor part for additions a reader can
/// ignore, the major part for anything else; peers check the major part
/// ([`crate::version::compatible`]).
pub const PROTOCOL_VERSION: &str = "1.0";

/// The crate version bots were compiled against.
pub const API_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The first message each side sends: who it is and which protocol it speaks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// Always `"clue-arena"`: tells a misdirected peer apart from a real one.
    pub hello: String,
    pub protocol: String,
    /// The bot's name (empty from the host).
    #[serde(default)]
    pub name: String,
}

impl Hello {
    pub fn new(name: impl Into<String>) -> Hello {
        Hello {
            hello: "clue-arena".to_string(),
            protocol: PROTOCOL_VERSION.to_string(),
            name: name.into(),
        }
    }

    /// Checks that the peer speaks a compatible protocol.
    pub fn check(&self) -> Result<(), VersionMismatch> {
        if self.hello != "clue-arena"
            || !crate::version::compatible(&self.protocol, PROTOCOL_VERSION)
        {
            return Err(VersionMismatch {
                theirs: self.protocol.clone(),
                ours: PROTOCOL_VERSION.to_string(),
            });
        }
        Ok(())
    }
}

/// The peer speaks another major protocol version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionMismatch {
    pub theirs: String,
    pub ours: String,
}

impl std::fmt::Display for VersionMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "peer speaks clue-arena protocol {}; this side speaks {}",
            self.theirs, self.ours
        )
    }
}

impl std::error::Error for VersionMismatch {}

pub fn encode_request(request: &Request) -> String {
    // Serialising these plain data types cannot fail: no maps with non-string keys.
    serde_json::to_string(request).unwrap_or_default()
}

pub fn decode_request(line: &str) -> Result<Request, serde_json::Error> {
    serde_json::from_str(line)
}

pub fn encode_reply(reply: &Reply) -> String {
    serde_json::to_string(reply).unwrap_or_default()
}

pub fn decode_reply(line: &str) -> Result<Reply, serde_json::Error> {
    serde_json::from_str(line)
}

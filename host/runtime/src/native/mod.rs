//! Native bots: Rust `cdylib` plugins built with
//! `clue_plugin_api::export_native_player!` (docs/native.md).
//!
//! - Isolated (the default, `native:PATH`): the plugin runs in a worker
//!   process of the host binary (`clue worker native PATH`) that speaks the
//!   JSON-lines protocol of process bots, so a segfault, abort, stack overflow
//!   or `exit()` in the plugin ends that worker and costs the seat a `crash`,
//!   and a call that overruns its limit is cut off (`timeout`).
//! - Trusted (`native-trusted:PATH`): the plugin is loaded into the host's own
//!   process ([`TrustedNative`]). A panic is still a `crash` and an overrun
//!   still a `timeout`, but the overrun is only seen when the call returns: a
//!   trusted plugin that never returns cannot be pre-empted, and one that
//!   crashes takes the host with it.
//!
//! [`library`] is the one place a library is opened; it loads any number of
//! plugins side by side, and any number of players from one plugin.

pub mod isolated;
pub mod library;
pub mod trusted;
pub mod worker;

use std::time::Duration;

pub use isolated::IsolatedNative;
pub use library::{LoadError, NativePlugin};
pub use trusted::TrustedNative;

/// The per-call time limit of a native bot, in either mode, unless a caller
/// sets another: the 10 s of the process bots.
pub const DEFAULT_CALL_LIMIT: Duration = Duration::from_secs(10);

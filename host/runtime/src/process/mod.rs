//! Process bots: a bot is a program the host starts and talks to over pipes
//! (or, for Speed Clue, a loopback socket), one line per message.
//!
//! - [`build`]: a tournament's sandboxed `build:` of an entrant, in its folder.
//! - [`jsonl`]: the host's own versioned JSON-lines protocol (`docs/protocol.md`).
//! - [`framework`]: the text protocol of the Clue AI framework of `seeds/000` (`docs/framework.md`).
//! - [`uniclue`]: the judges' C/Q/A protocol of the 2006 UniClue problem (`docs/uniclue.md`).
//! - [`uniclue_client`]: the other side of that protocol, any bot as a UniClue client.
//! - [`speedclue`]: the 2014 Speed Clue TCP protocol (`docs/speedclue.md`).
//! - [`speedclue_client`]: the other side of that protocol, any bot as a contest entrant.
//!
//! Every bot is contained the same way ([`ProcessLimits`]): its own session
//! and process group, `setrlimit` limits, a cleared environment, a start-up
//! and a per-message deadline, caps on the line length and the output volume,
//! stderr kept up to a cap, and the whole group killed and reaped when the
//! bot's controller is dropped.

pub mod build;
mod child;
pub mod framework;
pub mod jsonl;
mod output;
pub mod proxy;
pub mod server_lines;
pub mod speedclue;
pub mod speedclue_client;
mod speedclue_frame;
mod sys;
pub mod uniclue;
pub mod uniclue_client;
mod uniclue_config;

use std::path::PathBuf;
use std::time::Duration;

pub use child::{BotProcess, OWN_PRINT, Waiter, Waiting, anchor_word, clip, own_print};
pub use output::{StderrTap, last_lines};

/// How long the record waits, after a bot was killed for a fault, for the
/// rest of its stderr to arrive.
pub(crate) const STDERR_SETTLE: std::time::Duration = std::time::Duration::from_millis(200);

/// How a process bot is contained. The defaults suit a tournament; tests
/// shorten the deadlines.
#[derive(Clone, Debug)]
pub struct ProcessLimits {
    /// From start to the bot's first message (the hello, or `ID alive`). Default 10 s.
    pub startup: Duration,
    /// From each request to its reply. Default 10 s (the Speed Clue contest's figure).
    pub message: Duration,
    /// Longest line the bot may write, in bytes. Default 64 KiB.
    pub max_line: usize,
    /// Most the bot may write over a whole game, in bytes. Default 16 MiB.
    pub max_output: u64,
    /// How much of the bot's stderr is kept, in bytes. Default 64 KiB.
    pub max_stderr: usize,
    /// `RLIMIT_AS`, bytes of address space. Default 16 GiB: a JVM reserves
    /// far more than it uses (its heap, 1 GiB of class space, code cache,
    /// a malloc arena per thread), and a `java -cp ... Main` launch line with
    /// no memory flags must play; lower it for native bots. Memory proper
    /// is to be capped by cgroups (issue #15).
    pub address_space: Option<u64>,
    /// `RLIMIT_CPU`, seconds of CPU time over the bot's life. Default 300.
    pub cpu_seconds: Option<u64>,
    /// `RLIMIT_NPROC`: processes and threads of the bot's user. Linux counts
    /// every process of that user (and does not apply it to root), so it is a
    /// fork-bomb brake rather than an exact count. Default 4096.
    pub processes: Option<u64>,
    /// Environment variables passed on from the host when set there.
    /// Default: `PATH`, `HOME`, `LANG`, `LC_ALL`, `LC_CTYPE`, `TERM`, `TMPDIR`, `USER`.
    pub pass_env: Vec<String>,
    /// Environment variables the tournament declares for the bot.
    pub env: Vec<(String, String)>,
    /// Working directory (default: the bot's private scratch folder when
    /// sandboxed, else the host's).
    pub dir: Option<PathBuf>,
    /// The sandbox (`crate::sandbox`, `docs/SANDBOX.md`).
    pub sandbox: crate::sandbox::SandboxPolicy,
}

impl Default for ProcessLimits {
    fn default() -> Self {
        ProcessLimits {
            startup: Duration::from_secs(10),
            message: Duration::from_secs(10),
            max_line: 64 * 1024,
            max_output: 16 * 1024 * 1024,
            max_stderr: 64 * 1024,
            address_space: Some(16 << 30),
            cpu_seconds: Some(300),
            processes: Some(4096),
            pass_env: [
                "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TERM", "TMPDIR", "USER",
            ]
            .map(String::from)
            .to_vec(),
            env: Vec::new(),
            dir: None,
            sandbox: crate::sandbox::SandboxPolicy::default(),
        }
    }
}

/// A process bot that could not be started.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("empty command line")]
    Empty,
    #[error("command line `{line}`: {message}")]
    Split { line: String, message: String },
    #[error("cannot start `{command}`: {source}")]
    Start {
        command: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Sandbox(#[from] crate::sandbox::SandboxError),
    #[error("cannot listen on a loopback port: {0}")]
    Listen(std::io::Error),
}

/// Splits a command line the way a POSIX shell would (quotes, escapes), without running a shell.
pub fn split_command(line: &str) -> Result<Vec<String>, SpawnError> {
    let words = shell_words::split(line).map_err(|e| SpawnError::Split {
        line: line.to_string(),
        message: e.to_string(),
    })?;
    if words.is_empty() {
        return Err(SpawnError::Empty);
    }
    Ok(words)
}

/// The protocols a process bot may speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// `docs/protocol.md`
    Jsonl,
    /// `docs/framework.md`
    Framework,
    /// `docs/uniclue.md`
    Uniclue,
    /// `docs/speedclue.md`
    Speedclue,
}

/// Starts a process bot speaking `protocol` from its command (or launch) line.
pub fn connect(
    protocol: Protocol,
    command: &str,
    limits: &ProcessLimits,
) -> Result<Box<dyn clue_engine::SeatController>, SpawnError> {
    connect_keeping_stderr(protocol, command, limits).map(|(bot, _)| bot)
}

/// [`connect`], also handing back the bot's stderr so a game record or a
/// tournament can keep it after the game.
pub fn connect_keeping_stderr(
    protocol: Protocol,
    command: &str,
    limits: &ProcessLimits,
) -> Result<(Box<dyn clue_engine::SeatController>, StderrTap), SpawnError> {
    Ok(match protocol {
        Protocol::Jsonl => {
            let bot = jsonl::JsonlBot::spawn(command, limits)?;
            let stderr = jsonl::JsonlBot::stderr(&bot);
            (Box::new(bot), stderr)
        }
        Protocol::Framework => {
            let bot = framework::FrameworkBot::spawn(command, limits)?;
            let stderr = framework::FrameworkBot::stderr(&bot);
            (Box::new(bot), stderr)
        }
        Protocol::Uniclue => {
            let mut bot = uniclue::UniclueClient::spawn(command, limits)?;
            let stderr = bot.link_mut().stderr();
            (Box::new(bot), stderr)
        }
        Protocol::Speedclue => {
            let bot = speedclue::SpeedclueBot::spawn(command, limits)?;
            let stderr = speedclue::SpeedclueBot::stderr(&bot);
            (Box::new(bot), stderr)
        }
    })
}

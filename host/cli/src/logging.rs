//! The one place a `tracing` subscriber is installed (the libraries only
//! emit): `RUST_LOG` when set, else `-v` (info) / `-vv` (debug) / `-vvv`
//! (trace) over the default, warnings only. Lines go to stderr, through
//! [`crate::progress::suspend`] so that they never tear a
//! tournament's progress bar; `--log-format json` writes one JSON object a
//! line for machines (docs/logging.md).

use std::io::{self, Write};

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

#[derive(clap::Args)]
pub struct LogArgs {
    /// Log more to stderr: -v info, -vv debug, -vvv trace (RUST_LOG, when set, decides instead)
    #[arg(short, long, action = clap::ArgAction::Count, global = true)]
    verbose: u8,
    /// How log lines are written: text for people, json (one object a line) for machines
    #[arg(long, value_enum, default_value_t = LogFormat::Text, global = true)]
    log_format: LogFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    Text,
    Json,
}

/// Installs the subscriber for the process.
pub fn install(args: &LogArgs) {
    let level = match args.verbose {
        0 => "warn",
        1 => "info",
        2 => "debug",
        _ => "trace",
    };
    // A RUST_LOG that does not parse is reported once and the -v level used.
    let filter = match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.trim().is_empty() => EnvFilter::try_new(&directives)
            .unwrap_or_else(|e| {
                eprintln!("warning: RUST_LOG=`{directives}` is not a filter ({e}); using {level}");
                EnvFilter::new(level)
            }),
        _ => EnvFilter::new(level),
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(Stderr);
    // A second subscriber (in tests calling `main` twice) is not an error.
    let _ = match args.log_format {
        LogFormat::Text => builder
            .with_ansi(io::IsTerminal::is_terminal(&io::stderr()))
            .try_init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .try_init(),
    };
}

/// Stderr, with the progress bar lifted while a line is written.
struct Stderr;

impl<'a> MakeWriter<'a> for Stderr {
    type Writer = Stderr;

    fn make_writer(&'a self) -> Stderr {
        Stderr
    }
}

impl Write for Stderr {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // One formatted event comes in one write: write it whole.
        crate::progress::suspend(|| io::stderr().lock().write_all(buf))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        io::stderr().flush()
    }
}

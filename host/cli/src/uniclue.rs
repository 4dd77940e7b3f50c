//! `clue uniclue serve`: the judges' server of the 2006 UniClue problem, a
//! drop-in for their `test4 configurationFile transcriptFile`.

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clue_engine::Outcome;
use clue_runtime::process::uniclue::{self, Typed, UniclueClient};
use clue_runtime::process::{BotProcess, ProcessLimits, split_command};

#[derive(clap::Subcommand)]
pub enum UniclueCommand {
    /// Judge one game: the client's commands come from CLIENT (a program) or,
    /// without one, are typed on standard input
    Serve(ServeArgs),
    /// Play one game as the client: any bot speaks the C/Q/A protocol on
    /// stdin/stdout, for the judges' `test4` or `clue uniclue serve`
    Client(super::uniclue_client::ClientArgs),
}

#[derive(clap::Args)]
pub struct ServeArgs {
    /// The configuration: the number of players, one hand per player, then room numbers
    config: PathBuf,
    /// Where to write the transcript (client lines after two tabs)
    transcript: PathBuf,
    /// Seconds a client program has for each command
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS")]
    timeout: f64,
    /// The client program and its arguments, after `--` (one quoted word is split like a shell would)
    #[arg(last = true, value_name = "CLIENT")]
    client: Vec<String>,
}

pub fn run(command: UniclueCommand) -> anyhow::Result<ExitCode> {
    match command {
        UniclueCommand::Serve(args) => serve(args),
        UniclueCommand::Client(args) => super::uniclue_client::client(args),
    }
}

fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let name = args.config.display().to_string();
    let text = clue_arena::input::read_text(&args.config)
        .with_context(|| format!("reading the configuration {name}"))?;
    let config = uniclue::parse_config(&name, &text)?;
    let transcript = File::create(&args.transcript)
        .with_context(|| format!("creating the transcript {}", args.transcript.display()))?;
    let transcript = Box::new(BufWriter::new(transcript));
    let timeout = Duration::try_from_secs_f64(args.timeout)
        .ok()
        .filter(|t| !t.is_zero())
        .context("--timeout must be a positive number of seconds")?;
    let limits = ProcessLimits {
        startup: timeout,
        message: timeout,
        ..ProcessLimits::default()
    };
    let record = if args.client.is_empty() {
        let typed = Typed {
            input: std::io::stdin().lock(),
            output: std::io::stdout(),
        };
        let client = UniclueClient::new(typed, &limits).with_transcript(transcript);
        uniclue::serve(&config, client)?
    } else {
        let argv = match args.client.as_slice() {
            [one] => split_command(one)?,
            many => many.to_vec(),
        };
        let process = BotProcess::spawn(&argv, &limits)?;
        let client = UniclueClient::new(process, &limits).with_transcript(transcript);
        uniclue::serve(&config, client)?
    };
    let seat = &record.seats[0];
    match (&seat.outcome, &seat.detail) {
        (Outcome::Won, _) => {
            eprintln!("Victory after {} queries", seat.suggestions);
            Ok(ExitCode::SUCCESS)
        }
        (Outcome::Disqualified(reason), detail) => {
            eprintln!(
                "client disqualified ({reason}): {}",
                clue_arena::account::printable(detail.as_deref().unwrap_or(""))
            );
            Ok(ExitCode::from(1))
        }
        (outcome, _) => {
            eprintln!("no victory: {outcome:?}");
            Ok(ExitCode::from(1))
        }
    }
}

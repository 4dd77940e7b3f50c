//! `clue speedclue client --bot SPEC IDENTIFIER PORT`: any bot as an entrant
//! of a 2014 Speed Clue contest server, launched the way that server
//! launches entrants (the identifier and the port last on the line).

use std::io::BufReader;
use std::net::TcpStream;
use std::process::ExitCode;

use anyhow::Context;
use clue_runtime::bots::{self, BotSpec};
use clue_runtime::process::speedclue_client::{self, EntrantOptions};

#[derive(clap::Subcommand)]
pub enum SpeedclueCommand {
    /// Play as an entrant: connect to the server's PORT, say `IDENTIFIER alive`,
    /// and let the bot answer every game the server deals
    Client(ClientArgs),
}

#[derive(clap::Args)]
pub struct ClientArgs {
    /// The bot to play, as `clue play --bot` takes it (builtin:sleuth, wasm:bot.wasm, ...)
    #[arg(long, value_name = "SPEC")]
    bot: String,
    /// The seed the bot is given for its own random choices (game i gets SEED + i)
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The server does not play the contest rules (no forced accusation)
    #[arg(long)]
    no_contest_rules: bool,
    /// The server's address
    #[arg(long, default_value = "127.0.0.1")]
    address: String,
    /// The identifier the server gave this entrant (sent as `IDENTIFIER alive`)
    identifier: String,
    /// The server's port
    port: u16,
}

pub fn run(command: SpeedclueCommand) -> anyhow::Result<ExitCode> {
    match command {
        SpeedclueCommand::Client(args) => client(args),
    }
}

fn client(args: ClientArgs) -> anyhow::Result<ExitCode> {
    let spec: BotSpec = args.bot.parse()?;
    clue_arena::game::check_given(std::slice::from_ref(&spec))?;
    let stream = TcpStream::connect((args.address.as_str(), args.port))
        .with_context(|| format!("connecting to {}:{}", args.address, args.port))?;
    // A bare `suggest` off this player's turn waits this long for the rest
    // of a `suggestion` (docs/speedclue.md, "Framing").
    stream
        .set_read_timeout(Some(speedclue_client::SUGGEST_GRACE))
        .context("setting the read timeout")?;
    let reader = BufReader::new(stream.try_clone().context("cloning the connection")?);
    let options = EntrantOptions {
        id: args.identifier,
        seed: args.seed,
        contest_rules: !args.no_contest_rules,
    };
    let seat = || bots::connect(&spec).map_err(|e| e.to_string());
    let summary = speedclue_client::play(seat, reader, stream, &options)?;
    eprintln!("{} games, {} won", summary.games, summary.won);
    Ok(ExitCode::SUCCESS)
}

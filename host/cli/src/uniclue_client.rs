//! `clue uniclue client --bot SPEC`: any bot as a UniClue client over
//! stdin/stdout, so the judges' `test4` (or `clue uniclue serve`) can grade it.

use std::process::ExitCode;

use anyhow::Context;
use clue_runtime::bots::{self, BotSpec};
use clue_runtime::process::uniclue_client::{self, ClientOptions, Verdict};

#[derive(clap::Args)]
pub struct ClientArgs {
    /// The bot to play, as `clue play --bot` takes it (builtin:sleuth, wasm:bot.wasm, ...)
    #[arg(long, value_name = "SPEC")]
    bot: String,
    /// The seed the bot is given for its own random choices
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub fn client(args: ClientArgs) -> anyhow::Result<ExitCode> {
    let spec: BotSpec = args.bot.parse()?;
    clue_arena::game::check_given(std::slice::from_ref(&spec))?;
    let mut bot = bots::connect(&spec).with_context(|| format!("seating {spec}"))?;
    let options = ClientOptions { seed: args.seed };
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    let outcome = uniclue_client::play(bot.as_mut(), stdin, stdout, &options)?;
    match outcome.verdict {
        Verdict::Victory => {
            eprintln!("victory after {} queries", outcome.queries);
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Disqualified => {
            eprintln!("disqualified after {} queries", outcome.queries);
            Ok(ExitCode::from(1))
        }
    }
}

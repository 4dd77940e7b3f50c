//! `clue framework "CMD1" "CMD2" ...`: one game of the `seeds/000` framework
//! among bots speaking its text protocol, the way the framework's own
//! `java -jar Clue.jar "CMD1" "CMD2"` ran one.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clue_arena::game;
use clue_engine::GameConfig;
use clue_plugin_api::Variant;
use clue_runtime::bots::{BotKind, BotSpec};

#[derive(clap::Args)]
pub struct FrameworkArgs {
    /// One command line per seat, in seat order (each quoted; split like a
    /// shell would). `builtin:NAME` seats a built-in bot instead
    #[arg(required = true, num_args = 2.., value_name = "CMD")]
    bots: Vec<String>,
    /// The game seed: the same seed and bots give the same game
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The board width (and number of rooms), at least 5
    #[arg(long, default_value_t = 10)]
    width: u16,
    /// The number of persons
    #[arg(long, default_value_t = 6)]
    persons: u16,
    /// The number of weapons
    #[arg(long, default_value_t = 6)]
    weapons: u16,
    /// Rounds after which the game is a draw
    #[arg(long, default_value_t = clue_engine::config::default_max_rounds())]
    max_rounds: u32,
    /// A board in the protocol's table form (`Board W W` and W rows) instead of a random one
    #[arg(long, value_name = "FILE")]
    table: Option<PathBuf>,
    /// Write the full event log (JSON lines) here
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// Print only the result line
    #[arg(long)]
    quiet: bool,
}

/// `builtin:NAME` is a built-in bot; anything else a framework command line.
fn spec(command: &str) -> anyhow::Result<BotSpec> {
    if command.trim_start().starts_with("builtin:") {
        return Ok(command.parse()?);
    }
    Ok(BotSpec {
        kind: BotKind::Framework,
        target: command.to_string(),
    })
}

pub fn run(args: FrameworkArgs) -> anyhow::Result<ExitCode> {
    let players = u8::try_from(args.bots.len())
        .ok()
        .context("too many bots for one table")?;
    let mut config = GameConfig::new(Variant::Framework, players);
    config.max_rounds = args.max_rounds;
    config.framework.width = args.width;
    config.framework.persons = args.persons;
    config.framework.weapons = args.weapons;
    if let Some(path) = &args.table {
        let text = clue_arena::input::read_text(path)
            .with_context(|| format!("reading the board table {}", path.display()))?;
        clue_engine::config::check_table(&path.display().to_string(), &text)?;
        config.framework.table = Some(text);
    }
    let specs: Vec<BotSpec> = args
        .bots
        .iter()
        .map(|c| spec(c))
        .collect::<anyhow::Result<_>>()?;
    game::check_given(&specs)?;
    let log = super::play::log_file(args.log.as_deref())?;
    let record = super::play::play_shown(&config, args.seed, &specs, args.quiet)?;
    super::play::report(&record, &specs, args.quiet, log)?;
    Ok(ExitCode::SUCCESS)
}

//! `clue serve`: play and watch in the browser (docs/web.md).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::bail;
use clue_web::{ServeOptions, serve};

#[derive(clap::Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed)
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on; loopback unless you mean to share the
    /// server (another address needs --allow-remote)
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// A tournament results store whose games the page lists and replays
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Seconds a person's seat waits for each answer before it is
    /// disqualified (`timeout`), so a closed tab cannot hold a game for ever
    #[arg(long, value_name = "SECONDS", default_value_t = clue_web::IDLE_LIMIT.as_secs())]
    idle_seconds: u64,
    /// A tournament file whose bots the page may seat, besides the built-in ones
    #[arg(long, value_name = "FILE")]
    tournament: Option<PathBuf>,
    /// Seat any process, native or wasm bot the page names: whoever can reach
    /// the server can then run programs on this machine
    #[arg(long)]
    allow_bots: bool,
    /// Listen on a non-loopback --host and answer to any host name: anyone
    /// on the network can then play on this server
    #[arg(long)]
    allow_remote: bool,
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    if !args.host.is_loopback() {
        if !args.allow_remote {
            bail!(
                "--host {} is not a loopback address: anyone on the network could use the server; \
                 add --allow-remote if that is what you mean",
                args.host
            );
        }
        eprintln!(
            "warning: listening on {}, reachable from the network{}",
            args.host,
            if args.allow_bots {
                ", and --allow-bots lets anyone who reaches it run programs on this machine"
            } else {
                ""
            }
        );
    }
    let bots = match &args.tournament {
        Some(path) => tournament_bots(path)?,
        None => Vec::new(),
    };
    serve(&ServeOptions {
        addr: SocketAddr::new(args.host, args.port),
        db: args.db,
        idle_limit: std::time::Duration::from_secs(args.idle_seconds),
        allow_bots: args.allow_bots,
        allow_remote: args.allow_remote,
        bots,
    })?;
    Ok(ExitCode::SUCCESS)
}

/// The bots of the tournament file at `path` that can play, each spec once.
/// A bot whose files are not there (its `build:` has not run yet, say) is
/// left out, with a warning at its line that says why, rather than offered
/// to the page and refused when a game is started.
fn tournament_bots(path: &std::path::Path) -> anyhow::Result<Vec<clue_runtime::bots::BotSpec>> {
    // Its errors name the file, line and column already.
    let t = clue_arena::config::load(path)?;
    let refused = clue_arena::config::refused_bots(&t);
    for (bot, error) in &refused {
        let hint = if bot.build.is_some() {
            format!(
                " (its `build:` has not run? `clue tournament check --build {}` runs the builds)",
                path.display()
            )
        } else {
            String::new()
        };
        eprintln!("warning: {error}; left out of the page's bots{hint}");
    }
    let mut specs = Vec::new();
    for bot in &t.bots {
        if !refused.iter().any(|(r, _)| r.name == bot.name) && !specs.contains(&bot.spec) {
            specs.push(bot.spec.clone());
        }
    }
    Ok(specs)
}

//! `clue serve`: play and watch in the browser (docs/web.md).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use clue_web::{ServeOptions, serve};

#[derive(clap::Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed)
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The address to listen on; loopback unless you mean to share the server
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    host: IpAddr,
    /// A tournament results store whose games the page lists and replays
    #[arg(long, value_name = "PATH")]
    db: Option<PathBuf>,
    /// Seconds a person's seat waits for each answer before it is
    /// disqualified (`timeout`), so a closed tab cannot hold a game for ever
    #[arg(long, value_name = "SECONDS", default_value_t = clue_web::IDLE_LIMIT.as_secs())]
    idle_seconds: u64,
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    serve(&ServeOptions {
        addr: SocketAddr::new(args.host, args.port),
        db: args.db,
        idle_limit: std::time::Duration::from_secs(args.idle_seconds),
    })?;
    Ok(ExitCode::SUCCESS)
}

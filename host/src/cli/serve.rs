//! `clue serve`: play and watch in the browser (docs/web.md).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;

use clue_host::web::{ServeOptions, serve};

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
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    serve(&ServeOptions {
        addr: SocketAddr::new(args.host, args.port),
        db: args.db,
    })?;
    Ok(ExitCode::SUCCESS)
}

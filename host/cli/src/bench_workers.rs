//! `clue bench workers`: games per second of one tournament played by 1, 2
//! and 4 `clue tournament worker` processes sharing a PostgreSQL store, the
//! same file played by one process into SQLite, and what claiming and
//! storing a game costs in each store (the same finished games stored again
//! and again, no play). Prints a markdown table (docs/tournament.md has one).

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clue_arena::config;
use clue_arena::runner::{self, SpecConnector};
use clue_arena::store::Store;

#[derive(clap::Args)]
pub struct WorkersArgs {
    /// A PostgreSQL server on which the bench creates and then drops its
    /// own databases (the user needs CREATEDB): postgres://USER:PASSWORD@HOST:PORT/DB
    #[arg(long, value_name = "URL")]
    db: String,
    /// Games of the tournament each row plays
    #[arg(long, default_value_t = 1000)]
    games: u32,
    /// Worker counts, one row each
    #[arg(long, value_delimiter = ',', default_value = "1,2,4")]
    workers: Vec<usize>,
    /// Games stored for the claim + store overhead
    #[arg(long, default_value_t = 200)]
    stores: u32,
}

fn file(games: u32) -> String {
    format!(
        "variant: speedclue
players: 3
seed: 3
concurrency: 1
schedule: {{kind: random, games: {games}}}
bots:
  - {{name: notebook, kind: builtin, path: notebook}}
  - {{name: clueless, kind: builtin, path: clueless}}
  - {{name: notebook-2, kind: builtin, path: notebook}}
  - {{name: clueless-2, kind: builtin, path: clueless}}
"
    )
}

/// A database of its own on the server of `url`, dropped with the guard.
struct Database {
    admin: String,
    name: String,
    url: String,
}

impl Database {
    fn create(url: &str, name: String) -> anyhow::Result<Database> {
        let (base, query) = match url.split_once('?') {
            Some((b, q)) => (b, format!("?{q}")),
            None => (url, String::new()),
        };
        let Some((server, _)) = base.rsplit_once('/') else {
            bail!("{url}: not a postgres://USER@HOST/DB URL");
        };
        let mut client = postgres::Client::connect(url, postgres::NoTls)
            .with_context(|| clue_arena::store::display_name(Path::new(url)))?;
        // One statement a call: neither may run inside a transaction block.
        for statement in [
            format!("DROP DATABASE IF EXISTS {name}"),
            format!("CREATE DATABASE {name}"),
        ] {
            client
                .batch_execute(&statement)
                .with_context(|| format!("creating the database {name}"))?;
        }
        Ok(Database {
            admin: url.to_string(),
            url: format!("{server}/{name}{query}"),
            name,
        })
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        if let Ok(mut client) = postgres::Client::connect(&self.admin, postgres::NoTls) {
            let _ = client.batch_execute(&format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            ));
        }
    }
}

fn clue(args: &[&str]) -> anyhow::Result<Command> {
    let mut c = Command::new(std::env::current_exe().context("where clue is")?);
    c.args(args).stdout(Stdio::null()).stderr(Stdio::inherit());
    Ok(c)
}

/// Plays the file with `workers` worker processes on `url`; the seconds from
/// the first worker's start to the last one's end.
fn distributed(file: &Path, url: &str, workers: usize) -> anyhow::Result<f64> {
    let file = file.to_str().context("a UTF-8 path")?;
    // The coordinator writes the schedule and plays nothing.
    let mut coordinator = clue(&[
        "tournament",
        "run",
        file,
        "--db",
        url,
        "--quiet",
        "--concurrency",
        "0",
    ])?
    .spawn()?;
    let store = loop {
        if let Some(status) = coordinator.try_wait()? {
            bail!("the coordinator ended early: {status}");
        }
        if let Ok(store) = Store::open(Path::new(url))
            && store.progress()?.scheduled > 0
        {
            break store;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(store);
    let start = Instant::now();
    let mut children = Vec::new();
    for _ in 0..workers {
        children.push(
            clue(&[
                "tournament",
                "worker",
                "--db",
                url,
                "--quiet",
                "--concurrency",
                "1",
            ])?
            .spawn()?,
        );
    }
    for mut child in children {
        let status = child.wait()?;
        if !status.success() {
            bail!("a worker failed: {status}");
        }
    }
    let took = start.elapsed().as_secs_f64();
    let status = coordinator.wait()?;
    if !status.success() {
        bail!("the coordinator failed: {status}");
    }
    Ok(took)
}

/// Mean time to claim one game and store it, over `games` finished games.
fn claim_and_store(
    store_path: &Path,
    t: &config::Tournament,
    games: &[clue_arena::store::FinishedGame],
) -> anyhow::Result<Duration> {
    let mut store = Store::open(store_path)?;
    store.bind(t)?;
    store.write_schedule(t)?;
    store.register("bench", "bench")?;
    let start = Instant::now();
    for game in games {
        let claim = store
            .claim("bench", 1, Duration::from_secs(60))?
            .pop()
            .context("a game to claim")?;
        let mut game = game.clone();
        game.index = claim.game.index;
        if !store.insert(&game, t, &claim.lease)? {
            bail!("game {} was not stored", game.index);
        }
    }
    Ok(start.elapsed() / games.len().max(1) as u32)
}

pub fn workers(args: &WorkersArgs) -> anyhow::Result<ExitCode> {
    let dir = std::env::temp_dir().join(format!("clue-bench-workers-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let result = bench(args, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn bench(args: &WorkersArgs, dir: &Path) -> anyhow::Result<ExitCode> {
    let path: PathBuf = dir.join("bench.yaml");
    std::fs::write(&path, file(args.games))?;
    let pid = std::process::id();
    println!("| store | workers | games | seconds | games/s |");
    println!("|---|---|---|---|---|");
    let sqlite = dir.join("one.sqlite");
    let start = Instant::now();
    let status = clue(&[
        "tournament",
        "run",
        path.to_str().context("a UTF-8 path")?,
        "--db",
        sqlite.to_str().context("a UTF-8 path")?,
        "--quiet",
    ])?
    .status()?;
    if !status.success() {
        bail!("the SQLite run failed: {status}");
    }
    let took = start.elapsed().as_secs_f64();
    println!(
        "| SQLite (one `run`) | 1 | {} | {took:.2} | {:.1} |",
        args.games,
        f64::from(args.games) / took
    );
    for &n in &args.workers {
        let db = Database::create(&args.db, format!("clue_bench_{pid}_{n}"))?;
        let took = distributed(&path, &db.url, n)?;
        println!(
            "| PostgreSQL | {n} | {} | {took:.2} | {:.1} |",
            args.games,
            f64::from(args.games) / took
        );
    }

    // The overhead: the same finished games claimed and stored again.
    let text = file(args.stores);
    let t = config::parse(&text, "bench.yaml", dir)?;
    let schedule = clue_arena::schedule::schedule(&t);
    let games = schedule
        .iter()
        .take(20)
        .map(|g| runner::play_one(&t, g, &SpecConnector))
        .collect::<Result<Vec<_>, _>>()?;
    let games: Vec<_> = games
        .iter()
        .cycle()
        .take(args.stores as usize)
        .cloned()
        .collect();
    let lite = claim_and_store(&dir.join("overhead.sqlite"), &t, &games)?;
    let db = Database::create(&args.db, format!("clue_bench_{pid}_overhead"))?;
    let pg = claim_and_store(Path::new(&db.url), &t, &games)?;
    println!();
    println!("| claim + store, per game | SQLite | PostgreSQL |");
    println!("|---|---|---|");
    println!(
        "| {} games | {:.2} ms | {:.2} ms |",
        games.len(),
        lite.as_secs_f64() * 1000.0,
        pg.as_secs_f64() * 1000.0
    );
    Ok(ExitCode::SUCCESS)
}

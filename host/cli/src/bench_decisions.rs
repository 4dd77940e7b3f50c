//! `clue bench decisions`: how long `sleuth` takes per decision at a full
//! table, on the classic deck and on the framework's grid (its larger deck
//! is where the counts are largest). One game at a time (so the times are not
//! shared with another game), sleuth's seat rotating among the opponents
//! (`--against`: `notebook` by default; against `rival` sleuth's Speed Clue
//! questions are by the worst case and its race runs, the slow decisions); every
//! call is timed and the table gives calls, mean, p95 and max per request
//! kind and variant, then whether every decision kind stays within the
//! budget (100 ms by default).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clue_engine::{Fault, GameConfig, SeatController, acting_seats, play};
use clue_plugin_api::{Reply, Request, Variant};
use clue_runtime::bots;

#[derive(clap::Args)]
pub struct DecisionsArgs {
    /// Games per variant
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Seats per game
    #[arg(long, default_value_t = 6)]
    players: u8,
    /// Only these variants (repeatable; default: the classic-deck variants
    /// speedclue, classic, csci306 and uniclue, and framework)
    #[arg(long = "variant", value_name = "NAME", value_parser = crate::options::variant)]
    variants: Vec<Variant>,
    /// First game seed; game i uses seed + i
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The time a decision may take, in milliseconds
    #[arg(long, default_value_t = 100.0, value_name = "MS")]
    budget_ms: f64,
    /// The built-in bot in every other seat (notebook, clueless, rival or
    /// sleuth)
    #[arg(long, default_value = "notebook", value_name = "BOT")]
    against: String,
}

/// The request kinds, in the order the table lists them.
const KINDS: [&str; 6] = [
    "begin-game",
    "accuse",
    "move",
    "suggest",
    "respond",
    "watch",
];

/// The kinds that are decisions (the rest is bookkeeping).
const DECISIONS: [&str; 4] = ["accuse", "move", "suggest", "respond"];

/// Every call's time, by request kind.
#[derive(Default)]
struct Times {
    by_kind: [Vec<Duration>; KINDS.len()],
}

impl Times {
    fn add(&mut self, other: &Times) {
        for (mine, theirs) in self.by_kind.iter_mut().zip(&other.by_kind) {
            mine.extend_from_slice(theirs);
        }
    }
}

/// Times every call of the bot it wraps.
struct Timed<'a> {
    inner: Box<dyn SeatController>,
    times: &'a mut Times,
}

impl SeatController for Timed<'_> {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        let started = Instant::now();
        let reply = self.inner.call(request);
        let took = started.elapsed();
        if let Some(i) = KINDS.iter().position(|&k| k == request.kind()) {
            self.times.by_kind[i].push(took);
        }
        reply
    }
}

fn builtin(name: &str) -> anyhow::Result<Box<dyn SeatController>> {
    bots::builtin(name).with_context(|| format!("no built-in bot `{name}`"))
}

/// The statistics of one row: calls, mean, p95, max (milliseconds).
struct Row {
    calls: usize,
    mean: f64,
    p95: f64,
    max: f64,
}

fn row(times: &[Duration]) -> Row {
    let mut ms: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    let calls = ms.len();
    let mean = ms.iter().sum::<f64>() / calls.max(1) as f64;
    let p95 = ms
        .get(((calls as f64 * 0.95).ceil() as usize).saturating_sub(1))
        .copied()
        .unwrap_or(0.0);
    Row {
        calls,
        mean,
        p95,
        max: ms.last().copied().unwrap_or(0.0),
    }
}

fn print_row(variant: &str, kind: &str, r: &Row) {
    println!(
        "{:<10} {:<11} {:>8} {:>9.3} {:>9.3} {:>9.3}",
        variant, kind, r.calls, r.mean, r.p95, r.max
    );
}

pub fn decisions(args: &DecisionsArgs) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let variants = if args.variants.is_empty() {
        vec![
            Variant::Speedclue,
            Variant::Classic,
            Variant::Csci306,
            Variant::Uniclue,
            Variant::Framework,
        ]
    } else {
        args.variants.clone()
    };
    // A misspelt opponent is refused before any game is played.
    builtin(&args.against)?;
    println!(
        "sleuth's time per call against {}, {} players, {} games per variant (seeds from {}), one game at a time",
        args.against, args.players, args.games, args.seed
    );
    println!();
    println!(
        "{:<10} {:<11} {:>8} {:>9} {:>9} {:>9}",
        "variant", "kind", "calls", "mean ms", "p95 ms", "max ms"
    );
    let mut all = Times::default();
    for &variant in &variants {
        let config = GameConfig::new(variant, args.players);
        config
            .validate()
            .with_context(|| format!("{variant} with {} players", args.players))?;
        let seats = acting_seats(&config);
        let mut times = Times::default();
        for i in 0..args.games {
            let seat = i as usize % seats;
            let mut controllers: Vec<Box<dyn SeatController + '_>> = Vec::new();
            let mut hero = Some(Timed {
                inner: builtin("sleuth")?,
                times: &mut times,
            });
            for s in 0..seats {
                match hero.take() {
                    Some(timed) if s == seat => controllers.push(Box::new(timed)),
                    other => {
                        hero = other;
                        controllers.push(builtin(&args.against)?);
                    }
                }
            }
            play(&config, args.seed + u64::from(i), &mut controllers)?;
        }
        for (kind, t) in KINDS.iter().zip(&times.by_kind) {
            if !t.is_empty() {
                print_row(variant.name(), kind, &row(t));
            }
        }
        all.add(&times);
    }
    println!();
    let mut worst: Option<(&str, Row)> = None;
    for (kind, t) in KINDS.iter().zip(&all.by_kind) {
        if t.is_empty() {
            continue;
        }
        let r = row(t);
        print_row("all", kind, &r);
        if DECISIONS.contains(kind) && worst.as_ref().is_none_or(|(_, w)| r.max > w.max) {
            worst = Some((kind, r));
        }
    }
    let decision_times: Vec<Duration> = KINDS
        .iter()
        .zip(&all.by_kind)
        .filter(|(k, _)| DECISIONS.contains(k))
        .flat_map(|(_, t)| t.iter().copied())
        .collect();
    let overall = row(&decision_times);
    println!();
    println!(
        "decisions (accuse, move, suggest, respond): {} calls, mean {:.3} ms, p95 {:.3} ms, max {:.3} ms{}",
        overall.calls,
        overall.mean,
        overall.p95,
        overall.max,
        worst.map_or(String::new(), |(kind, _)| format!(" (slowest: {kind})"))
    );
    let within = overall.max <= args.budget_ms;
    println!(
        "every decision within {} ms: {}",
        args.budget_ms,
        if within { "yes" } else { "no" }
    );
    Ok(if within {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

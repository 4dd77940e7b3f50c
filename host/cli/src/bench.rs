//! `clue bench strength`: how strong `sleuth` is. Over N seeded games per
//! variant it plays `sleuth` against `notebook` and against `clueless` and
//! prints win rates with 95% Wilson intervals, its accusations, wrong
//! ones and disqualifications, and time per call; then against `rival` (the 2014
//! Speed Clue winner's approach, `plugins/rival`): 3- and 4-player Speed Clue
//! and every board variant; for `uniclue` it prints the distribution of
//! queries to a correct accusation over random deals with 3 to 6 players.
//! `sleuth`'s seat rotates over every seat, so each seat order is played.
//!
//! `sleuth` plays in-process and says why it made each accusation
//! ([`sleuth::Grounds`]): a wrong accusation it was certain of is a bug and
//! counts as `wrong`; one on the odds (the race against the opponents,
//! `generalized`'s guesses, a cheap guess in `csci306`, a forced guess) is
//! counted apart as `race`, with how many were right and the win rate of
//! the games that had one, so the acceptance can hold the first to zero
//! and weigh the second by what it wins.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use clue_arena::stats::wilson;
use clue_engine::{Fault, GameConfig, InProcess, Outcome, SeatController, acting_seats, play};
use clue_plugin_api::{Card, Reply, Request, Variant};
use clue_runtime::bots;
use sleuth::{Grounds, Sleuth};

mod uniclue;
use uniclue::{Queries, uniclue_queries};

#[derive(clap::Subcommand)]
pub enum BenchCommand {
    /// Win rates of sleuth against notebook, clueless and rival in every
    /// variant, with 95% intervals, sleuth's queries to a solution in
    /// uniclue, and issue 18's acceptance lines
    Strength(StrengthArgs),
    /// Time per decision of sleuth at a full table on the classic deck:
    /// calls, mean, p95 and max per request kind
    Decisions(super::bench_decisions::DecisionsArgs),
    /// Games per second of a tournament with 1, 2 and 4 worker processes on
    /// a PostgreSQL store, and the claim + store cost per game against SQLite
    Workers(super::bench_workers::WorkersArgs),
}

#[derive(clap::Args)]
pub struct StrengthArgs {
    /// Games per variant and opponent
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// UniClue deals for the query distribution (default: 5 x --games)
    #[arg(long, value_name = "N")]
    uniclue_games: Option<u32>,
    /// Games of speedclue against notebook, the acceptance row (default: --games)
    #[arg(long, value_name = "N")]
    speedclue_games: Option<u32>,
    /// Games of each table against rival: 3- and 4-player speedclue and
    /// every board variant (default: --games; 0 skips them)
    #[arg(long, value_name = "N")]
    rival_games: Option<u32>,
    /// Only these variants (repeatable; default: all)
    #[arg(long = "variant", value_name = "NAME", value_parser = crate::options::variant)]
    variants: Vec<Variant>,
    /// Seats per game (default: each variant's default table size)
    #[arg(long)]
    players: Option<u8>,
    /// First game seed; game i uses seed + i
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once
    #[arg(long, default_value_t = 2)]
    jobs: usize,
}

pub fn run(command: BenchCommand) -> anyhow::Result<ExitCode> {
    match command {
        BenchCommand::Strength(args) => strength(&args),
        BenchCommand::Decisions(args) => super::bench_decisions::decisions(&args),
        BenchCommand::Workers(args) => super::bench_workers::workers(&args),
    }
}

/// What one game said about sleuth.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Tally {
    games: u32,
    wins: u32,
    draws: u32,
    /// Wrong accusations sleuth made while certain.
    wrong: u32,
    /// Accusations on the odds ([`Grounds::Odds`]), and how many were right.
    race: u32,
    race_right: u32,
    /// Games with an accusation on the odds, and how many of them sleuth won.
    race_games: u32,
    race_wins: u32,
    disqualified: u32,
    calls: u64,
    time: Duration,
    slowest: Duration,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.wrong += other.wrong;
        self.race += other.race;
        self.race_right += other.race_right;
        self.race_games += other.race_games;
        self.race_wins += other.race_wins;
        self.disqualified += other.disqualified;
        self.calls += other.calls;
        self.time += other.time;
        self.slowest = self.slowest.max(other.slowest);
    }

    /// Counts one game's accusations: a wrong one is `wrong` only when
    /// sleuth was certain of it. Call after `wins` is set.
    fn count_accusations(&mut self, envelope: &[Card], accusations: &[(Vec<Card>, Grounds)]) {
        let mut envelope = envelope.to_vec();
        envelope.sort_unstable();
        for (cards, grounds) in accusations {
            let mut cards = cards.clone();
            cards.sort_unstable();
            let right = cards == envelope;
            match grounds {
                Grounds::Certain => self.wrong += u32::from(!right),
                Grounds::Odds => {
                    self.race += 1;
                    self.race_right += u32::from(right);
                }
            }
        }
        if accusations.iter().any(|(_, g)| *g == Grounds::Odds) {
            self.race_games += 1;
            self.race_wins += self.wins;
        }
    }
}

/// Plays sleuth, timing every call and keeping each accusation with the
/// grounds sleuth gives for it.
struct Hero {
    sleuth: InProcess<Sleuth>,
    calls: u64,
    time: Duration,
    slowest: Duration,
    accusations: Vec<(Vec<Card>, Grounds)>,
}

impl SeatController for &mut Hero {
    fn call(&mut self, request: &Request) -> Result<Reply, Fault> {
        let started = Instant::now();
        let reply = self.sleuth.call(request);
        let took = started.elapsed();
        // Watching is bookkeeping; the decisions are what must be fast.
        if !matches!(request, Request::Watch { .. }) {
            self.calls += 1;
            self.time += took;
            self.slowest = self.slowest.max(took);
        }
        if let Ok(Reply::Accuse {
            accusation: Some(accusation),
        }) = &reply
        {
            // No grounds given: held to the strict count, as if certain.
            let grounds = self.sleuth.0.last_grounds().unwrap_or(Grounds::Certain);
            self.accusations.push((accusation.cards.clone(), grounds));
        }
        reply
    }
}

fn builtin(name: &str) -> anyhow::Result<Box<dyn SeatController>> {
    bots::builtin(name).with_context(|| format!("no built-in bot `{name}`"))
}

/// One game: sleuth at seat `seat`, `opponent` everywhere else. Returns the
/// tally and sleuth's suggestions.
fn one_game(
    config: &GameConfig,
    seed: u64,
    seat: usize,
    opponent: &str,
) -> anyhow::Result<(Tally, u32)> {
    let seats = acting_seats(config);
    let seat = seat % seats;
    let mut hero = Hero {
        sleuth: InProcess(Sleuth::default()),
        calls: 0,
        time: Duration::ZERO,
        slowest: Duration::ZERO,
        accusations: Vec::new(),
    };
    let record = {
        let mut controllers: Vec<Box<dyn SeatController + '_>> = Vec::new();
        let mut hero_slot = Some(&mut hero);
        for s in 0..seats {
            match (s == seat, hero_slot.take()) {
                (true, Some(t)) => controllers.push(Box::new(t)),
                (_, slot) => {
                    hero_slot = slot;
                    controllers.push(builtin(opponent)?);
                }
            }
        }
        play(config, seed, &mut controllers)?
    };
    let state = &record.seats[seat];
    let mut tally = Tally {
        games: 1,
        wins: u32::from(record.winner.is_some_and(|w| w.index() == seat)),
        draws: u32::from(record.winner.is_none()),
        disqualified: u32::from(matches!(state.outcome, Outcome::Disqualified(_))),
        calls: hero.calls,
        time: hero.time,
        slowest: hero.slowest,
        ..Tally::default()
    };
    tally.count_accusations(&record.envelope, &hero.accusations);
    Ok((tally, state.suggestions))
}

/// Plays `games` games on `jobs` threads; game `i` gets `make(i)`.
fn play_many<F>(games: u32, jobs: usize, make: F) -> anyhow::Result<Vec<(Tally, u32)>>
where
    F: Fn(u32) -> anyhow::Result<(Tally, u32)> + Sync,
{
    let jobs = jobs.clamp(1, 64) as u32;
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..jobs)
            .map(|j| {
                let make = &make;
                scope.spawn(move || {
                    (j..games)
                        .step_by(jobs as usize)
                        .map(|i| make(i).map(|result| (i, result)))
                        .collect::<anyhow::Result<Vec<_>>>()
                })
            })
            .collect();
        let mut all = Vec::new();
        for worker in workers {
            match worker.join() {
                Ok(results) => all.extend(results?),
                Err(_) => bail!("a bench worker panicked"),
            }
        }
        // In game order, whatever worker played each.
        all.sort_by_key(|&(i, _)| i);
        Ok(all.into_iter().map(|(_, result)| result).collect())
    })
}

fn strength(args: &StrengthArgs) -> anyhow::Result<ExitCode> {
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    let variants = if args.variants.is_empty() {
        Variant::ALL.to_vec()
    } else {
        args.variants.clone()
    };
    println!(
        "sleuth, {} games per variant and opponent, seeds from {}; sleuth's seat rotates",
        args.games, args.seed
    );
    println!(
        "wrong: wrong accusations it was certain of; race: accusations on the odds, \
         right: how many of those were right, won: the win rate of the games with one"
    );
    println!();
    let mut rows: Vec<(Variant, u8, &str, Tally)> = Vec::new();
    print_header();
    for &variant in &variants {
        let players = args
            .players
            .unwrap_or_else(|| GameConfig::default_players(variant));
        let config = GameConfig::new(variant, players);
        config
            .validate()
            .with_context(|| format!("{variant} with {players} players"))?;
        for opponent in ["notebook", "clueless"] {
            let games = match (variant, opponent) {
                (Variant::Speedclue, "notebook") => args.speedclue_games.unwrap_or(args.games),
                _ => args.games,
            };
            let results = play_many(games, args.jobs, |i| {
                one_game(&config, args.seed + u64::from(i), i as usize, opponent)
            })?;
            let mut total = Tally::default();
            results.iter().for_each(|(t, _)| total.add(t));
            // In uniclue only the client plays: a win is a solved deal.
            let against = if variant == Variant::Uniclue {
                "server"
            } else {
                opponent
            };
            print_row(variant, players, against, &total, acting_seats(&config));
            rows.push((variant, players, against, total));
            if variant == Variant::Uniclue {
                break;
            }
        }
    }
    let rival_games = args.rival_games.unwrap_or(args.games);
    if rival_games > 0 {
        println!();
        println!(
            "against rival, {rival_games} games per table (sleuth in one seat, rival in the others)"
        );
        print_header();
        for (variant, players) in RIVAL_TABLES {
            if !variants.contains(&variant) {
                continue;
            }
            let players = players.unwrap_or_else(|| GameConfig::default_players(variant));
            let config = GameConfig::new(variant, players);
            config
                .validate()
                .with_context(|| format!("{variant} with {players} players"))?;
            let results = play_many(rival_games, args.jobs, |i| {
                one_game(&config, args.seed + u64::from(i), i as usize, "rival")
            })?;
            let mut total = Tally::default();
            results.iter().for_each(|(t, _)| total.add(t));
            print_row(variant, players, "rival", &total, acting_seats(&config));
            rows.push((variant, players, "rival", total));
        }
    }
    let queries = if variants.contains(&Variant::Uniclue) {
        uniclue_queries(args)?
    } else {
        None
    };
    let met = acceptance(&rows, queries.as_ref());
    Ok(if met {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The tables `sleuth` plays against `rival` (`None`: the variant's
/// default table size).
const RIVAL_TABLES: [(Variant, Option<u8>); 6] = [
    (Variant::Speedclue, Some(3)),
    (Variant::Speedclue, Some(4)),
    (Variant::Classic, None),
    (Variant::Csci306, None),
    (Variant::Framework, None),
    (Variant::Cyberclue, None),
];

/// The least win rate of `sleuth` against `rival` in Speed Clue the
/// acceptance asks for, by table size (issue 18).
fn rival_bar(players: u8) -> Option<f64> {
    match players {
        3 => Some(0.45),
        4 => Some(0.35),
        _ => None,
    }
}

/// The query counts over random `uniclue` deals issue 18 asks for.
struct UniclueBar {
    mean: f64,
    p95: u32,
    max: u32,
}

const UNICLUE_BAR: UniclueBar = UniclueBar {
    mean: 10.0,
    p95: 15,
    max: 30,
};

/// The variants where a wrong accusation eliminates the accuser (in
/// `csci306` it costs a turn; in `generalized` every guess, right or wrong,
/// ends the guesser's game and the guesses are ranked).
const ELIMINATING: [Variant; 5] = [
    Variant::Classic,
    Variant::Framework,
    Variant::Uniclue,
    Variant::Cyberclue,
    Variant::Speedclue,
];

/// The acceptance of issue 10, stated from the rows above: whether each
/// holds. Returns whether all that were measured hold.
fn acceptance(rows: &[(Variant, u8, &str, Tally)], queries: Option<&Queries>) -> bool {
    let yes = |ok: bool| if ok { "yes" } else { "NO" };
    let mut met = true;
    println!();
    println!("acceptance");
    if let Some(q) = queries {
        let ok = q.solved == q.deals && q.max < 43;
        met &= ok;
        println!(
            "  uniclue: {} of {} random deals (3 to 6 players) solved, most queries {}; every one in fewer than 43 queries: {}; mean {:.2}, p95 {}",
            q.solved,
            q.deals,
            q.max,
            yes(ok),
            q.mean,
            q.p95
        );
        let ok = q.mean <= UNICLUE_BAR.mean && q.p95 <= UNICLUE_BAR.p95 && q.max <= UNICLUE_BAR.max;
        met &= ok;
        println!(
            "  uniclue, issue 18: mean at most {:.1}, p95 at most {}, max at most {}: {} ({:.1}% of the solved deals took over {} queries, {:.2}% over {})",
            UNICLUE_BAR.mean,
            UNICLUE_BAR.p95,
            UNICLUE_BAR.max,
            yes(ok),
            100.0 * q.over_p95_bar,
            UNICLUE_BAR.p95,
            100.0 * q.over_max_bar,
            UNICLUE_BAR.max
        );
    }
    for (_, players, _, t) in rows.iter().filter(|(v, players, against, _)| {
        *v == Variant::Generalized && *players == 3 && *against == "notebook"
    }) {
        met &= win_rate_line(
            &format!(
                "generalized, {players} players, sleuth against {} notebook",
                players - 1
            ),
            t,
            Some(0.5),
            "at least 50%",
        );
    }
    for (_, players, _, t) in rows
        .iter()
        .filter(|(v, _, against, _)| *v == Variant::Speedclue && *against == "notebook")
    {
        met &= win_rate_line(
            &format!(
                "speedclue, {players} players, sleuth against {} notebook",
                players - 1
            ),
            t,
            (*players == 4).then_some(0.45),
            "at least 45% at 4 players",
        );
    }
    for (_, players, _, t) in rows
        .iter()
        .filter(|(v, _, against, _)| *v == Variant::Speedclue && *against == "rival")
    {
        let Some(bar) = rival_bar(*players) else {
            continue;
        };
        met &= win_rate_line(
            &format!(
                "speedclue, {players} players, sleuth against {} rival",
                players - 1
            ),
            t,
            Some(bar),
            &format!("at least {:.0}%", bar * 100.0),
        );
    }
    let eliminating: Vec<&Tally> = rows
        .iter()
        .filter(|(v, ..)| ELIMINATING.contains(v))
        .map(|(.., t)| t)
        .collect();
    let mut total = Tally::default();
    eliminating.iter().for_each(|t| total.add(t));
    met &= total.wrong == 0;
    println!(
        "  wrong accusations the race rule did not choose, where one eliminates (classic, framework, uniclue, cyberclue, speedclue): {} in {} games: {}",
        total.wrong,
        total.games,
        yes(total.wrong == 0)
    );
    // Not a bar: a race accusation is a bet, judged by what its games won.
    let (low, high) = wilson(total.race_wins, total.race_games);
    if total.race_games == 0 {
        println!(
            "  race accusations where one eliminates: none in {} games",
            total.games
        );
    } else {
        println!(
            "  race accusations where one eliminates: {} ({} right) in {} of the {} games; sleuth won {} of those games, {:.1}% (95% {:.1}%-{:.1}%)",
            total.race,
            total.race_right,
            total.race_games,
            total.games,
            total.race_wins,
            f64::from(total.race_wins) * 100.0 / f64::from(total.race_games),
            low * 100.0,
            high * 100.0
        );
    }
    let all_games: u32 =
        rows.iter().map(|(.., t)| t.games).sum::<u32>() + queries.map_or(0, |q| q.deals);
    let disqualified: u32 = rows.iter().map(|(.., t)| t.disqualified).sum::<u32>()
        + queries.map_or(0, |q| q.disqualified);
    met &= disqualified == 0;
    println!(
        "  rules violations (disqualifications) over all {all_games} games across the variants: {disqualified}: {}",
        yes(disqualified == 0)
    );
    met
}

fn print_header() {
    println!(
        "{:<12} {:>7} {:<9} {:>6} {:>6} {:>7} {:>15} {:>6} {:>5} {:>5} {:>5} {:>6} {:>4} {:>8} {:>8}",
        "variant",
        "players",
        "against",
        "games",
        "wins",
        "rate",
        "95% interval",
        "fair",
        "wrong",
        "race",
        "right",
        "won",
        "dq",
        "ms/call",
        "max ms"
    );
}

fn print_row(variant: Variant, players: u8, against: &str, t: &Tally, seats: usize) {
    let rate = f64::from(t.wins) / f64::from(t.games.max(1));
    let (low, high) = wilson(t.wins, t.games);
    let mean_ms = if t.calls == 0 {
        0.0
    } else {
        t.time.as_secs_f64() * 1000.0 / t.calls as f64
    };
    let race_won = if t.race_games == 0 {
        "-".to_string()
    } else {
        format!(
            "{:.1}%",
            f64::from(t.race_wins) * 100.0 / f64::from(t.race_games)
        )
    };
    println!(
        "{:<12} {:>7} {:<9} {:>6} {:>6} {:>6.1}% {:>6.1}%-{:>6.1}% {:>5.1}% {:>5} {:>5} {:>5} {:>6} {:>4} {:>8.3} {:>8.1}",
        variant.name(),
        players,
        against,
        t.games,
        t.wins,
        rate * 100.0,
        low * 100.0,
        high * 100.0,
        100.0 / seats.max(1) as f64,
        t.wrong,
        t.race,
        t.race_right,
        race_won,
        t.disqualified,
        mean_ms,
        t.slowest.as_secs_f64() * 1000.0
    );
}

/// Prints one acceptance line of a win rate with its 95% interval, and
/// whether it reaches `bar` (`None`: never met, as in the 3-player
/// `notebook` row whose bar is set at 4 players).
fn win_rate_line(what: &str, t: &Tally, bar: Option<f64>, bar_text: &str) -> bool {
    let rate = f64::from(t.wins) / f64::from(t.games.max(1));
    let (low, high) = wilson(t.wins, t.games);
    let ok = bar.is_some_and(|bar| rate >= bar);
    println!(
        "  {what}: {} wins in {} games, {:.1}% (95% {:.1}%-{:.1}%); {bar_text}: {}",
        t.wins,
        t.games,
        rate * 100.0,
        low * 100.0,
        high * 100.0,
        if ok { "yes" } else { "NO" }
    );
    ok
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `count_accusations` makes of one game's accusations, against
    /// the envelope 0, 6, 12: (wrong, race, race right, race games, race wins).
    fn check(won: bool, accusations: &[(&[u16], Grounds)], expected: (u32, u32, u32, u32, u32)) {
        let mut tally = Tally {
            games: 1,
            wins: u32::from(won),
            ..Tally::default()
        };
        let accusations: Vec<(Vec<Card>, Grounds)> = accusations
            .iter()
            .map(|(cards, grounds)| (cards.iter().map(|&c| Card(c)).collect(), *grounds))
            .collect();
        tally.count_accusations(&[Card(0), Card(6), Card(12)], &accusations);
        let got = (
            tally.wrong,
            tally.race,
            tally.race_right,
            tally.race_games,
            tally.race_wins,
        );
        assert_eq!(got, expected, "{accusations:?}, won: {won}");
    }

    #[test]
    fn a_wrong_accusation_counts_as_wrong_only_when_certain() {
        check(false, &[], (0, 0, 0, 0, 0));
        check(true, &[(&[12, 0, 6], Grounds::Certain)], (0, 0, 0, 0, 0));
        check(false, &[(&[0, 6, 13], Grounds::Certain)], (1, 0, 0, 0, 0));
        check(false, &[(&[0, 6, 13], Grounds::Odds)], (0, 1, 0, 1, 0));
        check(true, &[(&[6, 0, 12], Grounds::Odds)], (0, 1, 1, 1, 1));
        // csci306: a wrong guess costs a turn, and the game goes on.
        check(
            true,
            &[
                (&[1, 6, 12], Grounds::Odds),
                (&[0, 6, 12], Grounds::Certain),
            ],
            (0, 1, 0, 1, 1),
        );
    }

    #[test]
    fn the_bench_counts_sleuths_guesses_apart() {
        // In `generalized` sleuth guesses on the odds when an opponent is
        // about to know the hidden items.
        let config = GameConfig::new(Variant::Generalized, 3);
        let mut total = Tally::default();
        for i in 0..30u32 {
            let (tally, _) = one_game(&config, 1 + u64::from(i), i as usize, "notebook")
                .expect("a built-in game");
            total.add(&tally);
        }
        assert_eq!(total.wrong, 0, "{total:?}");
        assert!(total.race > total.race_right, "{total:?}");
        assert!(total.race_right > 0, "{total:?}");
        assert!(total.race_wins <= total.race_right, "{total:?}");
    }
}

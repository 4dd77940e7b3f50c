//! Times full probability updates on realistic 6-player classic states.
//!
//! Each simulated game deals the classic deck at random (seeded), then plays
//! 30 random suggestions answered truthfully, seen by player 0: its own
//! suggestions show it a card, others' show it only who disproved. After
//! every suggestion the new constraints are added and the probabilities
//! recomputed; that whole update is what is timed.
//!
//! Run with `cargo run --release -p sleuth-infer --example timing [games]`.

use std::error::Error;
use std::time::{Duration, Instant};

use sleuth_infer::{Config, Knowledge, Owner, Rng};

const PLAYERS: usize = 6;
const SUGGESTIONS: usize = 30;

struct Stats {
    times: Vec<Duration>,
    sampled: usize,
}

fn main() -> Result<(), Box<dyn Error>> {
    let games: usize = match std::env::args().nth(1) {
        Some(games) => games.parse()?,
        None => 200,
    };
    let categories: Vec<Vec<usize>> = vec![(0..6).collect(), (6..12).collect(), (12..21).collect()];
    let config = Config::default();
    // Per tenth of the game: update times.
    let mut by_stage: Vec<Stats> = (0..3)
        .map(|_| Stats {
            times: Vec::new(),
            sampled: 0,
        })
        .collect();
    let mut rng = Rng::new(2024);
    let mut solved = 0;
    for _ in 0..games {
        let deal = deal(&categories, &mut rng);
        let mut knowledge = Knowledge::new(&categories, &[1, 1, 1], &[3; PLAYERS])?;
        let hand: Vec<usize> = (0..21).filter(|&c| deal[c] == Owner::Player(0)).collect();
        knowledge.add_hand(0, &hand)?;
        for turn in 0..SUGGESTIONS {
            let suggester = turn % PLAYERS;
            let cards = [rng.below(6), 6 + rng.below(6), 12 + rng.below(9)];
            let started = Instant::now();
            for step in 1..PLAYERS {
                let player = (suggester + step) % PLAYERS;
                let held: Vec<usize> = cards
                    .iter()
                    .copied()
                    .filter(|&c| deal[c] == Owner::Player(player))
                    .collect();
                if held.is_empty() {
                    knowledge.add_cannot_disprove(player, &cards)?;
                    continue;
                }
                if suggester == 0 {
                    knowledge.add_has(Owner::Player(player), held[rng.below(held.len())])?;
                } else if player != 0 {
                    knowledge.add_has_one_of(player, &cards)?;
                }
                break;
            }
            let odds = knowledge.probabilities(&config)?;
            let elapsed = started.elapsed();
            let stage = &mut by_stage[turn * 3 / SUGGESTIONS];
            stage.times.push(elapsed);
            stage.sampled += usize::from(!odds.exact);
            if turn + 1 == SUGGESTIONS
                && odds.solutions.first().is_some_and(|s| s.probability == 1.0)
            {
                solved += 1;
            }
        }
    }
    println!("{games} games of {SUGGESTIONS} suggestions, {PLAYERS} players, seen by player 0");
    for (stage, stats) in by_stage.iter().enumerate() {
        let first = stage * SUGGESTIONS / 3 + 1;
        let last = (stage + 1) * SUGGESTIONS / 3;
        report(&format!("suggestions {first:>2}-{last:>2}"), stats);
    }
    let all = Stats {
        times: by_stage
            .iter()
            .flat_map(|s| s.times.iter().copied())
            .collect(),
        sampled: by_stage.iter().map(|s| s.sampled).sum(),
    };
    report("all updates     ", &all);
    println!("envelope certain after {SUGGESTIONS} suggestions in {solved} of {games} games");

    // The hardest states: many clauses and nothing ruled out, so nearly every
    // open card is a class of its own and the grid nears 2^18 cells.
    let mut dense = Stats {
        times: Vec::new(),
        sampled: 0,
    };
    for _ in 0..games.min(50) {
        let deal = deal(&categories, &mut rng);
        let mut knowledge = Knowledge::new(&categories, &[1, 1, 1], &[3; PLAYERS])?;
        let hand: Vec<usize> = (0..21).filter(|&c| deal[c] == Owner::Player(0)).collect();
        knowledge.add_hand(0, &hand)?;
        let started = Instant::now();
        for _ in 0..20 {
            let player = 1 + rng.below(PLAYERS - 1);
            let held: Vec<usize> = (0..21)
                .filter(|&c| deal[c] == Owner::Player(player))
                .collect();
            let mut cards = vec![held[rng.below(held.len())], rng.below(21), rng.below(21)];
            cards.sort_unstable();
            cards.dedup();
            knowledge.add_has_one_of(player, &cards)?;
        }
        let odds = knowledge.probabilities(&config)?;
        dense.times.push(started.elapsed());
        dense.sampled += usize::from(!odds.exact);
    }
    report("20 clauses only ", &dense);

    for (items, hidden, players) in [(30, 3, 3), (60, 3, 3)] {
        let seed = rng.next_u64();
        generalized(
            items,
            hidden,
            players,
            games.min(50),
            &config,
            &mut Rng::new(seed),
        )?;
    }
    // What the fallback costs, forced on the same kind of states.
    let forced = Config {
        work_limit: 0,
        ..Config::default()
    };
    generalized(60, 3, 3, games.min(10), &forced, &mut rng)?;
    Ok(())
}

/// `generalized`: each turn a player interrogates a random opponent with 2
/// to 4 random items; player 0 sees the item only when it asked.
fn generalized(
    items: usize,
    hidden: usize,
    players: usize,
    games: usize,
    config: &Config,
    rng: &mut Rng,
) -> Result<(), Box<dyn Error>> {
    let hand_size = (items - hidden) / players;
    let categories = vec![(0..items).collect::<Vec<_>>()];
    let mut stats = Stats {
        times: Vec::new(),
        sampled: 0,
    };
    for _ in 0..games {
        let mut order: Vec<usize> = (0..items).collect();
        rng.shuffle(&mut order);
        let mut deal = vec![Owner::Envelope; items];
        for (i, &item) in order[hidden..].iter().enumerate() {
            deal[item] = Owner::Player(i / hand_size);
        }
        let mut knowledge = Knowledge::new(&categories, &[hidden], &vec![hand_size; players])?;
        let hand: Vec<usize> = (0..items)
            .filter(|&c| deal[c] == Owner::Player(0))
            .collect();
        knowledge.add_hand(0, &hand)?;
        for turn in 0..SUGGESTIONS {
            let asker = turn % players;
            let target = (asker + 1 + rng.below(players - 1)) % players;
            let mut list: Vec<usize> = (0..2 + rng.below(3)).map(|_| rng.below(items)).collect();
            list.sort_unstable();
            list.dedup();
            let started = Instant::now();
            let held: Vec<usize> = list
                .iter()
                .copied()
                .filter(|&c| deal[c] == Owner::Player(target))
                .collect();
            if held.is_empty() {
                knowledge.add_cannot_disprove(target, &list)?;
            } else if asker == 0 {
                knowledge.add_has(Owner::Player(target), held[0])?;
            } else if target != 0 {
                knowledge.add_has_one_of(target, &list)?;
            }
            let odds = knowledge.probabilities(config)?;
            stats.times.push(started.elapsed());
            stats.sampled += usize::from(!odds.exact);
        }
    }
    let label = if config.work_limit == 0 {
        "sampled"
    } else {
        "default"
    };
    report(
        &format!("generalized {items}/{hidden}/{players} {label}"),
        &stats,
    );
    Ok(())
}

fn report(label: &str, stats: &Stats) {
    let mut times = stats.times.clone();
    times.sort();
    let mean = times.iter().sum::<Duration>() / times.len().max(1) as u32;
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "{label}: {} updates, mean {:>8.3} ms, p50 {:>8.3} ms, p99 {:>8.3} ms, max {:>8.3} ms, sampled {}",
        times.len(),
        mean.as_secs_f64() * 1e3,
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        at(1.0).as_secs_f64() * 1e3,
        stats.sampled
    );
}

/// A random classic deal: one card of each category hidden, the rest dealt.
fn deal(categories: &[Vec<usize>], rng: &mut Rng) -> Vec<Owner> {
    let mut deal = vec![Owner::Envelope; 21];
    let mut rest = Vec::new();
    for members in categories {
        let hidden = members[rng.below(members.len())];
        rest.extend(members.iter().copied().filter(|&c| c != hidden));
    }
    for i in (1..rest.len()).rev() {
        rest.swap(i, rng.below(i + 1));
    }
    for (i, card) in rest.into_iter().enumerate() {
        deal[card] = Owner::Player(i % PLAYERS);
    }
    deal
}

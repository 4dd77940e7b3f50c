//! `clue bench strength`'s `uniclue` table: the queries `sleuth` needs to a
//! correct accusation over random deals of 3 to 6 players, by table size,
//! with the shares of deals over issue 18's bars.

use clue_engine::GameConfig;
use clue_plugin_api::Variant;

use super::{StrengthArgs, Tally, UNICLUE_BAR, one_game, play_many};

/// What the uniclue deals gave, over every table size.
pub(super) struct Queries {
    pub(super) deals: u32,
    pub(super) solved: u32,
    pub(super) disqualified: u32,
    pub(super) mean: f64,
    pub(super) p95: u32,
    pub(super) max: u32,
    /// The shares of solved deals over the p95 bar and over the max bar.
    pub(super) over_p95_bar: f64,
    pub(super) over_max_bar: f64,
}

/// The share of `queries` over `bar` (0 when there are none).
fn share_over(queries: &[u32], bar: u32) -> f64 {
    if queries.is_empty() {
        return 0.0;
    }
    queries.iter().filter(|&&q| q > bar).count() as f64 / queries.len() as f64
}

/// The queries sleuth needs in `uniclue`, over deals with 3 to 6 players.
pub(super) fn uniclue_queries(args: &StrengthArgs) -> anyhow::Result<Option<Queries>> {
    let games = args.uniclue_games.unwrap_or(args.games.saturating_mul(5));
    if games == 0 {
        return Ok(None);
    }
    println!();
    println!("uniclue: queries to a correct accusation over {games} random deals (3 to 6 players)");
    let over_p95 = format!("> {}", UNICLUE_BAR.p95);
    let over_max = format!("> {}", UNICLUE_BAR.max);
    println!(
        "{:<8} {:>6} {:>7} {:>7} {:>6} {:>5} {:>5} {:>7} {:>7}",
        "players", "deals", "solved", "mean", "p50", "p95", "max", over_p95, over_max
    );
    let configs: Vec<GameConfig> = (3..=6)
        .map(|p| GameConfig::new(Variant::Uniclue, p))
        .collect();
    let results = play_many(games, args.jobs, |i| {
        let config = &configs[i as usize % configs.len()];
        one_game(config, args.seed + u64::from(i), 0, "notebook")
    })?;
    let mut rows: Vec<(String, Vec<&(Tally, u32)>)> = (3..=6)
        .map(|p| {
            let of_p: Vec<&(Tally, u32)> = results
                .iter()
                .enumerate()
                .filter(|(i, _)| i % configs.len() + 3 == p)
                .map(|(_, r)| r)
                .collect();
            (p.to_string(), of_p)
        })
        .collect();
    rows.push(("all".to_string(), results.iter().collect()));
    let mut summary = None;
    for (label, games) in rows {
        let mut queries: Vec<u32> = games
            .iter()
            .filter(|(t, _)| t.wins == 1)
            .map(|(_, q)| *q)
            .collect();
        queries.sort_unstable();
        let solved = queries.len();
        let mean = queries.iter().map(|&q| f64::from(q)).sum::<f64>() / solved.max(1) as f64;
        let at = |f: f64| {
            queries
                .get(((solved as f64 * f).ceil() as usize).saturating_sub(1))
                .copied()
                .unwrap_or(0)
        };
        let over_p95_bar = share_over(&queries, UNICLUE_BAR.p95);
        let over_max_bar = share_over(&queries, UNICLUE_BAR.max);
        println!(
            "{:<8} {:>6} {:>7} {:>7.2} {:>6} {:>5} {:>5} {:>6.1}% {:>6.2}%",
            label,
            games.len(),
            solved,
            mean,
            at(0.5),
            at(0.95),
            queries.last().copied().unwrap_or(0),
            100.0 * over_p95_bar,
            100.0 * over_max_bar
        );
        if label == "all" {
            summary = Some(Queries {
                deals: games.len() as u32,
                solved: solved as u32,
                disqualified: games.iter().map(|(t, _)| t.disqualified).sum(),
                mean,
                p95: at(0.95),
                max: queries.last().copied().unwrap_or(0),
                over_p95_bar,
                over_max_bar,
            });
        }
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn share_over_counts_the_deals_strictly_over_the_bar() {
        assert_eq!(share_over(&[], 15), 0.0);
        assert_eq!(share_over(&[15, 15, 15, 15], 15), 0.0);
        assert_eq!(share_over(&[9, 15, 16, 40], 15), 0.5);
        assert_eq!(share_over(&[31], 30), 1.0);
    }
}

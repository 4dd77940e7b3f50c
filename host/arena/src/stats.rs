//! The figures of a tournament, computed from the stored games alone: the same
//! store always gives the same report.

use std::collections::BTreeMap;

use clue_plugin_api::Variant;
use serde::Serialize;
use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};

use crate::store::GameRow;

/// The z of a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The report: each setting of the sweep, and all of them together.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    pub settings: Vec<SettingReport>,
    pub total: SettingReport,
    /// The tournament's `speedclue` games counted as the 2014 Speed Clue
    /// contest counted them, beside our count; bots in file order, those
    /// that played no such game left out (so empty for other variants).
    pub contest: Vec<ContestCount>,
}

/// One bot's wins as we count them and as the 2014 Speed Clue contest's
/// server counted them (`ContestServer.cleanUp`, written to its
/// `playerOutcomes.txt` as `identifier,won,played`): a bot disqualified in
/// any game is out of the count (`disqualified - reason`), and every game
/// in which a disqualified bot sat is not counted for anyone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ContestCount {
    pub bot: String,
    /// Ours: every game it played, and the games it won.
    pub games: u32,
    pub wins: u32,
    /// The contest's.
    pub contest: ContestOutcome,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum ContestOutcome {
    /// Games without a disqualified bot: those it played, those it won.
    Counted { games: u32, wins: u32 },
    /// Its first disqualification, in game order.
    Disqualified { reason: String, game: u64 },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SettingReport {
    pub label: String,
    pub games: u32,
    /// Games nobody won.
    pub draws: u32,
    /// Best first: by win rate, then rating.
    pub standings: Vec<Standing>,
    pub seats: Vec<SeatStat>,
    pub disqualifications: Vec<DqCount>,
    pub head_to_head: HeadToHead,
}

/// One bot's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Standing {
    pub bot: String,
    pub games: u32,
    pub wins: u32,
    pub win_rate: f64,
    /// The 95% Wilson score interval of the win rate.
    pub wilson_low: f64,
    pub wilson_high: f64,
    /// Weng-Lin rating (mu) and its uncertainty (sigma), games taken in index order.
    pub rating: f64,
    pub uncertainty: f64,
    pub disqualified: u32,
    /// The mean of the winner's own turns over the games this bot won.
    pub mean_turns_to_win: Option<f64>,
    pub calls: u64,
    /// Mean and max wall time of one call, in microseconds.
    pub mean_call_us: Option<f64>,
    pub max_call_us: Option<f64>,
    /// Mean fuel per call, where the runtime counts fuel.
    pub mean_fuel_per_call: Option<f64>,
    /// Most fuel used in one game.
    pub max_fuel_per_game: Option<u64>,
    /// Most fuel used in one call: how close the bot came to the budget.
    #[serde(default)]
    pub max_fuel_per_call: Option<u64>,
}

/// How often each seat position wins, all bots together.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatStat {
    pub seat: u8,
    pub games: u32,
    pub wins: u32,
    pub win_rate: f64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DqCount {
    pub bot: String,
    pub reason: String,
    pub count: u32,
    /// The first game (by index) where it happened, and what happened
    /// there: the stored detail (the line it sent, how it ended, the end of
    /// its stderr).
    pub first_game: u64,
    pub first_detail: String,
}

/// `ahead[a][b]`: games where bot `a` finished ranked better than bot `b`;
/// `shared[a][b]`: games both played. Indices follow `bots`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeadToHead {
    pub bots: Vec<String>,
    pub ahead: Vec<Vec<u32>>,
    pub shared: Vec<Vec<u32>>,
}

/// The 95% Wilson score interval of `wins` out of `games`.
pub fn wilson(wins: u32, games: u32) -> (f64, f64) {
    if games == 0 {
        return (0.0, 1.0);
    }
    let n = f64::from(games);
    let p = f64::from(wins) / n;
    let z2 = Z95 * Z95;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Computes the report. `bots` and `settings` are the tournament's, in file order.
pub fn compute(bots: &[String], settings: &[String], games: &[GameRow]) -> Report {
    let per_setting = settings
        .iter()
        .enumerate()
        .map(|(i, label)| {
            let mine: Vec<&GameRow> = games.iter().filter(|g| g.setting == i).collect();
            setting_report(label, bots, &mine)
        })
        .collect();
    let all: Vec<&GameRow> = games.iter().collect();
    Report {
        settings: per_setting,
        total: setting_report("total", bots, &all),
        contest: contest_count(bots, games),
    }
}

/// The contest's count beside ours (see [`ContestCount`]), of the
/// `speedclue` games alone: the contest played no other variant. A game
/// nobody won (which the contest's server could not end with) counts as
/// played and won by no one.
pub fn contest_count(bots: &[String], games: &[GameRow]) -> Vec<ContestCount> {
    let speedclue = Variant::Speedclue.name();
    let games: Vec<&GameRow> = games.iter().filter(|g| g.variant == speedclue).collect();
    let mut first_dq: BTreeMap<&str, (u64, &str)> = BTreeMap::new();
    for game in &games {
        for seat in &game.seats {
            if let (Some(bot), Some(reason)) = (&seat.bot, &seat.dq_reason) {
                let first = first_dq.entry(bot.as_str()).or_insert((game.index, reason));
                if game.index < first.0 {
                    *first = (game.index, reason);
                }
            }
        }
    }
    bots.iter()
        .filter(|bot| {
            games
                .iter()
                .any(|g| g.seats.iter().any(|s| s.bot.as_ref() == Some(*bot)))
        })
        .map(|bot| {
            let (mut games_ours, mut wins_ours, mut games_contest, mut wins_contest) = (0, 0, 0, 0);
            for game in &games {
                let Some(seat) = game.seats.iter().find(|s| s.bot.as_ref() == Some(bot)) else {
                    continue;
                };
                let won = u32::from(game.winner == Some(seat.seat));
                games_ours += 1;
                wins_ours += won;
                let counted = game
                    .seats
                    .iter()
                    .all(|s| s.bot.as_deref().is_none_or(|b| !first_dq.contains_key(b)));
                if counted {
                    games_contest += 1;
                    wins_contest += won;
                }
            }
            ContestCount {
                bot: bot.clone(),
                games: games_ours,
                wins: wins_ours,
                contest: match first_dq.get(bot.as_str()) {
                    Some(&(game, reason)) => ContestOutcome::Disqualified {
                        reason: reason.to_string(),
                        game,
                    },
                    None => ContestOutcome::Counted {
                        games: games_contest,
                        wins: wins_contest,
                    },
                },
            }
        })
        .collect()
}

#[derive(Default)]
struct Tally {
    games: u32,
    wins: u32,
    disqualified: u32,
    win_turns: u64,
    calls: u64,
    wall_ns: u64,
    max_call_ns: u64,
    fuel: Option<u64>,
    max_fuel: Option<u64>,
    max_call_fuel: Option<u64>,
}

fn setting_report(label: &str, bots: &[String], games: &[&GameRow]) -> SettingReport {
    let index: BTreeMap<&str, usize> = bots
        .iter()
        .enumerate()
        .map(|(i, b)| (b.as_str(), i))
        .collect();
    let mut tally: Vec<Tally> = bots.iter().map(|_| Tally::default()).collect();
    let mut ratings = vec![WengLinRating::new(); bots.len()];
    let config = WengLinConfig::new();
    let mut seats: BTreeMap<u8, (u32, u32)> = BTreeMap::new();
    // (count, first game, its detail) by bot and reason.
    let mut dq: BTreeMap<(usize, String), (u32, u64, String)> = BTreeMap::new();
    let n = bots.len();
    let mut ahead = vec![vec![0u32; n]; n];
    let mut shared = vec![vec![0u32; n]; n];
    let mut draws = 0;
    for game in games {
        if game.winner.is_none() {
            draws += 1;
        }
        // The bot seats of this game: (bot index, seat row).
        let played: Vec<(usize, &crate::store::SeatRow)> = game
            .seats
            .iter()
            .filter_map(|s| Some((*index.get(s.bot.as_deref()?)?, s)))
            .collect();
        for &(b, s) in &played {
            let t = &mut tally[b];
            let won = game.winner == Some(s.seat);
            t.games += 1;
            t.calls += u64::from(s.calls);
            t.wall_ns += s.wall_ns;
            t.max_call_ns = t.max_call_ns.max(s.max_call_ns);
            if let Some(f) = s.fuel {
                t.fuel = Some(t.fuel.unwrap_or(0) + f);
                t.max_fuel = Some(t.max_fuel.unwrap_or(0).max(f));
            }
            if let Some(f) = s.max_call_fuel {
                t.max_call_fuel = Some(t.max_call_fuel.unwrap_or(0).max(f));
            }
            if won {
                t.wins += 1;
                t.win_turns += u64::from(s.turns);
            }
            let seat = seats.entry(s.seat).or_default();
            seat.0 += 1;
            seat.1 += u32::from(won);
            if let Some(reason) = &s.dq_reason {
                t.disqualified += 1;
                let first = || (0, game.index, s.detail.clone().unwrap_or_default());
                let entry = dq.entry((b, reason.clone())).or_insert_with(first);
                entry.0 += 1;
                if game.index < entry.1 {
                    (entry.1, entry.2) = (game.index, s.detail.clone().unwrap_or_default());
                }
            }
        }
        for &(a, sa) in &played {
            for &(b, sb) in &played {
                if a != b {
                    shared[a][b] += 1;
                    ahead[a][b] += u32::from(sa.rank < sb.rank);
                }
            }
        }
        if played.len() >= 2 {
            let teams: Vec<[WengLinRating; 1]> =
                played.iter().map(|&(b, _)| [ratings[b]]).collect();
            let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
                .iter()
                .zip(&played)
                .map(|(team, &(_, s))| (&team[..], MultiTeamOutcome::new(usize::from(s.rank))))
                .collect();
            let updated = weng_lin_multi_team(&input, &config);
            for (&(b, _), new) in played.iter().zip(updated) {
                if let Some(r) = new.first() {
                    ratings[b] = *r;
                }
            }
        }
    }
    let mut standings: Vec<Standing> = bots
        .iter()
        .zip(&tally)
        .zip(&ratings)
        .map(|((bot, t), r)| {
            let (wilson_low, wilson_high) = wilson(t.wins, t.games);
            let per_call = |x: f64| (t.calls > 0).then(|| x / t.calls as f64);
            Standing {
                bot: bot.clone(),
                games: t.games,
                wins: t.wins,
                win_rate: rate(t.wins, t.games),
                wilson_low,
                wilson_high,
                rating: r.rating,
                uncertainty: r.uncertainty,
                disqualified: t.disqualified,
                mean_turns_to_win: (t.wins > 0).then(|| t.win_turns as f64 / f64::from(t.wins)),
                calls: t.calls,
                mean_call_us: per_call(t.wall_ns as f64 / 1000.0),
                max_call_us: (t.calls > 0).then(|| t.max_call_ns as f64 / 1000.0),
                mean_fuel_per_call: t.fuel.and_then(|f| per_call(f as f64)),
                max_fuel_per_game: t.max_fuel,
                max_fuel_per_call: t.max_call_fuel,
            }
        })
        .collect();
    standings.sort_by(|a, b| {
        b.win_rate
            .total_cmp(&a.win_rate)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.bot.cmp(&b.bot))
    });
    SettingReport {
        label: label.to_string(),
        games: games.len() as u32,
        draws,
        standings,
        seats: seats
            .into_iter()
            .map(|(seat, (games, wins))| SeatStat {
                seat,
                games,
                wins,
                win_rate: rate(wins, games),
            })
            .collect(),
        disqualifications: dq
            .into_iter()
            .map(|((b, reason), (count, first_game, first_detail))| DqCount {
                bot: bots[b].clone(),
                reason,
                count,
                first_game,
                first_detail,
            })
            .collect(),
        head_to_head: HeadToHead {
            bots: bots.to_vec(),
            ahead,
            shared,
        },
    }
}

fn rate(wins: u32, games: u32) -> f64 {
    if games == 0 {
        0.0
    } else {
        f64::from(wins) / f64::from(games)
    }
}

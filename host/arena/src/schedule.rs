//! The schedule: a pure function of the tournament file. Game `i` is always
//! the same table with the same seed, so a resumed tournament plays exactly
//! the games an uninterrupted one would.

use clue_engine::acting_seats;
use clue_engine::rng::derive;

use crate::config::{ScheduleKind, Setting, Tournament};

/// The most games a tournament may schedule. The schedule is made whole
/// before play, in memory and in the store (`clue tournament check` of 10
/// million `random` games held 1.3 GB), so a file asking for more, often
/// an `all-seatings` of many bots (30 bots at 6 seats make 427,518,000
/// seat orders), is refused where it names its schedule. At the default
/// tournament's 23 games a second, 10 million games are five days of play.
pub const MAX_GAMES: u128 = 10_000_000;

/// How many games [`schedule`] makes of `kind` over `settings` with `bots`
/// bots, counted without making them.
pub fn count(kind: ScheduleKind, settings: &[Setting], bots: usize) -> u128 {
    settings
        .iter()
        .map(|s| {
            let seats = acting_seats(&s.config);
            // Every seat order of every combination: bots! / (bots - seats)!.
            let orders = (0..seats).fold(1u128, |n, i| {
                n.saturating_mul(bots.saturating_sub(i) as u128)
            });
            match kind {
                ScheduleKind::AllSeatings { repeats } => orders.saturating_mul(u128::from(repeats)),
                ScheduleKind::SpeedclueContest { games } => {
                    orders.saturating_mul(u128::from(games))
                }
                ScheduleKind::Random { games } => u128::from(games),
            }
        })
        .fold(0, u128::saturating_add)
}

/// One game of the schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    /// Position in the schedule, from 0; the key of the game in the store.
    pub index: u64,
    /// Which setting of the sweep (0 without a sweep).
    pub setting: usize,
    /// `derive(tournament seed, index)`.
    pub seed: u64,
    /// The bot (index into `Tournament::bots`) of each acting seat, in seat order.
    pub seats: Vec<usize>,
}

/// Every game of the tournament, in index order: each setting's games in turn.
pub fn schedule(t: &Tournament) -> Vec<ScheduledGame> {
    let mut games = Vec::new();
    for (setting, s) in t.settings.iter().enumerate() {
        let seats = acting_seats(&s.config);
        let tables: Vec<Vec<usize>> = match t.schedule {
            ScheduleKind::AllSeatings { repeats } => {
                let one_round: Vec<Vec<usize>> = combinations(t.bots.len(), seats)
                    .into_iter()
                    .flat_map(|c| permutations(&c))
                    .collect();
                (0..repeats).flat_map(|_| one_round.clone()).collect()
            }
            // The contest's loops (`ContestServer.java`): each combination,
            // each of its seat orders, `games` games in a row. The player
            // count is the setting's.
            ScheduleKind::SpeedclueContest { games: count } => combinations(t.bots.len(), seats)
                .into_iter()
                .flat_map(|c| permutations(&c))
                .flat_map(|order| std::iter::repeat_n(order, count as usize))
                .collect(),
            ScheduleKind::Random { games: count } => (0..u64::from(count))
                .map(|g| random_table(t.seed, setting as u64, g, t.bots.len(), seats))
                .collect(),
        };
        for table in tables {
            let index = games.len() as u64;
            games.push(ScheduledGame {
                index,
                setting,
                seed: derive(t.seed, index),
                seats: table,
            });
        }
    }
    games
}

/// The k-element subsets of 0..n, in lexicographic order (the order of the
/// contest's `util/Combinations.java` over its list of entrants).
pub fn combinations(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.push(c.clone());
        // The rightmost element that can still move right.
        let Some(i) = (0..k).rev().find(|&i| c[i] < n - k + i) else {
            return out;
        };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

/// Every ordering of `items`, in lexicographic order of positions (the
/// order of the contest's `util/Permutations.java`, the C++ STL's
/// `next_permutation` from the identity).
pub fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

/// `seats` distinct bots out of `bots`, in a random order drawn from the
/// tournament seed, the setting and the game's number within the setting.
fn random_table(seed: u64, setting: u64, game: u64, bots: usize, seats: usize) -> Vec<usize> {
    // A stream of its own, apart from the game seeds.
    let mut state = derive(derive(seed ^ 0x7461_626c_6573, setting), game);
    let mut pool: Vec<usize> = (0..bots).collect();
    for i in 0..seats.min(bots) {
        state = derive(state, i as u64);
        let j = i + (state % (bots - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(seats);
    pool
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn combinations_and_permutations_count() {
        assert_eq!(combinations(4, 3).len(), 4);
        assert_eq!(combinations(5, 2).len(), 10);
        assert_eq!(combinations(2, 3).len(), 0);
        assert_eq!(permutations(&[0, 1, 2]).len(), 6);
        assert_eq!(permutations(&[7]), vec![vec![7]]);
    }

    #[test]
    fn random_tables_are_distinct_bots() {
        for g in 0..50 {
            let mut t = random_table(9, 0, g, 6, 4);
            assert_eq!(t.len(), 4);
            t.sort();
            t.dedup();
            assert_eq!(t.len(), 4);
        }
    }
}

//! The sampled estimate against exact counts on mid-game classic states.

use crate::common;

use common::{Deck, Fact, Rng, random_deal};
use sleuth_infer::{Config, Knowledge, Owner};

/// Facts player 0 gathers from `suggestions` random suggestions answered
/// truthfully in a 6-player classic game.
fn mid_game(seed: u64, suggestions: usize) -> (Deck, Vec<Fact>) {
    let deck = Deck {
        categories: vec![(0..6).collect(), (6..12).collect(), (12..21).collect()],
        hidden: vec![1, 1, 1],
        hand_sizes: vec![3; 6],
    };
    let mut rng = Rng(seed);
    let deal = random_deal(&deck, &mut rng);
    let hand = (0..21).filter(|&c| deal[c] == Owner::Player(0)).collect();
    let mut facts = vec![Fact::Hand(0, hand)];
    for turn in 0..suggestions {
        let suggester = turn % 6;
        let cards = vec![rng.below(6), 6 + rng.below(6), 12 + rng.below(9)];
        for step in 1..6 {
            let player = (suggester + step) % 6;
            let held: Vec<usize> = cards
                .iter()
                .copied()
                .filter(|&c| deal[c] == Owner::Player(player))
                .collect();
            if held.is_empty() {
                facts.push(Fact::CannotDisprove(player, cards.clone()));
            } else {
                if suggester == 0 {
                    facts.push(Fact::Has(Owner::Player(player), held[0]));
                } else if player != 0 {
                    facts.push(Fact::OneOf(player, cards.clone()));
                }
                break;
            }
        }
    }
    (deck, facts)
}

#[test]
fn estimate_is_close_to_exact() {
    for (seed, suggestions) in [(1, 6), (2, 10), (3, 14)] {
        let (deck, facts) = mid_game(seed, suggestions);
        let mut knowledge = deck.knowledge();
        for fact in &facts {
            fact.add_to(&mut knowledge).unwrap();
        }
        let exact = knowledge.probabilities(&Config::default()).unwrap();
        let sampled = knowledge
            .probabilities(&Config {
                work_limit: 0,
                samples: 20_000,
                seed,
                ..Config::default()
            })
            .unwrap();
        assert!(exact.exact && !sampled.exact);
        // The work of the exact count, within the bound it was checked
        // against; none is counted for the estimate.
        assert!(exact.work > 0 && exact.work <= Config::default().work_limit);
        assert_eq!(sampled.work, 0);
        let mut worst: f64 = 0.0;
        for card in 0..21 {
            for owner in deck.owners() {
                let gap = (exact.probability(card, owner) - sampled.probability(card, owner)).abs();
                worst = worst.max(gap);
            }
        }
        assert!(worst < 0.02, "seed {seed}: worst gap {worst}");
    }
}

/// A state of `tests/data/hard_starts.txt`: the sampler's seed and the
/// knowledge (the file's header gives the format).
fn hard_state(line: &str) -> (u64, Knowledge) {
    let numbers = |text: &str| -> Vec<usize> {
        text.split(',')
            .map(|n| n.parse().expect("a card id or count"))
            .collect()
    };
    let fields: Vec<&str> = line.split(';').collect();
    let [seed, categories, hidden, hands, facts] = fields[..] else {
        panic!("five fields in {line}");
    };
    let categories: Vec<Vec<usize>> = categories.split('|').map(numbers).collect();
    let mut knowledge = Knowledge::new(&categories, &numbers(hidden), &numbers(hands)).unwrap();
    for fact in facts.split('/') {
        let [kind, who, cards] = fact.split(' ').collect::<Vec<_>>()[..] else {
            panic!("three parts in {fact}");
        };
        let fact = match kind {
            "L" => {
                let owner = match who {
                    "E" => Owner::Envelope,
                    player => Owner::Player(player.parse().unwrap()),
                };
                Fact::Lacks(owner, cards.parse().unwrap())
            }
            "O" => Fact::OneOf(who.parse().unwrap(), numbers(cards)),
            "N" => Fact::NotEnvelope(numbers(cards)),
            _ => panic!("unknown fact {fact}"),
        };
        fact.add_to(&mut knowledge).unwrap();
    }
    (seed.parse().unwrap(), knowledge)
}

/// The sampler's starting deal is found where one randomized search ran out
/// of nodes (the estimate fell back to uniform) or took over 100 ms of a
/// decision, and the estimate from it is close to the exact count.
#[test]
fn hard_starting_deals_are_found() {
    let text = include_str!("data/hard_starts.txt");
    let states: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(states.len(), 4, "the file's states");
    for (index, line) in states.into_iter().enumerate() {
        let (seed, knowledge) = hard_state(line);
        let exact = knowledge.probabilities(&Config::default()).unwrap();
        let sampled = knowledge
            .probabilities(&Config {
                seed,
                work_limit: 0,
                samples: 20_000,
                ..Config::default()
            })
            .unwrap();
        assert!(exact.exact && !sampled.exact);
        assert!(
            sampled.samples > 0,
            "state {index}: no starting deal found (a uniform guess)"
        );
        let mut worst: f64 = 0.0;
        for card in 0..knowledge.cards() {
            for owner in (0..knowledge.players())
                .map(Owner::Player)
                .chain([Owner::Envelope])
            {
                let gap = (exact.probability(card, owner) - sampled.probability(card, owner)).abs();
                worst = worst.max(gap);
            }
        }
        println!("state {index}: worst gap {worst:.4}");
        assert!(worst < 0.04, "state {index}: worst gap {worst}");
    }
}

/// `exact_work` foretells the count: the work `probabilities` reports when
/// it counts exactly, whatever the work limit, and `None` exactly when the
/// memory bound sends it to the estimate.
#[test]
fn exact_work_foretells_the_count() {
    let text = include_str!("data/hard_starts.txt");
    let mut states: Vec<Knowledge> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|line| hard_state(line).1)
        .collect();
    for (seed, suggestions) in [(1, 6), (2, 10), (3, 14)] {
        let (deck, facts) = mid_game(seed, suggestions);
        let mut knowledge = deck.knowledge();
        for fact in &facts {
            fact.add_to(&mut knowledge).unwrap();
        }
        states.push(knowledge);
    }
    // sleuth's own bounds (6 MiB of tables): the hard states are past them.
    let small = Config {
        work_limit: 1 << 25,
        memory_limit: 6 << 20,
        samples: 10,
        ..Config::default()
    };
    let mut sampled = 0;
    for (index, knowledge) in states.iter().enumerate() {
        let roomy = knowledge.probabilities(&Config::default()).unwrap();
        assert!(roomy.exact, "state {index}");
        assert_eq!(
            knowledge.exact_work(&Config::default()),
            Some(roomy.work),
            "state {index}"
        );
        let no_work = Config {
            work_limit: 0,
            ..Config::default()
        };
        assert_eq!(
            knowledge.exact_work(&no_work),
            Some(roomy.work),
            "state {index}"
        );
        let odds = knowledge.probabilities(&small).unwrap();
        match knowledge.exact_work(&small) {
            Some(work) => assert!(odds.exact && odds.work == work, "state {index}"),
            None => {
                assert!(!odds.exact, "state {index}");
                sampled += 1;
            }
        }
    }
    assert_eq!(sampled, 4, "the hard states are sampled at 6 MiB");
    let none = Config {
        memory_limit: 0,
        ..Config::default()
    };
    assert_eq!(states[4].exact_work(&none), None);
}

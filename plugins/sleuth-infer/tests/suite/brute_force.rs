//! Propagation, exact counts and the sampled estimate against brute-force
//! enumeration of every deal of small random decks.

use crate::common;

use std::collections::BTreeMap;

use common::{Brute, Deck, Fact, Rng, brute_force, random_deal};
use proptest::prelude::*;
use sleuth_infer::{Config, Contradiction, Knowledge, Owner};

/// Category sizes of the small decks: one category of 4-8 items, or two or
/// three categories of 2-3 cards.
fn shapes() -> impl Strategy<Value = Vec<usize>> {
    prop_oneof![
        (4usize..=8).prop_map(|n| vec![n]),
        proptest::collection::vec(2usize..=3, 2),
        proptest::collection::vec(2usize..=3, 3).prop_filter("at most 8 cards", |sizes| {
            sizes.iter().sum::<usize>() <= 8
        }),
    ]
}

/// A deck of the given category sizes, `players` players, hidden counts and
/// hand sizes drawn from `rng`.
fn deck(sizes: &[usize], players: usize, rng: &mut Rng) -> Deck {
    let mut next = 0;
    let categories: Vec<Vec<usize>> = sizes
        .iter()
        .map(|&size| {
            next += size;
            (next - size..next).collect()
        })
        .collect();
    let hidden: Vec<usize> = sizes
        .iter()
        .map(|&size| rng.below(size.min(3)) + usize::from(sizes.len() > 1 && rng.chance(50)))
        .map(|hidden| hidden.min(2))
        .collect();
    let dealt = next - hidden.iter().sum::<usize>();
    let mut hand_sizes = vec![0; players];
    for _ in 0..dealt {
        hand_sizes[rng.below(players)] += 1;
    }
    Deck {
        categories,
        hidden,
        hand_sizes,
    }
}

/// Facts true of `deal`, mixed with random ones that may be false.
fn facts(deck: &Deck, deal: &[Owner], count: usize, rng: &mut Rng) -> Vec<Fact> {
    let owners = deck.owners();
    let cards = deck.cards();
    let hand = |player: usize| -> Vec<usize> {
        (0..cards)
            .filter(|&c| deal[c] == Owner::Player(player))
            .collect()
    };
    let envelope: Vec<usize> = (0..cards).filter(|&c| deal[c] == Owner::Envelope).collect();
    // A whole envelope other than the true one: one card swapped for
    // another of its category (or, where there is none, any whole envelope).
    let other_envelope = |rng: &mut Rng| -> Vec<usize> {
        let mut guess = envelope.clone();
        if !guess.is_empty() && rng.chance(70) {
            let at = rng.below(guess.len());
            let category = deck.category_of(guess[at]);
            let others: Vec<usize> = deck.categories[category]
                .iter()
                .copied()
                .filter(|c| !guess.contains(c))
                .collect();
            if !others.is_empty() {
                guess[at] = others[rng.below(others.len())];
                return guess;
            }
        }
        let mut guess = Vec::new();
        for (category, members) in deck.categories.iter().enumerate() {
            let mut members = members.clone();
            rng.shuffle(&mut members);
            guess.extend_from_slice(&members[..deck.hidden[category]]);
        }
        guess
    };
    let random_cards = |rng: &mut Rng, most: usize| -> Vec<usize> {
        let mut all: Vec<usize> = (0..cards).collect();
        rng.shuffle(&mut all);
        all.truncate(1 + rng.below(most));
        all
    };
    (0..count)
        .map(|_| {
            let card = rng.below(cards);
            let player = rng.below(deck.players());
            let owner = owners[rng.below(owners.len())];
            if rng.chance(20) {
                return match rng.below(5) {
                    0 => Fact::Has(owner, card),
                    1 => Fact::Lacks(owner, card),
                    2 => Fact::NotEnvelope(envelope.clone()),
                    3 => Fact::NotEnvelope(random_cards(rng, 3)),
                    _ => Fact::OneOf(player, random_cards(rng, 3)),
                };
            }
            match rng.below(13) {
                0 | 1 => Fact::Has(deal[card], card),
                2 | 3 => match owners.iter().find(|&&o| o != deal[card] && rng.chance(50)) {
                    Some(&other) => Fact::Lacks(other, card),
                    None => Fact::Has(deal[card], card),
                },
                4..=6 => {
                    let held = hand(player);
                    if held.is_empty() {
                        return Fact::CannotDisprove(player, random_cards(rng, 3));
                    }
                    let mut shown = random_cards(rng, 3);
                    shown.push(held[rng.below(held.len())]);
                    shown.sort_unstable();
                    shown.dedup();
                    Fact::OneOf(player, shown)
                }
                7 | 8 => {
                    let held = hand(player);
                    let mut lacking: Vec<usize> = random_cards(rng, 3)
                        .into_iter()
                        .filter(|c| !held.contains(c))
                        .collect();
                    lacking.sort_unstable();
                    Fact::CannotDisprove(player, lacking)
                }
                9 => Fact::Hand(player, hand(player)),
                _ => Fact::NotEnvelope(other_envelope(rng)),
            }
        })
        .collect()
}

/// Everything `knowledge` can be asked, to see that a refused fact changed
/// nothing.
fn snapshot(deck: &Deck, knowledge: &Knowledge) -> (Vec<bool>, Vec<(usize, Vec<usize>)>) {
    let possible = (0..deck.cards())
        .flat_map(|card| deck.owners().into_iter().map(move |o| (card, o)))
        .map(|(card, owner)| knowledge.possible(owner, card))
        .collect();
    (possible, knowledge.open_clauses())
}

/// Adds `facts` one by one; every refusal must be right, and what was
/// accepted must match enumeration in every fact and every count.
fn check(deck: &Deck, facts: &[Fact]) {
    let mut knowledge = deck.knowledge();
    let mut accepted: Vec<Fact> = Vec::new();
    for fact in facts {
        let before = snapshot(deck, &knowledge);
        if fact.add_to(&mut knowledge).is_ok() {
            accepted.push(fact.clone());
            continue;
        }
        let mut with = accepted.clone();
        with.push(fact.clone());
        assert_eq!(
            brute_force(deck, &with).deals,
            0,
            "{fact:?} refused though consistent with {accepted:?}"
        );
        assert_eq!(
            snapshot(deck, &knowledge),
            before,
            "refusing {fact:?} changed state"
        );
    }
    let brute = brute_force(deck, &accepted);
    check_facts(deck, &knowledge, &brute);
    check_exact(deck, &knowledge, &brute);
    check_sampled(deck, &knowledge, &brute);
}

/// Everything propagation claims is true of every consistent deal.
fn check_facts(deck: &Deck, knowledge: &Knowledge, brute: &Brute) {
    for card in 0..deck.cards() {
        for owner in deck.owners() {
            if !knowledge.possible(owner, card) {
                assert_eq!(
                    brute.cell(card, owner),
                    0,
                    "card {card} ruled out of {owner:?}"
                );
            }
        }
        if let Some(owner) = knowledge.owner_of(card) {
            assert_eq!(
                brute.cell(card, owner),
                brute.deals,
                "card {card} given to {owner:?}"
            );
        }
    }
    if let Some(envelope) = knowledge.envelope_solved() {
        assert!(brute.envelopes.keys().all(|cards| *cards == envelope));
    }
}

fn check_exact(deck: &Deck, knowledge: &Knowledge, brute: &Brute) {
    let config = Config {
        max_solutions: usize::MAX,
        ..Config::default()
    };
    let odds = match knowledge.probabilities(&config) {
        Err(Contradiction::NoConsistentDeal) => {
            assert_eq!(brute.deals, 0, "counting found no deal");
            return;
        }
        Err(other) => panic!("unexpected {other}"),
        Ok(odds) => odds,
    };
    assert!(odds.exact);
    assert_eq!(odds.deals, Some(brute.deals));
    for card in 0..deck.cards() {
        for owner in deck.owners() {
            let deals = brute.cell(card, owner);
            assert_eq!(
                odds.deals_with(card, owner),
                Some(deals),
                "{card} with {owner:?}"
            );
            let expected = deals as f64 / brute.deals as f64;
            assert!((odds.probability(card, owner) - expected).abs() < 1e-12);
        }
    }
    let solutions: BTreeMap<Vec<usize>, u128> = odds
        .solutions
        .iter()
        .map(|solution| (solution.cards.clone(), solution.deals.unwrap()))
        .collect();
    assert_eq!(solutions, brute.envelopes);
    assert_eq!(odds.solution_count, brute.envelopes.len() as u128);
    assert!(
        odds.solutions
            .windows(2)
            .all(|pair| pair[0].probability >= pair[1].probability)
    );
}

/// The estimate forced on a small deck: deterministic, and it never gives a
/// chance to anything impossible.
fn check_sampled(deck: &Deck, knowledge: &Knowledge, brute: &Brute) {
    if brute.deals == 0 {
        return;
    }
    let config = Config {
        work_limit: 0,
        samples: 200,
        seed: 7,
        ..Config::default()
    };
    let odds = knowledge.probabilities(&config).unwrap();
    let again = knowledge.probabilities(&config).unwrap();
    assert!(!odds.exact);
    assert!(odds.samples > 0);
    assert_eq!(odds.solutions, again.solutions);
    for card in 0..deck.cards() {
        for owner in deck.owners() {
            let p = odds.probability(card, owner);
            assert_eq!(p, again.probability(card, owner));
            assert!(
                p == 0.0 || brute.cell(card, owner) > 0,
                "sampled impossible {card}"
            );
        }
    }
    for solution in &odds.solutions {
        assert!(brute.envelopes.contains_key(&solution.cards));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn matches_brute_force(
        sizes in shapes(),
        players in 1usize..=3,
        count in 0usize..=9,
        seed in any::<u64>(),
    ) {
        let mut rng = Rng(seed);
        let deck = deck(&sizes, players, &mut rng);
        let deal = random_deal(&deck, &mut rng);
        let facts = facts(&deck, &deal, count, &mut rng);
        check(&deck, &facts);
    }
}

/// Hand-picked cases, named after what they exercise.
#[test]
fn regressions() {
    let two_by_three = Deck {
        categories: vec![vec![0, 1, 2], vec![3, 4, 5]],
        hidden: vec![1, 1],
        hand_sizes: vec![2, 2],
    };
    let cases: Vec<(&str, Deck, Vec<Fact>)> = vec![
        ("no facts", two_by_three.clone(), vec![]),
        (
            "clause forced by lacks",
            two_by_three.clone(),
            vec![Fact::OneOf(0, vec![0, 3]), Fact::Lacks(Owner::Player(0), 0)],
        ),
        (
            "clause only counting can refute",
            two_by_three.clone(),
            vec![
                Fact::OneOf(0, vec![0, 3]),
                Fact::OneOf(0, vec![1, 4]),
                Fact::OneOf(0, vec![2, 5]),
            ],
        ),
        (
            "empty clause",
            two_by_three.clone(),
            vec![Fact::OneOf(1, vec![])],
        ),
        (
            "whole hand then has elsewhere",
            two_by_three,
            vec![Fact::Hand(0, vec![0, 3]), Fact::Has(Owner::Player(1), 3)],
        ),
        (
            "empty hands and empty envelope category",
            Deck {
                categories: vec![vec![0, 1], vec![2, 3, 4]],
                hidden: vec![0, 2],
                hand_sizes: vec![0, 3, 0],
            },
            vec![Fact::OneOf(1, vec![2, 3])],
        ),
        (
            "ruled-out envelope with all but one card certain",
            Deck {
                categories: vec![vec![0, 1, 2], vec![3, 4, 5]],
                hidden: vec![1, 1],
                hand_sizes: vec![2, 2],
            },
            vec![
                Fact::Has(Owner::Envelope, 0),
                Fact::NotEnvelope(vec![0, 3]),
                Fact::NotEnvelope(vec![4, 0]),
            ],
        ),
        (
            "every envelope ruled out but one",
            Deck {
                categories: vec![vec![0, 1], vec![2, 3]],
                hidden: vec![1, 1],
                hand_sizes: vec![1, 1],
            },
            vec![
                Fact::NotEnvelope(vec![0, 2]),
                Fact::NotEnvelope(vec![0, 3]),
                Fact::NotEnvelope(vec![1, 2]),
                Fact::NotEnvelope(vec![1, 3]),
            ],
        ),
        (
            "ruled-out sets that are not whole envelopes",
            Deck {
                categories: vec![vec![0, 1, 2], vec![3, 4, 5]],
                hidden: vec![1, 1],
                hand_sizes: vec![2, 2],
            },
            vec![
                Fact::NotEnvelope(vec![0, 1]),
                Fact::NotEnvelope(vec![0]),
                Fact::NotEnvelope(vec![0, 3, 4]),
                Fact::NotEnvelope(vec![2, 5]),
            ],
        ),
        (
            "generalized, k of n",
            Deck {
                categories: vec![(0..8).collect()],
                hidden: vec![2],
                hand_sizes: vec![3, 3],
            },
            vec![
                Fact::OneOf(0, vec![0, 1, 2]),
                Fact::OneOf(1, vec![1, 2, 3]),
                Fact::CannotDisprove(0, vec![4, 5]),
            ],
        ),
    ];
    for (name, deck, facts) in cases {
        eprintln!("case: {name}");
        check(&deck, &facts);
    }
}

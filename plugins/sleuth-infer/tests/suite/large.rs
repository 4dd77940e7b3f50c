//! Decks too big to enumerate: counts past `2^128`, and the sampled
//! fallback, checked against closed forms and invariants.

use sleuth_infer::{Config, Knowledge, Owner};

/// One category of `items`, `hidden` in the envelope, `players` hands.
fn generalized(items: usize, hidden: usize, players: usize) -> Knowledge {
    let hand = (items - hidden) / players;
    Knowledge::new(&[(0..items).collect()], &[hidden], &vec![hand; players]).unwrap()
}

/// Every card is somewhere, every hand and the envelope hold their size.
fn check_sums(knowledge: &Knowledge, config: &Config) {
    let odds = knowledge.probabilities(config).unwrap();
    let players = knowledge.players();
    for card in 0..knowledge.cards() {
        let total: f64 = (0..players)
            .map(|p| odds.probability(card, Owner::Player(p)))
            .sum::<f64>()
            + odds.envelope(card);
        assert!((total - 1.0).abs() < 1e-9, "card {card}: {total}");
        for owner in (0..players).map(Owner::Player).chain([Owner::Envelope]) {
            if !knowledge.possible(owner, card) {
                assert_eq!(odds.probability(card, owner), 0.0);
            }
        }
    }
    for player in 0..players {
        let held: f64 = (0..knowledge.cards())
            .map(|c| odds.probability(c, Owner::Player(player)))
            .sum();
        assert!((held - knowledge.hand_size(player) as f64).abs() < 1e-6);
    }
}

fn binomial(n: u128, k: u128) -> u128 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

#[test]
fn counts_between_u64_and_u128_are_exact() {
    // 40 items, 4 hidden, 6 hands of 6; we hold 0..6.
    let mut knowledge = generalized(40, 4, 6);
    knowledge.add_hand(0, &(0..6).collect::<Vec<_>>()).unwrap();
    let odds = knowledge.probabilities(&Config::default()).unwrap();
    let deals =
        binomial(34, 4) * binomial(30, 6) * binomial(24, 6) * binomial(18, 6) * binomial(12, 6);
    assert!(deals > u64::MAX as u128);
    assert_eq!(odds.deals, Some(deals));
    assert_eq!(odds.deals_with(10, Owner::Envelope), Some(deals / 34 * 4));
}

#[test]
fn counts_past_u128_stay_exact() {
    // 100 items, 4 hidden, 6 hands of 16; we hold 0..16. The 84 others
    // are interchangeable: 84! / (16!^5 4!) deals, about 2^192.
    let mut knowledge = generalized(100, 4, 6);
    knowledge.add_hand(0, &(0..16).collect::<Vec<_>>()).unwrap();
    let odds = knowledge.probabilities(&Config::default()).unwrap();
    assert!(odds.exact);
    assert_eq!(odds.deals, None);
    assert!((odds.envelope(50) - 4.0 / 84.0).abs() < 1e-12);
    assert!((odds.probability(50, Owner::Player(3)) - 16.0 / 84.0).abs() < 1e-12);
    // C(84, 4) equally likely envelopes, the list cut at the default cap.
    assert_eq!(odds.solution_count, 1_929_501);
    assert_eq!(odds.solutions.len(), Config::default().max_solutions);
    assert!((odds.solutions[0].probability - 1.0 / 1_929_501.0).abs() < 1e-15);
    assert_eq!(odds.solutions[0].cards, vec![16, 17, 18, 19]);
}

#[test]
fn clauses_on_a_big_deck_stay_exact() {
    let mut knowledge = generalized(60, 3, 3);
    knowledge.add_hand(0, &(0..19).collect::<Vec<_>>()).unwrap();
    knowledge
        .add_has_one_of(1, &(20..40).collect::<Vec<_>>())
        .unwrap();
    knowledge
        .add_cannot_disprove(2, &(19..30).collect::<Vec<_>>())
        .unwrap();
    knowledge
        .add_has_one_of(2, &(40..45).collect::<Vec<_>>())
        .unwrap();
    let config = Config::default();
    assert!(knowledge.probabilities(&config).unwrap().exact);
    check_sums(&knowledge, &config);
}

#[test]
fn many_clauses_fall_back_to_a_seeded_estimate() {
    // Clauses over scattered items split the 41 open items into many
    // small classes: far more cells than the bound allows.
    let mut knowledge = generalized(60, 3, 3);
    knowledge.add_hand(0, &(0..19).collect::<Vec<_>>()).unwrap();
    for i in 0..20 {
        let items: Vec<usize> = (0..4).map(|j| 19 + (i * 7 + j * 11) % 41).collect();
        knowledge.add_has_one_of(1 + i % 2, &items).unwrap();
    }
    let config = Config {
        samples: 2_000,
        seed: 11,
        ..Config::default()
    };
    let odds = knowledge.probabilities(&config).unwrap();
    assert!(!odds.exact);
    assert_eq!(odds.samples, 2_000);
    let again = knowledge.probabilities(&config).unwrap();
    assert_eq!(odds.solutions, again.solutions);
    check_sums(&knowledge, &config);
}

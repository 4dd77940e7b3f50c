//! Every deal is a partition of the deck with the hand sizes of RULES.md.

use crate::common;

use clue_engine::deal::{deal, fixed, hand_size};
use clue_engine::rng::{self, Stream};
use clue_engine::{ConfigError, GameConfig, StartError, play};
use clue_plugin_api::{Card, Variant};
use proptest::prelude::*;

fn check_partition(config: &GameConfig, seed: u64) {
    let deck = config.standard_deck().expect("boardless variant");
    let hidden = config.hidden_counts(&deck);
    let players = usize::from(config.players);
    let d = deal(
        &deck,
        &hidden,
        players,
        &mut rng::stream(seed, Stream::Deal),
    );
    let mut all: Vec<Card> = d.envelope.clone();
    d.hands.iter().for_each(|h| all.extend(h));
    all.sort();
    assert_eq!(
        all,
        deck.all().collect::<Vec<_>>(),
        "seed {seed}: not a partition"
    );
    for (category, &count) in deck.categories().iter().zip(&hidden) {
        let n = d
            .envelope
            .iter()
            .filter(|&&c| deck.category(c) == Some(*category))
            .count();
        assert_eq!(
            n,
            usize::from(count),
            "seed {seed}: envelope share of {category:?}"
        );
    }
    let dealt = deck.len() - d.envelope.len();
    for (seat, hand) in d.hands.iter().enumerate() {
        assert_eq!(
            hand.len(),
            hand_size(dealt, players, seat),
            "seed {seed} seat {seat}"
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]
    #[test]
    fn every_deal_partitions_the_deck(seed in any::<u64>(), which in 0usize..16) {
        let configs = common::boardless_configs();
        check_partition(&configs[which % configs.len()], seed);
    }
}

#[test]
fn hand_sizes_follow_the_rule() {
    // n / p + (seat < n % p): 18 cards among 4 seats are 5, 5, 4, 4.
    let sizes: Vec<usize> = (0..4).map(|s| hand_size(18, 4, s)).collect();
    assert_eq!(sizes, [5, 5, 4, 4]);
    let sizes: Vec<usize> = (0..5).map(|s| hand_size(18, 5, s)).collect();
    assert_eq!(sizes, [4, 4, 4, 3, 3]);
}

#[test]
fn same_seed_same_deal_other_seed_other_deal() {
    let config = GameConfig::new(Variant::Speedclue, 4);
    let deck = config.standard_deck().unwrap();
    let hidden = config.hidden_counts(&deck);
    let a = deal(&deck, &hidden, 4, &mut rng::stream(5, Stream::Deal));
    let b = deal(&deck, &hidden, 4, &mut rng::stream(5, Stream::Deal));
    let c = deal(&deck, &hidden, 4, &mut rng::stream(6, Stream::Deal));
    assert_eq!(a, b);
    assert_ne!(a, c);
}

#[test]
fn fixed_deals_are_checked() {
    let deck = clue_engine::decks::classic();
    let hidden = [1, 1, 1];
    let check = |hands: Vec<Vec<u16>>, expected: Result<(), &str>| {
        let hands: Vec<Vec<Card>> = hands
            .into_iter()
            .map(|h| h.into_iter().map(Card).collect())
            .collect();
        let got = fixed(&deck, &hidden, &hands).map(|_| ());
        match expected {
            Ok(()) => assert!(got.is_ok(), "{got:?}"),
            Err(part) => assert!(
                got.as_ref().is_err_and(|e| e.contains(part)),
                "{got:?} should mention {part}"
            ),
        }
    };
    // 18 cards: everything but 0 (person), 6 (weapon), 12 (room).
    let good: Vec<u16> = (0..21).filter(|c| ![0, 6, 12].contains(c)).collect();
    check(vec![good[..9].to_vec(), good[9..].to_vec()], Ok(()));
    check(
        vec![good[..10].to_vec(), good[10..].to_vec()],
        Err("the deal gives it 9"),
    );
    let mut twice = good.clone();
    twice[1] = twice[0];
    check(
        vec![twice[..9].to_vec(), twice[9..].to_vec()],
        Err("dealt twice"),
    );
    check(vec![vec![99]], Err("not in the deck"));
    let two_rooms: Vec<u16> = (0..21).filter(|c| ![0, 6, 12, 13].contains(c)).collect();
    check(
        vec![two_rooms[..9].to_vec(), two_rooms[9..].to_vec()],
        Err("2 room cards"),
    );
}

#[test]
fn bad_configs_are_refused_before_play() {
    let check = |config: GameConfig, part: &str| {
        let mut bots = common::builtins(usize::from(config.players));
        let err = play(&config, 1, &mut bots).expect_err("must be refused");
        assert!(
            err.to_string().contains(part),
            "`{err}` should mention `{part}`"
        );
    };
    check(GameConfig::new(Variant::Speedclue, 2), "3 to 6 players");
    check(GameConfig::new(Variant::Cyberclue, 3), "2, 4 or 5");
    let mut g = GameConfig::new(Variant::Generalized, 3);
    g.generalized.items = 20;
    g.generalized.hidden = 3;
    check(g.clone(), "divisible by p");
    g.generalized.hidden = 20;
    check(g, "1 <= k < n");
    let mut u = GameConfig::new(Variant::Uniclue, 4);
    u.uniclue.rooms = vec![3, 10];
    check(u, "room 10");
    let config = GameConfig::new(Variant::Speedclue, 4);
    let mut bots = common::builtins(3);
    assert!(matches!(
        play(&config, 1, &mut bots),
        Err(StartError::Bots {
            needed: 4,
            given: 3,
            ..
        })
    ));
    let mut m = GameConfig::new(Variant::Speedclue, 4);
    m.max_rounds = 0;
    assert_eq!(m.validate(), Err(ConfigError::MaxRounds));
}

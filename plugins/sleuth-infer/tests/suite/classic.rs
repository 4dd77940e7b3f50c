//! A realistic 6-player classic game seen by player 0, with deductions a
//! Clue player would make by hand, and one only counting can make.

use crate::common;

use common::Fact;
use sleuth_infer::{Config, Knowledge, Owner};

// Persons 0..6, weapons 6..12, rooms 12..21.
const GREEN: usize = 0;
const MUSTARD: usize = 1;
const PEACOCK: usize = 2;
const PLUM: usize = 3;
const SCARLET: usize = 4;
const WHITE: usize = 5;
const CANDLESTICK: usize = 6;
const KNIFE: usize = 7;
const PIPE: usize = 8;
const REVOLVER: usize = 9;
const ROPE: usize = 10;
const WRENCH: usize = 11;
const BALLROOM: usize = 12;
const BILLIARD: usize = 13;
const CONSERVATORY: usize = 14;
const DINING: usize = 15;
const HALL: usize = 16;
const KITCHEN: usize = 17;
const LOUNGE: usize = 20;

fn classic() -> Knowledge {
    let categories = [(0..6).collect(), (6..12).collect(), (12..21).collect()];
    Knowledge::new(&categories, &[1, 1, 1], &[3; 6]).unwrap()
}

/// What should be known after the facts.
#[derive(Debug)]
enum Expect {
    OwnerOf(usize, Option<Owner>),
    Possible(Owner, usize, bool),
    Chance(usize, Owner, f64),
    Deals(u128),
    EveryEnvelopeHas(usize),
}

fn check(facts: &[Fact], expected: &[Expect]) {
    let mut knowledge = classic();
    for fact in facts {
        fact.add_to(&mut knowledge)
            .unwrap_or_else(|e| panic!("{fact:?} refused: {e}"));
    }
    let odds = knowledge.probabilities(&Config::default()).unwrap();
    assert!(odds.exact);
    for card in 0..21 {
        let total: f64 = (0..6)
            .map(|p| odds.probability(card, Owner::Player(p)))
            .sum::<f64>()
            + odds.envelope(card);
        assert!((total - 1.0).abs() < 1e-9, "card {card} sums to {total}");
    }
    let listed: f64 = odds.solutions.iter().map(|s| s.probability).sum();
    assert!((listed - 1.0).abs() < 1e-9);
    for expect in expected {
        match *expect {
            Expect::OwnerOf(card, owner) => {
                assert_eq!(knowledge.owner_of(card), owner, "{expect:?}")
            }
            Expect::Possible(owner, card, possible) => {
                assert_eq!(knowledge.possible(owner, card), possible, "{expect:?}")
            }
            Expect::Chance(card, owner, chance) => {
                let found = odds.probability(card, owner);
                assert!((found - chance).abs() < 1e-12, "{expect:?}: {found}");
            }
            Expect::Deals(deals) => assert_eq!(odds.deals, Some(deals)),
            Expect::EveryEnvelopeHas(card) => {
                assert!(
                    odds.solutions.iter().all(|s| s.cards.contains(&card)),
                    "{expect:?}"
                )
            }
        }
    }
}

const MY_HAND: [usize; 3] = [GREEN, CANDLESTICK, BALLROOM];

#[test]
fn own_hand_only_matches_closed_form() {
    // 5 * 5 * 8 envelopes, then 15 cards into five hands of 3: 15! / 3!^5.
    check(
        &[Fact::Hand(0, MY_HAND.to_vec())],
        &[
            Expect::Deals(5 * 5 * 8 * 168_168_000),
            Expect::Chance(MUSTARD, Owner::Envelope, 1.0 / 5.0),
            Expect::Chance(LOUNGE, Owner::Envelope, 1.0 / 8.0),
            Expect::Chance(MUSTARD, Owner::Player(3), 4.0 / 5.0 * 3.0 / 15.0),
            Expect::Chance(GREEN, Owner::Player(0), 1.0),
            Expect::OwnerOf(GREEN, Some(Owner::Player(0))),
            Expect::OwnerOf(MUSTARD, None),
        ],
    );
}

#[test]
fn nobody_disproves_our_own_suggestion() {
    // We suggest Peacock with our own weapon and room: nobody can disprove.
    let mut facts = vec![Fact::Hand(0, MY_HAND.to_vec())];
    facts.extend((1..6).map(|p| Fact::CannotDisprove(p, vec![PEACOCK, CANDLESTICK, BALLROOM])));
    check(
        &facts,
        &[
            Expect::OwnerOf(PEACOCK, Some(Owner::Envelope)),
            Expect::Possible(Owner::Envelope, PLUM, false),
            Expect::Chance(PEACOCK, Owner::Envelope, 1.0),
            Expect::Chance(WHITE, Owner::Envelope, 0.0),
            Expect::EveryEnvelopeHas(PEACOCK),
        ],
    );
}

#[test]
fn a_full_game_of_deductions() {
    let mut facts = vec![Fact::Hand(0, MY_HAND.to_vec())];
    // Nobody disproves our (Peacock, Candlestick, Ballroom).
    facts.extend((1..6).map(|p| Fact::CannotDisprove(p, vec![PEACOCK, CANDLESTICK, BALLROOM])));
    facts.extend([
        // Player 5 shows us three cards over three suggestions: a full hand.
        Fact::Has(Owner::Player(5), PLUM),
        Fact::Has(Owner::Player(5), PIPE),
        Fact::Has(Owner::Player(5), HALL),
        // Player 1 suggests (Mustard, Knife, Billiard): player 2 cannot
        // disprove, player 3 shows player 1 something.
        Fact::CannotDisprove(2, vec![MUSTARD, KNIFE, BILLIARD]),
        Fact::OneOf(3, vec![MUSTARD, KNIFE, BILLIARD]),
        // Player 4 shows us the knife; player 3 cannot disprove
        // (Mustard, Revolver, Conservatory).
        Fact::Has(Owner::Player(4), KNIFE),
        Fact::CannotDisprove(3, vec![MUSTARD, REVOLVER, CONSERVATORY]),
        // Player 4 showed someone one of (Scarlet, Revolver), and one of
        // (Rope, Dining): with the knife that fills its hand, but only
        // counting sees it.
        Fact::OneOf(4, vec![SCARLET, REVOLVER]),
        Fact::OneOf(4, vec![ROPE, DINING]),
    ]);
    check(
        &facts,
        &[
            Expect::OwnerOf(PEACOCK, Some(Owner::Envelope)),
            // A full hand lacks everything else.
            Expect::Possible(Owner::Player(5), LOUNGE, false),
            Expect::Possible(Owner::Player(5), WRENCH, false),
            // The clause lost Mustard and the knife: player 3 has Billiard.
            Expect::OwnerOf(BILLIARD, Some(Owner::Player(3))),
            Expect::Chance(BILLIARD, Owner::Player(3), 1.0),
            // Propagation leaves the kitchen open for player 4; counting
            // does not.
            Expect::Possible(Owner::Player(4), KITCHEN, true),
            Expect::Chance(KITCHEN, Owner::Player(4), 0.0),
            Expect::Chance(WHITE, Owner::Player(4), 0.0),
            Expect::Chance(MUSTARD, Owner::Envelope, 0.0),
            Expect::EveryEnvelopeHas(PEACOCK),
        ],
    );
}

#[test]
fn refused_facts_leave_knowledge_unchanged() {
    let mut knowledge = classic();
    knowledge.add_hand(0, &MY_HAND).unwrap();
    let cases: Vec<Fact> = vec![
        Fact::Has(Owner::Player(1), GREEN),
        Fact::OneOf(2, vec![GREEN, CANDLESTICK]),
        Fact::Hand(1, vec![MUSTARD, KNIFE]),
        Fact::Hand(1, vec![MUSTARD, KNIFE, BALLROOM]),
        Fact::Has(Owner::Envelope, GREEN),
    ];
    for fact in cases {
        let before = format!("{knowledge:?}");
        assert!(fact.add_to(&mut knowledge).is_err(), "{fact:?} accepted");
        assert_eq!(format!("{knowledge:?}"), before, "{fact:?} changed state");
    }
}

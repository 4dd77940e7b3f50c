//! Speed Clue questions: sleuth asks one whose worst answer leaves the
//! fewest envelopes (the contest winner's minimax, `worst.rs`), naming as
//! few of its own cards as such a question can; once the opponents ask
//! about cards it knows are held elsewhere (a weak field), the one of most
//! expected information instead. It never repeats one, and still answers
//! once every question has been asked.

use crate::common;

use clue_plugin_api::{Card, Event, Player, Seat, Setup, SuggestRequest, Suggestion, Turn};
use common::speedclue_setup as setup;
use sleuth::worst::{Left, worst_case};
use sleuth_infer::{Config, Knowledge};

fn suggest(bot: &mut sleuth::Sleuth) -> Option<Vec<usize>> {
    let request = SuggestRequest {
        turn: Turn {
            seat: Seat(0),
            round: 1,
            roll: None,
            position: None,
            room: None,
        },
        optional: false,
        opponents: Vec::new(),
    };
    let suggestion = bot.suggest(&request)?;
    Some(suggestion.cards.iter().map(|c| c.index()).collect())
}

/// What seat 0 knows: its hand and the answers given, with the envelopes
/// still possible counted exactly.
fn knowledge(setup: &Setup, answers: &[Answer]) -> (Knowledge, Vec<Vec<usize>>) {
    let categories: Vec<Vec<usize>> = vec![(0..6).collect(), (6..12).collect(), (12..21).collect()];
    let sizes: Vec<usize> = setup.hand_sizes.iter().map(|&s| usize::from(s)).collect();
    let mut k = Knowledge::new(&categories, &[1, 1, 1], &sizes).unwrap();
    let hand: Vec<usize> = setup.hand.iter().map(|c| c.index()).collect();
    k.add_hand(0, &hand).unwrap();
    for answer in answers {
        for &seat in answer.passed {
            k.add_cannot_disprove(seat, &answer.cards).unwrap();
        }
        if let Some(seat) = answer.shown_by {
            k.add_has_one_of(seat, &answer.cards).unwrap();
        }
    }
    let config = Config {
        seed: 1,
        work_limit: 1 << 30,
        memory_limit: 64 << 20,
        samples: 1000,
        max_solutions: 4096,
    };
    let odds = k.probabilities(&config).unwrap();
    assert!(odds.exact);
    let candidates = odds
        .solutions
        .iter()
        .filter(|s| s.probability > 0.0)
        .map(|s| s.cards.clone())
        .collect();
    (k, candidates)
}

/// Another seat's question and its public answer.
struct Answer {
    suggester: u8,
    cards: [usize; 3],
    passed: &'static [usize],
    shown_by: Option<usize>,
}

fn watch(bot: &mut sleuth::Sleuth, answer: &Answer) {
    bot.watch(&Event::Suggested {
        seat: Seat(answer.suggester),
        suggestion: Suggestion {
            cards: answer.cards.iter().map(|&c| Card(c as u16)).collect(),
            target: None,
        },
    });
    bot.watch(&Event::Answered {
        suggester: Seat(answer.suggester),
        passed: answer.passed.iter().map(|&s| Seat(s as u8)).collect(),
        shown_by: answer.shown_by.map(|s| Seat(s as u8)),
        card: None,
    });
}

/// Sleuth, seat 0 of `players` with `hand`, having watched `answers`, asks
/// a question whose worst answer is the least bad of all 324, with the
/// fewest of its own cards among those.
fn check(players: u8, hand: &[u16], answers: &[Answer]) {
    let setup = setup(players, hand);
    let mut bot = sleuth::Sleuth::default();
    bot.begin_game(&setup);
    for answer in answers {
        watch(&mut bot, answer);
    }
    let (k, candidates) = knowledge(&setup, answers);
    let responders: Vec<usize> = (1..usize::from(players)).collect();
    let own = |cards: &[usize]| {
        cards
            .iter()
            .filter(|&&c| hand.contains(&(c as u16)))
            .count()
    };
    // The least worst case, then the fewest own cards among those.
    let mut least: Option<(Left, usize)> = None;
    for person in 0..6 {
        for weapon in 6..12 {
            for room in 12..21 {
                let cards = [person, weapon, room];
                if let Some(left) = worst_case(&k, &candidates, &responders, &cards, None) {
                    let key = (left, own(&cards));
                    least = Some(least.map_or(key, |l| l.min(key)));
                }
            }
        }
    }
    let asked = suggest(&mut bot).expect("a suggestion");
    let worst = worst_case(&k, &candidates, &responders, &asked, None);
    assert_eq!(
        worst.map(|w| (w, own(&asked))),
        least,
        "{players} players: asked {asked:?}, {} envelopes possible",
        candidates.len()
    );
}

#[test]
fn asks_a_question_of_least_worst_case() {
    check(3, &[0, 1, 6, 7, 12, 13], &[]);
    check(4, &[0, 6, 7, 12, 13], &[]);
    check(5, &[0, 6, 12, 13], &[]);
    // After other seats' questions: passes and shows it did not see.
    let answers = [
        Answer {
            suggester: 1,
            cards: [2, 8, 14],
            passed: &[2],
            shown_by: Some(3),
        },
        Answer {
            suggester: 2,
            cards: [3, 9, 15],
            passed: &[3],
            shown_by: Some(1),
        },
        Answer {
            suggester: 3,
            cards: [2, 10, 16],
            passed: &[],
            shown_by: Some(1),
        },
    ];
    check(4, &[0, 6, 7, 12, 13], &answers);
}

#[test]
fn against_a_weak_field_asks_the_most_informative_question() {
    let hand = [0, 6, 7, 12, 13];
    let setup = setup(4, &hand);
    // Opponents naming our own cards (person 0, weapons 6 and 7), as a
    // bot that does not reason about what others hold does.
    let answers = [
        Answer {
            suggester: 1,
            cards: [0, 6, 14],
            passed: &[2, 3],
            shown_by: None,
        },
        Answer {
            suggester: 2,
            cards: [1, 7, 12],
            passed: &[],
            shown_by: Some(3),
        },
    ];
    let mut bot = sleuth::Sleuth::default();
    bot.begin_game(&setup);
    for answer in &answers {
        watch(&mut bot, answer);
    }
    let mut best = f64::NEG_INFINITY;
    for person in 0..6 {
        for weapon in 6..12 {
            for room in 12..21 {
                let gain = bot
                    .suggestion_gain(&[Card(person), Card(weapon), Card(room)])
                    .expect("a game");
                best = best.max(gain);
            }
        }
    }
    let asked = suggest(&mut bot).expect("a suggestion");
    let cards: Vec<Card> = asked.iter().map(|&c| Card(c as u16)).collect();
    let gain = bot.suggestion_gain(&cards).expect("a game");
    assert!(
        gain >= best - 1e-9,
        "asked {asked:?} ({gain:.4} bits), the best teaches {best:.4}"
    );
    // Asked by the worst case, every question it could pick teaches less:
    // the assertion above tells the two scores apart.
    let (k, candidates) = knowledge(&setup, &answers);
    let own = |cards: &[usize]| {
        cards
            .iter()
            .filter(|&&c| hand.contains(&(c as u16)))
            .count()
    };
    let mut least: Option<((Left, usize), f64)> = None;
    for person in 0..6u16 {
        for weapon in 6..12u16 {
            for room in 12..21u16 {
                let cards = [usize::from(person), usize::from(weapon), usize::from(room)];
                let Some(left) = worst_case(&k, &candidates, &[1, 2, 3], &cards, None) else {
                    continue;
                };
                let key = (left, own(&cards));
                let gain = bot
                    .suggestion_gain(&[Card(person), Card(weapon), Card(room)])
                    .expect("a game");
                least = match least {
                    Some((l, g)) if l < key || (l == key && g >= gain) => Some((l, g)),
                    _ => Some((key, gain)),
                };
            }
        }
    }
    let (_, minimax) = least.expect("some question");
    assert!(
        minimax < best - 1e-9,
        "the worst case would pick as informative a question ({minimax:.4} bits)"
    );
}

#[test]
fn never_repeats_and_still_asks_once_every_question_was_made() {
    let mut bot = sleuth::Sleuth::default();
    bot.begin_game(&setup(3, &[0, 1, 6, 7, 12, 13]));
    let mut asked = Vec::new();
    for _ in 0..6 * 6 * 9 {
        let cards = suggest(&mut bot).expect("a suggestion");
        assert!(!asked.contains(&cards), "repeated {cards:?}");
        asked.push(cards);
    }
    // All 324 made: it names one anyway rather than fail.
    let cards = suggest(&mut bot).expect("a suggestion after every one was made");
    assert_eq!(cards.len(), 3);
}

#[test]
fn no_game_no_question() {
    assert_eq!(suggest(&mut sleuth::Sleuth::default()), None);
}

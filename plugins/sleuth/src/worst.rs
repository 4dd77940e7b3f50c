//! The worst case of a question: every answer the responders could give,
//! each applied to what is known, and the most solutions any of them leaves.

use sleuth_infer::{Knowledge, Owner};

/// What is left after an answer, compared worst first: solutions, then
/// the open `(player, card)` pairs (who could still hold what). The second
/// key stands for the contest winner's tie-break on the number of hands
/// each player may still hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Left {
    pub solutions: usize,
    pub open: usize,
}

/// The solutions (envelopes, card ids sorted) that `knowledge` still allows,
/// counted from `candidates`, the exact list of solutions before the answer.
/// With no list (the solver gave none), the product of each category's
/// possible envelope cards, choose its hidden count.
pub fn solutions_left(knowledge: &Knowledge, candidates: &[Vec<usize>]) -> usize {
    solutions_among(knowledge, &masks(candidates))
}

/// Each candidate envelope as the mask of its cards (`MAX_CARDS` is 128).
fn masks(candidates: &[Vec<usize>]) -> Vec<u128> {
    candidates
        .iter()
        .map(|cards| cards.iter().fold(0u128, |mask, &c| mask | 1 << c))
        .collect()
}

/// [`solutions_left`] over the candidates' masks. This runs for every
/// answer to every question, over every candidate: asking the knowledge
/// card by card, candidate by candidate, was most of the work of a
/// six-player Speed Clue question, so the envelope's possible cards are
/// read once into a mask.
fn solutions_among(knowledge: &Knowledge, candidates: &[u128]) -> usize {
    if knowledge.envelope_solved().is_some() {
        return 1;
    }
    if candidates.is_empty() {
        return (0..knowledge.categories())
            .map(|c| {
                let open = knowledge
                    .category_cards(c)
                    .into_iter()
                    .filter(|&card| knowledge.possible(Owner::Envelope, card))
                    .count();
                choose(open, knowledge.hidden(c))
            })
            .fold(1usize, usize::saturating_mul);
    }
    let open = (0..knowledge.cards())
        .filter(|&card| knowledge.possible(Owner::Envelope, card))
        .fold(0u128, |mask, card| mask | 1 << card);
    candidates.iter().filter(|&&mask| mask & !open == 0).count()
}

fn choose(n: usize, k: usize) -> usize {
    if k > n {
        return 0;
    }
    (0..k).fold(1usize, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// `(player, card)` pairs still open: the player may hold the card and its
/// owner is not yet certain.
fn open_pairs(knowledge: &Knowledge) -> usize {
    (0..knowledge.cards())
        .filter(|&card| knowledge.owner_of(card).is_none())
        .map(|card| {
            (0..knowledge.players())
                .filter(|&p| knowledge.possible(Owner::Player(p), card))
                .count()
        })
        .sum()
}

/// The worst answer to asking `cards` of `responders`, in the order they
/// answer (the first that holds one of the cards shows it to the asker, the
/// others before it pass). Every answer the knowledge allows is tried: each
/// responder showing each card it may hold, and nobody showing. An answer
/// the knowledge refuses cannot happen and is skipped; `None` when none can
/// (the knowledge is already contradictory).
///
/// `bound` is the best worst case found so far among other questions: once
/// an answer is worse, the search stops and returns that answer (this
/// question cannot be chosen), which saves most of the work.
pub fn worst_case(
    knowledge: &Knowledge,
    candidates: &[Vec<usize>],
    responders: &[usize],
    cards: &[usize],
    bound: Option<Left>,
) -> Option<Left> {
    let candidates = masks(candidates);
    let mut worst: Option<Left> = None;
    let mut consider = |k: &Knowledge| -> bool {
        let solutions = solutions_among(k, &candidates);
        if solutions == 0 || worst.is_some_and(|w| solutions < w.solutions) {
            return false;
        }
        let l = Left {
            solutions,
            open: open_pairs(k),
        };
        if worst.is_none_or(|w| l > w) {
            worst = Some(l);
        }
        bound.is_some_and(|b| l > b)
    };
    // What is known once every responder so far has passed.
    let mut passed = knowledge.clone();
    for &seat in responders {
        let holds_one = cards
            .iter()
            .any(|&c| passed.owner_of(c) == Some(Owner::Player(seat)));
        for &card in cards {
            if passed.possible(Owner::Player(seat), card) {
                let mut shown = passed.clone();
                if shown.add_has(Owner::Player(seat), card).is_ok() && consider(&shown) {
                    return worst;
                }
            }
        }
        // A responder certain to hold one answers: nobody after it is asked.
        if holds_one || passed.add_cannot_disprove(seat, cards).is_err() {
            return worst;
        }
    }
    consider(&passed);
    worst
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The classic deck: persons 0..6, weapons 6..12, rooms 12..21.
    pub(crate) fn classic(players: usize) -> Knowledge {
        let categories = [(0..6).collect(), (6..12).collect(), (12..21).collect()];
        let sizes: Vec<usize> = (0..players)
            .map(|p| 18 / players + usize::from(p < 18 % players))
            .collect();
        Knowledge::new(&categories, &[1, 1, 1], &sizes).unwrap()
    }

    fn all_envelopes() -> Vec<Vec<usize>> {
        let mut all = Vec::new();
        for p in 0..6 {
            for w in 6..12 {
                for r in 12..21 {
                    all.push(vec![p, w, r]);
                }
            }
        }
        all
    }

    fn check(knowledge: &Knowledge, responders: &[usize], cards: &[usize], expected: usize) {
        let candidates: Vec<Vec<usize>> = all_envelopes()
            .into_iter()
            .filter(|e| solutions_left(knowledge, std::slice::from_ref(e)) == 1)
            .collect();
        let worst = worst_case(knowledge, &candidates, responders, cards, None).unwrap();
        assert_eq!(
            worst.solutions, expected,
            "asking {cards:?} of {responders:?}"
        );
    }

    #[test]
    fn nobody_showing_keeps_the_envelopes_with_every_card_asked() {
        let mut k = classic(3);
        k.add_hand(0, &[0, 1, 6, 7, 12, 13]).unwrap();
        // Our own cards asked: nobody can show them. The worst answer is a
        // show of a card we do not hold: the person 2, which leaves 3 persons
        // x 4 weapons x 7 rooms.
        check(&k, &[1, 2], &[2, 6, 12], 3 * 4 * 7);
        // Three open cards: a shown card removes one candidate of its
        // category; nobody showing fixes the envelope. Worst: a room shown
        // (4 persons x 4 weapons x 6 rooms).
        check(&k, &[1, 2], &[2, 8, 14], 4 * 4 * 6);
    }

    #[test]
    fn a_responder_certain_to_hold_a_card_ends_the_answers() {
        let mut k = classic(3);
        k.add_hand(0, &[0, 1, 6, 7, 12, 13]).unwrap();
        k.add_has(Owner::Player(1), 2).unwrap();
        // Player 1 holds person 2: it shows that (nothing new) or weapon 8 or
        // room 14; player 2 is never asked. Worst: person 2 again, all 84 left.
        check(&k, &[1, 2], &[2, 8, 14], 3 * 4 * 7);
        // Asking only cards we hold but the person: the only answer is player 1
        // showing person 2, which teaches nothing.
        check(&k, &[1, 2], &[2, 6, 12], 3 * 4 * 7);
    }

    #[test]
    fn an_answer_the_knowledge_refuses_is_not_counted() {
        let mut k = classic(3);
        k.add_hand(0, &[0, 1, 6, 7, 12, 13]).unwrap();
        // Both opponents lack person 5: it is in the envelope.
        k.add_cannot_disprove(1, &[5]).unwrap();
        k.add_cannot_disprove(2, &[5]).unwrap();
        // Asking person 5 with our own weapon and room: nobody can show
        // anything, so the only answer is "nobody", and it leaves one
        // person, 4 weapons and 7 rooms.
        check(&k, &[1, 2], &[5, 6, 12], 4 * 7);
    }

    #[test]
    fn without_a_list_the_product_of_the_open_cards() {
        let mut k = classic(3);
        k.add_hand(0, &[0, 1, 6, 7, 12, 13]).unwrap();
        assert_eq!(solutions_left(&k, &[]), 4 * 4 * 7);
        assert_eq!(choose(5, 2), 10);
        assert_eq!(choose(2, 3), 0);
    }
}

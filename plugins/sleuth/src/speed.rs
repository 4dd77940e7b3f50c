//! Speed Clue questions: the contest winner's minimax, with the expected
//! information as the tie-break; against a weak field, the expected
//! information alone.
//!
//! Asking the question of most expected information (`gain.rs`) lost to
//! `rival`'s minimax at 4 players (18% of the games, against a fair 25%):
//! its answer model takes the asked cards' owners as independent, which
//! misjudges a question most where several opponents answer. Here every
//! answer is applied to the exact knowledge (`worst.rs`) and the question
//! whose worst answer leaves the fewest envelopes wins, then the fewest
//! `(player, card)` pairs left open (as `rival`). Among those equally good
//! in the worst case: the one naming fewest of this bot's own cards, then
//! the one `gain.rs` expects to teach most. Naming our own cards to hide
//! from the opponents which card we are after measured worse, not better
//! (`docs/strength.md`).
//!
//! Against a weak field the same questions cost a lot: three `notebook`
//! beat a `sleuth` asking by the worst case far more often than one asking
//! by the expected information (46.7% against 71.7% of the games, 4
//! players). So `sleuth` also watches how the opponents ask ([`Field`]) and,
//! once their questions show them naming cards it knows to be held
//! elsewhere, asks by the expected information instead.

use crate::belief::Belief;
use crate::gain::Table;
use crate::worst::{Left, worst_case};
use sleuth_infer::{Knowledge, Owner};

/// Evidence, in nats, that one opponent question comes from a weak field
/// rather than from exact reasoners, by how many of its three cards this
/// bot knew to be held by a seat other than the asker (0, 1, 2, 3): the log
/// of the ratio of their frequencies in questions of `notebook` and of
/// `rival`, measured over 200 four-player games against each (`notebook`:
/// 28.5%, 46.2%, 21.7%, 3.7%; `rival`: 54.6%, 39.8%, 5.1%, 0.5%).
const WEAK_EVIDENCE: [f64; 4] = [-0.65, 0.15, 1.45, 2.0];

/// The evidence past which the field is taken as weak. Chosen on the bench
/// (docs/strength.md): lower bars start mistaking `rival` for a weak field.
const WEAK_BAR: f64 = 0.7;

/// What the opponents' questions say about them. An exact reasoner rarely
/// asks about cards whose owner is known, because their answers teach
/// nothing; a weak field often does. The sum of the evidence of each
/// question (a sequential likelihood-ratio test) decides which score asks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Field {
    evidence: f64,
}

impl Field {
    /// An opponent, `asker`, asked `cards`; `knowledge` is what this bot
    /// knew when it asked.
    pub fn observe(&mut self, knowledge: &Knowledge, asker: usize, cards: &[usize]) {
        let known = cards
            .iter()
            .filter(|&&c| c < knowledge.cards())
            .filter(|&&c| {
                knowledge
                    .owner_of(c)
                    .is_some_and(|o| o != Owner::Player(asker) && o != Owner::Envelope)
            })
            .count();
        self.evidence += WEAK_EVIDENCE[known.min(3)];
    }

    /// Whether the opponents have asked like a weak field.
    pub fn weak(&self) -> bool {
        self.evidence > WEAK_BAR
    }
}

/// The share of the opponents' named cards, among those whose holder this
/// bot knows (not itself), that the asker held, past which the opponents
/// are taken to name their own cards to narrow a question, as exact
/// counters do. Of all the cards named in 300 four-player games, the asker
/// held 42.8% with `rival`, 22.0% with `clueless` (at random: its hand's
/// share of the deck) and 1.9% with `notebook`. Chosen on the bench with
/// [`OWN_SEEN`] (docs/strength.md).
const OWN_SHARE: f64 = 0.4;

/// The fewest named cards of known holder the share is read from.
const OWN_SEEN: u32 = 6;

/// An opponent whose share of its own cards is under this, over at least
/// [`SEEN_EACH`] named cards of known holder, all but never names its own
/// (`notebook`: 2% at 4 players): its questions point to the envelope, not
/// away from it, so they are left out.
const FEW_OWN: f64 = 0.2;

/// The fewest named cards of known holder one opponent is judged from.
const SEEN_EACH: u32 = 4;

/// Whose questions point away from the envelope, judged from `asked` (each
/// opponent question: the asker and its cards) and what this bot, `me`,
/// knows now. `None` when the opponents, pooled, do not name their own
/// cards; else `Some(seats)`, `seats[asker]` false for an opponent that all
/// but never names its own (left out of the pool too).
pub fn own_namers(
    knowledge: &Knowledge,
    asked: &[(usize, Vec<usize>)],
    me: usize,
) -> Option<Vec<bool>> {
    let players = knowledge.players();
    let mut own = vec![0u32; players];
    let mut seen = vec![0u32; players];
    for (asker, cards) in asked.iter().filter(|(asker, _)| *asker < players) {
        for &card in cards.iter().filter(|&&c| c < knowledge.cards()) {
            match knowledge.owner_of(card) {
                Some(Owner::Player(holder)) if holder != me => {
                    seen[*asker] += 1;
                    own[*asker] += u32::from(holder == *asker);
                }
                _ => {}
            }
        }
    }
    let counted: Vec<bool> = own
        .iter()
        .zip(&seen)
        .map(|(&own, &seen)| seen < SEEN_EACH || f64::from(own) >= FEW_OWN * f64::from(seen))
        .collect();
    let (mut pooled_own, mut pooled_seen) = (0, 0);
    for seat in (0..players).filter(|&s| counted[s]) {
        pooled_own += own[seat];
        pooled_seen += seen[seat];
    }
    (pooled_seen >= OWN_SEEN && f64::from(pooled_own) >= OWN_SHARE * f64::from(pooled_seen))
        .then_some(counted)
}

/// What the question is chosen from.
pub struct Ask<'a> {
    pub knowledge: &'a Knowledge,
    pub belief: &'a Belief,
    pub table: &'a Table<'a>,
    /// The seats that answer, in order.
    pub responders: &'a [usize],
    /// Suggestions already made (the contest rules forbid repeating one).
    pub made: &'a [Vec<usize>],
}

impl Ask<'_> {
    /// The best unrepeated suggestion of one person, one weapon and one of
    /// `rooms`, and its expected information; `None` when every one was made
    /// or the knowledge allows no answer to any.
    pub fn best(
        &self,
        persons: &[usize],
        weapons: &[usize],
        rooms: &[usize],
    ) -> Option<(Vec<usize>, f64)> {
        let candidates: Vec<Vec<usize>> = self
            .belief
            .solutions
            .iter()
            .map(|(cards, _)| cards.clone())
            .collect();
        let mut best: Option<(Left, Vec<usize>, usize, f64)> = None;
        for &room in rooms {
            for &person in persons {
                for &weapon in weapons {
                    let cards = vec![person, weapon, room];
                    if self.made.contains(&cards) {
                        continue;
                    }
                    let bound = best.as_ref().map(|(left, ..)| *left);
                    let Some(left) =
                        worst_case(self.knowledge, &candidates, self.responders, &cards, bound)
                    else {
                        continue;
                    };
                    // `worst_case` stops at the first answer worse than the
                    // bound: such a question is out.
                    if bound.is_some_and(|b| left > b) {
                        continue;
                    }
                    let own = cards
                        .iter()
                        .filter(|&&c| self.belief.holds(c, self.table.me) > 0.999)
                        .count();
                    let gain = self.table.suggestion_gain(&cards, self.responders);
                    let better = match &best {
                        None => true,
                        Some((b, _, o, g)) => {
                            (left, own) < (*b, *o) || ((left, own) == (*b, *o) && gain > *g + 1e-12)
                        }
                    };
                    if better {
                        best = Some((left, cards, own, gain));
                    }
                }
            }
        }
        best.map(|(_, cards, _, gain)| (cards, gain))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worst::tests::classic;

    #[test]
    fn questions_about_known_cards_mark_a_weak_field() {
        let mut k = classic(4);
        k.add_hand(0, &[0, 6, 7, 12, 13]).unwrap();
        let mut field = Field::default();
        assert!(!field.weak(), "no evidence yet: exact reasoners assumed");
        // Seat 1 names two of our cards: a question an exact reasoner
        // would not ask.
        field.observe(&k, 1, &[0, 6, 14]);
        assert!(field.weak());
    }

    #[test]
    fn questions_about_open_cards_keep_the_field_strong() {
        let mut k = classic(4);
        k.add_hand(0, &[0, 6, 7, 12, 13]).unwrap();
        let mut field = Field::default();
        // One of our cards (as a worst-case question may) and then
        // questions about cards nobody knows yet.
        field.observe(&k, 1, &[0, 8, 14]);
        field.observe(&k, 2, &[1, 9, 15]);
        field.observe(&k, 3, &[2, 10, 16]);
        assert!(!field.weak());
        // A card the asker holds itself is no evidence of weakness.
        k.add_has(Owner::Player(2), 3).unwrap();
        let before = field;
        field.observe(&k, 2, &[3, 11, 17]);
        assert!(field.evidence < before.evidence);
    }

    /// Classic 4 players, us at seat 0: seat 1 holds 1, 2, 3; seat 2 holds
    /// 4, 8, 9; seat 3 holds 10, 14, 15 (as we know by the end).
    fn known_holders() -> Knowledge {
        let mut k = classic(4);
        k.add_hand(0, &[0, 6, 7, 12, 13]).unwrap();
        for (seat, cards) in [(1, [1, 2, 3]), (2, [4, 8, 9]), (3, [10, 14, 15])] {
            for card in cards {
                k.add_has(Owner::Player(seat), card).unwrap();
            }
        }
        k
    }

    #[test]
    fn askers_naming_their_own_cards_are_read_as_pointing_away() {
        let k = known_holders();
        // Each asker names one card of its own and one of another seat,
        // and a card nobody is known to hold: half of the known are its own.
        let asked = vec![
            (1, vec![1, 8, 16]),
            (2, vec![4, 10, 17]),
            (3, vec![14, 2, 18]),
        ];
        assert_eq!(
            own_namers(&k, &asked, 0),
            Some(vec![true; 4]),
            "every asker counted"
        );
        // Our own cards and unknown ones are no evidence either way.
        let ours = vec![(1, vec![0, 6, 16]), (2, vec![0, 7, 17])];
        assert_eq!(own_namers(&k, &ours, 0), None, "nothing seen");
    }

    #[test]
    fn askers_naming_other_seats_cards_are_not() {
        let k = known_holders();
        // `notebook` asks about what it does not know: other seats' cards.
        let asked = vec![
            (1, vec![4, 10, 16]),
            (2, vec![1, 14, 17]),
            (3, vec![8, 2, 18]),
            (1, vec![9, 15, 3]),
        ];
        assert_eq!(own_namers(&k, &asked, 0), None);
        // Too few known holders to judge, however many are own.
        let few = vec![(1, vec![1, 2, 16]), (2, vec![4, 8, 17])];
        assert_eq!(own_namers(&k, &few, 0), None, "four seen, all own");
    }

    #[test]
    fn an_opponent_that_never_names_its_own_is_left_out() {
        let k = known_holders();
        // Seats 1 and 2 name their own cards; seat 3 (like `notebook`)
        // names four cards of other seats, none of its own.
        let asked = vec![
            (1, vec![1, 8, 16]),
            (2, vec![4, 10, 17]),
            (1, vec![2, 9, 18]),
            (3, vec![1, 4, 16]),
            (3, vec![8, 2, 17]),
        ];
        assert_eq!(
            own_namers(&k, &asked, 0),
            Some(vec![true, true, true, false])
        );
        // Seat 3 names one of its own (10) in six: still under a fifth, still
        // left out. Pooled with it the share would be 4 of 12, under the
        // bar; without it, 3 of 6.
        let mut more = asked.clone();
        more.push((3, vec![9, 10, 18]));
        assert_eq!(
            own_namers(&k, &more, 0),
            Some(vec![true, true, true, false])
        );
    }
}

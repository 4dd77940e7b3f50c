//! When `sleuth` accuses, and what: certain where a wrong accusation
//! eliminates; in `generalized` when an opponent is about to know
//! (`guess_threshold`); in Speed Clue and on the `framework` grid, its
//! likeliest envelope when waiting loses the race (`race.rs`); in `uniclue`
//! a guess rather than the disqualification of one query too many.

use clue_plugin_api::{Accusation, AccusePoint, AccuseRequest, Variant};

use crate::race::{self, Race};
use crate::{Game, Grounds, speed};

impl Game {
    pub(crate) fn accuse(&mut self, request: &AccuseRequest) -> Option<Accusation> {
        let (cards, grounds) = self.choose_accusation(request)?;
        self.grounds = Some(grounds);
        Some(self.seating.accusation(&cards))
    }

    /// The envelope to accuse now, if any, and on what grounds.
    fn choose_accusation(&mut self, request: &AccuseRequest) -> Option<(Vec<usize>, Grounds)> {
        let variant = self.seating.setup.variant;
        if let Some(cards) = self.seating.certain(self.notes.as_mut()) {
            return Some((cards, Grounds::Certain));
        }
        let namers = self.own_namers();
        let odds = self.guess_odds(namers.as_deref());
        let top = odds.as_deref().and_then(|odds| self.top_guess(odds));
        if request.point == AccusePoint::Forced {
            if let Some(cards) = self.seating.last_undisproved() {
                return Some((cards.to_vec(), Grounds::Certain));
            }
            // Without a solver (a setup it refuses; a deck past its 128
            // cards is played as `notebook` plays, `seating::PastSolver`)
            // there are no odds: a guess of cards it neither holds nor was
            // shown, rather than the disqualification of declining.
            let cards = top.map_or_else(|| self.unseen_guess(), |(cards, _)| cards);
            return Some((cards, Grounds::Odds));
        }
        let (cards, p) = top?;
        let go = match variant {
            // A wrong accusation only costs a turn.
            Variant::Csci306 => p >= 0.15,
            Variant::Generalized => p >= self.guess_threshold(),
            // The race pays in Speed Clue and on the framework's grid
            // (against three `rival`, 4 players: 29.1% -> 39.1% of 3,000
            // games). On the classic and CyberClue boards it gained 1 to 2
            // points against `rival` and lost as much against `clueless`,
            // so there sleuth accuses only when certain (docs/strength.md,
            // "The race on the boards").
            Variant::Speedclue | Variant::Framework => match odds {
                Some(odds) => self.race_is_lost_by_waiting(p, &odds, namers.as_deref()),
                None => false,
            },
            // Out of queries: a guess is better than the certain disqualification.
            Variant::Uniclue => {
                let limit = self.seating.setup.rules.query_limit.unwrap_or(u32::MAX) as usize;
                self.seating.made.len() >= limit
            }
            _ => false,
        };
        go.then_some((cards, Grounds::Odds))
    }

    /// Speed Clue and `framework`: whether to accuse the likeliest envelope, of chance `p`
    /// (`guess_odds`), before being certain: when an opponent is likely
    /// enough to be certain before this bot's next turn that waiting has
    /// little left to win. The bar is on the opponents, not on `p`: on the
    /// plain counts, comparing `p` with the chance of winning by waiting
    /// misjudged the bet (docs/strength.md). Against a field that names its
    /// own cards the odds are better and the bar is lower
    /// (`race::LOST_BY_WAITING_NAMED`).
    fn race_is_lost_by_waiting(
        &mut self,
        p: f64,
        odds: &[(Vec<usize>, f64)],
        namers: Option<&[bool]>,
    ) -> bool {
        // The race takes every opponent for an exact counter; a field that
        // asks like a weak one is not, and against it the bets only lose
        // (against three `clueless`, 85.5% of the games with them, 92.0%
        // without; docs/strength.md).
        if p < race::LEAST_CHANCE || self.field.weak() {
            return false;
        }
        let rivals: Vec<usize> = (0..self.seating.players)
            .filter(|&s| s != self.seating.me && !self.gone[s])
            .collect();
        // The lower bar only when every opponent still playing is read as
        // naming its own cards (a `notebook` among them: the plain bar).
        let named = namers.is_some_and(|counted| {
            rivals
                .iter()
                .all(|&s| counted.get(s).copied().unwrap_or(false))
        });
        let (Some(notes), Some(public)) = (self.notes.as_ref(), self.public.as_ref()) else {
            return false;
        };
        let race = Race {
            knowledge: notes.knowledge(),
            odds,
            public,
            exchanges: &self.exchanges,
            rivals: &rivals,
            seed: self.seating.setup.seed ^ u64::from(self.round),
            budget: race::DECISION_WORK.saturating_sub(notes.work()),
        };
        race.nobody_solves().is_some_and(|nobody| {
            nobody
                < if named {
                    race::LOST_BY_WAITING_NAMED
                } else {
                    race::LOST_BY_WAITING
                }
        })
    }

    /// `generalized`: the chance of the best guess worth ending the game on
    /// now. An opponent that keeps asking learns about one item a turn; the
    /// closer the nearest one is to knowing every item, the lower the bar.
    fn guess_threshold(&self) -> f64 {
        let items = self.seating.categories.first().map_or(0, Vec::len);
        let hidden = self
            .seating
            .setup
            .rules
            .hidden
            .first()
            .map_or(1, |&h| usize::from(h));
        let nearest = (0..self.seating.players)
            .filter(|&s| s != self.seating.me && !self.gone[s])
            .map(|s| {
                let hand = self
                    .seating
                    .setup
                    .hand_sizes
                    .get(s)
                    .map_or(0, |&h| usize::from(h));
                items.saturating_sub(hidden + hand + self.learnt[s])
            })
            .min();
        match nearest {
            Some(0) => 0.0,
            Some(1) => 0.5,
            Some(2) => 0.75,
            _ => 0.95,
        }
    }

    /// The envelopes and their chances that a guess bets on, most likely
    /// first: in Speed Clue against opponents that name their own cards,
    /// the counts weighed by how often they named each card
    /// ([`race::named_odds`]); the counts alone elsewhere. Other opponents
    /// name the cards they do not know, the envelope's among them
    /// (`notebook`: a likeliest card named three times or more was the
    /// envelope's three times in four), so their questions are not read
    /// that way (`speed::own_namers`).
    /// `namers` is `own_namers()`.
    fn guess_odds(&mut self, namers: Option<&[bool]>) -> Option<Vec<(Vec<usize>, f64)>> {
        let belief = self.notes.as_mut()?.belief();
        let Some(counted) = namers else {
            return Some(belief.solutions.clone());
        };
        let mut named = vec![0u32; self.seating.setup.deck.len()];
        for (asker, cards) in &self.asked {
            if counted.get(*asker).copied().unwrap_or(false) {
                for &c in cards {
                    if let Some(n) = named.get_mut(c) {
                        *n += 1;
                    }
                }
            }
        }
        Some(race::named_odds(&belief.solutions, &named))
    }

    /// Whose questions point away from the envelope (`speed::own_namers`);
    /// `None` without a solver or outside Speed Clue.
    fn own_namers(&self) -> Option<Vec<bool>> {
        match self.notes.as_ref() {
            Some(notes) if self.seating.setup.variant == Variant::Speedclue => {
                speed::own_namers(notes.knowledge(), &self.asked, self.seating.me)
            }
            _ => None,
        }
    }

    /// The first cards of each category that this bot neither holds nor was
    /// shown (held or shown ones only when a category has too few others):
    /// a legal guess made without a solver.
    fn unseen_guess(&self) -> Vec<usize> {
        let seen =
            |c: usize| self.seating.holds(c) || self.shown_to_me.iter().any(|s| s.contains(&c));
        let mut cards = Vec::new();
        for (category, &count) in self
            .seating
            .categories
            .iter()
            .zip(&self.seating.setup.rules.hidden)
        {
            let (unseen, seen): (Vec<usize>, Vec<usize>) =
                category.iter().partition(|&&c| !seen(c));
            let (shown, held): (Vec<usize>, Vec<usize>) =
                seen.into_iter().partition(|&c| !self.seating.holds(c));
            cards.extend(
                unseen
                    .into_iter()
                    .chain(shown)
                    .chain(held)
                    .take(usize::from(count)),
            );
        }
        cards
    }

    /// The most likely envelope of `odds` (`guess_odds`) holding none of
    /// this bot's cards (`Seating::likeliest`).
    fn top_guess(&mut self, odds: &[(Vec<usize>, f64)]) -> Option<(Vec<usize>, f64)> {
        let belief = self.notes.as_mut()?.belief();
        Some(self.seating.likeliest(odds, belief))
    }
}

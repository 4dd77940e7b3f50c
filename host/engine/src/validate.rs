//! The rules a seat's reply is held to, in one place: the engine
//! disqualifies a seat by them ([`reply`] gives the reason and the detail),
//! and the web page checks a person's answer by them before the engine sees
//! it, telling the person what is wrong in their own words instead.

use clue_plugin_api::{
    Accusation, AccusePoint, Card, Category, Deck, DqReason, Position, Reply, Request, Seat,
    Suggestion, Variant,
};

/// What a seat's reply is judged against: the game, and what the seat has
/// done that the rules hold against it.
pub struct Judge<'a> {
    /// The variant played (`generalized` asks one opponent about items).
    pub variant: Variant,
    pub deck: &'a Deck,
    /// How many cards of each category the envelope holds (the rules'
    /// `hidden`).
    pub hidden: &'a [u8],
    /// Speed Clue under the 2014 contest's rules.
    pub contest_rules: bool,
    /// The seat's hand.
    pub hand: &'a [Card],
    /// The seat's suggestions so far (none may be repeated under the
    /// contest rules).
    pub suggestions: &'a [Suggestion],
    /// The cards shown to the seat when it suggested, with who showed each
    /// (none may be accused under the contest rules).
    pub shown: &'a [(Card, Seat)],
}

/// A rule a reply breaks: the reason a seat is disqualified for it, with
/// what the reply did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Violation {
    /// A reply of another kind than the request's (`move` to `accuse`).
    WrongKind {
        request: &'static str,
        reply: &'static str,
    },
    /// A move to a place that is not one of the roll's targets.
    NotATarget { to: Position, targets: usize },
    /// No suggestion where the turn requires one.
    DeclinedSuggestion,
    /// A suggestion of the wrong shape.
    Suggestion(Shape),
    /// A suggestion made before, under the contest rules.
    RepeatedSuggestion(Vec<Card>),
    /// "Cannot disprove" from a seat holding a card of the suggestion.
    HidMatchingCard { matching: Vec<Card> },
    /// A card shown that is not one of the seat's cards in the suggestion
    /// (`matching`, those it could have shown).
    ShowedOther { card: Card, matching: Vec<Card> },
    /// No accusation where one is required.
    DeclinedAccusation,
    /// An accusation of the wrong shape.
    Accusation(Shape),
    /// An accusation naming a card the accuser has seen, under the contest
    /// rules.
    Suicidal(SeenCard),
}

impl Violation {
    /// The reason a seat is disqualified for it, in `variant`.
    pub fn reason(&self, variant: Variant) -> DqReason {
        match self {
            Violation::WrongKind { .. } => DqReason::ProtocolError,
            Violation::NotATarget { .. } => DqReason::InvalidMove,
            // The framework disqualifies a bot that leaves a room's
            // suggestion unmade as a bad move.
            Violation::DeclinedSuggestion if variant == Variant::Framework => DqReason::InvalidMove,
            Violation::DeclinedSuggestion | Violation::Suggestion(_) => DqReason::InvalidSuggestion,
            Violation::RepeatedSuggestion(_) => DqReason::RepeatedSuggestion,
            Violation::HidMatchingCard { .. } | Violation::ShowedOther { .. } => {
                DqReason::InvalidResponse
            }
            Violation::DeclinedAccusation => DqReason::MissedAccusation,
            Violation::Accusation(_) => DqReason::InvalidAccusation,
            Violation::Suicidal(_) => DqReason::SuicidalAccusation,
        }
    }

    /// What the seat did, in the third person, for the game's record:
    /// `showed the Rope (7), which is not a card it holds from the
    /// suggestion (Kitchen (13))`, each card followed by its number.
    pub fn detail(&self, deck: &Deck) -> String {
        self.detail_as(deck, &|_| None)
    }

    /// [`Violation::detail`] for a bot whose protocol writes a card as
    /// `word` gives it (`Dining Room (R4)`), by its number where `word`
    /// gives nothing ([`crate::SeatController::card_word`]).
    pub fn detail_as(&self, deck: &Deck, word: &dyn Fn(Card) -> Option<String>) -> String {
        let one = |card: Card| numbered_card(deck, card, word);
        let all = |cards: &[Card]| cards.iter().map(|&c| one(c)).collect::<Vec<_>>().join(", ");
        match self {
            Violation::WrongKind { request, reply } => wrong_kind(request, reply),
            Violation::NotATarget { to, targets } => {
                let to = match to {
                    Position::Cell { row, col } => format!("the cell at row {row}, column {col}"),
                    Position::Room(room) => format!("the room {}", one(*room)),
                };
                format!("moved to {to}, which is not one of the {targets} targets")
            }
            Violation::DeclinedSuggestion => "declined a suggestion the turn requires".to_string(),
            Violation::Suggestion(shape) | Violation::Accusation(shape) => {
                shape.describe_numbered_as(deck, word)
            }
            Violation::RepeatedSuggestion(cards) => format!(
                "repeated its suggestion {}, which the contest rules forbid",
                all(cards)
            ),
            Violation::HidMatchingCard { matching } => format!(
                "said it could not disprove while holding a matching card ({})",
                all(matching)
            ),
            Violation::ShowedOther { card, matching } if !deck.contains(*card) => format!(
                "showed card {}, which the deck does not have (it holds {} from the suggestion)",
                card.0,
                all(matching)
            ),
            Violation::ShowedOther { card, matching } => format!(
                "showed {}, which is not a card it holds from the suggestion ({})",
                one(*card),
                all(matching)
            ),
            Violation::DeclinedAccusation => {
                "declined an accusation it was required to make".to_string()
            }
            Violation::Suicidal(seen) => format!("accused {}", seen.describe(deck)),
        }
    }
}

/// One card by name with its number, or the word its bot's protocol writes
/// it with: `Rope (7)`, `Dining Room (R4)`.
fn numbered_card(deck: &Deck, card: Card, word: &dyn Fn(Card) -> Option<String>) -> String {
    let number = word(card).unwrap_or_else(|| card.0.to_string());
    format!("{} ({number})", deck.name(card))
}

/// What is wrong with the cards of a suggestion or an accusation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A card number the deck does not have.
    NotInDeck(Card),
    /// `generalized`: an interrogation of nobody.
    NoTarget,
    /// `generalized`: an interrogation of itself, of a seat that has guessed,
    /// or of a seat not at the table.
    NotAnOpponent(Seat),
    /// `generalized`: an interrogation about no items.
    NoItems,
    /// `generalized`: an item listed twice in an interrogation.
    ItemTwice,
    /// An opponent named outside `generalized`.
    TargetOutsideGeneralized,
    /// Not one card of each category.
    Count {
        named: usize,
        categories: Vec<Category>,
    },
    /// A card where another category's belongs.
    Category { card: Card, want: Category },
    /// A room other than the one the turn's suggestion must name.
    Room { named: Card, room: Card },
    /// `generalized`: a guess of the wrong number of items, or one twice.
    Items { named: usize, hidden: usize },
}

impl Shape {
    /// The problem, as the end of a sentence about the cards' maker:
    /// `named the Rope where a person belongs`.
    pub fn describe(&self, deck: &Deck) -> String {
        self.told(&|card| deck.name(card).to_string())
    }

    /// The problem as [`Shape::describe`] gives it, each card it names
    /// followed by its number, as a bot wrote it: `named Colonel Mustard (1)
    /// where a weapon belongs`.
    pub fn describe_numbered(&self, deck: &Deck) -> String {
        self.describe_numbered_as(deck, &|_| None)
    }

    /// [`Shape::describe_numbered`], each card as `word` gives it where it
    /// gives one (see [`Violation::detail_as`]).
    pub fn describe_numbered_as(
        &self,
        deck: &Deck,
        word: &dyn Fn(Card) -> Option<String>,
    ) -> String {
        match self {
            Shape::NoTarget => "named no opponent to interrogate (a generalized suggestion's \
                                `target`, one of the request's `opponents`)"
                .to_string(),
            _ => self.told(&|card| numbered_card(deck, card, word)),
        }
    }

    /// The problem, each card it names as `name` gives it.
    fn told(&self, name: &dyn Fn(Card) -> String) -> String {
        match self {
            Shape::NotInDeck(card) => format!("named card {card}, which is not in the deck"),
            Shape::NoTarget => "named no opponent to interrogate".to_string(),
            Shape::NotAnOpponent(target) => {
                format!(
                    "interrogated {target}, which it may not: only another seat that has not \
                     guessed may be interrogated"
                )
            }
            Shape::NoItems => "interrogated with an empty list of items".to_string(),
            Shape::ItemTwice => "listed an item twice".to_string(),
            Shape::TargetOutsideGeneralized => {
                "named an opponent; only generalized interrogates one".to_string()
            }
            Shape::Count { named, categories } => format!(
                "named {named} cards; it takes one {}",
                categories
                    .iter()
                    .map(|c| c.name())
                    .collect::<Vec<_>>()
                    .join(", one ")
            ),
            Shape::Category { card, want } => {
                format!("named {} where a {} belongs", name(*card), want.name())
            }
            Shape::Room { named, room } => format!(
                "suggested the room {}, but must name {}",
                name(*named),
                name(*room)
            ),
            Shape::Items { named, hidden } => {
                format!("guessed {named} items; the envelope holds {hidden} distinct items")
            }
        }
    }
}

/// Whether `reply` is a legal answer to `request` from the seat `judge`
/// describes, and if not, the rule it breaks.
pub fn reply(judge: &Judge, request: &Request, reply: &Reply) -> Result<(), Violation> {
    let deck = judge.deck;
    match (request, reply) {
        (Request::Move(r), Reply::Move { to }) => {
            if r.targets.contains(to) {
                Ok(())
            } else {
                Err(Violation::NotATarget {
                    to: *to,
                    targets: r.targets.len(),
                })
            }
        }
        (Request::Suggest(r), Reply::Suggest { suggestion }) => {
            let Some(s) = suggestion else {
                return if r.optional {
                    Ok(())
                } else {
                    Err(Violation::DeclinedSuggestion)
                };
            };
            self::suggestion(deck, s, r.turn.room, &r.opponents, judge.variant)
                .map_err(Violation::Suggestion)?;
            if judge.contest_rules && judge.suggestions.contains(s) {
                return Err(Violation::RepeatedSuggestion(s.cards.clone()));
            }
            Ok(())
        }
        (Request::Respond(r), Reply::Respond { card }) => match card {
            Some(card) if r.matching.contains(card) => Ok(()),
            Some(card) => Err(Violation::ShowedOther {
                card: *card,
                matching: r.matching.clone(),
            }),
            None => Err(Violation::HidMatchingCard {
                matching: r.matching.clone(),
            }),
        },
        (Request::Accuse(r), Reply::Accuse { accusation }) => {
            let Some(a) = accusation else {
                return if r.point == AccusePoint::Forced {
                    Err(Violation::DeclinedAccusation)
                } else {
                    Ok(())
                };
            };
            self::accusation(deck, judge.hidden, a).map_err(Violation::Accusation)?;
            if judge.contest_rules
                && let Some(seen) = seen_card(a, judge.hand, judge.shown)
            {
                return Err(Violation::Suicidal(seen));
            }
            Ok(())
        }
        (Request::BeginGame { .. } | Request::Watch { .. }, Reply::Ok) => Ok(()),
        (request, reply) => Err(Violation::WrongKind {
            request: request.kind(),
            reply: reply.kind(),
        }),
    }
}

/// A suggestion (or `generalized` interrogation) is well formed and legal now.
fn suggestion(
    deck: &Deck,
    suggestion: &Suggestion,
    required_room: Option<Card>,
    opponents: &[Seat],
    variant: Variant,
) -> Result<(), Shape> {
    let cards = &suggestion.cards;
    if let Some(bad) = cards.iter().find(|c| !deck.contains(**c)) {
        return Err(Shape::NotInDeck(*bad));
    }
    if variant == Variant::Generalized {
        let Some(target) = suggestion.target else {
            return Err(Shape::NoTarget);
        };
        if !opponents.contains(&target) {
            return Err(Shape::NotAnOpponent(target));
        }
        if cards.is_empty() {
            return Err(Shape::NoItems);
        }
        if has_duplicates(cards) {
            return Err(Shape::ItemTwice);
        }
        return Ok(());
    }
    if suggestion.target.is_some() {
        return Err(Shape::TargetOutsideGeneralized);
    }
    one_of_each(deck, cards)?;
    if let (Some(room), Some(&named)) = (required_room, cards.last()) {
        if named != room {
            return Err(Shape::Room { named, room });
        }
    }
    Ok(())
}

/// An accusation has the envelope's shape: one card per category in category
/// order, or `k` distinct items.
fn accusation(deck: &Deck, hidden: &[u8], accusation: &Accusation) -> Result<(), Shape> {
    let cards = &accusation.cards;
    if let Some(bad) = cards.iter().find(|c| !deck.contains(**c)) {
        return Err(Shape::NotInDeck(*bad));
    }
    if deck.categories() == [Category::Item] {
        let k = usize::from(hidden.first().copied().unwrap_or(0));
        if cards.len() != k || has_duplicates(cards) {
            return Err(Shape::Items {
                named: cards.len(),
                hidden: k,
            });
        }
        return Ok(());
    }
    one_of_each(deck, cards)
}

/// A card an accusation names that its accuser has seen: one it holds, or
/// one shown to it (see `seen_card`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeenCard {
    pub card: Card,
    /// Who showed it; `None`: the accuser holds it.
    pub shown_by: Option<Seat>,
}

impl SeenCard {
    /// `Mustard, a card it holds`, `the Rope, a card seat 2 showed it`.
    pub fn describe(&self, deck: &Deck) -> String {
        match self.shown_by {
            None => format!("{}, a card it holds", deck.name(self.card)),
            Some(seat) => format!("{}, a card seat {} showed it", deck.name(self.card), seat.0),
        }
    }
}

/// Speed Clue under the 2014 contest rules: the first card `accusation`
/// names that its accuser holds (`hand`) or was shown when it suggested
/// (`shown`, with who showed it). The contest's judge keeps both, per
/// player, as the cards it has seen and refuses an accusation naming any of
/// them as suicidal (`contestserver/Player.java` of
/// `sadakatsu/SpeedClueContest`).
fn seen_card(accusation: &Accusation, hand: &[Card], shown: &[(Card, Seat)]) -> Option<SeenCard> {
    accusation.cards.iter().find_map(|&card| {
        if hand.contains(&card) {
            return Some(SeenCard {
                card,
                shown_by: None,
            });
        }
        let &(_, by) = shown.iter().find(|(c, _)| *c == card)?;
        Some(SeenCard {
            card,
            shown_by: Some(by),
        })
    })
}

fn one_of_each(deck: &Deck, cards: &[Card]) -> Result<(), Shape> {
    let categories = deck.categories();
    if cards.len() != categories.len() {
        return Err(Shape::Count {
            named: cards.len(),
            categories,
        });
    }
    for (&card, &want) in cards.iter().zip(&categories) {
        if deck.category(card) != Some(want) {
            return Err(Shape::Category { card, want });
        }
    }
    Ok(())
}

fn has_duplicates(cards: &[Card]) -> bool {
    let mut sorted = cards.to_vec();
    sorted.sort();
    sorted.windows(2).any(|w| w[0] == w[1])
}

/// Whether two lists hold the same cards, in any order.
pub fn same_cards(a: &[Card], b: &[Card]) -> bool {
    let mut a = a.to_vec();
    let mut b = b.to_vec();
    a.sort();
    b.sort();
    a == b
}

/// A reply of the wrong kind, as a record says it: `answered an `accuse`
/// request with an `ok` reply; it takes an `accuse` reply` (`begin-game`
/// and `watch` take `ok`, every other request a reply of its own name).
/// Also the words of the contest clients' refusals.
pub fn wrong_kind(request: &str, reply: &str) -> String {
    let wanted = match request {
        "begin-game" | "watch" => "ok",
        other => other,
    };
    format!(
        "answered {} request with {} reply; it takes {} reply",
        a_named(request),
        a_named(reply),
        a_named(wanted)
    )
}

/// `a `move``, `an `ok``: a kind's name with its article.
fn a_named(kind: &str) -> String {
    let article = if kind.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} `{kind}`")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::GameConfig;
    use clue_plugin_api::{AccuseRequest, MoveRequest, RespondRequest, SuggestRequest, Turn};

    fn turn(room: Option<Card>) -> Turn {
        Turn {
            seat: Seat(0),
            round: 1,
            roll: None,
            position: None,
            room,
        }
    }

    fn suggest(optional: bool) -> Request {
        Request::Suggest(SuggestRequest {
            turn: turn(None),
            optional,
            opponents: Vec::new(),
        })
    }

    fn accuse(point: AccusePoint) -> Request {
        Request::Accuse(AccuseRequest {
            turn: turn(None),
            point,
        })
    }

    /// Every rule a reply can break, judged once for the engine and the web:
    /// the reason a seat is disqualified for it and the detail its record
    /// keeps, and the contest rules applied only where they hold.
    #[test]
    fn each_rule_gives_its_reason_and_detail() {
        let config = GameConfig::new(Variant::Speedclue, 3);
        let deck = config.standard_deck().expect("the classic deck");
        let [person, weapon, room] = [Category::Person, Category::Weapon, Category::Room]
            .map(|category| deck.of(category)[0]);
        let other_person = deck.of(Category::Person)[1];
        let made = Suggestion {
            cards: vec![person, weapon, room],
            target: None,
        };
        let hand = [other_person];
        let shown = [(weapon, Seat(2))];
        let suggestions = [made.clone()];
        let judge = |contest_rules| Judge {
            variant: config.variant,
            deck: &deck,
            hidden: &[1, 1, 1],
            contest_rules,
            hand: &hand,
            suggestions: &suggestions,
            shown: &shown,
        };
        let broken = |request: &Request, answer: &Reply| {
            let violation = reply(&judge(true), request, answer).expect_err("a broken rule");
            (
                violation.reason(Variant::Speedclue),
                violation.detail(&deck),
            )
        };

        let moves = Request::Move(MoveRequest {
            turn: turn(None),
            targets: vec![Position::Room(room)],
        });
        let elsewhere = Position::Cell { row: 0, col: 0 };
        assert_eq!(
            broken(&moves, &Reply::Move { to: elsewhere }),
            (
                DqReason::InvalidMove,
                "moved to the cell at row 0, column 0, which is not one of the 1 targets"
                    .to_string()
            )
        );
        assert_eq!(
            reply(
                &judge(true),
                &moves,
                &Reply::Move {
                    to: Position::Room(room)
                }
            ),
            Ok(())
        );

        let declined = Reply::Suggest { suggestion: None };
        assert_eq!(
            broken(&suggest(false), &declined),
            (
                DqReason::InvalidSuggestion,
                "declined a suggestion the turn requires".to_string()
            )
        );
        assert_eq!(
            Violation::DeclinedSuggestion.reason(Variant::Framework),
            DqReason::InvalidMove
        );
        assert_eq!(reply(&judge(true), &suggest(true), &declined), Ok(()));
        let backwards = Reply::Suggest {
            suggestion: Some(Suggestion {
                cards: vec![weapon, person, room],
                target: None,
            }),
        };
        assert_eq!(
            broken(&suggest(false), &backwards),
            (
                DqReason::InvalidSuggestion,
                format!(
                    "named {} ({}) where a person belongs",
                    deck.name(weapon),
                    weapon.0
                )
            )
        );
        assert_eq!(
            Violation::Suggestion(Shape::NoTarget).detail(&deck),
            "named no opponent to interrogate (a generalized suggestion's `target`, one of the \
             request's `opponents`)"
        );
        let again = Reply::Suggest {
            suggestion: Some(made.clone()),
        };
        // The record names the cards, as a person reads them, and numbers
        // them, as the bot wrote them.
        assert_eq!(
            broken(&suggest(false), &again),
            (
                DqReason::RepeatedSuggestion,
                format!(
                    "repeated its suggestion {} ({}), {} ({}), {} ({}), which the contest rules forbid",
                    deck.name(person),
                    person.0,
                    deck.name(weapon),
                    weapon.0,
                    deck.name(room),
                    room.0
                )
            )
        );
        assert_eq!(reply(&judge(false), &suggest(false), &again), Ok(()));

        let respond = Request::Respond(RespondRequest {
            suggester: Seat(1),
            suggestion: made.clone(),
            matching: vec![weapon],
        });
        assert_eq!(
            broken(&respond, &Reply::Respond { card: None }),
            (
                DqReason::InvalidResponse,
                format!(
                    "said it could not disprove while holding a matching card ({} ({}))",
                    deck.name(weapon),
                    weapon.0
                )
            )
        );
        assert_eq!(
            broken(&respond, &Reply::Respond { card: Some(room) }),
            (
                DqReason::InvalidResponse,
                format!(
                    "showed {} ({}), which is not a card it holds from the suggestion ({} ({}))",
                    deck.name(room),
                    room.0,
                    deck.name(weapon),
                    weapon.0
                )
            )
        );
        assert_eq!(
            broken(
                &respond,
                &Reply::Respond {
                    card: Some(Card(200))
                }
            ),
            (
                DqReason::InvalidResponse,
                format!(
                    "showed card 200, which the deck does not have (it holds {} ({}) from the suggestion)",
                    deck.name(weapon),
                    weapon.0
                )
            )
        );

        assert_eq!(
            broken(
                &accuse(AccusePoint::Forced),
                &Reply::Accuse { accusation: None }
            ),
            (
                DqReason::MissedAccusation,
                "declined an accusation it was required to make".to_string()
            )
        );
        let naming = |cards: Vec<Card>| Reply::Accuse {
            accusation: Some(Accusation { cards }),
        };
        let after = accuse(AccusePoint::AfterSuggestion);
        assert_eq!(
            broken(
                &after,
                &naming(vec![other_person, deck.of(Category::Weapon)[1], room])
            ),
            (
                DqReason::SuicidalAccusation,
                format!("accused {}, a card it holds", deck.name(other_person))
            )
        );
        assert_eq!(
            broken(&after, &naming(vec![person, weapon, room])),
            (
                DqReason::SuicidalAccusation,
                format!("accused {}, a card seat 2 showed it", deck.name(weapon))
            )
        );
        assert_eq!(
            reply(&judge(false), &after, &naming(vec![person, weapon, room])),
            Ok(())
        );
        assert_eq!(
            broken(&after, &naming(vec![person, weapon])),
            (
                DqReason::InvalidAccusation,
                "named 2 cards; it takes one person, one weapon, one room".to_string()
            )
        );

        assert_eq!(
            broken(&after, &Reply::Ok),
            (
                DqReason::ProtocolError,
                "answered an `accuse` request with an `ok` reply; it takes an `accuse` reply"
                    .to_string()
            )
        );
    }
}

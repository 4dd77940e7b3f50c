//! Requests the host makes of a bot, the bot's replies, and the events it watches.

use crate::board::{BoardView, Position};
use crate::cards::{Card, Deck, Seat};
use crate::variant::Variant;
use serde::{Deserialize, Serialize};

/// The options of a game that a bot is told.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Rounds after which the game ends (a draw, or a forced guess in `generalized`).
    pub max_rounds: u32,
    /// How many cards of each category are in the envelope, in deck category order.
    pub hidden: Vec<u8>,
    /// Whether the shown card is shown to every seat (`csci306`).
    pub shown_to_all: bool,
    /// `speedclue` contest rules: no repeated suggestions, no suicidal accusations,
    /// forced accusation after an undisproved suggestion without own cards.
    pub contest_rules: bool,
    /// `uniclue`: the query limit (a client that has made this many and asks again is out).
    pub query_limit: Option<u32>,
}

impl Rules {
    /// The rules of Speed Clue under the 2014 contest's rules on the classic
    /// deck (one card of each category hidden), with the host's default 200
    /// rounds: what a test or benchmark hands a bot it sets up by hand.
    pub fn speedclue_contest() -> Rules {
        Rules {
            max_rounds: 200,
            hidden: vec![1, 1, 1],
            shown_to_all: false,
            contest_rules: true,
            query_limit: None,
        }
    }
}

/// Everything a bot is given when its game begins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub variant: Variant,
    pub rules: Rules,
    /// Number of seats at the table.
    pub players: u8,
    /// This bot's seat.
    pub seat: Seat,
    pub deck: Deck,
    /// This bot's hand, in the order dealt.
    pub hand: Vec<Card>,
    /// Every seat's hand size, indexed by seat.
    pub hand_sizes: Vec<u8>,
    /// The board, in the variants played on one.
    pub board: Option<BoardView>,
    /// Every seat's starting position, on a board.
    pub starts: Vec<Position>,
    /// A seed for the bot's own random choices, derived from the game seed.
    pub seed: u64,
}

/// Where in a turn an accusation is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AccusePoint {
    /// At the start of the turn, instead of moving or suggesting.
    StartOfTurn,
    /// After the turn's suggestion has been answered.
    AfterSuggestion,
    /// The bot must accuse now (contest rule, or `generalized` at the turn limit);
    /// declining is a disqualification.
    Forced,
}

/// The facts of the current turn, repeated in each request of the turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub seat: Seat,
    /// Round number, from 1.
    pub round: u32,
    /// The die roll of this turn, in variants with dice (rolled before anything else).
    pub roll: Option<u8>,
    /// Where this seat stands now, on a board.
    pub position: Option<Position>,
    /// The room a suggestion this turn must name, when already known (`uniclue`:
    /// the room the server put the client in; a board: the room the seat is in).
    pub room: Option<Card>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccuseRequest {
    pub turn: Turn,
    pub point: AccusePoint,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRequest {
    pub turn: Turn,
    /// Every legal destination, sorted; the reply must be one of them.
    pub targets: Vec<Position>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuggestRequest {
    pub turn: Turn,
    /// Whether the bot may decline (reply `None`).
    pub optional: bool,
    /// `generalized`: the opponents that may be interrogated.
    pub opponents: Vec<Seat>,
}

/// A suggestion (three-category variants: one card of each category in deck
/// category order, the room being the one required), or a `generalized`
/// interrogation of `target` with a non-empty list of distinct items.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Suggestion {
    pub cards: Vec<Card>,
    /// `generalized`: the opponent interrogated. `None` elsewhere.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Seat>,
}

/// An accusation: one card of each category (or `k` items in `generalized`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Accusation {
    pub cards: Vec<Card>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RespondRequest {
    pub suggester: Seat,
    pub suggestion: Suggestion,
    /// The cards of the suggestion this bot holds (never empty: the host only asks
    /// a seat that can disprove). The reply must be one of them.
    pub matching: Vec<Card>,
}

/// Why a seat was disqualified. Always exactly one reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum DqReason {
    InvalidMove,
    InvalidSuggestion,
    InvalidResponse,
    InvalidAccusation,
    ProtocolError,
    Timeout,
    Crash,
    OutOfFuel,
    OutOfMemory,
    RepeatedSuggestion,
    SuicidalAccusation,
    MissedAccusation,
    QueryLimit,
}

impl DqReason {
    pub const ALL: [DqReason; 13] = [
        DqReason::InvalidMove,
        DqReason::InvalidSuggestion,
        DqReason::InvalidResponse,
        DqReason::InvalidAccusation,
        DqReason::ProtocolError,
        DqReason::Timeout,
        DqReason::Crash,
        DqReason::OutOfFuel,
        DqReason::OutOfMemory,
        DqReason::RepeatedSuggestion,
        DqReason::SuicidalAccusation,
        DqReason::MissedAccusation,
        DqReason::QueryLimit,
    ];

    /// The label of RULES.md, e.g. `invalid-move`.
    pub fn label(self) -> &'static str {
        match self {
            DqReason::InvalidMove => "invalid-move",
            DqReason::InvalidSuggestion => "invalid-suggestion",
            DqReason::InvalidResponse => "invalid-response",
            DqReason::InvalidAccusation => "invalid-accusation",
            DqReason::ProtocolError => "protocol-error",
            DqReason::Timeout => "timeout",
            DqReason::Crash => "crash",
            DqReason::OutOfFuel => "out-of-fuel",
            DqReason::OutOfMemory => "out-of-memory",
            DqReason::RepeatedSuggestion => "repeated-suggestion",
            DqReason::SuicidalAccusation => "suicidal-accusation",
            DqReason::MissedAccusation => "missed-accusation",
            DqReason::QueryLimit => "query-limit",
        }
    }

    pub fn from_label(label: &str) -> Option<DqReason> {
        DqReason::ALL.into_iter().find(|r| r.label() == label)
    }
}

impl std::fmt::Display for DqReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// Something that happened in the game, as one seat is entitled to see it.
/// Hidden details (a shown card, a guess) are `None` for seats that may not see them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    TurnBegan {
        seat: Seat,
        round: u32,
        roll: Option<u8>,
        /// `uniclue`: the room the server puts the client in this turn.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<Card>,
    },
    Moved {
        seat: Seat,
        to: Position,
    },
    /// A person's token was moved into the suggested room (`summoned` is the seat
    /// playing that person, if any).
    TokenMoved {
        person: Card,
        to: Position,
        summoned: Option<Seat>,
    },
    Suggested {
        seat: Seat,
        suggestion: Suggestion,
    },
    /// The answer to the suggestion just made: the seats that could not disprove,
    /// in the order asked, then who showed (if anyone) and, if this seat may see
    /// it, the card.
    Answered {
        suggester: Seat,
        passed: Vec<Seat>,
        shown_by: Option<Seat>,
        card: Option<Card>,
    },
    Accused {
        seat: Seat,
        accusation: Option<Accusation>,
        correct: Option<bool>,
    },
    /// A seat's whole hand made public (`generalized`, when it leaves).
    HandRevealed {
        seat: Seat,
        hand: Vec<Card>,
    },
    Disqualified {
        seat: Seat,
        reason: DqReason,
    },
    GameOver {
        winner: Option<Seat>,
        /// Seats from best to worst, where the variant ranks them.
        ranking: Vec<Seat>,
        /// The envelope, revealed to everyone at the end.
        envelope: Vec<Card>,
    },
}

/// A request from the host to a bot. Every request is answered by one [`Reply`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "request", rename_all = "kebab-case")]
pub enum Request {
    BeginGame { setup: Box<Setup> },
    Accuse(AccuseRequest),
    Move(MoveRequest),
    Suggest(SuggestRequest),
    Respond(RespondRequest),
    Watch { event: Event },
}

impl Request {
    /// The name of the request, as in the wire form (`begin-game`, `move`, ...).
    pub fn kind(&self) -> &'static str {
        match self {
            Request::BeginGame { .. } => "begin-game",
            Request::Accuse(_) => "accuse",
            Request::Move(_) => "move",
            Request::Suggest(_) => "suggest",
            Request::Respond(_) => "respond",
            Request::Watch { .. } => "watch",
        }
    }
}

/// A bot's reply to a [`Request`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "kebab-case")]
pub enum Reply {
    /// To `begin-game` and `watch`.
    Ok,
    Accuse {
        accusation: Option<Accusation>,
    },
    Move {
        to: Position,
    },
    Suggest {
        suggestion: Option<Suggestion>,
    },
    Respond {
        card: Option<Card>,
    },
}

impl Reply {
    pub fn kind(&self) -> &'static str {
        match self {
            Reply::Ok => "ok",
            Reply::Accuse { .. } => "accuse",
            Reply::Move { .. } => "move",
            Reply::Suggest { .. } => "suggest",
            Reply::Respond { .. } => "respond",
        }
    }
}

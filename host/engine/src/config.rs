//! What a game is played with: the variant, the table size and the options.

use clue_plugin_api::{Card, Deck, Rules, Variant};
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::decks;

/// A `framework` table read from a file, checked with the file named in its
/// errors (`NAME:LINE:COLUMN: message`).
pub use crate::topology::check_table;

/// Everything that decides a game besides the seed and the bots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameConfig {
    pub variant: Variant,
    /// Seats at the table (in `uniclue`: the client plus the players the server plays).
    pub players: u8,
    /// Rounds after which the game ends.
    #[serde(default = "default_max_rounds")]
    pub max_rounds: u32,
    #[serde(default)]
    pub generalized: GeneralizedOptions,
    #[serde(default)]
    pub uniclue: UniclueOptions,
    #[serde(default)]
    pub speedclue: SpeedclueOptions,
    #[serde(default)]
    pub framework: FrameworkOptions,
    /// `csci306` and `classic`: the board's layout and setup text (the
    /// project's own board of the variant when `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardText>,
    /// A fixed deal instead of a random one: each seat's hand in dealt order;
    /// the envelope is whatever is left.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deal: Option<Vec<Vec<Card>>>,
}

pub fn default_max_rounds() -> u32 {
    200
}

/// The variants an option of a variant file or a tournament file (named as
/// there: `rooms`, `layout`, ...) applies to, in words (`"uniclue"`), or
/// `None` for an option of every variant (`players`, `max_rounds`). An
/// option given for a variant it does not apply to would be ignored, which
/// a person who gave it would not expect: the files and the command line
/// refuse it.
fn option_variants(name: &str) -> Option<(&'static str, &'static [Variant])> {
    let of: (&str, &[Variant]) = match name {
        "items" | "hidden" => ("generalized", &[Variant::Generalized]),
        "rooms" | "query_limit" => ("uniclue", &[Variant::Uniclue]),
        "contest_rules" => ("speedclue", &[Variant::Speedclue]),
        "width" | "persons" | "weapons" | "table" => ("framework", &[Variant::Framework]),
        // `board`: the web's name for one of the project's boards.
        "layout" | "setup" | "board" => {
            ("classic and csci306", &[Variant::Classic, Variant::Csci306])
        }
        _ => return None,
    };
    Some(of)
}

/// Why option `name` may not be given for `variant`, if it may not
/// (`option_variants`): `` `rooms` applies to uniclue, not speedclue ``.
pub fn option_refused(name: &str, variant: Variant) -> Option<String> {
    let (words, variants) = option_variants(name)?;
    (!variants.contains(&variant)).then(|| format!("`{name}` applies to {words}, not {variant}"))
}

/// A game's options as a front end collects them (the flags and variant file
/// of `clue play`, a tournament file's `options:` and sweep, the web's start
/// request), each `None` leaving the variant's default. One type, so that the
/// three merge and apply options alike; a board's and a table's files are
/// read by each front end its own way and set on the configuration after.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameOptions {
    pub max_rounds: Option<u32>,
    pub items: Option<u16>,
    pub hidden: Option<u16>,
    pub rooms: Option<Vec<u8>>,
    pub query_limit: Option<u32>,
    pub contest_rules: Option<bool>,
    pub width: Option<u16>,
    pub persons: Option<u16>,
    pub weapons: Option<u16>,
}

impl GameOptions {
    /// These options, and `base`'s where these give none.
    pub fn or(self, base: GameOptions) -> GameOptions {
        GameOptions {
            max_rounds: self.max_rounds.or(base.max_rounds),
            items: self.items.or(base.items),
            hidden: self.hidden.or(base.hidden),
            rooms: self.rooms.or(base.rooms),
            query_limit: self.query_limit.or(base.query_limit),
            contest_rules: self.contest_rules.or(base.contest_rules),
            width: self.width.or(base.width),
            persons: self.persons.or(base.persons),
            weapons: self.weapons.or(base.weapons),
        }
    }

    /// The names (as in the files: `query_limit`) of the options given.
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("max_rounds", self.max_rounds.is_some()),
            ("items", self.items.is_some()),
            ("hidden", self.hidden.is_some()),
            ("rooms", self.rooms.is_some()),
            ("query_limit", self.query_limit.is_some()),
            ("contest_rules", self.contest_rules.is_some()),
            ("width", self.width.is_some()),
            ("persons", self.persons.is_some()),
            ("weapons", self.weapons.is_some()),
        ]
        .into_iter()
        .filter_map(|(name, given)| given.then_some(name))
        .collect()
    }

    /// The first option given that does not apply to `variant`, with why
    /// ([`option_refused`]).
    pub fn refused(&self, variant: Variant) -> Option<(&'static str, String)> {
        self.given()
            .into_iter()
            .find_map(|name| option_refused(name, variant).map(|why| (name, why)))
    }

    /// The configuration of `variant` at `players` seats with these options
    /// over its defaults. Not yet checked ([`GameConfig::validate`]).
    pub fn config(&self, variant: Variant, players: u8) -> GameConfig {
        let mut config = GameConfig::new(variant, players);
        if let Some(rounds) = self.max_rounds {
            config.max_rounds = rounds;
        }
        if let Some(items) = self.items {
            config.generalized.items = items;
        }
        if let Some(hidden) = self.hidden {
            config.generalized.hidden = hidden;
        }
        if let Some(rooms) = &self.rooms {
            config.uniclue.rooms = rooms.clone();
        }
        if let Some(limit) = self.query_limit {
            config.uniclue.query_limit = limit;
        }
        if let Some(rules) = self.contest_rules {
            config.speedclue.contest_rules = rules;
        }
        if let Some(width) = self.width {
            config.framework.width = width;
        }
        if let Some(persons) = self.persons {
            config.framework.persons = persons;
        }
        if let Some(weapons) = self.weapons {
            config.framework.weapons = weapons;
        }
        config
    }
}

/// A CSCI306-format board as text, with the file names errors should name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardText {
    pub layout_name: String,
    pub layout: String,
    pub setup_name: String,
    pub setup: String,
}

/// `generalized`: `items` cards (`n`), `hidden` of them in the envelope (`k`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GeneralizedOptions {
    pub items: u16,
    pub hidden: u16,
}

impl Default for GeneralizedOptions {
    fn default() -> Self {
        GeneralizedOptions {
            items: 20,
            hidden: 2,
        }
    }
}

/// `uniclue`: the room sequence (1-based room numbers) and the query limit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UniclueOptions {
    #[serde(default)]
    pub rooms: Vec<u8>,
    #[serde(default = "default_query_limit")]
    pub query_limit: u32,
}

fn default_query_limit() -> u32 {
    42
}

impl Default for UniclueOptions {
    fn default() -> Self {
        UniclueOptions {
            rooms: Vec::new(),
            query_limit: default_query_limit(),
        }
    }
}

/// `speedclue`: whether the 2014 contest rules apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpeedclueOptions {
    pub contest_rules: bool,
}

impl Default for SpeedclueOptions {
    fn default() -> Self {
        SpeedclueOptions {
            contest_rules: true,
        }
    }
}

/// `framework`: board width (and room count) and the person and weapon counts.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameworkOptions {
    pub width: u16,
    pub persons: u16,
    pub weapons: u16,
    /// A board in the protocol's table form instead of a random one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
}

impl Default for FrameworkOptions {
    fn default() -> Self {
        FrameworkOptions {
            width: 10,
            persons: 6,
            weapons: 6,
            table: None,
        }
    }
}

/// The most cards a hand may hold: `Setup::hand_sizes` tells each in a byte
/// (`u8` in the wire form and `clue:player`'s `hand-sizes: list<u8>`).
pub const MAX_HAND: usize = u8::MAX as usize;

/// The most cards a deck may hold: a reply naming every card (a
/// `generalized` interrogation may) must fit what a wasm bot may hand the
/// host in one call, 8 KiB (`clue_runtime`'s `HOSTCALL_BYTES`), also as a
/// 0.1.0 bot's JSON, about four bytes a card id below 1000. Before, a wasm
/// `notebook` asking about 7,900 of 8,162 items was stopped as a crash.
pub const MAX_DECK: usize = 1000;

/// The most items `generalized` may hide: `Rules::hidden` tells the count
/// in a byte, as [`MAX_HAND`].
pub const MAX_HIDDEN: usize = u8::MAX as usize;

/// What to change when a deal's hands would be too large, by variant.
fn hand_advice(variant: Variant) -> &'static str {
    match variant {
        Variant::Generalized => "use fewer items or more players",
        Variant::Framework => {
            "use a narrower board (fewer rooms), fewer persons or weapons, or more players"
        }
        _ => "use a setup file with fewer cards, or more players",
    }
}

/// What to change when a deck is past [`MAX_DECK`], by variant.
fn deck_advice(variant: Variant) -> &'static str {
    match variant {
        Variant::Generalized => "use fewer items",
        Variant::Framework => "use a narrower board (fewer rooms), or fewer persons or weapons",
        _ => "use a setup file with fewer cards",
    }
}

/// A configuration the engine refuses to play.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ConfigError {
    #[error("{variant} is played by {allowed} players, not {players}")]
    Players {
        variant: Variant,
        players: u8,
        allowed: &'static str,
    },
    #[error("generalized needs 1 <= k < n, got n = {items}, k = {hidden}")]
    Hidden { items: u16, hidden: u16 },
    #[error(
        "generalized hides at most {MAX_HIDDEN} items, got k = {0} (a bot is told how many in a byte)"
    )]
    HiddenMany(u16),
    #[error("generalized needs (n - k) divisible by p: n = {items}, k = {hidden}, p = {players}")]
    Uneven {
        items: u16,
        hidden: u16,
        players: u8,
    },
    #[error("uniclue room {0} does not exist (rooms are 1 to 9)")]
    UniclueRoom(u8),
    #[error("framework needs a width of at least 5, got {0}")]
    Width(u16),
    #[error("framework needs at least one person and one weapon")]
    FrameworkCards { persons: u16, weapons: u16 },
    #[error("max_rounds must be at least 1")]
    MaxRounds,
    #[error(
        "{variant}'s deck of {cards} cards, {hidden} hidden, deals hands of up to {hand} cards to {players} \
         players; a hand holds at most {MAX_HAND} (a bot is told each hand's size in a byte): \
         {advice}",
        advice = hand_advice(*variant)
    )]
    HandTooLarge {
        variant: Variant,
        cards: usize,
        hidden: usize,
        players: u8,
        hand: usize,
    },
    #[error(
        "{variant}'s deck of {cards} cards is more than the {MAX_DECK} a game may hold (a \
         bot's reply naming every card must fit what a wasm bot may hand the host in one call): \
         {advice}",
        advice = deck_advice(*variant)
    )]
    DeckTooLarge { variant: Variant, cards: usize },
    #[error("the fixed deal is not valid: {0}")]
    Deal(String),
    #[error("{0} is played on a board; none was given")]
    NoBoard(Variant),
    #[error("bad board: {0}")]
    Board(String),
}

impl ConfigError {
    /// The options whose values the error is about (named as
    /// [`GameOptions::given`] names them, and `players`), the likeliest
    /// culprit first: a file that gave one places the error at it. None for
    /// a board's error, which names its own file.
    pub fn options(&self) -> &'static [&'static str] {
        match self {
            ConfigError::Players { .. } => &["players"],
            ConfigError::Hidden { .. } => &["hidden", "items"],
            ConfigError::HiddenMany(_) => &["hidden"],
            ConfigError::Uneven { .. } => &["hidden", "items", "players"],
            ConfigError::UniclueRoom(_) => &["rooms"],
            ConfigError::Width(_) => &["width"],
            ConfigError::FrameworkCards { persons: 0, .. } => &["persons"],
            ConfigError::FrameworkCards { .. } => &["weapons"],
            ConfigError::MaxRounds => &["max_rounds"],
            ConfigError::HandTooLarge {
                variant: Variant::Generalized,
                ..
            } => &["items", "players"],
            ConfigError::HandTooLarge {
                variant: Variant::Framework,
                ..
            } => &["width", "persons", "weapons", "players"],
            ConfigError::DeckTooLarge {
                variant: Variant::Generalized,
                ..
            } => &["items"],
            ConfigError::DeckTooLarge {
                variant: Variant::Framework,
                ..
            } => &["width", "persons", "weapons"],
            ConfigError::HandTooLarge { .. } | ConfigError::DeckTooLarge { .. } => &[],
            ConfigError::Deal(_) | ConfigError::NoBoard(_) | ConfigError::Board(_) => &[],
        }
    }
}

impl GameConfig {
    /// The default configuration of a variant for `players` seats.
    pub fn new(variant: Variant, players: u8) -> GameConfig {
        GameConfig {
            variant,
            players,
            max_rounds: default_max_rounds(),
            generalized: GeneralizedOptions::default(),
            uniclue: UniclueOptions::default(),
            speedclue: SpeedclueOptions::default(),
            framework: FrameworkOptions::default(),
            board: None,
            deal: None,
        }
    }

    /// The default table size of a variant.
    pub fn default_players(variant: Variant) -> u8 {
        match variant {
            Variant::Csci306 => 6,
            Variant::Generalized => 3,
            _ => 4,
        }
    }

    /// Checks the table size and options against the variant's rules.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let p = self.players;
        let players_err = |allowed| ConfigError::Players {
            variant: self.variant,
            players: p,
            allowed,
        };
        if self.max_rounds == 0 {
            return Err(ConfigError::MaxRounds);
        }
        match self.variant {
            Variant::Classic | Variant::Speedclue | Variant::Uniclue if !(3..=6).contains(&p) => {
                return Err(players_err("3 to 6"));
            }
            Variant::Csci306 if !(2..=6).contains(&p) => return Err(players_err("2 to 6")),
            Variant::Cyberclue if ![2, 4, 5].contains(&p) => return Err(players_err("2, 4 or 5")),
            Variant::Framework if !(2..=12).contains(&p) => return Err(players_err("2 to 12")),
            Variant::Generalized if !(2..=32).contains(&p) => return Err(players_err("2 to 32")),
            _ => {}
        }
        match self.variant {
            Variant::Generalized => {
                let GeneralizedOptions { items, hidden } = self.generalized;
                if hidden == 0 || hidden >= items {
                    return Err(ConfigError::Hidden { items, hidden });
                }
                if usize::from(hidden) > MAX_HIDDEN {
                    return Err(ConfigError::HiddenMany(hidden));
                }
                if (items - hidden) % u16::from(p) != 0 {
                    return Err(ConfigError::Uneven {
                        items,
                        hidden,
                        players: p,
                    });
                }
            }
            Variant::Uniclue => {
                if let Some(&bad) = self.uniclue.rooms.iter().find(|r| !(1..=9).contains(*r)) {
                    return Err(ConfigError::UniclueRoom(bad));
                }
            }
            Variant::Framework => {
                if self.framework.width < 5 {
                    return Err(ConfigError::Width(self.framework.width));
                }
                if self.framework.persons == 0 || self.framework.weapons == 0 {
                    return Err(ConfigError::FrameworkCards {
                        persons: self.framework.persons,
                        weapons: self.framework.weapons,
                    });
                }
            }
            _ => {}
        }
        // The decks these options make, and their envelopes (a board's deck
        // comes with its files, a framework table's with its rows: both
        // are checked as the game is dealt).
        let deck = match self.variant {
            Variant::Generalized => Some((
                usize::from(self.generalized.items),
                usize::from(self.generalized.hidden),
            )),
            Variant::Framework if self.framework.table.is_none() => {
                let f = &self.framework;
                let cards = [f.width, f.persons, f.weapons].map(usize::from);
                Some((cards.iter().sum(), 3))
            }
            _ => None,
        };
        if let Some((cards, hidden)) = deck {
            self.check_deal(cards, hidden)?;
        }
        Ok(())
    }

    /// Refuses a deck past [`MAX_DECK`] cards, and a deal whose largest
    /// hand would not fit the wire form, which tells each hand's size in a
    /// byte ([`MAX_HAND`]): `cards` in the deck, `hidden` of them in the
    /// envelope.
    pub fn check_deal(&self, cards: usize, hidden: usize) -> Result<(), ConfigError> {
        if cards > MAX_DECK {
            return Err(ConfigError::DeckTooLarge {
                variant: self.variant,
                cards,
            });
        }
        let players = usize::from(self.players.max(1));
        let hand = cards.saturating_sub(hidden).div_ceil(players);
        if hand > MAX_HAND {
            return Err(ConfigError::HandTooLarge {
                variant: self.variant,
                cards,
                hidden,
                players: self.players,
                hand,
            });
        }
        Ok(())
    }

    /// The deck of the variants whose deck does not come from a board file.
    pub fn standard_deck(&self) -> Option<Deck> {
        match self.variant {
            Variant::Speedclue | Variant::Uniclue => Some(decks::classic()),
            Variant::Cyberclue => Some(decks::cyberclue()),
            Variant::Generalized => Some(decks::generalized(self.generalized.items)),
            // `classic` is played on a board (the project's, or one given),
            // whose setup file lists the cards and the rooms' order.
            Variant::Classic | Variant::Csci306 | Variant::Framework => None,
        }
    }

    /// How many envelope cards each category of `deck` contributes.
    pub fn hidden_counts(&self, deck: &Deck) -> Vec<u8> {
        match self.variant {
            // `validate` holds `hidden` within a byte (`MAX_HIDDEN`).
            Variant::Generalized => vec![u8::try_from(self.generalized.hidden).unwrap_or(u8::MAX)],
            _ => deck.categories().iter().map(|_| 1).collect(),
        }
    }

    /// The rules every bot of a game of this configuration on `deck` is
    /// told in its `Setup`: the engine's own, and those the UniClue and Speed
    /// Clue clients tell a bot they enter in another server's game.
    pub fn rules(&self, deck: &Deck) -> Rules {
        Rules {
            max_rounds: self.max_rounds,
            hidden: self.hidden_counts(deck),
            shown_to_all: self.variant == Variant::Csci306,
            contest_rules: self.variant == Variant::Speedclue && self.speedclue.contest_rules,
            query_limit: (self.variant == Variant::Uniclue).then_some(self.uniclue.query_limit),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{GameConfig, GameOptions, GeneralizedOptions, option_refused};
    use clue_plugin_api::Variant;

    #[test]
    fn an_option_applies_to_its_variants_only() {
        assert_eq!(option_refused("rooms", Variant::Uniclue), None);
        assert_eq!(
            option_refused("rooms", Variant::Speedclue).as_deref(),
            Some("`rooms` applies to uniclue, not speedclue")
        );
        for variant in [Variant::Classic, Variant::Csci306] {
            assert_eq!(option_refused("layout", variant), None);
        }
        assert_eq!(
            option_refused("setup", Variant::Framework).as_deref(),
            Some("`setup` applies to classic and csci306, not framework")
        );
        for variant in Variant::ALL {
            assert_eq!(option_refused("max_rounds", variant), None);
            assert_eq!(option_refused("players", variant), None);
        }
    }

    #[test]
    fn options_merge_over_a_base_and_apply_over_the_defaults() {
        let setting = GameOptions {
            items: Some(26),
            max_rounds: Some(50),
            ..GameOptions::default()
        };
        let file = GameOptions {
            items: Some(30),
            hidden: Some(3),
            ..GameOptions::default()
        };
        let merged = setting.or(file);
        assert_eq!(merged.given(), ["max_rounds", "items", "hidden"]);
        let config = merged.config(Variant::Generalized, 4);
        let mut expected = GameConfig::new(Variant::Generalized, 4);
        expected.max_rounds = 50;
        expected.generalized = GeneralizedOptions {
            items: 26,
            hidden: 3,
        };
        assert_eq!(config, expected);
        // Nothing given: the variant's defaults, for every variant.
        for variant in Variant::ALL {
            let players = GameConfig::default_players(variant);
            assert_eq!(
                GameOptions::default().config(variant, players),
                GameConfig::new(variant, players)
            );
        }
        assert_eq!(merged.refused(Variant::Generalized), None);
        assert_eq!(
            merged.refused(Variant::Speedclue),
            Some((
                "items",
                "`items` applies to generalized, not speedclue".to_string()
            ))
        );
        let framework = GameOptions {
            contest_rules: Some(false),
            width: Some(12),
            ..GameOptions::default()
        };
        assert_eq!(
            framework.refused(Variant::Framework).map(|r| r.0),
            Some("contest_rules")
        );
        assert!(
            !framework
                .config(Variant::Speedclue, 3)
                .speedclue
                .contest_rules
        );
    }
}

//! The seven variants and the options a bot is told about.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// A rule set the host can run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// The board game as most people know it.
    Classic,
    /// The course board game of `seeds/002`.
    Csci306,
    /// The square-grid stdin/stdout framework of `seeds/000`.
    Framework,
    /// The ACM SoCal 2006 UniClue judge of `seeds/001`.
    Uniclue,
    /// Columbia W4444 Generalized Clue of `seeds/003`.
    Generalized,
    /// The cpp-home Contest 43 ring of computers of `seeds/004`.
    Cyberclue,
    /// The 2014 Speed Clue King-of-the-Hill contest.
    Speedclue,
}

impl Variant {
    pub const ALL: [Variant; 7] = [
        Variant::Classic,
        Variant::Csci306,
        Variant::Framework,
        Variant::Uniclue,
        Variant::Generalized,
        Variant::Cyberclue,
        Variant::Speedclue,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::Csci306 => "csci306",
            Variant::Framework => "framework",
            Variant::Uniclue => "uniclue",
            Variant::Generalized => "generalized",
            Variant::Cyberclue => "cyberclue",
            Variant::Speedclue => "speedclue",
        }
    }

    /// Whether the variant is played on a board (grid, rooms with doors, or ring).
    pub fn has_board(self) -> bool {
        matches!(
            self,
            Variant::Classic | Variant::Csci306 | Variant::Framework | Variant::Cyberclue
        )
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The error for a variant name that is not one of [`Variant::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownVariant(pub String);

impl fmt::Display for UnknownVariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        write!(
            f,
            "unknown variant `{}` (expected one of: {})",
            self.0,
            names.join(", ")
        )
    }
}

impl std::error::Error for UnknownVariant {}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownVariant(s.to_string()))
    }
}

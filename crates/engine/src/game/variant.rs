//! The variants of the game, their start layouts and their objectives.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::square::Square;
use super::square_set::SquareSet;

/// A set of rules. The name is stored with every match, so the strings never change.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum Variant {
    /// Thud as the official rules read: a troll captures any subset of the dwarfs around it.
    #[default]
    Classic,
    /// The original rules: one capture after a step, shoves need two trolls and capture all.
    Original,
    /// Koom Valley Thud: the dwarfs push the Rock to the far side, the trolls surround it.
    KoomValley,
}

/// Classic and original start: Thudstone H8, 8 trolls around it, 32 dwarfs on the edge.
pub const CLASSIC_START: &str =
    "dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd d";

/// Koom Valley start, the layout of the only public implementation found; change it here only.
pub const KOOM_VALLEY_START: &str =
    "ddddd/d5d/d7d/d9d/d11d/d13d/7d7/7R7/15/15/13/11/1TT1T1TT1/1T1T1T1/5 d";

/// The far side of the valley: the dwarfs win by moving the Rock onto one of these.
pub const KOOM_VALLEY_GOALS: [&str; 5] = ["F1", "G1", "H1", "I1", "J1"];

/// How many trolls next to the Rock win Koom Valley for the trolls.
pub const KOOM_VALLEY_TROLLS_AROUND_ROCK: usize = 3;

/// Why a variant name was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a variant; choose classic, original or koom-valley")]
pub struct UnknownVariant(pub String);

impl Variant {
    /// Every variant, default first.
    pub const ALL: [Variant; 3] = [Variant::Classic, Variant::Original, Variant::KoomValley];

    /// The fixed name stored with matches and typed by players.
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Classic => "classic",
            Variant::Original => "original",
            Variant::KoomValley => "koom-valley",
        }
    }

    /// A name for people: "Classic Thud".
    pub const fn title(self) -> &'static str {
        match self {
            Variant::Classic => "Classic Thud",
            Variant::Original => "Thud (original rules)",
            Variant::KoomValley => "Koom Valley Thud",
        }
    }

    /// The start layout of a battle, in FEN; [`Variant::start`] is the position itself.
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::Classic | Variant::Original => CLASSIC_START,
            Variant::KoomValley => KOOM_VALLEY_START,
        }
    }

    /// How many dwarfs and trolls a battle starts with. Pieces are only ever removed, so no
    /// position of the variant holds more.
    pub const fn starting_pieces(self) -> (usize, usize) {
        match self {
            Variant::Classic | Variant::Original => (32, 8),
            Variant::KoomValley => (16, 8),
        }
    }

    /// Whether battles are won by objective (Koom Valley) rather than by counting pieces.
    pub const fn wins_by_objective(self) -> bool {
        matches!(self, Variant::KoomValley)
    }

    /// The squares the dwarfs must bring the Rock to (Koom Valley only; empty otherwise).
    pub fn goal_squares(self) -> SquareSet {
        match self {
            Variant::KoomValley => KOOM_VALLEY_GOALS
                .iter()
                .map(|name| name.parse::<Square>().expect("goal squares are squares"))
                .collect(),
            Variant::Classic | Variant::Original => SquareSet::EMPTY,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = UnknownVariant;

    fn from_str(s: &str) -> Result<Variant, UnknownVariant> {
        let wanted = s.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        Variant::ALL
            .into_iter()
            .find(|v| v.name() == wanted)
            .ok_or_else(|| UnknownVariant(s.trim().to_string()))
    }
}

impl From<Variant> for String {
    fn from(v: Variant) -> String {
        v.name().to_string()
    }
}

impl TryFrom<String> for Variant {
    type Error = UnknownVariant;
    fn try_from(s: String) -> Result<Variant, UnknownVariant> {
        s.parse()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_are_fixed_strings() {
        for v in Variant::ALL {
            assert_eq!(v.name().parse::<Variant>(), Ok(v));
            assert_eq!(
                serde_json::to_string(&v).unwrap(),
                format!("\"{}\"", v.name())
            );
        }
        assert_eq!(" Koom Valley ".parse::<Variant>(), Ok(Variant::KoomValley));
        assert_eq!(Variant::default(), Variant::Classic);
        for v in Variant::ALL {
            let start = v.start();
            assert_eq!(
                (start.dwarfs().len(), start.trolls().len()),
                v.starting_pieces()
            );
        }
        let err = "chess".parse::<Variant>().unwrap_err();
        assert!(err.to_string().contains("chess"));
    }
}

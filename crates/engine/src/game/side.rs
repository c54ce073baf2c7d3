//! The two sides of a battle: the dwarfs and the trolls.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::piece::Piece;

/// One of the two sides of a battle.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Dwarfs,
    Trolls,
}

impl Side {
    /// The other side.
    pub const fn opposite(self) -> Side {
        match self {
            Side::Dwarfs => Side::Trolls,
            Side::Trolls => Side::Dwarfs,
        }
    }

    /// The piece this side moves (Koom Valley dwarfs also move the Rock).
    pub const fn piece(self) -> Piece {
        match self {
            Side::Dwarfs => Piece::Dwarf,
            Side::Trolls => Piece::Troll,
        }
    }

    /// The FEN letter for the side to move: `d` or `t`.
    pub const fn letter(self) -> char {
        match self {
            Side::Dwarfs => 'd',
            Side::Trolls => 't',
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Dwarfs => "dwarfs",
            Side::Trolls => "trolls",
        })
    }
}

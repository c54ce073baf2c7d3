//! The pieces: dwarfs, trolls and the stone (the Thudstone, or the Rock in Koom Valley).

use super::variant::Variant;

/// Something standing on a square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    Dwarf,
    Troll,
    /// The Thudstone (classic) or the Rock (Koom Valley).
    Stone,
}

impl Piece {
    /// The letter used in positions and move notation: `d`, `T`, `R`.
    pub const fn letter(self) -> char {
        match self {
            Piece::Dwarf => 'd',
            Piece::Troll => 'T',
            Piece::Stone => 'R',
        }
    }

    /// The name a player reads: "dwarf", "troll", "Thudstone".
    pub const fn name(self, variant: Variant) -> &'static str {
        match (self, variant) {
            (Piece::Dwarf, _) => "dwarf",
            (Piece::Troll, _) => "troll",
            (Piece::Stone, Variant::KoomValley) => "Rock",
            (Piece::Stone, _) => "Thudstone",
        }
    }
}

//! One pairing of a round: a match between two players, or a bye.

use serde::{Deserialize, Serialize};

/// One pairing of a round. In a match, `first` commands the dwarfs in the first battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pairing {
    Match { first: usize, second: usize },
    Bye(usize),
}

impl Pairing {
    /// Whether `player` is in this pairing.
    pub fn has(self, player: usize) -> bool {
        match self {
            Pairing::Match { first, second } => first == player || second == player,
            Pairing::Bye(p) => p == player,
        }
    }

    /// The players of this pairing (one for a bye).
    pub fn players(self) -> Vec<usize> {
        match self {
            Pairing::Match { first, second } => vec![first, second],
            Pairing::Bye(p) => vec![p],
        }
    }

    /// The other player of a match with `player`, if this is one.
    pub fn opponent_of(self, player: usize) -> Option<usize> {
        match self {
            Pairing::Match { first, second } if first == player => Some(second),
            Pairing::Match { first, second } if second == player => Some(first),
            _ => None,
        }
    }
}

//! Scores: pieces on the board, a battle's result, and match points.

use std::fmt;
use std::ops::Add;

use serde::{Deserialize, Serialize};

use super::side::Side;

/// Points on the board for each side: 1 per dwarf for the dwarfs, 4 per troll for the trolls.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Score {
    pub dwarfs: u32,
    pub trolls: u32,
}

impl Score {
    /// The side ahead and by how much (the margin), or `None` when level.
    pub fn leader(&self) -> Option<(Side, u32)> {
        use std::cmp::Ordering::*;
        match self.dwarfs.cmp(&self.trolls) {
            Greater => Some((Side::Dwarfs, self.dwarfs - self.trolls)),
            Less => Some((Side::Trolls, self.trolls - self.dwarfs)),
            Equal => None,
        }
    }

    /// The points of `side`.
    pub fn of(&self, side: Side) -> u32 {
        match side {
            Side::Dwarfs => self.dwarfs,
            Side::Trolls => self.trolls,
        }
    }
}

/// Match points, kept in halves: a drawn Koom Valley battle is worth ½ to each player.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
pub struct Points(u32);

impl Points {
    pub const ZERO: Points = Points(0);
    pub const HALF: Points = Points(1);

    /// `n` whole points.
    pub const fn whole(n: u32) -> Points {
        Points(2 * n)
    }

    /// The points counted in halves.
    pub const fn halves(self) -> u32 {
        self.0
    }

    /// Points from a count of halves.
    pub const fn from_halves(halves: u32) -> Points {
        Points(halves)
    }

    /// The difference between two amounts of points, and which is larger.
    pub fn difference(self, other: Points) -> Points {
        Points(self.0.abs_diff(other.0))
    }
}

impl Add for Points {
    type Output = Points;
    fn add(self, rhs: Points) -> Points {
        Points(self.0 + rhs.0)
    }
}

impl fmt::Display for Points {
    /// `7`, `½`, `1½`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (whole, 0) => write!(f, "{whole}"),
            (0, _) => f.write_str("½"),
            (whole, _) => write!(f, "{whole}½"),
        }
    }
}

impl fmt::Debug for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_example_score_five_dwarfs_two_trolls() {
        // RULES.md §2: 5 dwarfs and 2 trolls left → trolls 8, dwarfs 5, trolls win by 3.
        let score = Score {
            dwarfs: 5,
            trolls: 4 * 2,
        };
        assert_eq!(score.leader(), Some((Side::Trolls, 3)));
        assert_eq!(
            Score {
                dwarfs: 8,
                trolls: 8
            }
            .leader(),
            None
        );
    }

    #[test]
    fn points_print_with_halves() {
        assert_eq!(Points::whole(7).to_string(), "7");
        assert_eq!(Points::HALF.to_string(), "½");
        assert_eq!((Points::whole(1) + Points::HALF).to_string(), "1½");
        assert_eq!(
            Points::whole(3).difference(Points::whole(7)),
            Points::whole(4)
        );
    }
}

//! Tournament points: a match won is 1, drawn ½, lost 0, counted in halves to stay exact.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Points counted in halves (`HalfPoints(3)` is 1½).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HalfPoints(pub u32);

impl HalfPoints {
    pub const WIN: HalfPoints = HalfPoints(2);
    pub const DRAW: HalfPoints = HalfPoints(1);
    pub const LOSS: HalfPoints = HalfPoints(0);
}

impl std::ops::Add for HalfPoints {
    type Output = HalfPoints;
    fn add(self, other: HalfPoints) -> HalfPoints {
        HalfPoints(self.0 + other.0)
    }
}

impl std::ops::AddAssign for HalfPoints {
    fn add_assign(&mut self, other: HalfPoints) {
        self.0 += other.0;
    }
}

impl fmt::Display for HalfPoints {
    /// `2½`, `½`, `3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.0 / 2, self.0 % 2) {
            (0, 1) => write!(f, "½"),
            (whole, 1) => write!(f, "{whole}½"),
            (whole, _) => write!(f, "{whole}"),
        }
    }
}

/// Sonneborn–Berger sums: opponents' half points times a result of ½ are quarter points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QuarterPoints(pub u32);

impl fmt::Display for QuarterPoints {
    /// `3.25`, `4.5`, `6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 4;
        match self.0 % 4 {
            0 => write!(f, "{whole}"),
            1 => write!(f, "{whole}.25"),
            2 => write!(f, "{whole}.5"),
            _ => write!(f, "{whole}.75"),
        }
    }
}

/// How a tournament match ended, for its two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MatchOutcome {
    /// Won over the board (or by resignation or on time) by `margin` points of the battles.
    Won {
        winner: usize,
        margin: u32,
    },
    Drawn,
    /// Won because the other player withdrew or the round's deadline decided it without a
    /// result on the board: a win, with no margin.
    Forfeited {
        winner: usize,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_are_written_with_halves() {
        assert_eq!(HalfPoints(0).to_string(), "0");
        assert_eq!(HalfPoints(1).to_string(), "½");
        assert_eq!(HalfPoints(5).to_string(), "2½");
        assert_eq!(HalfPoints(6).to_string(), "3");
        assert_eq!(QuarterPoints(13).to_string(), "3.25");
        assert_eq!(QuarterPoints(18).to_string(), "4.5");
        assert_eq!(QuarterPoints(24).to_string(), "6");
        assert_eq!(QuarterPoints(3).to_string(), "0.75");
    }
}

//! The search's score turned into what players count: the expected final margin of the
//! battle in the game's points (a dwarf 1, a troll 4), from the dwarfs' side.
//!
//! The search scores material as the rules count it plus what its features see (cohesion,
//! lines aimed at trolls, trolls' reach …), weighted to choose moves, not to forecast results:
//! at the start it thinks the dwarfs' block worth several points, while between strong players
//! the trolls win. So the expected margin is the material on the board plus, by how many dwarfs
//! are left, an offset and a share of the rest of the search's score:
//!
//! `margin = material + offset(dwarfs) + share(dwarfs) × (score − material)`
//!
//! Offsets and shares are fitted by least squares on level-5 self-play battles
//! (`thudbot-selfplay fit`, docs/analysis.md) at a few numbers of dwarfs and interpolated
//! between them, so a capture moves the forecast by what it takes and no more. The material
//! keeps its full weight: a dwarf given away is a point lost. A battle that is over is scored
//! by the rules, not forecast (see [`super::analysis::judge`]). Koom Valley is won or lost, not
//! counted in points: its scores pass through unchanged.

use crate::game::{Position, Variant};

use super::evaluation::material;

/// Dwarfs on the board at which the fit is made, from the start down.
pub const KNOTS: [i32; 5] = [32, 24, 16, 8, 0];

/// One knot's fit: the margin's offset from the material, in hundredths of a point, and the
/// share of the search's score beyond the material that is kept, in hundredths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knot {
    pub offset: i32,
    pub share: i32,
}

/// Classic and original, fitted on self-play (see the module's comment).
pub const FITTED: [Knot; 5] = [
    Knot {
        offset: 0,
        share: 100,
    },
    Knot {
        offset: 0,
        share: 100,
    },
    Knot {
        offset: 0,
        share: 100,
    },
    Knot {
        offset: 0,
        share: 100,
    },
    Knot {
        offset: 0,
        share: 100,
    },
];

/// The weight of each knot for a position with `dwarfs` dwarfs: the two knots around it share
/// the weight by how near each is (beyond the first knot, all of it on the first).
pub fn knot_weights(dwarfs: i32) -> [f64; 5] {
    let mut weights = [0.0; 5];
    let d = dwarfs.clamp(KNOTS[4], KNOTS[0]);
    for k in 0..KNOTS.len() - 1 {
        let (hi, lo) = (KNOTS[k], KNOTS[k + 1]);
        if d <= hi && d >= lo {
            let t = f64::from(hi - d) / f64::from(hi - lo);
            weights[k] = 1.0 - t;
            weights[k + 1] = t;
            return weights;
        }
    }
    weights[0] = 1.0;
    weights
}

/// The expected final margin, from the dwarfs' side in hundredths of a point, of `position`
/// whose search score (from the dwarfs' side) is `score`.
pub fn expected_margin(position: &Position, score: i32) -> i32 {
    expected_margin_with(position, score, &FITTED)
}

/// [`expected_margin`] under other knots (for fitting and measuring them).
pub fn expected_margin_with(position: &Position, score: i32, knots: &[Knot; 5]) -> i32 {
    if position.variant() == Variant::KoomValley {
        return score;
    }
    forecast(
        position.dwarfs().len() as i32,
        material(position),
        score,
        knots,
    )
}

/// The expected margin of a position with `dwarfs` dwarfs and `held` material (hundredths of a
/// point, dwarfs' side) that the search scores `score`.
pub fn forecast(dwarfs: i32, held: i32, score: i32, knots: &[Knot; 5]) -> i32 {
    let weights = knot_weights(dwarfs);
    let (mut offset, mut share) = (0.0, 0.0);
    for (w, knot) in weights.iter().zip(knots) {
        offset += w * f64::from(knot.offset);
        share += w * f64::from(knot.share) / 100.0;
    }
    let margin = f64::from(held) + offset + share * f64::from(score - held);
    margin.round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knots_share_the_weight_by_nearness() {
        assert_eq!(knot_weights(32), [1.0, 0.0, 0.0, 0.0, 0.0]);
        assert_eq!(knot_weights(28), [0.5, 0.5, 0.0, 0.0, 0.0]);
        assert_eq!(knot_weights(6), [0.0, 0.0, 0.0, 0.75, 0.25]);
        assert_eq!(knot_weights(0), [0.0, 0.0, 0.0, 0.0, 1.0]);
        for d in 0..=32 {
            let total: f64 = knot_weights(d).iter().sum();
            assert!((total - 1.0).abs() < 1e-9, "{d}");
        }
    }

    #[test]
    fn material_keeps_its_full_weight() {
        // The same search score beyond the material, one dwarf fewer: one point less.
        let start = Variant::Classic.start();
        let mut fewer = start.clone();
        let mv = start
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string() == "dA7-F7")
            .expect("a move");
        fewer.make(&mv);
        let reply = fewer
            .legal_moves()
            .into_iter()
            .find(|m| !m.captured().is_empty())
            .expect("a troll takes the dwarf");
        fewer.make(&reply);
        assert_eq!(fewer.dwarfs().len(), 31);
        let beyond = 250;
        let a = expected_margin(&start, material(&start) + beyond);
        let b = expected_margin(&fewer, material(&fewer) + beyond);
        // Up to the drift of the interpolation over one dwarf.
        let drift = (FITTED[0].offset - FITTED[1].offset).abs() / 8
            + (FITTED[0].share - FITTED[1].share).abs() * beyond / 800
            + 2;
        assert!((a - b - 100).abs() <= drift, "{a} {b}");
    }
}

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

/// Classic and original, fitted on self-play (see the module's comment): offsets alone, the
/// search's score kept whole (fits of the shares as well came out erratic, negative at some
/// knots, and no better on battles left out of the fit; docs/analysis.md). Fitted by
/// `thudbot-selfplay fit` on battles 1-10 of docs/analysis.md's run.
pub const FITTED: [Knot; 5] = [
    Knot {
        offset: -1694,
        share: 100,
    },
    Knot {
        offset: -1013,
        share: 100,
    },
    Knot {
        offset: -445,
        share: 100,
    },
    Knot {
        offset: -269,
        share: 100,
    },
    Knot {
        offset: -94,
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

/// The search score that [`expected_margin`] turns into `margin` for `position`: its inverse,
/// so a caller that kept only the margin can compare moves on the search's own scale.
pub fn search_score(position: &Position, margin: i32) -> i32 {
    if position.variant() == Variant::KoomValley {
        return margin;
    }
    let held = material(position);
    let weights = knot_weights(position.dwarfs().len() as i32);
    let (mut offset, mut share) = (0.0, 0.0);
    for (w, knot) in weights.iter().zip(&FITTED) {
        offset += w * f64::from(knot.offset);
        share += w * f64::from(knot.share) / 100.0;
    }
    if share <= 0.0 {
        return margin;
    }
    (f64::from(held) + (f64::from(margin) - f64::from(held) - offset) / share).round() as i32
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
    fn the_search_score_is_recovered_from_the_margin() {
        let start = Variant::Classic.start();
        for score in [-2_000, -150, 0, 37, 480, 3_000] {
            let margin = expected_margin(&start, score);
            assert!((search_score(&start, margin) - score).abs() <= 1, "{score}");
        }
        // Between strong players the trolls win: the start is not a dwarfs' lead.
        assert!(expected_margin(&start, 300) < 0);
    }
}

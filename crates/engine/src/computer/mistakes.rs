//! How levels 1 and 2 go wrong: they score every move, then draw one with weights
//! `exp((score - best) / temperature)`. Good moves stay likely, but a move a dwarf worse is
//! often played at level 1 and sometimes at level 2, as a beginner would.

use crate::game::Move;

use super::chance::Chance;

/// Draws a move from `scored` (scores in hundredths of a dwarf, for the mover).
pub(crate) fn choose_with_mistakes(
    scored: &[(Move, i32)],
    temperature: u32,
    chance: &mut Chance,
) -> Option<(Move, i32)> {
    let best = scored.iter().map(|&(_, s)| s).max()?;
    if temperature == 0 {
        return scored.iter().find(|&&(_, s)| s == best).copied();
    }
    let t = f64::from(temperature);
    let weights: Vec<f64> = scored
        .iter()
        .map(|&(_, s)| (f64::from(s - best) / t).max(-50.0).exp())
        .collect();
    let total: f64 = weights.iter().sum();
    let mut pick = chance.unit() * total;
    for (i, w) in weights.iter().enumerate() {
        if pick < *w {
            return Some(scored[i]);
        }
        pick -= w;
    }
    scored.last().copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    #[test]
    fn cold_choices_take_the_best_and_warm_ones_stray() {
        let moves = Variant::Classic.start().legal_moves();
        let scored: Vec<(Move, i32)> = moves
            .iter()
            .enumerate()
            .map(|(i, &m)| (m, -(i as i32)))
            .collect();
        let mut chance = Chance::new(7);
        assert_eq!(
            choose_with_mistakes(&scored, 0, &mut chance),
            Some(scored[0])
        );
        let picks: Vec<_> = (0..50)
            .filter_map(|_| choose_with_mistakes(&scored, 200, &mut chance))
            .collect();
        assert!(picks.iter().any(|&p| p != scored[0]));
    }
}

//! Two simple opponents for measuring the computer player: one plays any legal move, the other
//! always takes the most material it can at once (or wins Koom Valley at once), else plays any.

use crate::game::{Move, Position, Variant};

use super::chance::Chance;

/// A legal move drawn uniformly from all of them.
pub fn random_move(position: &Position, chance: &mut Chance) -> Option<Move> {
    let moves = position.legal_moves();
    if moves.is_empty() {
        return None;
    }
    Some(moves[chance.below(moves.len())])
}

/// The move that wins the most at once (an objective, else the most points captured); ties,
/// and positions with no capture, are drawn at random.
pub fn greedy_move(position: &Position, chance: &mut Chance) -> Option<Move> {
    let moves = position.legal_moves();
    let gain = |m: &Move| -> u32 {
        let after = position.after(m);
        if after.objective_reached().is_some() {
            return u32::MAX;
        }
        let value = match (m.piece(), position.variant()) {
            (crate::game::Piece::Dwarf, Variant::Classic | Variant::Original) => 4,
            _ => 1,
        };
        m.captured().len() as u32 * value
    };
    let best = moves.iter().map(gain).max()?;
    let top: Vec<Move> = moves.into_iter().filter(|m| gain(m) == best).collect();
    Some(top[chance.below(top.len())])
}

//! Each move of a battle looked back at, from the judgements of the positions around it:
//! what it cost the side that played it, and the costliest of them.

use crate::game::{Move, Position, Side};

use super::{for_dwarfs, Judgement};

/// One move of a battle, looked back at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveReview {
    /// The move's number in the battle, from 1.
    pub ply: usize,
    pub side: Side,
    pub played: Move,
    /// What the search preferred before the move; `None` when it agrees with the move played.
    pub better: Option<Move>,
    /// What the move cost the side that played it, in hundredths of a point (0 or more): the
    /// drop in the search's own score across it (the calibration shifts the level of the score
    /// with the phase, not the difference between moves).
    pub cost: i32,
    /// The score before and after the move, from the dwarfs' side.
    pub before: i32,
    pub after: i32,
    /// Pieces the move captured.
    pub captures: usize,
    /// A suspected mistake the deeper look was not given (see [`super::CHECKED`]): not counted as
    /// a mistake, whatever its cost.
    pub unchecked: bool,
}

/// The positions reached by a capture (the plies of the moves that captured), for the marks
/// on an evaluation graph.
pub fn capture_plies(reviews: &[MoveReview]) -> Vec<usize> {
    reviews
        .iter()
        .filter(|r| r.captures > 0)
        .map(|r| r.ply)
        .collect()
}

/// Reviews the moves of a battle from its `start`, given a judgement of every position
/// (`judgements[i]` of the position after `i` moves, so one more than there are moves).
/// Moves without both judgements are left out.
pub fn review(start: &Position, moves: &[Move], judgements: &[Judgement]) -> Vec<MoveReview> {
    let mut reviews = Vec::with_capacity(moves.len());
    let mut position = start.clone();
    for (i, mv) in moves.iter().enumerate() {
        let side = position.side_to_move();
        position.make(mv);
        let (Some(before), Some(after)) = (judgements.get(i), judgements.get(i + 1)) else {
            break;
        };
        let agreed = before.best == Some(*mv);
        // On the search's own scale, as `confirm` compares them.
        let lost = for_dwarfs(side, before.raw - after.raw);
        // The move the search itself prefers costs nothing: a deeper look afterwards is no
        // fault of the player's.
        let cost = if agreed { 0 } else { lost.max(0) };
        reviews.push(MoveReview {
            ply: i + 1,
            side,
            played: *mv,
            better: before.best.filter(|_| !agreed && cost > 0),
            cost,
            before: before.score,
            after: after.score,
            captures: mv.captured().len(),
            unchecked: before.suspicion.is_some_and(|s| !s.checked),
        });
    }
    reviews
}

/// The costliest moves of `side`, worst first, at least `threshold` each, at most `limit`;
/// a move the deeper look was not given is none of them.
pub fn mistakes(
    reviews: &[MoveReview],
    side: Side,
    threshold: i32,
    limit: usize,
) -> Vec<MoveReview> {
    let mut found: Vec<MoveReview> = reviews
        .iter()
        .filter(|r| r.side == side && r.cost >= threshold && r.better.is_some() && !r.unchecked)
        .copied()
        .collect();
    found.sort_by(|a, b| b.cost.cmp(&a.cost).then(a.ply.cmp(&b.ply)));
    found.truncate(limit);
    found
}

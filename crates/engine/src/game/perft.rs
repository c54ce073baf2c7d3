//! Counting the leaves of the legal-move tree: the proof that move generation is exact.

use super::position::Position;

/// The number of move sequences of exactly `depth` moves from `position`.
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut position = position.clone();
    count(&mut position, depth)
}

fn count(position: &mut Position, depth: u32) -> u64 {
    // The last ply is counted, not played: the bulk of the tree never gets made.
    if depth == 1 {
        return position.count_legal_moves();
    }
    let mut moves = Vec::with_capacity(256);
    position.generate(&mut moves);
    let mut total = 0;
    for mv in &moves {
        position.make(mv);
        total += count(position, depth - 1);
        position.unmake(mv);
    }
    total
}

/// perft for each first move, in move order: the tool for finding where two generators differ.
pub fn divide(position: &Position, depth: u32) -> Vec<(super::Move, u64)> {
    position
        .legal_moves()
        .into_iter()
        .map(|mv| (mv, perft(&position.after(&mv), depth.saturating_sub(1))))
        .collect()
}

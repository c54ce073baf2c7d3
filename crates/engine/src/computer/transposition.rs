//! Zobrist keys for positions and the transposition table the search remembers results in.
//!
//! `game/` has no hashing of its own (its `Hash` derive hashes the whole board), so the keys
//! live here and are updated move by move from what the move says it moves and captures.

use crate::game::{Move, Piece, Position, Side, Square};

use super::chance::mix;

/// One key per piece kind and padded square index, fixed at compile time.
const PIECE_KEYS: [[u64; 256]; 3] = {
    let mut keys = [[0u64; 256]; 3];
    let mut kind = 0;
    while kind < 3 {
        let mut i = 0;
        while i < 256 {
            keys[kind][i] = mix(0x5EED_0000_0000_0000 ^ ((kind as u64) << 12) ^ i as u64);
            i += 1;
        }
        kind += 1;
    }
    keys
};

/// Flipped in when the trolls are to move.
pub(crate) const TROLLS_TO_MOVE: u64 = mix(0x7120_11D5);

fn piece_key(piece: Piece, sq: Square) -> u64 {
    let kind = match piece {
        Piece::Dwarf => 0,
        Piece::Troll => 1,
        Piece::Stone => 2,
    };
    PIECE_KEYS[kind][sq.index()]
}

/// The key of a whole position.
pub(crate) fn key_of(pos: &Position) -> u64 {
    let mut key = piece_key(Piece::Stone, pos.stone());
    for sq in pos.dwarfs() {
        key ^= piece_key(Piece::Dwarf, sq);
    }
    for sq in pos.trolls() {
        key ^= piece_key(Piece::Troll, sq);
    }
    if pos.side_to_move() == Side::Trolls {
        key ^= TROLLS_TO_MOVE;
    }
    key
}

/// The key after `mv` is played from a position with key `key`. A move only ever captures
/// pieces of the other side, so it says everything the key needs.
pub(crate) fn key_after(key: u64, mv: &Move) -> u64 {
    let piece = mv.piece();
    let victim = match piece {
        Piece::Troll => Piece::Dwarf,
        _ => Piece::Troll,
    };
    let mut key = key ^ piece_key(piece, mv.from()) ^ piece_key(piece, mv.to()) ^ TROLLS_TO_MOVE;
    for sq in mv.captured() {
        key ^= piece_key(victim, sq);
    }
    key
}

/// What a stored score says about the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Bound {
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (no move reached alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    pub key: u64,
    pub best: Option<Move>,
    pub score: i32,
    pub depth: i8,
    pub bound: Bound,
}

/// A fixed-size table indexed by the low bits of the key; a new result replaces the old one
/// unless the old one came from a deeper search of the same position.
pub(crate) struct Table {
    entries: Vec<Option<Entry>>,
    mask: usize,
}

impl Table {
    /// A table of `2^bits` entries.
    pub fn new(bits: u32) -> Table {
        let size = 1usize << bits;
        Table {
            entries: vec![None; size],
            mask: size - 1,
        }
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    pub fn store(&mut self, entry: Entry) {
        let slot = &mut self.entries[entry.key as usize & self.mask];
        if let Some(old) = slot {
            if old.key == entry.key && old.depth > entry.depth && entry.bound != Bound::Exact {
                return;
            }
        }
        *slot = Some(entry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Variant;

    #[test]
    fn keys_follow_moves_in_every_variant() {
        for variant in Variant::ALL {
            let mut pos = variant.start();
            let mut key = key_of(&pos);
            for ply in 0..60 {
                let moves = pos.legal_moves();
                let Some(mv) = moves.get((ply * 7919) % moves.len().max(1)).copied() else {
                    break;
                };
                key = key_after(key, &mv);
                pos = pos.after(&mv);
                assert_eq!(key, key_of(&pos), "{variant} after {mv}");
            }
        }
    }
}

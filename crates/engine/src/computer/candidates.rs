//! The moves the search looks at, and which of them are forcing.
//!
//! Classic trolls may capture any subset of the dwarfs around their landing square, so a troll
//! next to five dwarfs has 32 moves where one matters. The search keeps, for each landing
//! square, only the move that captures every dwarf there. Capturing a dwarf takes a point from
//! the dwarfs and a piece out of their lines, and it never opens a hurl onto the troll that was
//! not already there: the dwarf behind the captured one stands one square further off with a
//! line one shorter. So sparing a dwarf is worse in all but contrived positions, and pruning
//! the subsets shrinks the trolls' moves from hundreds to a few dozen. Likewise a step that
//! could capture but captures nothing is dropped (under the original rules too, where the
//! troll chooses which one dwarf to take, and every choice is kept).

use crate::game::{Move, Position, Side, Variant};

/// Appends the moves the search considers in `pos` to `out`. Every one is legal, and there is
/// at least one whenever the position has a legal move.
pub(crate) fn candidates(pos: &Position, out: &mut Vec<Move>) {
    let start = out.len();
    pos.generate(out);
    if pos.side_to_move() == Side::Dwarfs || pos.variant() == Variant::KoomValley {
        return;
    }
    let classic = pos.variant() == Variant::Classic;
    let mut i = start;
    while i < out.len() {
        let keep = match out[i] {
            Move::Troll { to, captures, .. } => {
                let around = pos.dwarf_mask_around(to);
                if classic {
                    captures == around
                } else {
                    !captures.is_empty() || around.is_empty()
                }
            }
            _ => true,
        };
        if keep {
            i += 1;
        } else {
            out.swap_remove(i);
        }
    }
}

/// Whether `mv` changes the balance at once: it captures, or in Koom Valley it moves the Rock
/// or brings a troll next to it. The look at captures after the last ply plays only these.
pub(crate) fn is_forcing(pos: &Position, mv: &Move) -> bool {
    if mv.capture_count() > 0 {
        return true;
    }
    if pos.variant() != Variant::KoomValley {
        return false;
    }
    match mv {
        Move::Rock { .. } => true,
        Move::Troll { to, .. } => to.is_adjacent(pos.stone()),
        _ => false,
    }
}

/// How many pieces `mv` captures, for ordering captures before quiet moves.
pub(crate) fn captures(mv: &Move) -> usize {
    mv.capture_count() as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_trolls_candidates_are_their_legal_moves_that_take_every_dwarf_around() {
        // Exactly the legal moves that take every dwarf around where they land (a quiet
        // step where there is none): one move for each landing square.
        let mut chance = crate::computer::Chance::new(5);
        let mut checked = 0;
        for _ in 0..6 {
            let mut pos = Variant::Classic.start();
            for _ in 0..80 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                if pos.side_to_move() == Side::Trolls {
                    let mut expected: Vec<Move> = legal
                        .iter()
                        .copied()
                        .filter(|m| match m {
                            Move::Troll { to, captures, .. } => {
                                *captures == pos.dwarf_mask_around(*to)
                            }
                            _ => false,
                        })
                        .collect();
                    let mut kept = Vec::new();
                    candidates(&pos, &mut kept);
                    kept.sort_by_key(|m| m.to_string());
                    expected.sort_by_key(|m| m.to_string());
                    assert_eq!(kept, expected, "{}", pos.fen());
                    checked += 1;
                }
                pos.make(&legal[chance.below(legal.len())]);
            }
        }
        assert!(checked > 200, "{checked} troll positions");
    }

    #[test]
    fn classic_trolls_keep_one_capture_per_landing() {
        // A troll on H8 (the stone on I8) steps to G8, beside dwarfs on F7, F8 and F9: 8 subsets.
        let pos = Position::from_fen(
            "5/7/9/11/13/15/5d9/5d1TR6/5d9/15/13/11/9/7/5 t",
            Variant::Classic,
        )
        .expect("a valid position");
        let mut all = pos.legal_moves();
        let mut kept = Vec::new();
        candidates(&pos, &mut kept);
        assert!(kept.len() < all.len());
        all.retain(|m| kept.contains(m));
        assert_eq!(all.len(), kept.len(), "every candidate is legal");
        // Each landing square appears once among the troll's moves.
        let mut landings: Vec<_> = kept.iter().map(|m| (m.from(), m.to())).collect();
        landings.sort();
        landings.dedup();
        assert_eq!(landings.len(), kept.len());
    }
}

//! Koom Valley Thud's moves: queen-like dwarfs that sandwich trolls, the Rock pushed by the
//! dwarfs, trolls that walk up to three squares or trample dwarfs.

use super::moves::{Around, Jumps, Move};
use super::position::{Cell, Position};
use super::side::Side;
use super::square::{step_index, Direction, Square};

/// How far a Koom Valley troll walks in one move.
pub const TROLL_REACH: u8 = 3;

/// Appends every legal Koom Valley move to `out`; none once a side has won.
pub(crate) fn generate(pos: &Position, out: &mut Vec<Move>) {
    if pos.objective_reached().is_some() {
        return;
    }
    match pos.side_to_move() {
        Side::Dwarfs => {
            for from in pos.dwarfs() {
                dwarf_moves_from(pos, from, out);
            }
            rock_moves(pos, out);
        }
        Side::Trolls => {
            for from in pos.trolls() {
                troll_moves_from(pos, from, out);
            }
        }
    }
}

/// The number of legal Koom Valley moves.
pub(crate) fn count(pos: &Position) -> u64 {
    let mut moves = Vec::new();
    generate(pos, &mut moves);
    moves.len() as u64
}

/// A dwarf's queen moves, each with the trolls it sandwiches.
pub(crate) fn dwarf_moves_from(pos: &Position, from: Square, out: &mut Vec<Move>) {
    for d in Direction::ALL {
        let mut at = from.index() as u8;
        loop {
            at = step_index(at, d);
            if pos.cells[at as usize] != Cell::Empty {
                break;
            }
            let to = Square::from_index_unchecked(at);
            out.push(Move::Dwarf {
                from,
                to,
                captures: sandwiched(pos, from, to),
            });
        }
    }
}

/// The trolls a dwarf arriving on `to` from `from` catches between itself and another dwarf.
pub(crate) fn sandwiched(pos: &Position, from: Square, to: Square) -> Around {
    let mut mask = 0u8;
    for (i, d) in Direction::ALL.into_iter().enumerate() {
        let next = step_index(to.index() as u8, d);
        if pos.cells[next as usize] != Cell::Troll {
            continue;
        }
        let beyond = step_index(next, d);
        // The mover has left `from`, so it cannot be the far side of its own sandwich.
        if pos.cells[beyond as usize] == Cell::Dwarf && beyond as usize != from.index() {
            mask |= 1 << i;
        }
    }
    Around(mask)
}

/// A troll's walks and tramples.
pub(crate) fn troll_moves_from(pos: &Position, from: Square, out: &mut Vec<Move>) {
    troll_walks(pos, from, out);
    tramples(pos, from, out);
}

/// The Rock moves one square onto an empty square, with a dwarf beside it before and after.
pub(crate) fn rock_moves(pos: &Position, out: &mut Vec<Move>) {
    let rock = pos.stone();
    if pos.dwarf_neighbours[rock.index()] == 0 {
        return;
    }
    for d in Direction::ALL {
        let at = step_index(rock.index() as u8, d);
        if pos.cells[at as usize] == Cell::Empty && pos.dwarf_neighbours[at as usize] > 0 {
            out.push(Move::Rock {
                from: rock,
                to: Square::from_index_unchecked(at),
            });
        }
    }
}

/// A troll walks 1 to 3 squares in a straight line over empty squares.
fn troll_walks(pos: &Position, from: Square, out: &mut Vec<Move>) {
    for d in Direction::ALL {
        let mut at = from.index() as u8;
        for _ in 0..TROLL_REACH {
            at = step_index(at, d);
            if pos.cells[at as usize] != Cell::Empty {
                break;
            }
            out.push(Move::Troll {
                from,
                to: Square::from_index_unchecked(at),
                captures: Around::NONE,
            });
        }
    }
}

/// Every trample from `from`: each prefix of each chain of jumps is a move of its own.
fn tramples(pos: &Position, from: Square, out: &mut Vec<Move>) {
    let mut cells = pos.cells;
    cells[from.index()] = Cell::Empty;
    extend_trample(&mut cells, from, from, Jumps::default(), out);
}

fn extend_trample(
    cells: &mut [Cell; 256],
    from: Square,
    at: Square,
    jumps: Jumps,
    out: &mut Vec<Move>,
) {
    for d in Direction::ALL {
        let over = step_index(at.index() as u8, d);
        if cells[over as usize] != Cell::Dwarf {
            continue;
        }
        let landing = step_index(over, d);
        if cells[landing as usize] != Cell::Empty {
            continue;
        }
        // Each jump needs a dwarf of its own and a battle starts with 16, so this never stops
        // a real trample short.
        let Some(next) = jumps.then(d) else {
            continue;
        };
        out.push(Move::Trample { from, jumps: next });
        // The jumped dwarf is gone at once: later jumps may land on its square.
        cells[over as usize] = Cell::Empty;
        extend_trample(
            cells,
            from,
            Square::from_index_unchecked(landing),
            next,
            out,
        );
        cells[over as usize] = Cell::Dwarf;
    }
}

//! A position: where the pieces stand and whose turn it is.

use std::fmt;

use super::moves::Move;
use super::piece::Piece;
use super::score::Score;
use super::side::Side;
use super::square::{step_index, Direction, Square};
use super::square_set::SquareSet;
use super::variant::{Variant, KOOM_VALLEY_TROLLS_AROUND_ROCK};

/// The contents of one padded board index. `OffBoard` covers the cut corners and the padding.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub(crate) enum Cell {
    Empty,
    Dwarf,
    Troll,
    Stone,
    OffBoard,
}

impl Cell {
    const fn of(piece: Piece) -> Cell {
        match piece {
            Piece::Dwarf => Cell::Dwarf,
            Piece::Troll => Cell::Troll,
            Piece::Stone => Cell::Stone,
        }
    }
}

const EMPTY_BOARD: [Cell; 256] = {
    let mut cells = [Cell::OffBoard; 256];
    let mut i = 0;
    while i < 256 {
        if Square::from_index(i as u8).is_some() {
            cells[i] = Cell::Empty;
        }
        i += 1;
    }
    cells
};

/// A position of a battle: pieces, the side to move and the rules in force.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    variant: Variant,
    side: Side,
    stone: Square,
    dwarfs: SquareSet,
    trolls: SquareSet,
    /// The board as a mailbox over padded indices, so stepping needs no bounds checks.
    pub(crate) cells: [Cell; 256],
    /// For every padded index, how many dwarfs stand on its eight neighbours: a troll landing
    /// there has `2^n` ways to capture, so counting moves needs no scan of the neighbours.
    pub(crate) dwarf_neighbours: [u8; 256],
}

impl Position {
    /// The start position of a battle under `variant`, the dwarfs to move.
    pub fn start(variant: Variant) -> Position {
        Position::from_fen(variant.start_fen(), variant)
            .expect("the start layouts are valid positions")
    }

    /// A board holding only the stone, `side` to move.
    pub(crate) fn with_stone(variant: Variant, stone: Square, side: Side) -> Position {
        let mut cells = EMPTY_BOARD;
        cells[stone.index()] = Cell::Stone;
        Position {
            variant,
            side,
            stone,
            dwarfs: SquareSet::EMPTY,
            trolls: SquareSet::EMPTY,
            cells,
            dwarf_neighbours: [0; 256],
        }
    }

    /// The rules this position is played under.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The same pieces under other rules.
    pub fn with_variant(mut self, variant: Variant) -> Position {
        self.variant = variant;
        self
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Side {
        self.side
    }

    /// The same pieces with the other side to move.
    pub fn with_side_to_move(mut self, side: Side) -> Position {
        self.side = side;
        self
    }

    /// Where the Thudstone (or Rock) stands.
    pub fn stone(&self) -> Square {
        self.stone
    }

    pub fn dwarfs(&self) -> SquareSet {
        self.dwarfs
    }

    pub fn trolls(&self) -> SquareSet {
        self.trolls
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        match self.cells[sq.index()] {
            Cell::Dwarf => Some(Piece::Dwarf),
            Cell::Troll => Some(Piece::Troll),
            Cell::Stone => Some(Piece::Stone),
            Cell::Empty | Cell::OffBoard => None,
        }
    }

    pub fn is_empty(&self, sq: Square) -> bool {
        self.cells[sq.index()] == Cell::Empty
    }

    /// The dwarfs on the squares around `sq`.
    pub fn dwarfs_around(&self, sq: Square) -> SquareSet {
        // The board's border cells are off-board, so stepping never leaves the array.
        let mut around = SquareSet::EMPTY;
        for d in Direction::ALL {
            let n = step_index(sq.index() as u8, d);
            if self.cells[n as usize] == Cell::Dwarf {
                around.insert(Square::from_index_unchecked(n));
            }
        }
        around
    }

    /// Points on the board: 1 per dwarf for the dwarfs, 4 per troll for the trolls.
    pub fn score(&self) -> Score {
        Score {
            dwarfs: self.dwarfs.len() as u32,
            trolls: 4 * self.trolls.len() as u32,
        }
    }

    /// In Koom Valley, the side that has just reached its objective, if any. A won position
    /// has no legal moves.
    pub fn objective_reached(&self) -> Option<Side> {
        if !self.variant.wins_by_objective() {
            return None;
        }
        match self.side {
            // The trolls just moved: three of them around the Rock win.
            Side::Dwarfs => {
                let around = Direction::ALL
                    .iter()
                    .filter(|&&d| self.stone.step(d).is_some_and(|n| self.trolls.contains(n)))
                    .count();
                (around >= KOOM_VALLEY_TROLLS_AROUND_ROCK).then_some(Side::Trolls)
            }
            // The dwarfs just moved: the Rock on the far side wins.
            Side::Trolls => self
                .variant
                .goal_squares()
                .contains(self.stone)
                .then_some(Side::Dwarfs),
        }
    }

    /// Places `piece` on the empty square `sq`.
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert_eq!(self.cells[sq.index()], Cell::Empty);
        self.cells[sq.index()] = Cell::of(piece);
        match piece {
            Piece::Dwarf => {
                self.dwarfs.insert(sq);
                self.count_dwarf_neighbour(sq, 1);
            }
            Piece::Troll => self.trolls.insert(sq),
            Piece::Stone => self.stone = sq,
        }
    }

    /// Takes the piece off `sq` (the stone is never taken off, only moved).
    fn take(&mut self, sq: Square) {
        match self.cells[sq.index()] {
            Cell::Dwarf => {
                self.dwarfs.remove(sq);
                self.count_dwarf_neighbour(sq, u8::MAX);
            }
            Cell::Troll => self.trolls.remove(sq),
            _ => {}
        }
        self.cells[sq.index()] = Cell::Empty;
    }

    #[inline]
    fn count_dwarf_neighbour(&mut self, sq: Square, change: u8) {
        let i = sq.index() as u8;
        for d in Direction::ALL {
            let n = step_index(i, d) as usize;
            self.dwarf_neighbours[n] = self.dwarf_neighbours[n].wrapping_add(change);
        }
    }

    #[inline]
    fn relocate(&mut self, from: Square, to: Square) {
        let piece = self.piece_at(from).expect("a move starts from a piece");
        if piece == Piece::Stone {
            self.cells[from.index()] = Cell::Empty;
            self.cells[to.index()] = Cell::Stone;
            self.stone = to;
        } else {
            self.take(from);
            self.put(to, piece);
        }
    }

    /// Plays `mv`, which must be legal here; [`Position::unmake`] reverses it.
    pub(crate) fn make(&mut self, mv: &Move) {
        match *mv {
            Move::Dwarf { from, to, captures } => {
                self.relocate(from, to);
                for sq in captures.squares(to) {
                    self.take(sq);
                }
            }
            Move::Hurl { from, to } => {
                self.take(to);
                self.relocate(from, to);
            }
            Move::Troll { from, to, captures } => {
                self.relocate(from, to);
                for sq in captures.squares(to) {
                    self.take(sq);
                }
            }
            Move::Rock { from, to } => self.relocate(from, to),
            Move::Trample { from, jumps } => {
                self.take(from);
                let mut at = from;
                for d in jumps.iter() {
                    let over = at.step(d).expect("a trample jumps over a square");
                    self.take(over);
                    at = over.step(d).expect("a trample lands on a square");
                }
                self.put(at, Piece::Troll);
            }
        }
        self.side = self.side.opposite();
    }

    /// Takes back `mv`, the last move made with [`Position::make`].
    pub(crate) fn unmake(&mut self, mv: &Move) {
        self.side = self.side.opposite();
        match *mv {
            Move::Dwarf { from, to, captures } => {
                for sq in captures.squares(to) {
                    self.put(sq, Piece::Troll);
                }
                self.relocate(to, from);
            }
            Move::Hurl { from, to } => {
                self.relocate(to, from);
                self.put(to, Piece::Troll);
            }
            Move::Troll { from, to, captures } => {
                for sq in captures.squares(to) {
                    self.put(sq, Piece::Dwarf);
                }
                self.relocate(to, from);
            }
            Move::Rock { from, to } => self.relocate(to, from),
            Move::Trample { from, jumps } => {
                // The troll may have landed on a square it jumped earlier, so lift it first.
                self.take(jumps.landing(from));
                for sq in jumps.jumped_squares(from) {
                    self.put(sq, Piece::Dwarf);
                }
                self.put(from, Piece::Troll);
            }
        }
    }

    /// The position after `mv`, which must be one of [`Position::legal_moves`].
    pub fn after(&self, mv: &Move) -> Position {
        let mut next = self.clone();
        next.make(mv);
        next
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.variant, self)
    }
}

// Here rather than in variant.rs, so that variant.rs needs no `Position` and the two files do
// not import each other.
impl Variant {
    /// The start position of a battle: [`Position::start`].
    pub fn start(self) -> Position {
        Position::start(self)
    }
}

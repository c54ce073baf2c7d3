//! Sets of squares as a 256-bit board (one bit per padded square index).

use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

use super::square::{Direction, Square};

/// A set of squares. Only playable squares are ever members.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SquareSet([u64; 4]);

/// Every playable square.
const ALL_SQUARES: SquareSet = {
    let mut words = [0u64; 4];
    let mut i = 0usize;
    while i < 256 {
        if Square::from_index(i as u8).is_some() {
            words[i / 64] |= 1 << (i % 64);
        }
        i += 1;
    }
    SquareSet(words)
};

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet([0; 4]);

    /// Every playable square.
    pub const fn all() -> SquareSet {
        ALL_SQUARES
    }

    /// A set of one square.
    #[inline]
    pub const fn single(sq: Square) -> SquareSet {
        let mut words = [0u64; 4];
        words[sq.index() / 64] = 1 << (sq.index() % 64);
        SquareSet(words)
    }

    #[inline]
    pub const fn contains(&self, sq: Square) -> bool {
        self.0[sq.index() / 64] & (1 << (sq.index() % 64)) != 0
    }

    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0[sq.index() / 64] |= 1 << (sq.index() % 64);
    }

    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0[sq.index() / 64] &= !(1 << (sq.index() % 64));
    }

    /// Adds `sq` if absent, removes it if present.
    #[inline]
    pub fn toggle(&mut self, sq: Square) {
        self.0[sq.index() / 64] ^= 1 << (sq.index() % 64);
    }

    #[inline]
    pub const fn len(&self) -> usize {
        (self.0[0].count_ones()
            + self.0[1].count_ones()
            + self.0[2].count_ones()
            + self.0[3].count_ones()) as usize
    }

    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.0[0] | self.0[1] | self.0[2] | self.0[3] == 0
    }

    /// The squares in column order (A1 … O10), the canonical order of capture lists.
    #[inline]
    pub fn iter(&self) -> SquareSetIter {
        SquareSetIter {
            words: self.0,
            word: 0,
        }
    }

    /// The first square in column order: the lowest padded index, so also the nearest square
    /// of a ray that runs towards higher indices.
    #[inline]
    pub fn first(&self) -> Option<Square> {
        (0..4).find(|&w| self.0[w] != 0).map(|w| {
            Square::from_index_unchecked((w * 64) as u8 + self.0[w].trailing_zeros() as u8)
        })
    }

    /// The last square in column order: the highest padded index, so also the nearest square
    /// of a ray that runs towards lower indices.
    #[inline]
    pub(crate) fn last(&self) -> Option<Square> {
        (0..4).rev().find(|&w| self.0[w] != 0).map(|w| {
            Square::from_index_unchecked((w * 64) as u8 + 63 - self.0[w].leading_zeros() as u8)
        })
    }

    /// Every square moved one step in direction `d`; those that leave the board are dropped.
    /// The padding around the board (row and column 15) keeps a step from wrapping onto
    /// another playable square, as in [`super::square::step_index`].
    #[inline]
    pub(crate) fn stepped(&self, d: Direction) -> SquareSet {
        let w = self.0;
        let mut out = [0u64; 4];
        let delta = d.delta();
        let s = u32::from(delta.unsigned_abs());
        if delta > 0 {
            out[0] = w[0] << s;
            for i in 1..4 {
                out[i] = w[i] << s | w[i - 1] >> (64 - s);
            }
        } else {
            for i in 0..3 {
                out[i] = w[i] >> s | w[i + 1] << (64 - s);
            }
            out[3] = w[3] >> s;
        }
        SquareSet(out) & ALL_SQUARES
    }
}

/// Iterator over a [`SquareSet`] in column order.
pub struct SquareSetIter {
    words: [u64; 4],
    word: usize,
}

impl Iterator for SquareSetIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        while self.word < 4 {
            let w = self.words[self.word];
            if w != 0 {
                let bit = w.trailing_zeros() as usize;
                self.words[self.word] = w & (w - 1);
                return Square::from_index((self.word * 64 + bit) as u8);
            }
            self.word += 1;
        }
        None
    }
}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareSetIter;
    fn into_iter(self) -> SquareSetIter {
        self.iter()
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for sq in iter {
            set.insert(sq);
        }
        set
    }
}

macro_rules! set_op {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl $trait for SquareSet {
            type Output = SquareSet;
            #[inline]
            fn $method(self, rhs: SquareSet) -> SquareSet {
                SquareSet([
                    self.0[0] $op rhs.0[0],
                    self.0[1] $op rhs.0[1],
                    self.0[2] $op rhs.0[2],
                    self.0[3] $op rhs.0[3],
                ])
            }
        }
        impl $assign_trait for SquareSet {
            #[inline]
            fn $assign_method(&mut self, rhs: SquareSet) {
                *self = *self $op rhs;
            }
        }
    };
}

set_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
set_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);

impl Sub for SquareSet {
    type Output = SquareSet;
    #[inline]
    fn sub(self, rhs: SquareSet) -> SquareSet {
        self & !rhs
    }
}

impl Not for SquareSet {
    type Output = SquareSet;
    /// The playable squares not in the set.
    #[inline]
    fn not(self) -> SquareSet {
        let all = ALL_SQUARES.0;
        SquareSet([
            !self.0[0] & all[0],
            !self.0[1] & all[1],
            !self.0[2] & all[2],
            !self.0[3] & all[3],
        ])
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl fmt::Display for SquareSet {
    /// Comma-separated squares in column order: `E5, F5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, sq) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn set_operations_and_column_order() {
        let mut set = SquareSet::EMPTY;
        assert!(set.is_empty());
        for name in ["F5", "E5", "E10", "O8"] {
            set.insert(sq(name));
        }
        assert_eq!(set.len(), 4);
        assert_eq!(set.to_string(), "E5, E10, F5, O8");
        set.remove(sq("E10"));
        assert!(!set.contains(sq("E10")) && set.contains(sq("O8")));
        let other: SquareSet = [sq("O8"), sq("A6")].into_iter().collect();
        assert_eq!((set & other).to_string(), "O8");
        assert_eq!((set | other).len(), 4);
        assert_eq!((set - other).to_string(), "E5, F5");
        assert_eq!(SquareSet::all().len(), 165);
        assert_eq!((!set).len(), 162);
        assert_eq!(SquareSet::all().first(), Some(sq("A6")));
    }

    #[test]
    fn a_set_stepped_is_each_square_stepped() {
        let all = SquareSet::all();
        for d in Direction::ALL {
            let stepped: SquareSet = all.iter().filter_map(|sq| sq.step(d)).collect();
            assert_eq!(all.stepped(d), stepped, "{d:?}");
            for sq in all {
                let one = SquareSet::single(sq).stepped(d);
                assert_eq!(one.first(), sq.step(d), "{sq} {d:?}");
                assert!(one.len() <= 1);
            }
        }
    }

    #[test]
    fn the_first_and_last_square_are_found_in_every_word() {
        assert_eq!(SquareSet::EMPTY.first(), None);
        assert_eq!(SquareSet::EMPTY.last(), None);
        // One square in each of the four words of the set, and pairs across words.
        let squares: Vec<Square> = Square::all().collect();
        for &a in &squares {
            let one = SquareSet::single(a);
            assert_eq!((one.first(), one.last()), (Some(a), Some(a)));
        }
        for pair in squares.windows(40).step_by(7) {
            let (a, b) = (pair[0], pair[39]);
            let two: SquareSet = [a, b].into_iter().collect();
            assert_eq!((two.first(), two.last()), (Some(a), Some(b)));
        }
        assert_eq!(SquareSet::all().first(), SquareSet::all().iter().next());
        assert_eq!(SquareSet::all().last(), SquareSet::all().iter().last());
    }
}

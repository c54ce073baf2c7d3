//! Moves of every variant, and their canonical notation (`dD4-G7xG7`, `TG7-F6xE5xF5`).

use std::fmt;

use super::piece::Piece;
use super::square::{Direction, Square};
use super::square_set::SquareSet;

/// A subset of the eight squares around a landing square, as a direction mask: bit `i` stands
/// for the neighbour in direction `Direction::ALL[i]`. Captures always lie around the landing
/// square, so this keeps a move small and its subsets cheap to enumerate.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Around(pub u8);

impl Around {
    pub const NONE: Around = Around(0);

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// The squares these directions point to from `centre`.
    pub fn squares(self, centre: Square) -> impl Iterator<Item = Square> {
        Direction::ALL
            .into_iter()
            .enumerate()
            .filter(move |(i, _)| self.0 & (1 << i) != 0)
            .filter_map(move |(_, d)| centre.step(d))
    }

    /// The mask for `squares` around `centre`, or `None` if one of them is not a neighbour.
    pub fn from_squares(
        centre: Square,
        squares: impl IntoIterator<Item = Square>,
    ) -> Option<Around> {
        let mut mask = 0u8;
        for sq in squares {
            let i = Direction::ALL
                .iter()
                .position(|&d| centre.step(d) == Some(sq))?;
            mask |= 1 << i;
        }
        Some(Around(mask))
    }
}

/// The most jumps one trample can hold. Each jump removes a dwarf and Koom Valley starts with
/// 16, so no battle can need more.
pub const MAX_JUMPS: usize = 21;

/// The jumps of a trample, in order, packed three bits a direction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Jumps {
    len: u8,
    dirs: u64,
}

impl Jumps {
    /// The jumps so far followed by one more in direction `d`, if there is room.
    pub fn then(self, d: Direction) -> Option<Jumps> {
        let len = self.len as usize;
        if len >= MAX_JUMPS {
            return None;
        }
        Some(Jumps {
            len: self.len + 1,
            dirs: self.dirs | ((d.number() as u64) << (3 * len)),
        })
    }

    pub fn len(self) -> usize {
        self.len as usize
    }

    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The directions of the jumps, in order.
    pub fn iter(self) -> impl Iterator<Item = Direction> {
        (0..self.len as usize).map(move |i| Direction::ALL[((self.dirs >> (3 * i)) & 7) as usize])
    }

    /// The squares the troll lands on, in order, starting from `from`.
    pub fn landings(self, from: Square) -> impl Iterator<Item = Square> {
        let mut at = Some(from);
        self.iter()
            .map(move |d| {
                at = at.and_then(|s| s.step(d)).and_then(|s| s.step(d));
                at
            })
            .map_while(|s| s)
    }

    /// The square the troll ends on.
    pub fn landing(self, from: Square) -> Square {
        self.landings(from).last().unwrap_or(from)
    }

    /// The squares jumped over (each held a dwarf, which the trample removes).
    pub fn jumped_squares(self, from: Square) -> impl Iterator<Item = Square> {
        let mut at = Some(from);
        self.iter()
            .map(move |d| {
                let over = at.and_then(|s| s.step(d));
                at = over.and_then(|s| s.step(d));
                over
            })
            .map_while(|s| s)
    }
}

/// One move of any variant.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A dwarf moves like a chess queen. In Koom Valley it captures the trolls it sandwiches
    /// against another dwarf (`captures`, around `to`); elsewhere `captures` is empty.
    Dwarf {
        from: Square,
        to: Square,
        captures: Around,
    },
    /// A dwarf is hurled along its line onto a troll at `to`, capturing it.
    Hurl { from: Square, to: Square },
    /// A troll steps one square, or is shoved along its line, and captures `captures`, dwarfs
    /// around `to`. A one-square shove is the step with the same captures.
    Troll {
        from: Square,
        to: Square,
        captures: Around,
    },
    /// Koom Valley: the dwarfs move the Rock one square.
    Rock { from: Square, to: Square },
    /// Koom Valley: a troll jumps over dwarfs, removing each one it jumps.
    Trample { from: Square, jumps: Jumps },
}

impl Move {
    /// The piece that moves.
    pub fn piece(&self) -> Piece {
        match self {
            Move::Dwarf { .. } | Move::Hurl { .. } => Piece::Dwarf,
            Move::Troll { .. } | Move::Trample { .. } => Piece::Troll,
            Move::Rock { .. } => Piece::Stone,
        }
    }

    /// Where the moving piece starts.
    pub fn from(&self) -> Square {
        match *self {
            Move::Dwarf { from, .. }
            | Move::Hurl { from, .. }
            | Move::Troll { from, .. }
            | Move::Rock { from, .. }
            | Move::Trample { from, .. } => from,
        }
    }

    /// Where the moving piece ends.
    pub fn to(&self) -> Square {
        match *self {
            Move::Dwarf { to, .. }
            | Move::Hurl { to, .. }
            | Move::Troll { to, .. }
            | Move::Rock { to, .. } => to,
            Move::Trample { from, jumps } => jumps.landing(from),
        }
    }

    /// The squares whose pieces this move captures.
    pub fn captured(&self) -> SquareSet {
        match *self {
            Move::Dwarf { to, captures, .. } | Move::Troll { to, captures, .. } => {
                captures.squares(to).collect()
            }
            Move::Hurl { to, .. } => SquareSet::single(to),
            Move::Rock { .. } => SquareSet::EMPTY,
            Move::Trample { from, jumps } => jumps.jumped_squares(from).collect(),
        }
    }

    /// How many pieces this move captures; cheaper than counting [`Move::captured`], for
    /// searches that ask it of every move.
    pub fn capture_count(&self) -> u32 {
        match *self {
            Move::Dwarf { captures, .. } | Move::Troll { captures, .. } => captures.len(),
            Move::Hurl { .. } => 1,
            Move::Rock { .. } => 0,
            Move::Trample { jumps, .. } => jumps.len() as u32,
        }
    }

    /// The squares the piece passes over or lands on, in order, excluding `from`; a trample
    /// lists the squares it jumps over as well as its landings.
    pub fn path(&self) -> Vec<Square> {
        match *self {
            Move::Trample { from, jumps } => {
                let mut path = Vec::with_capacity(2 * jumps.len());
                for (over, landing) in jumps.jumped_squares(from).zip(jumps.landings(from)) {
                    path.push(over);
                    path.push(landing);
                }
                path
            }
            _ => {
                let (from, to) = (self.from(), self.to());
                let mut path = Vec::new();
                if let Some((d, n)) = from.line_to(to) {
                    let mut at = from;
                    for _ in 0..n {
                        match at.step(d) {
                            Some(next) => at = next,
                            None => break,
                        }
                        path.push(at);
                    }
                }
                path
            }
        }
    }
}

impl fmt::Display for Move {
    /// Canonical notation: piece letter, upper-case squares, captures in column order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.piece().letter(), self.from())?;
        match *self {
            Move::Trample { from, jumps } => {
                for landing in jumps.landings(from) {
                    write!(f, "-{landing}")?;
                }
            }
            _ => write!(f, "-{}", self.to())?,
        }
        for sq in self.captured() {
            write!(f, "x{sq}")?;
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

    /// Over battles of every variant that take whatever they can: `capture_count` agrees with
    /// `captured`, and in classic and original `hurls` lists exactly the dwarfs' hurls.
    #[test]
    fn capture_counts_and_hurls_agree_with_the_legal_moves() {
        use crate::game::{Side, Variant};
        for variant in Variant::ALL {
            let mut captures_seen = 0;
            let mut hurl_positions = 0;
            for seed in 0..6usize {
                let mut pos = variant.start();
                for ply in 0..300 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for m in &moves {
                        assert_eq!(m.capture_count() as usize, m.captured().len(), "{m}");
                    }
                    if variant != Variant::KoomValley && pos.side_to_move() == Side::Dwarfs {
                        let mut hurls = Vec::new();
                        pos.hurls(&mut hurls);
                        let mut expected: Vec<Move> = moves
                            .iter()
                            .filter(|m| matches!(m, Move::Hurl { .. }))
                            .copied()
                            .collect();
                        let key = |m: &Move| (m.from(), m.to());
                        hurls.sort_by_key(key);
                        expected.sort_by_key(key);
                        assert_eq!(hurls, expected, "{pos}");
                        hurl_positions += usize::from(!hurls.is_empty());
                    }
                    let capture = moves.iter().find(|m| m.capture_count() > 0);
                    captures_seen += usize::from(capture.is_some());
                    let mv = capture
                        .copied()
                        .unwrap_or(moves[(ply * 7919 + seed * 31) % moves.len()]);
                    pos = pos.after(&mv);
                }
            }
            assert!(captures_seen > 10, "{variant}: {captures_seen} captures");
            if variant != Variant::KoomValley {
                assert!(hurl_positions > 3, "{variant}: {hurl_positions} hurls");
            }
        }
    }

    #[test]
    fn moves_print_in_canonical_notation() {
        let hurl = Move::Hurl {
            from: sq("D4"),
            to: sq("G7"),
        };
        assert_eq!(hurl.to_string(), "dD4-G7xG7");
        let f6 = sq("F6");
        let troll = Move::Troll {
            from: sq("G7"),
            to: f6,
            captures: Around::from_squares(f6, [sq("F5"), sq("E5")]).unwrap(),
        };
        assert_eq!(troll.to_string(), "TG7-F6xE5xF5");
        let jumps = Jumps::default()
            .then(Direction::NorthEast)
            .and_then(|j| j.then(Direction::NorthEast))
            .unwrap();
        let trample = Move::Trample {
            from: sq("F3"),
            jumps,
        };
        assert_eq!(trample.to_string(), "TF3-H5-J7xG4xI6");
        assert_eq!(trample.to(), sq("J7"));
        let rock = Move::Rock {
            from: sq("H8"),
            to: sq("H9"),
        };
        assert_eq!(rock.to_string(), "RH8-H9");
        let c8 = sq("C8");
        let sandwich = Move::Dwarf {
            from: sq("A6"),
            to: c8,
            captures: Around::from_squares(c8, [sq("B7")]).unwrap(),
        };
        assert_eq!(sandwich.to_string(), "dA6-C8xB7");
    }

    #[test]
    fn around_only_names_neighbours() {
        assert!(Around::from_squares(sq("F6"), [sq("F8")]).is_none());
        let mask = Around::from_squares(sq("H8"), [sq("H9"), sq("G7")]).unwrap();
        let squares: SquareSet = mask.squares(sq("H8")).collect();
        assert_eq!(squares.to_string(), "G7, H9");
    }
}

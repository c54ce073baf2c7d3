//! Legal moves of classic and original Thud, and fast counting of them for perft.
//!
//! Koom Valley's moves live in [`super::koom_valley`]; this file dispatches to it.

use super::koom_valley;
use super::moves::{Around, Move};
use super::position::{Cell, Position};
use super::side::Side;
use super::square::{step_index, Direction, Square};
use super::variant::Variant;

impl Position {
    /// Every legal move of the side to move, each distinct move once.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(256);
        self.generate(&mut moves);
        moves
    }

    /// The legal moves of the piece on `from` (none if it is not the mover's).
    pub fn legal_moves_from(&self, from: Square) -> Vec<Move> {
        let mut moves = Vec::new();
        self.piece_moves(from, &mut moves);
        moves
    }

    /// Whether the side to move has any legal move; a battle ends when it has none. Stops at
    /// the first piece that can move.
    pub fn has_legal_move(&self) -> bool {
        if self.objective_reached().is_some() {
            return false;
        }
        let mut moves = Vec::new();
        let pieces = match self.side_to_move() {
            Side::Dwarfs => self.dwarfs(),
            Side::Trolls => self.trolls(),
        };
        let rock = (self.variant() == Variant::KoomValley && self.side_to_move() == Side::Dwarfs)
            .then(|| self.stone());
        pieces.iter().chain(rock).any(|from| {
            self.piece_moves(from, &mut moves);
            !moves.is_empty()
        })
    }

    /// Appends the legal moves of the piece on `from`, if it is the side to move's.
    fn piece_moves(&self, from: Square, out: &mut Vec<Move>) {
        let koom_valley = self.variant() == Variant::KoomValley;
        if koom_valley && self.objective_reached().is_some() {
            return;
        }
        match (self.cells[from.index()], self.side_to_move()) {
            (Cell::Dwarf, Side::Dwarfs) if koom_valley => {
                koom_valley::dwarf_moves_from(self, from, out)
            }
            (Cell::Dwarf, Side::Dwarfs) => self.dwarf_moves_from(from, out),
            (Cell::Stone, Side::Dwarfs) if koom_valley => koom_valley::rock_moves(self, out),
            (Cell::Troll, Side::Trolls) if koom_valley => {
                koom_valley::troll_moves_from(self, from, out)
            }
            (Cell::Troll, Side::Trolls) => self.troll_moves_from(from, out),
            _ => {}
        }
    }

    /// The number of legal moves, computed without listing them where the rules allow.
    pub fn count_legal_moves(&self) -> u64 {
        match (self.variant(), self.side_to_move()) {
            (Variant::KoomValley, _) => koom_valley::count(self),
            (_, Side::Dwarfs) => self.count_dwarf_moves(),
            (Variant::Classic, Side::Trolls) => self.count_troll_moves_classic(),
            (Variant::Original, Side::Trolls) => self.count_troll_moves_original(),
        }
    }

    /// Appends every legal move to `out`.
    pub(crate) fn generate(&self, out: &mut Vec<Move>) {
        match (self.variant(), self.side_to_move()) {
            (Variant::KoomValley, _) => koom_valley::generate(self, out),
            (_, Side::Dwarfs) => self.dwarf_moves(out),
            (_, Side::Trolls) => self.troll_moves(out),
        }
    }

    /// Dwarfs of classic and original: queen moves and hurls.
    fn dwarf_moves(&self, out: &mut Vec<Move>) {
        for from in self.dwarfs() {
            self.dwarf_moves_from(from, out);
        }
    }

    fn dwarf_moves_from(&self, from: Square, out: &mut Vec<Move>) {
        for d in Direction::ALL {
            let mut at = from.index() as u8;
            let mut distance = 0u8;
            loop {
                at = step_index(at, d);
                distance += 1;
                match self.cells[at as usize] {
                    Cell::Empty => out.push(Move::Dwarf {
                        from,
                        to: Square::from_index_unchecked(at),
                        captures: Around::NONE,
                    }),
                    Cell::Troll => {
                        if self.line_reaches(from, d.opposite(), Cell::Dwarf, distance) {
                            out.push(Move::Hurl {
                                from,
                                to: Square::from_index_unchecked(at),
                            });
                        }
                        break;
                    }
                    _ => break,
                }
            }
        }
    }

    /// Appends the dwarfs' hurls in classic and original, their only captures: found from each
    /// troll outwards, far quicker than listing every dwarf move, for searches that look at
    /// captures alone.
    pub(crate) fn hurls(&self, out: &mut Vec<Move>) {
        for troll in self.trolls() {
            for d in Direction::ALL {
                let mut at = troll.index() as u8;
                let mut distance = 0u8;
                loop {
                    at = step_index(at, d);
                    distance += 1;
                    match self.cells[at as usize] {
                        Cell::Empty => {}
                        Cell::Dwarf => {
                            // The dwarf travels back along `d`; its line runs on away from it.
                            let front = Square::from_index_unchecked(at);
                            if self.line_reaches(front, d, Cell::Dwarf, distance) {
                                out.push(Move::Hurl {
                                    from: front,
                                    to: troll,
                                });
                            }
                            break;
                        }
                        _ => break,
                    }
                }
            }
        }
    }

    fn count_dwarf_moves(&self) -> u64 {
        let mut total = 0;
        for from in self.dwarfs() {
            for d in Direction::ALL {
                let mut at = from.index() as u8;
                let mut distance = 0u8;
                loop {
                    at = step_index(at, d);
                    distance += 1;
                    match self.cells[at as usize] {
                        Cell::Empty => total += 1,
                        Cell::Troll => {
                            if self.line_reaches(from, d.opposite(), Cell::Dwarf, distance) {
                                total += 1;
                            }
                            break;
                        }
                        _ => break,
                    }
                }
            }
        }
        total
    }

    /// Whether the unbroken line of `kind` that starts on `front` and runs in direction `back`
    /// holds at least `needed` pieces (the front piece counts).
    #[inline]
    pub(crate) fn line_reaches(
        &self,
        front: Square,
        back: Direction,
        kind: Cell,
        needed: u8,
    ) -> bool {
        self.line_length(front, back, kind, needed) >= needed
    }

    /// The length of the unbroken line of `kind` from `front` running towards `back`, counted
    /// no further than `limit`.
    #[inline]
    pub(crate) fn line_length(&self, front: Square, back: Direction, kind: Cell, limit: u8) -> u8 {
        let mut length = 1;
        let mut at = front.index() as u8;
        while length < limit {
            at = step_index(at, back);
            if self.cells[at as usize] != kind {
                break;
            }
            length += 1;
        }
        length
    }

    /// The dwarfs around `sq` as a direction mask.
    #[inline]
    pub(crate) fn dwarf_mask_around(&self, sq: Square) -> Around {
        let mut mask = 0u8;
        for (i, d) in Direction::ALL.into_iter().enumerate() {
            if self.cells[step_index(sq.index() as u8, d) as usize] == Cell::Dwarf {
                mask |= 1 << i;
            }
        }
        Around(mask)
    }

    /// Trolls of classic and original: steps with captures, and shoves.
    fn troll_moves(&self, out: &mut Vec<Move>) {
        for from in self.trolls() {
            self.troll_moves_from(from, out);
        }
    }

    fn troll_moves_from(&self, from: Square, out: &mut Vec<Move>) {
        let classic = self.variant() == Variant::Classic;
        for d in Direction::ALL {
            let first = step_index(from.index() as u8, d);
            if self.cells[first as usize] != Cell::Empty {
                continue;
            }
            let to = Square::from_index_unchecked(first);
            let around = self.dwarf_mask_around(to);
            if classic {
                push_subsets(out, from, to, around, true);
            } else {
                // Original: after a step, capture at most one.
                out.push(Move::Troll {
                    from,
                    to,
                    captures: Around::NONE,
                });
                for bit in 0..8 {
                    if around.0 & (1 << bit) != 0 {
                        out.push(Move::Troll {
                            from,
                            to,
                            captures: Around(1 << bit),
                        });
                    }
                }
            }
            let line = self.line_length(from, d.opposite(), Cell::Troll, u8::MAX);
            if classic {
                // A one-square shove is a step already listed; longer shoves follow.
                self.push_shoves(out, from, d, line, 2, |out, to, around| {
                    push_subsets(out, from, to, around, false)
                });
            } else if line >= 2 {
                // Original: a shove captures every dwarf around it; one square on with a
                // single dwarf around is the step that captures it, already listed.
                self.push_shoves(out, from, d, line, 1, |out, to, around| {
                    if to != Square::from_index_unchecked(first) || around.len() >= 2 {
                        out.push(Move::Troll {
                            from,
                            to,
                            captures: around,
                        });
                    }
                });
            }
        }
    }

    /// Calls `push` for every landing square `k` squares on (`first_k..=line`) over empty
    /// squares that has at least one dwarf around it.
    fn push_shoves(
        &self,
        out: &mut Vec<Move>,
        from: Square,
        d: Direction,
        line: u8,
        first_k: u8,
        push: impl Fn(&mut Vec<Move>, Square, Around),
    ) {
        let mut at = from.index() as u8;
        for k in 1..=line {
            at = step_index(at, d);
            if self.cells[at as usize] != Cell::Empty {
                break;
            }
            if k < first_k {
                continue;
            }
            let to = Square::from_index_unchecked(at);
            let around = self.dwarf_mask_around(to);
            if !around.is_empty() {
                push(out, to, around);
            }
        }
    }

    /// Classic trolls counted: `2^n` subsets after a step next to `n` dwarfs, `2^n - 1` for a
    /// shove of two or more squares.
    fn count_troll_moves_classic(&self) -> u64 {
        let mut total = 0u64;
        for from in self.trolls() {
            let origin = from.index() as u8;
            for d in Direction::ALL {
                let mut at = step_index(origin, d);
                if self.cells[at as usize] != Cell::Empty {
                    continue;
                }
                total += 1 << self.dwarf_neighbours[at as usize];
                if self.cells[step_index(origin, d.opposite()) as usize] != Cell::Troll {
                    continue;
                }
                let line = self.line_length(from, d.opposite(), Cell::Troll, u8::MAX);
                for _ in 2..=line {
                    at = step_index(at, d);
                    if self.cells[at as usize] != Cell::Empty {
                        break;
                    }
                    total += (1u64 << self.dwarf_neighbours[at as usize]) - 1;
                }
            }
        }
        total
    }

    /// Original trolls counted: `1 + n` after a step, one per shove landing.
    fn count_troll_moves_original(&self) -> u64 {
        let mut total = 0u64;
        for from in self.trolls() {
            let origin = from.index() as u8;
            for d in Direction::ALL {
                let mut at = step_index(origin, d);
                if self.cells[at as usize] != Cell::Empty {
                    continue;
                }
                let n = self.dwarf_neighbours[at as usize] as u64;
                total += 1 + n;
                if self.cells[step_index(origin, d.opposite()) as usize] != Cell::Troll {
                    continue;
                }
                if n >= 2 {
                    total += 1;
                }
                let line = self.line_length(from, d.opposite(), Cell::Troll, u8::MAX);
                for _ in 2..=line {
                    at = step_index(at, d);
                    if self.cells[at as usize] != Cell::Empty {
                        break;
                    }
                    if self.dwarf_neighbours[at as usize] > 0 {
                        total += 1;
                    }
                }
            }
        }
        total
    }
}

/// Pushes a troll move for every subset of `around` (the empty one too if `with_none`).
fn push_subsets(out: &mut Vec<Move>, from: Square, to: Square, around: Around, with_none: bool) {
    let mask = around.0;
    let mut subset = mask;
    loop {
        if subset != 0 || with_none {
            out.push(Move::Troll {
                from,
                to,
                captures: Around(subset),
            });
        }
        if subset == 0 {
            break;
        }
        subset = (subset - 1) & mask;
    }
}

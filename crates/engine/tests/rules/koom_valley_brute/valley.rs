//! The independent Koom Valley move generator: its own 15×15 board of characters, its own
//! position reader and writer, its own directions, and the rules read straight from RULES.md §4.

use std::collections::BTreeSet;

use thud_engine::game::Side;

/// Squares in each row, bottom (row 1) to top (row 15), from RULES.md §1.
pub(super) const ROW_LENGTHS: [i32; 15] = [5, 7, 9, 11, 13, 15, 15, 15, 15, 15, 13, 11, 9, 7, 5];

/// (column step, row step) for the eight directions.
pub(super) const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The far side of the valley, F1 to J1, as (column, row) from 0.
pub(super) const GOALS: [(i32, i32); 5] = [(5, 0), (6, 0), (7, 0), (8, 0), (9, 0)];

pub(super) const EMPTY: u8 = b'.';
pub(super) const DWARF: u8 = b'd';
pub(super) const TROLL: u8 = b'T';
pub(super) const ROCK: u8 = b'R';

pub(super) fn on_board(column: i32, row: i32) -> bool {
    if !(0..15).contains(&row) {
        return false;
    }
    let cut = (15 - ROW_LENGTHS[row as usize]) / 2;
    column >= cut && column < 15 - cut
}

/// Appends the name of (column, row) to `text`: `H8`.
pub(super) fn push_name(text: &mut String, (column, row): (i32, i32)) {
    text.push((b'A' + column as u8) as char);
    if row >= 9 {
        text.push('1');
    }
    text.push((b'0' + ((row + 1) % 10) as u8) as char);
}

/// What a move is, for counting which rules the comparison exercised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    DwarfMove { captures: usize },
    RockMove,
    Walk,
    Trample { jumps: usize, turns: bool },
}

#[derive(Clone)]
pub(super) struct BruteMove {
    pub(super) text: String,
    pub(super) kind: Kind,
    pub(super) after: Valley,
}

/// A Koom Valley position: `cells[row][column]`, off-board cells hold a space.
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct Valley {
    pub(super) cells: [[u8; 15]; 15],
    pub(super) dwarfs_to_move: bool,
    /// Where the Rock stands, kept so a winner is found without a search.
    pub(super) rock: (i32, i32),
}

impl Valley {
    pub(super) fn read(text: &str) -> Valley {
        let mut fields = text.split_whitespace();
        let board = fields.next().expect("a board");
        let side = fields.next().expect("a side to move");
        let mut cells = [[b' '; 15]; 15];
        let rows: Vec<&str> = board.split('/').collect();
        assert_eq!(rows.len(), 15, "{text}");
        for (i, row_text) in rows.iter().enumerate() {
            let row = 14 - i as i32;
            let mut column = (15 - ROW_LENGTHS[row as usize]) / 2;
            let mut run = 0;
            for c in row_text.bytes().chain(std::iter::once(b'/')) {
                if c.is_ascii_digit() {
                    run = run * 10 + (c - b'0') as i32;
                    continue;
                }
                for _ in 0..run {
                    cells[row as usize][column as usize] = EMPTY;
                    column += 1;
                }
                run = 0;
                if c != b'/' {
                    assert!(matches!(c, DWARF | TROLL | ROCK), "{text}");
                    cells[row as usize][column as usize] = c;
                    column += 1;
                }
            }
            assert_eq!(column, 15 - (15 - ROW_LENGTHS[row as usize]) / 2, "{text}");
        }
        let mut valley = Valley {
            cells,
            dwarfs_to_move: side == "d",
            rock: (-1, -1),
        };
        valley.rock = valley.squares_holding(ROCK)[0];
        valley
    }

    pub(super) fn write(&self) -> String {
        let mut rows = Vec::new();
        for row in (0..15).rev() {
            let mut text = String::new();
            let mut run = 0;
            for column in 0..15 {
                if !on_board(column, row) {
                    continue;
                }
                match self.cells[row as usize][column as usize] {
                    EMPTY => run += 1,
                    piece => {
                        if run > 0 {
                            text += &run.to_string();
                            run = 0;
                        }
                        text.push(piece as char);
                    }
                }
            }
            if run > 0 {
                text += &run.to_string();
            }
            rows.push(text);
        }
        let side = if self.dwarfs_to_move { "d" } else { "t" };
        format!("{} {side}", rows.join("/"))
    }

    /// The cell at (column, row), or `None` off the board.
    pub(super) fn at(&self, column: i32, row: i32) -> Option<u8> {
        on_board(column, row).then(|| self.cells[row as usize][column as usize])
    }

    pub(super) fn put(&mut self, column: i32, row: i32, cell: u8) {
        self.cells[row as usize][column as usize] = cell;
        if cell == ROCK {
            self.rock = (column, row);
        }
    }

    pub(super) fn squares_holding(&self, piece: u8) -> Vec<(i32, i32)> {
        let mut found = Vec::new();
        for row in 0..15 {
            for column in 0..15 {
                if self.at(column, row) == Some(piece) {
                    found.push((column, row));
                }
            }
        }
        found
    }

    pub(super) fn neighbours_holding(&self, (column, row): (i32, i32), piece: u8) -> usize {
        DIRECTIONS
            .iter()
            .filter(|(dc, dr)| self.at(column + dc, row + dr) == Some(piece))
            .count()
    }

    /// The side that has just won. The side not to move made the last move: after a troll
    /// move three trolls beside the Rock win; after a dwarf move the Rock on a goal square wins.
    pub(super) fn winner(&self) -> Option<Side> {
        if self.dwarfs_to_move {
            (self.neighbours_holding(self.rock, TROLL) >= 3).then_some(Side::Trolls)
        } else {
            GOALS.contains(&self.rock).then_some(Side::Dwarfs)
        }
    }

    pub(super) fn moves(&self) -> Vec<BruteMove> {
        let mut out = Vec::new();
        if self.winner().is_some() {
            return out;
        }
        if self.dwarfs_to_move {
            self.dwarf_moves(&mut out);
            self.rock_moves(&mut out);
        } else {
            for troll in self.squares_holding(TROLL) {
                self.walks(troll, &mut out);
                let mut board = self.clone();
                board.put(troll.0, troll.1, EMPTY);
                board.dwarfs_to_move = true;
                board.tramples(troll, troll, &mut Vec::new(), &mut Vec::new(), &mut out);
            }
        }
        out
    }

    /// A dwarf slides like a queen over empty squares, then every troll beside it with a dwarf
    /// directly beyond is captured.
    pub(super) fn dwarf_moves(&self, out: &mut Vec<BruteMove>) {
        for (c, r) in self.squares_holding(DWARF) {
            for (dc, dr) in DIRECTIONS {
                let (mut tc, mut tr) = (c + dc, r + dr);
                while self.at(tc, tr) == Some(EMPTY) {
                    let mut after = self.clone();
                    after.put(c, r, EMPTY);
                    after.put(tc, tr, DWARF);
                    let mut captured = Vec::new();
                    for (ec, er) in DIRECTIONS {
                        if after.at(tc + ec, tr + er) == Some(TROLL)
                            && after.at(tc + 2 * ec, tr + 2 * er) == Some(DWARF)
                        {
                            captured.push((tc + ec, tr + er));
                        }
                    }
                    for &(xc, xr) in &captured {
                        after.put(xc, xr, EMPTY);
                    }
                    after.dwarfs_to_move = false;
                    out.push(BruteMove {
                        text: notation('d', &[(c, r), (tc, tr)], &captured),
                        kind: Kind::DwarfMove {
                            captures: captured.len(),
                        },
                        after,
                    });
                    tc += dc;
                    tr += dr;
                }
            }
        }
    }

    /// The Rock goes one square onto an empty square, with a dwarf beside it before and after.
    pub(super) fn rock_moves(&self, out: &mut Vec<BruteMove>) {
        let (c, r) = self.rock;
        if self.neighbours_holding((c, r), DWARF) == 0 {
            return;
        }
        for (dc, dr) in DIRECTIONS {
            let (tc, tr) = (c + dc, r + dr);
            if self.at(tc, tr) != Some(EMPTY) {
                continue;
            }
            let mut after = self.clone();
            after.put(c, r, EMPTY);
            after.put(tc, tr, ROCK);
            if after.neighbours_holding((tc, tr), DWARF) == 0 {
                continue;
            }
            after.dwarfs_to_move = false;
            out.push(BruteMove {
                text: notation('R', &[(c, r), (tc, tr)], &[]),
                kind: Kind::RockMove,
                after,
            });
        }
    }

    /// A troll walks 1, 2 or 3 squares in a straight line over empty squares.
    pub(super) fn walks(&self, (c, r): (i32, i32), out: &mut Vec<BruteMove>) {
        for (dc, dr) in DIRECTIONS {
            for k in 1..=3 {
                let (tc, tr) = (c + k * dc, r + k * dr);
                if self.at(tc, tr) != Some(EMPTY) {
                    break;
                }
                let mut after = self.clone();
                after.put(c, r, EMPTY);
                after.put(tc, tr, TROLL);
                after.dwarfs_to_move = true;
                out.push(BruteMove {
                    text: notation('T', &[(c, r), (tc, tr)], &[]),
                    kind: Kind::Walk,
                    after,
                });
            }
        }
    }

    /// Jumps from `at` over a dwarf beside it onto the empty square beyond, removing the dwarf
    /// at once; every chain of jumps is a move, and each may go on. `self` is the board with the
    /// troll lifted off (it has left its square) and the dwarfs jumped so far removed.
    pub(super) fn tramples(
        &self,
        start: (i32, i32),
        at: (i32, i32),
        path: &mut Vec<(i32, i32)>,
        jumped: &mut Vec<(i32, i32)>,
        out: &mut Vec<BruteMove>,
    ) {
        for (dc, dr) in DIRECTIONS {
            let over = (at.0 + dc, at.1 + dr);
            let landing = (at.0 + 2 * dc, at.1 + 2 * dr);
            if self.at(over.0, over.1) != Some(DWARF)
                || self.at(landing.0, landing.1) != Some(EMPTY)
            {
                continue;
            }
            let mut board = self.clone();
            board.put(over.0, over.1, EMPTY);
            path.push(landing);
            jumped.push(over);
            let mut after = board.clone();
            after.put(landing.0, landing.1, TROLL);
            let mut squares = vec![start];
            squares.extend(path.iter().copied());
            out.push(BruteMove {
                text: notation('T', &squares, jumped),
                kind: Kind::Trample {
                    jumps: path.len(),
                    turns: turns(&squares),
                },
                after,
            });
            board.tramples(start, landing, path, jumped, out);
            path.pop();
            jumped.pop();
        }
    }
}

/// Whether a trample changes direction between jumps.
pub(super) fn turns(squares: &[(i32, i32)]) -> bool {
    let steps: BTreeSet<(i32, i32)> = squares
        .windows(2)
        .map(|w| (w[1].0 - w[0].0, w[1].1 - w[0].1))
        .collect();
    steps.len() > 1
}

/// Canonical notation: piece letter, squares joined by `-`, then captures sorted by column and
/// row, each after an `x`.
pub(super) fn notation(piece: char, squares: &[(i32, i32)], captured: &[(i32, i32)]) -> String {
    let mut text = String::with_capacity(16);
    text.push(piece);
    for (i, &square) in squares.iter().enumerate() {
        if i > 0 {
            text.push('-');
        }
        push_name(&mut text, square);
    }
    let mut sorted = captured.to_vec();
    sorted.sort();
    for square in sorted {
        text.push('x');
        push_name(&mut text, square);
    }
    text
}

pub(super) fn brute_perft(valley: &Valley, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = valley.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| brute_perft(&m.after, depth - 1)).sum()
}

//! Koom Valley proved by a second, deliberately simple move generator.
//!
//! `Valley` below shares nothing with the engine: its own 15×15 board of characters, its own
//! position reader and writer, its own directions, and the rules read straight from RULES.md §4.
//! It is slow and obvious on purpose. At every node visited, the SET of moves it finds (as
//! canonical notation) must equal the engine's, the two positions must print the same, and
//! perft totals must agree.

use std::collections::{BTreeSet, HashMap};

use thudbot::game::{perft, Move, MoveText, Position, Side, Variant, KOOM_VALLEY_START};

// ---------------------------------------------------------------------------------------------
// The independent generator

/// Squares in each row, bottom (row 1) to top (row 15), from RULES.md §1.
const ROW_LENGTHS: [i32; 15] = [5, 7, 9, 11, 13, 15, 15, 15, 15, 15, 13, 11, 9, 7, 5];

/// (column step, row step) for the eight directions.
const DIRECTIONS: [(i32, i32); 8] = [
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
const GOALS: [(i32, i32); 5] = [(5, 0), (6, 0), (7, 0), (8, 0), (9, 0)];

const EMPTY: u8 = b'.';
const DWARF: u8 = b'd';
const TROLL: u8 = b'T';
const ROCK: u8 = b'R';

fn on_board(column: i32, row: i32) -> bool {
    if !(0..15).contains(&row) {
        return false;
    }
    let cut = (15 - ROW_LENGTHS[row as usize]) / 2;
    column >= cut && column < 15 - cut
}

/// Appends the name of (column, row) to `text`: `H8`.
fn push_name(text: &mut String, (column, row): (i32, i32)) {
    text.push((b'A' + column as u8) as char);
    if row >= 9 {
        text.push('1');
    }
    text.push((b'0' + ((row + 1) % 10) as u8) as char);
}

/// What a move is, for counting which rules the comparison exercised.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    DwarfMove { captures: usize },
    RockMove,
    Walk,
    Trample { jumps: usize, turns: bool },
}

#[derive(Clone)]
struct BruteMove {
    text: String,
    kind: Kind,
    after: Valley,
}

/// A Koom Valley position: `cells[row][column]`, off-board cells hold a space.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Valley {
    cells: [[u8; 15]; 15],
    dwarfs_to_move: bool,
    /// Where the Rock stands, kept so a winner is found without a search.
    rock: (i32, i32),
}

impl Valley {
    fn read(text: &str) -> Valley {
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

    fn write(&self) -> String {
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
    fn at(&self, column: i32, row: i32) -> Option<u8> {
        on_board(column, row).then(|| self.cells[row as usize][column as usize])
    }

    fn put(&mut self, column: i32, row: i32, cell: u8) {
        self.cells[row as usize][column as usize] = cell;
        if cell == ROCK {
            self.rock = (column, row);
        }
    }

    fn squares_holding(&self, piece: u8) -> Vec<(i32, i32)> {
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

    fn neighbours_holding(&self, (column, row): (i32, i32), piece: u8) -> usize {
        DIRECTIONS
            .iter()
            .filter(|(dc, dr)| self.at(column + dc, row + dr) == Some(piece))
            .count()
    }

    /// The side that has just won. The side not to move made the last move: after a troll
    /// move three trolls beside the Rock win; after a dwarf move the Rock on a goal square wins.
    fn winner(&self) -> Option<Side> {
        if self.dwarfs_to_move {
            (self.neighbours_holding(self.rock, TROLL) >= 3).then_some(Side::Trolls)
        } else {
            GOALS.contains(&self.rock).then_some(Side::Dwarfs)
        }
    }

    fn moves(&self) -> Vec<BruteMove> {
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
    fn dwarf_moves(&self, out: &mut Vec<BruteMove>) {
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
    fn rock_moves(&self, out: &mut Vec<BruteMove>) {
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
    fn walks(&self, (c, r): (i32, i32), out: &mut Vec<BruteMove>) {
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
    fn tramples(
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
fn turns(squares: &[(i32, i32)]) -> bool {
    let steps: BTreeSet<(i32, i32)> = squares
        .windows(2)
        .map(|w| (w[1].0 - w[0].0, w[1].1 - w[0].1))
        .collect();
    steps.len() > 1
}

/// Canonical notation: piece letter, squares joined by `-`, then captures sorted by column and
/// row, each after an `x`.
fn notation(piece: char, squares: &[(i32, i32)], captured: &[(i32, i32)]) -> String {
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

fn brute_perft(valley: &Valley, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = valley.moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves.iter().map(|m| brute_perft(&m.after, depth - 1)).sum()
}

// ---------------------------------------------------------------------------------------------
// The comparison

/// Which rules the visited nodes put to the test, so a comparison cannot pass vacuously.
#[derive(Default, Debug)]
struct Seen {
    nodes: u64,
    sandwiches: u64,
    multiple_sandwiches: u64,
    rock_moves: u64,
    walks: u64,
    tramples: u64,
    multi_jump_tramples: u64,
    turning_tramples: u64,
    dwarf_wins: u64,
    troll_wins: u64,
    nodes_without_moves: u64,
}

impl Seen {
    fn count(&mut self, m: &BruteMove) {
        match m.kind {
            Kind::DwarfMove { captures } => {
                if captures > 0 {
                    self.sandwiches += 1;
                }
                if captures > 1 {
                    self.multiple_sandwiches += 1;
                }
            }
            Kind::RockMove => self.rock_moves += 1,
            Kind::Walk => self.walks += 1,
            Kind::Trample { jumps, turns } => {
                self.tramples += 1;
                if jumps > 1 {
                    self.multi_jump_tramples += 1;
                }
                if turns {
                    self.turning_tramples += 1;
                }
            }
        }
        match m.after.winner() {
            Some(Side::Dwarfs) => self.dwarf_wins += 1,
            Some(Side::Trolls) => self.troll_wins += 1,
            None => {}
        }
    }
}

fn koom_valley(fen: &str) -> Position {
    Position::from_fen(fen, Variant::KoomValley)
        .unwrap_or_else(|e| panic!("the engine refuses {fen}: {e}"))
}

/// Checks one node: same position text, same winner, same set of moves, same count.
/// Returns the brute-force moves.
fn check_node(position: &Position, valley: &Valley) -> Vec<BruteMove> {
    let fen = || valley.write();
    if position.objective_reached() != valley.winner() {
        panic!("winner in {}", fen());
    }
    let brute = valley.moves();
    let mut brute_texts: Vec<&str> = brute.iter().map(|m| m.text.as_str()).collect();
    brute_texts.sort_unstable();
    let mut engine_texts: Vec<String> = position
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    engine_texts.sort_unstable();
    if brute_texts.windows(2).any(|w| w[0] == w[1]) {
        panic!("the brute force lists a move twice in {}", fen());
    }
    if engine_texts.windows(2).any(|w| w[0] == w[1]) {
        panic!("the engine lists a move twice in {}", fen());
    }
    if brute_texts != engine_texts {
        let engine_set: BTreeSet<&str> = engine_texts.iter().map(String::as_str).collect();
        let brute_set: BTreeSet<&str> = brute_texts.iter().copied().collect();
        let missing: Vec<&&str> = brute_set.difference(&engine_set).collect();
        let extra: Vec<&&str> = engine_set.difference(&brute_set).collect();
        panic!(
            "in {}\nthe engine misses {missing:?}\nthe engine adds {extra:?}",
            fen()
        );
    }
    assert_eq!(
        position.count_legal_moves(),
        brute.len() as u64,
        "{}",
        fen()
    );
    brute
}

/// Walks both trees to `depth`, checking every node on the way; returns the leaf count.
fn compare(position: &Position, valley: &Valley, depth: u32, seen: &mut Seen) -> u64 {
    seen.nodes += 1;
    // Leaves are counted from their parent's move list, not visited.
    assert_eq!(position.to_string(), valley.write(), "the positions differ");
    let brute = check_node(position, valley);
    if brute.is_empty() {
        seen.nodes_without_moves += 1;
    }
    for m in &brute {
        seen.count(m);
    }
    if depth <= 1 {
        return if depth == 0 { 1 } else { brute.len() as u64 };
    }
    let engine: HashMap<String, Move> = position
        .legal_moves()
        .into_iter()
        .map(|m| (m.to_string(), m))
        .collect();
    brute
        .iter()
        .map(|m| compare(&position.after(&engine[&m.text]), &m.after, depth - 1, seen))
        .sum()
}

/// The engine's reading of every brute-force move text gives that very move back.
fn check_notation(position: &Position, valley: &Valley) {
    for m in valley.moves() {
        let text: MoveText = m.text.parse().expect("canonical notation reads back");
        let mv = position
            .resolve(&text)
            .unwrap_or_else(|e| panic!("{} refused in {position}: {e}", m.text));
        assert_eq!(mv.to_string(), m.text);
        assert_eq!(
            position.after(&mv).to_string(),
            m.after.write(),
            "{}",
            m.text
        );
    }
}

/// A small random number generator, so runs repeat exactly.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % sides as u64) as usize
    }
}

// ---------------------------------------------------------------------------------------------
// The proofs

#[test]
fn the_brute_force_reads_and_writes_positions_faithfully() {
    let valley = Valley::read(KOOM_VALLEY_START);
    assert_eq!(valley.write(), KOOM_VALLEY_START);
    assert_eq!(valley.squares_holding(DWARF).len(), 16);
    assert_eq!(valley.squares_holding(TROLL).len(), 8);
    assert_eq!(valley.rock, (7, 7));
    let mut names = String::new();
    for square in [(0, 5), (7, 7), (14, 9), (7, 14), (5, 0)] {
        push_name(&mut names, square);
        names.push(' ');
    }
    assert_eq!(names, "A6 H8 O10 H15 F1 ");
    assert_eq!(
        (0..15)
            .flat_map(|r| (0..15).map(move |c| (c, r)))
            .filter(|&(c, r)| on_board(c, r))
            .count(),
        165
    );
}

#[test]
fn the_start_agrees_move_for_move_to_depth_3() {
    let start = koom_valley(KOOM_VALLEY_START);
    let valley = Valley::read(KOOM_VALLEY_START);
    check_notation(&start, &valley);
    let mut seen = Seen::default();
    let total = compare(&start, &valley, 3, &mut seen);
    assert_eq!(total, 12_973_988);
    assert_eq!(perft(&start, 3), total);
    assert_eq!(seen.nodes, 1 + 388 + 33_974);
    // RULES.md §6: 384 dwarf moves and 4 Rock moves at depth 1, 33,974 at depth 2.
    let first = valley.moves();
    assert_eq!(first.len(), 388);
    assert_eq!(first.iter().filter(|m| m.kind == Kind::RockMove).count(), 4);
    assert_eq!(brute_perft(&valley, 2), 33_974);
}

/// Positions chosen so that the rules the start does not reach quickly all come into play.
const CHOSEN: &[(&str, u32)] = &[
    // The Rock on H2 with dwarfs G2 and I3 beside it (and F1): it can go onto G1 or H1 and win.
    // Trolls I1 and G3 beside it already, H5 two squares off, F4 and K4 near.
    ("5/7/9/11/13/15/15/15/15/15/6T6/3T4T2/3T1d3/2dR3/d2T1 d", 3),
    // The same with the trolls to move: H5 walking to H3 makes three beside the Rock and wins.
    ("5/7/9/11/13/15/15/15/15/15/6T6/3T4T2/3T1d3/2dR3/d2T1 t", 3),
    // Troll H7 among sixteen dwarfs with empty squares to land on: long tramples that turn and
    // branch. A second troll on O8, the Rock on A6. (Depth 2: its tree is wide.)
    (
        "5/7/9/11/13/5d1d1d5/6d1d1d4/7ddd4T/4d1dTd1d4/R4ddd7/13/11/9/7/5 t",
        2,
    ),
    // Trolls G7 G8 I8 H9 round the empty H8, each with a dwarf beyond (F6 F8 J8 H10): the dwarf
    // K5 sliding to H8 captures all four.
    ("5/7/4d4/11/13/7d7/7T7/2d2dT1Td5/6T8/R4d9/9d3/11/9/7/5 d", 3),
];

#[test]
fn chosen_positions_agree_move_for_move() {
    let mut seen = Seen::default();
    for &(fen, depth) in CHOSEN {
        let position = koom_valley(fen);
        let valley = Valley::read(fen);
        check_notation(&position, &valley);
        let total = compare(&position, &valley, depth, &mut seen);
        assert_eq!(perft(&position, depth), total, "{fen}");
        assert_eq!(brute_perft(&valley, depth), total, "{fen}");
    }
    eprintln!("chosen positions: {seen:?}");
    assert!(seen.multiple_sandwiches > 0, "{seen:?}");
    assert!(seen.turning_tramples > 0, "{seen:?}");
    assert!(seen.dwarf_wins > 0 && seen.troll_wins > 0, "{seen:?}");
    assert!(seen.nodes_without_moves > 0, "{seen:?}");
}

/// A random position: the Rock, up to 8 trolls and up to 16 dwarfs crowded into part of the
/// board, so that tramples, sandwiches and Rock moves abound.
fn random_valley(dice: &mut Dice) -> Valley {
    let mut valley = Valley::read("5/7/9/11/13/15/15/15/15/15/13/11/9/7/R4 d");
    valley.put(5, 0, EMPTY);
    let (low, high) = match dice.roll(3) {
        0 => (0, 7),
        1 => (4, 11),
        _ => (0, 15),
    };
    let mut free: Vec<(i32, i32)> = (low..high)
        .flat_map(|r| (0..15).map(move |c| (c, r)))
        .filter(|&(c, r)| on_board(c, r))
        .collect();
    let mut place = |valley: &mut Valley, piece: u8, dice: &mut Dice| {
        let (c, r) = free.swap_remove(dice.roll(free.len()));
        valley.put(c, r, piece);
    };
    place(&mut valley, ROCK, dice);
    for _ in 0..1 + dice.roll(8) {
        place(&mut valley, TROLL, dice);
    }
    for _ in 0..1 + dice.roll(16) {
        place(&mut valley, DWARF, dice);
    }
    valley.dwarfs_to_move = dice.roll(2) == 0;
    valley
}

#[test]
fn random_crowded_positions_agree_move_for_move_to_depth_2() {
    let mut dice = Dice(0x9E37_79B9_7F4A_7C15);
    let mut seen = Seen::default();
    for _ in 0..120 {
        let valley = random_valley(&mut dice);
        let fen = valley.write();
        let position = koom_valley(&fen);
        check_notation(&position, &valley);
        let total = compare(&position, &valley, 2, &mut seen);
        assert_eq!(perft(&position, 2), total, "{fen}");
    }
    eprintln!("random positions: {seen:?}");
    assert!(seen.multiple_sandwiches > 0, "{seen:?}");
    assert!(
        seen.multi_jump_tramples > 0 && seen.turning_tramples > 0,
        "{seen:?}"
    );
    assert!(seen.rock_moves > 0, "{seen:?}");
    assert!(seen.dwarf_wins > 0 && seen.troll_wins > 0, "{seen:?}");
}

#[test]
fn random_battles_from_the_start_agree_at_every_move() {
    let mut dice = Dice(0x2545_F491_4F6C_DD1D);
    let mut seen = Seen::default();
    let mut finished = 0;
    for _ in 0..20 {
        let mut position = koom_valley(KOOM_VALLEY_START);
        let mut valley = Valley::read(KOOM_VALLEY_START);
        for ply in 0..150 {
            let depth = if ply % 20 == 0 { 2 } else { 1 };
            compare(&position, &valley, depth, &mut seen);
            if ply % 25 == 0 {
                check_notation(&position, &valley);
            }
            let moves = valley.moves();
            if moves.is_empty() {
                finished += 1;
                break;
            }
            // Captures and Rock moves are favoured, so battles reach their endings.
            let lively: Vec<&BruteMove> = moves
                .iter()
                .filter(|m| m.text.contains('x') || m.kind == Kind::RockMove)
                .collect();
            let chosen = if !lively.is_empty() && dice.roll(2) == 0 {
                lively[dice.roll(lively.len())]
            } else {
                &moves[dice.roll(moves.len())]
            };
            position = position.after(&position.resolve(&chosen.text.parse().unwrap()).unwrap());
            valley = chosen.after.clone();
        }
    }
    eprintln!("random battles: {seen:?}, {finished} finished");
    assert!(finished > 0, "no random battle reached its end");
    assert!(
        seen.tramples > 0 && seen.sandwiches > 0 && seen.rock_moves > 0,
        "{seen:?}"
    );
}

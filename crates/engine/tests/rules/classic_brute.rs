//! Classic and original Thud checked against a second, deliberately simple move generator.
//!
//! `Field` shares nothing with the engine: its own 15×15 board of characters, its own position
//! reader and writer, and the rules of RULES.md §2 and §4 as written, one-square shoves and all,
//! with the same move found twice kept once (a set of notation strings). At every node visited
//! the two generators must list the same set of moves.

use std::collections::BTreeMap;

use thud_engine::game::{perft, Position, Variant, CLASSIC_START};

const ROW_LENGTHS: [i32; 15] = [5, 7, 9, 11, 13, 15, 15, 15, 15, 15, 13, 11, 9, 7, 5];

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

const EMPTY: u8 = b'.';
const DWARF: u8 = b'd';
const TROLL: u8 = b'T';
const STONE: u8 = b'R';

fn on_board(column: i32, row: i32) -> bool {
    (0..15).contains(&row) && {
        let cut = (15 - ROW_LENGTHS[row as usize]) / 2;
        column >= cut && column < 15 - cut
    }
}

fn name((column, row): (i32, i32)) -> String {
    format!("{}{}", (b'A' + column as u8) as char, row + 1)
}

/// A classic position: `cells[row][column]`.
#[derive(Clone, PartialEq, Eq)]
struct Field {
    cells: [[u8; 15]; 15],
    dwarfs_to_move: bool,
}

impl Field {
    fn read(text: &str) -> Field {
        let (board, side) = text.split_once(' ').expect("a board and a side");
        let mut cells = [[b' '; 15]; 15];
        for (i, row_text) in board.split('/').enumerate() {
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
                    cells[row as usize][column as usize] = c;
                    column += 1;
                }
            }
        }
        Field {
            cells,
            dwarfs_to_move: side.trim() == "d",
        }
    }

    fn write(&self) -> String {
        let mut rows = Vec::new();
        for row in (0..15).rev() {
            let mut text = String::new();
            let mut run = 0;
            for column in (0..15).filter(|&c| on_board(c, row)) {
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
        format!(
            "{} {}",
            rows.join("/"),
            if self.dwarfs_to_move { "d" } else { "t" }
        )
    }

    fn at(&self, (column, row): (i32, i32)) -> Option<u8> {
        on_board(column, row).then(|| self.cells[row as usize][column as usize])
    }

    fn put(&mut self, (column, row): (i32, i32), cell: u8) {
        self.cells[row as usize][column as usize] = cell;
    }

    fn squares_holding(&self, piece: u8) -> Vec<(i32, i32)> {
        (0..15)
            .flat_map(|r| (0..15).map(move |c| (c, r)))
            .filter(|&s| self.at(s) == Some(piece))
            .collect()
    }

    /// How many `piece`s stand in an unbroken line from `front` (counted) going (dc, dr).
    fn line(&self, front: (i32, i32), (dc, dr): (i32, i32), piece: u8) -> i32 {
        let mut n = 0;
        let mut at = front;
        while self.at(at) == Some(piece) {
            n += 1;
            at = (at.0 + dc, at.1 + dr);
        }
        n
    }

    fn dwarfs_around(&self, (c, r): (i32, i32)) -> Vec<(i32, i32)> {
        DIRECTIONS
            .iter()
            .map(|(dc, dr)| (c + dc, r + dr))
            .filter(|&s| self.at(s) == Some(DWARF))
            .collect()
    }

    /// Every legal move by notation, with the position after it.
    fn moves(&self, original: bool) -> BTreeMap<String, Field> {
        let mut out = BTreeMap::new();
        if self.dwarfs_to_move {
            for from in self.squares_holding(DWARF) {
                for (dc, dr) in DIRECTIONS {
                    let behind = self.line(from, (-dc, -dr), DWARF);
                    for k in 1.. {
                        let to = (from.0 + k * dc, from.1 + k * dr);
                        match self.at(to) {
                            Some(EMPTY) => {
                                self.add(&mut out, 'd', from, to, &[]);
                            }
                            Some(TROLL) => {
                                if k <= behind {
                                    self.add(&mut out, 'd', from, to, &[to]);
                                }
                                break;
                            }
                            _ => break,
                        }
                    }
                }
            }
        } else {
            for from in self.squares_holding(TROLL) {
                for (dc, dr) in DIRECTIONS {
                    // The step, then what may be captured around the landing square.
                    let to = (from.0 + dc, from.1 + dr);
                    if self.at(to) == Some(EMPTY) {
                        let around = self.dwarfs_around(to);
                        if original {
                            self.add(&mut out, 'T', from, to, &[]);
                            for &d in &around {
                                self.add(&mut out, 'T', from, to, &[d]);
                            }
                        } else {
                            for subset in subsets(&around) {
                                self.add(&mut out, 'T', from, to, &subset);
                            }
                        }
                    }
                    // The shove: 1..N squares over empty squares, next to a dwarf, capturing.
                    let behind = self.line(from, (-dc, -dr), TROLL);
                    if original && behind < 2 {
                        continue;
                    }
                    for k in 1..=behind {
                        let to = (from.0 + k * dc, from.1 + k * dr);
                        if self.at(to) != Some(EMPTY) {
                            break;
                        }
                        let around = self.dwarfs_around(to);
                        if around.is_empty() {
                            continue;
                        }
                        if original {
                            self.add(&mut out, 'T', from, to, &around);
                        } else {
                            for subset in subsets(&around).into_iter().filter(|s| !s.is_empty()) {
                                self.add(&mut out, 'T', from, to, &subset);
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn add(
        &self,
        out: &mut BTreeMap<String, Field>,
        piece: char,
        from: (i32, i32),
        to: (i32, i32),
        captured: &[(i32, i32)],
    ) {
        let mut after = self.clone();
        let mover = after.at(from).expect("a piece");
        for &x in captured {
            after.put(x, EMPTY);
        }
        after.put(from, EMPTY);
        after.put(to, mover);
        after.dwarfs_to_move = !self.dwarfs_to_move;
        let mut sorted = captured.to_vec();
        sorted.sort();
        let mut text = format!("{piece}{}-{}", name(from), name(to));
        for x in sorted {
            text += &format!("x{}", name(x));
        }
        out.insert(text, after);
    }
}

fn subsets(items: &[(i32, i32)]) -> Vec<Vec<(i32, i32)>> {
    (0..1u32 << items.len())
        .map(|mask| {
            items
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, &s)| s)
                .collect()
        })
        .collect()
}

/// Walks both trees to `depth`, comparing the move sets at every node; returns the leaves.
fn compare(position: &Position, field: &Field, depth: u32) -> u64 {
    let fen = field.write();
    assert_eq!(position.to_string(), fen);
    let original = position.variant() == Variant::Original;
    let brute = field.moves(original);
    let engine_moves = position.legal_moves();
    let engine: BTreeMap<String, thud_engine::game::Move> =
        engine_moves.iter().map(|m| (m.to_string(), *m)).collect();
    assert_eq!(
        engine.len(),
        engine_moves.len(),
        "a move listed twice in {fen}"
    );
    let brute_texts: Vec<&String> = brute.keys().collect();
    let engine_texts: Vec<&String> = engine.keys().collect();
    if brute_texts != engine_texts {
        let missing: Vec<_> = brute.keys().filter(|t| !engine.contains_key(*t)).collect();
        let extra: Vec<_> = engine.keys().filter(|t| !brute.contains_key(*t)).collect();
        panic!("in {fen}\nthe engine misses {missing:?}\nthe engine adds {extra:?}");
    }
    assert_eq!(position.count_legal_moves(), brute.len() as u64, "{fen}");
    if depth <= 1 {
        return brute.len() as u64;
    }
    brute
        .iter()
        .map(|(text, next)| compare(&position.after(&engine[text]), next, depth - 1))
        .sum()
}

const SHARED: &str = include_str!("../../../../tests/data/positions.jsonl");

fn shared_fens() -> Vec<String> {
    SHARED
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["fen"].as_str().unwrap().to_string()
        })
        .collect()
}

#[test]
fn the_brute_force_reads_and_writes_positions_faithfully() {
    let field = Field::read(CLASSIC_START);
    assert_eq!(field.write(), CLASSIC_START);
    assert_eq!(field.squares_holding(DWARF).len(), 32);
    assert_eq!(field.squares_holding(TROLL).len(), 8);
    assert_eq!(field.squares_holding(STONE), [(7, 7)]);
}

#[test]
fn classic_starts_and_shared_positions_agree_move_for_move_to_depth_2() {
    let trolls_first = CLASSIC_START.replace(" d", " t");
    let mut fens = vec![CLASSIC_START.to_string(), trolls_first];
    fens.extend(shared_fens());
    let mut totals = Vec::new();
    for fen in &fens {
        let position = Position::from_fen(fen, Variant::Classic).unwrap();
        let total = compare(&position, &Field::read(fen), 2);
        assert_eq!(perft(&position, 2), total, "{fen}");
        totals.push(total);
    }
    // The brute force alone reproduces RULES.md §6 and positions.jsonl.
    assert_eq!(
        totals,
        [22_624, 20_360, 30_812, 18_886, 15_700, 10_605, 9_764, 6_524, 7_581, 2_681]
    );
}

#[test]
fn original_rules_agree_move_for_move_to_depth_2() {
    let trolls_first = CLASSIC_START.replace(" d", " t");
    let mut fens = vec![CLASSIC_START.to_string(), trolls_first];
    fens.extend(shared_fens());
    for fen in &fens {
        let position = Position::from_fen(fen, Variant::Original).unwrap();
        let total = compare(&position, &Field::read(fen), 2);
        assert_eq!(perft(&position, 2), total, "{fen}");
    }
}

/// Random crowded positions with lines of trolls and dwarfs, under both rule sets.
#[test]
fn random_crowded_positions_agree_move_for_move_to_depth_2() {
    let mut seed: u64 = 0x853C_49E6_748F_EA9B;
    let mut roll = |sides: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % sides as u64) as usize
    };
    let mut shoves_with_choices = 0;
    for i in 0..60 {
        let mut field = Field::read("5/7/9/11/13/15/15/15/15/15/13/11/9/7/R4 d");
        field.put((5, 0), EMPTY);
        let (low, high) = [(3, 12), (0, 15), (5, 10)][roll(3)];
        let mut free: Vec<(i32, i32)> = (low..high)
            .flat_map(|r| (0..15).map(move |c| (c, r)))
            .filter(|&(c, r)| on_board(c, r))
            .collect();
        let mut place = |field: &mut Field, piece: u8, roll: &mut dyn FnMut(usize) -> usize| {
            let s = free.swap_remove(roll(free.len()));
            field.put(s, piece);
        };
        place(&mut field, STONE, &mut roll);
        for _ in 0..1 + roll(8) {
            place(&mut field, TROLL, &mut roll);
        }
        for _ in 0..1 + roll(32) {
            place(&mut field, DWARF, &mut roll);
        }
        field.dwarfs_to_move = roll(2) == 0;
        let fen = field.write();
        let variant = if i % 2 == 0 {
            Variant::Classic
        } else {
            Variant::Original
        };
        let position = Position::from_fen(&fen, variant).unwrap();
        compare(&position, &field, 2);
        shoves_with_choices += field
            .moves(false)
            .keys()
            .filter(|t| t.starts_with('T') && t.matches('x').count() >= 2)
            .count();
    }
    assert!(shoves_with_choices > 0, "no troll move captured two dwarfs");
}

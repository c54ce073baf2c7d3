//! Koom Valley proved by a second, deliberately simple move generator.
//!
//! `Valley` (in `valley.rs`) shares nothing with the engine: its own 15×15 board of characters, its own
//! position reader and writer, its own directions, and the rules read straight from RULES.md §4.
//! It is slow and obvious on purpose. At every node visited, the SET of moves it finds (as
//! canonical notation) must equal the engine's, the two positions must print the same, and
//! perft totals must agree.

use std::collections::{BTreeSet, HashMap};

use thud_engine::game::{perft, Move, MoveText, Position, Side, Variant, KOOM_VALLEY_START};

mod valley;

use valley::*;

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

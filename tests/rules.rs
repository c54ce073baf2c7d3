//! One focused test per rule of RULES.md §1–§5: each builds the position the rule speaks of
//! from a FEN written for it, and would fail if the engine broke that rule.

use std::collections::BTreeSet;

use thudbot::game::{
    parse_square_list, Battle, BattleEnd, BattleRecord, Match, MatchError, MatchRecord, MoveText,
    NotationError, Piece, Points, Position, Score, Seat, Side, Square, SquareError, Variant,
    CLASSIC_START, KOOM_VALLEY_START,
};

// ---------------------------------------------------------------------------------------------
// Helpers: positions, squares and moves written the way the rules write them.

fn classic(fen: &str) -> Position {
    Position::from_fen(fen, Variant::Classic).expect("a valid classic test position")
}

fn original(fen: &str) -> Position {
    Position::from_fen(fen, Variant::Original).expect("a valid original test position")
}

fn koom_valley(fen: &str) -> Position {
    Position::from_fen(fen, Variant::KoomValley).expect("a valid Koom Valley test position")
}

fn sq(name: &str) -> Square {
    name.parse().expect("a square name")
}

fn squares(names: &[&str]) -> BTreeSet<Square> {
    names.iter().map(|n| sq(n)).collect()
}

/// Every legal move in canonical notation.
fn legal(position: &Position) -> BTreeSet<String> {
    position
        .legal_moves()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// The legal moves starting on `from`, in notation.
fn legal_from(position: &Position, from: &str) -> BTreeSet<String> {
    let from = sq(from);
    position
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from)
        .map(ToString::to_string)
        .collect()
}

/// The legal moves from `from` to `to` (several when they differ in captures).
fn legal_between(position: &Position, from: &str, to: &str) -> BTreeSet<String> {
    let (from, to) = (sq(from), sq(to));
    position
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from && m.to() == to)
        .map(ToString::to_string)
        .collect()
}

fn set(texts: &[&str]) -> BTreeSet<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

/// The position after the move `text`, which must be legal.
fn play(position: &Position, text: &str) -> Position {
    let parsed: MoveText = text.parse().expect("well-formed move text");
    let mv = position
        .resolve(&parsed)
        .unwrap_or_else(|e| panic!("{text} should be legal in {position}: {e}"));
    position.after(&mv)
}

/// Why the move `text` is refused; it must be refused.
fn refusal(position: &Position, text: &str) -> String {
    let parsed: MoveText = text.parse().expect("well-formed move text");
    match position.resolve(&parsed) {
        Ok(mv) => panic!("{text} should be refused in {position}, but it is {mv}"),
        Err(e) => e.to_string(),
    }
}

fn is_legal(position: &Position, text: &str) -> bool {
    let parsed: MoveText = text.parse().expect("well-formed move text");
    position.resolve(&parsed).is_ok()
}

fn piece(position: &Position, name: &str) -> Option<Piece> {
    position.piece_at(sq(name))
}

// ---------------------------------------------------------------------------------------------
// §1 Board and squares

/// Every name from A1 to O15, and whether it parses as a playable square.
fn playable_by_name() -> Vec<(u8, u8, bool)> {
    let mut cells = Vec::new();
    for row in 1..=15u8 {
        for column in 0..15u8 {
            let name = format!("{}{}", (b'A' + column) as char, row);
            cells.push((column, row, name.parse::<Square>().is_ok()));
        }
    }
    cells
}

#[test]
fn board_has_165_squares_in_rows_of_5_7_9_11_13_15_15_15_15_15_13_11_9_7_5() {
    let cells = playable_by_name();
    assert_eq!(cells.iter().filter(|c| c.2).count(), 165);
    assert_eq!(Square::all().count(), 165);
    let lengths: Vec<usize> = (1..=15u8)
        .map(|row| cells.iter().filter(|c| c.1 == row && c.2).count())
        .collect();
    assert_eq!(
        lengths,
        [5, 7, 9, 11, 13, 15, 15, 15, 15, 15, 13, 11, 9, 7, 5]
    );
    // Each row is one run of squares, centred: a triangle is cut from each corner.
    for row in 1..=15u8 {
        let columns: Vec<u8> = cells
            .iter()
            .filter(|c| c.1 == row && c.2)
            .map(|c| c.0)
            .collect();
        let len = columns.len() as u8;
        let first = (15 - len) / 2;
        assert_eq!(
            columns,
            (first..first + len).collect::<Vec<_>>(),
            "row {row}"
        );
    }
}

#[test]
fn columns_are_a_to_o_and_rows_1_to_15_from_the_bottom() {
    let row1: Vec<String> = Square::all()
        .filter(|s| s.row() == 0)
        .map(|s| s.to_string())
        .collect();
    assert_eq!(row1, ["F1", "G1", "H1", "I1", "J1"]);
    let row6: BTreeSet<String> = Square::all()
        .filter(|s| s.row() == 5)
        .map(|s| s.to_string())
        .collect();
    assert_eq!(row6.len(), 15);
    assert!(row6.contains("A6") && row6.contains("I6") && row6.contains("O6"));
    assert_eq!(sq("A6").column(), 0);
    assert_eq!(sq("O6").column(), 14);
    assert_eq!(sq("H15").row(), 14);
    for bad in ["P6", "H16", "H0", "A1", "O15"] {
        assert!(bad.parse::<Square>().is_err(), "{bad} is not a square");
    }
}

#[test]
fn square_names_ignore_case_and_white_space_around_or_between() {
    for text in ["H8", "h8", "h 8", " H8 ", " h  8 ", "\tH8\n"] {
        assert_eq!(text.parse::<Square>(), Ok(sq("H8")), "{text:?}");
    }
    assert_eq!(sq("o10").to_string(), "O10");
}

#[test]
fn white_space_inside_the_row_number_is_an_error_naming_the_text() {
    let err = "H1 5".parse::<Square>().unwrap_err();
    assert!(matches!(err, SquareError::SpaceInRow { .. }), "{err:?}");
    assert!(err.to_string().contains("H1 5"), "{err}");
}

#[test]
fn bad_square_text_is_a_clear_error_naming_the_bad_part() {
    for (text, part) in [("Z9", "Z9"), ("H16", "H16"), ("A1", "A1"), ("H", "H")] {
        let err = text.parse::<Square>().unwrap_err().to_string();
        assert!(err.contains(part), "{text}: {err}");
    }
    assert_eq!("".parse::<Square>(), Err(SquareError::Empty));
    assert!(" ".parse::<Square>().is_err());
    assert!("H8H8".parse::<Square>().is_err());
}

#[test]
fn square_lists_are_separated_by_commas() {
    let list = parse_square_list("e5, F5 ,g 6").unwrap();
    assert_eq!(list, [sq("E5"), sq("F5"), sq("G6")]);
    let err = parse_square_list("E5, Z9, F5").unwrap_err();
    assert!(err.to_string().contains("Z9"), "{err}");
    assert!(
        parse_square_list("E5 F5").is_err(),
        "squares need commas between them"
    );
}

#[test]
fn the_board_is_convex_a_line_between_two_squares_stays_on_the_board() {
    let playable: BTreeSet<(i32, i32)> = playable_by_name()
        .into_iter()
        .filter(|c| c.2)
        .map(|c| (c.0 as i32, c.1 as i32))
        .collect();
    let mut lines = 0;
    for &(c1, r1) in &playable {
        for &(c2, r2) in &playable {
            let (dc, dr) = (c2 - c1, r2 - r1);
            let straight = (dc, dr) != (0, 0) && (dc == 0 || dr == 0 || dc.abs() == dr.abs());
            if !straight {
                continue;
            }
            lines += 1;
            let n = dc.abs().max(dr.abs());
            for k in 1..n {
                let between = (c1 + k * dc.signum(), r1 + k * dr.signum());
                assert!(
                    playable.contains(&between),
                    "{between:?} between {c1},{r1} and {c2},{r2}"
                );
            }
        }
    }
    assert!(lines > 5_000, "only {lines} lines were checked");
}

#[test]
fn the_thudstone_or_rock_stands_on_h8_at_the_start() {
    for variant in Variant::ALL {
        let start = variant.start();
        assert_eq!(start.stone(), sq("H8"), "{variant}");
        assert_eq!(piece(&start, "H8"), Some(Piece::Stone));
    }
}

// ---------------------------------------------------------------------------------------------
// §2 Classic Thud: the start

#[test]
fn classic_start_has_8_trolls_round_the_thudstone_and_32_dwarfs_on_the_edge() {
    let start = Variant::Classic.start();
    assert_eq!(start.to_string(), CLASSIC_START);
    let trolls: BTreeSet<Square> = start.trolls().iter().collect();
    assert_eq!(
        trolls,
        squares(&["G7", "H7", "I7", "G8", "I8", "G9", "H9", "I9"])
    );
    let dwarfs: BTreeSet<Square> = start.dwarfs().iter().collect();
    assert_eq!(
        dwarfs,
        squares(&[
            "F1", "G1", "I1", "J1", "E2", "K2", "D3", "L3", "C4", "M4", "B5", "N5", "A6", "O6",
            "A7", "O7", "A9", "O9", "A10", "O10", "B11", "N11", "C12", "M12", "D13", "L13", "E14",
            "K14", "F15", "G15", "I15", "J15",
        ])
    );
    // "every perimeter square (an orthogonal neighbour off the board) except H1, H15, A8, O8",
    // worked out here from the square names alone.
    let on_board = |c: i32, r: i32| {
        (0..15).contains(&c)
            && (1..=15).contains(&r)
            && format!("{}{}", (b'A' + c as u8) as char, r)
                .parse::<Square>()
                .is_ok()
    };
    let perimeter: BTreeSet<Square> = Square::all()
        .filter(|s| {
            let (c, r) = (s.column() as i32, s.row() as i32 + 1);
            [(0, 1), (1, 0), (0, -1), (-1, 0)]
                .iter()
                .any(|(dc, dr)| !on_board(c + dc, r + dr))
        })
        .collect();
    let expected: BTreeSet<Square> = perimeter
        .difference(&squares(&["H1", "H15", "A8", "O8"]))
        .copied()
        .collect();
    assert_eq!(dwarfs, expected);
    assert_eq!(start.stone(), sq("H8"));
}

#[test]
fn dwarfs_move_first_in_every_variant() {
    for variant in Variant::ALL {
        let start = variant.start();
        assert_eq!(start.side_to_move(), Side::Dwarfs, "{variant}");
        assert!(start
            .legal_moves()
            .iter()
            .all(|m| m.piece() != Piece::Troll));
        assert_eq!(Battle::new(variant).side_to_move(), Some(Side::Dwarfs));
    }
    let err = refusal(&Variant::Classic.start(), "TG7-F6");
    assert!(err.starts_with("that is not your piece"), "{err}");
}

#[test]
fn players_alternate_and_cannot_pass() {
    let start = Variant::Classic.start();
    for mv in start.legal_moves() {
        assert_ne!(mv.from(), mv.to(), "{mv} moves nothing");
        let next = start.after(&mv);
        assert_eq!(next.side_to_move(), Side::Trolls);
        assert_ne!(next, start.clone().with_side_to_move(Side::Trolls), "{mv}");
    }
    let next = play(&start, "dF1-F2");
    for mv in next.legal_moves() {
        assert_ne!(mv.from(), mv.to(), "{mv} moves nothing");
        assert_eq!(next.after(&mv).side_to_move(), Side::Dwarfs);
    }
    assert!(refusal(&start, "F1-F1").contains("must leave F1"));
}

// ---------------------------------------------------------------------------------------------
// §2 Classic Thud: nothing lands on or passes over the Thudstone, a piece, or the edge

#[test]
fn no_dwarf_lands_on_or_passes_over_the_thudstone() {
    // Dwarfs H5 H6 H7 in a line facing north, the Thudstone H8, trolls H9 H10 beyond it.
    let position = classic("5/7/9/11/13/7T7/7T7/7R7/7d7/7d7/6d6/11/9/7/5 d");
    assert!(position.legal_moves().iter().all(|m| m.to() != sq("H8")));
    // A line of 3 could hurl 3 squares, but not over the Thudstone.
    assert!(legal_between(&position, "H7", "H9").is_empty());
    assert!(legal_between(&position, "H7", "H10").is_empty());
    assert_eq!(refusal(&position, "dH7-H9xH9"), "H8 is in the way");
    refusal(&position, "dH7-H8");
}

#[test]
fn no_troll_lands_on_or_is_shoved_over_the_thudstone() {
    // Trolls H9 H10 H11 in a line facing south, troll G8 beside the Thudstone H8, dwarf G6.
    let position = classic("5/7/9/11/6T6/7T7/7T7/6TR7/15/6d8/13/11/9/7/5 t");
    assert!(position.legal_moves().iter().all(|m| m.to() != sq("H8")));
    // H7 is next to the dwarf G6 and within reach of the line of 3, but beyond the stone.
    assert!(legal_between(&position, "H9", "H7").is_empty());
    let err = refusal(&position, "TH9-H7xG6");
    assert!(err.contains("H8"), "{err}");
    refusal(&position, "TG8-H8");
}

#[test]
fn nothing_passes_over_another_piece() {
    // Dwarfs G2 and G3, one behind the other; a troll on A6.
    let position = classic("5/7/9/11/13/15/15/14R/15/T14/13/11/3d5/2d4/5 d");
    let north_of_g3 = ["G4", "G5", "G8", "G15"];
    assert!(
        legal_from(&position, "G2")
            .iter()
            .all(|m| north_of_g3.iter().all(|to| !m.ends_with(&format!("-{to}")))),
        "G2 cannot go north through G3"
    );
    assert_eq!(refusal(&position, "dG2-G5"), "G3 is in the way");
    assert!(is_legal(&position, "dG3-G15"));
}

#[test]
fn a_dwarf_moves_like_a_chess_queen_over_empty_squares_only_on_the_board() {
    // A lone dwarf on C4, the Thudstone on H8, a troll on O8.
    let position = classic("5/7/9/11/13/15/15/7R6T/15/15/13/d10/9/7/5 d");
    let expected: BTreeSet<String> = [
        // north, up to the cut corner
        "C5", "C6", "C7", "C8", "C9", "C10", "C11", "C12", // north-east
        "D5", "E6", "F7", "G8", "H9", "I10", "J11", "K12", "L13", // east
        "D4", "E4", "F4", "G4", "H4", "I4", "J4", "K4", "L4", "M4", // south-east
        "D3", "E2", "F1", // north-west
        "B5", "A6",
    ]
    .iter()
    .map(|to| format!("dC4-{to}"))
    .collect();
    assert_eq!(legal(&position), expected);
}

// ---------------------------------------------------------------------------------------------
// §2 Classic Thud: the hurl

#[test]
fn a_line_of_n_dwarfs_hurls_its_front_dwarf_up_to_n_squares_onto_a_troll() {
    // Dwarfs H2 H3 (a line of 2 facing north), a troll two squares on at H5.
    let position = classic("5/7/9/11/13/15/15/14R/15/15/6T6/11/4d4/3d3/5 d");
    assert_eq!(legal_between(&position, "H3", "H5"), set(&["dH3-H5xH5"]));
    let after = play(&position, "dH3-H5");
    assert_eq!(
        piece(&after, "H5"),
        Some(Piece::Dwarf),
        "it lands on the troll"
    );
    assert_eq!(piece(&after, "H3"), None);
    assert_eq!(
        piece(&after, "H2"),
        Some(Piece::Dwarf),
        "only the front dwarf moves"
    );
    assert!(
        after.trolls().is_empty(),
        "the troll it lands on is removed"
    );

    // The same line of 2, the troll three squares on at H6: out of reach.
    let position = classic("5/7/9/11/13/15/15/14R/15/7T7/13/11/4d4/3d3/5 d");
    assert!(legal_between(&position, "H3", "H6").is_empty());
    assert_eq!(
        refusal(&position, "dH3-H6"),
        "a line of 2 dwarfs can hurl at most 2 squares"
    );

    // A line of 3 (H1 H2 H3) reaches it.
    let position = classic("5/7/9/11/13/15/15/14R/15/7T7/13/11/4d4/3d3/2d2 d");
    assert_eq!(legal_between(&position, "H3", "H6"), set(&["dH3-H6xH6"]));
}

#[test]
fn a_lone_dwarf_is_a_line_of_one_and_hurls_one_square() {
    // Dwarf H3 with a troll on H4; dwarf K3 with a troll two squares away on K5.
    let position = classic("5/7/9/11/13/15/15/14R/15/15/9T3/5T5/4d2d1/7/5 d");
    assert_eq!(legal_between(&position, "H3", "H4"), set(&["dH3-H4xH4"]));
    assert!(legal_between(&position, "K3", "K5").is_empty());
    assert_eq!(
        refusal(&position, "dK3-K5"),
        "a line of 1 dwarf can hurl at most 1 square"
    );
}

#[test]
fn the_hurling_line_is_unbroken_and_runs_straight_back() {
    // Dwarfs H1 and H3 with a gap on H2, a dwarf G2 diagonally behind H3, a troll on H5.
    let position = classic("5/7/9/11/13/15/15/14R/15/15/6T6/11/4d4/2d4/2d2 d");
    assert!(legal_between(&position, "H3", "H5").is_empty());
}

#[test]
fn a_hurl_travels_over_empty_squares_only() {
    // A line of 3 dwarfs H1 H2 H3, trolls H4 and H5: only the nearer troll can be hit.
    let position = classic("5/7/9/11/13/15/15/14R/15/15/6T6/5T5/4d4/3d3/2d2 d");
    assert_eq!(
        legal_from(&position, "H3")
            .iter()
            .filter(|m| m.contains("-H"))
            .count(),
        1
    );
    assert!(is_legal(&position, "dH3-H4xH4"));
    assert_eq!(refusal(&position, "dH3-H5"), "H4 is in the way");
}

#[test]
fn a_hurl_must_capture_the_troll_it_lands_on_and_nothing_else() {
    let start = Variant::Classic.start();
    // No dwarf of the start can reach a troll: no move lands on one.
    assert!(start
        .legal_moves()
        .iter()
        .all(|m| !start.trolls().contains(m.to())));
    // Dwarfs H2 H3, a troll on H5.
    let position = classic("5/7/9/11/13/15/15/14R/15/15/6T6/11/4d4/3d3/5 d");
    for mv in position.legal_moves() {
        let captured: BTreeSet<Square> = mv.captured().iter().collect();
        if position.trolls().contains(mv.to()) {
            assert_eq!(captured, BTreeSet::from([mv.to()]), "{mv}");
        } else {
            assert!(
                captured.is_empty(),
                "{mv}: a plain dwarf move captures nothing"
            );
        }
    }
    assert_eq!(
        refusal(&position, "dH3-H5xH4"),
        "a hurl captures only the troll it lands on, H5"
    );
}

// ---------------------------------------------------------------------------------------------
// §2 Classic Thud: the troll

#[test]
fn a_troll_steps_one_square_then_captures_any_subset_of_the_dwarfs_around() {
    // Troll G7 next to the Thudstone H8; dwarfs E5 and F5, both next to F6.
    let position = classic("5/7/9/11/13/15/15/7R7/6T8/15/3dd8/11/9/7/5 t");
    assert_eq!(
        legal_between(&position, "G7", "F6"),
        set(&["TG7-F6", "TG7-F6xE5", "TG7-F6xF5", "TG7-F6xE5xF5"])
    );
    let after = play(&position, "TG7-F6xF5");
    assert_eq!(piece(&after, "F6"), Some(Piece::Troll));
    assert_eq!(piece(&after, "G7"), None);
    assert_eq!(piece(&after, "F5"), None, "the named dwarf is captured");
    assert_eq!(
        piece(&after, "E5"),
        Some(Piece::Dwarf),
        "the other one stays"
    );
    let after = play(&position, "TG7-F6");
    assert_eq!(after.dwarfs().len(), 2, "capturing is not compulsory");
    // A troll moves one square only, unless it is shoved.
    assert!(legal_between(&position, "G7", "E5").is_empty());
    assert!(legal_between(&position, "G7", "G5").is_empty());
}

#[test]
fn a_troll_step_next_to_seven_dwarfs_is_128_different_moves() {
    // Troll H4 steps to H5, around which dwarfs stand on G4 I4 G5 I5 G6 H6 I6.
    let position = classic("5/7/9/11/13/15/15/14R/15/6ddd6/5d1d5/4dTd4/9/7/5 t");
    assert_eq!(legal_between(&position, "H4", "H5").len(), 128);
}

#[test]
fn a_line_of_n_trolls_shoves_its_front_troll_up_to_n_squares_and_must_capture() {
    // Trolls F10 F11 (a line of 2 facing south); dwarf G8 next to F9 and F8; E7 G7 next to F8.
    let position = classic("5/7/9/11/4T8/5T9/15/6d7R/4d1d8/15/13/11/9/7/5 t");
    // Two squares on: any non-empty subset of the three dwarfs around F8.
    assert_eq!(
        legal_between(&position, "F10", "F8"),
        set(&[
            "TF10-F8xE7",
            "TF10-F8xG7",
            "TF10-F8xG8",
            "TF10-F8xE7xG7",
            "TF10-F8xE7xG8",
            "TF10-F8xG7xG8",
            "TF10-F8xE7xG7xG8",
        ])
    );
    assert_eq!(
        refusal(&position, "TF10-F8"),
        "a shove must capture a dwarf"
    );
    // Three squares on is beyond a line of 2.
    assert!(legal_between(&position, "F10", "F7").is_empty());
    assert_eq!(
        refusal(&position, "TF10-F7xG7"),
        "a line of 2 trolls can be shoved at most 2 squares"
    );
    let after = play(&position, "TF10-F8xE7xG8");
    assert_eq!(piece(&after, "F8"), Some(Piece::Troll));
    assert_eq!(
        piece(&after, "F11"),
        Some(Piece::Troll),
        "only the front troll moves"
    );
    assert_eq!(after.dwarfs().iter().collect::<Vec<_>>(), [sq("G7")]);

    // A lone troll (F11 gone) cannot be shoved at all.
    let lone = classic("5/7/9/11/13/5T9/15/6d7R/4d1d8/15/13/11/9/7/5 t");
    assert!(legal_between(&lone, "F10", "F8").is_empty());
}

#[test]
fn a_shove_travels_over_empty_squares_onto_a_square_next_to_a_dwarf() {
    // Trolls F10 F11 F12 (a line of 3 facing south); a dwarf on F8 in the way, dwarfs E6 G6.
    let position = classic("5/7/9/3T7/4T8/5T9/15/5d8R/15/4d1d8/13/11/9/7/5 t");
    assert!(legal_between(&position, "F10", "F7").is_empty());
    assert_eq!(refusal(&position, "TF10-F7xE6"), "F8 is in the way");
    // The same line with nothing in the way, one dwarf on E6: a 3-square shove to F7 is the only
    // shove, since F9 and F8 touch no dwarf.
    let position = classic("5/7/9/3T7/4T8/5T9/15/14R/15/4d10/13/11/9/7/5 t");
    let shoves: BTreeSet<String> = legal_from(&position, "F10")
        .into_iter()
        .filter(|m| m.contains('x'))
        .collect();
    assert_eq!(shoves, set(&["TF10-F7xE6"]));
    assert!(legal_between(&position, "F10", "F8").is_empty());
}

#[test]
fn a_one_square_shove_is_the_same_move_as_the_step_with_the_same_captures() {
    // Trolls F10 F11 (a line of 2); dwarf G8 next to F9, one square on.
    let line = classic("5/7/9/11/4T8/5T9/15/6d7R/15/15/13/11/9/7/5 t");
    // The step to F9 capturing G8 is also a one-square shove: still one move, not two.
    assert_eq!(
        legal_between(&line, "F10", "F9"),
        set(&["TF10-F9", "TF10-F9xG8"])
    );
    let moves = line.legal_moves();
    let distinct: BTreeSet<String> = moves.iter().map(ToString::to_string).collect();
    assert_eq!(moves.len(), distinct.len(), "no move is listed twice");
    assert_eq!(line.count_legal_moves(), moves.len() as u64);
    // Two squares on (F8) touches G8 too: a shove, capturing it.
    assert_eq!(legal_between(&line, "F10", "F8"), set(&["TF10-F8xG8"]));
}

// ---------------------------------------------------------------------------------------------
// §2 End of a battle, and its score

#[test]
fn a_battle_ends_when_the_side_to_move_has_no_legal_move() {
    // Troll F1 boxed in by dwarfs G1 E2 F2 G2 (and a dwarf on A6); trolls to move.
    let position = classic("5/7/9/11/13/15/15/7R7/15/d14/13/11/9/ddd4/Td3 t");
    assert!(position.legal_moves().is_empty());
    assert_eq!(position.count_legal_moves(), 0);
    let battle = Battle::from_position(position.clone());
    assert!(battle.is_over());
    assert_eq!(battle.side_to_move(), None);
    assert_eq!(
        battle.end(),
        Some(BattleEnd::NoLegalMove { side: Side::Trolls })
    );
    // Dwarfs 5, trolls 4: the dwarfs win by 1.
    let result = battle.result().unwrap();
    assert_eq!(result.winner, Some(Side::Dwarfs));
    assert_eq!(result.margin, Points::whole(1));
    assert_eq!(
        refusal(&position, "TF1-F2xF2"),
        "this battle is over; no more moves can be made"
    );
}

#[test]
fn a_battle_ends_when_the_side_to_move_has_no_pieces_left() {
    // Troll H4, the last dwarf on H6; trolls to move and capture it.
    let position = classic("5/7/9/11/13/15/15/14R/15/7d7/13/5T5/9/7/5 t");
    let mut battle = Battle::from_position(position);
    assert!(!battle.is_over());
    battle.play(&"TH4-H5xH6".parse().unwrap()).unwrap();
    assert!(battle.is_over());
    assert_eq!(
        battle.end(),
        Some(BattleEnd::NoLegalMove { side: Side::Dwarfs })
    );
    let result = battle.result().unwrap();
    assert_eq!(
        result.score,
        Score {
            dwarfs: 0,
            trolls: 4
        }
    );
    assert_eq!(result.winner, Some(Side::Trolls));
    assert_eq!(result.margin, Points::whole(4));

    // No trolls at all, trolls to move: over at once.
    let battle = Battle::from_position(classic("5/7/9/11/13/15/15/7R7/15/d14/13/11/9/7/5 t"));
    assert_eq!(
        battle.end(),
        Some(BattleEnd::NoLegalMove { side: Side::Trolls })
    );
}

#[test]
fn a_battle_ends_by_agreement_and_then_takes_no_move() {
    let mut battle = Battle::new(Variant::Classic);
    battle.play(&"dF1-F2".parse().unwrap()).unwrap();
    assert!(!battle.is_over());
    battle.end_by_agreement().unwrap();
    assert!(battle.is_over());
    assert_eq!(battle.end(), Some(BattleEnd::Agreement));
    let err = battle.play(&"TG7-F6".parse().unwrap()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "this battle is over; no more moves can be made"
    );
    assert!(battle.end_by_agreement().is_err(), "it cannot end twice");
    assert_eq!(battle.moves().len(), 1);
    // 32 dwarfs against 8 trolls (32 points each): a draw.
    let result = battle.result().unwrap();
    assert_eq!(
        result.score,
        Score {
            dwarfs: 32,
            trolls: 32
        }
    );
    assert_eq!(result.winner, None);
    assert_eq!(result.margin, Points::ZERO);
}

#[test]
fn score_example_five_dwarfs_and_two_trolls_the_trolls_win_by_3() {
    // Dwarfs A6 A7 A9 A10 B11, trolls G7 I9.
    let position = classic("5/7/9/11/d12/d14/d7T6/7R7/d5T8/d14/13/11/9/7/5 d");
    assert_eq!(
        position.score(),
        Score {
            dwarfs: 5,
            trolls: 8
        }
    );
    let mut battle = Battle::from_position(position);
    battle.end_by_agreement().unwrap();
    let result = battle.result().unwrap();
    assert_eq!(result.winner, Some(Side::Trolls));
    assert_eq!(result.margin, Points::whole(3));
    assert_eq!(
        result.points_for(Side::Trolls, Variant::Classic),
        Points::whole(3)
    );
    assert_eq!(
        result.points_for(Side::Dwarfs, Variant::Classic),
        Points::ZERO
    );
}

#[test]
fn equal_scores_draw_the_battle_and_nobody_scores() {
    let mut battle = Battle::new(Variant::Classic);
    battle.end_by_agreement().unwrap();
    let result = battle.result().unwrap();
    assert_eq!(result.winner, None);
    for side in [Side::Dwarfs, Side::Trolls] {
        assert_eq!(result.points_for(side, Variant::Classic), Points::ZERO);
    }
}

// ---------------------------------------------------------------------------------------------
// §3 A match of two battles

/// Eleven dwarfs and two trolls: the dwarfs lead by 3.
const DWARFS_LEAD_BY_3: &str = "5/7/d8/d10/d12/d14/d7T6/7R7/d5T8/d14/d12/d10/d8/d6/5 d";
/// Eleven dwarfs and one troll: the dwarfs lead by 7.
const DWARFS_LEAD_BY_7: &str = "5/7/d8/d10/d12/d14/d14/7R7/d5T8/d14/d12/d10/d8/d6/5 d";

fn agreed_match(variant: Variant, battles: &[(&str, &[&str])]) -> Match {
    let record = MatchRecord {
        variant,
        battles: battles
            .iter()
            .map(|(start, moves)| BattleRecord {
                variant,
                start: start.to_string(),
                moves: moves.iter().map(|m| m.to_string()).collect(),
                agreed: Position::from_fen(start, variant)
                    .map(|p| {
                        let mut b = Battle::from_position(p);
                        for m in moves.iter() {
                            b.play(&m.parse().unwrap()).unwrap();
                        }
                        !b.is_over()
                    })
                    .unwrap(),
            })
            .collect(),
        forfeited_by: None,
    };
    Match::try_from(record).expect("a readable match record")
}

#[test]
fn the_dwarfs_of_battle_1_command_the_trolls_in_battle_2() {
    let mut m = Match::new(Variant::Classic);
    assert_eq!(m.battle_number(), 1);
    assert_eq!(m.seat_to_move(), Some(Seat::First), "First has the dwarfs");
    assert_eq!(
        m.play(Seat::Second, &"dF1-F2".parse().unwrap()),
        Err(MatchError::NotYourTurn)
    );
    m.play(Seat::First, &"dF1-F2".parse().unwrap()).unwrap();
    assert_eq!(
        m.seat_to_move(),
        Some(Seat::Second),
        "Second has the trolls"
    );
    let progress = m.end_battle_by_agreement().unwrap();
    assert!(progress.battle_result.is_some() && progress.match_result.is_none());
    assert_eq!(m.battle_number(), 2);
    assert_eq!(
        m.current_battle().moves().len(),
        0,
        "battle 2 starts afresh"
    );
    assert_eq!(
        m.seat_to_move(),
        Some(Seat::Second),
        "Second has the dwarfs now"
    );
    m.play(Seat::Second, &"dF1-F2".parse().unwrap()).unwrap();
    assert_eq!(
        m.seat_to_move(),
        Some(Seat::First),
        "First has the trolls now"
    );
    let progress = m.end_battle_by_agreement().unwrap();
    assert!(progress.match_result.is_some());
    assert!(m.is_over());
}

#[test]
fn match_example_a_wins_by_3_as_dwarfs_loses_by_7_as_trolls_b_wins_by_4() {
    // A is First: dwarfs in battle 1 (won by 3), trolls in battle 2 (lost by 7).
    let m = agreed_match(
        Variant::Classic,
        &[(DWARFS_LEAD_BY_3, &[]), (DWARFS_LEAD_BY_7, &[])],
    );
    let result = m.result().expect("both battles are over");
    assert_eq!(
        result.battles,
        vec![
            [Points::whole(3), Points::ZERO],
            [Points::ZERO, Points::whole(7)]
        ]
    );
    assert_eq!(result.total(Seat::First), Points::whole(3));
    assert_eq!(result.total(Seat::Second), Points::whole(7));
    assert_eq!(result.winner, Some(Seat::Second));
    assert_eq!(result.margin, Points::whole(4));
}

#[test]
fn equal_match_points_draw_the_match() {
    // Each player wins one battle as the dwarfs by 3.
    let m = agreed_match(
        Variant::Classic,
        &[(DWARFS_LEAD_BY_3, &[]), (DWARFS_LEAD_BY_3, &[])],
    );
    let result = m.result().unwrap();
    assert_eq!(result.totals, [Points::whole(3), Points::whole(3)]);
    assert_eq!(result.winner, None);
    assert_eq!(result.margin, Points::ZERO);
}

// ---------------------------------------------------------------------------------------------
// §4 Variant `original`

#[test]
fn variant_names_are_fixed() {
    let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    assert_eq!(names, ["classic", "original", "koom-valley"]);
    assert_eq!(Variant::default(), Variant::Classic);
    for v in Variant::ALL {
        assert_eq!(v.name().parse::<Variant>(), Ok(v));
    }
}

#[test]
fn original_a_troll_step_captures_at_most_one_dwarf() {
    // Troll G7 (alone); dwarfs E5 and F5, both next to F6.
    let position = original("5/7/9/11/13/15/15/7R7/6T8/15/3dd8/11/9/7/5 t");
    assert_eq!(
        legal_between(&position, "G7", "F6"),
        set(&["TG7-F6", "TG7-F6xE5", "TG7-F6xF5"])
    );
    assert_eq!(
        refusal(&position, "TG7-F6xE5xF5"),
        "after a step a troll may capture at most one dwarf under the original rules"
    );
}

#[test]
fn original_a_shove_needs_two_trolls_and_captures_every_dwarf_around() {
    // Trolls F10 F11; dwarfs E7 G7 G8 around F8 (G8 is next to F9 too).
    let position = original("5/7/9/11/4T8/5T9/15/6d7R/4d1d8/15/13/11/9/7/5 t");
    assert_eq!(
        legal_between(&position, "F10", "F8"),
        set(&["TF10-F8xE7xG7xG8"])
    );
    let err = refusal(&position, "TF10-F8xG7");
    assert!(
        err.starts_with("a shove captures every dwarf around its landing square"),
        "{err}"
    );
    assert!(err.contains("E7, G7, G8"), "{err}");
    // A lone troll has no shove: the same dwarfs, F11 gone.
    let lone = original("5/7/9/11/13/5T9/15/6d7R/4d1d8/15/13/11/9/7/5 t");
    assert!(legal_between(&lone, "F10", "F8").is_empty());
    assert!(refusal(&lone, "TF10-F8xE7xG7xG8").contains("two or more trolls"));
}

#[test]
fn original_a_shove_travels_1_to_n_squares() {
    // Trolls F10 F11 F12 (a line of 3); dwarf E9 next to F9 and F8; dwarfs E6 G6 next to F7,
    // three squares on.
    let position = original("5/7/9/3T7/4T8/5T9/4d10/14R/15/4d1d8/13/11/9/7/5 t");
    assert!(is_legal(&position, "TF10-F7xE6xG6"));
    assert!(is_legal(&position, "TF10-F8xE9"));
    // F6 is four squares on, beyond a line of 3.
    assert!(legal_between(&position, "F10", "F6").is_empty());
}

#[test]
fn original_a_one_square_shove_next_to_one_dwarf_is_the_step_capturing_it() {
    // Trolls F10 F11; one dwarf (G8) next to F9.
    let one = original("5/7/9/11/4T8/5T9/15/6d7R/15/15/13/11/9/7/5 t");
    assert_eq!(
        legal_between(&one, "F10", "F9"),
        set(&["TF10-F9", "TF10-F9xG8"])
    );
    assert_eq!(one.count_legal_moves(), one.legal_moves().len() as u64);
    // With two dwarfs (E8 G8) next to F9 the one-square shove taking both is a move of its own.
    let two = original("5/7/9/11/4T8/5T9/15/4d1d7R/15/15/13/11/9/7/5 t");
    assert_eq!(
        legal_between(&two, "F10", "F9"),
        set(&["TF10-F9", "TF10-F9xE8", "TF10-F9xG8", "TF10-F9xE8xG8"])
    );
    assert_eq!(two.count_legal_moves(), two.legal_moves().len() as u64);
}

// ---------------------------------------------------------------------------------------------
// §4 Koom Valley

#[test]
fn koom_valley_start_layout_and_goal_squares() {
    let start = Variant::KoomValley.start();
    assert_eq!(
        start.to_string(),
        "ddddd/d5d/d7d/d9d/d11d/d13d/7d7/7R7/15/15/13/11/1TT1T1TT1/1T1T1T1/5 d"
    );
    assert_eq!(start.to_string(), KOOM_VALLEY_START);
    assert_eq!(start.stone(), sq("H8"));
    let trolls: BTreeSet<Square> = start.trolls().iter().collect();
    assert_eq!(
        trolls,
        squares(&["F2", "H2", "J2", "E3", "F3", "H3", "J3", "K3"])
    );
    let dwarfs: BTreeSet<Square> = start.dwarfs().iter().collect();
    assert_eq!(
        dwarfs,
        squares(&[
            "H9", "A10", "O10", "B11", "N11", "C12", "M12", "D13", "L13", "E14", "K14", "F15",
            "G15", "H15", "I15", "J15",
        ])
    );
    let goals: BTreeSet<Square> = Variant::KoomValley.goal_squares().iter().collect();
    assert_eq!(goals, squares(&["F1", "G1", "H1", "I1", "J1"]));
    assert_eq!(start.side_to_move(), Side::Dwarfs);
}

#[test]
fn koom_valley_dwarfs_move_like_queens_and_never_hurl() {
    // A lone dwarf on C4, the Rock H8, a troll O8: the same 32 queen moves as in classic.
    let fen = "5/7/9/11/13/15/15/7R6T/15/15/13/d10/9/7/5 d";
    assert_eq!(legal(&koom_valley(fen)), legal(&classic(fen)));
    // Dwarfs H2 H3, a troll on H4: in classic H3 would hurl onto H4.
    let fen = "5/7/9/11/13/15/15/14R/15/15/13/5T5/4d4/3d3/5 d";
    assert!(is_legal(&classic(fen), "dH3-H4xH4"));
    let position = koom_valley(fen);
    assert!(position.legal_moves().iter().all(|m| m.to() != sq("H4")));
    assert!(refusal(&position, "dH3-H4").starts_with("in Koom Valley dwarfs do not hurl"));
}

#[test]
fn koom_valley_the_rock_moves_one_square_with_a_dwarf_beside_it_before_and_after() {
    // The Rock H8 with a dwarf on H9; a troll on A6.
    let position = koom_valley("5/7/9/11/13/15/7d7/7R7/15/T14/13/11/9/7/5 d");
    let rock_moves: BTreeSet<String> = legal(&position)
        .into_iter()
        .filter(|m| m.starts_with('R'))
        .collect();
    // G8 I8 G9 I9 touch H9; G7 H7 I7 do not; H9 is taken.
    assert_eq!(rock_moves, set(&["RH8-G8", "RH8-G9", "RH8-I8", "RH8-I9"]));
    assert_eq!(
        refusal(&position, "RH8-H7"),
        "a dwarf must stand next to the Rock's new square H7"
    );
    assert_eq!(
        refusal(&position, "RH8-H6"),
        "the Rock moves one square at a time"
    );
    assert!(refusal(&position, "RH8-H9").contains("H9 is taken"));
    let after = play(&position, "RH8-G8");
    assert_eq!(after.stone(), sq("G8"));
    assert_eq!(piece(&after, "H8"), None);
    assert_eq!(
        piece(&after, "H9"),
        Some(Piece::Dwarf),
        "the dwarf stays put"
    );
    assert_eq!(
        after.side_to_move(),
        Side::Trolls,
        "a Rock move is the dwarfs' turn"
    );

    // The dwarf two squares away (H10) is not beside the Rock: no Rock move, even to H9.
    let far = koom_valley("5/7/9/11/13/7d7/15/7R7/15/T14/13/11/9/7/5 d");
    assert!(legal(&far).iter().all(|m| !m.starts_with('R')));
    assert_eq!(
        refusal(&far, "RH8-H9"),
        "a dwarf must stand next to the Rock before it is moved"
    );
}

#[test]
fn koom_valley_only_the_dwarfs_move_the_rock_and_it_captures_nothing() {
    // The Rock H8, dwarf H9; a troll F8 with a dwarf E8 beyond, in line with G8.
    let position = koom_valley("5/7/9/11/13/15/7d7/4dT1R7/15/15/13/11/9/7/5 d");
    let after = play(&position, "RH8-G8");
    assert_eq!(
        piece(&after, "F8"),
        Some(Piece::Troll),
        "only a dwarf sandwiches"
    );
    let trolls_turn = position.clone().with_side_to_move(Side::Trolls);
    assert!(legal(&trolls_turn).iter().all(|m| !m.starts_with('R')));
    assert!(refusal(&trolls_turn, "RH8-G8").starts_with("that is not your piece"));
    assert_eq!(
        refusal(
            &classic("5/7/9/11/13/15/7d7/4dT1R7/15/15/13/11/9/7/5 d"),
            "RH8-G8"
        ),
        "the Thudstone never moves"
    );
}

#[test]
fn koom_valley_a_dwarf_sandwiches_every_troll_it_lands_next_to_with_a_dwarf_beyond() {
    // Dwarf H2 goes to H5. Around H5: troll G5 with dwarf F5 beyond, troll I6 with dwarf J7
    // beyond, troll G4 with dwarf F3 beyond, and troll H6 with nothing beyond (H7 empty).
    let position = koom_valley("5/7/9/11/13/15/15/14R/9d5/7TT6/4dT7/4T6/2d6/3d3/5 d");
    assert_eq!(
        legal_between(&position, "H2", "H5"),
        set(&["dH2-H5xG4xG5xI6"])
    );
    // Automatic: the plain text names the capturing move.
    let after = play(&position, "dH2-H5");
    let trolls: BTreeSet<Square> = after.trolls().iter().collect();
    assert_eq!(trolls, squares(&["H6"]));
    assert_eq!(after.dwarfs().len(), 4, "no dwarf is lost");
    // A partial list is refused: the captures are not the player's to choose.
    assert_eq!(
        refusal(&position, "dH2-H5xG5"),
        "this move captures G4, G5, I6"
    );
    // Stopping one square short (H4) next to G4 and G5 sandwiches nothing: F4 and F6 are empty.
    assert_eq!(legal_between(&position, "H2", "H4"), set(&["dH2-H4"]));
}

#[test]
fn koom_valley_a_troll_moving_between_two_dwarfs_is_not_captured() {
    // Dwarfs F5 H5, troll G7 walks down to G5 between them.
    let position = koom_valley("5/7/9/11/13/15/15/14R/6T8/15/4d1d6/11/9/7/5 t");
    let after = play(&position, "TG7-G5");
    assert_eq!(piece(&after, "G5"), Some(Piece::Troll));
    assert_eq!(after.dwarfs().len(), 2);
    assert_eq!(after.trolls().len(), 1);
}

#[test]
fn koom_valley_a_troll_walks_1_to_3_squares_in_a_line_and_captures_nothing() {
    // A lone troll H5 in open ground; a dwarf far off on A6.
    let position = koom_valley("5/7/9/11/13/15/15/14R/15/d14/6T6/11/9/7/5 t");
    let expected: BTreeSet<String> = [
        "H6", "H7", "H8", "I6", "J7", "K8", "I5", "J5", "K5", "I4", "J3", "K2", "H4", "H3", "H2",
        "G4", "F3", "E2", "G5", "F5", "E5", "G6", "F7", "E8",
    ]
    .iter()
    .map(|to| format!("TH5-{to}"))
    .collect();
    assert_eq!(legal(&position), expected);
    assert_eq!(
        refusal(&position, "TH5-H9"),
        "in Koom Valley a troll walks at most 3 squares, or tramples over dwarfs"
    );
    // Troll H5 with a dwarf on H7: it walks to H6 (beside the dwarf) but captures nothing, and
    // cannot walk through H7.
    let position = koom_valley("5/7/9/11/13/15/15/14R/7d7/15/6T6/11/9/7/5 t");
    assert_eq!(legal_between(&position, "H5", "H6"), set(&["TH5-H6"]));
    assert_eq!(refusal(&position, "TH5-H8"), "H7 is in the way");
    assert_eq!(
        refusal(&position, "TH5-H6xH7"),
        "in Koom Valley trolls capture only by trampling: jumping over a dwarf next to them"
    );
    assert_eq!(play(&position, "TH5-H6").dwarfs().len(), 1);
}

#[test]
fn koom_valley_a_troll_tramples_over_dwarfs_changing_direction_and_stopping_after_any_jump() {
    // Troll F3; dwarfs G4 (north-east of it), I5 and I6.
    let position = koom_valley("5/7/9/11/13/15/15/14R/15/8d6/7d5/4d6/2T6/7/5 t");
    let tramples: BTreeSet<String> = legal_from(&position, "F3")
        .into_iter()
        .filter(|m| m.contains('x'))
        .collect();
    assert_eq!(
        tramples,
        set(&[
            // stop after the first jump
            "TF3-H5xG4",
            // on north-east over I6
            "TF3-H5-J7xG4xI6",
            // turn east over I5 ...
            "TF3-H5-J5xG4xI5",
            // ... and turn again, north-west over I6
            "TF3-H5-J5-H7xG4xI5xI6",
        ])
    );
    let after = play(&position, "TF3-H5-J5-H7");
    assert_eq!(piece(&after, "H7"), Some(Piece::Troll));
    assert!(after.dwarfs().is_empty(), "every jumped dwarf is removed");
    assert_eq!(piece(&after, "F3"), None);
    assert_eq!(
        piece(&after, "H5"),
        None,
        "landing squares on the way are left empty"
    );
    // A trample cannot begin with a plain move.
    // F3 to F4 is a walk; from F4 a jump over G4 to H4 would follow.
    assert!(refusal(&position, "TF3-F4-H4xG4").contains("trample"));
}

#[test]
fn koom_valley_a_jumped_dwarf_is_gone_at_once_and_cannot_be_jumped_again() {
    // Troll E5 and one dwarf F5: one trample to G5, and no jumping back over F5.
    let position = koom_valley("5/7/9/11/13/15/15/14R/15/15/3Td8/11/9/7/5 t");
    let tramples: BTreeSet<String> = legal(&position)
        .into_iter()
        .filter(|m| m.contains('x'))
        .collect();
    assert_eq!(tramples, set(&["TE5-G5xF5"]));
    refusal(&position, "TE5-G5-E5xF5");
}

#[test]
fn koom_valley_a_trample_may_come_back_to_its_own_square_which_it_has_left() {
    // Troll H5; dwarfs H6, I6, I5: over H6 to H7, over I6 to J5, over I5 back to H5.
    let position = koom_valley("5/7/9/11/13/15/15/14R/15/7dd6/6Td5/11/9/7/5 t");
    assert!(legal(&position).contains("TH5-H7-J5-H5xH6xI5xI6"));
    let after = play(&position, "TH5-H7-J5-H5");
    assert_eq!(piece(&after, "H5"), Some(Piece::Troll));
    assert!(after.dwarfs().is_empty());
}

#[test]
fn koom_valley_nothing_jumps_or_passes_the_rock() {
    // Troll G8 beside the Rock H8, I8 empty beyond it; a dwarf on A6.
    let position = koom_valley("5/7/9/11/13/15/15/6TR7/15/d14/13/11/9/7/5 t");
    assert!(legal(&position).iter().all(|m| !m.contains('x')));
    assert!(legal_from(&position, "G8")
        .iter()
        .all(|m| !m.contains("-I8")));
    refusal(&position, "TG8-I8");
    refusal(&position, "TG8-I8xH8");
}

#[test]
fn koom_valley_the_trolls_win_with_three_trolls_beside_the_rock_after_a_troll_move() {
    // The Rock H8 with trolls G7 and I7 diagonally beside it; troll H5 walks up to H7.
    let position = koom_valley("5/7/9/11/13/15/15/7R7/6T1T6/d14/6T6/11/9/7/5 t");
    assert_eq!(position.objective_reached(), None);
    let short = play(&position, "TH5-H6");
    assert_eq!(
        short.objective_reached(),
        None,
        "two trolls beside the Rock are not enough"
    );
    assert!(!short.legal_moves().is_empty());

    let mut battle = Battle::from_position(position);
    battle.play(&"TH5-H7".parse().unwrap()).unwrap();
    assert!(battle.is_over());
    assert_eq!(
        battle.end(),
        Some(BattleEnd::Objective {
            winner: Side::Trolls
        })
    );
    assert!(battle.position().legal_moves().is_empty());
    let result = battle.result().unwrap();
    assert_eq!(result.winner, Some(Side::Trolls));
    assert_eq!(result.margin, Points::whole(1));
    assert_eq!(
        result.points_for(Side::Trolls, Variant::KoomValley),
        Points::whole(1)
    );
    assert_eq!(
        result.points_for(Side::Dwarfs, Variant::KoomValley),
        Points::ZERO
    );
}

#[test]
fn koom_valley_pushing_the_rock_next_to_three_trolls_wins_only_after_the_trolls_move() {
    // Trolls G6 H6 I6; the dwarf G8 pushes the Rock from H8 to H7, right beside all three.
    let position = koom_valley("5/7/9/11/13/15/15/6dR7/15/d5TTT6/13/11/9/7/5 d");
    let after = play(&position, "RH8-H7");
    assert_eq!(after.objective_reached(), None, "it was a dwarf move");
    assert!(!after.legal_moves().is_empty());
    // Any troll move that leaves three beside the Rock wins; one that breaks the ring does not.
    assert_eq!(play(&after, "TG6-G5").objective_reached(), None);
    assert_eq!(play(&after, "TG6-F6").objective_reached(), None);
    let won = play(&after, "TI6-I7");
    assert_eq!(won.objective_reached(), Some(Side::Trolls));
}

#[test]
fn koom_valley_the_dwarfs_win_when_a_rock_move_ends_on_f1_to_j1() {
    // The Rock on H2 with a dwarf beside it on G2; a troll on A6.
    let position = koom_valley("5/7/9/11/13/15/15/15/15/T14/13/11/9/2dR3/5 d");
    let to_goal: BTreeSet<String> = legal(&position)
        .into_iter()
        .filter(|m| m.starts_with('R') && m.ends_with('1'))
        .collect();
    // I1 does not touch G2, so the Rock cannot go there.
    assert_eq!(to_goal, set(&["RH2-G1", "RH2-H1"]));
    let mut battle = Battle::from_position(position.clone());
    battle.play(&"RH2-H1".parse().unwrap()).unwrap();
    assert_eq!(
        battle.end(),
        Some(BattleEnd::Objective {
            winner: Side::Dwarfs
        })
    );
    assert_eq!(battle.result().unwrap().winner, Some(Side::Dwarfs));
    // A dwarf standing on a goal square wins nothing: only the Rock counts.
    let dwarf_there = play(&position, "dG2-G1");
    assert_eq!(dwarf_there.objective_reached(), None);
    assert!(!dwarf_there.legal_moves().is_empty());
    // Nor does a Rock move elsewhere.
    assert_eq!(play(&position, "RH2-G3").objective_reached(), None);
}

#[test]
fn koom_valley_a_battle_ended_by_agreement_is_drawn_half_a_point_each() {
    let mut battle = Battle::new(Variant::KoomValley);
    battle.play(&"dH9-H10".parse().unwrap()).unwrap();
    battle.end_by_agreement().unwrap();
    let result = battle.result().unwrap();
    assert_eq!(result.winner, None);
    for side in [Side::Dwarfs, Side::Trolls] {
        assert_eq!(result.points_for(side, Variant::KoomValley), Points::HALF);
    }
}

#[test]
fn koom_valley_a_battle_where_the_side_to_move_has_no_move_is_drawn() {
    // Troll F1 hemmed in: dwarfs G1 E2 F2 G2, each with a dwarf beyond (H1 D3 F3 H3).
    let boxed = koom_valley("5/7/9/11/13/15/15/7R7/15/15/13/11/d1d1d4/ddd4/Tdd2 t");
    assert!(boxed.legal_moves().is_empty());
    let battle = Battle::from_position(boxed);
    assert_eq!(
        battle.end(),
        Some(BattleEnd::NoLegalMove { side: Side::Trolls })
    );
    let result = battle.result().unwrap();
    assert_eq!(result.winner, None, "eight dwarfs to one troll, yet a draw");
    assert_eq!(
        result.points_for(Side::Dwarfs, Variant::KoomValley),
        Points::HALF
    );
    // No trolls left at all: also drawn.
    let battle = Battle::from_position(koom_valley("5/7/9/11/13/15/15/7R7/15/d14/13/11/9/7/5 t"));
    assert!(battle.is_over());
    assert_eq!(battle.result().unwrap().winner, None);
}

#[test]
fn koom_valley_match_a_win_is_1_point_a_draw_half_and_more_points_win() {
    // Battle 1: the trolls (Second) win at once. Battle 2: drawn by agreement.
    let m = agreed_match(
        Variant::KoomValley,
        &[
            (
                "5/7/9/11/13/15/15/7R7/6T1T6/d14/6T6/11/9/7/5 t",
                &["TH5-H7"],
            ),
            (KOOM_VALLEY_START, &[]),
        ],
    );
    let result = m.result().unwrap();
    assert_eq!(
        result.battles,
        vec![
            [Points::ZERO, Points::whole(1)],
            [Points::HALF, Points::HALF]
        ]
    );
    assert_eq!(result.total(Seat::First).to_string(), "½");
    assert_eq!(result.total(Seat::Second).to_string(), "1½");
    assert_eq!(result.winner, Some(Seat::Second));
    assert_eq!(result.margin, Points::whole(1));

    let drawn = agreed_match(
        Variant::KoomValley,
        &[(KOOM_VALLEY_START, &[]), (KOOM_VALLEY_START, &[])],
    );
    let result = drawn.result().unwrap();
    assert_eq!(result.totals, [Points::whole(1), Points::whole(1)]);
    assert_eq!(result.winner, None);
}

// ---------------------------------------------------------------------------------------------
// §5 Notation

#[test]
fn move_output_is_canonical_piece_letter_upper_case_captures_sorted() {
    // Troll G7, dwarfs E5 and F5 (as in the troll step test).
    let position = classic("5/7/9/11/13/15/15/7R7/6T8/15/3dd8/11/9/7/5 t");
    for text in [
        "g7-f6xf5xe5",
        "TG7-F6xE5xF5",
        "t g7 - f6 x f5 x e5",
        "G7-F6xF5,E5",
    ] {
        let mv = position.resolve(&text.parse().unwrap()).unwrap();
        assert_eq!(mv.to_string(), "TG7-F6xE5xF5", "{text}");
    }
    // Column order: E7 before F5 before G5 and G7 (as a shove F10-F8 in the shove test).
    let shove = classic("5/7/9/11/4T8/5T9/15/6d7R/4d1d8/15/13/11/9/7/5 t");
    let mv = shove.resolve(&"f10-f8xg8xg7xe7".parse().unwrap()).unwrap();
    assert_eq!(mv.to_string(), "TF10-F8xE7xG7xG8");
}

#[test]
fn the_piece_letter_is_optional_on_input() {
    let start = Variant::Classic.start();
    let with = start.resolve(&"dA6-C6".parse().unwrap()).unwrap();
    let without = start.resolve(&"A6-C6".parse().unwrap()).unwrap();
    assert_eq!(with, without);
    assert_eq!(with.to_string(), "dA6-C6");
    let text: MoveText = "A6-C6".parse().unwrap();
    assert_eq!(text.piece, None);
    // A wrong letter is refused in words.
    assert_eq!(refusal(&start, "TA6-C6"), "A6 holds a dwarf, not a troll");
}

#[test]
fn each_capture_follows_an_x() {
    let text: MoveText = "TG7-F6xE5xF5".parse().unwrap();
    assert_eq!(text.squares, [sq("G7"), sq("F6")]);
    assert_eq!(text.captures, [sq("E5"), sq("F5")]);
    let hurl: MoveText = "dD4-G7xG7".parse().unwrap();
    assert_eq!(hurl.piece, Some(Piece::Dwarf));
    assert_eq!(hurl.captures, [sq("G7")]);
    assert!(matches!(
        "TG7-F6x".parse::<MoveText>(),
        Err(NotationError::EmptyCapture { .. })
    ));
}

#[test]
fn a_hurl_is_written_with_the_captured_troll_after_x() {
    // Dwarfs H2 H3, a troll on H5 (as in the hurl test).
    let position = classic("5/7/9/11/13/15/15/14R/15/15/6T6/11/4d4/3d3/5 d");
    let mv = position.resolve(&"dH3-H5xH5".parse().unwrap()).unwrap();
    assert_eq!(mv.to_string(), "dH3-H5xH5");
    let short = position.resolve(&"h3-h5".parse().unwrap()).unwrap();
    assert_eq!(short, mv);
}

#[test]
fn koom_valley_notation_for_the_rock_tramples_and_sandwiches() {
    let rock = koom_valley("5/7/9/11/13/15/7d7/7R7/15/T14/13/11/9/7/5 d");
    let mv = rock.resolve(&"rh8-g9".parse().unwrap()).unwrap();
    assert_eq!(mv.to_string(), "RH8-G9");
    let text: MoveText = "RH8-H9".parse().unwrap();
    assert_eq!(text.piece, Some(Piece::Stone));

    // The RULES.md example trample, in its position: troll F3, dwarfs G4 I6 (and I5).
    let trample = koom_valley("5/7/9/11/13/15/15/14R/15/8d6/7d5/4d6/2T6/7/5 t");
    let parsed: MoveText = "TF3-H5-J7xG4xI6".parse().unwrap();
    assert_eq!(parsed.squares, [sq("F3"), sq("H5"), sq("J7")]);
    let mv = trample.resolve(&parsed).unwrap();
    assert_eq!(mv.to_string(), "TF3-H5-J7xG4xI6");
    assert_eq!(trample.resolve(&"f3-h5-j7".parse().unwrap()).unwrap(), mv);
    assert_eq!(
        trample
            .resolve(&"TF3-H5-J7xI6xG4".parse().unwrap())
            .unwrap(),
        mv
    );

    // A sandwich: dwarf H2 to H5 capturing G4 G5 I6 (as in the sandwich test).
    let sandwich = koom_valley("5/7/9/11/13/15/15/14R/9d5/7TT6/4dT7/4T6/2d6/3d3/5 d");
    let mv = sandwich
        .resolve(&"dH2-H5xI6xG5xG4".parse().unwrap())
        .unwrap();
    assert_eq!(mv.to_string(), "dH2-H5xG4xG5xI6");
    // The RULES.md example text reads as a dwarf move with one capture.
    let example: MoveText = "dA6-C8xB7".parse().unwrap();
    assert_eq!(example.squares, [sq("A6"), sq("C8")]);
    assert_eq!(example.captures, [sq("B7")]);
}

#[test]
fn a_position_lists_rows_15_down_to_1_then_the_side_to_move() {
    let start =
        classic("dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd d");
    assert_eq!(
        piece(&start, "F15"),
        Some(Piece::Dwarf),
        "row 15 comes first"
    );
    assert_eq!(piece(&start, "H15"), None);
    assert_eq!(piece(&start, "F1"), Some(Piece::Dwarf), "row 1 comes last");
    assert_eq!(piece(&start, "A8"), None);
    assert_eq!(piece(&start, "G8"), Some(Piece::Troll));
    assert_eq!(start.side_to_move(), Side::Dwarfs);
    let trolls =
        classic("dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd t");
    assert_eq!(trolls.side_to_move(), Side::Trolls);
    assert_eq!(trolls.to_string().chars().last(), Some('t'));
    // Bad text names what is wrong.
    let err = Position::from_fen("dd1dd/d5d d", Variant::Classic).unwrap_err();
    assert!(err.to_string().contains("15 rows"), "{err}");
    let err =
        Position::from_fen(&CLASSIC_START.replacen("d5d", "d6d", 1), Variant::Classic).unwrap_err();
    assert_eq!(err.to_string(), "row 14 should hold 7 squares but holds 8");
}

// ---------------------------------------------------------------------------------------------
// Refusals read well and change nothing

#[test]
fn refusals_explain_themselves_in_the_players_words() {
    let start = Variant::Classic.start();
    assert_eq!(
        refusal(&start, "TG7-F6"),
        "that is not your piece: G7 holds a troll and it is the dwarfs' turn"
    );
    assert_eq!(refusal(&start, "dH1-H2"), "there is no piece on H1");
    assert_eq!(refusal(&start, "dF1-G3"), "F1 to G3 is not a straight line");
    assert_eq!(refusal(&start, "dF1-G1"), "G1 is taken by a dwarf");
    assert_eq!(refusal(&start, "H8-H5"), "the Thudstone never moves");
    assert_eq!(
        refusal(&start, "dH8-H5"),
        "H8 holds a Thudstone, not a dwarf"
    );
    // Troll G7, dwarfs E5 F5: E4 is two rows below F6.
    let step = classic("5/7/9/11/13/15/15/7R7/6T8/15/3dd8/11/9/7/5 t");
    assert_eq!(refusal(&step, "TG7-F6xE4"), "E4 is not next to F6");
    assert_eq!(refusal(&step, "TG7-F6xG6"), "G6 holds no dwarf to capture");
}

#[test]
fn a_refused_move_changes_nothing() {
    let mut battle =
        Battle::from_position(classic("5/7/9/11/4T8/5T9/15/6d7R/4d1d8/15/13/11/9/7/5 t"));
    let before = battle.clone();
    for text in [
        "TF10-F8",
        "TF10-F7xG7",
        "TF10-F8xE4",
        "dG8-G9",
        "TF11-F9",
        "TF10-F10",
    ] {
        let err = battle.play(&text.parse().unwrap());
        assert!(err.is_err(), "{text}");
        assert_eq!(battle, before, "{text} changed the battle");
    }
    let mut m = Match::new(Variant::Classic);
    let before = m.clone();
    assert!(m.play(Seat::First, &"dF1-F1".parse().unwrap()).is_err());
    assert!(m.play(Seat::Second, &"TG7-F6".parse().unwrap()).is_err());
    assert_eq!(m, before);
}

//! The rules of RULES.md §1 (the board and its squares) and the classic start of §2, one
//! focused test per rule, each on a position written for it.

use std::collections::BTreeSet;

use crate::rules_support::{piece, play, refusal, sq, squares};
use thud_engine::game::{
    parse_square_list, Battle, Piece, Side, Square, SquareError, Variant, CLASSIC_START,
};

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

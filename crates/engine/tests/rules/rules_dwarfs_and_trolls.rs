//! How dwarfs and trolls move and capture: RULES.md §2 for classic Thud and §4 for the
//! variant `original`, one focused test per rule, each on a position written for it.

use std::collections::BTreeSet;

use crate::rules_support::{
    classic, is_legal, legal, legal_between, legal_from, original, piece, play, refusal, set, sq,
};
use thud_engine::game::{Piece, Square, Variant};

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
fn a_shove_naming_a_capture_it_cannot_make_is_refused_for_that_capture() {
    // The start, the trolls to move: trolls G7 H7 I7 in a line facing west; no dwarf near E7.
    let position =
        classic("dd1dd/d5d/d7d/d9d/d11d/d13d/d5TTT5d/6TRT6/d5TTT5d/d13d/d11d/d9d/d7d/d5d/dd1dd t");
    // C6 was named, but it is not next to E7: that is the reason, as a step's refusal says.
    assert_eq!(refusal(&position, "TG7-E7xC6"), "C6 is not next to E7");
    assert_eq!(refusal(&position, "TG7-F7xC6"), "C6 is not next to F7");
    // A square next to the landing with no dwarf on it.
    assert_eq!(
        refusal(&position, "TG7-E7xD7"),
        "D7 holds no dwarf to capture"
    );
    // Naming nothing, the shove lacks a capture.
    assert_eq!(refusal(&position, "TG7-E7"), "a shove must capture a dwarf");
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

//! The notation of moves and positions (RULES.md §5), and refusals that explain themselves
//! and change nothing.

use crate::rules_support::{classic, koom_valley, piece, refusal, sq};
use thud_engine::game::{
    Battle, Match, MoveText, NotationError, Piece, Position, Seat, Side, Variant, CLASSIC_START,
};

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

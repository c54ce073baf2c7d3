//! The variant Koom Valley (RULES.md §4): its start, moves, captures, wins and scores, one
//! focused test per rule, each on a position written for it.

use std::collections::BTreeSet;

use crate::rules_support::{
    agreed_match, classic, is_legal, koom_valley, legal, legal_between, legal_from, piece, play,
    refusal, set, sq, squares,
};
use thud_engine::game::{
    Battle, BattleEnd, Piece, Points, Seat, Side, Square, Variant, KOOM_VALLEY_START,
};

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

//! How a battle ends and scores (RULES.md §2) and how a match of two battles is decided (§3),
//! one focused test per rule, each on a position written for it.

use crate::rules_support::{agreed_match, classic, refusal};
use thud_engine::game::{Battle, BattleEnd, Match, MatchError, Points, Score, Seat, Side, Variant};

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

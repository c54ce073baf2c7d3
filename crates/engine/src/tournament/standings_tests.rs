//! Scores and tie-breaks on hand-made tournaments, worked out on paper first.

use super::*;

fn won(round: u32, first: usize, second: usize, winner: usize, margin: u32) -> Game {
    Game {
        round,
        pairing: Pairing::Match { first, second },
        outcome: Some(MatchOutcome::Won { winner, margin }),
    }
}

fn drawn(round: u32, first: usize, second: usize) -> Game {
    Game {
        round,
        pairing: Pairing::Match { first, second },
        outcome: Some(MatchOutcome::Drawn),
    }
}

fn bye(round: u32, player: usize) -> Game {
    Game {
        round,
        pairing: Pairing::Bye(player),
        outcome: None,
    }
}

fn summary(s: &Standings) -> Vec<(usize, usize, u32)> {
    s.lines
        .iter()
        .map(|l| (l.rank, l.player, l.points.0))
        .collect()
}

/// A (0), B (1), C (2), D (3). A beats B, draws C, loses to D; B beats C and D; C draws D.
/// Points: B 2, A 1½, D 1½, C 1. Sonneborn–Berger: A = B's 2 + ½·C's 1 = 2.5;
/// D = A's 1½ + ½·C's 1 = 2; so A is ahead of D. B = C's 1 + D's 1½ = 2.5; C = ½·1½ + ½·1½ = 1.5.
#[test]
fn round_robin_ties_are_broken_by_sonneborn_berger() {
    let games = [
        won(1, 0, 3, 3, 2),
        won(1, 1, 2, 1, 3),
        won(2, 3, 1, 1, 4),
        drawn(2, 2, 0),
        drawn(3, 2, 3),
        won(3, 0, 1, 0, 5),
    ];
    let s = Standings::compute(Format::RoundRobin, 4, 3, &games);
    assert_eq!(
        summary(&s),
        vec![(1, 1, 4), (2, 0, 3), (3, 3, 3), (4, 2, 2)]
    );
    let sb = |p| match s.of(p).unwrap().tie_breaks {
        TieBreaks::SonnebornBerger(q) => q.to_string(),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        [sb(1), sb(0), sb(3), sb(2)],
        ["2.5", "2.5", "2", "1.5"].map(String::from)
    );
    assert_eq!(s.leaders(), vec![1]);
    assert_eq!(
        s.of(0).unwrap().cells,
        vec![
            Cell::Lost {
                opponent: 3,
                margin: 2
            },
            Cell::Drawn { opponent: 2 },
            Cell::Won {
                opponent: 1,
                margin: 5
            },
        ]
    );
}

/// Five players, three rounds, a bye each round (a bye is a win, and adds nothing to Buchholz).
/// R1: 0 beats 2 by 4, 1 draws 3, 4 bye. R2: 4 beats 0 by 6, 2 beats 1 by 1, 3 bye.
/// R3: 3 beats 4 by 2, 0 beats 1 by 3, 2 bye.
/// Points: 3 2½; 0, 2, 4 2 each; 1 ½.
/// Buchholz: 0 = 2 + 2 + ½ = 4½; 4 = 2 + 2½ = 4½; 2 = 2 + ½ = 2½.
/// Margin: 0 = +4 −6 +3 = +1; 4 = +6 −2 = +4. So 4 before 0 before 2.
#[test]
fn swiss_ties_are_broken_by_buchholz_then_margin() {
    let games = [
        won(1, 0, 2, 0, 4),
        drawn(1, 1, 3),
        bye(1, 4),
        won(2, 0, 4, 4, 6),
        won(2, 1, 2, 2, 1),
        bye(2, 3),
        won(3, 4, 3, 3, 2),
        won(3, 0, 1, 0, 3),
        bye(3, 2),
    ];
    let s = Standings::compute(Format::Swiss { rounds: Some(3) }, 5, 3, &games);
    assert_eq!(
        summary(&s),
        vec![(1, 3, 5), (2, 4, 4), (3, 0, 4), (4, 2, 4), (5, 1, 1)]
    );
    let tb = |p| s.of(p).unwrap().tie_breaks;
    assert_eq!(
        tb(4),
        TieBreaks::Swiss {
            buchholz: HalfPoints(9),
            margin: 4
        }
    );
    assert_eq!(
        tb(0),
        TieBreaks::Swiss {
            buchholz: HalfPoints(9),
            margin: 1
        }
    );
    assert_eq!(
        tb(2),
        TieBreaks::Swiss {
            buchholz: HalfPoints(5),
            margin: -3
        }
    );
    assert_eq!(s.of(2).unwrap().cells[2], Cell::Bye);
}

#[test]
fn equal_players_share_a_rank_and_a_round_robin_bye_scores_nothing() {
    // Three players, all drawn: every one has 1 point, SB 1.5, rank 1.
    let games = [
        drawn(1, 0, 1),
        bye(1, 2),
        drawn(2, 2, 0),
        bye(2, 1),
        drawn(3, 1, 2),
        bye(3, 0),
    ];
    let s = Standings::compute(Format::RoundRobin, 3, 3, &games);
    assert_eq!(summary(&s), vec![(1, 0, 2), (1, 1, 2), (1, 2, 2)]);
    assert_eq!(s.leaders(), vec![0, 1, 2]);
}

#[test]
fn forfeits_and_matches_in_play() {
    let games = [
        Game {
            round: 1,
            pairing: Pairing::Match {
                first: 0,
                second: 1,
            },
            outcome: Some(MatchOutcome::Forfeited { winner: 1 }),
        },
        Game {
            round: 1,
            pairing: Pairing::Match {
                first: 2,
                second: 3,
            },
            outcome: None,
        },
        // Games naming unknown rounds or players are ignored rather than trusted.
        won(9, 0, 1, 0, 1),
        won(1, 0, 7, 0, 1),
    ];
    let s = Standings::compute(Format::Swiss { rounds: Some(2) }, 4, 2, &games);
    assert_eq!(s.of(1).unwrap().points, HalfPoints(2));
    assert_eq!(s.of(0).unwrap().cells[0], Cell::ForfeitLost { opponent: 1 });
    assert_eq!(
        s.of(1).unwrap().tie_breaks,
        TieBreaks::Swiss {
            buchholz: HalfPoints(0),
            margin: 0
        }
    );
    assert_eq!(
        s.of(2).unwrap().cells,
        vec![Cell::Playing { opponent: 3 }, Cell::Absent]
    );
    assert_eq!(s.of(2).unwrap().points, HalfPoints(0));
}

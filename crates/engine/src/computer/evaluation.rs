//! Judging a position without searching, in hundredths of a dwarf from the dwarfs' side:
//! material first, then what strong players look for.
//!
//! Classic and original: the score is the battle's result (1 a dwarf, 4 a troll). Dwarfs want
//! a compact, connected block (a lone dwarf is a free capture, a block cannot be shoved into),
//! lines aimed at trolls (a hurl needs a line as long as the distance), and no dwarf a troll
//! can reach unpunished. Trolls want to stay together (lines to shove along, and no troll
//! alone for the dwarfs to gang up on) and to strike while dwarfs are still scattered, which
//! the reach term rewards. Koom Valley: see [`koom_valley`].

use crate::game::{Direction, Position, Side, Square, Variant};

use super::features::{king_distance, weighed_features, Weights};

/// A dwarf, the unit of every score.
pub(crate) const DWARF: i32 = 100;
/// A troll, as the rules count it.
pub(crate) const TROLL: i32 = 400;
/// A won Koom Valley battle; scores beyond [`WIN_BOUND`] are wins found by the search.
pub(crate) const WIN: i32 = 30_000;
pub(crate) const WIN_BOUND: i32 = WIN - 1_000;

/// The value of `pos` for the dwarfs. `plain` judges by material alone (level 1, and the
/// assessment of what playing on can still win); `weights` weigh the classic counts.
pub(crate) fn evaluate(pos: &Position, plain: bool, weights: &Weights) -> i32 {
    match pos.variant() {
        Variant::KoomValley => koom_valley(pos, plain),
        Variant::Classic | Variant::Original => classic(pos, plain, weights),
    }
}

/// The value of a battle that has ended because the side to move has no legal move.
pub(crate) fn final_value(pos: &Position) -> i32 {
    match pos.variant() {
        // A battle ended this way is drawn, unless an objective was reached (handled apart).
        Variant::KoomValley => 0,
        Variant::Classic | Variant::Original => material(pos),
    }
}

/// Pieces on the board as the rules count them.
pub(crate) fn material(pos: &Position) -> i32 {
    DWARF * pos.dwarfs().len() as i32 - TROLL * pos.trolls().len() as i32
}

fn classic(pos: &Position, plain: bool, weights: &Weights) -> i32 {
    let score = material(pos);
    if plain || pos.dwarfs().is_empty() || pos.trolls().is_empty() {
        return score;
    }
    score + weights.score(&weighed_features(pos, weights))
}

/// Koom Valley, where pieces matter only for the objectives: the dwarfs push the Rock to the
/// far side (its distance from the goal squares, dwarfs beside it to push it), the trolls
/// gather three around it (trolls beside it and close to it). Fewer than three trolls can
/// never win. `plain` (a beginner) sees the pieces and the objectives and nothing finer: not
/// which dwarfs a troll can jump, nor which trolls the dwarfs can sandwich.
fn koom_valley(pos: &Position, plain: bool) -> i32 {
    let dwarfs = pos.dwarfs();
    let trolls = pos.trolls();
    let mut score = DWARF * dwarfs.len() as i32 - 300 * trolls.len() as i32;
    if trolls.len() < 3 && !dwarfs.is_empty() {
        score += 2_000;
    }
    let rock = pos.stone();
    let goal_distance = {
        let column = rock.column() as i32;
        let sideways = (5 - column).max(column - 9).max(0);
        (rock.row() as i32).max(sideways)
    };
    score += 70 * (7 - goal_distance);
    if goal_distance <= 1 {
        score += 250;
    }
    let (mut pushers, mut guards) = (0, 0);
    for d in Direction::ALL {
        match rock.step(d) {
            Some(n) if dwarfs.contains(n) => pushers += 1,
            Some(n) if trolls.contains(n) => guards += 1,
            _ => {}
        }
    }
    score -= match guards {
        0 => 0,
        1 => 120,
        2 => 450,
        _ => 5_000,
    };
    // The three trolls nearest the Rock are the ones that can close in on it.
    let mut distances: Vec<i32> = trolls.iter().map(|t| king_distance(t, rock)).collect();
    distances.sort_unstable();
    score += 15 * distances.iter().take(3).map(|&d| d.min(8)).sum::<i32>();
    if plain {
        return score;
    }
    score += 25 * pushers.min(2);
    if pushers == 0 {
        score -= 40;
    }
    let mut jumpable = 0;
    for t in trolls {
        for d in Direction::ALL {
            if let Some(n) = t.step(d).filter(|&n| dwarfs.contains(n)) {
                if n.step(d).is_some_and(|beyond| pos.is_empty(beyond)) {
                    jumpable += 1;
                }
            }
        }
    }
    score -= 25 * jumpable;
    let threatened = sandwich_threats(pos);
    score += match pos.side_to_move() {
        // The search sees the capture itself; the threat still shows a better position.
        Side::Dwarfs => 40 * threatened,
        // The trolls can save one threatened troll, not two.
        Side::Trolls => 30 * threatened.min(1) + 220 * (threatened - 1).max(0),
    };
    for d in dwarfs {
        score += 4 * (pos.dwarf_neighbours[d.index()] as i32).min(3);
    }
    score
}

/// The trolls a dwarf could sandwich next move: a dwarf on one side, and on the other an
/// empty square some dwarf can reach in one queen's move.
fn sandwich_threats(pos: &Position) -> i32 {
    let dwarfs = pos.dwarfs();
    let mut threatened = 0;
    for t in pos.trolls() {
        let exposed = Direction::ALL.into_iter().any(|d| {
            let anchored = t.step(d).is_some_and(|n| dwarfs.contains(n));
            let Some(open) = t.step(d.opposite()).filter(|&s| pos.is_empty(s)) else {
                return false;
            };
            anchored && dwarf_reaches(pos, open)
        });
        threatened += i32::from(exposed);
    }
    threatened
}

/// Whether a dwarf stands at the end of an open line to the empty square `target`.
fn dwarf_reaches(pos: &Position, target: Square) -> bool {
    Direction::ALL.into_iter().any(|d| {
        let mut at = target;
        while let Some(next) = at.step(d) {
            if !pos.is_empty(next) {
                return pos.dwarfs().contains(next);
            }
            at = next;
        }
        false
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::game::Piece;

    /// A Koom Valley board with the Rock on `rock` and the pieces named, `side` to move.
    fn koom_valley_board(rock: &str, dwarfs: &[&str], trolls: &[&str], side: Side) -> Position {
        let square = |name: &str| name.parse::<Square>().expect("a square");
        let mut pos = Position::with_stone(Variant::KoomValley, square(rock), side);
        for d in dwarfs {
            pos.put(square(d), Piece::Dwarf);
        }
        for t in trolls {
            pos.put(square(t), Piece::Troll);
        }
        pos
    }

    #[test]
    fn a_beginner_knows_the_koom_valley_objectives() {
        let trolls = ["F3", "H3", "J3"];
        let far = koom_valley_board("H8", &["H9"], &trolls, Side::Dwarfs);
        let nearer = koom_valley_board("H6", &["H7"], &trolls, Side::Dwarfs);
        assert!(evaluate(&nearer, true, &Weights::TUNED) > evaluate(&far, true, &Weights::TUNED));
        let closing = koom_valley_board("H8", &["H9"], &["G7", "H6", "J3"], Side::Dwarfs);
        assert!(evaluate(&closing, true, &Weights::TUNED) < evaluate(&far, true, &Weights::TUNED));
    }

    #[test]
    fn trolls_a_dwarf_can_sandwich_are_threatened() {
        // The troll on H5 has a dwarf on H6 and an empty H4 that the dwarf on D4 can reach.
        let alone = koom_valley_board("H8", &["H6", "D4"], &["H5", "L11", "C10"], Side::Trolls);
        assert_eq!(sandwich_threats(&alone), 1);
        // A troll on G4 blocks the line from D4 to H4.
        let blocked = koom_valley_board("H8", &["H6", "D4"], &["H5", "G4", "C10"], Side::Trolls);
        assert_eq!(sandwich_threats(&blocked), 0);
        // The same pieces with three trolls threatened, trolls to move: they can save only one.
        let unthreatening = ["H6", "D4", "K13", "A10"];
        let one = koom_valley_board("H8", &unthreatening, &["H5", "L11", "C10"], Side::Trolls);
        let three = koom_valley_board(
            "H8",
            &["H6", "D4", "L12", "B10"],
            &["H5", "L11", "C10"],
            Side::Trolls,
        );
        assert_eq!(sandwich_threats(&one), 1);
        assert_eq!(sandwich_threats(&three), 3);
        assert!(
            evaluate(&three, false, &Weights::TUNED) - evaluate(&one, false, &Weights::TUNED) > 300
        );
    }

    #[test]
    fn material_is_the_score_of_the_battle() {
        let start = Variant::Classic.start();
        assert_eq!(material(&start), 32 * DWARF - 8 * TROLL);
        assert_eq!(evaluate(&start, true, &Weights::TUNED), 0);
    }
}

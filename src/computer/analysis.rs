//! A look back at a battle: every position judged by the full search at a fixed budget, the
//! score ply by ply from the dwarfs' side, and what each move cost the side that played it.
//!
//! Judging a position is the expensive part (one search each) and the only part a caller
//! stores: [`judge`] one position at a time (so the work can stop and resume anywhere), then
//! [`review`] turns the judgements and the moves into costs, which is instant.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use crate::game::{Move, Position, Side};

use super::calibration::{expected_margin, search_score};
use super::evaluation::{final_value, WIN};
use super::level::Settings;

/// How hard each position is looked at: a number of positions searched, never a time, so the
/// same position gets the same judgement on any machine under any load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The search stops after visiting this many positions.
    pub nodes: u64,
}

impl Budget {
    /// The budget the bot analyses with: about a sixth of a second of one quiet core, so a
    /// battle of 150 plies takes well under a minute (see docs/analysis.md).
    pub const STANDARD: Budget = Budget { nodes: 120_000 };
}

/// No clock for the analysis's searches: the node budget stops them. (A day, so the deadline
/// never comes and never overflows.)
const NO_CLOCK: Duration = Duration::from_secs(86_400);

/// What the search thinks of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The expected final margin of the battle from the dwarfs' side, in hundredths of a point
    /// (a dwarf is 100, a troll 400; see [`super::calibration`]); a battle that is over scores
    /// its result. A won or lost Koom Valley battle is ±[`DECIDED`].
    pub score: i32,
    /// The search's own score, before it was turned into a margin (the same scale).
    pub raw: i32,
    /// The move the search would play; `None` when the position has no legal move. After
    /// [`judge_move`], the move played when a deeper look cleared it.
    pub best: Option<Move>,
    /// The deepest full iteration of the search.
    pub depth: u8,
    /// Positions the search visited.
    pub nodes: u64,
}

/// The score of a battle decided by force (a Koom Valley objective in sight).
pub const DECIDED: i32 = 10_000;

/// A move is called a mistake when it loses at least this much of the expected final margin,
/// in hundredths of a point, both at the standard look and at the deeper one.
pub const MISTAKE: i32 = 100;

/// How many times the standard budget the deeper look at a suspected mistake gets.
pub const DEEPER: u64 = 4;

/// Judges `position` under `budget`.
pub fn judge(position: &Position, budget: &Budget) -> Judgement {
    judge_within(position, budget, 32)
}

/// The last searches made, by position, budget and depth. The deeper look at a move searches
/// the position the move led to, which is the deeper look of the next move too, and a battle's
/// moves are judged one after another; a search is a function of these three alone (no clock,
/// a fresh table), so a remembered one is the same judgement, found without searching again.
static RECENT: Mutex<VecDeque<Remembered>> = Mutex::new(VecDeque::new());

/// A search [`RECENT`] keeps: its position, budget's nodes, depth and judgement.
type Remembered = (Position, u64, u8, Judgement);

/// How many searches [`RECENT`] keeps: a deeper look makes three or four.
const RECENT_SEARCHES: usize = 8;

/// [`judge`], searching no deeper than `depth` plies.
fn judge_within(position: &Position, budget: &Budget, depth: u8) -> Judgement {
    let remembered = |recent: &VecDeque<Remembered>| {
        recent
            .iter()
            .find(|(p, nodes, d, _)| *nodes == budget.nodes && *d == depth && p == position)
            .map(|&(.., judgement)| judgement)
    };
    // A poisoned lock only loses what was remembered: the search is made again.
    if let Some(judgement) = RECENT.lock().ok().and_then(|recent| remembered(&recent)) {
        return judgement;
    }
    let judgement = search_within(position, budget, depth);
    if let Ok(mut recent) = RECENT.lock() {
        if recent.len() == RECENT_SEARCHES {
            recent.pop_front();
        }
        recent.push_back((position.clone(), budget.nodes, depth, judgement));
    }
    judgement
}

/// [`judge_within`], always searching.
fn search_within(position: &Position, budget: &Budget, depth: u8) -> Judgement {
    if let Some(winner) = position.objective_reached() {
        let score = for_dwarfs(winner, DECIDED);
        return Judgement {
            score,
            raw: score,
            best: None,
            depth: 0,
            nodes: 0,
        };
    }
    let settings = Settings {
        depth,
        time: NO_CLOCK,
        nodes: budget.nodes.max(1),
        temperature: 0,
        plain_evaluation: false,
        weights: super::features::Weights::for_variant(position.variant()),
    };
    match super::think(position, &settings, 0) {
        // Over: the result as the rules count it, not a forecast.
        None => {
            let score = final_value(position);
            Judgement {
                score,
                raw: score,
                best: None,
                depth: 0,
                nodes: 0,
            }
        }
        Some(thought) => {
            let raw = tame(match position.side_to_move() {
                Side::Dwarfs => thought.settled,
                Side::Trolls => -thought.settled,
            });
            Judgement {
                score: margin(position, raw),
                raw,
                best: Some(thought.best),
                depth: thought.depth,
                nodes: thought.nodes,
            }
        }
    }
}

/// The expected final margin of `position` (not over) whose search score is `raw`, both from
/// the dwarfs' side.
pub fn margin(position: &Position, raw: i32) -> i32 {
    if raw.abs() == DECIDED {
        raw
    } else {
        expected_margin(position, raw).clamp(-DECIDED + 1, DECIDED - 1)
    }
}

/// The search's own score of `position` judged `score` (a stored judgement keeps only the
/// margin): the margin itself when the battle is over or decided.
pub fn raw_of(position: &Position, score: i32) -> i32 {
    if score.abs() == DECIDED
        || position.objective_reached().is_some()
        || !position.has_legal_move()
    {
        score
    } else {
        search_score(position, score)
    }
}

/// Judges `position` knowing the move `played` from it and the score `after` of the position
/// it led to (judged under the same budget). When the search prefers another move and the
/// move played loses at least [`MISTAKE`] by these judgements, both moves get a deeper look
/// ([`DEEPER`] times the budget); if that look finds the move played within [`MISTAKE`] of
/// the other, the move played is the judgement's best: it is no mistake.
pub fn judge_move(position: &Position, played: &Move, after: i32, budget: &Budget) -> Judgement {
    confirm(position, judge(position, budget), played, after, budget)
}

/// [`judge_move`] given the `judgement` of `position` under `budget` (made before).
pub fn confirm(
    position: &Position,
    judgement: Judgement,
    played: &Move,
    after: i32,
    budget: &Budget,
) -> Judgement {
    confirm_by(position, judgement, played, after, budget, &Look::BOT)
}

/// What a move must lose to be a mistake, and how much deeper the look that confirms it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Look {
    /// In hundredths of a point, at both looks.
    pub mistake: i32,
    /// How many times the standard budget the deeper look gets.
    pub deeper: u64,
}

impl Look {
    /// The bot's: [`MISTAKE`] and [`DEEPER`].
    pub const BOT: Look = Look {
        mistake: MISTAKE,
        deeper: DEEPER,
    };
}

/// [`confirm`] with another [`Look`] than the bot's (for measuring what another flags).
pub fn confirm_by(
    position: &Position,
    mut judgement: Judgement,
    played: &Move,
    after: i32,
    budget: &Budget,
    look: &Look,
) -> Judgement {
    let mistake = look.mistake;
    if judgement.best.is_none_or(|b| b == *played) {
        return judgement;
    }
    let side = position.side_to_move();
    // Moves are compared on the search's own scale: the calibration moves the level of the
    // score with the phase, which is no one's doing.
    let after = raw_of(&position.after(played), after);
    if for_dwarfs(side, judgement.raw - after) < mistake {
        return judgement;
    }
    let deeper = Budget {
        nodes: budget.nodes.saturating_mul(look.deeper),
    };
    // The better move is the deeper look's own choice (the standard look's may not survive
    // a deeper look), and both moves are judged alike: the position each leads to, searched
    // with the deeper budget.
    let Some(better) = judge(position, &deeper).best.filter(|b| b != played) else {
        judgement.best = Some(*played);
        return judgement;
    };
    let (of_played, of_better) = alike(&position.after(played), &position.after(&better), &deeper);
    judgement.best = if for_dwarfs(side, of_better - of_played) < mistake {
        Some(*played)
    } else {
        Some(better)
    };
    judgement
}

/// The search scores of positions `a` and `b` (the same side to move) at one depth: a search
/// its budget stopped a ply deeper than the other sees one more move of one side, which moves
/// its score by a margin no move made, so the deeper one is searched again to the shallower's
/// depth.
fn alike(a: &Position, b: &Position, budget: &Budget) -> (i32, i32) {
    let (of_a, of_b) = (judge(a, budget), judge(b, budget));
    // A position over (depth 0) scores its result, whatever the other's depth.
    if of_a.depth == 0 || of_b.depth == 0 || of_a.depth == of_b.depth {
        return (of_a.raw, of_b.raw);
    }
    let depth = of_a.depth.min(of_b.depth);
    if of_a.depth > depth {
        (judge_within(a, budget, depth).raw, of_b.raw)
    } else {
        (of_a.raw, judge_within(b, budget, depth).raw)
    }
}

/// Search scores of forced Koom Valley wins (30,000 less the distance) become ±[`DECIDED`].
pub(crate) fn tame(score: i32) -> i32 {
    if score.abs() > WIN - 1_000 {
        DECIDED * score.signum()
    } else {
        score.clamp(-DECIDED + 1, DECIDED - 1)
    }
}

fn for_dwarfs(side: Side, value: i32) -> i32 {
    match side {
        Side::Dwarfs => value,
        Side::Trolls => -value,
    }
}

/// One move of a battle, looked back at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveReview {
    /// The move's number in the battle, from 1.
    pub ply: usize,
    pub side: Side,
    pub played: Move,
    /// What the search preferred before the move; `None` when it agrees with the move played.
    pub better: Option<Move>,
    /// What the move cost the side that played it, in hundredths of a point (0 or more): the
    /// drop in the search's own score across it (the calibration shifts the level of the score
    /// with the phase, not the difference between moves).
    pub cost: i32,
    /// The score before and after the move, from the dwarfs' side.
    pub before: i32,
    pub after: i32,
    /// Pieces the move captured.
    pub captures: usize,
}

/// The positions reached by a capture (the plies of the moves that captured), for the marks
/// on an evaluation graph.
pub fn capture_plies(reviews: &[MoveReview]) -> Vec<usize> {
    reviews
        .iter()
        .filter(|r| r.captures > 0)
        .map(|r| r.ply)
        .collect()
}

/// Reviews the moves of a battle from its `start`, given a judgement of every position
/// (`judgements[i]` of the position after `i` moves, so one more than there are moves).
/// Moves without both judgements are left out.
pub fn review(start: &Position, moves: &[Move], judgements: &[Judgement]) -> Vec<MoveReview> {
    let mut reviews = Vec::with_capacity(moves.len());
    let mut position = start.clone();
    for (i, mv) in moves.iter().enumerate() {
        let side = position.side_to_move();
        position.make(mv);
        let (Some(before), Some(after)) = (judgements.get(i), judgements.get(i + 1)) else {
            break;
        };
        let agreed = before.best == Some(*mv);
        // On the search's own scale, as `confirm` compares them.
        let lost = for_dwarfs(side, before.raw - after.raw);
        // The move the search itself prefers costs nothing: a deeper look afterwards is no
        // fault of the player's.
        let cost = if agreed { 0 } else { lost.max(0) };
        reviews.push(MoveReview {
            ply: i + 1,
            side,
            played: *mv,
            better: before.best.filter(|_| !agreed && cost > 0),
            cost,
            before: before.score,
            after: after.score,
            captures: mv.captured().len(),
        });
    }
    reviews
}

/// The costliest moves of `side`, worst first, at least `threshold` each, at most `limit`.
pub fn mistakes(
    reviews: &[MoveReview],
    side: Side,
    threshold: i32,
    limit: usize,
) -> Vec<MoveReview> {
    let mut found: Vec<MoveReview> = reviews
        .iter()
        .filter(|r| r.side == side && r.cost >= threshold && r.better.is_some())
        .copied()
        .collect();
    found.sort_by(|a, b| b.cost.cmp(&a.cost).then(a.ply.cmp(&b.ply)));
    found.truncate(limit);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Battle, MoveText};

    /// Trolls to move; a line of three dwarfs on column H reaches H5 to H7, so the troll on
    /// I6 stepping onto H7 is hurled and lost.
    const PLANTED: &str = "5/7/9/3T7/13/15/15/7R7/15/8T6/13/5d5/4d4/3d3/5 t";

    fn planted() -> Position {
        PLANTED.parse().expect("the planted position reads")
    }

    fn play(position: &Position, text: &str) -> Move {
        let mut battle = Battle::from_position(position.clone());
        let text: MoveText = text.parse().expect("move text");
        battle.play(&text).expect("legal")
    }

    #[test]
    fn the_planted_position_is_what_the_test_says() {
        let p = planted();
        assert_eq!(p.side_to_move(), Side::Trolls);
        assert_eq!(p.trolls().len(), 2);
        assert_eq!(p.dwarfs().len(), 3);
        let blunder = play(&p, "TI6-H7");
        let after = p.after(&blunder);
        let hurl = play(&after, "dH4-H7xH7");
        assert_eq!(after.after(&hurl).trolls().len(), 1);
    }

    #[test]
    fn a_troll_walked_into_a_hurl_is_the_trolls_worst_move_and_a_better_one_is_named() {
        let start = planted();
        let blunder = play(&start, "TI6-H7");
        let after = start.after(&blunder);
        let hurl = play(&after, "dH4-H7xH7");
        let moves = [blunder, hurl];
        let budget = Budget { nodes: 20_000 };
        let mut position = start.clone();
        let mut judgements = vec![judge(&position, &budget)];
        for mv in &moves {
            position.make(mv);
            judgements.push(judge(&position, &budget));
        }
        let reviews = review(&start, &moves, &judgements);
        assert_eq!(reviews.len(), 2);
        let first = reviews[0];
        assert_eq!(first.side, Side::Trolls);
        assert!(first.cost >= 250, "{first:?}");
        let better = first.better.expect("a better move is named");
        assert_ne!(better, blunder);
        // The better move keeps the troll: after it, no hurl takes one.
        let saved = start.after(&better);
        let mut replies = saved.legal_moves();
        replies.retain(|m| !m.captured().is_empty());
        assert!(replies.iter().all(|r| saved.after(r).trolls().len() == 2));
        // The hurl was the dwarfs' best: it costs nothing.
        assert_eq!(reviews[1].cost, 0, "{:?}", reviews[1]);
        assert_eq!(reviews[1].captures, 1);
        let worst = mistakes(&reviews, Side::Trolls, 100, 3);
        assert_eq!(worst.len(), 1);
        assert_eq!(worst[0].played, blunder);
        assert!(mistakes(&reviews, Side::Dwarfs, 100, 3).is_empty());
    }

    #[test]
    fn a_deeper_look_confirms_the_troll_walked_into_a_hurl() {
        let start = planted();
        let blunder = play(&start, "TI6-H7");
        let budget = Budget { nodes: 20_000 };
        let after = judge(&start.after(&blunder), &budget);
        let judged = judge_move(&start, &blunder, after.score, &budget);
        let better = judged.best.expect("a move");
        assert_ne!(better, blunder);
        // The trolls' loss, by both looks, is at least a mistake's worth.
        assert!(
            after.score - judged.score >= MISTAKE,
            "{judged:?} {after:?}"
        );
    }

    #[test]
    fn two_moves_are_compared_at_one_depth() {
        // Two positions after different first moves, under a budget that stops their searches
        // at different depths: both are scored at the shallower one.
        let start = crate::game::Variant::Classic.start();
        let budget = Budget { nodes: 8_000 };
        let mut depths = Vec::new();
        for mv in start.legal_moves().into_iter().step_by(8) {
            let after = start.after(&mv);
            depths.push((judge(&after, &budget).depth, after));
        }
        let deepest = depths.iter().max_by_key(|(d, _)| *d).expect("moves");
        let shallowest = depths.iter().min_by_key(|(d, _)| *d).expect("moves");
        assert!(
            deepest.0 > shallowest.0,
            "every search reached depth {}",
            deepest.0
        );
        let (a, b) = alike(&deepest.1, &shallowest.1, &budget);
        assert_eq!(a, judge_within(&deepest.1, &budget, shallowest.0).raw);
        assert_eq!(b, judge(&shallowest.1, &budget).raw);
        assert_ne!(
            a,
            judge(&deepest.1, &budget).raw,
            "the deeper score was kept"
        );
    }

    #[test]
    fn a_move_the_deeper_look_finds_as_good_is_cleared() {
        // The standard look is told the move lost ten points (it did not): the deeper look
        // at both moves finds the move played within a mistake of the search's choice.
        let start = crate::game::Variant::Classic.start();
        let budget = Budget { nodes: 30_000 };
        let judged = judge(&start, &budget);
        let deeper = Budget {
            nodes: budget.nodes * DEEPER,
        };
        // The deeper look's own choice is what the move played is held against.
        let choice = judge(&start, &deeper).best.expect("a move");
        // The start is symmetric left to right: the mirror image of the search's choice is
        // exactly as good.
        let mirrored: String = choice
            .to_string()
            .chars()
            .map(|c| match c {
                'A'..='O' => (b'A' + (b'O' - c as u8)) as char,
                other => other,
            })
            .collect();
        let played = start
            .legal_moves()
            .into_iter()
            .find(|m| m.to_string() == mirrored)
            .expect("the mirrored move is legal");
        assert_ne!(played, choice);
        let told = judged.score - 1_000;
        assert_eq!(
            judge_move(&start, &played, told, &budget).best,
            Some(played),
            "the choice {} the mirror {}",
            judge(&start.after(&choice), &deeper).score,
            judge(&start.after(&played), &deeper).score,
        );
        // Told the truth, a move the search does not prefer keeps the search's choice.
        let honest = judge(&start.after(&played), &budget).score;
        let kept = judge_move(&start, &played, honest, &budget);
        assert_eq!(kept.score, judged.score);
    }

    #[test]
    fn the_same_position_judged_twice_gets_the_same_judgement() {
        let mut position = crate::game::Variant::Classic.start();
        for text in ["dA7-F7", "TG8-F8xF7", "dO7-O8"] {
            let mv = play(&position, text);
            position.make(&mv);
        }
        let budget = Budget { nodes: 30_000 };
        // Searched each time: `judge` would answer the second from the searches it remembers.
        let first = search_within(&position, &budget, 32);
        // A second search on another thread at the same time loads the machine: the node
        // budget, not the clock, decides where each stops.
        let busy = {
            let p = position.clone();
            std::thread::spawn(move || search_within(&p, &Budget { nodes: 60_000 }, 32))
        };
        let second = search_within(&position, &budget, 32);
        busy.join().expect("the other search ends");
        assert_eq!(first, second);
        assert_eq!(judge(&position, &budget), first);
        assert!(first.nodes >= 30_000, "{first:?}");
        assert!(first.best.is_some());
    }

    #[test]
    fn a_finished_position_is_judged_by_the_rules() {
        // Trolls to move with no troll left: the battle is over, dwarfs ahead by 3.
        let over: Position = "5/7/9/11/13/15/15/7R7/15/15/13/5d5/4d4/3d3/5 t"
            .parse()
            .expect("reads");
        let j = judge(&over, &Budget::STANDARD);
        assert_eq!(j.best, None);
        assert_eq!(j.score, 300);
    }
}

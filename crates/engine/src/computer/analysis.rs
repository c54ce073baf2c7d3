//! A look back at a battle: every position judged by the full search at a fixed budget, the
//! score ply by ply from the dwarfs' side, and what each move cost the side that played it.
//!
//! Judging a position is the expensive part (one search each) and the only part a caller
//! stores: [`judge`] one position at a time (so the work can stop and resume anywhere), then
//! [`review`] turns the judgements and the moves into costs, which is instant.

use std::collections::VecDeque;
use std::sync::Mutex;
use std::time::Duration;

use crate::game::{Move, Position, Side, Variant};

use super::calibration::{expected_margin, search_score};
use super::evaluation::{final_value, WIN};
use super::features::{SideWeights, Weights};
use super::level::{Level, Settings};

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
    /// Whether the move played from the position is a suspected mistake ([`first_look`]);
    /// `None` when it is not (or the judgement is of a position alone).
    pub suspicion: Option<Suspicion>,
}

/// A move that the standard look finds losing at least a mistake's worth. It is a mistake only
/// if the screen and the deeper look agree ([`check`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suspicion {
    /// What the move lost across it at the standard look, in hundredths of a point on the
    /// search's scale: the cost a report gives it, by which the costliest are chosen.
    pub loss: i32,
    /// Whether the screen and the deeper look have been made; the verdict is then the
    /// judgement's `best` (the move played when the deeper look cleared the move; a move the
    /// screen clears is no suspect).
    pub checked: bool,
}

/// The score of a battle decided by force (a Koom Valley objective in sight).
pub const DECIDED: i32 = 10_000;

/// A move is called a mistake when it loses at least this much of the expected final margin,
/// in hundredths of a point, both at the standard look and at the deeper one.
pub const MISTAKE: i32 = 100;

/// How many times the standard budget the deeper look at a suspected mistake gets.
pub const DEEPER: u64 = 4;

/// Whose eyes a search judges with: how it weighs what it sees besides material, and whether
/// it searches late quiet moves shallower.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eye {
    pub weights: Weights,
    pub late_move_reductions: bool,
}

impl Eye {
    /// The standard look's, for every position whoever moves: one set of weights for both
    /// sides, so the scores before and after a move (the graph, the first look) are on one
    /// scale.
    pub fn standard(variant: Variant) -> Eye {
        Eye {
            weights: Weights::for_variant(variant),
            late_move_reductions: true,
        }
    }

    /// The verdict on a move of `side`'s: level 5's search as it plays that side. A move is
    /// held against what the strongest player the bot knows would do in its place; judged
    /// with other weights than the player's, level 5's own moves were called mistakes where
    /// the two evaluations only differ in taste (docs/analysis.md, "Mistakes in self-play").
    pub fn of_player(variant: Variant, side: Side) -> Eye {
        let settings = Level::STRONGEST.settings(variant);
        Eye {
            weights: settings.weights.of(side),
            late_move_reductions: settings.late_move_reductions,
        }
    }
}

/// Judges `position` under `budget`.
pub fn judge(position: &Position, budget: &Budget) -> Judgement {
    judge_within(position, budget, 32, &Eye::standard(position.variant()))
}

/// [`judge`] with `eye`.
pub fn judge_by(position: &Position, budget: &Budget, eye: &Eye) -> Judgement {
    judge_within(position, budget, 32, eye)
}

/// The last searches made, by position, budget, depth and eye. The deeper look at a move searches
/// the position the move led to, which is the deeper look of the next move too, and a battle's
/// moves are judged one after another; a search is a function of these four alone (no clock,
/// a fresh table), so a remembered one is the same judgement, found without searching again.
static RECENT: Mutex<VecDeque<Remembered>> = Mutex::new(VecDeque::new());

/// A search [`RECENT`] keeps: its position, budget's nodes, depth, eye and judgement.
type Remembered = (Position, u64, u8, Eye, Judgement);

/// How many searches [`RECENT`] keeps: a move's screen and deeper look make up to seven.
const RECENT_SEARCHES: usize = 12;

/// [`judge_by`], searching no deeper than `depth` plies.
fn judge_within(position: &Position, budget: &Budget, depth: u8, eye: &Eye) -> Judgement {
    let remembered = |recent: &VecDeque<Remembered>| {
        recent
            .iter()
            .find(|(p, nodes, d, e, _)| {
                *nodes == budget.nodes && *d == depth && e == eye && p == position
            })
            .map(|&(.., judgement)| judgement)
    };
    // A poisoned lock only loses what was remembered: the search is made again.
    if let Some(judgement) = RECENT.lock().ok().and_then(|recent| remembered(&recent)) {
        return judgement;
    }
    let judgement = search_within(position, budget, depth, eye);
    if let Ok(mut recent) = RECENT.lock() {
        if recent.len() == RECENT_SEARCHES {
            recent.pop_front();
        }
        recent.push_back((position.clone(), budget.nodes, depth, *eye, judgement));
    }
    judgement
}

/// [`judge_within`], always searching.
fn search_within(position: &Position, budget: &Budget, depth: u8, eye: &Eye) -> Judgement {
    if let Some(winner) = position.objective_reached() {
        let score = for_dwarfs(winner, DECIDED);
        return Judgement {
            score,
            raw: score,
            best: None,
            depth: 0,
            nodes: 0,
            suspicion: None,
        };
    }
    let settings = Settings {
        depth,
        time: NO_CLOCK,
        nodes: budget.nodes.max(1),
        temperature: 0,
        plain_evaluation: false,
        late_move_reductions: eye.late_move_reductions,
        weights: SideWeights::both(eye.weights),
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
                suspicion: None,
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
                suspicion: None,
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
/// move played loses at least [`MISTAKE`] by these judgements, the positions the two moves
/// lead to are scored alike (at one depth) under the same budget, and if the move still loses
/// that much, both get a deeper look ([`DEEPER`] times the budget); if either finds the move
/// played within [`MISTAKE`] of the other, the move played is the judgement's best: it is no
/// mistake.
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
    /// Whether the two moves are first scored alike at the standard budget, and the deeper
    /// look made only when that agrees the move lost [`Look::mistake`].
    pub screen: bool,
    /// Whether the screen and the deeper look judge with the eye of the side that moved
    /// ([`Eye::of_player`]) rather than the standard look's.
    pub players_eye: bool,
}

impl Look {
    /// The bot's: [`MISTAKE`] and [`DEEPER`], screened, in the eye of the side that moved.
    pub const BOT: Look = Look {
        mistake: MISTAKE,
        deeper: DEEPER,
        screen: true,
        players_eye: true,
    };
}

/// [`confirm`] with another [`Look`] than the bot's (for measuring what another flags): the
/// first look, and the deeper look at once when the first suspects the move.
pub fn confirm_by(
    position: &Position,
    judgement: Judgement,
    played: &Move,
    after: i32,
    budget: &Budget,
    look: &Look,
) -> Judgement {
    let first = first_look_by(position, judgement, played, after, look);
    match first.suspicion {
        Some(_) => check_by(position, first, played, None, budget, look),
        None => first,
    }
}

/// The bot's first look at the move `played` from `position`: `position` judged under
/// `budget`, knowing the score `after` of the position the move led to (judged under the
/// same budget). A move the search does not prefer that loses at least [`MISTAKE`] by these
/// judgements is suspected ([`Judgement::suspicion`]); one losing less keeps the search's
/// choice. Whether a suspect really lost is [`check`]'s question.
pub fn first_look(position: &Position, played: &Move, after: i32, budget: &Budget) -> Judgement {
    first_look_by(position, judge(position, budget), played, after, &Look::BOT)
}

/// [`first_look`] given the `judgement` of `position`, with `look`.
fn first_look_by(
    position: &Position,
    mut judgement: Judgement,
    played: &Move,
    after: i32,
    look: &Look,
) -> Judgement {
    if judgement.best.is_none_or(|b| b == *played) {
        return judgement;
    }
    let side = position.side_to_move();
    // Moves are compared on the search's own scale: the calibration moves the level of the
    // score with the phase, which is no one's doing.
    let after = raw_of(&position.after(played), after);
    let lost = for_dwarfs(side, judgement.raw - after);
    if lost < look.mistake {
        return judgement;
    }
    // Whether it really lost is for [`check`]: its screen costs one or two searches, and a
    // battle full of blunders has dozens of suspects of which only the costliest are checked.
    judgement.suspicion = Some(Suspicion {
        loss: lost,
        checked: false,
    });
    judgement
}

/// The bot's check of a move its [`first_look`] suspected. First the screen: the positions
/// the move and the search's choice under `budget` lead to are scored alike (at one depth),
/// and a move that loses less than [`MISTAKE`] there is cleared and no suspect (the move
/// played is the best, the suspicion `None`). Then the deeper look: both the move played and
/// the deeper look's own choice are judged at [`DEEPER`] times the budget, and the move is a
/// mistake (the choice stays the judgement's best) only if it still loses at least
/// [`MISTAKE`]; else the move played is the best (the suspicion checked either way). Both
/// judge with the eye of the side that moved ([`Eye::of_player`]). A judgement not
/// suspected, or checked already, is returned as it is. `after`, when given, is the
/// standard look's judgement of the position the move led to under `budget` (which the screen
/// reads instead of searching again where the two eyes are the same: outside classic).
pub fn check(
    position: &Position,
    judgement: Judgement,
    played: &Move,
    after: Option<&Judgement>,
    budget: &Budget,
) -> Judgement {
    check_by(position, judgement, played, after, budget, &Look::BOT)
}

/// [`check`] with `look`.
fn check_by(
    position: &Position,
    mut judgement: Judgement,
    played: &Move,
    after: Option<&Judgement>,
    budget: &Budget,
    look: &Look,
) -> Judgement {
    let Some(suspicion) = judgement.suspicion.filter(|s| !s.checked) else {
        return judgement;
    };
    let variant = position.variant();
    let eye = match look.players_eye {
        true => Eye::of_player(variant, position.side_to_move()),
        false => Eye::standard(variant),
    };
    // The drop across the move compares searches that may have stopped at depths of different
    // parity, which swings the score by a tempo no move made: the two moves are first scored
    // alike at the standard budget, and the deeper look, twelve times the work, is only for a
    // move that still loses. A move the screen clears is no suspect at all.
    if look.screen {
        // The move is held against the eye's own choice: another eye's may be no better by it.
        let standard = Eye::standard(variant);
        let choice = match eye == standard {
            true => judgement.best,
            false => judge_by(position, budget, &eye).best,
        };
        let cleared = match choice.filter(|c| c != played) {
            Some(choice) => {
                // The stored judgement of where the move led is the standard look's.
                let after = after
                    .filter(|_| eye == standard)
                    .copied()
                    .unwrap_or_else(|| judge_by(&position.after(played), budget, &eye));
                loss_after(position, played, after, &choice, budget, &eye) < look.mistake
            }
            // The eye would have played it.
            None => true,
        };
        if cleared {
            judgement.best = Some(*played);
            judgement.suspicion = None;
            return judgement;
        }
    }
    judgement.suspicion = Some(Suspicion {
        checked: true,
        ..suspicion
    });
    let deeper = Budget {
        nodes: budget.nodes.saturating_mul(look.deeper),
    };
    // The better move is the deeper look's own choice (the standard look's may not survive
    // a deeper look), and both moves are judged alike: the position each leads to, searched
    // with the deeper budget.
    let Some(better) = judge_by(position, &deeper, &eye)
        .best
        .filter(|b| b != played)
    else {
        judgement.best = Some(*played);
        return judgement;
    };
    judgement.best = if loss(position, played, &better, &deeper, &eye) >= look.mistake {
        Some(better)
    } else {
        Some(*played)
    };
    judgement
}

/// How many suspected moves of each side in a battle the bot gives the deeper look, the
/// costliest first: a battle full of blunders has dozens, each twelve times the work of a
/// position, and a report names [`NAMED`] at most (docs/analysis.md). Suspects the screen clears
/// do not count: the next costliest takes their place.
pub const CHECKED: usize = 4;

/// How many mistakes of each side in a battle a report names, the costliest first; its graph
/// marks exactly those.
pub const NAMED: usize = 2;

/// A suspected move, for choosing which get the deeper look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Suspect {
    /// The battle's number (a match has two).
    pub battle: u8,
    /// The move's ply: the position it was played from.
    pub ply: usize,
    pub side: Side,
    pub suspicion: Suspicion,
}

/// The suspects still waiting for [`check`] among each battle's and side's [`CHECKED`]
/// costliest (the earlier of equal ones), by battle and last ply first so that a
/// move's deeper look can reuse the next one's. A suspect already checked still counts as
/// one of the costliest; one the screen cleared is no suspect, so after checks, `due` is asked
/// again until it is empty. The moves checked in the end are the [`CHECKED`] costliest of
/// those the screen would keep, and suspects cheaper than those are never screened.
pub fn due(suspects: &[Suspect]) -> Vec<Suspect> {
    let mut ranked = suspects.to_vec();
    ranked.sort_by(|a, b| {
        (a.battle, a.side == Side::Trolls)
            .cmp(&(b.battle, b.side == Side::Trolls))
            .then(b.suspicion.loss.cmp(&a.suspicion.loss))
            .then(a.ply.cmp(&b.ply))
    });
    let mut due = Vec::new();
    let mut group = None;
    let mut taken = 0;
    for s in ranked {
        if group != Some((s.battle, s.side)) {
            group = Some((s.battle, s.side));
            taken = 0;
        }
        if taken < CHECKED {
            taken += 1;
            if !s.suspicion.checked {
                due.push(s);
            }
        }
    }
    due.sort_by(|a, b| a.battle.cmp(&b.battle).then(b.ply.cmp(&a.ply)));
    due
}

/// What `played` from `position` loses against `better` (from the side to move's view), the
/// positions the two lead to scored alike under `budget` with `eye`.
fn loss(position: &Position, played: &Move, better: &Move, budget: &Budget, eye: &Eye) -> i32 {
    let after = judge_by(&position.after(played), budget, eye);
    loss_after(position, played, after, better, budget, eye)
}

/// [`loss`] given `after`, the judgement under `budget` with `eye` of the position `played`
/// led to.
fn loss_after(
    position: &Position,
    played: &Move,
    after: Judgement,
    better: &Move,
    budget: &Budget,
    eye: &Eye,
) -> i32 {
    let (of_played, of_better) = alike(
        &position.after(played),
        after,
        &position.after(better),
        budget,
        eye,
    );
    for_dwarfs(position.side_to_move(), of_better - of_played)
}

/// The search scores of positions `a` and `b` (the same side to move) at one depth: a search
/// its budget stopped a ply deeper than the other sees one more move of one side, which moves
/// its score by a margin no move made, so the deeper one is searched again to the shallower's
/// depth. `of_a` is `a` judged under `budget` with `eye`.
fn alike(a: &Position, of_a: Judgement, b: &Position, budget: &Budget, eye: &Eye) -> (i32, i32) {
    let of_b = judge_by(b, budget, eye);
    // A position over (depth 0) scores its result, whatever the other's depth.
    if of_a.depth == 0 || of_b.depth == 0 || of_a.depth == of_b.depth {
        return (of_a.raw, of_b.raw);
    }
    let depth = of_a.depth.min(of_b.depth);
    if of_a.depth > depth {
        (judge_within(a, budget, depth, eye).raw, of_b.raw)
    } else {
        (of_a.raw, judge_within(b, budget, depth, eye).raw)
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

pub(super) fn for_dwarfs(side: Side, value: i32) -> i32 {
    match side {
        Side::Dwarfs => value,
        Side::Trolls => -value,
    }
}

mod review;

pub use review::{capture_plies, mistakes, review, MoveReview};

#[cfg(test)]
mod tests;

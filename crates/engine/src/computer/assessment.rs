//! Whether the computer should propose ending a battle, and whether it agrees when asked.
//!
//! Ending by agreement settles the battle as it stands (classic: the pieces on the board;
//! Koom Valley: a draw). The computer agrees when a look ahead finds nothing better for it by
//! playing on, and proposes when the battle has stalled (no capture for a while) and the same
//! look finds nothing either side can still take.

use std::time::Duration;

use crate::game::{Battle, Move, Position, Side, Variant};

use super::evaluation::material;
use super::level::Settings;
use super::search::Search;
use super::transposition::Table;

/// Plies without a capture (or, in Koom Valley, a Rock move) before a battle counts as stalled.
pub const STALLED_PLIES: usize = 30;

/// How many plies ahead the computer looks before proposing an end (classic and original;
/// Koom Valley one less): the proposal says so, so it claims no more than was judged.
pub const PROPOSAL_DEPTH: u8 = 4;

/// What the computer thinks of ending the current battle now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assessment {
    /// Propose ending the battle: it has stalled, no capture is open to either side within two
    /// plies, and a short search finds nothing more to win.
    pub propose_end: bool,
    /// Agree if the other player proposes: playing on cannot improve the computer's result.
    pub agree_to_end: bool,
    /// Why it declines, in a sentence for the player; `None` when it agrees.
    pub reason: Option<String>,
}

/// Assesses `battle` for the computer commanding `computer`. Takes up to about half a second.
pub fn assess(battle: &Battle, computer: Side) -> Assessment {
    let position = battle.position();
    if battle.is_over() || !position.has_legal_move() {
        return Assessment {
            propose_end: false,
            agree_to_end: true,
            reason: None,
        };
    }
    let stalled = plies_without_progress(battle) >= STALLED_PLIES;
    let mut assessment = match position.variant() {
        Variant::KoomValley => assess_koom_valley(position, computer, stalled),
        Variant::Classic | Variant::Original => assess_by_score(position, computer, stalled),
    };
    // "Neither side can gain any more" must be true of the next two plies at least: the
    // searches above judge by value and may see a capture as not worth it, but the player
    // reading the proposal sees a capture on the board.
    if assessment.propose_end && progress_within_two_plies(position) {
        assessment.propose_end = false;
    }
    assessment
}

/// Whether a capture (or, in Koom Valley, a Rock move) is open to the side to move now, or to
/// the other side after some move of the side to move.
pub fn progress_within_two_plies(position: &Position) -> bool {
    let moves = position.legal_moves();
    moves.iter().any(makes_progress)
        || moves.iter().any(|mv| {
            let after = position.after(mv);
            after.legal_moves().iter().any(makes_progress)
        })
}

/// A capture, or a Rock move: what changes a battle's outcome.
fn makes_progress(mv: &Move) -> bool {
    !mv.captured().is_empty() || matches!(mv, Move::Rock { .. })
}

/// Classic and original: what material the computer can still win within a few plies.
fn assess_by_score(position: &Position, computer: Side, stalled: bool) -> Assessment {
    let now = for_side(material(position), computer);
    let plain = Settings {
        depth: PROPOSAL_DEPTH,
        time: Duration::from_millis(400),
        nodes: 400_000,
        temperature: 0,
        plain_evaluation: true,
        late_move_reductions: true,
        weights: super::features::SideWeights::for_variant(position.variant()),
    };
    let expected = search_value(position, &plain).map(|v| for_mover(v, position, computer));
    let gain = expected.map_or(0, |e| e - now);
    let quiet = expected == Some(now);
    let agree = gain < 100;
    let points = gain / 100;
    Assessment {
        propose_end: stalled && quiet,
        agree_to_end: agree,
        reason: (!agree).then(|| {
            format!(
                "I would rather play on: I still see {points} more point{} to win on the board.",
                if points == 1 { "" } else { "s" }
            )
        }),
    }
}

/// Koom Valley: an end by agreement is a draw, so the computer plays on while it is better.
fn assess_koom_valley(position: &Position, computer: Side, stalled: bool) -> Assessment {
    let settings = Settings {
        depth: PROPOSAL_DEPTH - 1,
        time: Duration::from_millis(400),
        nodes: 400_000,
        temperature: 0,
        plain_evaluation: false,
        late_move_reductions: true,
        weights: super::features::SideWeights::for_variant(position.variant()),
    };
    let value = search_value(position, &settings).map_or(0, |v| for_mover(v, position, computer));
    let agree = value < 150;
    let reason = (!agree).then(|| match computer {
        Side::Dwarfs => "I would rather play on: I still think I can bring the Rock home.".into(),
        Side::Trolls => "I would rather play on: I still think I can surround the Rock.".into(),
    });
    let hopeless_for_both = position.trolls().len() < 3 && position.dwarfs().is_empty();
    Assessment {
        propose_end: hopeless_for_both || (stalled && value.abs() < 150),
        agree_to_end: agree,
        reason,
    }
}

/// The search's value of `position` for its side to move.
fn search_value(position: &Position, settings: &Settings) -> Option<i32> {
    let mut table = Table::new(16);
    let mut search = Search::new(position, &mut table, settings);
    search.iterate(settings.depth, &[]).map(|found| found.score)
}

/// A value for the side to move, turned into one for `side`.
fn for_mover(value: i32, position: &Position, side: Side) -> i32 {
    if position.side_to_move() == side {
        value
    } else {
        -value
    }
}

/// A value for the dwarfs, turned into one for `side`.
fn for_side(for_dwarfs: i32, side: Side) -> i32 {
    match side {
        Side::Dwarfs => for_dwarfs,
        Side::Trolls => -for_dwarfs,
    }
}

/// How many plies have passed since the last capture (or Koom Valley Rock move).
fn plies_without_progress(battle: &Battle) -> usize {
    battle
        .moves()
        .iter()
        .rev()
        .take_while(|m| !makes_progress(m))
        .count()
}

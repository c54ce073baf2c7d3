//! What an analysis report says: its heading, a line per battle and player, the largest
//! mistakes with the better move, the scores every ten plies, the graph's titles. Pure: the
//! analysis judges and reviews, the voice words.

use crate::computer::analysis::{mistakes, MoveReview, CHECKED, MISTAKE};
use crate::game::{BattleResult, Side, Variant};
use crate::service::text::Text;
use crate::service::Names;
use crate::store::{AnalysisStatus, StoredMatch};

use super::battle_result_line;

/// The report's heading: the match, its players, and how to read a score and a mistake.
pub(in crate::service) fn analysis_heading(m: &StoredMatch, names: &Names) -> Text {
    Text::new()
        .strong(format!("Analysis of match #{}", m.id))
        .plain(format!(
            " ({}): {} v {}. Every position judged by the engine; {}. A mistake loses at least {} by the engine's look and by a deeper look at both moves.",
            m.variant.title(),
            names.of(m.players[0]),
            names.of(m.players[1]),
            if m.variant.wins_by_objective() {
                "a score is the engine's judgement from the dwarfs' side, in points (±100 when the battle is decided; above 0 the dwarfs are better)"
            } else {
                "a score is the final margin the engine expects, in points from the dwarfs' side (a dwarf 1, a troll 4; above 0 the dwarfs lead)"
            },
            points(f64::from(MISTAKE) / 100.0, 0),
        ))
}

/// Battle `number`'s heading: who commanded which side, and how it ended.
pub(in crate::service) fn analysed_battle(
    variant: Variant,
    number: u8,
    (dwarfs, trolls): (&str, &str),
    result: Option<BattleResult>,
) -> Text {
    let outcome = result
        .map(|r| battle_result_line(variant, number, &r))
        .unwrap_or_else(|| "unfinished when the match ended".to_string());
    Text::new()
        .strong(format!("Battle {number}"))
        .plain(format!(" ({dwarfs} dwarfs, {trolls} trolls): {outcome}."))
}

/// The title of battle `number`'s panel of the graph.
pub(in crate::service) fn graph_title(number: u8, dwarfs: &str, trolls: &str) -> String {
    format!("Battle {number} · {dwarfs} (dwarfs) v {trolls} (trolls)")
}

/// The battle's scores every ten plies.
pub(in crate::service) fn scores_every_ten_plies(scores: &[i32]) -> Text {
    Text::from(format!(
        "Score every 10 plies (points, dwarfs' side): {}.",
        every_tenth(scores)
    ))
}

/// "alice (dwarfs): 40 moves, 0.31 points lost a move on average, 2 mistakes." When more of
/// the player's moves were suspected than the deeper look is given ([`CHECKED`]), the rest
/// are counted apart: they are no mistakes until a deeper look says so.
pub(in crate::service) fn mistakes_summary(reviews: &[MoveReview], side: Side, name: &str) -> Text {
    let own: Vec<&MoveReview> = reviews.iter().filter(|r| r.side == side).collect();
    let moves = own.len();
    let lost: i64 = own.iter().map(|r| r.cost as i64).sum();
    let average = lost as f64 / moves.max(1) as f64 / 100.0;
    let count = mistakes(reviews, side, MISTAKE, usize::MAX).len();
    let unchecked = own.iter().filter(|r| r.unchecked).count();
    let mut counted = match count {
        0 => "no mistakes".to_string(),
        1 => "1 mistake".to_string(),
        n => format!("{n} mistakes"),
    };
    if unchecked > 0 {
        counted = format!(
            "{counted} in the {CHECKED} costliest moves a deeper look checked, and {unchecked} more {} that lost at least {} at the first look (not checked deeper)",
            if unchecked == 1 { "move" } else { "moves" },
            points(f64::from(MISTAKE) / 100.0, 0),
        );
    }
    Text::new()
        .strong(format!("{name} ({side})"))
        .plain(format!(
            ": {moves} {}, {} lost a move on average, {counted}.",
            if moves == 1 { "move" } else { "moves" },
            points(average, 2)
        ))
}

/// "· ply 23 `TI6-H7` lost 4.0 points; better `TI6-J6`"
pub(in crate::service) fn mistake_line(r: &MoveReview) -> Text {
    let mut line = Text::from(format!("  · ply {} ", r.ply))
        .code(r.played.to_string())
        .plain(format!(" lost {}", points(r.cost as f64 / 100.0, 1)));
    if let Some(better) = r.better {
        line = line.plain("; better ").code(better.to_string());
    }
    line
}

/// "1 point", "0.31 points", "2.8 points": singular only for exactly one as written.
fn points(value: f64, decimals: usize) -> String {
    let written = format!("{value:.decimals$}");
    let one = written.parse::<f64>().is_ok_and(|v| v == 1.0);
    format!("{written} {}", if one { "point" } else { "points" })
}

/// "ply 0 +0.0, ply 10 −1.3, …"
fn every_tenth(scores: &[i32]) -> String {
    let mut said: Vec<String> = scores
        .iter()
        .enumerate()
        .step_by(10)
        .map(|(ply, s)| format!("ply {ply} {:+.1}", *s as f64 / 100.0))
        .collect();
    let last = scores.len().saturating_sub(1);
    if !last.is_multiple_of(10) {
        said.push(format!(
            "end (ply {last}) {:+.1}",
            scores[last] as f64 / 100.0
        ));
    }
    said.join(", ")
}

/// "Analysing match #3: 40 of 212 positions judged (18 %)."; once all are, the deeper look at
/// the costliest moves is what is left.
pub fn progress_text(status: &AnalysisStatus) -> Text {
    if status.judged >= status.positions && status.finished_at.is_none() {
        return Text::new()
            .strong(format!("Analysing match #{}", status.match_id))
            .plain(format!(
                ": all {} positions judged; a deeper look at the costliest moves is under way.",
                status.positions
            ));
    }
    let percent = status.judged as u64 * 100 / status.positions.max(1) as u64;
    Text::new()
        .strong(format!("Analysing match #{}", status.match_id))
        .plain(format!(
            ": {} of {} positions judged ({percent} %).",
            status.judged.min(status.positions),
            status.positions
        ))
}

/// The answer to a request for an analysis under way: where it stands, and whether a message
/// the bot edits as it goes shows its progress (`shown_elsewhere`).
pub(in crate::service) fn analysis_under_way(
    status: &AnalysisStatus,
    shown_elsewhere: bool,
) -> Text {
    if shown_elsewhere {
        progress_text(status)
            .plain(" Its progress is shown in the message the bot edits as it goes.")
    } else {
        progress_text(status)
    }
}

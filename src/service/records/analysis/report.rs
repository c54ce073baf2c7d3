//! The report of a finished analysis: the evaluation graph, each player's largest mistakes
//! with the better move, and a line per player and battle, all of it as text too (for the
//! console and screen readers).

use super::Analysis;
use crate::computer::analysis::{
    capture_plies, mistakes, raw_of, review, Judgement, MoveReview, DECIDED, MISTAKE,
};
use crate::game::{Battle, BattleResult, Move, Seat, Side, Variant};
use crate::render::graph::{evaluation_graph, GraphBattle};
use crate::service::error::{Result, ServiceError};
use crate::service::names_of;
use crate::service::outcome::Reply;
use crate::service::text::Text;
use crate::service::voice::battle_result_line;
use crate::service::Names;
use crate::store::{MatchId, StoredJudgement, StoredMatch};

/// Mistakes listed per player and battle.
const LISTED: usize = 2;
/// Mistakes marked on the graph per player and battle.
const MARKED: usize = 3;

impl Analysis {
    /// The report of match `id`'s finished analysis.
    pub async fn analysis_report_of(&self, id: MatchId) -> Result<Reply> {
        match self.store.load_match(id).await? {
            Some(m) => self.analysis_report(&m).await,
            None => Err(ServiceError::System(format!("match {id} vanished"))),
        }
    }

    pub(super) async fn analysis_report(&self, m: &StoredMatch) -> Result<Reply> {
        let names = names_of(&self.store, m).await?;
        let stored = self.store.judgements(m.id).await?;
        let m = m.clone();
        // Replaying the battles and drawing the graph take a moment of CPU: not on the
        // async workers.
        tokio::task::spawn_blocking(move || report(&m, &names, &stored))
            .await
            .map_err(|e| ServiceError::System(format!("writing an analysis report failed: {e}")))
    }
}

fn report(m: &StoredMatch, names: &Names, stored: &[StoredJudgement]) -> Reply {
    let mut lines = vec![Text::new()
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
        ))];
    let mut panels = Vec::new();
    for (i, battle) in m.game.battles().iter().enumerate() {
        if battle.moves().is_empty() {
            continue;
        }
        let number = i as u8 + 1;
        let judgements = judgements_of(battle, number, stored);
        let reviews = review(battle.start(), battle.moves(), &judgements);
        let dwarfs = names.of(m.player(Seat::commanding(Side::Dwarfs, number)));
        let trolls = names.of(m.player(Seat::commanding(Side::Trolls, number)));
        let outcome = battle
            .result()
            .map(|r| battle_result_line(m.variant, number, &r))
            .unwrap_or_else(|| "unfinished when the match ended".to_string());
        lines.push(
            Text::new()
                .strong(format!("Battle {number}"))
                .plain(format!(" ({dwarfs} dwarfs, {trolls} trolls): {outcome}.")),
        );
        let mut marked = Vec::new();
        for (side, name) in [(Side::Dwarfs, &dwarfs), (Side::Trolls, &trolls)] {
            lines.push(summary(&reviews, side, name));
            for r in mistakes(&reviews, side, MISTAKE, LISTED) {
                lines.push(mistake_line(&r));
            }
            marked.extend(
                mistakes(&reviews, side, MISTAKE, MARKED)
                    .iter()
                    .map(|r| r.ply),
            );
        }
        // A battle that is over ends at its result, whatever the engine expected of it.
        let mut scores: Vec<i32> = judgements.iter().map(|j| j.score).collect();
        if let (Some(result), Some(last)) = (battle.result(), scores.last_mut()) {
            *last = result_for_dwarfs(&result, m.variant);
        }
        lines.push(Text::from(format!(
            "Score every 10 plies (points, dwarfs' side): {}.",
            every_tenth(&scores)
        )));
        panels.push(GraphBattle {
            title: format!("Battle {number} · {dwarfs} (dwarfs) v {trolls} (trolls)"),
            scores,
            captures: capture_plies(&reviews),
            mistakes: marked,
        });
    }
    let png = evaluation_graph(&panels);
    Reply::public(Text::lines(lines)).attach(format!("thud-match-{}-analysis.png", m.id), png)
}

/// The judgements of battle `number` in ply order, each best move read back against its
/// position; positions not judged (there are none once finished) count as level.
fn judgements_of(battle: &Battle, number: u8, stored: &[StoredJudgement]) -> Vec<Judgement> {
    battle
        .positions()
        .iter()
        .enumerate()
        .map(|(ply, position)| {
            let found = stored
                .iter()
                .find(|j| j.battle == number && j.ply == ply as u32);
            let best = found.and_then(|j| j.best.as_deref()).and_then(|text| {
                position
                    .legal_moves()
                    .into_iter()
                    .find(|mv: &Move| mv.to_string() == text)
            });
            let score = found.map_or(0, |j| j.score);
            Judgement {
                score,
                raw: raw_of(position, score),
                best,
                depth: found.map_or(0, |j| j.depth),
                nodes: 0,
            }
        })
        .collect()
}

/// "alice (dwarfs): 40 moves, 0.31 points lost a move on average, 2 mistakes."
fn summary(reviews: &[MoveReview], side: Side, name: &str) -> Text {
    let own: Vec<&MoveReview> = reviews.iter().filter(|r| r.side == side).collect();
    let moves = own.len();
    let lost: i64 = own.iter().map(|r| r.cost as i64).sum();
    let average = lost as f64 / moves.max(1) as f64 / 100.0;
    let count = own
        .iter()
        .filter(|r| r.cost >= MISTAKE && r.better.is_some())
        .count();
    let mistakes = match count {
        0 => "no mistakes".to_string(),
        1 => "1 mistake".to_string(),
        n => format!("{n} mistakes"),
    };
    Text::new()
        .strong(format!("{name} ({side})"))
        .plain(format!(
            ": {moves} {}, {} lost a move on average, {mistakes}.",
            if moves == 1 { "move" } else { "moves" },
            points(average, 2)
        ))
}

/// "· ply 23 `TI6-H7` lost 4.0 points; better `TI6-J6`"
fn mistake_line(r: &MoveReview) -> Text {
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

/// The result of a finished battle from the dwarfs' side, on the judgements' scale.
fn result_for_dwarfs(result: &BattleResult, variant: Variant) -> i32 {
    if variant.wins_by_objective() {
        match result.winner {
            Some(Side::Dwarfs) => DECIDED,
            Some(Side::Trolls) => -DECIDED,
            None => 0,
        }
    } else {
        100 * (result.score.dwarfs as i32 - result.score.trolls as i32)
    }
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
    if last % 10 != 0 {
        said.push(format!(
            "end (ply {last}) {:+.1}",
            scores[last] as f64 / 100.0
        ));
    }
    said.join(", ")
}

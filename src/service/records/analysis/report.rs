//! The report of a finished analysis: the evaluation graph, each player's largest mistakes
//! with the better move, and a line per player and battle, all of it as text too (for the
//! console and screen readers).

use crate::computer::analysis::{capture_plies, mistakes, review, Judgement, MoveReview};
use crate::game::{Battle, Move, Seat, Side};
use crate::render::graph::{evaluation_graph, GraphBattle};
use crate::service::error::{Result, ServiceError};
use crate::service::outcome::Reply;
use crate::service::text::Text;
use crate::service::voice::battle_result_line;
use crate::service::{Names, Service};
use crate::store::{MatchId, StoredJudgement, StoredMatch};

/// A move costing less than this (in hundredths of a dwarf) is not called a mistake.
const MISTAKE: i32 = 100;
/// Mistakes listed per player and battle.
const LISTED: usize = 2;
/// Mistakes marked on the graph per player and battle.
const MARKED: usize = 3;

impl Service {
    /// The report of match `id`'s finished analysis.
    pub async fn analysis_report_of(&self, id: MatchId) -> Result<Reply> {
        match self.store.load_match(id).await? {
            Some(m) => self.analysis_report(&m).await,
            None => Err(ServiceError::System(format!("match {id} vanished"))),
        }
    }

    pub(super) async fn analysis_report(&self, m: &StoredMatch) -> Result<Reply> {
        let names = self.names(m).await?;
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
            " ({}): {} v {}. Every position judged by the engine; a mistake costs at least one dwarf (a troll is worth 4).",
            m.variant.title(),
            names.of(m.players[0]),
            names.of(m.players[1]),
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
        lines.push(Text::from(format!(
            "Score every 10 moves (dwarfs' side, in dwarfs): {}.",
            every_tenth(&judgements)
        )));
        panels.push(GraphBattle {
            title: format!("Battle {number} · {dwarfs} (dwarfs) v {trolls} (trolls)"),
            scores: judgements.iter().map(|j| j.score).collect(),
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
            Judgement {
                score: found.map_or(0, |j| j.score),
                best,
                depth: found.map_or(0, |j| j.depth),
                nodes: 0,
            }
        })
        .collect()
}

/// "alice (dwarfs): 40 moves, 0.31 dwarf lost a move on average, 2 mistakes; worst move 23."
fn summary(reviews: &[MoveReview], side: Side, name: &str) -> Text {
    let own: Vec<&MoveReview> = reviews.iter().filter(|r| r.side == side).collect();
    let moves = own.len();
    let lost: i64 = own.iter().map(|r| r.cost as i64).sum();
    let average = lost as f64 / moves.max(1) as f64 / 100.0;
    let count = own.iter().filter(|r| r.cost >= MISTAKE).count();
    let mistakes = match count {
        0 => "no mistakes".to_string(),
        1 => "1 mistake".to_string(),
        n => format!("{n} mistakes"),
    };
    Text::new()
        .strong(format!("{name} ({side})"))
        .plain(format!(
            ": {moves} {}, {average:.2} dwarf lost a move on average, {mistakes}.",
            if moves == 1 { "move" } else { "moves" }
        ))
}

/// "· move 23 `TI6-H7` cost 4.0 dwarfs; better `TI6-J6`"
fn mistake_line(r: &MoveReview) -> Text {
    let mut line = Text::from(format!("  · move {} ", r.ply))
        .code(r.played.to_string())
        .plain(format!(" cost {:.1} dwarfs", r.cost as f64 / 100.0));
    if let Some(better) = r.better {
        line = line.plain("; better ").code(better.to_string());
    }
    line
}

fn every_tenth(judgements: &[Judgement]) -> String {
    judgements
        .iter()
        .step_by(10)
        .map(|j| format!("{:+.1}", j.score as f64 / 100.0))
        .collect::<Vec<_>>()
        .join(" ")
}

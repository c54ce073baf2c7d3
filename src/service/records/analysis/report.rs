//! The report of a finished analysis: the evaluation graph, each player's largest mistakes
//! with the better move, and a line per player and battle, all of it as text too (for the
//! console and screen readers).

use super::{judgement_of, Analysis};
use crate::computer::analysis::{
    capture_plies, mistakes, review, Judgement, DECIDED, MISTAKE, NAMED,
};
use crate::game::{Battle, BattleResult, Seat, Side, Variant};
use crate::render::graph::{evaluation_graph, GraphBattle};
use crate::service::error::{Result, ServiceError};
use crate::service::names_of;
use crate::service::outcome::Reply;
use crate::service::text::Text;
use crate::service::voice;
use crate::service::Names;
use crate::store::{MatchId, StoredJudgement, StoredMatch};

impl Analysis {
    /// The report of match `id`'s finished analysis.
    pub async fn report_of(&self, id: MatchId) -> Result<Reply> {
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
    let mut lines = vec![voice::analysis_heading(m, names)];
    let mut panels = Vec::new();
    for (i, battle) in m.game.battles().iter().enumerate() {
        if battle.moves().is_empty() {
            continue;
        }
        let number = i as u8 + 1;
        let judgements = judgements_of(battle, number, stored);
        let dwarfs = names.of(m.player(Seat::commanding(Side::Dwarfs, number)));
        let trolls = names.of(m.player(Seat::commanding(Side::Trolls, number)));
        let (said, panel) =
            battle_report(m.variant, number, battle, (&dwarfs, &trolls), &judgements);
        lines.extend(said);
        panels.push(panel);
    }
    let png = evaluation_graph(&panels);
    Reply::public(Text::lines(lines)).attach(format!("thud-match-{}-analysis.png", m.id), png)
}

/// Battle `number`'s lines of the report and its panel of the graph, given a judgement of
/// each of its positions: the graph marks exactly the mistakes the lines name, each with the
/// side that made it.
fn battle_report(
    variant: Variant,
    number: u8,
    battle: &Battle,
    (dwarfs, trolls): (&str, &str),
    judgements: &[Judgement],
) -> (Vec<Text>, GraphBattle) {
    let reviews = review(battle.start(), battle.moves(), judgements);
    let mut lines = vec![voice::analysed_battle(
        variant,
        number,
        (dwarfs, trolls),
        battle.result(),
    )];
    let mut marked = Vec::new();
    for (side, name) in [(Side::Dwarfs, dwarfs), (Side::Trolls, trolls)] {
        lines.push(voice::mistakes_summary(&reviews, side, name));
        for r in mistakes(&reviews, side, MISTAKE, NAMED) {
            lines.push(voice::mistake_line(&r));
            marked.push((r.ply, side));
        }
    }
    // A battle that is over ends at its result, whatever the engine expected of it.
    let mut scores: Vec<i32> = judgements.iter().map(|j| j.score).collect();
    if let (Some(result), Some(last)) = (battle.result(), scores.last_mut()) {
        *last = result_for_dwarfs(&result, variant);
    }
    lines.push(voice::scores_every_ten_plies(&scores));
    let panel = GraphBattle {
        title: voice::graph_title(number, dwarfs, trolls),
        scores,
        captures: capture_plies(&reviews),
        mistakes: marked,
    };
    (lines, panel)
}

/// The judgements of battle `number` in ply order.
fn judgements_of(battle: &Battle, number: u8, stored: &[StoredJudgement]) -> Vec<Judgement> {
    battle
        .positions()
        .iter()
        .enumerate()
        .map(|(ply, position)| {
            let found = stored
                .iter()
                .find(|j| j.battle == number && j.ply == ply as u32);
            judgement_of(position, found)
        })
        .collect()
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

#[cfg(test)]
mod tests;

//! The worker's rounds: judging the positions of claimed analyses.

use std::collections::HashSet;

use chrono::Duration;

use crate::computer::analysis::judge;
use crate::service::error::Result;
use crate::service::Service;
use crate::store::{MatchId, StoredJudgement};

/// How long a process may go without saving a judgement before another may take the
/// analysis over (a judgement takes well under a second).
const LEASE_SECONDS: i64 = 60;

impl Service {
    /// Judges up to `max` positions of the longest-waiting analysis no process holds;
    /// returns how many it judged (0 when nothing waits).
    pub async fn analyse_some(&self, max: usize) -> Result<usize> {
        let now = self.now();
        let lease = now + Duration::seconds(LEASE_SECONDS);
        let Some(id) = self.store.claim_analysis(now, lease).await? else {
            return Ok(0);
        };
        match self.judge_claimed(id, max).await {
            Ok(judged) => Ok(judged),
            Err(e) => {
                // Given back at once, for this or another process's next round.
                if let Err(release) = self.store.release_analysis(id).await {
                    tracing::warn!(match_id = %id, error = %release, "could not release an analysis");
                }
                Err(e)
            }
        }
    }

    async fn judge_claimed(&self, id: MatchId, max: usize) -> Result<usize> {
        let Some(m) = self.store.load_match(id).await? else {
            self.store.release_analysis(id).await?;
            return Ok(0);
        };
        let done: HashSet<(u8, u32)> = self
            .store
            .judgements(id)
            .await?
            .into_iter()
            .map(|j| (j.battle, j.ply))
            .collect();
        let mut todo = Vec::new();
        for (i, battle) in m.game.battles().iter().enumerate() {
            if battle.moves().is_empty() {
                continue;
            }
            let number = i as u8 + 1;
            for (ply, position) in battle.positions().into_iter().enumerate() {
                if !done.contains(&(number, ply as u32)) {
                    todo.push((number, ply as u32, position));
                }
            }
        }
        let left = todo.len();
        let mut judged = 0;
        for (battle, ply, position) in todo.into_iter().take(max) {
            let budget = self.analysis_budget;
            let judgement = self.think(move || judge(&position, &budget)).await?;
            let stored = StoredJudgement {
                battle,
                ply,
                score: judgement.score,
                best: judgement.best.map(|mv| mv.to_string()),
                depth: judgement.depth,
            };
            let lease = self.now() + Duration::seconds(LEASE_SECONDS);
            self.store.save_judgement(id, &stored, lease).await?;
            judged += 1;
        }
        let complete = judged == left;
        if complete {
            self.store.finish_analysis(id, self.now()).await?;
            tracing::info!(match_id = %id, "analysis finished");
        } else {
            self.store.release_analysis(id).await?;
        }
        Ok(judged)
    }
}

//! The worker's rounds: judging the positions of claimed analyses.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::Duration;
use tokio::sync::watch;

use super::Analysis;
use crate::computer::analysis::{judge, judge_move};
use crate::service::error::Result;
use crate::store::{MatchId, StoredJudgement};

/// How long a process may go without saving a judgement before another may take the
/// analysis over (a judgement takes well under a second).
const LEASE_SECONDS: i64 = 60;

impl Analysis {
    /// The judging worker: judges analyses one position a round (so shutdown never waits for
    /// more than one search), at once when one is asked for, else every few seconds.
    pub(crate) async fn run_judging(self: Arc<Self>, mut stop: watch::Receiver<bool>) {
        let signal = self.analysis_signal.clone();
        loop {
            let woken = signal.notified();
            tokio::pin!(woken);
            woken.as_mut().enable();
            match self.analyse_some(1).await {
                Ok(judged) if judged > 0 => {
                    if *stop.borrow() {
                        return;
                    }
                    continue;
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "an analysis could not go on; trying again"),
            }
            tokio::select! {
                _ = &mut woken => {}
                _ = tokio::time::sleep(std::time::Duration::from_secs(3)) => {}
                _ = stop.changed() => return,
            }
        }
    }

    /// Judges up to `max` positions of the longest-waiting analysis no process holds;
    /// returns how many it judged (0 when nothing waits).
    pub async fn analyse_some(&self, max: usize) -> Result<usize> {
        let now = self.clock.now();
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
        // What is judged already: each position's score, to judge the move before it by.
        let mut scores: HashMap<(u8, u32), i32> = self
            .store
            .judgements(id)
            .await?
            .into_iter()
            .map(|j| ((j.battle, j.ply), j.score))
            .collect();
        // Last position first, so the position a move led to is judged before the move is.
        let mut todo = Vec::new();
        for (i, battle) in m.game.battles().iter().enumerate() {
            if battle.moves().is_empty() {
                continue;
            }
            let number = i as u8 + 1;
            let positions = battle.positions();
            for (ply, position) in positions.into_iter().enumerate().rev() {
                if !scores.contains_key(&(number, ply as u32)) {
                    let played = battle.moves().get(ply).copied();
                    todo.push((number, ply as u32, position, played));
                }
            }
        }
        let left = todo.len();
        let mut judged = 0;
        for (battle, ply, position, played) in todo.into_iter().take(max) {
            let budget = self.analysis_budget;
            let after = scores.get(&(battle, ply + 1)).copied();
            let judgement = self
                .thinking
                .run(move || match played {
                    Some(played) => {
                        let after =
                            after.unwrap_or_else(|| judge(&position.after(&played), &budget).score);
                        judge_move(&position, &played, after, &budget)
                    }
                    None => judge(&position, &budget),
                })
                .await?;
            let stored = StoredJudgement {
                battle,
                ply,
                score: judgement.score,
                best: judgement.best.map(|mv| mv.to_string()),
                depth: judgement.depth,
            };
            let lease = self.clock.now() + Duration::seconds(LEASE_SECONDS);
            self.store.save_judgement(id, &stored, lease).await?;
            scores.insert((battle, ply), judgement.score);
            judged += 1;
        }
        let complete = judged == left;
        if complete {
            self.store.finish_analysis(id, self.clock.now()).await?;
            tracing::info!(match_id = %id, "analysis finished");
        } else {
            self.store.release_analysis(id).await?;
        }
        Ok(judged)
    }
}

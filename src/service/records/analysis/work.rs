//! The worker's rounds: judging the positions of claimed analyses.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::Duration;
use tokio::sync::watch;

use super::{judgement_of, Analysis};
use crate::computer::analysis::{check, due, first_look, judge, Judgement, Suspect};
use crate::game::{Match, Move, Position};
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

    /// Judges up to `max` positions (or, once all are judged, gives that many suspected moves
    /// the deeper look) of the longest-waiting analysis no process holds; returns how many
    /// (0 when nothing waits).
    pub async fn analyse_some(&self, max: usize) -> Result<usize> {
        let now = self.clock.now();
        let lease = now + Duration::seconds(LEASE_SECONDS);
        let Some(id) = self.store.claim_analysis(now, lease).await? else {
            return Ok(0);
        };
        match self.judge_claimed(id, max).await {
            Ok((judged, finished)) => {
                if judged > 0 && !finished {
                    // Shown as it goes; never the analysis's own failure.
                    if let Err(e) = self.queue_showing(id, true).await {
                        tracing::warn!(match_id = %id, error = %e, "could not queue an analysis's showing");
                    }
                }
                Ok(judged)
            }
            Err(e) => {
                // Given back at once, for this or another process's next round.
                if let Err(release) = self.store.release_analysis(id).await {
                    tracing::warn!(match_id = %id, error = %release, "could not release an analysis");
                }
                Err(e)
            }
        }
    }

    /// Judges up to `max` positions of claimed analysis `id`: how many, and whether that
    /// finished it.
    async fn judge_claimed(&self, id: MatchId, max: usize) -> Result<(usize, bool)> {
        let Some(m) = self.store.load_match(id).await? else {
            self.store.release_analysis(id).await?;
            return Ok((0, false));
        };
        // What is judged already: each position's score, to judge the move before it by.
        let mut stored: HashMap<(u8, u32), StoredJudgement> = self
            .store
            .judgements(id)
            .await?
            .into_iter()
            .map(|j| ((j.battle, j.ply), j))
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
                if !stored.contains_key(&(number, ply as u32)) {
                    let played = battle.moves().get(ply).copied();
                    todo.push((number, ply as u32, position, played));
                }
            }
        }
        let mut judged = 0;
        for (battle, ply, position, played) in todo.iter().take(max).cloned() {
            let budget = self.analysis_budget;
            let after = stored.get(&(battle, ply + 1)).map(|j| j.score);
            let judgement = self
                .thinking
                .run(move || match played {
                    Some(played) => {
                        let after =
                            after.unwrap_or_else(|| judge(&position.after(&played), &budget).score);
                        first_look(&position, &played, after, &budget)
                    }
                    None => judge(&position, &budget),
                })
                .await?;
            let judgement = StoredJudgement {
                battle,
                ply,
                score: judgement.score,
                raw: Some(judgement.raw),
                best: judgement.best.map(|mv| mv.to_string()),
                depth: judgement.depth,
                suspected: judgement.suspicion.map(|s| s.loss),
                checked: false,
            };
            let lease = self.clock.now() + Duration::seconds(LEASE_SECONDS);
            self.store.save_judgement(id, &judgement, lease).await?;
            stored.insert((battle, ply), judgement);
            judged += 1;
        }
        // Once every position is judged, the check of each player's costliest suspected
        // moves; the report waits for it. A suspect the screen clears makes way for the next.
        let mut complete = judged == todo.len();
        while complete {
            let due = due_checks(&m.game, &stored);
            if due.is_empty() {
                break;
            }
            let room = max.saturating_sub(judged);
            complete = due.len() <= room;
            for (battle, ply, position, played, judgement, after) in due.into_iter().take(room) {
                let budget = self.analysis_budget;
                let verdict = self
                    .thinking
                    .run(move || check(&position, judgement, &played, after.as_ref(), &budget))
                    .await?;
                let best = verdict.best.map(|mv| mv.to_string());
                let still = verdict.suspicion.is_some();
                let lease = self.clock.now() + Duration::seconds(LEASE_SECONDS);
                self.store
                    .save_check(id, battle, ply, best.as_deref(), still, lease)
                    .await?;
                if let Some(j) = stored.get_mut(&(battle, ply)) {
                    j.best = best;
                    j.checked = true;
                    if !still {
                        j.suspected = None;
                    }
                }
                judged += 1;
            }
        }
        if complete {
            self.finished(id).await?;
            tracing::info!(match_id = %id, "analysis finished");
        } else {
            self.store.release_analysis(id).await?;
        }
        Ok((judged, complete))
    }
}

/// A move waiting for its check: its battle, ply, position, the move, its first look's
/// judgement, and the judgement of the position it led to when its search score was stored.
type Due = (u8, u32, Position, Move, Judgement, Option<Judgement>);

/// The moves of `game` whose deeper look is due, last first ([`due`]), given every position's
/// stored judgement.
fn due_checks(game: &Match, stored: &HashMap<(u8, u32), StoredJudgement>) -> Vec<Due> {
    let mut suspects = Vec::new();
    let mut waiting = HashMap::new();
    for (i, battle) in game.battles().iter().enumerate() {
        let number = i as u8 + 1;
        let positions = battle.positions();
        for (ply, (position, played)) in positions.iter().zip(battle.moves()).enumerate() {
            let judgement = judgement_of(position, stored.get(&(number, ply as u32)));
            let Some(suspicion) = judgement.suspicion else {
                continue;
            };
            suspects.push(Suspect {
                battle: number,
                ply,
                side: position.side_to_move(),
                suspicion,
            });
            waiting.insert((number, ply), (position.clone(), *played, judgement));
        }
    }
    due(&suspects)
        .into_iter()
        .filter_map(|s| {
            let (position, played, judgement) = waiting.remove(&(s.battle, s.ply))?;
            let after = stored
                .get(&(s.battle, s.ply as u32 + 1))
                .filter(|j| j.raw.is_some())
                .map(|j| judgement_of(&position.after(&played), Some(j)));
            Some((s.battle, s.ply as u32, position, played, judgement, after))
        })
        .collect()
}

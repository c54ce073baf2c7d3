//! Analyses of finished matches: the request, the lease of the process judging it, each
//! position's judgement, and the Discord message showing its progress.
//!
//! Two processes never judge the same match at once: a process claims a match by setting
//! `busy_until` (a lease, renewed with every judgement it saves) on a row no live lease holds.
//! A judgement is saved once (`ON CONFLICT DO NOTHING` on its key), so even a process whose
//! lease ran out while it thought cannot store a position twice.

use chrono::{DateTime, Utc};

use super::error::Result;
use super::ids::{ChannelId, MatchId};
use super::Store;

/// Where an analysis stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnalysisStatus {
    pub match_id: MatchId,
    /// Positions to judge in all.
    pub positions: u32,
    /// Positions judged so far.
    pub judged: u32,
    pub finished_at: Option<DateTime<Utc>>,
    /// Where its progress is shown, once somebody asked in a channel.
    pub channel: Option<ChannelId>,
    /// The message showing its progress there, once one was posted.
    pub progress: Option<(ChannelId, u64)>,
    /// How far the progress message has been told.
    pub shown: u32,
    pub reported_at: Option<DateTime<Utc>>,
}

/// One stored judgement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredJudgement {
    pub battle: u8,
    /// The position after this many moves of the battle.
    pub ply: u32,
    /// From the dwarfs' side, in hundredths of a dwarf.
    pub score: i32,
    /// The search's own score that `score` was made from (`None` in rows from before it was
    /// kept): a screen reads it instead of searching the position again.
    pub raw: Option<i32>,
    /// The move the search prefers, in notation.
    pub best: Option<String>,
    pub depth: u8,
    /// What the move played from the position lost across it at the first look, when that
    /// suspects it of a mistake (hundredths of a point, on the search's scale).
    pub suspected: Option<i32>,
    /// Whether the deeper look has decided the suspicion (`best` is then its verdict).
    pub checked: bool,
}

impl Store {
    /// Asks for match `id`'s analysis of `positions` positions, unless it was asked for
    /// already; returns where it stands.
    pub async fn request_analysis(
        &self,
        id: MatchId,
        positions: u32,
        budget_nodes: u64,
        now: DateTime<Utc>,
    ) -> Result<AnalysisStatus> {
        sqlx::query!(
            "INSERT INTO analyses (match_id, positions, budget_nodes, requested_at)
             VALUES ($1, $2, $3, $4) ON CONFLICT (match_id) DO NOTHING",
            id.db(),
            positions as i32,
            budget_nodes.min(i64::MAX as u64) as i64,
            now,
        )
        .execute(&self.pool)
        .await?;
        match self.analysis_status(id).await? {
            Some(status) => Ok(status),
            None => Err(super::StoreError::Corrupt(format!(
                "the analysis of match {id} vanished as it was asked for"
            ))),
        }
    }

    /// Where the analysis of match `id` stands, if it was ever asked for.
    pub async fn analysis_status(&self, id: MatchId) -> Result<Option<AnalysisStatus>> {
        let row = sqlx::query!(
            r#"SELECT a.positions, a.finished_at, a.progress_channel, a.progress_message,
                      a.shown_positions, a.reported_at,
                      (SELECT count(*) FROM analysis_positions p WHERE p.match_id = a.match_id)
                          AS "judged!"
               FROM analyses a WHERE a.match_id = $1"#,
            id.db()
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| AnalysisStatus {
            match_id: id,
            positions: r.positions as u32,
            judged: r.judged as u32,
            finished_at: r.finished_at,
            channel: r.progress_channel.map(ChannelId::from_db),
            progress: r
                .progress_channel
                .zip(r.progress_message)
                .map(|(c, m)| (ChannelId::from_db(c), m as u64)),
            shown: r.shown_positions as u32,
            reported_at: r.reported_at,
        }))
    }

    /// Claims the longest-waiting unfinished analysis that no process holds, holding it until
    /// `busy_until`.
    pub async fn claim_analysis(
        &self,
        now: DateTime<Utc>,
        busy_until: DateTime<Utc>,
    ) -> Result<Option<MatchId>> {
        Ok(sqlx::query_scalar!(
            r#"UPDATE analyses SET busy_until = $2
               WHERE match_id = (
                   SELECT match_id FROM analyses
                   WHERE finished_at IS NULL AND (busy_until IS NULL OR busy_until <= $1)
                   ORDER BY requested_at, match_id LIMIT 1 FOR UPDATE SKIP LOCKED)
                 AND (busy_until IS NULL OR busy_until <= $1)
               RETURNING match_id AS "id: MatchId""#,
            now,
            busy_until,
        )
        .fetch_optional(&self.pool)
        .await?)
    }

    /// Lets go of a claimed analysis, unfinished, so any process may take it on at once.
    pub async fn release_analysis(&self, id: MatchId) -> Result<()> {
        sqlx::query!(
            "UPDATE analyses SET busy_until = NULL WHERE match_id = $1",
            id.db()
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The judgements stored for match `id`, by battle and ply.
    pub async fn judgements(&self, id: MatchId) -> Result<Vec<StoredJudgement>> {
        let rows = sqlx::query!(
            "SELECT battle, ply, score, raw, best, depth, suspected, checked FROM analysis_positions
             WHERE match_id = $1 ORDER BY battle, ply",
            id.db()
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| StoredJudgement {
                battle: r.battle as u8,
                ply: r.ply as u32,
                score: r.score,
                raw: r.raw,
                best: r.best,
                depth: r.depth.clamp(0, 255) as u8,
                suspected: r.suspected,
                checked: r.checked,
            })
            .collect())
    }

    /// Saves a judgement of match `id` (a second save of the same position is ignored) and
    /// renews the lease; false when the position had been judged already.
    pub async fn save_judgement(
        &self,
        id: MatchId,
        judgement: &StoredJudgement,
        busy_until: DateTime<Utc>,
    ) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        let saved = sqlx::query!(
            "INSERT INTO analysis_positions
                 (match_id, battle, ply, score, best, depth, suspected, checked, raw)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING",
            id.db(),
            i16::from(judgement.battle),
            judgement.ply as i32,
            judgement.score,
            judgement.best,
            i16::from(judgement.depth),
            judgement.suspected,
            judgement.checked,
            judgement.raw,
        )
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        renew_lease(&mut tx, id, busy_until).await?;
        tx.commit().await?;
        Ok(saved)
    }

    /// Saves the check's verdict on the move from position `ply` of battle `battle` of
    /// match `id` (its `best`, and whether it is `still_suspected`: a move the screen cleared
    /// is no suspect; a second verdict is ignored) and renews the lease; false when the move
    /// had been checked already.
    pub async fn save_check(
        &self,
        id: MatchId,
        battle: u8,
        ply: u32,
        best: Option<&str>,
        still_suspected: bool,
        busy_until: DateTime<Utc>,
    ) -> Result<bool> {
        let mut tx = self.pool.begin().await?;
        let saved = sqlx::query!(
            "UPDATE analysis_positions
             SET best = $4, checked = true, suspected = CASE WHEN $5 THEN suspected END
             WHERE match_id = $1 AND battle = $2 AND ply = $3 AND suspected IS NOT NULL
               AND NOT checked",
            id.db(),
            i16::from(battle),
            ply as i32,
            best,
            still_suspected,
        )
        .execute(&mut *tx)
        .await?
        .rows_affected()
            == 1;
        renew_lease(&mut tx, id, busy_until).await?;
        tx.commit().await?;
        Ok(saved)
    }

    /// Remembers the message showing the analysis's progress, unless one was posted already;
    /// false then.
    pub async fn set_analysis_message(
        &self,
        id: MatchId,
        channel: ChannelId,
        message: u64,
    ) -> Result<bool> {
        Ok(sqlx::query!(
            "UPDATE analyses SET progress_channel = $2, progress_message = $3
             WHERE match_id = $1 AND progress_message IS NULL",
            id.db(),
            channel.db(),
            message as i64,
        )
        .execute(&self.pool)
        .await?
        .rows_affected()
            == 1)
    }

    /// The progress message now says `shown` positions.
    pub async fn analysis_shown(&self, id: MatchId, shown: u32) -> Result<()> {
        sqlx::query!(
            "UPDATE analyses SET shown_positions = greatest(shown_positions, $2)
             WHERE match_id = $1",
            id.db(),
            shown as i32,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Claims the showing of match `id`'s progress in `channel` for the caller, before it posts
    /// the message: false when someone else (a second press at the same moment) has it.
    pub async fn claim_progress(&self, id: MatchId, channel: ChannelId) -> Result<bool> {
        Ok(sqlx::query!(
            "UPDATE analyses SET progress_channel = $2
             WHERE match_id = $1 AND progress_channel IS NULL",
            id.db(),
            channel.db(),
        )
        .execute(&self.pool)
        .await?
        .rows_affected()
            == 1)
    }

    /// The report of match `id`'s analysis is shown.
    pub async fn analysis_reported(&self, id: MatchId, now: DateTime<Utc>) -> Result<()> {
        sqlx::query!(
            "UPDATE analyses SET reported_at = coalesce(reported_at, $2) WHERE match_id = $1",
            id.db(),
            now,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The message showing match `id`'s progress is gone (somebody deleted it): the next
    /// showing posts another.
    pub async fn forget_analysis_message(&self, id: MatchId, message: u64) -> Result<()> {
        sqlx::query!(
            "UPDATE analyses SET progress_message = NULL, shown_positions = 0
             WHERE match_id = $1 AND progress_message = $2",
            id.db(),
            message as i64,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Showing match `id`'s analysis failed for good (`reason`): it is not tried again, and
    /// nothing waits for it any more.
    pub async fn analysis_show_failed(
        &self,
        id: MatchId,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query!(
            "UPDATE analyses SET show_failure = $2, reported_at = coalesce(reported_at, $3)
             WHERE match_id = $1",
            id.db(),
            reason,
            now,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

/// Holds match `id`'s unfinished analysis until `busy_until`, in the transaction that saves
/// its work.
async fn renew_lease(
    tx: &mut sqlx::Transaction<'static, sqlx::Postgres>,
    id: MatchId,
    busy_until: DateTime<Utc>,
) -> Result<()> {
    sqlx::query!(
        "UPDATE analyses SET busy_until = $2 WHERE match_id = $1 AND finished_at IS NULL",
        id.db(),
        busy_until,
    )
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl super::Tx {
    /// Marks the analysis of match `id` finished, once every position is judged (with its
    /// showing queued in the same transaction, so no report is left unshown).
    pub async fn finish_analysis(&mut self, id: MatchId, now: DateTime<Utc>) -> Result<()> {
        sqlx::query!(
            "UPDATE analyses SET finished_at = coalesce(finished_at, $2), busy_until = NULL
             WHERE match_id = $1",
            id.db(),
            now,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }
}

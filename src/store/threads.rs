//! The threads of matches: which ones the bot opened (only those it ever archives), and what it
//! last did to each (reopened it, archived it), kept across restarts so that its own archive is
//! never taken for a moderator's.

use chrono::{DateTime, Utc};

use super::error::Result;
use super::ids::{ChannelId, MatchId};
use super::{Store, Tx};

/// What the bot last did to a match's thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreadMarks {
    /// When it reopened the thread after an archive it did not make itself.
    pub reopened_at: Option<DateTime<Utc>>,
    /// When it archived the thread itself.
    pub archived_at: Option<DateTime<Utc>>,
}

impl Tx {
    /// The bot opened thread `channel` for match `opened_for`.
    pub async fn thread_opened(&mut self, channel: ChannelId, opened_for: MatchId) -> Result<()> {
        sqlx::query!(
            "INSERT INTO match_threads (channel_id, opened_for) VALUES ($1, $2)
             ON CONFLICT (channel_id) DO UPDATE SET opened_for = EXCLUDED.opened_for",
            channel.db(),
            opened_for.db(),
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// The match the bot opened thread `channel` for, if it did.
    pub async fn thread_opened_for(&mut self, channel: ChannelId) -> Result<Option<MatchId>> {
        Ok(sqlx::query_scalar!(
            r#"SELECT opened_for AS "opened_for: MatchId" FROM match_threads
               WHERE channel_id = $1 AND opened_for IS NOT NULL"#,
            channel.db(),
        )
        .fetch_optional(&mut *self.tx)
        .await?
        .flatten())
    }

    /// Whether `channel` is a thread the bot opened for a match.
    pub async fn is_match_thread(&mut self, channel: ChannelId) -> Result<bool> {
        Ok(sqlx::query_scalar!(
            r#"SELECT EXISTS (SELECT 1 FROM match_threads
                              WHERE channel_id = $1 AND opened_for IS NOT NULL) AS "is!""#,
            channel.db(),
        )
        .fetch_one(&mut *self.tx)
        .await?)
    }
}

impl Store {
    /// Whether something still lives in `channel`: a match in play, a challenge still open
    /// (a rematch asked for there), or an analysis whose progress message is still to become
    /// its report.
    pub async fn thread_in_use(&self, channel: ChannelId) -> Result<bool> {
        Ok(sqlx::query_scalar!(
            r#"SELECT EXISTS (SELECT 1 FROM matches WHERE channel_id = $1 AND state = 'active')
                   OR EXISTS (SELECT 1 FROM challenges
                              WHERE channel_id = $1 AND state = 'pending')
                   OR EXISTS (SELECT 1 FROM analyses
                              WHERE progress_channel = $1 AND reported_at IS NULL)
               AS "busy!""#,
            channel.db(),
        )
        .fetch_one(&self.pool)
        .await?)
    }

    /// What the bot last did to thread `channel`.
    pub async fn thread_marks(&self, channel: ChannelId) -> Result<ThreadMarks> {
        let row = sqlx::query!(
            "SELECT reopened_at, archived_at FROM match_threads WHERE channel_id = $1",
            channel.db(),
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(row
            .map(|r| ThreadMarks {
                reopened_at: r.reopened_at,
                archived_at: r.archived_at,
            })
            .unwrap_or_default())
    }

    /// The bot is archiving thread `channel` itself, at `now`.
    pub async fn thread_archived_by_bot(
        &self,
        channel: ChannelId,
        now: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query!(
            "INSERT INTO match_threads (channel_id, archived_at) VALUES ($1, $2)
             ON CONFLICT (channel_id) DO UPDATE SET archived_at = EXCLUDED.archived_at",
            channel.db(),
            now,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The bot is reopening thread `channel` at `now`: after somebody else's archive
    /// (`counted`), or after its own (not counted: it says nothing of a moderator).
    pub async fn thread_reopened(
        &self,
        channel: ChannelId,
        now: DateTime<Utc>,
        counted: bool,
    ) -> Result<()> {
        sqlx::query!(
            "INSERT INTO match_threads (channel_id, reopened_at)
             VALUES ($1, CASE WHEN $3 THEN $2::timestamptz END)
             ON CONFLICT (channel_id) DO UPDATE
                SET reopened_at = CASE WHEN $3 THEN $2::timestamptz ELSE match_threads.reopened_at END,
                    archived_at = NULL",
            channel.db(),
            now,
            counted,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

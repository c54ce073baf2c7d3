//! Where a tournament was announced: the message carrying its Join button, kept so the
//! announcement can be edited with the number of players as they join and leave.

use chrono::{DateTime, Utc};

use super::error::Result;
use super::tournaments::TournamentId;
use super::Tx;

impl Tx {
    /// Whether a showing of tournament `id`'s announcement is queued and not yet taken up at
    /// `now`: it will read the field as it is when it is delivered, so a change made now needs
    /// no other. (One taken up may have read the field already.)
    pub async fn field_shown_later(
        &mut self,
        id: TournamentId,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        Ok(sqlx::query_scalar!(
            r#"SELECT EXISTS (
                   SELECT 1 FROM notices
                   WHERE state = 'pending' AND (leased_until IS NULL OR leased_until <= $2)
                     AND body @> jsonb_build_object('events', jsonb_build_array(
                           jsonb_build_object('event', 'field-changed', 'tournament', $1::BIGINT)))
               ) AS "waiting!""#,
            id.0,
            now,
        )
        .fetch_one(&mut *self.tx)
        .await?)
    }
}

impl super::Store {
    /// Records `message` as the announcement of tournament `id` (the first one recorded stays).
    pub async fn set_tournament_announcement(&self, id: TournamentId, message: u64) -> Result<()> {
        sqlx::query!(
            "UPDATE tournaments SET announcement_id = $2 WHERE id = $1 AND announcement_id IS NULL",
            id.0,
            message as i64
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Message `new` announces tournament `id` in place of `old`, which was deleted; a no-op
    /// when another process replaced `old` first.
    pub async fn replace_tournament_announcement(
        &self,
        id: TournamentId,
        old: u64,
        new: u64,
    ) -> Result<()> {
        sqlx::query!(
            "UPDATE tournaments SET announcement_id = $3 WHERE id = $1 AND announcement_id = $2",
            id.0,
            old as i64,
            new as i64
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The message announcing tournament `id`, if one was recorded.
    pub async fn tournament_announcement(&self, id: TournamentId) -> Result<Option<u64>> {
        Ok(sqlx::query_scalar!(
            "SELECT announcement_id FROM tournaments WHERE id = $1",
            id.0
        )
        .fetch_optional(&self.pool)
        .await?
        .flatten()
        .map(|m| m as u64))
    }
}

//! Where a tournament was announced: the message carrying its Join button, kept so the
//! announcement can be edited with the number of players as they join and leave.

use super::error::Result;
use super::tournaments::TournamentId;

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

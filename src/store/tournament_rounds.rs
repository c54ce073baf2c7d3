//! What moves a tournament round's deadline: when the round was paired, and the vacations
//! its players took since.

use chrono::{DateTime, Utc};

use super::error::Result;
use super::ids::UserId;
use super::tournaments::TournamentId;
use super::Tx;

/// A player's time away, clipped to nothing: `ended` is `None` while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeAway {
    pub player: UserId,
    pub started: DateTime<Utc>,
    pub ended: Option<DateTime<Utc>>,
}

impl Tx {
    /// When the round in play of tournament `id` was paired.
    pub async fn round_paired_at(&mut self, id: TournamentId) -> Result<Option<DateTime<Utc>>> {
        Ok(sqlx::query_scalar!(
            "SELECT round_paired_at FROM tournaments WHERE id = $1",
            id.0
        )
        .fetch_optional(&mut *self.tx)
        .await?
        .flatten())
    }

    /// Sets the deadline of the round in play of tournament `id` (lock it first).
    pub async fn move_round_deadline(&mut self, id: TournamentId, to: DateTime<Utc>) -> Result<()> {
        sqlx::query!(
            "UPDATE tournaments SET round_deadline = $2 WHERE id = $1",
            id.0,
            to
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// The vacations of `players` that overlap the time from `from` to `to`, ended or not.
    pub async fn time_away(
        &mut self,
        players: &[UserId],
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<TimeAway>> {
        let ids: Vec<i64> = players.iter().map(|p| p.db()).collect();
        let rows = sqlx::query!(
            r#"SELECT player_id AS "player: UserId", started_at, ended_at FROM vacations
               WHERE player_id = ANY($1) AND started_at < $3 AND coalesce(ended_at, $3) > $2
               ORDER BY started_at"#,
            &ids,
            from,
            to,
        )
        .fetch_all(&mut *self.tx)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| TimeAway {
                player: r.player,
                started: r.started_at,
                ended: r.ended_at,
            })
            .collect())
    }
}

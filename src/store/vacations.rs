//! Vacations: a player's clocks stand still while they are away.
//!
//! Starting or ending one locks every match the player has in play first, the lock a move
//! takes, so a move made at the same moment either comes before (and its new turn is paused
//! with the others) or after (and sees the vacation when it starts the player's clock).

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};

use super::error::{classify, Result};
use super::ids::{MatchId, UserId};
use super::{Store, Tx};

/// A vacation in progress.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Vacation {
    pub player: UserId,
    pub started_at: DateTime<Utc>,
    /// When it ends by itself.
    pub until: DateTime<Utc>,
}

/// A row of `vacations`.
struct VacationRow {
    player_id: UserId,
    started_at: DateTime<Utc>,
    until: DateTime<Utc>,
}

impl From<VacationRow> for Vacation {
    fn from(row: VacationRow) -> Vacation {
        Vacation {
            player: row.player_id,
            started_at: row.started_at,
            until: row.until,
        }
    }
}

impl Store {
    /// The vacations in progress of `players`.
    pub async fn vacations_of(&self, players: &[UserId]) -> Result<HashMap<UserId, Vacation>> {
        let ids: Vec<i64> = players.iter().map(|p| p.db()).collect();
        let rows = sqlx::query_as!(
            VacationRow,
            r#"SELECT player_id AS "player_id: UserId", started_at, until FROM vacations
               WHERE ended_at IS NULL AND player_id = ANY($1)"#,
            &ids
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| (r.player_id, Vacation::from(r)))
            .collect())
    }

    /// The vacation time `player` has taken in the year before `now`, the one in progress
    /// counted up to `now`.
    pub async fn vacation_used(&self, player: UserId, now: DateTime<Utc>) -> Result<Duration> {
        let mut conn = self.pool.acquire().await?;
        used(&mut conn, player, now).await
    }
}

async fn used(
    conn: &mut sqlx::PgConnection,
    player: UserId,
    now: DateTime<Utc>,
) -> Result<Duration> {
    let seconds = sqlx::query_scalar!(
        r#"SELECT coalesce(sum(extract(epoch FROM
                      LEAST(coalesce(ended_at, $2), $2)
                      - GREATEST(started_at, $2 - interval '365 days'))), 0)::FLOAT8 AS "seconds!"
           FROM vacations
           WHERE player_id = $1 AND coalesce(ended_at, $2) > $2 - interval '365 days'"#,
        player.db(),
        now,
    )
    .fetch_one(conn)
    .await?;
    Ok(Duration::milliseconds((seconds.max(0.0) * 1000.0) as i64))
}

impl Tx {
    /// Locks every match in play of `player`, in id order (the order every multi-match lock
    /// takes, so two such transactions cannot deadlock).
    pub async fn lock_matches_of(&mut self, player: UserId) -> Result<Vec<MatchId>> {
        Ok(sqlx::query_scalar!(
            r#"SELECT id AS "id: MatchId" FROM matches WHERE state = 'active'
                 AND (first_player_id = $1 OR second_player_id = $1)
               ORDER BY id FOR UPDATE"#,
            player.db()
        )
        .fetch_all(&mut *self.tx)
        .await?)
    }

    /// [`Store::vacation_used`] inside the transaction.
    pub async fn vacation_used(&mut self, player: UserId, now: DateTime<Utc>) -> Result<Duration> {
        used(&mut self.tx, player, now).await
    }

    /// The vacation in progress of `player`, if any.
    pub async fn vacation_of(&mut self, player: UserId) -> Result<Option<Vacation>> {
        let row = sqlx::query_as!(
            VacationRow,
            r#"SELECT player_id AS "player_id: UserId", started_at, until FROM vacations
               WHERE ended_at IS NULL AND player_id = $1"#,
            player.db()
        )
        .fetch_optional(&mut *self.tx)
        .await?;
        Ok(row.map(Vacation::from))
    }

    /// Whether a turn of `player` in a match in play has passed its deadline at `now`.
    pub async fn has_overdue_turn(&mut self, player: UserId, now: DateTime<Utc>) -> Result<bool> {
        Ok(sqlx::query_scalar!(
            r#"SELECT EXISTS (SELECT 1 FROM clocks c JOIN matches m ON m.id = c.match_id
                              WHERE c.player_id = $1 AND m.state = 'active' AND c.deadline <= $2
                                AND c.paused_at IS NULL AND c.vacation_since IS NULL)
                   AS "overdue!""#,
            player.db(),
            now,
        )
        .fetch_one(&mut *self.tx)
        .await?)
    }

    /// Starts `player`'s vacation and stops every clock of theirs; lock their matches first.
    pub async fn start_vacation(
        &mut self,
        player: UserId,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query!(
            "INSERT INTO vacations (player_id, started_at, until) VALUES ($1, $2, $3)",
            player.db(),
            now,
            until,
        )
        .execute(&mut *self.tx)
        .await
        .map_err(classify)?;
        sqlx::query!(
            "UPDATE clocks SET vacation_since = $2
             WHERE player_id = $1 AND vacation_since IS NULL
               AND match_id IN (SELECT id FROM matches WHERE state = 'active')",
            player.db(),
            now,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Ends `player`'s vacation at `at` and starts their clocks again, each deadline and
    /// reminder moved on by the time it stood still; lock their matches first.
    pub async fn end_vacation(&mut self, player: UserId, at: DateTime<Utc>) -> Result<()> {
        sqlx::query!(
            "UPDATE vacations SET ended_at = $2 WHERE player_id = $1 AND ended_at IS NULL",
            player.db(),
            at,
        )
        .execute(&mut *self.tx)
        .await?;
        sqlx::query!(
            "UPDATE clocks SET deadline = deadline + ($2 - vacation_since),
                 remind_at = remind_at + ($2 - vacation_since), vacation_since = NULL
             WHERE player_id = $1 AND vacation_since IS NOT NULL",
            player.db(),
            at,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Up to `limit` vacations whose time is up at `now`, skipping any another process holds.
    pub async fn vacations_over(
        &mut self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<Vacation>> {
        let rows = sqlx::query_as!(
            VacationRow,
            r#"SELECT player_id AS "player_id: UserId", started_at, until FROM vacations
               WHERE ended_at IS NULL AND until <= $1
               ORDER BY until LIMIT $2 FOR UPDATE SKIP LOCKED"#,
            now,
            limit,
        )
        .fetch_all(&mut *self.tx)
        .await?;
        Ok(rows.into_iter().map(Vacation::from).collect())
    }
}

//! Conditional moves: the lines a waiting player queued (`migrations/0022_plans.sql`).

use chrono::{DateTime, Utc};

use super::error::{Result, StoreError};
use super::ids::{MatchId, UserId};
use super::Tx;

/// One line of a player's plan: answers to the opponent's moves, made for the position after
/// `after_ply` moves of battle `battle_id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanLine {
    pub battle_id: i64,
    pub after_ply: u32,
    /// The opponent's move, the answer, the opponent's next move, … in notation; even in
    /// number.
    pub moves: Vec<String>,
}

impl Tx {
    /// The lines `player` queued in match `match_id`, oldest first.
    pub async fn plan_of(&mut self, match_id: MatchId, player: UserId) -> Result<Vec<PlanLine>> {
        let rows = sqlx::query!(
            "SELECT battle_id, after_ply, moves FROM plans
             WHERE match_id = $1 AND player_id = $2 ORDER BY id",
            match_id.db(),
            player.db(),
        )
        .fetch_all(&mut *self.tx)
        .await?;
        rows.into_iter()
            .map(|r| line_of(match_id, r.battle_id, r.after_ply, r.moves))
            .collect()
    }

    /// Adds a line to `player`'s plan in match `match_id`.
    pub async fn add_plan_line(
        &mut self,
        match_id: MatchId,
        player: UserId,
        line: &PlanLine,
        at: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query!(
            "INSERT INTO plans (match_id, battle_id, player_id, after_ply, moves, created_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
            match_id.db(),
            line.battle_id,
            player.db(),
            line.after_ply as i32,
            &line.moves,
            at,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Drops the lines `player` queued in match `match_id`.
    pub async fn drop_plan_of(&mut self, match_id: MatchId, player: UserId) -> Result<()> {
        sqlx::query!(
            "DELETE FROM plans WHERE match_id = $1 AND player_id = $2",
            match_id.db(),
            player.db(),
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Drops every line queued in match `match_id`, by either player.
    pub async fn drop_plans(&mut self, match_id: MatchId) -> Result<()> {
        sqlx::query!("DELETE FROM plans WHERE match_id = $1", match_id.db())
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    /// Takes every line queued in match `match_id` out of the store, with whose each was: a
    /// move leaves none standing but what it plays on (one round trip for every move).
    pub async fn take_plans(&mut self, match_id: MatchId) -> Result<Vec<(UserId, PlanLine)>> {
        let mut rows = sqlx::query!(
            r#"DELETE FROM plans WHERE match_id = $1
               RETURNING id, player_id AS "player_id: UserId", battle_id, after_ply, moves"#,
            match_id.db(),
        )
        .fetch_all(&mut *self.tx)
        .await?;
        rows.sort_by_key(|r| r.id);
        rows.into_iter()
            .map(|r| {
                let line = line_of(match_id, r.battle_id, r.after_ply, r.moves)?;
                Ok((r.player_id, line))
            })
            .collect()
    }
}

/// A stored line, checked.
fn line_of(
    match_id: MatchId,
    battle_id: i64,
    after_ply: i32,
    moves: Vec<String>,
) -> Result<PlanLine> {
    let after_ply = u32::try_from(after_ply)
        .map_err(|_| StoreError::Corrupt(format!("plan of match {match_id}: ply {after_ply}")))?;
    Ok(PlanLine {
        battle_id,
        after_ply,
        moves,
    })
}

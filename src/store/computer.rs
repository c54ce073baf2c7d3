//! The computer's side of its matches: which of them wait for its move.

use chrono::{DateTime, Utc};

use super::error::Result;
use super::ids::{MatchId, UserId};
use super::{Store, Tx};

impl Store {
    /// Claims up to `limit` matches in play where it is the computer's move and no process is
    /// thinking for it, marking them busy until `busy_until`: two processes never think about
    /// the same turn, and a process that dies mid-thought leaves the turn to another one later.
    /// A match another transaction holds is waited for, not skipped (a refused command may
    /// hold its lock a moment longer); the update re-checks the lease on the row it locked,
    /// so of two processes claiming at once only the first gets the turn.
    pub async fn claim_computer_turns(
        &self,
        now: DateTime<Utc>,
        busy_until: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<MatchId>> {
        Ok(sqlx::query_scalar!(
            r#"UPDATE matches m SET computer_busy_until = $2
             WHERE m.id IN (
                 SELECT m.id FROM matches m JOIN clocks c ON c.match_id = m.id
                 WHERE m.computer_id IS NOT NULL AND m.state = 'active'
                   AND c.player_id = m.computer_id AND c.paused_at IS NULL
                   AND (m.computer_busy_until IS NULL OR m.computer_busy_until <= $1)
                 ORDER BY c.turn_started_at LIMIT $3)
               AND (m.computer_busy_until IS NULL OR m.computer_busy_until <= $1)
             RETURNING m.id AS "id: MatchId""#,
            now,
            busy_until,
            limit,
        )
        .fetch_all(&self.pool)
        .await?)
    }

    /// Lets go of a computer turn claimed with [`Store::claim_computer_turns`] without playing
    /// it (the match changed, or the thought failed), so it can be taken again at once.
    pub async fn release_computer_turn(&self, id: MatchId) -> Result<()> {
        sqlx::query!(
            "UPDATE matches SET computer_busy_until = NULL WHERE id = $1",
            id.db()
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

impl Tx {
    /// The computer has played its turn in match `id`: no process is thinking for it any more.
    pub async fn computer_turn_done(&mut self, id: MatchId) -> Result<()> {
        sqlx::query!(
            "UPDATE matches SET computer_busy_until = NULL WHERE id = $1",
            id.db()
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// The ply at which `proposer` last proposed ending battle `battle_id`, if ever.
    pub async fn last_proposal_at(
        &mut self,
        battle_id: i64,
        proposer: UserId,
    ) -> Result<Option<u32>> {
        let ply = sqlx::query_scalar!(
            "SELECT max(at_ply) FROM end_proposals WHERE battle_id = $1 AND proposer_id = $2",
            battle_id,
            proposer.db(),
        )
        .fetch_one(&mut *self.tx)
        .await?;
        Ok(ply.map(|p| p as u32))
    }
}

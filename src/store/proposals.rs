//! Proposals to end a battle by agreement.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::error::{classify, Result};
use super::ids::UserId;
use super::Tx;

/// An open proposal to end the current battle.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EndProposal {
    pub id: i64,
    pub battle_id: i64,
    pub proposer: UserId,
    /// Moves played in the battle when it was proposed.
    pub at_ply: u32,
    pub proposed_at: DateTime<Utc>,
}

/// How a proposal was closed. Stored by its name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
pub enum ProposalAnswer {
    Agreed,
    Declined,
    /// The other player moved instead of answering.
    Lapsed,
}

/// A row of `end_proposals`.
#[derive(sqlx::FromRow)]
struct ProposalRow {
    id: i64,
    battle_id: i64,
    proposer_id: UserId,
    #[sqlx(try_from = "i32")]
    at_ply: u32,
    proposed_at: DateTime<Utc>,
}

impl From<ProposalRow> for EndProposal {
    fn from(row: ProposalRow) -> EndProposal {
        EndProposal {
            id: row.id,
            battle_id: row.battle_id,
            proposer: row.proposer_id,
            at_ply: row.at_ply,
            proposed_at: row.proposed_at,
        }
    }
}

pub(crate) async fn open_proposal(
    conn: &mut PgConnection,
    battle_id: i64,
) -> Result<Option<EndProposal>> {
    let row = sqlx::query_as::<_, ProposalRow>(
        "SELECT id, battle_id, proposer_id, at_ply, proposed_at FROM end_proposals
         WHERE battle_id = $1 AND answer IS NULL",
    )
    .bind(battle_id)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(EndProposal::from))
}

impl Tx {
    /// Opens a proposal; refused with [`super::Conflict::ProposalOpen`] if one is open.
    pub async fn open_proposal(
        &mut self,
        battle_id: i64,
        proposer: UserId,
        at_ply: u32,
        at: DateTime<Utc>,
    ) -> Result<EndProposal> {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO end_proposals (battle_id, proposer_id, at_ply, proposed_at)
             VALUES ($1, $2, $3, $4) RETURNING id",
        )
        .bind(battle_id)
        .bind(proposer.db())
        .bind(at_ply as i32)
        .bind(at)
        .fetch_one(&mut *self.tx)
        .await
        .map_err(classify)?;
        Ok(EndProposal {
            id,
            battle_id,
            proposer,
            at_ply,
            proposed_at: at,
        })
    }

    /// Closes an open proposal.
    pub async fn answer_proposal(
        &mut self,
        id: i64,
        answer: ProposalAnswer,
        at: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query("UPDATE end_proposals SET answer = $2, answered_at = $3 WHERE id = $1 AND answer IS NULL")
            .bind(id)
            .bind(answer)
            .bind(at)
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }
}

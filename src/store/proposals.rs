//! Proposals to end a battle by agreement.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::error::{classify, Result, StoreError};
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
struct ProposalRow {
    id: i64,
    battle_id: i64,
    proposer_id: UserId,
    at_ply: i32,
    proposed_at: DateTime<Utc>,
}

impl TryFrom<ProposalRow> for EndProposal {
    type Error = StoreError;

    fn try_from(row: ProposalRow) -> Result<EndProposal> {
        let at_ply = u32::try_from(row.at_ply).map_err(|_| {
            StoreError::Corrupt(format!("proposal {}: at_ply {}", row.id, row.at_ply))
        })?;
        Ok(EndProposal {
            id: row.id,
            battle_id: row.battle_id,
            proposer: row.proposer_id,
            at_ply,
            proposed_at: row.proposed_at,
        })
    }
}

pub(crate) async fn open_proposal(
    conn: &mut PgConnection,
    battle_id: i64,
) -> Result<Option<EndProposal>> {
    let row = sqlx::query_as!(
        ProposalRow,
        r#"SELECT id, battle_id, proposer_id AS "proposer_id: UserId", at_ply, proposed_at
           FROM end_proposals WHERE battle_id = $1 AND answer IS NULL"#,
        battle_id
    )
    .fetch_optional(conn)
    .await?;
    row.map(EndProposal::try_from).transpose()
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
        let id = sqlx::query_scalar!(
            "INSERT INTO end_proposals (battle_id, proposer_id, at_ply, proposed_at)
             VALUES ($1, $2, $3, $4) RETURNING id",
            battle_id,
            proposer.db(),
            at_ply as i32,
            at,
        )
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
        sqlx::query!(
            "UPDATE end_proposals SET answer = $2, answered_at = $3
             WHERE id = $1 AND answer IS NULL",
            id,
            answer as _,
            at,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }
}

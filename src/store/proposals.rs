//! Proposals to end a battle by agreement.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, Row};

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

/// How a proposal was closed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ProposalAnswer {
    Agreed,
    Declined,
    /// The other player moved instead of answering.
    Lapsed,
}

impl ProposalAnswer {
    fn name(self) -> &'static str {
        match self {
            ProposalAnswer::Agreed => "agreed",
            ProposalAnswer::Declined => "declined",
            ProposalAnswer::Lapsed => "lapsed",
        }
    }
}

pub(crate) async fn open_proposal(
    conn: &mut PgConnection,
    battle_id: i64,
) -> Result<Option<EndProposal>> {
    let row = sqlx::query(
        "SELECT id, battle_id, proposer_id, at_ply, proposed_at FROM end_proposals
         WHERE battle_id = $1 AND answer IS NULL",
    )
    .bind(battle_id)
    .fetch_optional(conn)
    .await?;
    Ok(row.map(|r| EndProposal {
        id: r.get("id"),
        battle_id: r.get("battle_id"),
        proposer: UserId::from_db(r.get("proposer_id")),
        at_ply: r.get::<i32, _>("at_ply") as u32,
        proposed_at: r.get("proposed_at"),
    }))
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
            .bind(answer.name())
            .bind(at)
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }
}

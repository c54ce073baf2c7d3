//! Challenges: one player invites another to a match in a channel.

use chrono::{DateTime, Utc};
use sqlx::postgres::PgRow;
use sqlx::Row;

use super::error::{classify, Result, StoreError};
use super::ids::{ChallengeId, ChannelId, GuildId, UserId};
use super::{Store, Tx};
use crate::game::Variant;

/// Which side the challenger commands in battle 1.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum SideChoice {
    Dwarfs,
    Trolls,
    /// Decided by a coin toss when the challenge is accepted (the default).
    #[default]
    Random,
}

impl SideChoice {
    pub fn name(self) -> &'static str {
        match self {
            SideChoice::Dwarfs => "dwarfs",
            SideChoice::Trolls => "trolls",
            SideChoice::Random => "random",
        }
    }

    pub fn from_name(name: &str) -> Option<SideChoice> {
        match name.trim().to_ascii_lowercase().as_str() {
            "dwarfs" | "dwarf" | "d" => Some(SideChoice::Dwarfs),
            "trolls" | "troll" | "t" => Some(SideChoice::Trolls),
            "random" | "r" => Some(SideChoice::Random),
            _ => None,
        }
    }
}

/// Where a challenge stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ChallengeState {
    Pending,
    Accepted,
    Declined,
    Cancelled,
    Expired,
}

impl ChallengeState {
    pub fn name(self) -> &'static str {
        match self {
            ChallengeState::Pending => "pending",
            ChallengeState::Accepted => "accepted",
            ChallengeState::Declined => "declined",
            ChallengeState::Cancelled => "cancelled",
            ChallengeState::Expired => "expired",
        }
    }

    fn from_name(name: &str) -> Result<ChallengeState> {
        Ok(match name {
            "pending" => ChallengeState::Pending,
            "accepted" => ChallengeState::Accepted,
            "declined" => ChallengeState::Declined,
            "cancelled" => ChallengeState::Cancelled,
            "expired" => ChallengeState::Expired,
            other => return Err(StoreError::Corrupt(format!("challenge state {other}"))),
        })
    }
}

/// A challenge as stored.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Challenge {
    pub id: ChallengeId,
    pub guild: GuildId,
    pub channel: ChannelId,
    pub challenger: UserId,
    pub opponent: UserId,
    pub variant: Variant,
    pub side: SideChoice,
    pub days_per_move: u32,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub state: ChallengeState,
    /// Whether the match counts on the leaderboards (`false`: a friendly match).
    pub rated: bool,
}

/// A challenge about to be issued.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewChallenge {
    pub guild: GuildId,
    pub channel: ChannelId,
    pub challenger: UserId,
    pub opponent: UserId,
    pub variant: Variant,
    pub side: SideChoice,
    pub days_per_move: u32,
    pub created_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub rated: bool,
}

const COLUMNS: &str = "id, guild_id, channel_id, challenger_id, opponent_id, variant, \
                       challenger_side, days_per_move, created_at, expires_at, state, rated";

fn challenge(row: &PgRow) -> Result<Challenge> {
    let variant: String = row.get("variant");
    let side: String = row.get("challenger_side");
    Ok(Challenge {
        id: ChallengeId::from_db(row.get("id")),
        guild: GuildId::from_db(row.get("guild_id")),
        channel: ChannelId::from_db(row.get("channel_id")),
        challenger: UserId::from_db(row.get("challenger_id")),
        opponent: UserId::from_db(row.get("opponent_id")),
        variant: variant
            .parse()
            .map_err(|_| StoreError::Corrupt(format!("variant {variant}")))?,
        side: SideChoice::from_name(&side)
            .ok_or_else(|| StoreError::Corrupt(format!("side {side}")))?,
        days_per_move: row.get::<i32, _>("days_per_move") as u32,
        created_at: row.get("created_at"),
        expires_at: row.get("expires_at"),
        state: ChallengeState::from_name(row.get("state"))?,
        rated: row.try_get("rated")?,
    })
}

impl Store {
    /// A challenge by id.
    pub async fn challenge(&self, id: ChallengeId) -> Result<Option<Challenge>> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM challenges WHERE id = $1"))
            .bind(id.db())
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(challenge).transpose()
    }

    /// The open challenges in a channel that involve `user`, newest first.
    pub async fn pending_challenges(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Vec<Challenge>> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM challenges
             WHERE channel_id = $1 AND state = 'pending' AND (challenger_id = $2 OR opponent_id = $2)
             ORDER BY created_at DESC, id DESC"
        ))
        .bind(channel.db())
        .bind(user.db())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(challenge).collect()
    }
}

impl Tx {
    /// Issues a challenge; refused with [`super::Conflict::DuplicateChallenge`] when the two
    /// players already have an open one in the channel.
    pub async fn create_challenge(&mut self, new: &NewChallenge) -> Result<Challenge> {
        let row = sqlx::query(&format!(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, variant,
                                     challenger_side, days_per_move, created_at, expires_at,
                                     rated)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING {COLUMNS}"
        ))
        .bind(new.guild.db())
        .bind(new.channel.db())
        .bind(new.challenger.db())
        .bind(new.opponent.db())
        .bind(new.variant.name())
        .bind(new.side.name())
        .bind(new.days_per_move as i32)
        .bind(new.created_at)
        .bind(new.expires_at)
        .bind(new.rated)
        .fetch_one(&mut *self.tx)
        .await
        .map_err(classify)?;
        challenge(&row)
    }

    /// Marks up to `limit` open challenges whose time is up as expired, once, and returns
    /// them; a challenge another process is expiring is skipped.
    pub async fn expire_challenges(
        &mut self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<Challenge>> {
        let rows = sqlx::query(&format!(
            "UPDATE challenges SET state = 'expired', answered_at = $1
             WHERE id IN (SELECT id FROM challenges WHERE state = 'pending' AND expires_at <= $1
                          ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
               AND state = 'pending'
             RETURNING {COLUMNS}"
        ))
        .bind(now)
        .bind(limit)
        .fetch_all(&mut *self.tx)
        .await?;
        rows.iter().map(challenge).collect()
    }

    /// Moves an open, unexpired challenge to `state`; `None` if it is no longer open (answered
    /// by someone else first, or expired).
    pub async fn close_challenge(
        &mut self,
        id: ChallengeId,
        state: ChallengeState,
        now: DateTime<Utc>,
    ) -> Result<Option<Challenge>> {
        let row = sqlx::query(&format!(
            "UPDATE challenges SET state = $2, answered_at = $3
             WHERE id = $1 AND state = 'pending' AND expires_at > $3 RETURNING {COLUMNS}"
        ))
        .bind(id.db())
        .bind(state.name())
        .bind(now)
        .fetch_optional(&mut *self.tx)
        .await?;
        row.as_ref().map(challenge).transpose()
    }
}

//! Challenges: one player invites another to a match in a channel.

use super::error::{classify, name_column, Result, StoreError};
use super::ids::{ChallengeId, ChannelId, GuildId, UserId};
use super::{Store, Tx};
use crate::game::Variant;
use chrono::{DateTime, Utc};

/// Which side the challenger commands in battle 1. Stored by its name.
#[derive(
    Clone, Copy, PartialEq, Eq, Debug, Default, sqlx::Type, serde::Serialize, serde::Deserialize,
)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
#[serde(rename_all = "kebab-case")]
pub enum SideChoice {
    Dwarfs,
    Trolls,
    /// Decided by a coin toss when the challenge is accepted (the default).
    #[default]
    Random,
}

impl SideChoice {
    pub fn from_name(name: &str) -> Option<SideChoice> {
        match name.trim().to_ascii_lowercase().as_str() {
            "dwarfs" | "dwarf" | "d" => Some(SideChoice::Dwarfs),
            "trolls" | "troll" | "t" => Some(SideChoice::Trolls),
            "random" | "r" => Some(SideChoice::Random),
            _ => None,
        }
    }
}

/// Where a challenge stands. Stored by its name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
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

/// `sqlx::query_as!` reading [`ChallengeRow`]s: the columns of a challenge, in the order of
/// [`COLUMNS`], between `$before` (ending in `SELECT` or `RETURNING`) and `$after`.
macro_rules! challenge_rows {
    ($before:literal, $after:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            ChallengeRow,
            $before
                + r#" id AS "id: ChallengeId", guild_id AS "guild_id: GuildId",
                      channel_id AS "channel_id: ChannelId",
                      challenger_id AS "challenger_id: UserId",
                      opponent_id AS "opponent_id: UserId", variant,
                      challenger_side AS "challenger_side: SideChoice", days_per_move,
                      created_at, expires_at, state AS "state: ChallengeState", rated "#
                + $after
            $(, $arg)*
        )
    };
}

/// The columns [`challenge_rows!`] reads, by position, to name one that does not decode.
const COLUMNS: &[&str] = &[
    "id",
    "guild_id",
    "channel_id",
    "challenger_id",
    "opponent_id",
    "variant",
    "challenger_side",
    "days_per_move",
    "created_at",
    "expires_at",
    "state",
    "rated",
];

/// A row of `challenges` ([`challenge_rows!`]).
struct ChallengeRow {
    id: ChallengeId,
    guild_id: GuildId,
    channel_id: ChannelId,
    challenger_id: UserId,
    opponent_id: UserId,
    /// The variant is the game's type, read by its name.
    variant: String,
    challenger_side: SideChoice,
    days_per_move: i32,
    created_at: DateTime<Utc>,
    expires_at: DateTime<Utc>,
    state: ChallengeState,
    rated: bool,
}

impl TryFrom<ChallengeRow> for Challenge {
    type Error = StoreError;

    fn try_from(row: ChallengeRow) -> Result<Challenge> {
        let id = row.id;
        let variant = row
            .variant
            .parse()
            .map_err(|e| StoreError::Corrupt(format!("challenge {id}: variant: {e}")))?;
        let days_per_move = u32::try_from(row.days_per_move).map_err(|_| {
            StoreError::Corrupt(format!(
                "challenge {id}: days_per_move {}",
                row.days_per_move
            ))
        })?;
        Ok(Challenge {
            id,
            guild: row.guild_id,
            channel: row.channel_id,
            challenger: row.challenger_id,
            opponent: row.opponent_id,
            variant,
            side: row.challenger_side,
            days_per_move,
            created_at: row.created_at,
            expires_at: row.expires_at,
            state: row.state,
            rated: row.rated,
        })
    }
}

impl Store {
    /// A challenge by id.
    pub async fn challenge(&self, id: ChallengeId) -> Result<Option<Challenge>> {
        let row = challenge_rows!("SELECT", "FROM challenges WHERE id = $1", id.db())
            .fetch_optional(&self.pool)
            .await
            .map_err(name_column(COLUMNS))?;
        row.map(Challenge::try_from).transpose()
    }

    /// The open challenges in a channel that involve `user`, newest first.
    pub async fn pending_challenges(
        &self,
        channel: ChannelId,
        user: UserId,
    ) -> Result<Vec<Challenge>> {
        let rows = challenge_rows!(
            "SELECT",
            "FROM challenges
             WHERE channel_id = $1 AND state = 'pending' AND (challenger_id = $2 OR opponent_id = $2)
             ORDER BY created_at DESC, id DESC",
            channel.db(),
            user.db(),
        )
        .fetch_all(&self.pool)
        .await
        .map_err(name_column(COLUMNS))?;
        rows.into_iter().map(Challenge::try_from).collect()
    }
}

impl Tx {
    /// Issues a challenge; refused with [`super::Conflict::DuplicateChallenge`] when the two
    /// players already have an open one in the channel.
    pub async fn create_challenge(&mut self, new: &NewChallenge) -> Result<Challenge> {
        let row = challenge_rows!(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, variant,
                                     challenger_side, days_per_move, created_at, expires_at,
                                     rated)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING",
            "",
            new.guild.db(),
            new.channel.db(),
            new.challenger.db(),
            new.opponent.db(),
            new.variant.name(),
            new.side as _,
            new.days_per_move as i32,
            new.created_at,
            new.expires_at,
            new.rated,
        )
        .fetch_one(&mut *self.tx)
        .await
        .map_err(name_column(COLUMNS))
        .map_err(classify)?;
        row.try_into()
    }

    /// Marks up to `limit` open challenges whose time is up as expired, once, and returns
    /// them; a challenge another process is expiring is skipped.
    pub async fn expire_challenges(
        &mut self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<Challenge>> {
        let rows = challenge_rows!(
            "UPDATE challenges SET state = 'expired', answered_at = $1
             WHERE id IN (SELECT id FROM challenges WHERE state = 'pending' AND expires_at <= $1
                            AND (accepting_until IS NULL OR accepting_until <= $1)
                          ORDER BY expires_at LIMIT $2 FOR UPDATE SKIP LOCKED)
               AND state = 'pending'
             RETURNING",
            "",
            now,
            limit,
        )
        .fetch_all(&mut *self.tx)
        .await
        .map_err(name_column(COLUMNS))?;
        rows.into_iter().map(Challenge::try_from).collect()
    }

    /// Moves an open, unexpired challenge to `state`; `None` if it is no longer open (answered
    /// by someone else first, or expired).
    pub async fn close_challenge(
        &mut self,
        id: ChallengeId,
        state: ChallengeState,
        now: DateTime<Utc>,
    ) -> Result<Option<Challenge>> {
        let row = challenge_rows!(
            "UPDATE challenges SET state = $2, answered_at = $3
             WHERE id = $1 AND state = 'pending' AND expires_at > $3 RETURNING",
            "",
            id.db(),
            state as _,
            now,
        )
        .fetch_optional(&mut *self.tx)
        .await
        .map_err(name_column(COLUMNS))?;
        row.map(Challenge::try_from).transpose()
    }

    /// Accepts challenge `id`, claimed with [`Store::claim_acceptance`]: `None` if it is no
    /// longer open (cancelled or declined meanwhile). It may have passed its expiry while
    /// claimed; the claim held it open.
    pub async fn accept_claimed_challenge(
        &mut self,
        id: ChallengeId,
        now: DateTime<Utc>,
    ) -> Result<Option<Challenge>> {
        let row = challenge_rows!(
            "UPDATE challenges SET state = 'accepted', answered_at = $2, accepting_until = NULL
             WHERE id = $1 AND state = 'pending' RETURNING",
            "",
            id.db(),
            now,
        )
        .fetch_optional(&mut *self.tx)
        .await
        .map_err(name_column(COLUMNS))?;
        row.map(Challenge::try_from).transpose()
    }
}

impl Store {
    /// Claims open challenge `id` for accepting until `until`, with no lock held afterwards
    /// (the match's thread is opened next, a Discord call); `false` when it is not open, has
    /// expired, or another accept holds an unexpired claim.
    pub async fn claim_acceptance(
        &self,
        id: ChallengeId,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query!(
            "UPDATE challenges SET accepting_until = $3
             WHERE id = $1 AND state = 'pending' AND expires_at > $2
               AND (accepting_until IS NULL OR accepting_until <= $2)",
            id.db(),
            now,
            until,
        )
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Gives up the claim on challenge `id` (the accept was refused after it), so it can be
    /// accepted again at once.
    pub async fn release_acceptance(&self, id: ChallengeId) -> Result<()> {
        sqlx::query!(
            "UPDATE challenges SET accepting_until = NULL WHERE id = $1 AND state = 'pending'",
            id.db(),
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

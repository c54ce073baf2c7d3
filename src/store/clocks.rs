//! The move clock: each turn's deadline, its reminders, and finding what is due. The
//! computer's turns have a clock row too (it says whose turn it is) but are never reminded or
//! forfeited: the computer never runs out of time.
//!
//! Several bot processes may share a database, so due work is claimed with
//! `FOR UPDATE SKIP LOCKED` on the match row, the same lock every move takes: a reminder or a
//! forfeit happens exactly once, and never in the middle of a move.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::error::Result;
use super::ids::{ChannelId, GuildId, MatchId, UserId};
use super::Tx;

/// The clock of the turn in play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TurnClock {
    /// The player to move.
    pub player: UserId,
    pub turn_started_at: DateTime<Utc>,
    pub deadline: DateTime<Utc>,
    /// When to remind the player if they have not moved.
    pub remind_at: DateTime<Utc>,
    pub reminder_sent_at: Option<DateTime<Utc>>,
    /// Set while the clock stands still because the players could not be told something.
    pub paused_at: Option<DateTime<Utc>>,
    /// Set while the clock stands still because its player is on vacation.
    pub vacation_since: Option<DateTime<Utc>>,
}

/// A reminder claimed for sending.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DueReminder {
    pub match_id: MatchId,
    pub guild: GuildId,
    pub channel: ChannelId,
    pub player: UserId,
    /// The turn it belongs to.
    pub turn_started_at: DateTime<Utc>,
    pub deadline: DateTime<Utc>,
}

/// A row of `clocks`.
struct ClockRow {
    player_id: UserId,
    turn_started_at: DateTime<Utc>,
    deadline: DateTime<Utc>,
    remind_at: DateTime<Utc>,
    reminder_sent_at: Option<DateTime<Utc>>,
    paused_at: Option<DateTime<Utc>>,
    vacation_since: Option<DateTime<Utc>>,
}

impl From<ClockRow> for TurnClock {
    fn from(row: ClockRow) -> TurnClock {
        TurnClock {
            player: row.player_id,
            turn_started_at: row.turn_started_at,
            deadline: row.deadline,
            remind_at: row.remind_at,
            reminder_sent_at: row.reminder_sent_at,
            paused_at: row.paused_at,
            vacation_since: row.vacation_since,
        }
    }
}

/// A claimed reminder's row: the clock's and its match's.
struct ReminderRow {
    match_id: MatchId,
    guild_id: GuildId,
    channel_id: ChannelId,
    player_id: UserId,
    turn_started_at: DateTime<Utc>,
    deadline: DateTime<Utc>,
}

impl From<ReminderRow> for DueReminder {
    fn from(row: ReminderRow) -> DueReminder {
        DueReminder {
            match_id: row.match_id,
            guild: row.guild_id,
            channel: row.channel_id,
            player: row.player_id,
            turn_started_at: row.turn_started_at,
            deadline: row.deadline,
        }
    }
}

pub(crate) async fn clock_of(conn: &mut PgConnection, match_id: i64) -> Result<Option<TurnClock>> {
    let row = sqlx::query_as!(
        ClockRow,
        r#"SELECT player_id AS "player_id: UserId", turn_started_at, deadline, remind_at,
                  reminder_sent_at, paused_at, vacation_since
           FROM clocks WHERE match_id = $1"#,
        match_id
    )
    .fetch_optional(conn)
    .await?;
    Ok(row.map(TurnClock::from))
}

impl Tx {
    /// Starts the clock of a new turn (replacing the previous turn's).
    pub async fn set_clock(&mut self, id: MatchId, clock: &TurnClock) -> Result<()> {
        sqlx::query!(
            "INSERT INTO clocks (match_id, player_id, turn_started_at, deadline, remind_at,
                 reminder_sent_at, paused_at, vacation_since)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (match_id) DO UPDATE SET player_id = $2, turn_started_at = $3,
                 deadline = $4, remind_at = $5, reminder_sent_at = $6, paused_at = $7,
                 vacation_since = $8",
            id.db(),
            clock.player.db(),
            clock.turn_started_at,
            clock.deadline,
            clock.remind_at,
            clock.reminder_sent_at,
            clock.paused_at,
            clock.vacation_since,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Stops a match's clock.
    pub async fn clear_clock(&mut self, id: MatchId) -> Result<()> {
        sqlx::query!("DELETE FROM clocks WHERE match_id = $1", id.db())
            .execute(&mut *self.tx)
            .await?;
        Ok(())
    }

    /// Claims up to `limit` reminders due at `now`. A turn has two: when half its time is left,
    /// and a day before the deadline; claiming the first sets the clock to the second if that
    /// is still ahead, and claiming the last marks the turn reminded. A match another process
    /// or a move holds is skipped, not waited for; the clock row is updated only if it is still
    /// due once locked, so each reminder is claimed once, for the turn in play (a turn that a
    /// move just ended is rechecked on its new row and left alone).
    pub async fn claim_due_reminders(
        &mut self,
        now: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<DueReminder>> {
        let rows = sqlx::query_as!(
            ReminderRow,
            r#"WITH due AS (
                 SELECT m.id FROM clocks c JOIN matches m ON m.id = c.match_id
                 WHERE c.reminder_sent_at IS NULL AND c.remind_at <= $1 AND c.deadline > $1
                   AND c.paused_at IS NULL AND c.vacation_since IS NULL AND m.state = 'active'
                   AND c.player_id IS DISTINCT FROM m.computer_id
                 ORDER BY c.remind_at LIMIT $2
                 FOR UPDATE OF m SKIP LOCKED)
             UPDATE clocks c SET
                 remind_at = CASE WHEN c.deadline - interval '24 hours' > GREATEST(c.remind_at, $1)
                                  THEN c.deadline - interval '24 hours' ELSE c.remind_at END,
                 reminder_sent_at = CASE WHEN c.deadline - interval '24 hours' > GREATEST(c.remind_at, $1)
                                         THEN NULL ELSE $1 END
             FROM due JOIN matches m ON m.id = due.id
             WHERE c.match_id = due.id AND c.reminder_sent_at IS NULL AND c.remind_at <= $1
               AND c.deadline > $1 AND c.paused_at IS NULL AND c.vacation_since IS NULL
             RETURNING c.match_id AS "match_id: MatchId", m.guild_id AS "guild_id: GuildId",
                 m.channel_id AS "channel_id: ChannelId", c.player_id AS "player_id: UserId",
                 c.turn_started_at, c.deadline"#,
            now,
            limit,
        )
        .fetch_all(&mut *self.tx)
        .await?;
        Ok(rows.into_iter().map(DueReminder::from).collect())
    }

    /// Locks up to `limit` matches in play whose turn deadline passed before `before`,
    /// skipping any another process holds.
    pub async fn lock_overdue_matches(
        &mut self,
        before: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<MatchId>> {
        Ok(sqlx::query_scalar!(
            r#"SELECT m.id AS "id: MatchId" FROM clocks c JOIN matches m ON m.id = c.match_id
               WHERE c.deadline <= $1 AND c.paused_at IS NULL AND c.vacation_since IS NULL
                 AND m.state = 'active' AND c.player_id IS DISTINCT FROM m.computer_id
               ORDER BY c.deadline LIMIT $2
               FOR UPDATE OF m SKIP LOCKED"#,
            before,
            limit,
        )
        .fetch_all(&mut *self.tx)
        .await?)
    }

    /// Stops a match's clock where it stands, because its players could not be told
    /// something; `reason` is shown to them. A clock already paused keeps its first pause.
    pub async fn pause_clock(
        &mut self,
        id: MatchId,
        reason: &str,
        now: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query!(
            "UPDATE clocks SET paused_at = COALESCE(paused_at, $2) WHERE match_id = $1",
            id.db(),
            now,
        )
        .execute(&mut *self.tx)
        .await?;
        sqlx::query!(
            "UPDATE matches SET trouble = $2, trouble_at = $3 WHERE id = $1",
            id.db(),
            reason,
            now,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Starts a paused clock again: the deadline and the reminder move on by the time it
    /// stood still, and the match's trouble is cleared.
    pub async fn resume_clock(&mut self, id: MatchId, now: DateTime<Utc>) -> Result<()> {
        sqlx::query!(
            "UPDATE clocks SET deadline = deadline + ($2 - paused_at),
                 remind_at = remind_at + ($2 - paused_at), paused_at = NULL
             WHERE match_id = $1 AND paused_at IS NOT NULL",
            id.db(),
            now,
        )
        .execute(&mut *self.tx)
        .await?;
        self.clear_trouble(id).await
    }

    /// Forgets that the reminder of the turn that started at `turn_started_at` was sent: it
    /// never reached the player, so it is sent again once the clock runs.
    pub async fn forget_reminder(
        &mut self,
        id: MatchId,
        turn_started_at: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query!(
            "UPDATE clocks SET reminder_sent_at = NULL WHERE match_id = $1 AND turn_started_at = $2",
            id.db(),
            turn_started_at,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Clears a match's trouble: a player acted, so the next notice will show whether the
    /// channel works again.
    pub async fn clear_trouble(&mut self, id: MatchId) -> Result<()> {
        sqlx::query!(
            "UPDATE matches SET trouble = NULL, trouble_at = NULL WHERE id = $1",
            id.db()
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Moves a match in play to another channel; refused with
    /// [`super::Conflict::ChannelBusy`] when that channel has a match in play.
    pub async fn move_match(&mut self, id: MatchId, channel: ChannelId) -> Result<()> {
        sqlx::query!(
            "UPDATE matches SET channel_id = $2 WHERE id = $1",
            id.db(),
            channel.db()
        )
        .execute(&mut *self.tx)
        .await
        .map_err(super::error::classify)?;
        Ok(())
    }

    /// Locks the matches in play in `channel`, or in every channel of `guild`.
    pub async fn lock_matches_in(
        &mut self,
        guild: Option<GuildId>,
        channel: Option<ChannelId>,
    ) -> Result<Vec<MatchId>> {
        Ok(sqlx::query_scalar!(
            r#"SELECT id AS "id: MatchId" FROM matches WHERE state = 'active'
                 AND ($1::BIGINT IS NULL OR guild_id = $1)
                 AND ($2::BIGINT IS NULL OR channel_id = $2)
               ORDER BY id FOR UPDATE"#,
            guild.map(GuildId::db),
            channel.map(ChannelId::db),
        )
        .fetch_all(&mut *self.tx)
        .await?)
    }
}

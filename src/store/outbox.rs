//! The outbox: notices written with the change they report, posted later by a delivery worker.
//!
//! A notice is *claimed* for a lease before it is posted; a process that dies mid-post leaves
//! it to be taken over when the lease runs out. Only the oldest pending notice of a channel is
//! ever claimed, so a channel hears its notices in order, and two processes never hold notices
//! of the same channel at once.

use super::error::{name_column, Result};
use super::ids::{ChannelId, GuildId, MatchId, UserId};
use super::{Store, Tx};
use chrono::{DateTime, Utc};

/// Who a notice is for: a channel (or thread), or one player's direct messages. Each is a
/// queue of its own: a reader hears their notices in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Recipient {
    Channel(ChannelId),
    Dm(UserId),
}

impl Recipient {
    fn from_columns(channel: Option<ChannelId>, dm: Option<UserId>) -> Recipient {
        match (channel, dm) {
            (_, Some(player)) => Recipient::Dm(player),
            (Some(channel), None) => Recipient::Channel(channel),
            // The table's check allows neither; read as nobody's channel, never posted to.
            (None, None) => Recipient::Channel(ChannelId(0)),
        }
    }

    fn columns(self) -> (Option<i64>, Option<i64>) {
        match self {
            Recipient::Channel(c) => (Some(c.db()), None),
            Recipient::Dm(p) => (None, Some(p.db())),
        }
    }
}

/// A notice to queue.
#[derive(Clone, Debug, PartialEq)]
pub struct NewNotice {
    pub guild: GuildId,
    pub to: Recipient,
    pub match_id: Option<MatchId>,
    /// What to say, in the service's form.
    pub body: serde_json::Value,
    /// Says nothing (a thread to close): holds no later notice of its reader back.
    pub silent: bool,
    /// The board it shows, as (battle, plies), if any.
    pub board: Option<(u8, u32)>,
    pub created_at: DateTime<Utc>,
    /// Not to be posted before this time.
    pub due_at: DateTime<Utc>,
}

/// A notice claimed for posting.
#[derive(Clone, Debug, PartialEq)]
pub struct QueuedNotice {
    pub id: i64,
    pub guild: GuildId,
    pub to: Recipient,
    pub match_id: Option<MatchId>,
    pub body: serde_json::Value,
    pub created_at: DateTime<Utc>,
    /// Tries so far, this one included.
    pub attempts: u32,
}

/// How a notice's delivery ended. Stored by its name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
pub enum NoticeState {
    Pending,
    Delivered,
    /// Discord refused it for good (no access, channel gone, thread locked).
    Undeliverable,
    /// No longer true when its turn came (a reminder for a turn already played).
    Obsolete,
}

/// A notice as the outbox keeps it, for reports and tests.
#[derive(Clone, Debug, PartialEq)]
pub struct NoticeRecord {
    pub id: i64,
    pub to: Recipient,
    pub match_id: Option<MatchId>,
    pub body: serde_json::Value,
    pub state: NoticeState,
    pub attempts: u32,
    pub failure: Option<String>,
}

impl Tx {
    /// Whether a notice telling `event` (as stored) is queued and not taken up: a showing (of
    /// an announcement, of an analysis) reads what it shows when it is delivered, so a change
    /// made now needs no other. One taken up may have read already, even if its lease has run
    /// out (a slow delivery is not a dead one), so it does not count. The notice found stays
    /// locked until this transaction ends, so no worker takes it up and reads before this
    /// change is committed; one being taken up now is waited for and then counts as taken.
    pub async fn told_later(&mut self, event: &serde_json::Value) -> Result<bool> {
        let waiting = sqlx::query_scalar!(
            r#"SELECT id FROM notices
               WHERE state = 'pending' AND leased_until IS NULL
                 AND body @> jsonb_build_object('events', jsonb_build_array($1::JSONB))
               ORDER BY id LIMIT 1
               FOR UPDATE"#,
            event,
        )
        .fetch_optional(&mut *self.tx)
        .await?;
        Ok(waiting.is_some())
    }

    /// Settles notice `id`, a record of something done while it was not yet due (a thread
    /// opened for the match this transaction begins), as delivered: nothing is left to do.
    pub async fn settle_notice(&mut self, id: i64, now: DateTime<Utc>) -> Result<()> {
        sqlx::query!(
            "UPDATE notices SET state = 'delivered', finished_at = $2, leased_until = NULL
             WHERE id = $1 AND state = 'pending'",
            id,
            now,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Lets the direct messages of match `id` that wait for the board of battle `battle`
    /// after `plies` moves go now. Only those about this board or an earlier one: a later
    /// move's may be queued already, and its own message is still to come.
    pub async fn release_dms_waiting_for(
        &mut self,
        (id, battle, plies): (MatchId, u8, u32),
        now: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query!(
            "UPDATE notices SET due_at = $2
             WHERE match_id = $1 AND state = 'pending' AND due_at > $2 AND dm_user_id IS NOT NULL
               AND (board_battle::INT, board_plies) <= ($3, $4)",
            id.db(),
            now,
            i32::from(battle),
            plies as i32,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Queues a notice; it is posted only if this transaction commits.
    pub async fn queue_notice(&mut self, notice: &NewNotice) -> Result<i64> {
        let (channel, dm) = notice.to.columns();
        let id = sqlx::query_scalar!(
            "INSERT INTO notices (guild_id, channel_id, dm_user_id, match_id, body, silent,
                                  board_battle, board_plies, created_at, due_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
            notice.guild.db(),
            channel,
            dm,
            notice.match_id.map(MatchId::db),
            &notice.body,
            notice.silent,
            notice.board.map(|(battle, _)| i16::from(battle)),
            notice.board.map(|(_, plies)| plies as i32),
            notice.created_at,
            notice.due_at,
        )
        .fetch_one(&mut *self.tx)
        .await?;
        Ok(id)
    }
}

impl Store {
    /// Claims up to `limit` notices that are due, each the oldest pending one of its reader
    /// (silent ones aside), for `lease`; a notice another process holds is skipped, not
    /// waited for.
    pub async fn claim_notices(
        &self,
        now: DateTime<Utc>,
        lease: chrono::Duration,
        limit: i64,
    ) -> Result<Vec<QueuedNotice>> {
        let rows = sqlx::query_as!(
            QueuedRow,
            r#"UPDATE notices n SET leased_until = $2, attempts = n.attempts + 1
             WHERE n.id IN (
                 SELECT p.id FROM notices p
                 WHERE p.state = 'pending' AND p.due_at <= $1
                   AND (p.leased_until IS NULL OR p.leased_until <= $1)
                   AND NOT EXISTS (SELECT 1 FROM notices o
                                   WHERE (o.channel_id = p.channel_id OR o.dm_user_id = p.dm_user_id)
                                   AND o.state = 'pending' AND o.id < p.id AND NOT o.silent)
                 ORDER BY p.id LIMIT $3
                 FOR UPDATE SKIP LOCKED)
               AND n.state = 'pending' AND (n.leased_until IS NULL OR n.leased_until <= $1)
             RETURNING n.id, n.guild_id AS "guild_id: GuildId",
                 n.channel_id AS "channel_id: ChannelId", n.dm_user_id AS "dm_user_id: UserId",
                 n.match_id AS "match_id: MatchId",
                 n.body, n.created_at, n.attempts"#,
            now,
            now + lease,
            limit,
        )
        .fetch_all(&self.pool)
        .await?;
        let mut claimed: Vec<QueuedNotice> = rows.into_iter().map(QueuedNotice::from).collect();
        claimed.sort_by_key(|n| n.id);
        Ok(claimed)
    }

    /// Gives back a claimed notice that was not tried: it may be claimed again at once, and the
    /// claim is not counted as a try.
    pub async fn release_notice(&self, id: i64) -> Result<()> {
        sqlx::query!(
            "UPDATE notices SET leased_until = NULL, attempts = GREATEST(attempts - 1, 0)
             WHERE id = $1 AND state = 'pending'",
            id,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Ends a notice's delivery in `state`, with the failure that ended it if any.
    pub async fn finish_notice(
        &self,
        id: i64,
        state: NoticeState,
        failure: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query!(
            "UPDATE notices SET state = $2, failure = COALESCE($3, failure), finished_at = $4,
                 leased_until = NULL
             WHERE id = $1",
            id,
            state as _,
            failure,
            now,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Makes pending notice `id` due at `now`, not when it was meant to fall due.
    pub async fn notice_due(&self, id: i64, now: DateTime<Utc>) -> Result<()> {
        sqlx::query!(
            "UPDATE notices SET due_at = LEAST(due_at, $2) WHERE id = $1 AND state = 'pending'",
            id,
            now,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Gives a notice back to the outbox, to be tried again from `due_at`.
    pub async fn retry_notice(&self, id: i64, due_at: DateTime<Utc>, failure: &str) -> Result<()> {
        sqlx::query!(
            "UPDATE notices SET due_at = $2, failure = $3, leased_until = NULL
             WHERE id = $1 AND state = 'pending'",
            id,
            due_at,
            failure,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The notices of a channel, or of a player's direct messages, oldest first.
    pub async fn notices_to(&self, to: Recipient) -> Result<Vec<NoticeRecord>> {
        let (channel, dm) = to.columns();
        let rows = sqlx::query_as!(
            RecordRow,
            r#"SELECT id, channel_id AS "channel_id: ChannelId", dm_user_id AS "dm_user_id: UserId",
                      match_id AS "match_id: MatchId",
                      body, state AS "state: NoticeState", attempts, failure
               FROM notices WHERE channel_id = $1 OR dm_user_id = $2 ORDER BY id"#,
            channel,
            dm,
        )
        .fetch_all(&self.pool)
        .await
        .map_err(name_column(RECORD_COLUMNS))?;
        Ok(rows.into_iter().map(NoticeRecord::from).collect())
    }

    /// Every notice, oldest first (reports and tests; the outbox is small once delivered).
    pub async fn all_notices(&self) -> Result<Vec<NoticeRecord>> {
        let rows = sqlx::query_as!(
            RecordRow,
            r#"SELECT id, channel_id AS "channel_id: ChannelId", dm_user_id AS "dm_user_id: UserId",
                      match_id AS "match_id: MatchId",
                      body, state AS "state: NoticeState", attempts, failure
               FROM notices ORDER BY id"#
        )
        .fetch_all(&self.pool)
        .await
        .map_err(name_column(RECORD_COLUMNS))?;
        Ok(rows.into_iter().map(NoticeRecord::from).collect())
    }
}

/// Tries so far (counted up from 0 by the claim, so never below it).
fn attempts(stored: i32) -> u32 {
    stored.max(0) as u32
}

/// A claimed notice's row.
struct QueuedRow {
    id: i64,
    guild_id: GuildId,
    channel_id: Option<ChannelId>,
    dm_user_id: Option<UserId>,
    match_id: Option<MatchId>,
    body: serde_json::Value,
    created_at: DateTime<Utc>,
    attempts: i32,
}

impl From<QueuedRow> for QueuedNotice {
    fn from(row: QueuedRow) -> QueuedNotice {
        QueuedNotice {
            id: row.id,
            guild: row.guild_id,
            to: Recipient::from_columns(row.channel_id, row.dm_user_id),
            match_id: row.match_id,
            body: row.body,
            created_at: row.created_at,
            attempts: attempts(row.attempts),
        }
    }
}

/// The columns of a [`RecordRow`], by position, to name one that does not decode.
const RECORD_COLUMNS: &[&str] = &[
    "id",
    "channel_id",
    "dm_user_id",
    "match_id",
    "body",
    "state",
    "attempts",
    "failure",
];

/// A row of `notices` for reports.
struct RecordRow {
    id: i64,
    channel_id: Option<ChannelId>,
    dm_user_id: Option<UserId>,
    match_id: Option<MatchId>,
    body: serde_json::Value,
    state: NoticeState,
    attempts: i32,
    failure: Option<String>,
}

impl From<RecordRow> for NoticeRecord {
    fn from(row: RecordRow) -> NoticeRecord {
        NoticeRecord {
            id: row.id,
            to: Recipient::from_columns(row.channel_id, row.dm_user_id),
            match_id: row.match_id,
            body: row.body,
            state: row.state,
            attempts: attempts(row.attempts),
            failure: row.failure,
        }
    }
}

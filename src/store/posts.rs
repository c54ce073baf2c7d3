//! Where a match's boards were posted, and the direct messages that wait for them: a turn
//! notice by DM links to the move's own message in the match's channel, so it is held until
//! that message is posted (or, at the latest, until its due time).

use chrono::{DateTime, Utc};

use super::error::Result;
use super::ids::{ChannelId, MatchId};
use super::Store;

impl Store {
    /// The board of battle `battle` of match `id` after `plies` moves was shown in `channel`
    /// (as message `message`, when the front-end has ids): remembers where, and lets the
    /// match's direct messages that waited for it go now.
    pub async fn board_posted(
        &self,
        (id, battle, plies): (MatchId, u8, u32),
        channel: ChannelId,
        message: Option<u64>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        let mut tx = self.begin().await?;
        if let Some(message) = message {
            sqlx::query!(
                "INSERT INTO board_posts (match_id, battle, plies, channel_id, message_id, posted_at)
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                id.db(),
                i16::from(battle),
                plies as i32,
                channel.db(),
                message as i64,
                now,
            )
            .execute(&mut *tx.tx)
            .await?;
        }
        tx.release_dms_waiting_for((id, battle, plies), now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Where the board of battle `battle` of match `id` after `plies` moves was posted: its
    /// channel and message.
    pub async fn board_post(
        &self,
        (id, battle, plies): (MatchId, u8, u32),
    ) -> Result<Option<(ChannelId, u64)>> {
        let row = sqlx::query!(
            r#"SELECT channel_id AS "channel: ChannelId", message_id FROM board_posts
               WHERE match_id = $1 AND battle = $2 AND plies = $3"#,
            id.db(),
            i16::from(battle),
            plies as i32,
        )
        .fetch_optional(self.pool())
        .await?;
        Ok(row.map(|r| (r.channel, r.message_id as u64)))
    }
}

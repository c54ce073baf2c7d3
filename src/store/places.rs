//! Where matches are played: the channels of a server's matches in play, which the bot checks
//! when it (re)connects, in case a channel went while it could not hear of it.

use super::error::Result;
use super::ids::{ChannelId, GuildId};
use super::Store;

impl Store {
    /// The channels (or threads) of the matches in play on `guild`.
    pub async fn active_match_channels(&self, guild: GuildId) -> Result<Vec<ChannelId>> {
        Ok(sqlx::query_scalar!(
            r#"SELECT channel_id AS "channel: ChannelId" FROM matches
               WHERE state = 'active' AND guild_id = $1 ORDER BY id"#,
            guild.db()
        )
        .fetch_all(self.pool())
        .await?)
    }
}

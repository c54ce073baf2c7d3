//! Things said to a channel once, and what the bot remembers of itself between runs.

use chrono::{DateTime, Utc};

use super::error::Result;
use super::ids::ChannelId;
use super::Store;

impl Store {
    /// Records that `hint` is being given in `channel`: true the first time only, across
    /// restarts and processes.
    pub async fn first_hint(
        &self,
        channel: ChannelId,
        hint: &str,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let inserted = sqlx::query!(
            "INSERT INTO channel_hints (channel_id, hint, given_at) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
            channel.db(),
            hint,
            now,
        )
        .execute(self.pool())
        .await?;
        Ok(inserted.rows_affected() == 1)
    }

    /// A value the bot kept under `key`.
    pub async fn bot_state(&self, key: &str) -> Result<Option<String>> {
        let row = sqlx::query!("SELECT value FROM bot_state WHERE key = $1", key)
            .fetch_optional(self.pool())
            .await?;
        Ok(row.map(|r| r.value))
    }

    /// Keeps `value` under `key` (`None` forgets it).
    pub async fn set_bot_state(&self, key: &str, value: Option<&str>) -> Result<()> {
        match value {
            Some(value) => {
                sqlx::query!(
                    "INSERT INTO bot_state (key, value) VALUES ($1, $2)
                     ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                    key,
                    value,
                )
                .execute(self.pool())
                .await?;
            }
            None => {
                sqlx::query!("DELETE FROM bot_state WHERE key = $1", key)
                    .execute(self.pool())
                    .await?;
            }
        }
        Ok(())
    }
}

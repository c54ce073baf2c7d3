//! The role each server names for its tournament organisers.

use chrono::{DateTime, Utc};

use super::error::Result;
use super::ids::{GuildId, UserId};
use super::Store;

/// A server's organisers' role: its id, and its name as Discord last told it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrganiserRole {
    pub id: u64,
    pub name: String,
}

impl Store {
    /// The role `guild` named for its tournament organisers, if any.
    pub async fn organiser_role(&self, guild: GuildId) -> Result<Option<OrganiserRole>> {
        let row = sqlx::query!(
            "SELECT role_id, role_name FROM tournament_organisers WHERE guild_id = $1",
            guild.db()
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| OrganiserRole {
            id: r.role_id as u64,
            name: r.role_name,
        }))
    }

    /// Names `role` as `guild`'s organisers' role (`None`: no role, only Manage Server).
    pub async fn set_organiser_role(
        &self,
        guild: GuildId,
        role: Option<&OrganiserRole>,
        by: UserId,
        now: DateTime<Utc>,
    ) -> Result<()> {
        match role {
            Some(role) => {
                sqlx::query!(
                    "INSERT INTO tournament_organisers (guild_id, role_id, role_name, set_by, set_at)
                     VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (guild_id) DO UPDATE SET role_id = $2, role_name = $3,
                         set_by = $4, set_at = $5",
                    guild.db(),
                    role.id as i64,
                    role.name,
                    by.db(),
                    now,
                )
                .execute(&self.pool)
                .await?;
            }
            None => {
                sqlx::query!(
                    "DELETE FROM tournament_organisers WHERE guild_id = $1",
                    guild.db()
                )
                .execute(&self.pool)
                .await?;
            }
        }
        Ok(())
    }

    /// Discord says `role` of `guild` is now called `name` (`None`: it was deleted); true when
    /// it was the organisers' role.
    pub async fn organiser_role_changed(
        &self,
        guild: GuildId,
        role: u64,
        name: Option<&str>,
    ) -> Result<bool> {
        let done = match name {
            Some(name) => {
                sqlx::query!(
                    "UPDATE tournament_organisers SET role_name = $3
                 WHERE guild_id = $1 AND role_id = $2 AND role_name <> $3",
                    guild.db(),
                    role as i64,
                    name,
                )
                .execute(&self.pool)
                .await?
            }
            None => {
                sqlx::query!(
                    "DELETE FROM tournament_organisers WHERE guild_id = $1 AND role_id = $2",
                    guild.db(),
                    role as i64,
                )
                .execute(&self.pool)
                .await?
            }
        };
        Ok(done.rows_affected() > 0)
    }
}

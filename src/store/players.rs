//! Players and their settings.

use chrono::{DateTime, Utc};
use std::collections::HashMap;

use sqlx::{PgConnection, PgExecutor};

use super::error::{name_column, Result};
use super::ids::UserId;
use super::{Store, Tx};

/// A Discord user as the bot last saw them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Player {
    pub id: UserId,
    pub name: String,
    pub is_bot: bool,
}

/// How a player likes to see the board. Stored by its name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
pub enum BoardStyle {
    /// The picture.
    #[default]
    Full,
    /// The text board in a code block (the MUD's `set board brief`).
    Brief,
}

impl BoardStyle {
    pub fn name(self) -> &'static str {
        match self {
            BoardStyle::Full => "full",
            BoardStyle::Brief => "brief",
        }
    }

    pub fn from_name(name: &str) -> Option<BoardStyle> {
        match name {
            "full" => Some(BoardStyle::Full),
            "brief" => Some(BoardStyle::Brief),
            _ => None,
        }
    }
}

/// How a player hears that it is their move. Stored by its name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
pub enum Notify {
    /// A ping in the match's channel.
    #[default]
    Channel,
    /// A direct message; the channel message does not ping them.
    Dm,
    Both,
}

impl Notify {
    pub fn name(self) -> &'static str {
        match self {
            Notify::Channel => "channel",
            Notify::Dm => "dm",
            Notify::Both => "both",
        }
    }

    pub fn from_name(name: &str) -> Option<Notify> {
        match name {
            "channel" => Some(Notify::Channel),
            "dm" => Some(Notify::Dm),
            "both" => Some(Notify::Both),
            _ => None,
        }
    }

    /// Whether the channel message pings the player.
    pub fn in_channel(self) -> bool {
        self != Notify::Dm
    }

    /// Whether the player gets a direct message.
    pub fn by_dm(self) -> bool {
        self != Notify::Channel
    }
}

/// A player's settings. The theme is kept by name; the renderer knows the names.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Settings {
    pub board_style: BoardStyle,
    pub theme: String,
    pub notify: Notify,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            board_style: BoardStyle::Full,
            theme: "default".to_string(),
            notify: Notify::Channel,
        }
    }
}

/// A row of `players`.
struct PlayerRow {
    user_id: UserId,
    display_name: String,
    is_bot: bool,
}

impl From<PlayerRow> for Player {
    fn from(row: PlayerRow) -> Player {
        Player {
            id: row.user_id,
            name: row.display_name,
            is_bot: row.is_bot,
        }
    }
}

/// A row of `player_settings`.
struct SettingsRow {
    board_style: BoardStyle,
    theme: String,
    notify: Notify,
}

impl From<SettingsRow> for Settings {
    fn from(row: SettingsRow) -> Settings {
        Settings {
            board_style: row.board_style,
            theme: row.theme,
            notify: row.notify,
        }
    }
}

async fn save_player_on(
    executor: impl PgExecutor<'_>,
    player: &Player,
    now: DateTime<Utc>,
) -> Result<()> {
    sqlx::query!(
        "INSERT INTO players (user_id, display_name, is_bot, first_seen, last_seen)
         VALUES ($1, $2, $3, $4, $4)
         ON CONFLICT (user_id) DO UPDATE
         SET display_name = EXCLUDED.display_name, is_bot = EXCLUDED.is_bot, last_seen = $4",
        player.id.db(),
        &player.name,
        player.is_bot,
        now,
    )
    .execute(executor)
    .await?;
    Ok(())
}

async fn names_on(conn: &mut PgConnection, ids: &[UserId]) -> Result<HashMap<UserId, String>> {
    let db_ids: Vec<i64> = ids.iter().map(|i| i.db()).collect();
    let rows = sqlx::query!(
        r#"SELECT user_id AS "user_id: UserId", display_name FROM players
           WHERE user_id = ANY($1)"#,
        &db_ids
    )
    .fetch_all(conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| (r.user_id, r.display_name))
        .collect())
}

async fn settings_on(conn: &mut PgConnection, id: UserId) -> Result<Settings> {
    let row = sqlx::query_as!(
        SettingsRow,
        r#"SELECT board_style AS "board_style: BoardStyle", theme, notify AS "notify: Notify"
           FROM player_settings WHERE user_id = $1"#,
        id.db()
    )
    .fetch_optional(conn)
    .await
    .map_err(name_column(&["board_style", "theme", "notify"]))?;
    Ok(row.map(Settings::from).unwrap_or_default())
}

impl Tx {
    /// Records that `player` was told their direct messages are closed to the bot; `false`
    /// when they had been told already (they are told once).
    pub async fn note_dm_hint(&mut self, player: UserId, now: DateTime<Utc>) -> Result<bool> {
        let told = sqlx::query!(
            "INSERT INTO player_settings (user_id, dm_hint_sent_at) VALUES ($1, $2)
             ON CONFLICT (user_id) DO UPDATE SET dm_hint_sent_at = $2
                 WHERE player_settings.dm_hint_sent_at IS NULL",
            player.db(),
            now,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(told.rows_affected() == 1)
    }

    /// [`Store::settings`] inside the transaction.
    pub async fn settings(&mut self, id: UserId) -> Result<Settings> {
        settings_on(&mut self.tx, id).await
    }

    /// [`Store::names`] inside the transaction: a transaction holding a match lock must not
    /// wait for a second connection, or a crowd of waiting transactions starves the pool.
    pub async fn names(&mut self, ids: &[UserId]) -> Result<HashMap<UserId, String>> {
        names_on(&mut self.tx, ids).await
    }

    /// [`Store::save_player`] inside the transaction.
    pub async fn save_player(&mut self, player: &Player, now: DateTime<Utc>) -> Result<()> {
        save_player_on(&mut *self.tx, player, now).await
    }
}

impl Store {
    /// Records a player's current name, creating the player on first sight.
    pub async fn save_player(&self, player: &Player, now: DateTime<Utc>) -> Result<()> {
        save_player_on(&self.pool, player, now).await
    }

    /// A player by id.
    pub async fn player(&self, id: UserId) -> Result<Option<Player>> {
        let row = sqlx::query_as!(
            PlayerRow,
            r#"SELECT user_id AS "user_id: UserId", display_name, is_bot FROM players
               WHERE user_id = $1"#,
            id.db()
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(Player::from))
    }

    /// A player found by display name (case-insensitive), for the offline console.
    pub async fn player_named(&self, name: &str) -> Result<Option<Player>> {
        let row = sqlx::query_as!(
            PlayerRow,
            r#"SELECT user_id AS "user_id: UserId", display_name, is_bot FROM players
               WHERE lower(display_name) = lower($1) ORDER BY user_id LIMIT 1"#,
            name
        )
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(Player::from))
    }

    /// The player's display name, or their id when the bot has never seen them.
    pub async fn name_of(&self, id: UserId) -> Result<String> {
        Ok(self
            .player(id)
            .await?
            .map(|p| p.name)
            .unwrap_or_else(|| format!("player {id}")))
    }

    /// Display names of several players; ids the bot has never seen are left out.
    pub async fn names(&self, ids: &[UserId]) -> Result<HashMap<UserId, String>> {
        let mut conn = self.pool.acquire().await?;
        names_on(&mut conn, ids).await
    }

    /// A player's settings (the defaults until they change them).
    pub async fn settings(&self, id: UserId) -> Result<Settings> {
        let mut conn = self.pool.acquire().await?;
        settings_on(&mut conn, id).await
    }

    /// Saves a player's settings; the player must have been saved before.
    pub async fn save_settings(&self, id: UserId, settings: &Settings) -> Result<()> {
        sqlx::query!(
            "INSERT INTO player_settings (user_id, board_style, theme, notify)
             VALUES ($1, $2, $3, $4)
             ON CONFLICT (user_id) DO UPDATE SET board_style = $2, theme = $3, notify = $4",
            id.db(),
            settings.board_style as _,
            &settings.theme,
            settings.notify as _,
        )
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

//! Players and their settings.

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::error::Result;
use super::ids::UserId;
use super::Store;

/// A Discord user as the bot last saw them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Player {
    pub id: UserId,
    pub name: String,
    pub is_bot: bool,
}

/// How a player likes to see the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
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

/// A player's settings. The theme is kept by name; the renderer knows the names.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Settings {
    pub board_style: BoardStyle,
    pub theme: String,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            board_style: BoardStyle::Full,
            theme: "default".to_string(),
        }
    }
}

impl Store {
    /// Records a player's current name, creating the player on first sight.
    pub async fn save_player(&self, player: &Player, now: DateTime<Utc>) -> Result<()> {
        sqlx::query(
            "INSERT INTO players (user_id, display_name, is_bot, first_seen, last_seen)
             VALUES ($1, $2, $3, $4, $4)
             ON CONFLICT (user_id) DO UPDATE
             SET display_name = EXCLUDED.display_name, is_bot = EXCLUDED.is_bot, last_seen = $4",
        )
        .bind(player.id.db())
        .bind(&player.name)
        .bind(player.is_bot)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// A player by id.
    pub async fn player(&self, id: UserId) -> Result<Option<Player>> {
        let row = sqlx::query("SELECT user_id, display_name, is_bot FROM players WHERE user_id = $1")
            .bind(id.db())
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|r| Player {
            id: UserId::from_db(r.get("user_id")),
            name: r.get("display_name"),
            is_bot: r.get("is_bot"),
        }))
    }

    /// A player found by display name (case-insensitive), for the offline console.
    pub async fn player_named(&self, name: &str) -> Result<Option<Player>> {
        let row = sqlx::query(
            "SELECT user_id, display_name, is_bot FROM players
             WHERE lower(display_name) = lower($1) ORDER BY user_id LIMIT 1",
        )
        .bind(name)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| Player {
            id: UserId::from_db(r.get("user_id")),
            name: r.get("display_name"),
            is_bot: r.get("is_bot"),
        }))
    }

    /// The player's display name, or their id when the bot has never seen them.
    pub async fn name_of(&self, id: UserId) -> Result<String> {
        Ok(self
            .player(id)
            .await?
            .map(|p| p.name)
            .unwrap_or_else(|| format!("player {id}")))
    }

    /// A player's settings (the defaults until they change them).
    pub async fn settings(&self, id: UserId) -> Result<Settings> {
        let row = sqlx::query("SELECT board_style, theme FROM player_settings WHERE user_id = $1")
            .bind(id.db())
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(r) => Settings {
                board_style: BoardStyle::from_name(r.get("board_style")).unwrap_or_default(),
                theme: r.get("theme"),
            },
            None => Settings::default(),
        })
    }

    /// Saves a player's settings; the player must have been saved before.
    pub async fn save_settings(&self, id: UserId, settings: &Settings) -> Result<()> {
        sqlx::query(
            "INSERT INTO player_settings (user_id, board_style, theme) VALUES ($1, $2, $3)
             ON CONFLICT (user_id) DO UPDATE SET board_style = $2, theme = $3",
        )
        .bind(id.db())
        .bind(settings.board_style.name())
        .bind(&settings.theme)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}

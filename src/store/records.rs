//! Records of a player: against the computer by level, and against another player.

use super::error::{Result, StoreError};
use super::ids::UserId;
use super::Store;

/// A player's results against one level of the computer. (It still reads by name as a
/// `sqlx::FromRow`; the store reads it through [`LevelRow`].)
#[derive(Clone, Copy, PartialEq, Eq, Debug, sqlx::FromRow)]
pub struct LevelRecord {
    #[sqlx(rename = "computer_level", try_from = "i16")]
    pub level: u8,
    pub matches: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
}

/// Two players' finished matches against each other, from the first one's side.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, sqlx::FromRow)]
pub struct HeadToHead {
    pub matches: i64,
    pub wins: i64,
    pub draws: i64,
    pub losses: i64,
    /// Match points won and conceded, in halves.
    pub points_for: i64,
    pub points_against: i64,
}

/// A row of [`Store::record_against_computer`]; the level is checked as it is read.
struct LevelRow {
    computer_level: Option<i16>,
    matches: i64,
    wins: i64,
    draws: i64,
    losses: i64,
}

impl TryFrom<LevelRow> for LevelRecord {
    type Error = StoreError;

    fn try_from(row: LevelRow) -> Result<LevelRecord> {
        let level = row
            .computer_level
            .and_then(|l| u8::try_from(l).ok())
            .ok_or_else(|| StoreError::Corrupt(format!("level {:?}", row.computer_level)))?;
        Ok(LevelRecord {
            level,
            matches: row.matches,
            wins: row.wins,
            draws: row.draws,
            losses: row.losses,
        })
    }
}

impl Store {
    /// `player`'s finished matches against the computer, by level (aborted ones left out).
    pub async fn record_against_computer(&self, player: UserId) -> Result<Vec<LevelRecord>> {
        let rows = sqlx::query_as!(
            LevelRow,
            r#"SELECT computer_level,
                      count(*) AS "matches!",
                      count(*) FILTER (WHERE winner_id = $1) AS "wins!",
                      count(*) FILTER (WHERE winner_id IS NULL) AS "draws!",
                      count(*) FILTER (WHERE winner_id = computer_id) AS "losses!"
               FROM matches
               WHERE computer_id IS NOT NULL AND state = 'finished'
                 AND (first_player_id = $1 OR second_player_id = $1)
               GROUP BY computer_level ORDER BY computer_level"#,
            player.db()
        )
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(LevelRecord::try_from).collect()
    }

    /// The computer's finished matches (`computer` is its player id), by level, counted from
    /// its side (aborted ones left out).
    pub async fn computer_record(&self, computer: UserId) -> Result<Vec<LevelRecord>> {
        let rows = sqlx::query_as!(
            LevelRow,
            r#"SELECT computer_level,
                      count(*) AS "matches!",
                      count(*) FILTER (WHERE winner_id = $1) AS "wins!",
                      count(*) FILTER (WHERE winner_id IS NULL) AS "draws!",
                      count(*) FILTER (WHERE winner_id <> $1) AS "losses!"
               FROM matches
               WHERE computer_id = $1 AND state = 'finished'
               GROUP BY computer_level ORDER BY computer_level"#,
            computer.db()
        )
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter().map(LevelRecord::try_from).collect()
    }

    /// `player`'s finished matches against `other` (aborted ones left out), rated or not.
    pub async fn head_to_head(&self, player: UserId, other: UserId) -> Result<HeadToHead> {
        Ok(sqlx::query_as!(
            HeadToHead,
            r#"SELECT count(*) AS "matches!",
                      count(*) FILTER (WHERE winner_id = $1) AS "wins!",
                      count(*) FILTER (WHERE winner_id IS NULL) AS "draws!",
                      count(*) FILTER (WHERE winner_id = $2) AS "losses!",
                      coalesce(sum(CASE WHEN first_player_id = $1 THEN first_points
                                        ELSE second_points END), 0)::BIGINT AS "points_for!",
                      coalesce(sum(CASE WHEN first_player_id = $1 THEN second_points
                                        ELSE first_points END), 0)::BIGINT AS "points_against!"
               FROM matches
               WHERE state = 'finished'
                 AND ((first_player_id = $1 AND second_player_id = $2)
                   OR (first_player_id = $2 AND second_player_id = $1))"#,
            player.db(),
            other.db(),
        )
        .fetch_one(&self.pool)
        .await?)
    }
}

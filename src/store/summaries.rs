//! Lines of a player's list of matches: what `/thud games`, `history` and `stats` show, read
//! without replaying the games.

use chrono::{DateTime, Utc};
use sqlx::postgres::PgRow;
use sqlx::Row;

use super::clocks::TurnClock;
use super::error::Result;
use super::ids::{ChannelId, GuildId, MatchId, UserId};
use super::matches::{variant_of, Finish, MatchState};
use super::Store;
use crate::game::{Points, Variant};

/// One line of a player's list of matches.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MatchSummary {
    pub id: MatchId,
    pub guild: GuildId,
    pub channel: ChannelId,
    pub players: [UserId; 2],
    pub variant: Variant,
    pub state: MatchState,
    pub finish: Option<Finish>,
    pub winner: Option<UserId>,
    /// Match points in seat order, once finished.
    pub points: Option<[Points; 2]>,
    pub rated: bool,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// While active: who is to move and by when.
    pub clock: Option<TurnClock>,
    /// Why the bot cannot reach the match's channel, if it cannot.
    pub trouble: Option<String>,
    /// The computer's level, when it is one of the players.
    pub computer_level: Option<u8>,
}

fn summary(row: &PgRow) -> Result<MatchSummary> {
    let first: Option<i32> = row.get("first_points");
    let second: Option<i32> = row.get("second_points");
    let clock = row
        .try_get::<Option<i64>, _>("clock_player")?
        .map(|player| TurnClock {
            player: UserId::from_db(player),
            turn_started_at: row.get("turn_started_at"),
            deadline: row.get("deadline"),
            remind_at: row.get("remind_at"),
            reminder_sent_at: row.get("reminder_sent_at"),
            paused_at: row.get("paused_at"),
            vacation_since: row.get("vacation_since"),
        });
    Ok(MatchSummary {
        id: MatchId::from_db(row.get("id")),
        guild: GuildId::from_db(row.get("guild_id")),
        channel: ChannelId::from_db(row.get("channel_id")),
        players: [
            UserId::from_db(row.get("first_player_id")),
            UserId::from_db(row.get("second_player_id")),
        ],
        variant: variant_of(row)?,
        state: MatchState::from_name(row.get("state"))?,
        finish: row
            .get::<Option<String>, _>("finish")
            .map(|f| Finish::from_name(&f))
            .transpose()?,
        winner: row.get::<Option<i64>, _>("winner_id").map(UserId::from_db),
        points: first
            .zip(second)
            .map(|(a, b)| [Points::from_halves(a as u32), Points::from_halves(b as u32)]),
        rated: row.get("rated"),
        created_at: row.get("created_at"),
        finished_at: row.get("finished_at"),
        clock,
        trouble: row.get("trouble"),
        computer_level: row
            .try_get::<Option<i16>, _>("computer_level")?
            .map(|l| l as u8),
    })
}

const SUMMARY_QUERY: &str = "SELECT m.id, m.guild_id, m.channel_id, m.first_player_id, \
     m.second_player_id, m.variant, m.state, m.finish, m.winner_id, m.first_points, \
     m.second_points, m.rated, m.created_at, m.finished_at, c.player_id AS clock_player, \
     c.turn_started_at, c.deadline, c.remind_at, c.reminder_sent_at, c.paused_at, \
     c.vacation_since, m.trouble, \
     m.computer_level \
     FROM matches m LEFT JOIN clocks c ON c.match_id = m.id";

impl Store {
    /// The matches `user` is playing, in a guild or everywhere, oldest deadline first.
    pub async fn active_matches_of(
        &self,
        user: UserId,
        guild: Option<GuildId>,
    ) -> Result<Vec<MatchSummary>> {
        let rows = sqlx::query(&format!(
            "{SUMMARY_QUERY}
             WHERE m.state = 'active' AND (m.first_player_id = $1 OR m.second_player_id = $1)
               AND ($2::BIGINT IS NULL OR m.guild_id = $2)
             ORDER BY c.deadline NULLS LAST, m.id"
        ))
        .bind(user.db())
        .bind(guild.map(GuildId::db))
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(summary).collect()
    }

    /// The matches in play of `user`, anywhere, whose channel the bot cannot reach.
    pub async fn troubled_matches_of(&self, user: UserId) -> Result<Vec<MatchSummary>> {
        let rows = sqlx::query(&format!(
            "{SUMMARY_QUERY}
             WHERE m.state = 'active' AND m.trouble IS NOT NULL
               AND (m.first_player_id = $1 OR m.second_player_id = $1)
             ORDER BY m.id"
        ))
        .bind(user.db())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(summary).collect()
    }

    /// The `limit` most recent finished or aborted matches of `user`, newest first.
    pub async fn finished_matches_of(
        &self,
        user: UserId,
        guild: Option<GuildId>,
        limit: i64,
    ) -> Result<Vec<MatchSummary>> {
        let rows = sqlx::query(&format!(
            "{SUMMARY_QUERY}
             WHERE m.state <> 'active' AND (m.first_player_id = $1 OR m.second_player_id = $1)
               AND ($2::BIGINT IS NULL OR m.guild_id = $2)
             ORDER BY m.finished_at DESC NULLS LAST, m.id DESC LIMIT $3"
        ))
        .bind(user.db())
        .bind(guild.map(GuildId::db))
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(summary).collect()
    }
}

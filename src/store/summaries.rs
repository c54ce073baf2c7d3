//! Lines of a player's list of matches: what `/thud games`, `history` and `stats` show, read
//! without replaying the games.

use super::clocks::TurnClock;
use super::error::{name_column, Result, StoreError};
use super::ids::{ChannelId, GuildId, MatchId, UserId};
use super::match_rows::{select_matches, MatchRow, MATCH_COLUMNS};
use super::match_rows::{Finish, MatchState};
use super::Store;
use crate::game::{Points, Variant};
use chrono::{DateTime, Utc};

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

/// A match and the clock of its turn in play (all `NULL` when it has none): the columns of
/// [`select_matches!`], then those of the clock.
struct SummaryRow {
    id: MatchId,
    guild_id: GuildId,
    channel_id: ChannelId,
    first_player_id: UserId,
    second_player_id: UserId,
    variant: String,
    days_per_move: i32,
    state: MatchState,
    finish: Option<Finish>,
    winner_id: Option<UserId>,
    rated: bool,
    created_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
    first_points: Option<i32>,
    second_points: Option<i32>,
    trouble: Option<String>,
    computer_id: Option<UserId>,
    computer_level: Option<i16>,
    clock_player: Option<UserId>,
    turn_started_at: Option<DateTime<Utc>>,
    deadline: Option<DateTime<Utc>>,
    remind_at: Option<DateTime<Utc>>,
    reminder_sent_at: Option<DateTime<Utc>>,
    paused_at: Option<DateTime<Utc>>,
    vacation_since: Option<DateTime<Utc>>,
}

impl SummaryRow {
    fn into_summary(self) -> Result<MatchSummary> {
        let m = MatchRow {
            id: self.id,
            guild_id: self.guild_id,
            channel_id: self.channel_id,
            first_player_id: self.first_player_id,
            second_player_id: self.second_player_id,
            variant: self.variant,
            days_per_move: self.days_per_move,
            state: self.state,
            finish: self.finish,
            winner_id: self.winner_id,
            rated: self.rated,
            created_at: self.created_at,
            finished_at: self.finished_at,
            first_points: self.first_points,
            second_points: self.second_points,
            trouble: self.trouble,
            computer_id: self.computer_id,
            computer_level: self.computer_level,
        };
        let id = m.id;
        // A column the clocks table never leaves empty, empty in a joined clock.
        let set = |t: Option<DateTime<Utc>>, column: &str| {
            t.ok_or_else(|| StoreError::Corrupt(format!("match {id}: clock without {column}")))
        };
        let clock = match self.clock_player {
            Some(player) => Some(TurnClock {
                player,
                turn_started_at: set(self.turn_started_at, "turn_started_at")?,
                deadline: set(self.deadline, "deadline")?,
                remind_at: set(self.remind_at, "remind_at")?,
                reminder_sent_at: self.reminder_sent_at,
                paused_at: self.paused_at,
                vacation_since: self.vacation_since,
            }),
            None => None,
        };
        let halves = |p: i32| {
            u32::try_from(p)
                .map(Points::from_halves)
                .map_err(|_| StoreError::Corrupt(format!("match {id}: points {p}")))
        };
        let points = match (m.first_points, m.second_points) {
            (Some(a), Some(b)) => Some([halves(a)?, halves(b)?]),
            _ => None,
        };
        Ok(MatchSummary {
            id,
            guild: m.guild_id,
            channel: m.channel_id,
            players: m.players(),
            variant: m.variant()?,
            state: m.state,
            finish: m.finish,
            winner: m.winner_id,
            points,
            rated: m.rated,
            created_at: m.created_at,
            finished_at: m.finished_at,
            clock,
            computer_level: m.computer_level()?,
            trouble: m.trouble,
        })
    }
}

/// [`select_matches!`] with each match's clock (absent for a finished match), read into
/// [`SummaryRow`]; `$rest` follows the join (`WHERE …`).
macro_rules! select_summaries {
    ($($rest:tt)+) => {
        select_matches!(
            SummaryRow,
            r#", c.player_id AS "clock_player?: UserId", c.turn_started_at AS "turn_started_at?",
                c.deadline AS "deadline?", c.remind_at AS "remind_at?", c.reminder_sent_at,
                c.paused_at, c.vacation_since
             FROM matches m LEFT JOIN clocks c ON c.match_id = m.id "#
                + $($rest)+
        )
    };
}

impl Store {
    /// The matches `user` is playing, in a guild or everywhere, oldest deadline first.
    pub async fn active_matches_of(
        &self,
        user: UserId,
        guild: Option<GuildId>,
    ) -> Result<Vec<MatchSummary>> {
        let rows = select_summaries!(
            r#"WHERE m.state = 'active' AND (m.first_player_id = $1 OR m.second_player_id = $1)
               AND ($2::BIGINT IS NULL OR m.guild_id = $2)
             ORDER BY c.deadline NULLS LAST, m.id"#,
            user.db(),
            guild.map(GuildId::db),
        )
        .fetch_all(&self.pool)
        .await
        .map_err(name_column(MATCH_COLUMNS))?;
        rows.into_iter().map(SummaryRow::into_summary).collect()
    }

    /// The matches in play of `user`, anywhere, whose channel the bot cannot reach.
    pub async fn troubled_matches_of(&self, user: UserId) -> Result<Vec<MatchSummary>> {
        let rows = select_summaries!(
            r#"WHERE m.state = 'active' AND m.trouble IS NOT NULL
               AND (m.first_player_id = $1 OR m.second_player_id = $1)
             ORDER BY m.id"#,
            user.db(),
        )
        .fetch_all(&self.pool)
        .await
        .map_err(name_column(MATCH_COLUMNS))?;
        rows.into_iter().map(SummaryRow::into_summary).collect()
    }

    /// The `limit` most recent finished or aborted matches of `user`, newest first.
    pub async fn finished_matches_of(
        &self,
        user: UserId,
        guild: Option<GuildId>,
        limit: i64,
    ) -> Result<Vec<MatchSummary>> {
        let rows = select_summaries!(
            r#"WHERE m.state <> 'active' AND (m.first_player_id = $1 OR m.second_player_id = $1)
               AND ($2::BIGINT IS NULL OR m.guild_id = $2)
             ORDER BY m.finished_at DESC NULLS LAST, m.id DESC LIMIT $3"#,
            user.db(),
            guild.map(GuildId::db),
            limit,
        )
        .fetch_all(&self.pool)
        .await
        .map_err(name_column(MATCH_COLUMNS))?;
        rows.into_iter().map(SummaryRow::into_summary).collect()
    }
}

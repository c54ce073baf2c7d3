//! The row of a match, read the same way by the match loads and the match summaries.

use chrono::{DateTime, Utc};

use super::error::{Result, StoreError};
use super::ids::{ChannelId, GuildId, MatchId, UserId};
use crate::game::Variant;

/// Where a match stands. Stored by its name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
pub enum MatchState {
    Active,
    Finished,
    Aborted,
}

/// How a match came to an end. Stored by its name.
#[derive(Clone, Copy, PartialEq, Eq, Debug, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
pub enum Finish {
    /// Both battles were played.
    Completed,
    /// A player resigned.
    Resigned,
    /// A player ran out of time and the match was claimed or forfeited by the clock.
    Timeout,
    /// A moderator stopped it; it is unrated.
    Aborted,
}

/// The computer's place in a match: its player and the level it plays at.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ComputerSeat {
    pub player: UserId,
    /// 1 (weakest) to 5.
    pub level: u8,
}

/// `sqlx::query_as!` over the columns of `matches m` that [`MatchRow`] holds, in the order of
/// [`MATCH_COLUMNS`]; `$rest` follows them (more columns, then `FROM matches m ...`) and `$out`
/// is [`MatchRow`] or a row with its fields and those of the extra columns. The match
/// summaries read it too.
macro_rules! select_matches {
    // `$rest`: the rest of the query (string literals joined by `+`), then its arguments.
    ($out:ident, $($rest:tt)+) => {
        sqlx::query_as!(
            $out,
            r#"SELECT m.id AS "id: crate::store::MatchId",
                      m.guild_id AS "guild_id: crate::store::GuildId",
                      m.channel_id AS "channel_id: crate::store::ChannelId",
                      m.first_player_id AS "first_player_id: crate::store::UserId",
                      m.second_player_id AS "second_player_id: crate::store::UserId",
                      m.variant, m.days_per_move, m.state AS "state: crate::store::MatchState",
                      m.finish AS "finish: crate::store::Finish",
                      m.winner_id AS "winner_id: crate::store::UserId", m.rated, m.created_at,
                      m.finished_at, m.first_points, m.second_points, m.trouble,
                      m.computer_id AS "computer_id: crate::store::UserId", m.computer_level"#
                + $($rest)+
        )
    };
}
pub(super) use select_matches;

/// The columns [`select_matches!`] reads, by position, to name one that does not decode.
pub(super) const MATCH_COLUMNS: &[&str] = &[
    "id",
    "guild_id",
    "channel_id",
    "first_player_id",
    "second_player_id",
    "variant",
    "days_per_move",
    "state",
    "finish",
    "winner_id",
    "rated",
    "created_at",
    "finished_at",
    "first_points",
    "second_points",
    "trouble",
    "computer_id",
    "computer_level",
];

/// A row of `matches` ([`select_matches!`]); the match summaries read it too.
pub(super) struct MatchRow {
    pub id: MatchId,
    pub guild_id: GuildId,
    pub channel_id: ChannelId,
    pub first_player_id: UserId,
    pub second_player_id: UserId,
    /// The variant is the game's type, read by its name ([`MatchRow::variant`]).
    pub variant: String,
    pub days_per_move: i32,
    pub state: MatchState,
    pub finish: Option<Finish>,
    pub winner_id: Option<UserId>,
    pub rated: bool,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// Match points in halves, once finished.
    pub first_points: Option<i32>,
    pub second_points: Option<i32>,
    pub trouble: Option<String>,
    pub computer_id: Option<UserId>,
    pub computer_level: Option<i16>,
}

impl MatchRow {
    pub(super) fn players(&self) -> [UserId; 2] {
        [self.first_player_id, self.second_player_id]
    }

    /// The variant, from its name.
    pub(super) fn variant(&self) -> Result<Variant> {
        self.variant
            .parse()
            .map_err(|e| StoreError::Corrupt(format!("match {}: variant: {e}", self.id)))
    }

    /// The days a player has for each move.
    pub(super) fn days_per_move(&self) -> Result<u32> {
        u32::try_from(self.days_per_move).map_err(|_| {
            StoreError::Corrupt(format!(
                "match {}: days_per_move {}",
                self.id, self.days_per_move
            ))
        })
    }

    /// The computer's level, when it plays in this match.
    pub(super) fn computer_level(&self) -> Result<Option<u8>> {
        self.computer_level
            .map(|l| {
                u8::try_from(l)
                    .map_err(|_| StoreError::Corrupt(format!("match {}: level {l}", self.id)))
            })
            .transpose()
    }

    /// The computer's seat, when it plays in this match.
    pub(super) fn computer(&self) -> Result<Option<ComputerSeat>> {
        Ok(self
            .computer_id
            .zip(self.computer_level()?)
            .map(|(player, level)| ComputerSeat { player, level }))
    }
}

//! What moves a tournament round's deadline: when the round was paired, and the vacations
//! its players took since.

use chrono::{DateTime, Utc};

use super::error::Result;
use super::ids::UserId;
use super::ids::{ChannelId, MatchId};
use super::tournaments::{GameOutcome, GameRow, TournamentGame, TournamentId};
use super::Tx;

/// A player's time away, clipped to nothing: `ended` is `None` while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeAway {
    pub player: UserId,
    pub started: DateTime<Utc>,
    pub ended: Option<DateTime<Utc>>,
}

impl super::Store {
    /// The tournament whose game was last played in `channel` (a game's own thread), so the
    /// tournament's commands work there too.
    pub async fn tournament_of_game_in(&self, channel: ChannelId) -> Result<Option<TournamentId>> {
        Ok(sqlx::query_scalar!(
            r#"SELECT tg.tournament_id AS "id: TournamentId" FROM tournament_games tg
               JOIN matches m ON m.id = tg.match_id
               WHERE m.channel_id = $1 ORDER BY m.id DESC LIMIT 1"#,
            channel.db()
        )
        .fetch_optional(&self.pool)
        .await?)
    }
}

impl Tx {
    /// The undecided tournament game that match `id` is played for, if any.
    pub async fn open_game_of_match(&mut self, id: MatchId) -> Result<Option<TournamentGame>> {
        sqlx::query_as!(
            GameRow,
            r#"SELECT id, round, first_seed, second_seed, match_id,
                      outcome AS "outcome: GameOutcome", margin
               FROM tournament_games WHERE match_id = $1 AND outcome IS NULL"#,
            id.db()
        )
        .fetch_optional(&mut *self.tx)
        .await?
        .map(GameRow::game)
        .transpose()
    }

    /// When the round in play of tournament `id` was paired.
    pub async fn round_paired_at(&mut self, id: TournamentId) -> Result<Option<DateTime<Utc>>> {
        Ok(sqlx::query_scalar!(
            "SELECT round_paired_at FROM tournaments WHERE id = $1",
            id.0
        )
        .fetch_optional(&mut *self.tx)
        .await?
        .flatten())
    }

    /// Sets the deadline of the round in play of tournament `id` (lock it first).
    pub async fn move_round_deadline(&mut self, id: TournamentId, to: DateTime<Utc>) -> Result<()> {
        sqlx::query!(
            "UPDATE tournaments SET round_deadline = $2 WHERE id = $1",
            id.0,
            to
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// The vacations of `players` that overlap the time from `from` to `to`, ended or not.
    pub async fn time_away(
        &mut self,
        players: &[UserId],
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    ) -> Result<Vec<TimeAway>> {
        let ids: Vec<i64> = players.iter().map(|p| p.db()).collect();
        let rows = sqlx::query!(
            r#"SELECT player_id AS "player: UserId", started_at, ended_at FROM vacations
               WHERE player_id = ANY($1) AND started_at < $3 AND coalesce(ended_at, $3) > $2
               ORDER BY started_at"#,
            &ids,
            from,
            to,
        )
        .fetch_all(&mut *self.tx)
        .await?;
        Ok(rows
            .into_iter()
            .map(|r| TimeAway {
                player: r.player,
                started: r.started_at,
                ended: r.ended_at,
            })
            .collect())
    }
}

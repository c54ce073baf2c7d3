//! Ratings and records per ladder (a guild, or global).

use super::error::{Result, StoreError};
use super::ids::{Scope, UserId};
use super::{Store, Tx};
use crate::game::Points;
use chrono::{DateTime, Utc};

/// A player's standing on one ladder.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Rating {
    pub player: UserId,
    /// Glicko-2 rating, deviation and volatility.
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub points_for: Points,
    pub points_against: Points,
}

/// A leaderboard line: a rating and the player's name.
#[derive(Clone, PartialEq, Debug)]
pub struct Standing {
    pub rank: u32,
    pub name: String,
    pub rating: Rating,
}

/// A row of `ratings`. A negative count is damage, not a number.
struct RatingRow {
    player_id: UserId,
    rating: f64,
    deviation: f64,
    volatility: f64,
    games: i32,
    wins: i32,
    draws: i32,
    losses: i32,
    points_for: i32,
    points_against: i32,
}

impl TryFrom<RatingRow> for Rating {
    type Error = StoreError;

    fn try_from(row: RatingRow) -> Result<Rating> {
        let count = |n: i32, column: &str| {
            u32::try_from(n).map_err(|_| {
                StoreError::Corrupt(format!("rating of {}: {column} {n}", row.player_id))
            })
        };
        Ok(Rating {
            player: row.player_id,
            rating: row.rating,
            deviation: row.deviation,
            volatility: row.volatility,
            games: count(row.games, "games")?,
            wins: count(row.wins, "wins")?,
            draws: count(row.draws, "draws")?,
            losses: count(row.losses, "losses")?,
            points_for: Points::from_halves(count(row.points_for, "points_for")?),
            points_against: Points::from_halves(count(row.points_against, "points_against")?),
        })
    }
}

/// Builds a [`RatingRow`] from a `query!` record holding its columns.
macro_rules! rating_row {
    ($r:expr) => {
        RatingRow {
            player_id: $r.player_id,
            rating: $r.rating,
            deviation: $r.deviation,
            volatility: $r.volatility,
            games: $r.games,
            wins: $r.wins,
            draws: $r.draws,
            losses: $r.losses,
            points_for: $r.points_for,
            points_against: $r.points_against,
        }
    };
}

impl Store {
    /// One page of a ladder, best first, and how many players it holds.
    pub async fn leaderboard(
        &self,
        scope: Scope,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<Standing>, i64)> {
        let rows = sqlx::query!(
            r#"SELECT r.player_id AS "player_id: UserId", r.rating, r.deviation, r.volatility,
                      r.games, r.wins, r.draws, r.losses, r.points_for, r.points_against,
                      p.display_name
               FROM ratings r JOIN players p ON p.user_id = r.player_id
               WHERE r.scope = $1 ORDER BY r.rating DESC, r.games DESC, r.player_id
               OFFSET $2 LIMIT $3"#,
            scope.db(),
            offset,
            limit,
        )
        .fetch_all(&self.pool)
        .await?;
        let total = sqlx::query_scalar!(
            r#"SELECT count(*) AS "count!" FROM ratings WHERE scope = $1"#,
            scope.db()
        )
        .fetch_one(&self.pool)
        .await?;
        let standings = rows
            .into_iter()
            .enumerate()
            .map(|(i, r)| {
                Ok(Standing {
                    rank: (offset as u32) + i as u32 + 1,
                    rating: rating_row!(r).try_into()?,
                    name: r.display_name,
                })
            })
            .collect::<Result<_>>()?;
        Ok((standings, total))
    }

    /// A player's standing on a ladder and their rank there.
    pub async fn standing(&self, scope: Scope, player: UserId) -> Result<Option<(Rating, i64)>> {
        let row = sqlx::query!(
            r#"SELECT player_id AS "player_id: UserId", rating, deviation, volatility, games,
                      wins, draws, losses, points_for, points_against,
                      (SELECT count(*) FROM ratings o
                       WHERE o.scope = r.scope AND o.rating > r.rating) + 1 AS "rank!"
               FROM ratings r WHERE scope = $1 AND player_id = $2"#,
            scope.db(),
            player.db(),
        )
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok((rating_row!(r).try_into()?, r.rank)))
            .transpose()
    }
}

impl Tx {
    /// A player's rating on a ladder, locked for update; `None` before their first match.
    pub async fn rating_for_update(
        &mut self,
        scope: Scope,
        player: UserId,
    ) -> Result<Option<Rating>> {
        let row = sqlx::query_as!(
            RatingRow,
            r#"SELECT player_id AS "player_id: UserId", rating, deviation, volatility, games,
                      wins, draws, losses, points_for, points_against
               FROM ratings WHERE scope = $1 AND player_id = $2 FOR UPDATE"#,
            scope.db(),
            player.db(),
        )
        .fetch_optional(&mut *self.tx)
        .await?;
        row.map(Rating::try_from).transpose()
    }

    /// Saves a player's rating on a ladder.
    pub async fn save_rating(&mut self, scope: Scope, r: &Rating, at: DateTime<Utc>) -> Result<()> {
        sqlx::query!(
            "INSERT INTO ratings (scope, player_id, rating, deviation, volatility, games, wins,
                                  draws, losses, points_for, points_against, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (scope, player_id) DO UPDATE SET rating = $3, deviation = $4,
                 volatility = $5, games = $6, wins = $7, draws = $8, losses = $9,
                 points_for = $10, points_against = $11, updated_at = $12",
            scope.db(),
            r.player.db(),
            r.rating,
            r.deviation,
            r.volatility,
            r.games as i32,
            r.wins as i32,
            r.draws as i32,
            r.losses as i32,
            r.points_for.halves() as i32,
            r.points_against.halves() as i32,
            at,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }
}

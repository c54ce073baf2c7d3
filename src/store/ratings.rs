//! Ratings and records per ladder (a guild, or global).

use super::error::Result;
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

/// A row of `ratings` ([`COLUMNS`], read by name). A negative count is damage, not a number.
#[derive(sqlx::FromRow)]
struct RatingRow {
    player_id: UserId,
    rating: f64,
    deviation: f64,
    volatility: f64,
    #[sqlx(try_from = "i32")]
    games: u32,
    #[sqlx(try_from = "i32")]
    wins: u32,
    #[sqlx(try_from = "i32")]
    draws: u32,
    #[sqlx(try_from = "i32")]
    losses: u32,
    #[sqlx(try_from = "i32")]
    points_for: u32,
    #[sqlx(try_from = "i32")]
    points_against: u32,
}

impl From<RatingRow> for Rating {
    fn from(row: RatingRow) -> Rating {
        Rating {
            player: row.player_id,
            rating: row.rating,
            deviation: row.deviation,
            volatility: row.volatility,
            games: row.games,
            wins: row.wins,
            draws: row.draws,
            losses: row.losses,
            points_for: Points::from_halves(row.points_for),
            points_against: Points::from_halves(row.points_against),
        }
    }
}

/// A leaderboard line's row: a rating and its player's name.
#[derive(sqlx::FromRow)]
struct StandingRow {
    #[sqlx(flatten)]
    rating: RatingRow,
    display_name: String,
}

/// A player's rating and their rank on the ladder.
#[derive(sqlx::FromRow)]
struct RankedRow {
    #[sqlx(flatten)]
    rating: RatingRow,
    rank: i64,
}

const COLUMNS: &str = "player_id, rating, deviation, volatility, games, wins, draws, losses, \
                       points_for, points_against";

impl Store {
    /// One page of a ladder, best first, and how many players it holds.
    pub async fn leaderboard(
        &self,
        scope: Scope,
        offset: i64,
        limit: i64,
    ) -> Result<(Vec<Standing>, i64)> {
        let rows = sqlx::query_as::<_, StandingRow>(&format!(
            "SELECT r.{}, p.display_name FROM ratings r JOIN players p ON p.user_id = r.player_id
             WHERE r.scope = $1 ORDER BY r.rating DESC, r.games DESC, r.player_id
             OFFSET $2 LIMIT $3",
            COLUMNS.replace(", ", ", r.")
        ))
        .bind(scope.db())
        .bind(offset)
        .bind(limit)
        .fetch_all(&self.pool)
        .await?;
        let total: i64 = sqlx::query_scalar("SELECT count(*) FROM ratings WHERE scope = $1")
            .bind(scope.db())
            .fetch_one(&self.pool)
            .await?;
        let standings = rows
            .into_iter()
            .enumerate()
            .map(|(i, r)| Standing {
                rank: (offset as u32) + i as u32 + 1,
                name: r.display_name,
                rating: r.rating.into(),
            })
            .collect();
        Ok((standings, total))
    }

    /// A player's standing on a ladder and their rank there.
    pub async fn standing(&self, scope: Scope, player: UserId) -> Result<Option<(Rating, i64)>> {
        let row = sqlx::query_as::<_, RankedRow>(&format!(
            "SELECT {COLUMNS}, (SELECT count(*) FROM ratings o
                                WHERE o.scope = r.scope AND o.rating > r.rating) + 1 AS rank
             FROM ratings r WHERE scope = $1 AND player_id = $2"
        ))
        .bind(scope.db())
        .bind(player.db())
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|r| (r.rating.into(), r.rank)))
    }
}

impl Tx {
    /// A player's rating on a ladder, locked for update; `None` before their first match.
    pub async fn rating_for_update(
        &mut self,
        scope: Scope,
        player: UserId,
    ) -> Result<Option<Rating>> {
        let row = sqlx::query_as::<_, RatingRow>(&format!(
            "SELECT {COLUMNS} FROM ratings WHERE scope = $1 AND player_id = $2 FOR UPDATE"
        ))
        .bind(scope.db())
        .bind(player.db())
        .fetch_optional(&mut *self.tx)
        .await?;
        Ok(row.map(Rating::from))
    }

    /// Saves a player's rating on a ladder.
    pub async fn save_rating(&mut self, scope: Scope, r: &Rating, at: DateTime<Utc>) -> Result<()> {
        sqlx::query(
            "INSERT INTO ratings (scope, player_id, rating, deviation, volatility, games, wins,
                                  draws, losses, points_for, points_against, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (scope, player_id) DO UPDATE SET rating = $3, deviation = $4,
                 volatility = $5, games = $6, wins = $7, draws = $8, losses = $9,
                 points_for = $10, points_against = $11, updated_at = $12",
        )
        .bind(scope.db())
        .bind(r.player.db())
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(r.games as i32)
        .bind(r.wins as i32)
        .bind(r.draws as i32)
        .bind(r.losses as i32)
        .bind(r.points_for.halves() as i32)
        .bind(r.points_against.halves() as i32)
        .bind(at)
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }
}

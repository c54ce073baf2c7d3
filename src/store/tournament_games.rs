//! What changes a tournament game outside its round's course: a result an organiser corrects,
//! a player taken back after withdrawing, a game claimed for seating and one whose thread could
//! not be opened.

use chrono::{DateTime, Utc};

use super::error::Result;
use super::ids::UserId;
use super::tournaments::{GameOutcome, TournamentId};
use super::Tx;

impl super::Store {
    /// Games of running tournaments that wait for a channel to be played in, those tried
    /// least first, then the oldest.
    pub async fn unseated_tournament_games(
        &self,
        limit: i64,
        now: DateTime<Utc>,
    ) -> Result<Vec<(TournamentId, i64)>> {
        // Games backing off or being seated by a process wait; those tried least go first.
        Ok(sqlx::query!(
            r#"SELECT g.tournament_id AS "tournament: TournamentId", g.id
               FROM tournament_games g JOIN tournaments t ON t.id = g.tournament_id
               WHERE g.match_id IS NULL AND g.outcome IS NULL AND t.state = 'running'
                 AND (g.seat_after IS NULL OR g.seat_after <= $2)
                 AND (g.seating_until IS NULL OR g.seating_until <= $2)
               ORDER BY g.seat_attempts, g.id LIMIT $1"#,
            limit,
            now
        )
        .fetch_all(&self.pool)
        .await?
        .into_iter()
        .map(|r| (r.tournament, r.id))
        .collect())
    }

    /// The tournament game `game` is of.
    pub async fn tournament_of_game(&self, game: i64) -> Result<Option<TournamentId>> {
        Ok(sqlx::query_scalar!(
            r#"SELECT tournament_id AS "id: TournamentId" FROM tournament_games WHERE id = $1"#,
            game
        )
        .fetch_optional(&self.pool)
        .await?)
    }
}

impl Tx {
    /// Sets the result of a decided game anew; false when the game is not decided (its
    /// match's own end writes it).
    pub async fn correct_game(
        &mut self,
        game: i64,
        outcome: GameOutcome,
        margin: u32,
    ) -> Result<bool> {
        let done = sqlx::query!(
            "UPDATE tournament_games SET outcome = $2, margin = $3 WHERE id = $1 AND outcome IS NOT NULL",
            game,
            outcome as _,
            margin as i32
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes a withdrawn player back; false when they were not in or not withdrawn.
    pub async fn reinstate_entrant(&mut self, id: TournamentId, user: UserId) -> Result<bool> {
        let done = sqlx::query!(
            "UPDATE tournament_players SET withdrawn_at = NULL
             WHERE tournament_id = $1 AND user_id = $2 AND withdrawn_at IS NOT NULL",
            id.0,
            user.db()
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Claims undecided, unseated game `game` for seating until `until`, so its thread is
    /// opened once and without a lock held; false when it is not free to claim at `now`.
    pub async fn claim_seating(
        &mut self,
        game: i64,
        now: DateTime<Utc>,
        until: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query!(
            "UPDATE tournament_games SET seating_until = $3
             WHERE id = $1 AND match_id IS NULL AND outcome IS NULL
               AND (seating_until IS NULL OR seating_until <= $2)",
            game,
            now,
            until
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The game's thread could not be opened: it waits until `after` and is tried after the
    /// others; returns how often that has now happened.
    pub async fn seating_failed(&mut self, game: i64, after: DateTime<Utc>) -> Result<u32> {
        let attempts = sqlx::query_scalar!(
            "UPDATE tournament_games
             SET seat_attempts = seat_attempts + 1, seat_after = $2, seating_until = NULL
             WHERE id = $1 RETURNING seat_attempts",
            game,
            after
        )
        .fetch_one(&mut *self.tx)
        .await?;
        Ok(u32::try_from(attempts).unwrap_or(0))
    }

    /// Whether game `game`'s seating trouble is to be told now: true the first time only.
    pub async fn tell_seating_trouble(&mut self, game: i64) -> Result<bool> {
        let done = sqlx::query!(
            "UPDATE tournament_games SET seat_told = true WHERE id = $1 AND NOT seat_told",
            game
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// How often seating game `game` has failed so far.
    pub async fn seat_attempts(&mut self, game: i64) -> Result<u32> {
        let attempts = sqlx::query_scalar!(
            "SELECT seat_attempts FROM tournament_games WHERE id = $1",
            game
        )
        .fetch_optional(&mut *self.tx)
        .await?
        .unwrap_or(0);
        Ok(u32::try_from(attempts).unwrap_or(0))
    }
}

//! Tournaments, their players and their games (one pairing of a round each).
//!
//! Every change to a tournament happens in a [`Tx`] that first locks its row
//! ([`Tx::lock_tournament`]), so two processes ticking together take a tournament one at a
//! time and the second sees what the first did; `UNIQUE (tournament, round, seed)` on the
//! games backs that up, so a round can never be paired twice.

use chrono::{DateTime, Utc};

use super::error::{Result, StoreError};
use super::ids::{ChannelId, GuildId, MatchId, UserId};
use super::{Store, Tx};
use crate::game::Variant;
use crate::tournament::{Format, MatchOutcome, Pairing};

/// A tournament's number.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    sqlx::Type,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(transparent)]
#[sqlx(transparent)]
pub struct TournamentId(pub i64);

impl std::fmt::Display for TournamentId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Where a tournament stands. Stored by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
pub enum TournamentState {
    /// Taking players.
    Open,
    Running,
    Finished,
    Cancelled,
}

/// A tournament about to be announced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournament {
    pub guild: GuildId,
    pub channel: ChannelId,
    pub name: String,
    pub format: Format,
    pub variant: Variant,
    pub days_per_move: u32,
    pub round_days: u32,
    pub organiser: UserId,
    pub starts_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTournament {
    pub id: TournamentId,
    pub guild: GuildId,
    pub channel: ChannelId,
    pub name: String,
    pub format: Format,
    /// Fixed when it starts.
    pub rounds: Option<u32>,
    pub variant: Variant,
    pub days_per_move: u32,
    pub round_days: u32,
    pub organiser: UserId,
    pub starts_at: Option<DateTime<Utc>>,
    pub state: TournamentState,
    pub current_round: u32,
    pub round_deadline: Option<DateTime<Utc>>,
    pub ended_early: Option<String>,
}

/// A player of a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entrant {
    pub user: UserId,
    pub seed: usize,
    pub withdrawn: bool,
}

/// How a game was decided, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
pub enum GameOutcome {
    First,
    Second,
    Drawn,
    FirstForfeit,
    SecondForfeit,
    Bye,
}

/// One pairing of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TournamentGame {
    pub id: i64,
    pub round: u32,
    pub pairing: Pairing,
    pub match_id: Option<MatchId>,
    pub outcome: Option<GameOutcome>,
    /// Battle points in halves the winner won by.
    pub margin: u32,
}

impl TournamentGame {
    /// The result as the standings count it (`None` while undecided, and for a bye).
    pub fn result(&self) -> Option<MatchOutcome> {
        let Pairing::Match { first, second } = self.pairing else {
            return None;
        };
        Some(match self.outcome? {
            GameOutcome::First => MatchOutcome::Won {
                winner: first,
                margin: self.margin,
            },
            GameOutcome::Second => MatchOutcome::Won {
                winner: second,
                margin: self.margin,
            },
            GameOutcome::Drawn => MatchOutcome::Drawn,
            GameOutcome::FirstForfeit => MatchOutcome::Forfeited { winner: first },
            GameOutcome::SecondForfeit => MatchOutcome::Forfeited { winner: second },
            GameOutcome::Bye => return None,
        })
    }
}

struct TournamentRow {
    id: i64,
    guild_id: i64,
    channel_id: i64,
    name: String,
    format: String,
    rounds_asked: Option<i32>,
    rounds: Option<i32>,
    variant: String,
    days_per_move: i32,
    round_days: i32,
    organiser_id: i64,
    starts_at: Option<DateTime<Utc>>,
    state: TournamentState,
    current_round: i32,
    round_deadline: Option<DateTime<Utc>>,
    ended_early: Option<String>,
}

fn count(value: i32, what: &str, id: i64) -> Result<u32> {
    u32::try_from(value)
        .map_err(|_| StoreError::Corrupt(format!("tournament {id}: {what} {value}")))
}

impl TryFrom<TournamentRow> for StoredTournament {
    type Error = StoreError;

    fn try_from(r: TournamentRow) -> Result<StoredTournament> {
        let format = match r.format.as_str() {
            "round-robin" => Format::RoundRobin,
            "swiss" => Format::Swiss {
                rounds: r
                    .rounds_asked
                    .map(|n| count(n, "rounds asked", r.id))
                    .transpose()?,
            },
            other => {
                return Err(StoreError::Corrupt(format!(
                    "tournament {}: format {other}",
                    r.id
                )))
            }
        };
        Ok(StoredTournament {
            id: TournamentId(r.id),
            guild: GuildId::from_db(r.guild_id),
            channel: ChannelId::from_db(r.channel_id),
            name: r.name,
            format,
            rounds: r.rounds.map(|n| count(n, "rounds", r.id)).transpose()?,
            variant: r
                .variant
                .parse()
                .map_err(|e| StoreError::Corrupt(format!("tournament {}: {e}", r.id)))?,
            days_per_move: count(r.days_per_move, "days_per_move", r.id)?,
            round_days: count(r.round_days, "round_days", r.id)?,
            organiser: UserId::from_db(r.organiser_id),
            starts_at: r.starts_at,
            state: r.state,
            current_round: count(r.current_round, "current_round", r.id)?,
            round_deadline: r.round_deadline,
            ended_early: r.ended_early,
        })
    }
}

pub(super) struct GameRow {
    pub(super) id: i64,
    pub(super) round: i32,
    pub(super) first_seed: i32,
    pub(super) second_seed: Option<i32>,
    pub(super) match_id: Option<i64>,
    pub(super) outcome: Option<GameOutcome>,
    pub(super) margin: i32,
}

impl GameRow {
    pub(super) fn game(self) -> Result<TournamentGame> {
        let seed = |s: i32| {
            usize::try_from(s)
                .map_err(|_| StoreError::Corrupt(format!("tournament game {}: seed {s}", self.id)))
        };
        let first = seed(self.first_seed)?;
        Ok(TournamentGame {
            id: self.id,
            round: count(self.round, "round", self.id)?,
            pairing: match self.second_seed {
                Some(second) => Pairing::Match {
                    first,
                    second: seed(second)?,
                },
                None => Pairing::Bye(first),
            },
            match_id: self.match_id.map(MatchId::from_db),
            outcome: self.outcome,
            margin: count(self.margin, "margin", self.id)?,
        })
    }
}

impl Store {
    /// The latest tournament announced in `channel`, in play or not.
    pub async fn latest_tournament_in(
        &self,
        channel: ChannelId,
    ) -> Result<Option<StoredTournament>> {
        sqlx::query_as!(
            TournamentRow,
            r#"SELECT id, guild_id, channel_id, name, format, rounds_asked, rounds, variant,
                      days_per_move, round_days, organiser_id, starts_at,
                      state AS "state: TournamentState", current_round, round_deadline, ended_early
               FROM tournaments WHERE channel_id = $1 ORDER BY id DESC LIMIT 1"#,
            channel.db()
        )
        .fetch_optional(&self.pool)
        .await?
        .map(StoredTournament::try_from)
        .transpose()
    }

    /// A tournament by number.
    pub async fn tournament(&self, id: TournamentId) -> Result<Option<StoredTournament>> {
        sqlx::query_as!(
            TournamentRow,
            r#"SELECT id, guild_id, channel_id, name, format, rounds_asked, rounds, variant,
                      days_per_move, round_days, organiser_id, starts_at,
                      state AS "state: TournamentState", current_round, round_deadline, ended_early
               FROM tournaments WHERE id = $1"#,
            id.0
        )
        .fetch_optional(&self.pool)
        .await?
        .map(StoredTournament::try_from)
        .transpose()
    }

    /// The tournaments the clock has to look at: those open with a start time, and those running.
    pub async fn tournaments_in_play(&self) -> Result<Vec<TournamentId>> {
        Ok(sqlx::query_scalar!(
            r#"SELECT id AS "id: TournamentId" FROM tournaments
               WHERE state = 'running' OR (state = 'open' AND starts_at IS NOT NULL)
               ORDER BY id"#
        )
        .fetch_all(&self.pool)
        .await?)
    }

    /// The tournaments of `guild` taking players or running.
    pub async fn tournaments_of_guild(&self, guild: GuildId) -> Result<Vec<TournamentId>> {
        Ok(sqlx::query_scalar!(
            r#"SELECT id AS "id: TournamentId" FROM tournaments
               WHERE guild_id = $1 AND state IN ('open', 'running') ORDER BY id"#,
            guild.db()
        )
        .fetch_all(&self.pool)
        .await?)
    }
}

impl Tx {
    /// Announces a tournament; it takes players until it starts.
    pub async fn create_tournament(&mut self, new: &NewTournament) -> Result<TournamentId> {
        let rounds_asked = match new.format {
            Format::Swiss { rounds } => rounds.map(|r| r as i32),
            Format::RoundRobin => None,
        };
        Ok(sqlx::query_scalar!(
            r#"INSERT INTO tournaments (guild_id, channel_id, name, format, rounds_asked, variant,
                                        days_per_move, round_days, organiser_id, starts_at,
                                        created_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
               RETURNING id AS "id: TournamentId""#,
            new.guild.db(),
            new.channel.db(),
            new.name,
            new.format.name(),
            rounds_asked,
            new.variant.name(),
            new.days_per_move as i32,
            new.round_days as i32,
            new.organiser.db(),
            new.starts_at,
            new.created_at,
        )
        .fetch_one(&mut *self.tx)
        .await?)
    }

    /// Locks a tournament for a change; the other processes wait.
    pub async fn lock_tournament(&mut self, id: TournamentId) -> Result<Option<StoredTournament>> {
        sqlx::query_as!(
            TournamentRow,
            r#"SELECT id, guild_id, channel_id, name, format, rounds_asked, rounds, variant,
                      days_per_move, round_days, organiser_id, starts_at,
                      state AS "state: TournamentState", current_round, round_deadline, ended_early
               FROM tournaments WHERE id = $1 FOR UPDATE"#,
            id.0
        )
        .fetch_optional(&mut *self.tx)
        .await?
        .map(StoredTournament::try_from)
        .transpose()
    }

    /// The tournament (not finished or cancelled) in `channel`, locked.
    pub async fn lock_tournament_in(
        &mut self,
        channel: ChannelId,
    ) -> Result<Option<StoredTournament>> {
        sqlx::query_as!(
            TournamentRow,
            r#"SELECT id, guild_id, channel_id, name, format, rounds_asked, rounds, variant,
                      days_per_move, round_days, organiser_id, starts_at,
                      state AS "state: TournamentState", current_round, round_deadline, ended_early
               FROM tournaments WHERE channel_id = $1 AND state IN ('open', 'running') ORDER BY id DESC LIMIT 1 FOR UPDATE"#,
            channel.db(
        )
        )
        .fetch_optional(&mut *self.tx)
        .await?
        .map(StoredTournament::try_from)
        .transpose()
    }

    /// The players of a tournament by seed.
    pub async fn entrants(&mut self, id: TournamentId) -> Result<Vec<Entrant>> {
        sqlx::query!(
            r#"SELECT user_id, seed, withdrawn_at IS NOT NULL AS "withdrawn!"
               FROM tournament_players WHERE tournament_id = $1 ORDER BY seed"#,
            id.0
        )
        .fetch_all(&mut *self.tx)
        .await?
        .into_iter()
        .map(|r| {
            Ok(Entrant {
                user: UserId::from_db(r.user_id),
                seed: usize::try_from(r.seed).map_err(|_| {
                    StoreError::Corrupt(format!("tournament {id}: seed {}", r.seed))
                })?,
                withdrawn: r.withdrawn,
            })
        })
        .collect()
    }

    /// Adds a player with the next seed; false when they are in already.
    pub async fn add_entrant(
        &mut self,
        id: TournamentId,
        user: UserId,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let added = sqlx::query!(
            "INSERT INTO tournament_players (tournament_id, user_id, seed, joined_at)
             SELECT $1, $2, COALESCE(MAX(seed) + 1, 0), $3
             FROM tournament_players WHERE tournament_id = $1
             ON CONFLICT (tournament_id, user_id) DO NOTHING",
            id.0,
            user.db(),
            now,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(added.rows_affected() == 1)
    }

    /// Takes a player out before the start, closing the gap in the seeds; false when they
    /// were not in.
    pub async fn remove_entrant(&mut self, id: TournamentId, user: UserId) -> Result<bool> {
        let seed = sqlx::query_scalar!(
            "DELETE FROM tournament_players WHERE tournament_id = $1 AND user_id = $2 RETURNING seed",
            id.0,
            user.db()
        )
        .fetch_optional(&mut *self.tx)
        .await?;
        let Some(seed) = seed else {
            return Ok(false);
        };
        // One row at a time in seed order, so the unique seeds never collide on the way.
        let later = sqlx::query_scalar!(
            "SELECT user_id FROM tournament_players WHERE tournament_id = $1 AND seed > $2 ORDER BY seed",
            id.0,
            seed
        )
        .fetch_all(&mut *self.tx)
        .await?;
        for user in later {
            sqlx::query!(
                "UPDATE tournament_players SET seed = seed - 1 WHERE tournament_id = $1 AND user_id = $2",
                id.0,
                user
            )
            .execute(&mut *self.tx)
            .await?;
        }
        Ok(true)
    }

    /// Marks a player withdrawn; false when they were not in or already out.
    pub async fn withdraw_entrant(
        &mut self,
        id: TournamentId,
        user: UserId,
        now: DateTime<Utc>,
    ) -> Result<bool> {
        let done = sqlx::query!(
            "UPDATE tournament_players SET withdrawn_at = $3
             WHERE tournament_id = $1 AND user_id = $2 AND withdrawn_at IS NULL",
            id.0,
            user.db(),
            now
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Starts a tournament: its rounds are fixed, round 1 is about to be paired.
    pub async fn start_tournament(&mut self, id: TournamentId, rounds: u32) -> Result<()> {
        sqlx::query!(
            "UPDATE tournaments SET state = 'running', rounds = $2 WHERE id = $1",
            id.0,
            rounds as i32
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Moves a tournament on to `round`, paired at `now` and due by `deadline`.
    pub async fn set_round(
        &mut self,
        id: TournamentId,
        round: u32,
        now: DateTime<Utc>,
        deadline: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query!(
            "UPDATE tournaments SET current_round = $2, round_paired_at = $3, round_deadline = $4
             WHERE id = $1",
            id.0,
            round as i32,
            now,
            deadline
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Ends a tournament, finished or cancelled, with why it ended early if it did.
    pub async fn end_tournament(
        &mut self,
        id: TournamentId,
        state: TournamentState,
        ended_early: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query!(
            "UPDATE tournaments SET state = $2, ended_early = $3, finished_at = $4,
                    round_deadline = NULL WHERE id = $1",
            id.0,
            state as _,
            ended_early,
            now
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Writes one pairing of a round; a bye is decided at once.
    pub async fn insert_game(
        &mut self,
        id: TournamentId,
        round: u32,
        pairing: Pairing,
        outcome: Option<GameOutcome>,
    ) -> Result<i64> {
        let (first, second) = match pairing {
            Pairing::Match { first, second } => (first as i32, Some(second as i32)),
            Pairing::Bye(p) => (p as i32, None),
        };
        Ok(sqlx::query_scalar!(
            "INSERT INTO tournament_games (tournament_id, round, first_seed, second_seed, outcome)
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
            id.0,
            round as i32,
            first,
            second,
            outcome as _,
        )
        .fetch_one(&mut *self.tx)
        .await?)
    }

    /// Every game of a tournament, round by round.
    pub async fn games(&mut self, id: TournamentId) -> Result<Vec<TournamentGame>> {
        sqlx::query_as!(
            GameRow,
            r#"SELECT id, round, first_seed, second_seed, match_id,
                      outcome AS "outcome: GameOutcome", margin
               FROM tournament_games WHERE tournament_id = $1 ORDER BY round, id"#,
            id.0
        )
        .fetch_all(&mut *self.tx)
        .await?
        .into_iter()
        .map(GameRow::game)
        .collect()
    }

    /// Of `ids`, the matches no longer in play: read without locking or replaying them, so
    /// the clock's look at a round leaves the matches being played alone.
    pub async fn matches_over(&mut self, ids: &[MatchId]) -> Result<Vec<MatchId>> {
        let ids: Vec<i64> = ids.iter().map(|m| m.db()).collect();
        Ok(sqlx::query_scalar!(
            r#"SELECT id AS "id: MatchId" FROM matches WHERE id = ANY($1) AND state <> 'active'"#,
            &ids
        )
        .fetch_all(&mut *self.tx)
        .await?)
    }

    /// Gives a game its match; false when it already has one (another process seated it).
    pub async fn seat_game(&mut self, game: i64, match_id: MatchId) -> Result<bool> {
        let done = sqlx::query!(
            "UPDATE tournament_games SET match_id = $2 WHERE id = $1 AND match_id IS NULL AND outcome IS NULL",
            game,
            match_id.db()
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Decides a game; false when it was decided already.
    pub async fn decide_game(
        &mut self,
        game: i64,
        outcome: GameOutcome,
        margin: u32,
    ) -> Result<bool> {
        let done = sqlx::query!(
            "UPDATE tournament_games SET outcome = $2, margin = $3 WHERE id = $1 AND outcome IS NULL",
            game,
            outcome as _,
            margin as i32
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}

//! Matches, their battles and their moves.
//!
//! A battle's position is never stored: loading a match replays its moves through the engine,
//! so the move list is the single truth and a stored game can never hold an illegal move.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::clocks::TurnClock;
use super::error::{classify, name_column, Result, StoreError};
use super::ids::{ChallengeId, ChannelId, GuildId, MatchId, UserId};
use super::match_rows::{
    select_matches, ComputerSeat, Finish, MatchRow, MatchState, MATCH_COLUMNS,
};
use super::proposals::EndProposal;
use super::{Store, Tx};
use crate::game::{
    BattleEnd, BattleRecord, BattleResult, Match, MatchRecord, Move, Points, Seat, Side, Variant,
};

/// How a battle ended, as `battles.ended_by` says it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, sqlx::Type)]
#[sqlx(type_name = "text", rename_all = "kebab-case")]
enum EndedBy {
    Agreement,
    NoLegalMove,
    Objective,
}

impl From<&BattleEnd> for EndedBy {
    fn from(end: &BattleEnd) -> EndedBy {
        match end {
            BattleEnd::Agreement => EndedBy::Agreement,
            BattleEnd::NoLegalMove { .. } => EndedBy::NoLegalMove,
            BattleEnd::Objective { .. } => EndedBy::Objective,
        }
    }
}

/// Who played a stored move and when.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveStamp {
    pub player: UserId,
    pub played_at: DateTime<Utc>,
}

/// A battle's row: ids and times the game value does not carry.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StoredBattle {
    pub id: i64,
    pub number: u8,
    pub started_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// One stamp per move, in order.
    pub stamps: Vec<MoveStamp>,
}

/// A match as stored, with its game replayed.
#[derive(Clone, Debug)]
pub struct StoredMatch {
    pub id: MatchId,
    pub guild: GuildId,
    pub channel: ChannelId,
    /// The players by seat: `[first, second]`; the first commands the dwarfs in battle 1.
    pub players: [UserId; 2],
    pub variant: Variant,
    pub days_per_move: u32,
    pub state: MatchState,
    pub finish: Option<Finish>,
    pub winner: Option<UserId>,
    pub rated: bool,
    pub created_at: DateTime<Utc>,
    pub finished_at: Option<DateTime<Utc>>,
    /// The game, rebuilt from the moves.
    pub game: Match,
    pub battles: Vec<StoredBattle>,
    /// The clock of the turn in play, while the match is active.
    pub clock: Option<TurnClock>,
    /// The open end proposal in the current battle, if any.
    pub proposal: Option<EndProposal>,
    /// Why the bot cannot reach the match's channel, if it cannot.
    pub trouble: Option<String>,
    /// The computer, when it plays in this match.
    pub computer: Option<ComputerSeat>,
}

impl StoredMatch {
    /// The player in `seat`.
    pub fn player(&self, seat: Seat) -> UserId {
        match seat {
            Seat::First => self.players[0],
            Seat::Second => self.players[1],
        }
    }

    /// The seat of `user`, if they play in this match.
    pub fn seat_of(&self, user: UserId) -> Option<Seat> {
        Seat::BOTH.into_iter().find(|&s| self.player(s) == user)
    }

    /// The player commanding `side` in the current battle.
    pub fn commander(&self, side: Side) -> UserId {
        self.player(Seat::commanding(side, self.game.battle_number()))
    }

    /// The player whose turn it is, while the match is in play.
    pub fn player_to_move(&self) -> Option<UserId> {
        if self.state != MatchState::Active {
            return None;
        }
        self.game.seat_to_move().map(|s| self.player(s))
    }

    /// The row of the current battle.
    pub fn current_battle(&self) -> &StoredBattle {
        self.battles.last().expect("a stored match has a battle")
    }
}

/// A match about to begin.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NewMatch {
    pub guild: GuildId,
    pub channel: ChannelId,
    pub challenge: Option<ChallengeId>,
    /// `[first, second]`: the first commands the dwarfs in battle 1.
    pub players: [UserId; 2],
    pub variant: Variant,
    pub days_per_move: u32,
    pub created_at: DateTime<Utc>,
    /// Whether the result counts on the leaderboards.
    pub rated: bool,
    /// The computer, when it is one of the players.
    pub computer: Option<ComputerSeat>,
}

/// A row of `battles`.
struct BattleRow {
    id: i64,
    number: i16,
    start_position: String,
    ended_by: Option<EndedBy>,
    started_at: DateTime<Utc>,
    finished_at: Option<DateTime<Utc>>,
}

/// A row of `moves`.
struct MoveRow {
    battle_id: i64,
    notation: String,
    player_id: UserId,
    played_at: DateTime<Utc>,
}

/// Loads everything about the match in `row` and replays its game.
async fn load(conn: &mut PgConnection, row: MatchRow) -> Result<StoredMatch> {
    let id = row.id.db();
    let variant = row.variant()?;
    let players = row.players();
    let finish = row.finish;
    let winner = row.winner_id;

    let battle_rows = sqlx::query_as!(
        BattleRow,
        r#"SELECT id, number, start_position, ended_by AS "ended_by: EndedBy", started_at,
                  finished_at
           FROM battles WHERE match_id = $1 ORDER BY number"#,
        id
    )
    .fetch_all(&mut *conn)
    .await
    .map_err(name_column(&[
        "id",
        "number",
        "start_position",
        "ended_by",
        "started_at",
        "finished_at",
    ]))?;
    let battle_ids: Vec<i64> = battle_rows.iter().map(|b| b.id).collect();
    let move_rows = sqlx::query_as!(
        MoveRow,
        r#"SELECT battle_id, notation, player_id AS "player_id: UserId", played_at FROM moves
           WHERE battle_id = ANY($1) ORDER BY battle_id, ply"#,
        &battle_ids
    )
    .fetch_all(&mut *conn)
    .await?;

    let mut records = Vec::new();
    let mut battles = Vec::new();
    for b in battle_rows {
        let number = u8::try_from(b.number)
            .map_err(|_| StoreError::Corrupt(format!("match {id}: battle {}", b.number)))?;
        let mine: Vec<&MoveRow> = move_rows.iter().filter(|m| m.battle_id == b.id).collect();
        records.push(BattleRecord {
            variant,
            start: b.start_position,
            moves: mine.iter().map(|m| m.notation.clone()).collect(),
            agreed: b.ended_by == Some(EndedBy::Agreement),
        });
        battles.push(StoredBattle {
            id: b.id,
            number,
            started_at: b.started_at,
            finished_at: b.finished_at,
            stamps: mine
                .iter()
                .map(|m| MoveStamp {
                    player: m.player_id,
                    played_at: m.played_at,
                })
                .collect(),
        });
    }
    // A forfeit is the loser's: whoever did not win a resigned or timed-out match.
    let forfeited_by = match (finish, winner) {
        (Some(Finish::Resigned | Finish::Timeout), Some(w)) => Some(if w == players[0] {
            Seat::Second
        } else {
            Seat::First
        }),
        _ => None,
    };
    let game = Match::try_from(MatchRecord {
        variant,
        battles: records,
        forfeited_by,
    })
    .map_err(|e| StoreError::Corrupt(format!("match {id}: {e}")))?;

    let clock = super::clocks::clock_of(&mut *conn, id).await?;
    let proposal = match battles.last() {
        Some(b) => super::proposals::open_proposal(&mut *conn, b.id).await?,
        None => None,
    };
    Ok(StoredMatch {
        id: row.id,
        guild: row.guild_id,
        channel: row.channel_id,
        players,
        variant,
        days_per_move: row.days_per_move()?,
        state: row.state,
        finish,
        winner,
        rated: row.rated,
        created_at: row.created_at,
        finished_at: row.finished_at,
        game,
        battles,
        clock,
        proposal,
        computer: row.computer()?,
        trouble: row.trouble,
    })
}

impl Store {
    /// A match by id, without locking it.
    pub async fn load_match(&self, id: MatchId) -> Result<Option<StoredMatch>> {
        let mut conn = self.pool.acquire().await?;
        let row = select_matches!(MatchRow, " FROM matches m WHERE m.id = $1", id.db())
            .fetch_optional(&mut *conn)
            .await
            .map_err(name_column(MATCH_COLUMNS))?;
        match row {
            Some(row) => Ok(Some(load(&mut conn, row).await?)),
            None => Ok(None),
        }
    }

    /// The match in play in a channel, without locking it.
    pub async fn active_match_in(&self, channel: ChannelId) -> Result<Option<StoredMatch>> {
        let mut conn = self.pool.acquire().await?;
        let row = select_matches!(
            MatchRow,
            " FROM matches m WHERE m.channel_id = $1 AND m.state = 'active'",
            channel.db()
        )
        .fetch_optional(&mut *conn)
        .await
        .map_err(name_column(MATCH_COLUMNS))?;
        match row {
            Some(row) => Ok(Some(load(&mut conn, row).await?)),
            None => Ok(None),
        }
    }

    /// The latest match played in a channel, in play or not.
    pub async fn latest_match_in(&self, channel: ChannelId) -> Result<Option<MatchId>> {
        Ok(sqlx::query_scalar!(
            r#"SELECT id AS "id: MatchId" FROM matches WHERE channel_id = $1
               ORDER BY created_at DESC, id DESC LIMIT 1"#,
            channel.db()
        )
        .fetch_optional(&self.pool)
        .await?)
    }

    /// How many matches are in play (for the load test and logs).
    pub async fn count_active_matches(&self) -> Result<i64> {
        Ok(sqlx::query_scalar!(
            r#"SELECT count(*) AS "count!" FROM matches WHERE state = 'active'"#
        )
        .fetch_one(&self.pool)
        .await?)
    }
}

impl Tx {
    /// Whether match `id` is a game of a tournament, whose rounds need a result from it.
    pub async fn is_tournament_game(&mut self, id: MatchId) -> Result<bool> {
        Ok(sqlx::query_scalar!(
            r#"SELECT EXISTS (SELECT 1 FROM tournament_games WHERE match_id = $1) AS "is!""#,
            id.db(),
        )
        .fetch_one(&mut *self.tx)
        .await?)
    }

    /// Begins a match with battle 1; refused with [`super::Conflict::ChannelBusy`] when the
    /// channel already has a match in play.
    pub async fn insert_match(&mut self, new: &NewMatch) -> Result<MatchId> {
        // Match numbers come from a sequence, which a rolled-back insert would still use up
        // (#1, then #3). So the channel is checked first, under a lock on the channel that
        // every insert takes, and a busy channel is refused before a number is drawn; the
        // unique index stays the last word.
        sqlx::query!("SELECT pg_advisory_xact_lock($1)", new.channel.db())
            .fetch_one(&mut *self.tx)
            .await?;
        let busy = sqlx::query_scalar!(
            r#"SELECT EXISTS (SELECT 1 FROM matches WHERE channel_id = $1 AND state = 'active')
               AS "busy!""#,
            new.channel.db(),
        )
        .fetch_one(&mut *self.tx)
        .await?;
        if busy {
            return Err(StoreError::Conflict(super::Conflict::ChannelBusy));
        }
        let id = sqlx::query_scalar!(
            r#"INSERT INTO matches (guild_id, channel_id, challenge_id, first_player_id,
                                    second_player_id, variant, days_per_move, created_at, rated,
                                    computer_id, computer_level)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
               RETURNING id AS "id: MatchId""#,
            new.guild.db(),
            new.channel.db(),
            new.challenge.map(ChallengeId::db),
            new.players[0].db(),
            new.players[1].db(),
            new.variant.name(),
            new.days_per_move as i32,
            new.created_at,
            new.rated,
            new.computer.map(|c| c.player.db()),
            new.computer.map(|c| c.level as i16),
        )
        .fetch_one(&mut *self.tx)
        .await
        .map_err(classify)?;
        self.insert_battle(id, 1, new.players, new.variant, new.created_at)
            .await?;
        Ok(id)
    }

    /// Begins battle `number` of a match; the seats' sides follow from the number.
    pub async fn insert_battle(
        &mut self,
        id: MatchId,
        number: u8,
        players: [UserId; 2],
        variant: Variant,
        at: DateTime<Utc>,
    ) -> Result<i64> {
        let seat_player = |seat: Seat| match seat {
            Seat::First => players[0],
            Seat::Second => players[1],
        };
        let dwarfs = seat_player(Seat::commanding(Side::Dwarfs, number));
        let trolls = seat_player(Seat::commanding(Side::Trolls, number));
        let battle_id = sqlx::query_scalar!(
            "INSERT INTO battles (match_id, number, dwarfs_player_id, trolls_player_id,
                                  start_position, started_at)
             VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
            id.db(),
            number as i16,
            dwarfs.db(),
            trolls.db(),
            variant.start().fen(),
            at,
        )
        .fetch_one(&mut *self.tx)
        .await?;
        Ok(battle_id)
    }

    /// The match in play in `channel`, locked until the transaction ends: every change to a
    /// match happens under this lock, so turns are taken one at a time.
    pub async fn lock_active_match(&mut self, channel: ChannelId) -> Result<Option<StoredMatch>> {
        let row = select_matches!(
            MatchRow,
            " FROM matches m WHERE m.channel_id = $1 AND m.state = 'active' FOR UPDATE",
            channel.db()
        )
        .fetch_optional(&mut *self.tx)
        .await
        .map_err(name_column(MATCH_COLUMNS))?;
        match row {
            Some(row) => Ok(Some(load(&mut self.tx, row).await?)),
            None => Ok(None),
        }
    }

    /// A match by id, locked until the transaction ends.
    pub async fn lock_match(&mut self, id: MatchId) -> Result<Option<StoredMatch>> {
        let row = select_matches!(
            MatchRow,
            " FROM matches m WHERE m.id = $1 FOR UPDATE",
            id.db()
        )
        .fetch_optional(&mut *self.tx)
        .await
        .map_err(name_column(MATCH_COLUMNS))?;
        match row {
            Some(row) => Ok(Some(load(&mut self.tx, row).await?)),
            None => Ok(None),
        }
    }

    /// Appends move number `ply` (from 1) of a battle; refused with
    /// [`super::Conflict::TurnTaken`] if that ply is already stored.
    pub async fn insert_move(
        &mut self,
        battle_id: i64,
        ply: u32,
        mv: &Move,
        player: UserId,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let captured: Vec<String> = mv.captured().iter().map(|s| s.to_string()).collect();
        sqlx::query!(
            "INSERT INTO moves (battle_id, ply, notation, captured, player_id, played_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
            battle_id,
            ply as i32,
            mv.to_string(),
            &captured,
            player.db(),
            at,
        )
        .execute(&mut *self.tx)
        .await
        .map_err(classify)?;
        Ok(())
    }

    /// Records how a battle ended.
    pub async fn finish_battle(
        &mut self,
        battle_id: i64,
        result: &BattleResult,
        at: DateTime<Utc>,
    ) -> Result<()> {
        sqlx::query!(
            "UPDATE battles SET state = 'finished', ended_by = $2, dwarfs_score = $3,
                    trolls_score = $4, winner_side = $5, margin = $6, finished_at = $7
             WHERE id = $1",
            battle_id,
            EndedBy::from(&result.end) as _,
            result.score.dwarfs as i32,
            result.score.trolls as i32,
            result.winner.map(|s| s.to_string()),
            result.margin.halves() as i32,
            at,
        )
        .execute(&mut *self.tx)
        .await?;
        Ok(())
    }

    /// Ends a match: its result, or an abort. Battles still in play are marked stopped.
    pub async fn finish_match(
        &mut self,
        id: MatchId,
        finish: Finish,
        winner: Option<UserId>,
        points: Option<[Points; 2]>,
        aborted_by: Option<UserId>,
        at: DateTime<Utc>,
    ) -> Result<()> {
        let state = if finish == Finish::Aborted {
            MatchState::Aborted
        } else {
            MatchState::Finished
        };
        sqlx::query!(
            "UPDATE matches SET state = $2, finish = $3, winner_id = $4, first_points = $5,
                    second_points = $6, rated = rated AND $7, aborted_by = $8, finished_at = $9
             WHERE id = $1",
            id.db(),
            state as _,
            finish as _,
            winner.map(UserId::db),
            points.map(|p| p[0].halves() as i32),
            points.map(|p| p[1].halves() as i32),
            finish != Finish::Aborted,
            aborted_by.map(UserId::db),
            at,
        )
        .execute(&mut *self.tx)
        .await?;
        sqlx::query!(
            "UPDATE battles SET state = 'stopped', finished_at = $2
             WHERE match_id = $1 AND state = 'active'",
            id.db(),
            at,
        )
        .execute(&mut *self.tx)
        .await?;
        // However it ends, nothing is left to answer.
        self.drop_plans(id).await?;
        self.clear_clock(id).await
    }
}

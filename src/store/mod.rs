//! Storage in PostgreSQL: every SQL statement and the migrations of thudbot live here.
//!
//! Reads that need no lock are methods of [`Store`]. Every change to a match happens in a
//! [`Tx`] that first locks the match row ([`Tx::lock_active_match`]); that lock is the one
//! place concurrency is decided, so two submissions of the same turn are taken one at a time
//! and the second sees the first's result. The unique `(battle, ply)` key backs it up.

mod analyses;
mod challenges;
mod clocks;
mod computer;
pub mod connect;
mod error;
mod hints;
mod ids;
mod match_rows;
mod matches;
mod organisers;
mod outbox;
mod places;
mod plans;
mod players;
mod posts;
mod proposals;
mod ratings;
mod records;
#[cfg(feature = "testing")]
pub mod scratch;
mod summaries;
mod threads;
mod tournament_announcements;
mod tournament_games;
mod tournament_rounds;
mod tournaments;
mod vacations;

pub use analyses::{AnalysisStatus, StoredJudgement};
pub use challenges::{Challenge, ChallengeState, NewChallenge, SideChoice};
pub use clocks::{DueReminder, TurnClock};
pub use connect::{Database, DatabaseConfig, OpenError, MIGRATOR};
pub use error::{Conflict, Result, StoreError};
pub use ids::{ChallengeId, ChannelId, GuildId, MatchId, Scope, UserId};
pub use match_rows::{ComputerSeat, Finish, MatchState};
pub use matches::{MoveStamp, NewMatch, StoredBattle, StoredMatch};
pub use organisers::OrganiserRole;
pub use outbox::{NewNotice, NoticeRecord, NoticeState, QueuedNotice, Recipient};
pub use plans::PlanLine;
pub use players::{BoardStyle, Notify, Player, Settings};
pub use proposals::{EndProposal, ProposalAnswer};
pub use ratings::{Rating, Standing};
pub use records::{HeadToHead, LevelRecord};
#[cfg(feature = "testing")]
pub use scratch::{ScratchDatabase, ScratchError};
pub use summaries::MatchSummary;
pub use threads::ThreadMarks;
pub use tournament_rounds::TimeAway;
pub use tournaments::{
    Entrant, GameOutcome, NewTournament, StoredTournament, TournamentGame, TournamentId,
    TournamentState,
};
pub use vacations::Vacation;

pub use crate::postgres::{Binaries, Durability, LocalServer, LocalServerError};

use sqlx::{PgPool, Postgres, Transaction};

/// The database of matches, players and ratings.
#[derive(Clone, Debug)]
pub struct Store {
    pool: PgPool,
}

impl Store {
    /// A store over a connected, migrated pool.
    pub fn new(pool: PgPool) -> Store {
        Store { pool }
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Begins a transaction for a change to a match.
    pub async fn begin(&self) -> Result<Tx> {
        Ok(Tx {
            tx: self.pool.begin().await?,
        })
    }
}

/// A transaction: the writes of one action land together or not at all.
pub struct Tx {
    tx: Transaction<'static, Postgres>,
}

impl Tx {
    /// Commits. A failure here is [`StoreError::CommitUnsure`] unless the server answered
    /// with an error of its own (then nothing landed).
    pub async fn commit(self) -> Result<()> {
        match self.tx.commit().await {
            Ok(()) => Ok(()),
            Err(e @ sqlx::Error::Database(_)) => Err(StoreError::Database(e)),
            Err(e) => Err(StoreError::CommitUnsure(e)),
        }
    }

    /// Ends the transaction now, releasing its locks at once. (Dropping it also rolls back,
    /// but only when the connection is next used, so its row locks linger a moment.)
    pub async fn rollback(self) -> Result<()> {
        self.tx.rollback().await?;
        Ok(())
    }
}

//! Writing a notice into the outbox, in the transaction of the change it reports, in either
//! of the outbox's formats: what every queueing path (events, or words from an earlier
//! version) comes down to.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

use crate::service::error::{Result, ServiceError};
use crate::service::outcome::BoardShot;
use crate::store::{GuildId, MatchId, NewNotice, Recipient, Tx, UserId};

/// How long a finished match's thread stays open for its final messages.
const MATCH_OVER_DELAY_SECONDS: i64 = 120;
/// How long a turn notice by DM waits, at most, for the move's message in the channel it
/// links to (see `Outbox::board_posted`).
const DM_WAITS_FOR_BOARD_SECONDS: i64 = 60;

/// What keeps a notice true until it is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::service) enum Settled {
    /// It stays true.
    Always,
    /// A reminder: true only while `player`'s turn that started at `turn_started_at` is still
    /// being played (and its clock runs).
    WhileTurn {
        player: UserId,
        turn_started_at: DateTime<Utc>,
    },
    /// Says nothing: a finished match's thread of its own is closed.
    ClosesThread,
    /// Says nothing: the announcement of a tournament is shown afresh.
    ShowsField(crate::store::TournamentId),
    /// Says nothing: the analysis of a match is shown as it stands.
    ShowsAnalysis(MatchId),
    /// Says nothing: a match's thread, archived while something lives in it, is opened again.
    ReopensThread,
}

/// Queues a stored `body` of either format.
pub(in crate::service) async fn queue_body(
    tx: &mut Tx,
    (guild, to): (GuildId, Recipient),
    match_id: Option<MatchId>,
    body: &impl Serialize,
    settled: Settled,
    board: Option<BoardShot>,
    now: DateTime<Utc>,
) -> Result<()> {
    let value = stored(body)?;
    let silent = settled == Settled::ClosesThread;
    // A turn notice by DM links to the move's message in the channel: it waits for it a
    // little (see `Outbox::board_posted`).
    let waits_for_board = matches!(to, Recipient::Dm(_)) && board.is_some();
    let due_at = if silent {
        now + Duration::seconds(MATCH_OVER_DELAY_SECONDS)
    } else if waits_for_board {
        now + Duration::seconds(DM_WAITS_FOR_BOARD_SECONDS)
    } else {
        now
    };
    tx.queue_notice(&NewNotice {
        guild,
        to,
        match_id,
        body: value,
        silent,
        board: board.map(|b| (b.battle, b.plies)),
        created_at: now,
        due_at,
    })
    .await?;
    Ok(())
}

/// Queues `body`, a record of something under way that says nothing (a thread wanted for a
/// match: `Event::RoomWanted`), for `to`, due at `due_at`; it holds none of its reader's
/// notices back. Returns its id, for settling it when the work is done.
pub(in crate::service) async fn queue_record(
    tx: &mut Tx,
    (guild, to): (GuildId, Recipient),
    body: &impl Serialize,
    now: DateTime<Utc>,
    due_at: DateTime<Utc>,
) -> Result<i64> {
    Ok(tx
        .queue_notice(&NewNotice {
            guild,
            to,
            match_id: None,
            body: stored(body)?,
            silent: true,
            board: None,
            created_at: now,
            due_at,
        })
        .await?)
}

/// `body` as the outbox stores it.
fn stored(body: &impl Serialize) -> Result<serde_json::Value> {
    serde_json::to_value(body)
        .map_err(|e| ServiceError::System(format!("a notice could not be written: {e}")))
}

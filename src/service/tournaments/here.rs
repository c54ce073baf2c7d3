//! Where a tournament command was given: the tournament's own channel, or one of its games'
//! threads; and where the news it makes goes from there (to the players, in the channel).

use chrono::{DateTime, Utc};

use crate::service::error::Result;
use crate::service::events::Event;
use crate::service::notices::delivery::{queue_events, Notice};
use crate::service::Place;
use crate::store::{Recipient, Store, StoredTournament, TournamentState, Tx};

/// The tournament open or running that a command given in `place` is about, locked: the one
/// of the channel, or, in a game's own thread, the one the game is of.
pub(super) async fn lock_here(
    store: &Store,
    tx: &mut Tx,
    place: Place,
) -> Result<Option<StoredTournament>> {
    if let Some(t) = tx.lock_tournament_in(place.channel).await? {
        return Ok(Some(t));
    }
    let Some(id) = store.tournament_of_game_in(place.channel).await? else {
        return Ok(None);
    };
    Ok(tx
        .lock_tournament(id)
        .await?
        .filter(|t| matches!(t.state, TournamentState::Open | TournamentState::Running)))
}

/// The news `events` made by a command given in `place`, in the transaction of the change. In
/// the tournament's channel they are the command's answer. From a game's thread they are
/// queued for the tournament's channel, where its players read round ends and pairings, and
/// the thread's answer is the first of them alone (what the command did).
pub(super) async fn news_from(
    tx: &mut Tx,
    t: &StoredTournament,
    place: Place,
    mut events: Vec<Event>,
    now: DateTime<Utc>,
) -> Result<Vec<Event>> {
    if place.channel == t.channel || events.is_empty() {
        return Ok(events);
    }
    let to = (t.guild, Recipient::Channel(t.channel));
    queue_events(tx, to, None, &Notice::new(events.clone(), None), now).await?;
    events.truncate(1);
    Ok(events)
}

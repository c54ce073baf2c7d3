//! A room of a match's own: a thread the front-end opens for it. The service asks for it only
//! once it has decided that the match starts (an accepted challenge claimed, so a raced second
//! accept is refused first), and with no transaction open, since opening it is a Discord call:
//! a refusal or a second accept never leaves an empty thread behind.
//!
//! Opening one goes through the outbox's door like every other write to Discord: before the
//! call, the outbox records the thread as wanted (`Event::RoomWanted`, due only once the call
//! has had its time), and the record is settled once the match has begun there. A record left
//! pending (the match did not begin there, a creation's answer was lost, or the process
//! stopped in between) is delivered by looking for such a thread of the bot's and closing it
//! if nothing lives in it, so no thread is left empty.

use std::future::Future;
use std::pin::Pin;

use chrono::{DateTime, Duration, Utc};

use crate::service::error::Result;
use crate::service::events::Event;
use crate::service::notices::delivery::Notice;
use crate::service::notices::queue::queue_record;
use crate::store::{ChannelId, GuildId, Recipient, Store};

/// How long the front-end has to open a room and begin its match before the outbox takes the
/// room for unused: far longer than its requests may take.
const OPENING_MINUTES: i64 = 10;

/// Why no room could be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoRoom {
    /// Discord was busy, slow or out of reach (a 429, a 5xx, a time-out): worth trying again,
    /// and nobody's doing.
    Later(String),
    /// The bot may not open one there (it cannot see the channel, or lacks a permission), or
    /// the channel takes no threads.
    Refused(String),
    /// The server holds as many active threads as Discord allows.
    ThreadLimit,
}

/// Opens a room named by the second argument inside the channel of the first, or says why
/// none could be opened; an ordinary match is then played in that channel.
pub type Room<'a> = Box<
    dyn FnOnce(
            ChannelId,
            String,
        ) -> Pin<Box<dyn Future<Output = Result<ChannelId, NoRoom>> + Send + 'a>>
        + Send
        + 'a,
>;

/// A room asked for, and the outbox's record of it.
pub(in crate::service) struct Opening {
    /// The room, or why none opened.
    pub opened: std::result::Result<ChannelId, NoRoom>,
    /// The record, pending while the room is not known to be used.
    wanted: i64,
}

impl Opening {
    /// Opens `room`, named `name`, in channel `parent` of server `guild`, recorded in the
    /// outbox first.
    pub(in crate::service) async fn open(
        store: &Store,
        now: DateTime<Utc>,
        room: Room<'_>,
        (guild, parent): (GuildId, ChannelId),
        name: String,
    ) -> Result<Opening> {
        let wanted = Notice::new(vec![Event::RoomWanted { name: name.clone() }], None);
        let to = (guild, Recipient::Channel(parent));
        let due_at = now + Duration::minutes(OPENING_MINUTES);
        let mut tx = store.begin().await?;
        let wanted = queue_record(&mut tx, to, &wanted, now, due_at).await?;
        tx.commit().await?;
        let opened = room(parent, name).await;
        Ok(Opening { opened, wanted })
    }

    /// Ends the record: settled once a match has begun in the room (`used`), or where no
    /// room was made (refused, or the server at its limit); otherwise due at once, so the
    /// outbox closes a thread that was made all the same.
    pub(in crate::service) async fn end(
        self,
        store: &Store,
        now: DateTime<Utc>,
        used: bool,
    ) -> Result<()> {
        let made_none = matches!(self.opened, Err(NoRoom::Refused(_) | NoRoom::ThreadLimit));
        if used || made_none {
            let mut tx = store.begin().await?;
            tx.settle_notice(self.wanted, now).await?;
            tx.commit().await?;
        } else {
            store.notice_due(self.wanted, now).await?;
        }
        Ok(())
    }
}

/// Where a match that begins in `channel` of `guild` is played: a room of its own when `room`
/// opens one. The opening, if any, is ended by the caller once the match began or did not.
pub(in crate::service) async fn open_room(
    store: &Store,
    now: DateTime<Utc>,
    room: Option<Room<'_>>,
    (guild, channel): (GuildId, ChannelId),
    name: String,
) -> Result<(ChannelId, Option<Opening>)> {
    match room {
        Some(open) => {
            let opening = Opening::open(store, now, open, (guild, channel), name).await?;
            Ok((opening.opened.clone().unwrap_or(channel), Some(opening)))
        }
        None => Ok((channel, None)),
    }
}

/// Ends `opening`, if any, once its match began (`begun`: or the room is otherwise seen to)
/// or did not. A record that cannot be ended now falls due later all the same, and a thread
/// its match lives in is never closed, so a failure here is logged and changes nothing the
/// player was told.
pub(in crate::service) async fn end_opening(
    store: &Store,
    now: DateTime<Utc>,
    opening: Option<Opening>,
    begun: bool,
) {
    let Some(opening) = opening else { return };
    let used = begun && opening.opened.is_ok();
    if let Err(e) = opening.end(store, now, used).await {
        tracing::warn!(error = %e, "could not end the outbox's record of a room opened");
    }
}

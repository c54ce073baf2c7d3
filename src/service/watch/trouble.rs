//! Channels the bot can no longer reach: deleted, hidden from it, a thread locked or closed
//! twice, a server it was removed from, or a notice Discord refused for good. Their matches
//! are paused through `Matches` (`flow/trouble.rs`: resumed or stopped from there too) and
//! their tournaments called off; both players see why in `/thud games` from anywhere.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use crate::service::error::Result;
use crate::service::events::Event;
use crate::service::flow::Matches;
use crate::service::notices::delivery::{queue_effect, Delivery};
use crate::service::notices::failure::DeliveryFailure;
use crate::service::notices::queue::Settled;
use crate::service::notices::Outbox;
use crate::service::tournaments::Tournaments;
use crate::service::Clock;
use crate::store::{ChannelId, GuildId, Recipient, Store};

/// A thread archived again this soon after the bot reopened it was closed by a person.
/// Discord archives a thread only after it has been idle a while, and reopening it counts as
/// activity; in a busy server, near its limit of active threads, Discord lowers that wait,
/// but "usually not below the `auto_archive_duration`" (docs/topics/threads.md), whose least
/// is an hour. Ten minutes leaves Discord's own early archive well outside.
const CLOSED_AGAIN_WITHIN: Duration = Duration::minutes(10);
/// An archive this soon after the bot's own is the bot's.
const ARCHIVED_LATELY: Duration = Duration::hours(1);

/// What becomes of a match's thread that was archived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchivedThread {
    /// No match is in play in it: it is left as it is.
    NoMatch,
    /// The outbox opens it again.
    Reopen,
    /// A moderator closed it twice: it stays closed, and its match is paused.
    LeftClosed,
}

/// What becomes of matches (and tournaments) in channels the bot can no longer reach.
pub struct Channels {
    store: Store,
    clock: Arc<dyn Clock>,
    matches: Arc<Matches>,
    tournaments: Arc<Tournaments>,
    outbox: Arc<Outbox>,
}

impl Channels {
    pub(crate) fn new(
        store: Store,
        clock: Arc<dyn Clock>,
        matches: Arc<Matches>,
        tournaments: Arc<Tournaments>,
        outbox: Arc<Outbox>,
    ) -> Channels {
        Channels {
            store,
            clock,
            matches,
            tournaments,
            outbox,
        }
    }

    /// A notice's post failed: the outbox tries it again later, or, when Discord will never
    /// take it, marks it undeliverable after its match's clock is paused until a player acts
    /// (nobody loses on time while the bot could not tell them).
    pub async fn delivery_failed(
        &self,
        delivery: &Delivery,
        failure: &DeliveryFailure,
    ) -> Result<()> {
        if let (DeliveryFailure::Permanent { reason }, Recipient::Channel(_), Some(id)) =
            (failure, delivery.to, delivery.match_id)
        {
            let reminded = match delivery.settled() {
                Settled::WhileTurn {
                    turn_started_at, ..
                } => Some(turn_started_at),
                _ => None,
            };
            self.matches
                .notice_refused(id, delivery.to, reason, reminded)
                .await?;
        }
        self.outbox.delivery_failed(delivery, failure).await
    }

    /// A channel or thread was deleted: its matches' clocks stop until a player resumes them.
    pub async fn channel_gone(&self, channel: ChannelId) -> Result<usize> {
        self.tournaments
            .tournaments_lost(None, Some(channel), "its channel was deleted")
            .await?;
        self.matches
            .pause_in(None, Some(channel), "its channel was deleted")
            .await
    }

    /// A match's thread was locked: the bot cannot post in it, so its clock stops.
    pub async fn thread_locked(&self, channel: ChannelId) -> Result<usize> {
        self.matches
            .pause_in(None, Some(channel), "its thread was locked")
            .await
    }

    /// The bot can no longer see a match's channel (its permissions there were taken away).
    pub async fn channel_hidden(&self, channel: ChannelId) -> Result<usize> {
        self.matches
            .pause_in(None, Some(channel), "the bot can no longer see its channel")
            .await
    }

    /// A match's thread was archived. With a match in play in it, the outbox opens it again
    /// (`Event::ThreadArchived`), unless a moderator closed it twice: archived again within ten minutes of the
    /// bot reopening it (see [`CLOSED_AGAIN_WITHIN`]), it stays closed, its match is paused
    /// and its players are told in `parent`, where either can carry it on. The bot's own
    /// archive (a match began in the thread as its close went out) is undone without
    /// counting against anyone.
    pub async fn thread_archived(
        &self,
        guild: GuildId,
        thread: ChannelId,
        parent: Option<ChannelId>,
    ) -> Result<ArchivedThread> {
        let Some(m) = self.store.active_match_in(thread).await? else {
            return Ok(ArchivedThread::NoMatch);
        };
        let now = self.clock.now();
        let marks = self.store.thread_marks(thread).await?;
        let within = |at: Option<DateTime<Utc>>, window| at.is_some_and(|at| now - at < window);
        let own = within(marks.archived_at, ARCHIVED_LATELY);
        if !own && within(marks.reopened_at, CLOSED_AGAIN_WITHIN) {
            self.matches
                .pause_closed_thread(guild, thread, parent)
                .await?;
            return Ok(ArchivedThread::LeftClosed);
        }
        // Noted before the outbox reopens it (and kept across restarts), so an archive that
        // races the reopening already counts as the second.
        if let Err(e) = self.store.thread_reopened(thread, now, !own).await {
            tracing::warn!(error = %e, %thread, "could not note that the bot reopens a thread");
        }
        // Reopened through the outbox, in order with the thread's notices and tried again
        // after Discord's passing trouble; a locked or deleted thread pauses the match there.
        let mut tx = self.store.begin().await?;
        let to = (guild, Recipient::Channel(thread));
        let reopen = Event::ThreadArchived { match_id: m.id };
        queue_effect(&mut tx, to, (Some(m.id), reopen), now).await?;
        tx.commit().await?;
        self.outbox.signal().notify_waiters();
        Ok(ArchivedThread::Reopen)
    }

    /// Whether `hint` is given in `channel` for the first time; it counts as given from now on.
    pub async fn first_hint(&self, channel: ChannelId, hint: &str) -> Result<bool> {
        Ok(self
            .store
            .first_hint(channel, hint, self.clock.now())
            .await?)
    }

    /// The channels of the matches in play on `guild`, to check when the bot (re)connects.
    pub async fn match_channels_in(&self, guild: GuildId) -> Result<Vec<ChannelId>> {
        Ok(self.store.active_match_channels(guild).await?)
    }

    /// The bot was removed from a server: its matches' clocks stop.
    pub async fn guild_gone(&self, guild: GuildId) -> Result<usize> {
        self.tournaments
            .tournaments_lost(Some(guild), None, "the bot was removed from its server")
            .await?;
        self.matches
            .pause_in(Some(guild), None, "the bot was removed from its server")
            .await
    }
}

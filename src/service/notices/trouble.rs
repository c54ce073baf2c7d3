//! Matches the bot can no longer reach: their channel was deleted, the bot lost access or was
//! removed from the server, or Discord refused a notice for good. The clock of such a match
//! stands still (nobody can be decided against on time unheard), both players see why in
//! `/thud games` from anywhere, and either of them can carry the match on in another channel
//! or stop it, unrated.

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use tokio::sync::Notify;

use crate::render::Renderer;
use crate::service::error::{refuse, Result};
use crate::service::events::Event;
use crate::service::flow::progress::seat_of;
use crate::service::notices::delivery::{queue_events, Notice};
use crate::service::outcome::Reply;
use crate::service::pictures::start_drawing;
use crate::service::pictures::{attach_after_commit, board_to_show};
use crate::service::refusal::Refusal;
use crate::service::tournaments::games::record_game_result;
use crate::service::tournaments::Tournaments;
use crate::service::voice::{self, Reader};
use crate::service::{names_in, Actor, Clock, Place};
use crate::store::{ChannelId, Conflict, Finish, GuildId, MatchId, Recipient, StoreError};
use crate::store::{Settings, Store};

/// A thread archived again this soon after the bot reopened it was closed by a person; an
/// archive this soon after the bot's own is the bot's.
const REOPENED_LATELY: Duration = Duration::hours(1);

/// What becomes of a match's thread that was archived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchivedThread {
    /// No match is in play in it: it is left as it is.
    NoMatch,
    /// The front-end opens it again.
    Reopen,
    /// A moderator closed it twice: it stays closed, and its match is paused.
    LeftClosed,
}

/// What becomes of matches (and tournaments) in channels the bot can no longer reach.
pub struct Channels {
    store: Store,
    clock: Arc<dyn Clock>,
    renderer: Arc<Renderer>,
    outbox_signal: Arc<Notify>,
    tournaments: Arc<Tournaments>,
}

impl Channels {
    pub(crate) fn new(
        store: Store,
        clock: Arc<dyn Clock>,
        renderer: Arc<Renderer>,
        outbox_signal: Arc<Notify>,
        tournaments: Arc<Tournaments>,
    ) -> Channels {
        Channels {
            store,
            clock,
            renderer,
            outbox_signal,
            tournaments,
        }
    }

    /// A channel or thread was deleted: its matches' clocks stop until a player resumes them.
    pub async fn channel_gone(&self, channel: ChannelId) -> Result<usize> {
        self.tournaments
            .tournaments_lost(None, Some(channel), "its channel was deleted")
            .await?;
        self.pause_matches(None, Some(channel), "its channel was deleted")
            .await
    }

    /// A match's thread was locked: the bot cannot post in it, so its clock stops.
    pub async fn thread_locked(&self, channel: ChannelId) -> Result<usize> {
        self.pause_matches(None, Some(channel), "its thread was locked")
            .await
    }

    /// The bot can no longer see a match's channel (its permissions there were taken away).
    pub async fn channel_hidden(&self, channel: ChannelId) -> Result<usize> {
        self.pause_matches(None, Some(channel), "the bot can no longer see its channel")
            .await
    }

    /// A match's thread was archived. With a match in play in it, the front-end opens it
    /// again, unless a moderator closed it twice: archived again within
    /// an hour of the bot reopening it (Discord archives only after days without
    /// activity, and reopening is activity), it stays closed and its match is paused
    /// ([`Channels::thread_closed`]). The bot's own archive (a match began in the thread as
    /// its close went out) is undone without counting against anyone.
    pub async fn thread_archived(
        &self,
        guild: GuildId,
        thread: ChannelId,
        parent: Option<ChannelId>,
    ) -> Result<ArchivedThread> {
        if self.store.active_match_in(thread).await?.is_none() {
            return Ok(ArchivedThread::NoMatch);
        }
        let now = self.clock.now();
        let marks = self.store.thread_marks(thread).await?;
        let lately = |at: Option<DateTime<Utc>>| at.is_some_and(|at| now - at < REOPENED_LATELY);
        let own = lately(marks.archived_at);
        if !own && lately(marks.reopened_at) {
            self.thread_closed(guild, thread, parent).await?;
            return Ok(ArchivedThread::LeftClosed);
        }
        // Noted before the front-end reopens it (and kept across restarts), so an archive that
        // races the reopening already counts as the second.
        if let Err(e) = self.store.thread_reopened(thread, now, !own).await {
            tracing::warn!(error = %e, %thread, "could not note that the bot reopens a thread");
        }
        Ok(ArchivedThread::Reopen)
    }

    /// Whether `hint` is given in `channel` for the first time; it counts as given from now on.
    pub async fn first_hint(&self, channel: ChannelId, hint: &str) -> Result<bool> {
        Ok(self
            .store
            .first_hint(channel, hint, self.clock.now())
            .await?)
    }

    /// A moderator archived a match's thread again soon after the bot had reopened it: the
    /// bot leaves it closed, the match's clock stops, and its players are told in `parent`
    /// (the channel the thread belongs to), where either of them can carry it on.
    pub async fn thread_closed(
        &self,
        guild: GuildId,
        thread: ChannelId,
        parent: Option<ChannelId>,
    ) -> Result<usize> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let ids = tx.lock_matches_in(None, Some(thread)).await?;
        for &id in &ids {
            tx.pause_clock(id, "a moderator closed its thread", now)
                .await?;
            let (Some(parent), Some(m)) = (parent, tx.lock_match(id).await?) else {
                continue;
            };
            let paused = Event::ThreadClosedAgain {
                match_id: id,
                thread,
                players: m.players,
            };
            // Both players are pinged, the computer aside: either may carry it on.
            let people = m
                .players
                .into_iter()
                .filter(|p| m.computer.is_none_or(|c| c.player != *p));
            let mut notice = Notice::new(vec![paused], None);
            notice.ping.extend(people);
            queue_events(
                &mut tx,
                (guild, Recipient::Channel(parent)),
                Some(id),
                &notice,
                now,
            )
            .await?;
        }
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        Ok(ids.len())
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
        self.pause_matches(Some(guild), None, "the bot was removed from its server")
            .await
    }

    async fn pause_matches(
        &self,
        guild: Option<GuildId>,
        channel: Option<ChannelId>,
        reason: &str,
    ) -> Result<usize> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let ids = tx.lock_matches_in(guild, channel).await?;
        for &id in &ids {
            tx.pause_clock(id, reason, now).await?;
        }
        tx.commit().await?;
        Ok(ids.len())
    }

    /// A player carries a troubled match on at `place`: the match moves here if it was played
    /// elsewhere, and its clock runs again with the time it stood still added.
    pub async fn resume(&self, place: Place, actor: &Actor, id: MatchId) -> Result<Reply> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let Some(mut m) = tx.lock_match(id).await? else {
            return refuse(Refusal::NoSuchMatch);
        };
        seat_of(&m, actor)?;
        if m.state != crate::store::MatchState::Active || m.trouble.is_none() {
            return refuse(Refusal::NeedsNoResuming(id));
        }
        if m.channel != place.channel {
            match tx.move_match(id, place.channel).await {
                Ok(()) => {}
                Err(StoreError::Conflict(Conflict::ChannelBusy)) => {
                    return refuse(Refusal::ResumeChannelBusy)
                }
                Err(e) => return Err(e.into()),
            }
            m.guild = place.guild;
            m.channel = place.channel;
        }
        tx.resume_clock(id, now).await?;
        let clock = tx.lock_match(id).await?.and_then(|m| m.clock);
        let names = names_in(&mut tx, &m).await?;
        let index = m.game.battles().len() - 1;
        let drawing = start_drawing(
            &self.renderer,
            board_to_show(&m, &names, index, &Settings::default()),
        );
        tx.commit().await?;
        let resumed = Event::Resumed {
            match_id: id,
            by: actor.id,
            channel: place.channel,
            to_move: clock.map(|c| (c.player, c.deadline)),
        };
        let mut reply = voice::reply(&[resumed], &names, &Reader::Channel);
        if let Some(c) = clock {
            reply = reply.mention(c.player);
        }
        reply.spend_buttons = true;
        Ok(attach_after_commit(drawing, reply.saved()).await)
    }

    /// A player stops a troubled match: it is recorded, unrated, as aborted by them.
    pub async fn abort_unreachable(&self, actor: &Actor, id: MatchId) -> Result<Reply> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let Some(m) = tx.lock_match(id).await? else {
            return refuse(Refusal::NoSuchMatch);
        };
        seat_of(&m, actor)?;
        if m.state != crate::store::MatchState::Active || m.trouble.is_none() {
            return refuse(Refusal::StopOnlyUnreachable(id));
        }
        tx.finish_match(id, Finish::Aborted, None, None, Some(actor.id), now)
            .await?;
        crate::service::notices::delivery::queue_match_over(&mut tx, &m, now).await?;
        record_game_result(&mut tx, id).await?;
        tx.commit().await?;
        let mut reply = Reply::private(voice::stopped_unreachable(id));
        reply.spend_buttons = true;
        Ok(reply.saved())
    }
}

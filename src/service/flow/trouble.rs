//! A match the bot can no longer reach (see `watch/trouble.rs` for when): its clock stands
//! still (nobody can be decided against on time unheard), and either player can carry it on
//! in another channel or stop it, unrated.

use chrono::{DateTime, Utc};

use crate::service::error::{refuse, Result};
use crate::service::events::Event;
use crate::service::flow::progress::seat_of;
use crate::service::flow::tournament_game::record_game_result;
use crate::service::flow::Matches;
use crate::service::notices::delivery::{queue_events, Notice};
use crate::service::outcome::Reply;
use crate::service::pictures::start_drawing;
use crate::service::pictures::{attach_after_commit, board_to_show};
use crate::service::refusal::Refusal;
use crate::service::voice::{self, Reader};
use crate::service::{names_in, Actor, Place};
use crate::store::{
    ChannelId, Conflict, GuildId, MatchId, MatchState, Recipient, Settings, StoreError,
};

impl Matches {
    /// The matches in play on `guild` or in `channel` are paused for `reason`: their clocks
    /// stand still until a player resumes them.
    pub(in crate::service) async fn pause_in(
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

    /// Discord refused for good a notice of `match_id` sent to `to`: its clock stands still
    /// until a player acts, and a reminder that never arrived (`reminded`, the turn it was
    /// for) is sent again once the clock runs.
    pub(in crate::service) async fn notice_refused(
        &self,
        match_id: MatchId,
        to: Recipient,
        reason: &str,
        reminded: Option<DateTime<Utc>>,
    ) -> Result<()> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        if let Some(m) = tx.lock_match(match_id).await? {
            // A match resumed in another channel since is not held back by a notice left
            // behind in its old one.
            if m.state == MatchState::Active && Recipient::Channel(m.channel) == to {
                tx.pause_clock(match_id, reason, now).await?;
                if let Some(turn_started_at) = reminded {
                    tx.forget_reminder(match_id, turn_started_at).await?;
                }
            }
        }
        tx.commit().await?;
        Ok(())
    }

    /// The match in `thread`, which a moderator closed twice, is paused: its clock stops and
    /// its players are told in `parent` (the channel the thread belongs to), where either of
    /// them can carry it on.
    pub(in crate::service) async fn pause_closed_thread(
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
        let mut tx = self.store.begin().await?;
        let Some(m) = tx.lock_match(id).await? else {
            return refuse(Refusal::NoSuchMatch);
        };
        seat_of(&m, actor)?;
        if m.state != crate::store::MatchState::Active || m.trouble.is_none() {
            return refuse(Refusal::StopOnlyUnreachable(id));
        }
        self.stop_in(&mut tx, &m, Some(actor.id), None).await?;
        record_game_result(&mut tx, id).await?;
        tx.commit().await?;
        let mut reply = Reply::private(voice::stopped_unreachable(id));
        reply.spend_buttons = true;
        Ok(reply.saved())
    }
}

//! The threads the bot opened for matches: closed (archived) once nothing lives in them, and
//! the bot's own archive remembered so that it is never taken for a moderator's.

use super::Outbox;
use crate::service::error::Result;
use crate::service::events::Event;
use crate::service::notices::delivery::{queue_events, Notice};
use crate::store::{GuildId, MatchId, Recipient};

impl Outbox {
    /// Queues the close of `thread` (after the usual delay) if the bot opened it for a match
    /// and nothing lives in it any more: called when something that kept it open ends.
    pub(in crate::service) async fn close_thread_if_idle(
        &self,
        match_id: MatchId,
        guild: GuildId,
        thread: crate::store::ChannelId,
    ) -> Result<()> {
        let mut tx = self.store.begin().await?;
        if !tx.is_match_thread(thread).await? || self.store.thread_in_use(thread).await? {
            return Ok(());
        }
        let notice = Notice::new(vec![Event::ThreadDone { match_id }], None);
        let to = (guild, Recipient::Channel(thread));
        queue_events(&mut tx, to, Some(match_id), &notice, self.clock.now()).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        Ok(())
    }

    /// Whether anything lives in `thread` (a match in play, a rematch asked for, an analysis
    /// being shown), so that it must stay open.
    pub async fn thread_in_use(&self, thread: crate::store::ChannelId) -> Result<bool> {
        Ok(self.store.thread_in_use(thread).await?)
    }

    /// The bot is about to archive `thread` itself: remembered, so that the archive is not
    /// taken for a moderator's when a match in it (one that began in a race) reopens it.
    pub async fn closing_thread(&self, thread: crate::store::ChannelId) -> Result<()> {
        Ok(self
            .store
            .thread_archived_by_bot(thread, self.clock.now())
            .await?)
    }
}

//! Showing an analysis where it was asked for, through the outbox like every other write to
//! Discord: a showing (`Event::AnalysisChanged`) is queued when the analysis is asked for, as
//! its positions are judged (one every few seconds at most) and when it is finished; the
//! front-end delivers it as the analysis stands then (posting the progress message, editing
//! its count, or the report), under the outbox's lease, nonces and retries.

use std::time::{Duration, Instant};

use super::Analysis;
use crate::service::error::Result;
use crate::service::events::Event;
use crate::service::notices::delivery::queue_effect;
use crate::store::{ChannelId, GuildId, MatchId, Recipient, Tx};

/// How often a showing of an analysis's progress is queued at most (Discord allows 5 edits
/// in 5 seconds).
const PROGRESS_EVERY: Duration = Duration::from_secs(3);

impl Analysis {
    /// Queues a showing of match `id`'s analysis where its progress is shown (nowhere yet:
    /// nothing to do), unless one is queued already. One of its count only (`progress`) is
    /// queued once every few seconds at most from this process (Discord allows 5 edits in 5
    /// seconds); the request's always is.
    pub(super) async fn queue_showing(&self, id: MatchId, progress: bool) -> Result<()> {
        if progress {
            let mut last = self
                .progress_queued
                .lock()
                .unwrap_or_else(|p| p.into_inner());
            if last
                .get(&id)
                .is_some_and(|at| at.elapsed() < PROGRESS_EVERY)
            {
                return Ok(());
            }
            last.insert(id, Instant::now());
        }
        let mut tx = self.store.begin().await?;
        self.show_in(&mut tx, id).await?;
        tx.commit().await?;
        self.outbox.signal().notify_waiters();
        Ok(())
    }

    /// Queues, in `tx`, a showing of match `id`'s analysis where its progress is shown.
    async fn show_in(&self, tx: &mut Tx, id: MatchId) -> Result<()> {
        let Some((guild, channel)) = self.shown_where(id).await? else {
            return Ok(());
        };
        let to = (guild, Recipient::Channel(channel));
        let event = Event::AnalysisChanged { match_id: id };
        // For a finished match: nothing to pause should Discord refuse it.
        queue_effect(tx, to, (None, event), self.clock.now()).await
    }

    /// Every position of match `id` is judged: the analysis is finished, and its report is
    /// queued for showing in the same transaction.
    pub(super) async fn finished(&self, id: MatchId) -> Result<()> {
        let mut tx = self.store.begin().await?;
        tx.finish_analysis(id, self.clock.now()).await?;
        self.show_in(&mut tx, id).await?;
        tx.commit().await?;
        self.progress_queued
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&id);
        self.outbox.signal().notify_waiters();
        Ok(())
    }

    /// Message `message` in `channel` now shows the progress of match `id`'s analysis.
    pub async fn shown_in(&self, id: MatchId, channel: ChannelId, message: u64) -> Result<()> {
        self.store
            .set_analysis_message(id, channel, message)
            .await?;
        Ok(())
    }

    /// The progress message of match `id`'s analysis now says `judged` positions.
    pub async fn progress_shown(&self, id: MatchId, judged: u32) -> Result<()> {
        Ok(self.store.analysis_shown(id, judged).await?)
    }

    /// The progress message `message` of match `id`'s analysis is gone (deleted): the next
    /// showing posts another, or the report.
    pub async fn progress_lost(&self, id: MatchId, message: u64) -> Result<()> {
        Ok(self.store.forget_analysis_message(id, message).await?)
    }

    /// The report of match `id`'s analysis is shown: the thread it was shown in is closed if
    /// the bot opened it for a match and nothing else lives in it.
    pub async fn reported(&self, id: MatchId) -> Result<()> {
        self.store.analysis_reported(id, self.clock.now()).await?;
        self.release_thread(id).await
    }

    /// Showing match `id`'s analysis failed for good (`reason`, as Discord said it): it is not
    /// tried again, `/thud analysis` still answers with the report, and the thread it was
    /// shown in no longer waits for it.
    pub async fn gave_up(&self, id: MatchId, reason: &str) -> Result<()> {
        tracing::warn!(match_id = %id, %reason, "an analysis cannot be shown where it was asked for");
        self.store
            .analysis_show_failed(id, reason, self.clock.now())
            .await?;
        self.release_thread(id).await
    }

    async fn release_thread(&self, id: MatchId) -> Result<()> {
        match self.shown_where(id).await? {
            Some((guild, channel)) => self.outbox.close_thread_if_idle(id, guild, channel).await,
            None => Ok(()),
        }
    }

    /// The server and channel match `id`'s analysis is shown in (`None`: nowhere yet).
    async fn shown_where(&self, id: MatchId) -> Result<Option<(GuildId, ChannelId)>> {
        let Some(channel) = self
            .store
            .analysis_status(id)
            .await?
            .and_then(|s| s.channel)
        else {
            return Ok(None);
        };
        Ok(self.store.load_match(id).await?.map(|m| (m.guild, channel)))
    }
}

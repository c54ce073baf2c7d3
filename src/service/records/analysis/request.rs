//! Asking for a match's analysis, and where it stands.

use super::Analysis;
use crate::service::error::{refuse, Result};
use crate::service::outcome::Reply;
use crate::service::records::replays::match_for_record;
use crate::service::refusal::Refusal;
use crate::service::voice::analysis_under_way;
use crate::service::Place;
use crate::store::{AnalysisStatus, ChannelId, GuildId, MatchId, MatchState, StoredMatch};

/// The answer to a request for an analysis.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisAnswer {
    /// The analysis is finished: its report.
    Report(Reply),
    /// The analysis is under way. `reply` says so; when no message shows its progress yet,
    /// `show_progress` asks the front-end to post one (and tell the service where).
    UnderWay {
        reply: Reply,
        match_id: MatchId,
        status: AnalysisStatus,
        show_progress: bool,
    },
}

impl Analysis {
    /// Where the analysis of match `id` stands (`None`: nobody asked for it).
    pub async fn status(&self, id: MatchId) -> Result<Option<AnalysisStatus>> {
        Ok(self.store.analysis_status(id).await?)
    }

    /// The server match `id` was played in (`None`: no such match), where its report goes.
    pub async fn guild_of(&self, id: MatchId) -> Result<Option<GuildId>> {
        Ok(self.store.load_match(id).await?.map(|m| m.guild))
    }

    /// The analysis of match `id` (the latest in this channel by default): its report when
    /// finished, else where it stands, asking for it first if nobody had.
    pub async fn ask(&self, place: Place, id: Option<MatchId>) -> Result<AnalysisAnswer> {
        let m = match_for_record(&self.store, place, id).await?;
        if m.state == MatchState::Active {
            return refuse(Refusal::AnalysisDuringPlay(m.id));
        }
        let positions = positions_of(&m);
        if positions == 0 {
            return refuse(Refusal::NothingToAnalyse(m.id));
        }
        let status = self
            .store
            .request_analysis(
                m.id,
                positions,
                self.analysis_budget.nodes,
                self.clock.now(),
            )
            .await?;
        if status.finished_at.is_some() {
            return Ok(AnalysisAnswer::Report(self.analysis_report(&m).await?));
        }
        self.analysis_signal.notify_one();
        let show_progress = status.progress.is_none();
        let text = analysis_under_way(&status, !show_progress);
        Ok(AnalysisAnswer::UnderWay {
            reply: Reply::private(text),
            match_id: m.id,
            status,
            show_progress,
        })
    }

    /// The message `message` in `channel` shows the progress of match `id`'s analysis; false
    /// when another message already does (this one may then be left as it is).
    pub async fn shown_in(&self, id: MatchId, channel: ChannelId, message: u64) -> Result<bool> {
        Ok(self
            .store
            .set_analysis_message(id, channel, message)
            .await?)
    }
}

/// Positions to judge: every position of every battle that has moves.
pub(super) fn positions_of(m: &StoredMatch) -> u32 {
    m.game
        .battles()
        .iter()
        .filter(|b| !b.moves().is_empty())
        .map(|b| b.moves().len() as u32 + 1)
        .sum()
}

impl Analysis {
    /// The analyses whose progress message has something new to show and may be edited now.
    pub async fn to_show(&self) -> Result<Vec<AnalysisStatus>> {
        Ok(self.store.analyses_to_show(self.clock.now()).await?)
    }

    /// Claims the posting of match `id`'s progress message in `channel`: false when another
    /// request (a second press at the same moment) posts it.
    pub async fn claim_progress(&self, id: MatchId, channel: ChannelId) -> Result<bool> {
        Ok(self.store.claim_progress(id, channel).await?)
    }

    /// The progress message could not be posted: a later request may.
    pub async fn release_progress(&self, id: MatchId) -> Result<()> {
        Ok(self.store.release_progress(id).await?)
    }

    /// Showing match `id`'s analysis failed: tried again after a growing pause (or Discord's
    /// `retry_after`) when Discord may take it later, else given up for good with its reason;
    /// `/thud analysis` still answers with the report. The thread it was shown in then no
    /// longer waits for it.
    pub async fn show_failed(
        &self,
        id: MatchId,
        failure: &crate::service::DeliveryFailure,
    ) -> Result<()> {
        let now = self.clock.now();
        match failure {
            crate::service::DeliveryFailure::Transient {
                reason,
                retry_after,
            } => {
                let attempts = self.store.analysis_show_attempts(id).await? + 1;
                let wait =
                    crate::service::notices::delivery::pause_before_retry(attempts, *retry_after);
                self.store
                    .analysis_show_later(id, now + wait, reason)
                    .await?;
            }
            crate::service::DeliveryFailure::Permanent { reason } => {
                tracing::warn!(match_id = %id, %reason, "an analysis cannot be shown where it was asked for");
                self.store.analysis_show_failed(id, reason, now).await?;
                self.reported(id).await?;
            }
        }
        Ok(())
    }

    /// The progress message of match `id`'s analysis now says `judged` positions.
    pub async fn progress_shown(&self, id: MatchId, judged: u32) -> Result<()> {
        Ok(self.store.analysis_shown(id, judged).await?)
    }

    /// Claims the showing of match `id`'s finished report: true for exactly one caller.
    pub async fn claim_report(&self, id: MatchId) -> Result<bool> {
        Ok(self.store.claim_report(id, self.clock.now()).await?)
    }

    /// The report of match `id`'s analysis is shown: the thread it was shown in is closed if
    /// the bot opened it for a match and nothing else lives in it.
    pub async fn reported(&self, id: MatchId) -> Result<()> {
        let Some((channel, _)) = self
            .store
            .analysis_status(id)
            .await?
            .and_then(|s| s.progress)
        else {
            return Ok(());
        };
        let Some(m) = self.store.load_match(id).await? else {
            return Ok(());
        };
        self.outbox.close_thread_if_idle(id, m.guild, channel).await
    }

    /// The report could not be shown: a later round tries again.
    pub async fn unclaim_report(&self, id: MatchId) -> Result<()> {
        Ok(self.store.unclaim_report(id).await?)
    }
}

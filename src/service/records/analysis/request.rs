//! Asking for a match's analysis, and where it stands.

use super::Analysis;
use crate::service::error::{refuse, Result};
use crate::service::outcome::Reply;
use crate::service::records::replays::match_for_record;
use crate::service::refusal::Refusal;
use crate::service::voice::analysis_under_way;
use crate::service::Place;
use crate::store::{AnalysisStatus, GuildId, MatchId, MatchState, StoredMatch};

/// The answer to a request for an analysis.
#[derive(Clone, Debug, PartialEq)]
pub enum AnalysisAnswer {
    /// The analysis is finished: its report.
    Report(Reply),
    /// The analysis is under way: `reply` says so, and a message in the channel it was first
    /// asked in shows its progress (the outbox posts it) until the report replaces it.
    UnderWay {
        reply: Reply,
        match_id: MatchId,
        status: AnalysisStatus,
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
        // Shown where it was first asked for.
        let shown_already = status.channel.is_some();
        if !shown_already {
            self.store.claim_progress(m.id, place.channel).await?;
        }
        self.queue_showing(m.id, false).await?;
        let text = analysis_under_way(&status, shown_already);
        Ok(AnalysisAnswer::UnderWay {
            reply: Reply::private(text),
            match_id: m.id,
            status,
        })
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

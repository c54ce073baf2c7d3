//! `AnalysisCommands`: the front-ends' door to analyses.

use super::*;

/// Analyses of finished matches as the front-ends ask for them and show them.
// Implemented by `Service` alone and called on it, so whether a future is `Send` is known
// where it is called.
#[allow(async_fn_in_trait)]
pub trait AnalysisCommands {
    /// The concern that does the work.
    #[doc(hidden)]
    fn concern(&self) -> &Analysis;

    delegate! {
        to self.concern() {
            /// The report of match `id`'s finished analysis.
            async fn analysis_report_of(&self, id: MatchId) -> Result<Reply>;
            /// The analysis of match `id` (the latest in this channel by default): its report when
            /// finished, else where it stands, asking for it first if nobody had.
            async fn analysis(&self, place: Place, id: Option<MatchId>) -> Result<AnalysisAnswer>;
            /// The message `message` in `channel` shows the progress of match `id`'s analysis; false
            /// when another message already does (this one may then be left as it is).
            async fn analysis_shown_in(&self, id: MatchId, channel: ChannelId, message: u64) -> Result<bool>;
            /// The analyses whose progress message has something new to show and may be edited now.
            async fn analyses_to_show(&self) -> Result<Vec<AnalysisStatus>>;
            /// Claims the posting of match `id`'s progress message in `channel`: false when another
            /// request (a second press at the same moment) posts it.
            async fn claim_analysis_progress(&self, id: MatchId, channel: ChannelId) -> Result<bool>;
            /// The progress message could not be posted: a later request may.
            async fn release_analysis_progress(&self, id: MatchId) -> Result<()>;
            /// Showing match `id`'s analysis failed: tried again after a growing pause (or Discord's
            /// `retry_after`) when Discord may take it later, else given up for good with its reason;
            /// `/thud analysis` still answers with the report. The thread it was shown in then no
            /// longer waits for it.
            async fn analysis_show_failed(&self, id: MatchId, failure: &crate::service::DeliveryFailure) -> Result<()>;
            /// The progress message of match `id`'s analysis now says `judged` positions.
            async fn analysis_progress_shown(&self, id: MatchId, judged: u32) -> Result<()>;
            /// Claims the showing of match `id`'s finished report: true for exactly one caller.
            async fn claim_analysis_report(&self, id: MatchId) -> Result<bool>;
            /// The report of match `id`'s analysis is shown: the thread it was shown in is closed if
            /// the bot opened it for a match and nothing else lives in it.
            async fn analysis_reported(&self, id: MatchId) -> Result<()>;
            /// The report could not be shown: a later round tries again.
            async fn unclaim_analysis_report(&self, id: MatchId) -> Result<()>;
            /// Judges up to `max` positions (or, once all are judged, gives that many suspected moves
            /// the deeper look) of the longest-waiting analysis no process holds; returns how many
            /// (0 when nothing waits).
            async fn analyse_some(&self, max: usize) -> Result<usize>;
        }
    }
}

impl AnalysisCommands for Service {
    fn concern(&self) -> &Analysis {
        &self.analysis
    }
}

//! Analysis of finished matches: a player asks for it, the engine judges every position of
//! both battles in the background, and the report shows where the match turned.
//!
//! - `request`: asking for an analysis (refused while the match is in play, so nobody can
//!   consult the engine during a match) and where it stands.
//! - `work`: the worker's rounds: claim an analysis through the store (never two processes on
//!   one match), judge its positions one at a time on a blocking thread under the computer's
//!   search permit (one core at most), save each judgement at once (a restart resumes there).
//! - `showing`: the analysis shown where it was asked for, through the outbox: its progress
//!   message, its count as it goes, then the report.
//! - `report`: the finished report: the evaluation graph, each player's largest mistakes with
//!   the better move, and a line per player and battle, all as text too.

mod report;
mod request;
mod showing;
mod work;

pub use request::AnalysisAnswer;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::Notify;

use crate::computer::analysis::{raw_of, Budget, Judgement, Suspicion};
use crate::game::{Move, Position};
use crate::service::clock::Clock;
use crate::service::notices::Outbox;
use crate::service::thinking::Thinking;
use crate::store::{MatchId, Store, StoredJudgement};

/// Analyses of finished matches: asked for, judged position by position under the
/// computer's search places, shown as they progress and reported when done.
#[derive(Clone)]
pub struct Analysis {
    store: Store,
    clock: Arc<dyn Clock>,
    outbox: Arc<Outbox>,
    thinking: Thinking,
    analysis_signal: Arc<Notify>,
    /// How hard an analysis looks at each position.
    analysis_budget: Budget,
    /// When this process last queued a showing of each unfinished analysis's count.
    progress_queued: Arc<Mutex<HashMap<MatchId, std::time::Instant>>>,
}

impl Analysis {
    pub(crate) fn new(
        store: Store,
        clock: Arc<dyn Clock>,
        outbox: Arc<Outbox>,
        thinking: Thinking,
        analysis_signal: Arc<Notify>,
        analysis_budget: Budget,
    ) -> Analysis {
        Analysis {
            store,
            clock,
            outbox,
            thinking,
            analysis_signal,
            analysis_budget,
            progress_queued: Arc::default(),
        }
    }

    /// The same analysis judging each position under `budget`.
    pub(crate) fn with_budget(&self, budget: Budget) -> Analysis {
        let mut analysis = self.clone();
        analysis.analysis_budget = budget;
        analysis
    }
}

/// The `stored` judgement of `position` as the analysis reads it back: its best move found
/// among the position's legal moves, and a position not judged (none once finished) level.
fn judgement_of(position: &Position, stored: Option<&StoredJudgement>) -> Judgement {
    let best = stored.and_then(|j| j.best.as_deref()).and_then(|text| {
        position
            .legal_moves()
            .into_iter()
            .find(|mv: &Move| mv.to_string() == text)
    });
    let score = stored.map_or(0, |j| j.score);
    Judgement {
        score,
        raw: stored
            .and_then(|j| j.raw)
            .unwrap_or_else(|| raw_of(position, score)),
        best,
        depth: stored.map_or(0, |j| j.depth),
        nodes: 0,
        suspicion: stored.and_then(|j| {
            j.suspected.map(|loss| Suspicion {
                loss,
                checked: j.checked,
            })
        }),
    }
}

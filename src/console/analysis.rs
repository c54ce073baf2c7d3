//! The console's analysis: `analysis [match:<id>]` and the Analyse button. The console is its
//! own analysis worker: it judges the match where it is asked, telling how far it got every
//! few seconds, then prints the report and writes the graph.

use std::io::Write;

use super::{refused, Console, Line};
use crate::service::{progress_text, Action, Actor, AnalysisAnswer, Place, Reply, ServiceError};
use crate::store::MatchId;

/// How often the console tells how far an analysis has got.
const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_secs(3);

impl Console<'_> {
    /// The match whose analysis the line asks for (`analysis [match:<id>]`, or the Analyse
    /// button); `None` for any other line.
    pub(super) fn analysis_wanted(
        &self,
        line: &Line,
        place: Place,
        actor: &Actor,
    ) -> Option<Result<Option<MatchId>, ServiceError>> {
        match line.subcommand.as_str() {
            "analysis" => Some(match line.get("match") {
                None => Ok(None),
                Some(v) => v
                    .trim()
                    .trim_start_matches('#')
                    .parse()
                    .map(|n| Some(MatchId(n)))
                    .map_err(|_| {
                        refused(format!(
                            "match: `{}` is not a number",
                            crate::service::echo(v)
                        ))
                    }),
            }),
            "press" => {
                let label = line.get("button").unwrap_or_default();
                match self.button(place, actor, label)?.action {
                    Action::Analyse(id) => Some(Ok(Some(id))),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Shows a match's analysis. The console is its own analysis worker: when the analysis
    /// is still to be made, it judges the positions here, telling how far it got every few
    /// seconds, and then prints the report.
    pub(super) async fn analyse(
        &mut self,
        place: Place,
        actor: &Actor,
        id: Option<MatchId>,
        out: &mut impl Write,
    ) -> std::io::Result<Result<Reply, ServiceError>> {
        let s = self.service;
        let id = match s.analysis().ask(place, id).await {
            Ok(AnalysisAnswer::Report(reply)) => return Ok(Ok(reply)),
            Ok(AnalysisAnswer::UnderWay {
                reply, match_id, ..
            }) => {
                self.print(place, Some(actor), &reply, out).await?;
                match_id
            }
            Err(e) => return Ok(Err(e)),
        };
        let mut told = std::time::Instant::now();
        loop {
            let status = match s.analysis().status(id).await {
                Ok(Some(status)) => status,
                Ok(None) => break,
                Err(e) => return Ok(Err(e)),
            };
            if status.finished_at.is_some() {
                break;
            }
            if told.elapsed() >= PROGRESS_EVERY {
                let now = s.now();
                writeln!(out, "thudbot: {}", progress_text(&status).to_plain(now))?;
                told = std::time::Instant::now();
            }
            match s.analysis().analyse_some(5).await {
                // Another process holds it, or another analysis came first and is done.
                Ok(0) => tokio::time::sleep(std::time::Duration::from_millis(200)).await,
                Ok(_) => {}
                Err(e) => return Ok(Err(e)),
            }
        }
        let report = s.analysis().ask(place, Some(id)).await;
        // Printed here, where it was asked for: nothing else is to show it.
        if let Err(e) = s.analysis().reported(id).await {
            return Ok(Err(e));
        }
        Ok(report.map(|answer| match answer {
            AnalysisAnswer::Report(reply) | AnalysisAnswer::UnderWay { reply, .. } => reply,
        }))
    }
}

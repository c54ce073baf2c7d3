//! `/thud analysis` and the Analyse button, and the two workers behind them: one judges the
//! positions of analyses asked for (one search at a time, under the computer's permit), the
//! other keeps each analysis's progress message up to date and finally turns it into the
//! report with its graph.
//!
//! The progress is a message of the bot's own in the channel rather than the answer to the
//! command: an interaction's answer can only be edited for 15 minutes, while an analysis
//! queued behind others may take longer; and its id is stored, so a restarted process goes on
//! editing it.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tokio::sync::watch;

use super::{answer, place, post, Context, Data, Error};
use crate::service::{progress_text, AnalysisAnswer, Place, Reply, Service, ServiceError};
use crate::store::{AnalysisStatus, MatchId};

/// How often a progress message is edited at most (Discord allows 5 edits in 5 seconds).
const PROGRESS_EVERY: Duration = Duration::from_secs(3);

/// A finished match looked back at by the engine: a graph and each player's biggest mistakes
#[poise::command(slash_command)]
pub async fn analysis(
    ctx: Context<'_>,
    #[description = "The match number (default: this channel's latest)"]
    #[rename = "match"]
    match_id: Option<u64>,
) -> Result<(), Error> {
    let data = ctx.data();
    let http = ctx.serenity_context().http.clone();
    answer(ctx, async {
        request(data, &http, place(ctx)?, match_id.map(MatchId)).await
    })
    .await
}

/// Shows match `id`'s analysis, asking for it first if nobody had: the report when it is
/// done, else a private note, and a progress message in the channel if none shows it yet.
pub async fn request(
    data: &Data,
    http: &serenity::Http,
    place: Place,
    id: Option<MatchId>,
) -> Result<Reply, ServiceError> {
    let s = &data.service;
    match s.analysis(place, id).await? {
        AnalysisAnswer::Report(reply) => Ok(reply),
        AnalysisAnswer::UnderWay {
            reply,
            match_id,
            status,
            show_progress,
        } => {
            if show_progress {
                let progress = serenity::CreateMessage::new()
                    .content(progress_markdown(&status))
                    .allowed_mentions(serenity::CreateAllowedMentions::new());
                let channel = serenity::ChannelId::new(place.channel.0.max(1));
                match channel.send_message(http, progress).await {
                    Ok(message) => {
                        s.analysis_shown_in(match_id, place.channel, message.id.get())
                            .await?;
                    }
                    Err(e) => tracing::warn!(match_id = %match_id, error = %e,
                        "could not post an analysis's progress; asking again shows it"),
                }
            }
            Ok(reply)
        }
    }
}

fn progress_markdown(status: &AnalysisStatus) -> String {
    super::markup::markdown(&progress_text(status))
}

/// Judges the positions of analyses asked for: at once when one is asked for, and every
/// few seconds for those left by a process that stopped.
pub async fn judging_worker(service: Arc<Service>, mut stop: watch::Receiver<bool>) {
    let signal = service.analysis_signal();
    loop {
        let woken = signal.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        // One position a round, so shutdown never waits for more than one search.
        match service.analyse_some(1).await {
            Ok(judged) if judged > 0 => {
                if *stop.borrow() {
                    return;
                }
                continue;
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "an analysis could not go on; trying again"),
        }
        tokio::select! {
            _ = &mut woken => {}
            _ = tokio::time::sleep(Duration::from_secs(3)) => {}
            _ = stop.changed() => return,
        }
    }
}

/// Edits each analysis's progress message as it goes, and into the report when it is done.
pub async fn progress_worker(
    service: Arc<Service>,
    http: Arc<serenity::Http>,
    mut stop: watch::Receiver<bool>,
) {
    let mut interval = tokio::time::interval(PROGRESS_EVERY);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = stop.changed() => return,
        }
        match service.analyses_to_show().await {
            Ok(statuses) => {
                for status in statuses {
                    if let Err(e) = show(&service, &http, &status).await {
                        tracing::warn!(match_id = %status.match_id, error = %e,
                            "could not show an analysis's progress");
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not look for analyses to show"),
        }
    }
}

async fn show(
    service: &Service,
    http: &serenity::Http,
    status: &AnalysisStatus,
) -> Result<(), Error> {
    let Some((channel, message)) = status.progress else {
        return Ok(());
    };
    let channel = serenity::ChannelId::new(channel.0.max(1));
    let message = serenity::MessageId::new(message.max(1));
    let id = status.match_id;
    if status.finished_at.is_none() {
        let edit = serenity::EditMessage::new().content(progress_markdown(status));
        channel.edit_message(http, message, edit).await?;
        service.analysis_progress_shown(id, status.judged).await?;
        return Ok(());
    }
    if !service.claim_analysis_report(id).await? {
        return Ok(());
    }
    let shown = async {
        let reply = service.analysis_report_of(id).await?;
        let mut parts = post::messages(&reply).into_iter();
        if let Some(first) = parts.next() {
            let mut edit = serenity::EditMessage::new()
                .content(first.content)
                .allowed_mentions(first.mentions);
            for a in first.attachments {
                edit = edit.new_attachment(a);
            }
            channel.edit_message(http, message, edit).await?;
        }
        for rest in parts {
            channel.send_message(http, rest.channel()).await?;
        }
        Ok::<(), Error>(())
    }
    .await;
    if let Err(e) = shown {
        service.unclaim_analysis_report(id).await?;
        return Err(e);
    }
    service.analysis_reported(id).await?;
    Ok(())
}

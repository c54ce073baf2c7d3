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

use super::delivery::{missing_permissions, Discord};
use super::repair::{classify, in_open_thread, unknown_message};
use super::{answer, permissions, place, post, Context, Data, Error};
use crate::service::{
    progress_text, AnalysisAnswer, DeliveryFailure, Place, Reply, Service, ServiceError,
};
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
    match s.analysis().ask(place, id).await? {
        AnalysisAnswer::Report(reply) => Ok(reply),
        AnalysisAnswer::UnderWay {
            reply,
            match_id,
            status,
            show_progress,
        } => {
            // Of two presses at the same moment only one posts the progress message; the
            // other's would stay at its first count for ever.
            if show_progress && s.analysis().claim_progress(match_id, place.channel).await? {
                let progress = serenity::CreateMessage::new()
                    .content(progress_markdown(&status))
                    .allowed_mentions(serenity::CreateAllowedMentions::new());
                let channel = serenity::ChannelId::new(place.channel.0.max(1));
                match channel.send_message(http, progress).await {
                    Ok(message) => {
                        s.analysis()
                            .shown_in(match_id, place.channel, message.id.get())
                            .await?;
                    }
                    Err(e) => {
                        tracing::warn!(match_id = %match_id, error = %e,
                            "could not post an analysis's progress; asking again shows it");
                        s.analysis().release_progress(match_id).await?;
                    }
                }
            }
            Ok(reply)
        }
    }
}

fn progress_markdown(status: &AnalysisStatus) -> String {
    super::markup::markdown(&progress_text(status))
}

/// Edits each analysis's progress message as it goes, and into the report when it is done.
/// A failed edit is classified as the delivery worker classifies a post: tried again after a
/// growing pause, or given up with its reason; a row waiting or given up holds up no other.
pub async fn progress_worker(
    service: Arc<Service>,
    discord: Discord,
    mut stop: watch::Receiver<bool>,
) {
    let mut interval = tokio::time::interval(PROGRESS_EVERY);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = stop.changed() => return,
        }
        match service.analysis().to_show().await {
            Ok(statuses) => {
                for status in statuses {
                    if let Err(e) = show(&service, &discord, &status).await {
                        tracing::warn!(match_id = %status.match_id, error = %e,
                            "could not record how showing an analysis went");
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not look for analyses to show"),
        }
    }
}

/// Edits `status`'s progress message: its count, or the report once finished.
async fn show(service: &Service, discord: &Discord, status: &AnalysisStatus) -> Result<(), Error> {
    let Some((channel, message)) = status.progress else {
        return Ok(());
    };
    let id = status.match_id;
    let http = &*discord.http;
    let at = serenity::ChannelId::new(channel.0.max(1));
    let message = serenity::MessageId::new(message.max(1));
    if status.finished_at.is_none() {
        let edit = serenity::EditMessage::new().content(progress_markdown(status));
        let edited = in_open_thread(http, at, || at.edit_message(http, message, edit.clone()));
        match edited.await {
            Ok(_) => service.analysis().progress_shown(id, status.judged).await?,
            // Its message is gone: the count waits, growing pauses apart, and the report is
            // posted anew when it is done.
            Err(e) if unknown_message(&e) => {
                let later = DeliveryFailure::Transient {
                    reason: e.to_string(),
                    retry_after: None,
                };
                service.analysis().show_failed(id, &later).await?
            }
            Err(e) => service.analysis().show_failed(id, &classify(&e)).await?,
        }
        return Ok(());
    }
    if !service.analysis().claim_report(id).await? {
        return Ok(());
    }
    let prepared = async {
        let reply = service.analysis().report_of(id).await?;
        let guild = service.analysis().guild_of(id).await?;
        Ok::<_, ServiceError>((reply, guild))
    };
    let (reply, guild) = match prepared.await {
        Ok(prepared) => prepared,
        Err(e) => {
            service.analysis().unclaim_report(id).await?;
            return Err(e.into());
        }
    };
    let granted = guild
        .and_then(|g| permissions::in_channel(&discord.cache, g, channel))
        .map(|(p, _)| p);
    let mut reply = permissions::fit(service, channel, reply, granted).await;
    let shown = match in_open_thread(http, at, || edit_into(http, at, message, id, &reply)).await {
        Err(e) if missing_permissions(&e) && !reply.attachments.is_empty() => {
            // The graph was refused (the cache did not know yet); the words may not be.
            let none = Some(serenity::Permissions::empty());
            reply = permissions::fit(service, channel, reply, none).await;
            in_open_thread(http, at, || edit_into(http, at, message, id, &reply)).await
        }
        shown => shown,
    };
    match shown {
        Ok(()) => service.analysis().reported(id).await?,
        Err(e) => match classify(&e) {
            // The message is gone (deleted, say), but the channel may still take the report.
            DeliveryFailure::Permanent { .. } if unknown_message(&e) => {
                match post_anew(http, at, id, &reply).await {
                    Ok(()) => service.analysis().reported(id).await?,
                    Err(e) => service.analysis().show_failed(id, &classify(&e)).await?,
                }
            }
            failure => service.analysis().show_failed(id, &failure).await?,
        },
    }
    Ok(())
}

/// Edits `message` into `reply`'s first message (the report of match `id`) and posts the
/// rest after it.
async fn edit_into(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    message: serenity::MessageId,
    id: MatchId,
    reply: &Reply,
) -> Result<(), serenity::Error> {
    let mut parts = post::messages(reply).into_iter().enumerate();
    if let Some((_, first)) = parts.next() {
        let mut edit = serenity::EditMessage::new()
            .content(first.content)
            .allowed_mentions(first.mentions);
        for a in first.attachments {
            edit = edit.new_attachment(a);
        }
        channel.edit_message(http, message, edit).await?;
    }
    for (part, rest) in parts {
        channel
            .send_message(http, with_nonce(rest.channel(), id, part))
            .await?;
    }
    Ok(())
}

/// Posts `reply`, the report of match `id`, as new messages in `channel`.
async fn post_anew(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    id: MatchId,
    reply: &Reply,
) -> Result<(), serenity::Error> {
    for (part, message) in post::messages(reply).into_iter().enumerate() {
        channel
            .send_message(http, with_nonce(message.channel(), id, part))
            .await?;
    }
    Ok(())
}

/// Part `part` of match `id`'s report carries a nonce of its own (at most 25 characters), so a
/// retry after a post whose answer was lost returns the message already made instead of
/// posting it twice.
fn with_nonce(
    message: serenity::CreateMessage,
    id: MatchId,
    part: usize,
) -> serenity::CreateMessage {
    message
        .nonce(serenity::Nonce::String(format!("r{}p{part}", id.0)))
        .enforce_nonce(true)
}

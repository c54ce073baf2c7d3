//! `/thud analysis` and the Analyse button, and the showing of an analysis where it was asked
//! for: the outbox's showings (`Delivery::shows_analysis`) post its progress message, edit
//! its count as it goes, and finally turn it into the report with its graph.
//!
//! The progress is a message of the bot's own in the channel rather than the answer to the
//! command: an interaction's answer can only be edited for 15 minutes, while an analysis
//! queued behind others may take longer; and its id is stored, so a restarted process goes on
//! editing it.

use poise::serenity_prelude as serenity;

use super::repair::{classify, in_open_thread, missing_permissions, unknown_message};
use super::{answer, permissions, place, post, Context, Data, Error};
use crate::service::{
    progress_text, AnalysisAnswer, Delivery, DeliveryFailure, Place, Reply, Service, ServiceError,
};
use crate::store::{AnalysisStatus, MatchId};

/// A finished match looked back at by the engine: a graph and each player's biggest mistakes
#[poise::command(slash_command)]
pub async fn analysis(
    ctx: Context<'_>,
    #[description = "The match number (default: this channel's latest)"]
    #[rename = "match"]
    match_id: Option<u64>,
) -> Result<(), Error> {
    let data = ctx.data();
    answer(ctx, async {
        request(data, place(ctx)?, match_id.map(MatchId)).await
    })
    .await
}

/// Shows match `id`'s analysis, asking for it first if nobody had: the report when it is
/// done, else a private note (the outbox posts the progress message in the channel).
pub async fn request(
    data: &Data,
    place: Place,
    id: Option<MatchId>,
) -> Result<Reply, ServiceError> {
    Ok(match data.service.analysis().ask(place, id).await? {
        AnalysisAnswer::Report(reply) | AnalysisAnswer::UnderWay { reply, .. } => reply,
    })
}

fn progress_markdown(status: &AnalysisStatus) -> String {
    super::markup::markdown(&progress_text(status))
}

/// Shows the analysis of match `id` as it stands, for the outbox's showing `delivery`: posts
/// its progress message (with the showing's nonce, so a retry after a lost answer finds the
/// message made), edits its count, or turns it into the report. One Discord will never take
/// is given up with its reason, and the thread it was shown in waits for it no more.
pub(super) async fn show(
    service: &Service,
    (http, cache): (&serenity::Http, &serenity::Cache),
    delivery: &Delivery,
    id: MatchId,
) -> Result<Option<u64>, DeliveryFailure> {
    let status = match service
        .analysis()
        .status(id)
        .await
        .map_err(DeliveryFailure::later)?
    {
        Some(status) if status.reported_at.is_none() => status,
        _ => return Ok(None),
    };
    let shown = match status.finished_at {
        None => show_progress(service, http, delivery, &status).await,
        Some(_) => show_report(service, (http, cache), delivery, &status).await,
    };
    if let Err(DeliveryFailure::Permanent { reason }) = &shown {
        service
            .analysis()
            .gave_up(id, reason)
            .await
            .map_err(DeliveryFailure::later)?;
    }
    shown
}

/// Posts or edits the progress message of `status`'s analysis.
async fn show_progress(
    service: &Service,
    http: &serenity::Http,
    delivery: &Delivery,
    status: &AnalysisStatus,
) -> Result<Option<u64>, DeliveryFailure> {
    let id = status.match_id;
    let content = progress_markdown(status);
    match status.progress {
        None => {
            let Some(channel) = status.channel else {
                return Ok(None);
            };
            let at = serenity::ChannelId::new(channel.0.max(1));
            let progress = serenity::CreateMessage::new()
                .content(content)
                .allowed_mentions(serenity::CreateAllowedMentions::new())
                .nonce(serenity::Nonce::String(delivery.nonce.clone()))
                .enforce_nonce(true);
            let posted = in_open_thread(http, at, || at.send_message(http, progress.clone()))
                .await
                .map_err(|e| classify(&e))?;
            let analysis = service.analysis();
            analysis
                .shown_in(id, channel, posted.id.get())
                .await
                .map_err(DeliveryFailure::later)?;
            analysis
                .progress_shown(id, status.judged)
                .await
                .map_err(DeliveryFailure::later)?;
            Ok(Some(posted.id.get()))
        }
        Some((channel, message)) => {
            let at = serenity::ChannelId::new(channel.0.max(1));
            let edit = serenity::EditMessage::new().content(content);
            let message_id = serenity::MessageId::new(message.max(1));
            match in_open_thread(http, at, || at.edit_message(http, message_id, edit.clone())).await
            {
                Ok(_) => {}
                // Somebody deleted it: the next showing posts another, or the report.
                Err(e) if unknown_message(&e) => {
                    service
                        .analysis()
                        .progress_lost(id, message)
                        .await
                        .map_err(DeliveryFailure::later)?;
                    return Ok(None);
                }
                Err(e) => return Err(classify(&e)),
            }
            service
                .analysis()
                .progress_shown(id, status.judged)
                .await
                .map_err(DeliveryFailure::later)?;
            Ok(Some(message))
        }
    }
}

/// Shows the report of `status`'s finished analysis: edited into its progress message, or
/// posted anew where there is none (it was deleted, or the analysis finished before its
/// progress could be shown).
async fn show_report(
    service: &Service,
    (http, cache): (&serenity::Http, &serenity::Cache),
    delivery: &Delivery,
    status: &AnalysisStatus,
) -> Result<Option<u64>, DeliveryFailure> {
    let id = status.match_id;
    let Some(channel) = status.channel else {
        return Ok(None);
    };
    let analysis = service.analysis();
    let reply = analysis
        .report_of(id)
        .await
        .map_err(DeliveryFailure::later)?;
    let guild = analysis
        .guild_of(id)
        .await
        .map_err(DeliveryFailure::later)?;
    let granted = guild
        .and_then(|g| permissions::in_channel(cache, g, channel))
        .map(|(p, _)| p);
    let mut reply = permissions::fit(service, channel, reply, granted).await;
    let at = serenity::ChannelId::new(channel.0.max(1));
    let message = status
        .progress
        .map(|(_, m)| serenity::MessageId::new(m.max(1)));
    let first = delivery.nonce.as_str();
    let attempt = |reply: Reply| async move {
        match message {
            Some(message) => {
                in_open_thread(http, at, || edit_into(http, at, message, id, &reply)).await
            }
            None => in_open_thread(http, at, || post_anew(http, at, id, &reply, first)).await,
        }
    };
    let shown = match attempt(reply.clone()).await {
        Err(e) if missing_permissions(&e) && !reply.attachments.is_empty() => {
            // The graph was refused (the cache did not know yet); the words may not be.
            let none = Some(serenity::Permissions::empty());
            reply = permissions::fit(service, channel, reply, none).await;
            attempt(reply.clone()).await
        }
        // The message is gone (deleted, say), but the channel may still take the report.
        Err(e) if message.is_some() && unknown_message(&e) => {
            in_open_thread(http, at, || post_anew(http, at, id, &reply, first)).await
        }
        shown => shown,
    };
    shown.map_err(|e| classify(&e))?;
    analysis
        .reported(id)
        .await
        .map_err(DeliveryFailure::later)?;
    Ok(message.map(|m| m.get()))
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

/// Posts `reply`, the report of match `id`, as new messages in `channel`: the first with the
/// showing's nonce `first`, so a retry after a lost answer (of this post, or of the progress
/// message this showing posted before the analysis finished) returns the message made then,
/// which is edited into the report; the rest with nonces of their own.
async fn post_anew(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    id: MatchId,
    reply: &Reply,
    first: &str,
) -> Result<(), serenity::Error> {
    let mut parts = post::messages(reply).into_iter().enumerate();
    let Some((_, head)) = parts.next() else {
        return Ok(());
    };
    let (wanted, files) = (head.content.clone(), head.attachments.len());
    let head = head
        .channel()
        .nonce(serenity::Nonce::String(first.to_string()))
        .enforce_nonce(true);
    let posted = channel.send_message(http, head).await?;
    if posted.content != wanted || posted.attachments.len() != files {
        return edit_into(http, channel, posted.id, id, reply).await;
    }
    for (part, rest) in parts {
        channel
            .send_message(http, with_nonce(rest.channel(), id, part))
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

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use fake_discord::{FakeDiscord, THUD_CHANNEL, TOKEN};

    use super::*;

    /// A report long enough for three messages.
    fn long_report() -> Reply {
        let line = format!("{}\n", "x".repeat(99));
        Reply::public(line.repeat(45))
    }

    #[tokio::test]
    async fn every_part_of_a_report_tried_again_is_posted_once() {
        let fake = FakeDiscord::start().await;
        let http = crate::discord::http(TOKEN, Some(fake.rest_url()), Duration::from_secs(5));
        let channel = serenity::ChannelId::new(THUD_CHANNEL);
        let reply = long_report();
        let parts = post::messages(&reply).len();
        assert_eq!(parts, 3);
        let before = fake.channel_messages(THUD_CHANNEL).len();
        post_anew(&http, channel, MatchId(7), &reply, "n41")
            .await
            .expect("posted");
        assert_eq!(fake.channel_messages(THUD_CHANNEL).len(), before + parts);
        // The showing is tried again (a later part's answer was lost, say): every part is
        // answered with the message made before, and none is posted twice.
        post_anew(&http, channel, MatchId(7), &reply, "n41")
            .await
            .expect("answered");
        assert_eq!(fake.channel_messages(THUD_CHANNEL).len(), before + parts);
    }
}

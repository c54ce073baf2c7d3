//! A tournament's announcement kept true: the message that answered its creation is recorded,
//! and edited when players join or leave and when it starts or is called off, so the channel
//! shows the field's size (and a Join button only while it takes players) without a line for
//! each join. An announcement somebody deleted is posted anew at the next change, and the new
//! message recorded in its place.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use poise::serenity_prelude as serenity;

use super::post;
use super::repair::unknown_message;
use crate::service::{Event, Reply, Service, TournamentEvent};
use crate::store::{ChannelId, TournamentId};

/// The tournament `reply` announces, if it does.
pub(super) fn announced(reply: &Reply) -> Option<TournamentId> {
    reply.events.iter().find_map(|e| match e {
        Event::Tournament(TournamentEvent::Created { id, .. }) => Some(*id),
        _ => None,
    })
}

/// Whether `reply` changes what a tournament's announcement shows.
fn changes_field(reply: &Reply) -> bool {
    reply.events.iter().any(|e| {
        matches!(
            e,
            Event::Tournament(
                TournamentEvent::Joined { .. }
                    | TournamentEvent::LeftBeforeStart { .. }
                    | TournamentEvent::Started { .. }
                    | TournamentEvent::Cancelled { .. }
            )
        )
    })
}

/// After `reply` was shown in `channel` (as `message`, when known): records the announcement
/// it made, or has the announcement it changed shown afresh. Failures are logged, not the
/// player's: the next change shows the field afresh.
pub(super) async fn after(
    (service, http, refreshing): (&Arc<Service>, &Arc<serenity::Http>, &Refreshing),
    channel: ChannelId,
    reply: &Reply,
    message: Option<u64>,
) {
    let recorded = match (announced(reply), message) {
        (Some(id), Some(message)) => match service.tournaments().announced(id, message).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %e, %channel, "could not record a tournament's announcement");
                return;
            }
        },
        _ => false,
    };
    if !recorded && !changes_field(reply) {
        return;
    }
    let work = (service.clone(), http.clone(), refreshing.clone());
    refresh(work, channel, recorded);
}

/// The channels whose announcement a bot is showing afresh now, each with whether another
/// change came in meanwhile; one for each running bot, shared by its commands, buttons and
/// delivery worker.
#[derive(Clone, Default)]
pub(super) struct Refreshing(Arc<Mutex<BTreeMap<ChannelId, bool>>>);

/// Shows `channel`'s announcement as it stands, coalescing changes: while one edit is under
/// way, any number of joins and leaves make one more edit after it, which reads the field as it
/// is then (latest wins), instead of one edit each (a busy sign-up would queue minutes of edits
/// behind Discord's limit of five a channel every five seconds).
fn refresh(
    (service, http, refreshing): (Arc<Service>, Arc<serenity::Http>, Refreshing),
    channel: ChannelId,
    recorded: bool,
) {
    {
        let mut refreshing = refreshing.0.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(again) = refreshing.get_mut(&channel) {
            *again = true;
            return;
        }
        refreshing.insert(channel, false);
    }
    tokio::spawn(async move {
        let mut recorded = recorded;
        loop {
            show(&service, &http, channel, recorded).await;
            recorded = false;
            let mut running = refreshing.0.lock().unwrap_or_else(|e| e.into_inner());
            match running.get_mut(&channel) {
                Some(again) if *again => *again = false,
                _ => {
                    running.remove(&channel);
                    return;
                }
            }
        }
    });
}

/// Edits `channel`'s announcement to the field as it is now (`recorded`: just recorded, when a
/// join answered before its message was known is shown); posts it anew if it was deleted.
async fn show(service: &Service, http: &serenity::Http, channel: ChannelId, recorded: bool) {
    let announcement = match service.tournaments().announcement_in(channel).await {
        Ok(Some(a)) => a,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(error = %e, %channel, "could not read a tournament's announcement");
            return;
        }
    };
    // A join answered before the announcement's message was known is shown now.
    if recorded && announcement.players == 0 {
        return;
    }
    let Some(shown) = post::messages(&announcement.reply).into_iter().next() else {
        return;
    };
    let edit = serenity::EditMessage::new()
        .content(shown.content.clone())
        .allowed_mentions(shown.mentions.clone())
        .components(shown.components.clone());
    let at = serenity::ChannelId::new(announcement.channel.0.max(1));
    let message = serenity::MessageId::new(announcement.message.max(1));
    match at.edit_message(http, message, edit.clone()).await {
        Ok(_) => {}
        Err(e) if unknown_message(&e) => {
            // Its nonce names the message it replaces, so a retry of this post, or another
            // process replacing the same message, returns the one already made.
            let wanted = shown.content.clone();
            let anew = shown
                .channel()
                .nonce(serenity::Nonce::String(format!(
                    "a{}",
                    announcement.message
                )))
                .enforce_nonce(true);
            match at.send_message(http, anew).await {
                Ok(posted) => {
                    // A post that found its nonce taken returns the message made then, which
                    // may show the field as it was.
                    if posted.content != wanted {
                        if let Err(e) = at.edit_message(http, posted.id, edit).await {
                            tracing::warn!(error = %e, %channel, "could not show a tournament's field in its announcement");
                        }
                    }
                    let recorded = service
                        .tournaments()
                        .announced_anew(
                            announcement.tournament,
                            announcement.message,
                            posted.id.get(),
                        )
                        .await;
                    if let Err(e) = recorded {
                        tracing::warn!(error = %e, %channel, "could not record a tournament's new announcement");
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, %channel, "could not post a tournament's announcement anew")
                }
            }
        }
        Err(e) => {
            tracing::warn!(error = %e, %channel, "could not show a tournament's field in its announcement")
        }
    }
}

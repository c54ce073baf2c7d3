//! A tournament's announcement kept true: the message that answered its creation is recorded,
//! and the outbox's showings (one queued by every change to the field, in its transaction) are
//! made here by editing it, so the channel shows the field's size (and a Join button only
//! while it takes players) without a line for each join. An announcement somebody deleted is
//! posted anew and the new message recorded in its place.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use super::post;
use super::repair::{classify, unknown_message};
use crate::service::{DeliveryFailure, Event, Reply, Service, TournamentEvent};
use crate::store::{ChannelId, TournamentId};

/// The tournament `reply` announces, if it does.
pub(super) fn announced(reply: &Reply) -> Option<TournamentId> {
    reply.events.iter().find_map(|e| match e {
        Event::Tournament(TournamentEvent::Created { id, .. }) => Some(*id),
        _ => None,
    })
}

/// After `reply` was shown in `channel` as `message`: records the announcement it made.
/// A failure is logged, not the organiser's: the announcement then shows its creation only.
pub(super) async fn after(
    service: &Arc<Service>,
    channel: ChannelId,
    reply: &Reply,
    message: Option<u64>,
) {
    if let (Some(id), Some(message)) = (announced(reply), message) {
        if let Err(e) = service.tournaments().announced(id, message).await {
            tracing::warn!(error = %e, %channel, "could not record a tournament's announcement");
        }
    }
}

/// Shows tournament `id`'s announcement as it reads now: edits its message, or posts it anew
/// if somebody deleted it. A showing queued before the message was known has nothing to edit
/// (recording the message queues another).
pub(super) async fn show(
    service: &Service,
    http: &serenity::Http,
    id: TournamentId,
) -> Result<Option<u64>, DeliveryFailure> {
    let announcement = match service.tournaments().announcement_of(id).await {
        Ok(Some(a)) => a,
        Ok(None) => return Ok(None),
        Err(e) => return Err(DeliveryFailure::later(e)),
    };
    let Some(shown) = post::messages(&announcement.reply).into_iter().next() else {
        return Ok(None);
    };
    let edit = serenity::EditMessage::new()
        .content(shown.content.clone())
        .allowed_mentions(shown.mentions.clone())
        .components(shown.components.clone());
    let at = serenity::ChannelId::new(announcement.channel.0.max(1));
    let message = serenity::MessageId::new(announcement.message.max(1));
    match at.edit_message(http, message, edit.clone()).await {
        Ok(edited) => Ok(Some(edited.id.get())),
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
            let posted = at
                .send_message(http, anew)
                .await
                .map_err(|e| classify(&e))?;
            // A post that found its nonce taken returns the message made then, which may show
            // the field as it was.
            if posted.content != wanted {
                at.edit_message(http, posted.id, edit)
                    .await
                    .map_err(|e| classify(&e))?;
            }
            let recorded = service
                .tournaments()
                .announced_anew(id, announcement.message, posted.id.get())
                .await;
            if let Err(e) = recorded {
                // Posted, not recorded: the next showing finds the old message gone again
                // and its nonce returns this one.
                tracing::warn!(error = %e, tournament = %id.0, "could not record a tournament's new announcement");
            }
            Ok(Some(posted.id.get()))
        }
        Err(e) => Err(classify(&e)),
    }
}

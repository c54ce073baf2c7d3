//! A tournament's announcement kept true: the message that answered its creation is recorded,
//! and edited when players join or leave and when it starts or is called off, so the channel
//! shows the field's size (and a Join button only while it takes players) without a line for
//! each join. An announcement somebody deleted is posted anew at the next change, and the new
//! message recorded in its place.

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
/// it made, or edits the announcement it changed. Failures are logged, not the player's: the
/// next change shows the field afresh.
pub(super) async fn after(
    service: &Service,
    http: &serenity::Http,
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

//! Answering a slash command: the service's work runs to its end whatever Discord does, the
//! answer is fitted to the bot's permissions in the channel, and a change that was saved but
//! could not be answered reaches the channel through the outbox.
//!
//! Current Discord practice (docs/interactions/receiving-and-responding.md): after a defer the
//! first message is an edit of the original response (a followup turning into that edit is
//! kept only for backwards compatibility), and a command whose answer is always private defers
//! privately, so nobody else sees its "thinking…".

use std::future::Future;
use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::{permissions, place, post, Context, Data, Error};
use crate::service::{Place, Reply, ServiceError};
use crate::store::ChannelId;

/// Who sees a command's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Audience {
    /// As the reply says: public, or private for a refusal.
    AsReplied,
    /// Always only the player who asked (their games, their settings).
    Private,
}

/// How an interaction was acknowledged.
pub(super) enum Ack {
    /// The answer was ready within the defer delay: it is the response.
    InTime,
    /// Discord was told the answer is coming ("thinking…").
    Deferred,
    /// Telling Discord failed: nothing can be shown, but the work went on to its end.
    DeferFailed(serenity::Error),
}

/// Runs a service call for a slash command and posts its reply.
pub async fn answer(
    ctx: Context<'_>,
    work: impl Future<Output = Result<Reply, ServiceError>> + Send,
) -> Result<(), Error> {
    answer_to(ctx, Audience::AsReplied, work).await
}

/// Runs a service call for a slash command whose answer only the asking player sees.
pub async fn answer_privately(
    ctx: Context<'_>,
    work: impl Future<Output = Result<Reply, ServiceError>> + Send,
) -> Result<(), Error> {
    answer_to(ctx, Audience::Private, work).await
}

async fn answer_to(
    ctx: Context<'_>,
    audience: Audience,
    work: impl Future<Output = Result<Reply, ServiceError>> + Send,
) -> Result<(), Error> {
    let data = ctx.data();
    let _running = data.in_flight.read().await;
    let poise::Context::Application(app) = ctx else {
        // Only slash commands are registered.
        return Ok(());
    };
    let interaction = app.interaction;
    let discord = ctx.serenity_context();
    let private = audience == Audience::Private;
    let defer = async {
        if private {
            interaction.defer_ephemeral(discord).await
        } else {
            interaction.defer(discord).await
        }
    };
    let (result, ack) = answer_or_defer(data.options.defer_after, work, defer).await;
    let reply = reply_or_apology(result);
    let channel = ChannelId(interaction.channel_id.get());
    let granted = permissions::effective(
        interaction.app_permissions,
        super::is_thread(interaction.channel.as_ref()),
    );
    let reply = permissions::fit(&data.service, channel, reply, granted).await;
    let sent = match ack {
        Ack::DeferFailed(e) => Err(e),
        Ack::InTime => respond(discord, interaction, None, &reply).await,
        Ack::Deferred => respond(discord, interaction, Some(private), &reply).await,
    };
    match sent {
        Err(e) => {
            announce_instead(data, place(ctx).ok(), &reply, &e).await;
            Err(e.into())
        }
        Ok(shown) => {
            let message = match shown {
                Shown::Message(id) => Some(id),
                Shown::Response
                    if reply.board.is_some()
                        || super::announcement::announced(&reply).is_some() =>
                {
                    match interaction.get_response(discord).await {
                        Ok(m) => Some(m.id.get()),
                        Err(e) => {
                            tracing::warn!(error = %e, "could not learn the id of a message");
                            None
                        }
                    }
                }
                _ => None,
            };
            board_shown(data, channel, &reply, message).await;
            super::announcement::after(&data.service, channel, &reply, message).await;
            Ok(())
        }
    }
}

/// Where an answer's last message went.
pub(super) enum Shown {
    /// The interaction's first response (its id is fetched when needed).
    Response,
    /// A message whose id is known (an edit of the response, or a followup).
    Message(u64),
    Nothing,
}

/// Answers a command with `reply`; `deferred` says whether (and how privately) it was
/// deferred.
async fn respond(
    discord: &serenity::Context,
    interaction: &serenity::CommandInteraction,
    deferred: Option<bool>,
    reply: &Reply,
) -> Result<Shown, serenity::Error> {
    let mut shown = Shown::Nothing;
    let mut messages = post::messages(reply).into_iter();
    match deferred {
        None => {
            if let Some(first) = messages.next() {
                let first = serenity::CreateInteractionResponse::Message(first.response());
                interaction.create_response(discord, first).await?;
                shown = Shown::Response;
            }
        }
        // The "thinking…" message was shown to the wrong audience: a private answer must not
        // stay in everyone's view, a public one must be seen; it goes, and followups carry
        // the answer.
        Some(thought_privately) if thought_privately != reply.private => {
            interaction.delete_response(discord).await?;
        }
        Some(_) => {
            if let Some(first) = messages.next() {
                let edited = interaction.edit_response(discord, first.edit()).await?;
                shown = Shown::Message(edited.id.get());
            }
        }
    }
    for m in messages {
        let id = interaction.create_followup(discord, m.followup()).await?.id;
        shown = Shown::Message(id.get());
    }
    Ok(shown)
}

/// A reply showing a board was posted in `channel` (as `message`, if its id is known): the
/// direct messages about it can link there and go out.
pub(super) async fn board_shown(
    data: &Data,
    channel: ChannelId,
    reply: &Reply,
    message: Option<u64>,
) {
    let Some(shot) = reply.board.filter(|_| !reply.private) else {
        return;
    };
    if let Err(e) = data
        .service
        .outbox()
        .board_posted(channel, shot, message)
        .await
    {
        tracing::warn!(error = %e, %channel, "could not record where a board was posted");
    }
}

/// The answer to a command that saved a change could not be given (the interaction expired,
/// the defer failed, Discord failed): its public part reaches the channel through the outbox
/// instead, so the opponent still sees the move and is pinged.
pub(super) async fn announce_instead(
    data: &Data,
    place: Option<Place>,
    reply: &Reply,
    error: &serenity::Error,
) {
    let Some(place) = place.filter(|_| reply.saved && !reply.private) else {
        return;
    };
    let match_id = reply.board.map(|b| b.match_id);
    match data
        .service
        .outbox()
        .announce_later(place, match_id, reply)
        .await
    {
        Ok(()) => tracing::warn!(%error, channel = %place.channel,
            "could not answer the command; its announcement goes to the channel instead"),
        Err(e) => tracing::error!(%error, queue_error = %e,
            "could not answer the command nor queue its announcement"),
    }
}

/// Runs `work` to its end; if it has not finished after `defer_after` (at once when that is
/// zero), first tells Discord the answer is coming with `defer`. A defer that fails does not
/// stop the work: what it saves must not be lost because Discord did not take the defer.
pub(super) async fn answer_or_defer<T>(
    defer_after: Duration,
    work: impl Future<Output = T>,
    defer: impl Future<Output = Result<(), serenity::Error>>,
) -> (T, Ack) {
    let mut work = std::pin::pin!(work);
    if !defer_after.is_zero() {
        if let Ok(result) = tokio::time::timeout(defer_after, &mut work).await {
            return (result, Ack::InTime);
        }
    }
    // The work goes on while Discord is told.
    let (deferred, result) = tokio::join!(defer, &mut work);
    match deferred {
        Ok(()) => (result, Ack::Deferred),
        Err(e) => {
            tracing::warn!(error = %e, "could not defer an answer; the work goes on");
            (result, Ack::DeferFailed(e))
        }
    }
}

/// The reply, or the refusal or apology the player sees privately.
pub(super) fn reply_or_apology(result: Result<Reply, ServiceError>) -> Reply {
    match result {
        Ok(reply) => reply,
        Err(e) => {
            if !e.is_refusal() {
                tracing::error!(error = %e, "a command failed");
            }
            Reply::private(e.player_message())
        }
    }
}

//! Button presses (Accept / Decline / Cancel a challenge, Agree / Keep playing, Confirm
//! resignation), and accepting a challenge, which may open a thread for the match.
//!
//! A button's custom id names the challenge or match; the service checks it against the
//! presser and the current state, so a stale or foreign press is answered privately and
//! changes nothing. A press that did something disables the buttons it was pressed on.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use super::answer::{announce_instead, answer_or_defer, board_shown, reply_or_apology, Ack, Shown};
use super::rooms::thread_room;
use super::{permissions, post, Data, Error, Venue};
use crate::service::{Action, Actor, Place, Refusal, Reply, ServiceError};
use crate::store::{ChallengeId, ChannelId, GuildId, UserId};

pub(super) async fn pressed(
    ctx: &serenity::Context,
    data: &Data,
    press: &serenity::ComponentInteraction,
    action: Action,
) -> Result<(), Error> {
    let _running = data.in_flight.read().await;
    let name = match &press.member {
        Some(member) => member.display_name(),
        None => press.user.display_name(),
    };
    let actor = Actor::with_kind(UserId(press.user.id.get()), name, press.user.bot);
    let work = async {
        let Some(guild) = press.guild_id else {
            return Err(ServiceError::Refused(Refusal::NotInAServer));
        };
        let place = Place {
            guild: GuildId(guild.get()),
            channel: ChannelId(press.channel_id.get()),
        };
        let venue = Venue {
            place,
            granted: press.app_permissions,
            in_thread: super::is_thread(press.channel.as_ref()),
        };
        let s = &data.service;
        match action {
            Action::Accept(id) => accept(data, &ctx.http, venue, &actor, Some(id)).await,
            Action::Decline(id) => s.matches().decline(place, &actor, Some(id)).await,
            Action::Cancel(id) => s.matches().cancel(place, &actor, Some(id)).await,
            Action::AgreeEnd { match_id, proposal } => {
                s.matches()
                    .answer_end(place, &actor, true, Some((match_id, proposal)))
                    .await
            }
            Action::KeepPlaying { match_id, proposal } => {
                s.matches()
                    .answer_end(place, &actor, false, Some((match_id, proposal)))
                    .await
            }
            Action::ConfirmResign(id) => s.matches().resign(place, &actor, Some(id)).await,
            Action::Resume(id) => s.matches().resume(place, &actor, id).await,
            Action::AbortUnreachable(id) => s.matches().abort_unreachable(&actor, id).await,
            Action::Analyse(id) => super::analysis::request(data, place, Some(id)).await,
            Action::JoinTournament(id) => s.tournaments().join_numbered(&actor, id).await,
            // A rematch against the computer begins at once, in a thread when threads are on
            // (inside a finished match's thread, where none can open, in that thread).
            Action::Rematch(id) => {
                let in_a_thread =
                    permissions::match_home(venue.granted, venue.in_thread, data.options.threads)?;
                let room = in_a_thread.then(|| thread_room(ctx.http.clone(), place.guild));
                s.matches().rematch(place, &actor, id, room).await
            }
        }
    };
    // Deferring acknowledges without a message; the answer follows.
    let (result, ack) = answer_or_defer(data.options.defer_after, work, press.defer(ctx)).await;
    let reply = reply_or_apology(result);
    let channel = ChannelId(press.channel_id.get());
    let granted = permissions::effective(
        press.app_permissions,
        super::is_thread(press.channel.as_ref()),
    );
    let reply = permissions::fit(&data.service, channel, reply, granted).await;
    let sent = match ack {
        Ack::DeferFailed(e) => Err(e),
        Ack::InTime => respond(ctx, press, false, &reply).await,
        Ack::Deferred => respond(ctx, press, true, &reply).await,
    };
    let shown = match sent {
        Ok(shown) => shown,
        Err(e) => {
            let place = press.guild_id.map(|g| Place {
                guild: GuildId(g.get()),
                channel,
            });
            announce_instead(data, place, &reply, &e).await;
            return Err(e.into());
        }
    };
    if reply.board.is_some() {
        let message = match shown {
            Shown::Message(id) => Some(id),
            Shown::Response => press.get_response(ctx).await.ok().map(|m| m.id.get()),
            Shown::Nothing => None,
        };
        board_shown(data, channel, &reply, message).await;
    }
    Ok(())
}

/// Answers a press with `reply`, disabling the pressed buttons when they are spent; says where
/// the last message went.
async fn respond(
    ctx: &serenity::Context,
    press: &serenity::ComponentInteraction,
    deferred: bool,
    reply: &Reply,
) -> Result<Shown, serenity::Error> {
    let mut shown = Shown::Nothing;
    let mut messages = post::messages(reply).into_iter();
    if reply.spend_buttons {
        let spent = post::disabled(&press.message);
        if deferred {
            let edit = serenity::EditInteractionResponse::new().components(spent);
            press.edit_response(ctx, edit).await?;
        } else {
            let update = serenity::CreateInteractionResponseMessage::new().components(spent);
            press
                .create_response(
                    ctx,
                    serenity::CreateInteractionResponse::UpdateMessage(update),
                )
                .await?;
        }
    } else if !deferred {
        if let Some(first) = messages.next() {
            press
                .create_response(
                    ctx,
                    serenity::CreateInteractionResponse::Message(first.response()),
                )
                .await?;
            shown = Shown::Response;
        }
    }
    for m in messages {
        shown = Shown::Message(press.create_followup(ctx, m.followup()).await?.id.get());
    }
    Ok(shown)
}

/// The opponent accepts a challenge. With threads on, the match gets a thread of its own
/// (named after the players), opened once the service has closed the challenge; its first
/// board is posted there, and the channel is told where.
pub async fn accept(
    data: &Data,
    http: &Arc<serenity::Http>,
    venue: Venue,
    actor: &Actor,
    id: Option<ChallengeId>,
) -> Result<Reply, ServiceError> {
    let in_a_thread = permissions::match_home(venue.granted, venue.in_thread, data.options.threads)
        .map_err(ServiceError::Refused)?;
    let room = in_a_thread.then(|| thread_room(http.clone(), venue.place.guild));
    data.service
        .matches()
        .accept(venue.place, actor, id, room)
        .await
}

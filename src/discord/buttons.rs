//! Button presses (Accept / Decline / Cancel a challenge, Agree / Keep playing, Confirm
//! resignation), and accepting a challenge, which may open a thread for the match.
//!
//! A button's custom id names the challenge or match; the service checks it against the
//! presser and the current state, so a stale or foreign press is answered privately and
//! changes nothing. A press that did something disables the buttons it was pressed on.

use poise::serenity_prelude as serenity;

use super::{announce_instead, answer_or_defer, post, reply_or_apology, Data, Error};
use crate::service::{Action, Actor, Place, Refusal, Reply, ServiceError};
use crate::store::{ChallengeId, ChannelId, GuildId, UserId};

pub async fn on_event(
    framework: poise::FrameworkContext<'_, Data, Error>,
    event: &serenity::FullEvent,
) -> Result<(), Error> {
    super::events::on_event(framework.serenity_context, framework.user_data, event).await;
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press),
    } = event
    {
        if let Some(action) = Action::parse(&press.data.custom_id) {
            pressed(
                framework.serenity_context,
                framework.user_data,
                press,
                action,
            )
            .await?;
        }
    }
    Ok(())
}

async fn pressed(
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
        let s = &data.service;
        match action {
            Action::Accept(id) => accept(data, &ctx.http, place, &actor, Some(id)).await,
            Action::Decline(id) => s.decline(place, &actor, Some(id)).await,
            Action::Cancel(id) => s.cancel(place, &actor, Some(id)).await,
            Action::AgreeEnd { match_id, proposal } => {
                s.answer_end(place, &actor, true, Some((match_id, proposal)))
                    .await
            }
            Action::KeepPlaying { match_id, proposal } => {
                s.answer_end(place, &actor, false, Some((match_id, proposal)))
                    .await
            }
            Action::ConfirmResign(id) => s.resign(place, &actor, Some(id)).await,
            Action::Resume(id) => s.resume(place, &actor, id).await,
            Action::AbortUnreachable(id) => s.abort_unreachable(&actor, id).await,
            Action::JoinTournament(id) => s.join_tournament_numbered(&actor, id).await,
            // A rematch against the computer begins at once, in a thread when threads are on
            // (inside a finished match's thread, where none can open, in that thread).
            Action::Rematch(id) => {
                let vs_computer = s
                    .store()
                    .load_match(id)
                    .await?
                    .is_some_and(|m| m.computer.is_some());
                let thread = if data.options.threads && vs_computer {
                    let name = format!("Thud: {} (rematch)", actor.name);
                    match_thread(&ctx.http, place, &name).await
                } else {
                    None
                };
                s.rematch(place, &actor, id, thread).await
            }
        }
    };
    // Deferring acknowledges without a message; the answer follows.
    let (result, deferred) =
        answer_or_defer(data.options.defer_after, work, press.defer(ctx)).await?;
    let reply = reply_or_apology(result);
    let shown = match respond(ctx, press, deferred, &reply).await {
        Ok(shown) => shown,
        Err(e) => {
            let place = press.guild_id.map(|g| Place {
                guild: GuildId(g.get()),
                channel: ChannelId(press.channel_id.get()),
            });
            announce_instead(data, place, &reply, &e).await;
            return Err(e.into());
        }
    };
    if reply.board.is_some() {
        let message = match shown {
            Shown::Followup(id) => Some(id),
            Shown::Response => press.get_response(ctx).await.ok().map(|m| m.id.get()),
            Shown::Nothing => None,
        };
        let channel = ChannelId(press.channel_id.get());
        super::board_shown(data, channel, &reply, message).await;
    }
    Ok(())
}

/// Where an answer's last message went.
enum Shown {
    /// The interaction's response (its id is fetched when needed).
    Response,
    /// A followup, with its id.
    Followup(u64),
    Nothing,
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
        shown = Shown::Followup(press.create_followup(ctx, m.followup()).await?.id.get());
    }
    Ok(shown)
}

/// The opponent accepts a challenge. With threads on, the match gets a thread of its own
/// (named after the players), its first board is posted there, and the channel is told where.
pub async fn accept(
    data: &Data,
    http: &serenity::Http,
    place: Place,
    actor: &Actor,
    id: Option<ChallengeId>,
) -> Result<Reply, ServiceError> {
    let s = &data.service;
    if !data.options.threads {
        return s.accept(place, actor, id, None).await;
    }
    let challenge = s.challenge_to_accept(place, actor, id).await?;
    let challenger = s.store().name_of(challenge.challenger).await?;
    let name = format!("Thud: {challenger} vs {}", actor.name);
    let Some(in_thread) = match_thread(http, place, &name).await else {
        return s.accept(place, actor, id, None).await;
    };
    // The service queues the match's opening board for the thread in the same transaction
    // that starts the match; the delivery worker posts it.
    let mut note = s
        .accept(place, actor, Some(challenge.id), Some(in_thread))
        .await?;
    note.spend_buttons = id.is_some();
    Ok(note)
}

/// Opens a thread named `name` for a match in the channel at `place`; `None` when it cannot
/// (a thread inside a thread, or no permission), and the match is played in the channel.
pub async fn match_thread(http: &serenity::Http, place: Place, name: &str) -> Option<ChannelId> {
    let name: String = name.chars().take(100).collect();
    let thread = serenity::CreateThread::new(name)
        .kind(serenity::ChannelType::PublicThread)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    match serenity::ChannelId::new(place.channel.0.max(1))
        .create_thread(http, thread)
        .await
    {
        Ok(t) => Some(ChannelId(t.id.get())),
        Err(e) => {
            tracing::warn!(channel = %place.channel, error = %e, "could not open a thread for the match");
            None
        }
    }
}

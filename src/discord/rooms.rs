//! The rooms matches are played in: a public thread opened for each, when the channel allows.
//! A failure says why (`NoRoom`): Discord's passing trouble (a 429, a 5xx, a time-out) is not
//! a missing permission, and a creation whose answer was lost may have made the thread, so the
//! server's active threads are looked through before a retry makes a second.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use super::repair::classify;
use crate::service::{Delivery, DeliveryFailure, NoRoom, Room, Service};
use crate::store::{ChannelId, GuildId, Recipient};

/// Discord's JSON error codes for a thread the bot may not open there.
const REFUSED: [(isize, &str); 3] = [
    (50001, "the bot cannot see the channel (Missing Access)"),
    (
        50013,
        "the bot may not open threads there (Missing Permissions)",
    ),
    (50024, "the channel takes no threads"),
];
/// Discord's JSON error code for a server at its limit of active threads.
const THREAD_LIMIT: isize = 160006;

/// A room for a match in server `guild`: a public thread opened with `http`.
pub fn thread_room(http: Arc<serenity::Http>, guild: GuildId) -> Room<'static> {
    Box::new(move |channel, name| {
        Box::pin(async move { match_thread(&http, guild, channel, &name).await })
    })
}

/// Opens a thread named `name` for a match in `channel`, or says why it could not.
async fn match_thread(
    http: &serenity::Http,
    guild: GuildId,
    channel: ChannelId,
    name: &str,
) -> Result<ChannelId, NoRoom> {
    let name = thread_name(name);
    let thread = serenity::CreateThread::new(name.clone())
        .kind(serenity::ChannelType::PublicThread)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    let parent = serenity::ChannelId::new(channel.0.max(1));
    let error = match parent.create_thread(http, thread).await {
        Ok(t) => return Ok(ChannelId(t.id.get())),
        Err(e) => e,
    };
    let why = no_room(&error);
    if matches!(why, NoRoom::Later(_)) {
        // The newest, should there be several.
        let made = made_anyway(http, guild, parent, &name).await;
        if let Some(&made) = made.as_ref().ok().and_then(|m| m.last()) {
            tracing::info!(%channel, thread = %made, "a thread whose creation timed out was made; using it");
            return Ok(made);
        }
    }
    tracing::warn!(%channel, error = %error, ?why, "could not open a thread for the match");
    Err(why)
}

/// `name` as Discord keeps a thread's name: at most 100 characters.
fn thread_name(name: &str) -> String {
    name.chars().take(100).collect()
}

/// Why Discord did not open the thread.
fn no_room(error: &serenity::Error) -> NoRoom {
    let serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) = error else {
        // The network, or the client's time-out: the request may or may not have been made.
        return NoRoom::Later(error.to_string());
    };
    let status = r.status_code.as_u16();
    if status == 429 || status >= 500 {
        return NoRoom::Later(format!("Discord answered {status}"));
    }
    if r.error.code == THREAD_LIMIT {
        return NoRoom::ThreadLimit;
    }
    match REFUSED.iter().find(|(code, _)| *code == r.error.code) {
        Some((code, why)) => NoRoom::Refused(format!("{why} (Discord error {code})")),
        None => NoRoom::Refused(format!(
            "Discord answered {status}: {} (error {})",
            r.error.message, r.error.code
        )),
    }
}

/// The threads named `name` in `parent` that the bot itself opened and that are still active,
/// oldest first: a creation whose answer was lost may have made one.
async fn made_anyway(
    http: &serenity::Http,
    guild: GuildId,
    parent: serenity::ChannelId,
    name: &str,
) -> Result<Vec<ChannelId>, serenity::Error> {
    let me = http.get_current_user().await?.id;
    let active = serenity::GuildId::new(guild.0.max(1))
        .get_active_threads(http)
        .await?;
    let mut made: Vec<u64> = active
        .threads
        .iter()
        .filter(|t| t.parent_id == Some(parent) && t.name == name && t.owner_id == Some(me))
        .map(|t| t.id.get())
        .collect();
    made.sort_unstable();
    Ok(made.into_iter().map(ChannelId).collect())
}

/// Delivers the outbox's record of a room no match began in (`Delivery::clears_room`): each
/// thread named `name` the bot made in the record's channel, if a creation made one after
/// all, is closed unless something lives in it. Looked for again on Discord's passing trouble.
pub(super) async fn clear_unused(
    service: &Service,
    http: &serenity::Http,
    delivery: &Delivery,
    name: &str,
) -> Result<Option<u64>, DeliveryFailure> {
    let Recipient::Channel(parent) = delivery.to else {
        return Ok(None);
    };
    let parent = serenity::ChannelId::new(parent.0.max(1));
    let name = thread_name(name);
    let made = made_anyway(http, delivery.guild, parent, &name)
        .await
        .map_err(|e| classify(&e))?;
    // Every one: a later opening of the same name (a retried seating) may be in use meanwhile.
    for thread in made {
        let in_use = service.outbox().thread_in_use(thread).await;
        if in_use.map_err(|e| DeliveryFailure::later(&e))? {
            continue;
        }
        if let Err(e) = service.outbox().closing_thread(thread).await {
            tracing::warn!(error = %e, %thread, "could not note that the bot archives a thread");
        }
        let channel = serenity::ChannelId::new(thread.0.max(1));
        super::repair::archive_if_thread(http, channel)
            .await
            .map_err(|e| classify(&e))?;
        tracing::info!(%thread, "closed a thread opened for a match that did not begin in it");
    }
    Ok(None)
}

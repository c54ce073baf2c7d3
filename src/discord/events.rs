//! Gateway events that change where matches can be played: a channel or thread deleted, the
//! bot removed from a server, a match thread archived or locked by Discord or a moderator; and
//! those that change who plays in tournaments and who organises them: a member banned
//! (GUILD_MODERATION) or gone (GUILD_MEMBERS, when the operator enabled it), a role renamed
//! or deleted.

use poise::serenity_prelude as serenity;

use super::Data;
use crate::service::ArchivedThread;
use crate::service::Departure;
use crate::store::{ChannelId, GuildId, UserId};

/// Acts on the events that concern matches; every other event is left alone.
pub async fn on_event(ctx: &serenity::Context, data: &Data, event: &serenity::FullEvent) {
    let s = &data.service;
    let done = match event {
        serenity::FullEvent::ChannelDelete { channel, .. } => {
            let done = s.channels().channel_gone(ChannelId(channel.id.get())).await;
            // Its threads went with it, and Discord sends no THREAD_DELETE for them.
            threads_of_deleted_channel(ctx, data, channel).await;
            done
        }
        serenity::FullEvent::ThreadDelete { thread, .. } => {
            s.channels().channel_gone(ChannelId(thread.id.get())).await
        }
        // `unavailable` means an outage, not a removal: the guild comes back by itself.
        serenity::FullEvent::GuildDelete { incomplete, .. } if !incomplete.unavailable => {
            s.channels().guild_gone(GuildId(incomplete.id.get())).await
        }
        serenity::FullEvent::ThreadUpdate { new, .. } => {
            return thread_changed(data, new).await;
        }
        serenity::FullEvent::GuildCreate { guild, .. } => {
            organiser_role_of(data, guild).await;
            return check_match_channels(ctx, data, guild).await;
        }
        serenity::FullEvent::GuildBanAddition {
            guild_id,
            banned_user,
        } => {
            let (guild, user) = (GuildId(guild_id.get()), UserId(banned_user.id.get()));
            return super::tournament::departed(s, guild, user, Departure::Banned).await;
        }
        // Sent for a ban too (after GUILD_BAN_ADD), when the player is already withdrawn.
        serenity::FullEvent::GuildMemberRemoval { guild_id, user, .. } => {
            let (guild, user) = (GuildId(guild_id.get()), UserId(user.id.get()));
            return super::tournament::departed(s, guild, user, Departure::Left).await;
        }
        serenity::FullEvent::GuildRoleUpdate { new, .. } => {
            let guild = GuildId(new.guild_id.get());
            return role_changed(data, guild, new.id.get(), Some(&new.name)).await;
        }
        serenity::FullEvent::GuildRoleDelete {
            guild_id,
            removed_role_id,
            ..
        } => {
            let guild = GuildId(guild_id.get());
            return role_changed(data, guild, removed_role_id.get(), None).await;
        }
        _ => return,
    };
    match done {
        Ok(0) => {}
        Ok(paused) => tracing::warn!(
            paused,
            "matches lost their channel; their clocks are paused"
        ),
        Err(e) => tracing::error!(error = %e, "could not pause the matches of a lost channel"),
    }
}

/// The organisers' role of a server is kept as Discord has it: renamed, its name follows (the
/// refusal that names it stays true); deleted, it is forgotten.
async fn role_changed(data: &Data, guild: GuildId, role: u64, name: Option<&str>) {
    match data
        .service
        .tournaments()
        .role_changed(guild, role, name)
        .await
    {
        Ok(true) => {
            tracing::info!(%guild, role, renamed = name.is_some(), "the organisers' role changed")
        }
        Ok(false) => {}
        Err(e) => tracing::warn!(%guild, role, error = %e, "could not follow a role's change"),
    }
}

/// On (re)connecting, the server's roles are all there: the organisers' role catches up with
/// a rename or deletion made while the bot could not hear it.
async fn organiser_role_of(data: &Data, guild: &serenity::Guild) {
    let id = GuildId(guild.id.get());
    let named = match data.service.tournaments().organiser_role(id).await {
        Ok(Some(named)) => named,
        Ok(None) => return,
        Err(e) => {
            tracing::warn!(error = %e, "could not read a server's organisers' role");
            return;
        }
    };
    let now = guild
        .roles
        .get(&serenity::RoleId::new(named.id.max(1)))
        .map(|r| r.name.as_str());
    if now != Some(named.name.as_str()) {
        role_changed(data, id, named.id, now).await;
    }
}

/// A match thread that Discord archived (after its inactivity time) is opened again at once
/// (through the outbox), so players can keep using commands in it; a locked one cannot be,
/// and pauses its match.
async fn thread_changed(data: &Data, thread: &serenity::GuildChannel) {
    let Some(meta) = thread.thread_metadata else {
        return;
    };
    if !meta.archived && !meta.locked {
        return;
    }
    let channel = ChannelId(thread.id.get());
    if meta.locked {
        if let Err(e) = data.service.channels().thread_locked(channel).await {
            tracing::error!(error = %e, %channel, "could not pause the match of a locked thread");
        }
        return;
    }
    let guild = GuildId(thread.guild_id.get());
    let parent = thread.parent_id.map(|p| ChannelId(p.get()));
    match data
        .service
        .channels()
        .thread_archived(guild, channel, parent)
        .await
    {
        Ok(ArchivedThread::Reopen) => {
            tracing::info!(%channel, "the archived thread of a match in play is to be reopened")
        }
        Ok(ArchivedThread::NoMatch) => {}
        Ok(ArchivedThread::LeftClosed) => {
            tracing::info!(%channel, "a moderator closed a match thread twice; its match is paused")
        }
        Err(e) => {
            tracing::error!(error = %e, %channel, "could not decide what becomes of an archived match thread")
        }
    }
}

/// A channel was deleted: the threads of matches inside it went too. Each match channel of
/// its server that the cache no longer lists as a channel is looked up.
async fn threads_of_deleted_channel(
    ctx: &serenity::Context,
    data: &Data,
    deleted: &serenity::GuildChannel,
) {
    let listed: Vec<serenity::ChannelId> = match ctx.cache.guild(deleted.guild_id) {
        Some(guild) => guild.channels.keys().copied().collect(),
        None => Vec::new(),
    };
    let seen = |c: ChannelId| c.0 == deleted.id.get() || listed.iter().any(|l| l.get() == c.0);
    check_unseen(ctx, data, GuildId(deleted.guild_id.get()), seen).await;
}

/// When the bot (re)connects, Discord sends each server's channels and its active threads, but
/// not what happened while the bot could not hear (a session that cannot be resumed loses its
/// events). A match whose channel is not among them is looked up: an archived thread is opened
/// again, a locked one, a deleted channel or one the bot can no longer see pauses its match.
async fn check_match_channels(ctx: &serenity::Context, data: &Data, guild: &serenity::Guild) {
    let seen = |c: ChannelId| {
        let id = serenity::ChannelId::new(c.0.max(1));
        guild.channels.contains_key(&id) || guild.threads.iter().any(|t| t.id == id)
    };
    check_unseen(ctx, data, GuildId(guild.id.get()), seen).await;
}

/// Looks up each match channel of `guild` that is not `seen`: an archived thread is opened
/// again, a locked one, a deleted channel or one the bot can no longer see pauses its match.
async fn check_unseen(
    ctx: &serenity::Context,
    data: &Data,
    guild: GuildId,
    seen: impl Fn(ChannelId) -> bool,
) {
    let channels = match data.service.channels().match_channels_in(guild).await {
        Ok(channels) => channels,
        Err(e) => {
            tracing::warn!(error = %e, "could not list the match channels of a server");
            return;
        }
    };
    for channel in channels.into_iter().filter(|c| c.0 != 0 && !seen(*c)) {
        let id = serenity::ChannelId::new(channel.0);
        let done = match id.to_channel(&ctx.http).await {
            Ok(serenity::Channel::Guild(thread)) if thread.thread_metadata.is_some() => {
                thread_changed(data, &thread).await;
                continue;
            }
            Ok(_) => continue,
            Err(e) => match discord_code(&e) {
                Some(10003) => data.service.channels().channel_gone(channel).await,
                Some(50001) => data.service.channels().channel_hidden(channel).await,
                _ => {
                    tracing::warn!(error = %e, %channel, "could not look up a match channel");
                    continue;
                }
            },
        };
        match done {
            Ok(paused) => tracing::warn!(
                paused, %channel,
                "a match channel went while the bot was away; its match is paused"
            ),
            Err(e) => tracing::error!(error = %e, %channel, "could not pause a match"),
        }
    }
}

/// Discord's JSON error code of a failed request.
fn discord_code(error: &serenity::Error) -> Option<isize> {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

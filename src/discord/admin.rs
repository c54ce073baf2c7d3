//! `/thud-admin`: what a server's staff do, a top-level command of its own so that Discord's
//! `default_member_permissions` (Manage Server) hides it from everyone else and a server can
//! grant it to other roles under *Server Settings → Integrations*. Each subcommand still checks
//! who may use it: a server that shows the command to everyone gives nobody more rights.

use super::tournament::organise;
use super::{actor, answer, place, Context, Error};

/// Stop stuck matches and organise tournaments (Manage Server unless the server says otherwise)
#[poise::command(
    slash_command,
    rename = "thud-admin",
    guild_only,
    install_context = "Guild",
    interaction_context = "Guild",
    default_member_permissions = "MANAGE_GUILD",
    subcommands("abort", "organise"),
    subcommand_required
)]
pub async fn admin(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Stop this channel's stuck match, unrated (needs Manage Server)
#[poise::command(slash_command)]
async fn abort(ctx: Context<'_>) -> Result<(), Error> {
    let me = actor(ctx).await;
    let moderator = match ctx {
        poise::Context::Application(app) => app
            .interaction
            .member
            .as_ref()
            .and_then(|m| m.permissions)
            .is_some_and(|p| p.manage_guild()),
        poise::Context::Prefix(_) => false,
    };
    let s = &ctx.data().service;
    answer(ctx, async {
        s.matches().abort(place(ctx)?, &me, moderator).await
    })
    .await
}

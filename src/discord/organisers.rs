//! Who may organise tournaments in a server: members who manage it, or hold the role it named.

use super::{place, Context};
use crate::service::ServiceError;

/// Whether the member manages the server, and the ids of their roles, as Discord sent them
/// with the interaction (so they are current, and no cache or privileged intent is needed).
pub(super) fn standing(ctx: Context<'_>) -> (bool, Vec<u64>) {
    let member = match ctx {
        poise::Context::Application(app) => app.interaction.member.as_ref(),
        poise::Context::Prefix(_) => None,
    };
    let Some(member) = member else {
        return (false, Vec::new());
    };
    let manages = member.permissions.is_some_and(|p| p.manage_guild());
    (manages, member.roles.iter().map(|r| r.get()).collect())
}

/// Whether the member may organise: Manage Server, or the role the server named.
pub(super) async fn is_organiser(ctx: Context<'_>) -> Result<bool, ServiceError> {
    let (manages, roles) = standing(ctx);
    let guild = place(ctx)?.guild;
    ctx.data()
        .service
        .tournaments()
        .is_organiser(guild, manages, &roles)
        .await
}

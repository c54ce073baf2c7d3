//! Who organises tournaments in a server: members with Manage Server, and the members of the
//! role the server names (`/thud tournament organisers`).

use super::refuse_tournament;
use super::Tournaments;
use crate::service::error::Result;
use crate::service::outcome::Reply;
use crate::service::refusal::TournamentRefusal as Why;
use crate::service::voice;
use crate::service::Actor;
use crate::store::{GuildId, OrganiserRole};

/// What `/thud tournament organisers` asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OrganiserRoleChange {
    /// Say who organises now.
    Show,
    /// Members of this role organise too (Discord's role id and name).
    Name { id: u64, name: String },
    /// Only Manage Server counts again.
    Clear,
}

impl Tournaments {
    /// The role `guild` named for its organisers, with the name it had when last seen.
    pub async fn organiser_role(&self, guild: GuildId) -> Result<Option<OrganiserRole>> {
        Ok(self.store.organiser_role(guild).await?)
    }

    /// Whether a member of `guild` may create, start and cancel tournaments: they manage the
    /// server, or hold the role it named (`roles` are the member's role ids).
    pub async fn is_organiser(
        &self,
        guild: GuildId,
        manages_server: bool,
        roles: &[u64],
    ) -> Result<bool> {
        if manages_server {
            return Ok(true);
        }
        let named = self.store.organiser_role(guild).await?;
        Ok(named.is_some_and(|role| roles.contains(&role.id)))
    }

    /// The refusal of a member who may not organise in `guild`, naming its role if it has one.
    pub(super) async fn not_organiser<T>(&self, guild: GuildId) -> Result<T> {
        let role = self.store.organiser_role(guild).await?.map(|r| r.name);
        refuse_tournament(Why::NotOrganiser { role })
    }

    /// Shows, names or clears the role whose members organise tournaments in `guild`; a
    /// change needs Manage Server.
    pub async fn organisers(
        &self,
        guild: GuildId,
        actor: &Actor,
        manages_server: bool,
        change: OrganiserRoleChange,
    ) -> Result<Reply> {
        let now = self.clock.now();
        let role = match change {
            OrganiserRoleChange::Show => self.store.organiser_role(guild).await?,
            _ if !manages_server => return refuse_tournament(Why::NotServerManager),
            OrganiserRoleChange::Name { id, name } => {
                let role = OrganiserRole { id, name };
                self.store
                    .set_organiser_role(guild, Some(&role), actor.id, now)
                    .await?;
                Some(role)
            }
            OrganiserRoleChange::Clear => {
                self.store
                    .set_organiser_role(guild, None, actor.id, now)
                    .await?;
                None
            }
        };
        Ok(Reply::private(voice::organisers_here(
            role.as_ref().map(|r| r.name.as_str()),
        )))
    }

    /// Discord says role `role` of `guild` was renamed to `name`, or deleted (`None`): the
    /// organisers' role keeps its name up to date, and a deleted one is forgotten.
    pub async fn role_changed(
        &self,
        guild: GuildId,
        role: u64,
        name: Option<&str>,
    ) -> Result<bool> {
        Ok(self.store.organiser_role_changed(guild, role, name).await?)
    }
}

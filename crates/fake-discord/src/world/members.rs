//! Who is in the test guild, and with which roles, as it changes: a member given a role
//! (GUILD_MEMBER_UPDATE), leaving or kicked (GUILD_MEMBER_REMOVE), banned (GUILD_BAN_ADD, then
//! GUILD_MEMBER_REMOVE). docs/events/gateway-events.mdx: GUILD_MEMBER_UPDATE and
//! GUILD_MEMBER_REMOVE ("Sent when a user is removed from a guild (leave/kick/ban)") need the
//! privileged GUILD_MEMBERS intent; GUILD_BAN_ADD needs GUILD_MODERATION, which is not
//! privileged, and the bot must hold BAN_MEMBERS or VIEW_AUDIT_LOG. A user no longer in the guild gets 10007 Unknown Member from
//! `GET /guilds/{guild}/members/{user}` and can send no interaction from it.

use serde_json::json;

use super::{intent, World};
use crate::fixture::{self, permission, GUILD_ID};
use crate::record::snowflake;

impl World {
    /// Whether `user` is a member of the test guild now.
    pub fn is_member(&self, user: u64) -> bool {
        fixture::member_by_id(user).is_some() && !self.departed.contains(&user)
    }

    /// The roles `user` holds now: the fixture's and those given since.
    pub fn roles_of(&self, user: u64) -> Vec<u64> {
        let mut roles: Vec<u64> = fixture::member_by_id(user)
            .map(|m| m.roles.to_vec())
            .unwrap_or_default();
        roles.extend(self.given_roles.get(&user).into_iter().flatten());
        roles
    }

    /// The guild member object of `user` as it is now, or `None` for a non-member.
    pub fn member_json(&self, user: u64, with_user: bool) -> Option<serde_json::Value> {
        if !self.is_member(user) {
            return None;
        }
        let mut member = fixture::member_by_id(user)?.member_json(with_user);
        member["roles"] = json!(self
            .roles_of(user)
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>());
        Some(member)
    }

    /// Gives `user` `role` (as `PUT /guilds/{guild}/members/{user}/roles/{role}` by a
    /// moderator would), announced by GUILD_MEMBER_UPDATE.
    pub fn give_role(&mut self, user: u64, role: u64) -> Result<(), String> {
        if !self.is_member(user) {
            return Err(format!("user {user} is not a member"));
        }
        if !self
            .roles_json()
            .iter()
            .any(|r| snowflake(&r["id"]) == Some(role))
        {
            return Err(format!("no role {role}"));
        }
        self.given_roles.entry(user).or_default().push(role);
        let mut event = self.member_json(user, true).unwrap_or_default();
        event["guild_id"] = json!(GUILD_ID.to_string());
        self.dispatch(
            Some(GUILD_ID),
            intent::GUILD_MEMBERS,
            "GUILD_MEMBER_UPDATE",
            event,
        );
        Ok(())
    }

    /// `user` leaves the guild, or is kicked: GUILD_MEMBER_REMOVE.
    pub fn remove_member(&mut self, user: u64) -> Result<(), String> {
        let Some(member) = fixture::member_by_id(user).filter(|_| self.is_member(user)) else {
            return Err(format!("user {user} is not a member"));
        };
        self.departed.insert(user);
        let event = json!({"guild_id": GUILD_ID.to_string(), "user": member.user_json()});
        self.dispatch(
            Some(GUILD_ID),
            intent::GUILD_MEMBERS,
            "GUILD_MEMBER_REMOVE",
            event,
        );
        Ok(())
    }

    /// A moderator bans `user`: GUILD_BAN_ADD, and they are removed (GUILD_MEMBER_REMOVE).
    pub fn ban(&mut self, user: u64) -> Result<(), String> {
        let Some(member) = fixture::member_by_id(user).filter(|_| self.is_member(user)) else {
            return Err(format!("user {user} is not a member"));
        };
        let event = json!({"guild_id": GUILD_ID.to_string(), "user": member.user_json()});
        // docs/events/gateway-events, "Guild Ban Add": sent only to a bot holding BAN_MEMBERS
        // or VIEW_AUDIT_LOG in the guild; a bot without either never hears of the ban.
        let hears = permission::BAN_MEMBERS | permission::VIEW_AUDIT_LOG;
        if self.base_permissions(fixture::BOT_ID) & hears != 0 {
            self.dispatch(
                Some(GUILD_ID),
                intent::GUILD_MODERATION,
                "GUILD_BAN_ADD",
                event,
            );
        }
        self.remove_member(user)
    }
}

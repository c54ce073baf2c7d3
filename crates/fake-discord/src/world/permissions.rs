//! Who may do what in a channel, computed as Discord documents it, and the checks every REST call
//! of the bot into a guild channel passes.
//!
//! The computation follows docs/topics/permissions.md ("Permission Overwrites" and its
//! pseudo-code `compute_base_permissions` / `compute_overwrites`): the guild owner has every
//! permission; otherwise `@everyone`'s permissions OR the member's roles', every permission with
//! ADMINISTRATOR; then in the channel the `@everyone` overwrite, then the member's role
//! overwrites together (deny, then allow), then the member's own overwrite. "Implicit
//! Permissions" of the same page: without VIEW_CHANNEL a member has no permission in the channel,
//! and without SEND_MESSAGES a text channel also denies MENTION_EVERYONE, SEND_TTS_MESSAGES,
//! ATTACH_FILES and EMBED_LINKS. Threads take the overwrites of their parent channel
//! (docs/topics/threads.md, "Permissions"), where SEND_MESSAGES_IN_THREADS, not SEND_MESSAGES,
//! lets one talk.

use serde_json::{json, Value};

use super::{parse_id, Answer, World};
use crate::fixture::{self, permission, EVERYONE_ROLE, GUILD_ID, VETINARI};
use crate::record::snowflake;

/// A channel permission overwrite: bits allowed and denied for a role or a member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overwrite {
    /// The role or user id.
    pub id: u64,
    /// True for a member overwrite (type 1), false for a role's (type 0).
    pub member: bool,
    pub allow: u64,
    pub deny: u64,
}

impl Overwrite {
    /// An overwrite for a role (`EVERYONE_ROLE` for `@everyone`).
    pub fn role(id: u64, allow: u64, deny: u64) -> Self {
        Overwrite {
            id,
            member: false,
            allow,
            deny,
        }
    }

    /// An overwrite for one member.
    pub fn member(id: u64, allow: u64, deny: u64) -> Self {
        Overwrite {
            id,
            member: true,
            allow,
            deny,
        }
    }

    /// The overwrite object of a channel's `permission_overwrites`.
    pub fn to_json(self) -> Value {
        json!({
            "id": self.id.to_string(),
            "type": u8::from(self.member),
            "allow": self.allow.to_string(),
            "deny": self.deny.to_string(),
        })
    }

    fn from_json(value: &Value) -> Option<Self> {
        let bits = |key: &str| -> u64 {
            value[key]
                .as_str()
                .and_then(|s| s.parse().ok())
                .unwrap_or(0)
        };
        Some(Overwrite {
            id: snowflake(&value["id"])?,
            member: value["type"] == 1,
            allow: bits("allow"),
            deny: bits("deny"),
        })
    }
}

/// Thread channel types: announcement, public and private threads.
pub fn is_thread(channel: &Value) -> bool {
    matches!(channel["type"].as_u64(), Some(10..=12))
}

impl World {
    /// A member's guild-wide permissions: the owner has all; otherwise `@everyone` OR the
    /// member's roles, and ADMINISTRATOR means all.
    pub fn base_permissions(&self, user: u64) -> u64 {
        if user == VETINARI.id {
            return permission::ALL;
        }
        if !self.is_member(user) {
            return 0;
        }
        let role = |id: &u64| self.role_permissions.get(id).copied().unwrap_or(0);
        let bits = self
            .roles_of(user)
            .iter()
            .fold(role(&EVERYONE_ROLE), |bits, id| bits | role(id));
        if bits & permission::ADMINISTRATOR != 0 {
            permission::ALL
        } else {
            bits
        }
    }

    /// A member's permissions in a guild channel or thread, overwrites and implicit rules
    /// applied: what the member may actually do there.
    pub fn permissions_in(&self, user: u64, channel: u64) -> u64 {
        let bits = self.computed_permissions_in(user, channel);
        if bits == permission::ALL {
            return bits;
        }
        let thread = self.channels.get(&channel).is_some_and(is_thread);
        implicit(bits, thread)
    }

    /// A member's permissions as the docs' `compute_permissions` computes them, overwrites
    /// applied but not the implicit denials ("they are not explicitly denied when doing
    /// permissions calculations, but they are ignored"): what an interaction's
    /// `app_permissions` carries.
    pub fn computed_permissions_in(&self, user: u64, channel: u64) -> u64 {
        let base = self.base_permissions(user);
        if base == permission::ALL {
            return base;
        }
        let Some(channel) = self.channels.get(&channel) else {
            return base;
        };
        let source = if is_thread(channel) {
            channel["parent_id"]
                .as_str()
                .and_then(parse_id)
                .and_then(|p| self.channels.get(&p))
                .unwrap_or(channel)
        } else {
            channel
        };
        let overwrites: Vec<Overwrite> = source["permission_overwrites"]
            .as_array()
            .map(|list| list.iter().filter_map(Overwrite::from_json).collect())
            .unwrap_or_default();
        let roles = self.roles_of(user);
        let mut bits = base;
        if let Some(everyone) = overwrites.iter().find(|o| !o.member && o.id == GUILD_ID) {
            bits = (bits & !everyone.deny) | everyone.allow;
        }
        let (allow, deny) = overwrites
            .iter()
            .filter(|o| !o.member && roles.contains(&o.id))
            .fold((0, 0), |(allow, deny), o| (allow | o.allow, deny | o.deny));
        bits = (bits & !deny) | allow;
        if let Some(own) = overwrites.iter().find(|o| o.member && o.id == user) {
            bits = (bits & !own.deny) | own.allow;
        }
        bits
    }

    /// Whether the bot holds every bit of `needed` in a guild channel (always true in a DM).
    pub(super) fn bot_can(&self, channel: u64, needed: u64) -> bool {
        match self.channels.get(&channel) {
            Some(c) if c.get("guild_id").is_some() => {
                self.permissions_in(fixture::BOT_ID, channel) & needed == needed
            }
            _ => true,
        }
    }

    /// The channel the bot addresses, or Discord's refusal: 10003 for an unknown or deleted
    /// channel, 50001 Missing Access when the bot left the guild or cannot view the channel.
    pub(super) fn reach_channel(&self, channel: &str) -> Result<(u64, Value), Answer> {
        let Some((id, found)) =
            parse_id(channel).and_then(|id| Some((id, self.channels.get(&id)?)))
        else {
            return Err(Answer::error(404, 10003, "Unknown Channel"));
        };
        if found.get("guild_id").is_some()
            && (!self.bot_in_guild || !self.bot_can(id, permission::VIEW_CHANNEL))
        {
            return Err(Answer::error(403, 50001, "Missing Access"));
        }
        Ok((id, found.clone()))
    }

    /// `Err(50013 Missing Permissions)` unless the bot holds every bit of `needed`.
    pub(super) fn require(&self, channel: u64, needed: u64) -> Result<(), Answer> {
        if self.bot_can(channel, needed) {
            Ok(())
        } else {
            Err(Answer::error(403, 50013, "Missing Permissions"))
        }
    }

    /// What the bot needs to talk in a channel: SEND_MESSAGES, or SEND_MESSAGES_IN_THREADS in a
    /// thread (docs/topics/threads.md: "The SEND_MESSAGES permission has no effect in threads").
    pub(super) fn send_permission(channel: &Value) -> u64 {
        if is_thread(channel) {
            permission::SEND_MESSAGES_IN_THREADS
        } else {
            permission::SEND_MESSAGES
        }
    }

    /// Replaces (or adds) the overwrite for the same role or member and announces the channel's
    /// new state (CHANNEL_UPDATE).
    pub fn set_overwrite(&mut self, channel: u64, overwrite: Overwrite) -> Result<(), String> {
        self.edit_overwrites(channel, |list| {
            list.retain(|o| o.id != overwrite.id);
            list.push(overwrite);
        })
    }

    /// Removes the overwrite of a role or member.
    pub fn remove_overwrite(&mut self, channel: u64, id: u64) -> Result<(), String> {
        self.edit_overwrites(channel, |list| list.retain(|o| o.id != id))
    }

    fn edit_overwrites(
        &mut self,
        channel: u64,
        change: impl FnOnce(&mut Vec<Overwrite>),
    ) -> Result<(), String> {
        let Some(stored) = self.channels.get_mut(&channel) else {
            return Err(format!("no channel {channel}"));
        };
        if is_thread(stored) || stored.get("guild_id").is_none() {
            return Err(format!(
                "channel {channel} has no overwrites of its own (a thread or a DM)"
            ));
        }
        let mut list: Vec<Overwrite> = stored["permission_overwrites"]
            .as_array()
            .map(|l| l.iter().filter_map(Overwrite::from_json).collect())
            .unwrap_or_default();
        change(&mut list);
        stored["permission_overwrites"] = list.iter().copied().map(Overwrite::to_json).collect();
        let event = stored.clone();
        self.dispatch(
            Some(GUILD_ID),
            super::intent::GUILDS,
            "CHANNEL_UPDATE",
            event,
        );
        Ok(())
    }

    /// Changes what a role grants guild-wide and announces it (GUILD_ROLE_UPDATE).
    pub fn set_role_permissions(&mut self, role: u64, bits: u64) -> Result<(), String> {
        if !self.role_permissions.contains_key(&role) {
            return Err(format!("no role {role}"));
        }
        self.role_permissions.insert(role, bits);
        if let Some(json) = self
            .roles_json()
            .into_iter()
            .find(|r| snowflake(&r["id"]) == Some(role))
        {
            let event = json!({"guild_id": GUILD_ID.to_string(), "role": json});
            self.dispatch(
                Some(GUILD_ID),
                super::intent::GUILDS,
                "GUILD_ROLE_UPDATE",
                event,
            );
        }
        Ok(())
    }

    /// The guild's roles with their current permissions.
    pub fn roles_json(&self) -> Vec<Value> {
        fixture::roles_json()
            .into_iter()
            .map(|mut role| {
                if let Some(bits) =
                    snowflake(&role["id"]).and_then(|id| self.role_permissions.get(&id))
                {
                    role["permissions"] = json!(bits.to_string());
                }
                role
            })
            .collect()
    }
}

/// `bits` with the implicit denials of docs/topics/permissions.md ("Implicit Permissions"):
/// without VIEW_CHANNEL nothing else counts, and without SEND_MESSAGES a text channel also
/// denies MENTION_EVERYONE, SEND_TTS_MESSAGES, ATTACH_FILES and EMBED_LINKS.
fn implicit(mut bits: u64, thread: bool) -> u64 {
    if bits & permission::VIEW_CHANNEL == 0 {
        return 0;
    }
    if !thread && bits & permission::SEND_MESSAGES == 0 {
        bits &= !(permission::MENTION_EVERYONE
            | permission::SEND_TTS_MESSAGES
            | permission::ATTACH_FILES
            | permission::EMBED_LINKS);
    }
    bits
}

//! The world the fake Discord serves: one bot application, one test guild with channels, roles
//! and members, and the JSON objects Discord uses to describe them.

use serde_json::{json, Value};

/// The bot token the fake accepts; requests with any other token get 401.
pub const TOKEN: &str = "ODAwMDAwMDAwMDAwMDAwMDAx.fake-discord.thudbot-test-token";

/// The application id, which for a bot is also its user id.
pub const APPLICATION_ID: u64 = 1_100_000_000_000_000_001;
/// The bot's own user id (equal to the application id, as on Discord).
pub const BOT_ID: u64 = APPLICATION_ID;

/// The test guild.
pub const GUILD_ID: u64 = 900_000_000_000_000_001;
/// The `@everyone` role, whose id is the guild id as on Discord.
pub const EVERYONE_ROLE: u64 = GUILD_ID;
/// A role with Manage Server, held by [`VIMES`].
pub const MODERATOR_ROLE: u64 = 900_000_000_000_000_201;
/// The managed role Discord gives the bot when it joins.
pub const BOT_ROLE: u64 = 900_000_000_000_000_202;
/// A role with no permissions of its own, held by nobody at first (a server's tournament
/// organisers, say).
pub const ARBITER_ROLE: u64 = 900_000_000_000_000_203;

/// The category holding the text channels.
pub const CATEGORY_CHANNEL: u64 = 900_000_000_000_000_100;
/// `#general`, a text channel.
pub const GENERAL_CHANNEL: u64 = 900_000_000_000_000_101;
/// `#thud`, a second text channel for matches.
pub const THUD_CHANNEL: u64 = 900_000_000_000_000_102;

/// Discord's permission bits used by the fixture.
pub mod permission {
    pub const CREATE_INSTANT_INVITE: u64 = 1 << 0;
    pub const BAN_MEMBERS: u64 = 1 << 2;
    pub const ADMINISTRATOR: u64 = 1 << 3;
    pub const MANAGE_CHANNELS: u64 = 1 << 4;
    pub const MANAGE_GUILD: u64 = 1 << 5;
    pub const ADD_REACTIONS: u64 = 1 << 6;
    pub const VIEW_AUDIT_LOG: u64 = 1 << 7;
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    pub const SEND_MESSAGES: u64 = 1 << 11;
    pub const SEND_TTS_MESSAGES: u64 = 1 << 12;
    pub const MANAGE_MESSAGES: u64 = 1 << 13;
    pub const EMBED_LINKS: u64 = 1 << 14;
    pub const ATTACH_FILES: u64 = 1 << 15;
    pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
    pub const MENTION_EVERYONE: u64 = 1 << 17;
    pub const USE_EXTERNAL_EMOJIS: u64 = 1 << 18;
    pub const CHANGE_NICKNAME: u64 = 1 << 26;
    pub const USE_APPLICATION_COMMANDS: u64 = 1 << 31;
    pub const MANAGE_THREADS: u64 = 1 << 34;
    pub const CREATE_PUBLIC_THREADS: u64 = 1 << 35;
    pub const CREATE_PRIVATE_THREADS: u64 = 1 << 36;
    pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
    /// Every permission Discord defines (bits 0 to 50); what the guild owner has.
    pub const ALL: u64 = (1 << 51) - 1;
}

/// What `@everyone` may do in the test guild: the usual defaults of a new server.
pub const EVERYONE_PERMISSIONS: u64 = permission::CREATE_INSTANT_INVITE
    | permission::ADD_REACTIONS
    | permission::VIEW_CHANNEL
    | permission::SEND_MESSAGES
    | permission::EMBED_LINKS
    | permission::ATTACH_FILES
    | permission::READ_MESSAGE_HISTORY
    | permission::USE_EXTERNAL_EMOJIS
    | permission::CHANGE_NICKNAME
    | permission::USE_APPLICATION_COMMANDS
    | permission::CREATE_PUBLIC_THREADS
    | permission::CREATE_PRIVATE_THREADS
    | permission::SEND_MESSAGES_IN_THREADS;
/// What the moderator role adds.
pub const MODERATOR_PERMISSIONS: u64 =
    permission::MANAGE_GUILD | permission::MANAGE_MESSAGES | permission::MANAGE_THREADS;
/// What the bot's managed role grants: exactly the permissions its invite link asks for (the
/// README's integer 309237681152: View Channels, Send Messages, Attach Files, Create Public
/// Threads, Send Messages in Threads). Everything else it has comes from `@everyone`.
pub const BOT_PERMISSIONS: u64 = permission::VIEW_CHANNEL
    | permission::SEND_MESSAGES
    | permission::ATTACH_FILES
    | permission::CREATE_PUBLIC_THREADS
    | permission::SEND_MESSAGES_IN_THREADS;

/// When every member joined the test guild.
pub const JOINED_AT: &str = "2024-03-01T12:00:00.000000+00:00";

/// A member of the test guild.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestUser {
    pub id: u64,
    pub name: &'static str,
    pub global_name: Option<&'static str>,
    pub bot: bool,
    pub roles: &'static [u64],
}

/// A player.
pub const ALICE: TestUser = TestUser {
    id: 1_000_000_000_000_000_001,
    name: "alice",
    global_name: Some("Alice"),
    bot: false,
    roles: &[],
};
/// Another player.
pub const BOB: TestUser = TestUser {
    id: 1_000_000_000_000_000_002,
    name: "bob",
    global_name: Some("Bob"),
    bot: false,
    roles: &[],
};
/// A third player, for "someone else clicks the button".
pub const CAROL: TestUser = TestUser {
    id: 1_000_000_000_000_000_003,
    name: "carol",
    global_name: None,
    bot: false,
    roles: &[],
};
/// A moderator: holds [`MODERATOR_ROLE`] (Manage Server) but does not own the guild.
pub const VIMES: TestUser = TestUser {
    id: 1_000_000_000_000_000_004,
    name: "vimes",
    global_name: Some("Sam Vimes"),
    bot: false,
    roles: &[MODERATOR_ROLE],
};
/// The guild owner, who has every permission without holding a role.
pub const VETINARI: TestUser = TestUser {
    id: 1_000_000_000_000_000_005,
    name: "vetinari",
    global_name: Some("Havelock"),
    bot: false,
    roles: &[],
};
/// Another bot account in the guild (bots cannot be challenged or sent DMs).
pub const GOLEM: TestUser = TestUser {
    id: 1_000_000_000_000_000_006,
    name: "golem",
    global_name: None,
    bot: true,
    roles: &[],
};
/// The bot under test, as a guild member.
pub const THUDBOT: TestUser = TestUser {
    id: BOT_ID,
    name: "thudbot",
    global_name: None,
    bot: true,
    roles: &[BOT_ROLE],
};

/// Everyone in the test guild, the bot included.
pub const MEMBERS: [TestUser; 7] = [ALICE, BOB, CAROL, VIMES, VETINARI, GOLEM, THUDBOT];

/// The guild member with this user id.
pub fn member_by_id(id: u64) -> Option<TestUser> {
    MEMBERS.iter().copied().find(|u| u.id == id)
}

impl TestUser {
    /// Permissions in the guild's channels as the fixture starts (no overwrites); the fake
    /// computes the current ones with `FakeDiscord::permissions_in`.
    pub fn permissions(&self) -> u64 {
        if self.id == VETINARI.id {
            return permission::ALL;
        }
        let mut bits = EVERYONE_PERMISSIONS;
        for role in self.roles {
            bits |= role_permissions(*role);
        }
        if bits & permission::ADMINISTRATOR != 0 {
            permission::ALL
        } else {
            bits
        }
    }

    /// The user object (Discord's `user` structure as other users see it).
    pub fn user_json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.name,
            // Users on the new name system have discriminator "0"; bots keep a four-digit tag.
            "discriminator": if self.bot { "4242" } else { "0" },
            "global_name": self.global_name,
            "avatar": null,
            "avatar_decoration_data": null,
            "banner": null,
            "accent_color": null,
            "bot": self.bot,
            "system": false,
            "public_flags": 0,
            "flags": 0,
            "primary_guild": null,
            "collectibles": null,
        })
    }

    /// The guild member object; with `with_user` false it is the partial member Discord nests
    /// under a message author or in `resolved.members` (no `user` key).
    pub fn member_json(&self, with_user: bool) -> Value {
        let mut member = json!({
            "nick": null,
            "avatar": null,
            "banner": null,
            "roles": self.roles.iter().map(u64::to_string).collect::<Vec<_>>(),
            "joined_at": JOINED_AT,
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "communication_disabled_until": null,
            "unusual_dm_activity_until": null,
            "avatar_decoration_data": null,
        });
        if with_user {
            member["user"] = self.user_json();
        }
        member
    }

    /// The member object of an interaction: with `user` and the total channel `permissions`.
    pub fn interaction_member_json(&self) -> Value {
        let mut member = self.member_json(true);
        member["permissions"] = json!(self.permissions().to_string());
        member
    }
}

fn role_permissions(role: u64) -> u64 {
    match role {
        MODERATOR_ROLE => MODERATOR_PERMISSIONS,
        BOT_ROLE => BOT_PERMISSIONS,
        _ => 0,
    }
}

/// The bot's own user object, as `GET /users/@me` and READY give it.
pub fn bot_current_user_json() -> Value {
    let mut user = THUDBOT.user_json();
    user["verified"] = json!(true);
    user["mfa_enabled"] = json!(false);
    user["email"] = json!(null);
    user["locale"] = json!("en-US");
    user["premium_type"] = json!(0);
    user
}

/// The application object, as `GET /oauth2/applications/@me` gives it.
pub fn application_json() -> Value {
    json!({
        "id": APPLICATION_ID.to_string(),
        "name": "thudbot",
        "icon": null,
        "description": "Correspondence games of Thud",
        "summary": "",
        "type": null,
        "hook": true,
        "bot_public": true,
        "bot_require_code_grant": false,
        "verify_key": "1e0a356058d627ca38a5c8c9648818061d49e49bd9da9e3ab17d98ad4d6b0a18",
        "flags": APPLICATION_FLAGS,
        // The flags again, as a string (the spec requires it; it carries bits past 2^31).
        "flags_new": APPLICATION_FLAGS.to_string(),
        "owner": VETINARI.user_json(),
        "team": null,
        "bot": THUDBOT.user_json(),
        "redirect_uris": [],
        "interactions_endpoint_url": null,
        "role_connections_verification_url": null,
        "tags": ["games"],
        "install_params": {"scopes": ["bot", "applications.commands"], "permissions": BOT_PERMISSIONS.to_string()},
        "integration_types_config": {"0": {"oauth2_install_params": {"scopes": ["bot", "applications.commands"], "permissions": BOT_PERMISSIONS.to_string()}}},
        "approximate_guild_count": 1,
        "approximate_user_install_count": 0,
        "approximate_user_authorization_count": 0,
        // 0: interactions follow the guild's content filter.
        "explicit_content_filter": 0,
        // The scopes the application may ask for; a bot's are `bot` and its commands.
        "eligible_oauth2_scopes": ["bot", "applications.commands"],
        "rpc_origins": [],
    })
}

/// Application flags: message-content intent limited, and the slash-command badge.
pub const APPLICATION_FLAGS: u64 = (1 << 19) | (1 << 23);

/// A role object.
fn role_json(
    id: u64,
    name: &str,
    permissions: u64,
    position: u64,
    managed: bool,
    tags: Value,
) -> Value {
    json!({
        "id": id.to_string(),
        "name": name,
        "description": null,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
        "hoist": false,
        "icon": null,
        "unicode_emoji": null,
        "position": position,
        "permissions": permissions.to_string(),
        "managed": managed,
        "mentionable": false,
        "flags": 0,
        "tags": tags,
    })
}

/// The guild's roles: `@everyone`, the moderator role, the bot's managed role and the arbiters'.
pub fn roles_json() -> Vec<Value> {
    vec![
        role_json(
            EVERYONE_ROLE,
            "@everyone",
            EVERYONE_PERMISSIONS,
            0,
            false,
            json!({}),
        ),
        role_json(
            MODERATOR_ROLE,
            "Moderator",
            MODERATOR_PERMISSIONS,
            1,
            false,
            json!({}),
        ),
        role_json(
            BOT_ROLE,
            "thudbot",
            BOT_PERMISSIONS,
            2,
            true,
            json!({"bot_id": BOT_ID.to_string()}),
        ),
        role_json(ARBITER_ROLE, "Arbiter", 0, 1, false, json!({})),
    ]
}

/// A guild text channel or category object; `with_guild_id` is false inside GUILD_CREATE, where
/// Discord leaves it out.
fn guild_channel_json(
    id: u64,
    kind: u8,
    name: &str,
    position: u64,
    parent: Option<u64>,
    with_guild_id: bool,
) -> Value {
    let mut channel = json!({
        "id": id.to_string(),
        "type": kind,
        "name": name,
        "position": position,
        "parent_id": parent.map(|p| p.to_string()),
        "permission_overwrites": [],
        "flags": 0,
    });
    if kind == 0 {
        channel["topic"] = json!(null);
        channel["nsfw"] = json!(false);
        channel["rate_limit_per_user"] = json!(0);
        channel["last_message_id"] = json!(null);
        channel["last_pin_timestamp"] = json!(null);
        channel["default_auto_archive_duration"] = json!(1440);
    }
    if with_guild_id {
        channel["guild_id"] = json!(GUILD_ID.to_string());
    }
    channel
}

/// The guild's channels, as REST gives them (with `guild_id`).
pub fn guild_channels_json() -> Vec<Value> {
    vec![
        guild_channel_json(CATEGORY_CHANNEL, 4, "Text Channels", 0, None, true),
        guild_channel_json(
            GENERAL_CHANNEL,
            0,
            "general",
            0,
            Some(CATEGORY_CHANNEL),
            true,
        ),
        guild_channel_json(THUD_CHANNEL, 0, "thud", 1, Some(CATEGORY_CHANNEL), true),
    ]
}

/// The guild object with GUILD_CREATE's extra fields. `with_all_members` reflects the
/// GUILD_PRESENCES intent: without it Discord lists only the bot itself.
pub fn guild_create_json(with_all_members: bool) -> Value {
    let members: Vec<Value> = MEMBERS
        .iter()
        .filter(|m| with_all_members || m.id == BOT_ID)
        .map(|m| m.member_json(true))
        .collect();
    let channels: Vec<Value> = guild_channels_json()
        .into_iter()
        .map(|mut c| {
            if let Some(map) = c.as_object_mut() {
                map.remove("guild_id");
            }
            c
        })
        .collect();
    let mut guild = json!({
        "id": GUILD_ID.to_string(),
        "name": "Unseen University",
        "icon": null,
        "icon_hash": null,
        "splash": null,
        "discovery_splash": null,
        "owner_id": VETINARI.id.to_string(),
        "afk_channel_id": null,
        "afk_timeout": 300,
        "widget_enabled": false,
        "widget_channel_id": null,
        "verification_level": 1,
        "default_message_notifications": 1,
        "explicit_content_filter": 2,
        "roles": roles_json(),
        "emojis": [],
        "features": [],
        "mfa_level": 0,
        "application_id": null,
        "system_channel_id": GENERAL_CHANNEL.to_string(),
        "system_channel_flags": 0,
        "rules_channel_id": null,
        "max_presences": null,
        "max_members": 500000,
        "vanity_url_code": null,
        "description": null,
        "banner": null,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": null,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "welcome_screen": null,
        "nsfw_level": 0,
        "stickers": [],
        "premium_progress_bar_enabled": false,
        "safety_alerts_channel_id": null,
        "incidents_data": null,
        "hub_type": null,
        "lazy": true,
    });
    // GUILD_CREATE's extra fields (a second literal keeps `json!` under the recursion limit).
    let extra = json!({
        "joined_at": JOINED_AT,
        "large": false,
        "unavailable": false,
        "member_count": MEMBERS.len(),
        "voice_states": [],
        "members": members,
        "channels": channels,
        "threads": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    });
    if let (Some(guild), Some(extra)) = (guild.as_object_mut(), extra.as_object()) {
        guild.extend(extra.clone());
    }
    guild
}

//! Delivering what a user does in a Discord client: slash commands, autocomplete, button clicks
//! and any other dispatch event, refused when no client could send it.

use std::time::Duration;

use serde_json::Value;

use super::fixture::{permission, TestUser, BOT_ID, GUILD_ID};
use super::interactions::{button_click_json, SlashCommand};
use super::record::snowflake;
use super::world::World;
use super::{Dispatched, FakeDiscord, FakeError};

impl FakeDiscord {
    /// Sends any dispatch event to the session holding the test guild.
    pub async fn dispatch_event(&self, event: &str, data: Value) -> Result<(), FakeError> {
        self.wait_until_connected(Duration::from_secs(5)).await?;
        let sent = self
            .shared
            .with_world(|world| world.dispatch(Some(GUILD_ID), 0, event, data));
        if sent {
            Ok(())
        } else {
            Err(FakeError::NotConnected)
        }
    }

    /// Delivers an INTERACTION_CREATE with this `d`; the fake remembers its id and token so the
    /// bot's callback and webhook calls are accepted.
    pub async fn dispatch_interaction(&self, payload: Value) -> Result<Dispatched, FakeError> {
        self.wait_until_connected(Duration::from_secs(5)).await?;
        let (id, token) = self
            .shared
            .with_world(|world| world.register_interaction(&payload))
            .map_err(|why| FakeError::Rejected(why.to_string()))?;
        let guild = payload.get("guild_id").and_then(snowflake);
        let sent = self
            .shared
            .with_world(|world| world.dispatch(guild, 0, "INTERACTION_CREATE", payload.clone()));
        if !sent {
            return Err(FakeError::NotConnected);
        }
        Ok(Dispatched { id, token, payload })
    }

    /// The INTERACTION_CREATE `d` for a slash command or autocomplete, with fresh id and token.
    pub fn command_payload(&self, command: &SlashCommand) -> Result<Value, FakeError> {
        self.shared.with_world(|world| {
            let registered = world
                .command_named(Some(GUILD_ID), &command.command)
                .ok_or_else(|| {
                    FakeError::Rejected(format!("{} is not registered", command.display()))
                })?;
            let channel = world.channel(command.channel).ok_or_else(|| {
                FakeError::Rejected(format!("unknown channel {}", command.channel))
            })?;
            // Through a user install the command reaches a guild the bot is not in
            // (docs/interactions/application-commands.md, "Installation Context").
            let user_installed =
                world.user_install && !world.bot_in_guild() && installable_by_users(&registered);
            if !user_installed {
                refuse_interaction_in(world, &channel, command.user.id, true)?;
                refuse_hidden_command(world, &registered, command)?;
            }
            let id = world.next_id();
            let token = interaction_token(id);
            let mut payload = command.to_json(&registered, &channel, id, &token)?;
            if user_installed {
                payload["authorizing_integration_owners"] =
                    serde_json::json!({"1": command.user.id.to_string()});
                payload["context"] = serde_json::json!(0);
            }
            current_permissions(world, &mut payload, command.user.id);
            Ok(payload)
        })
    }

    /// Types a slash command (or sends its autocomplete request) and delivers it.
    pub async fn run_command(&self, command: &SlashCommand) -> Result<Dispatched, FakeError> {
        let payload = self.command_payload(command)?;
        self.dispatch_interaction(payload).await
    }

    /// The INTERACTION_CREATE `d` for `user` clicking a button on a stored message.
    pub fn button_payload(
        &self,
        user: TestUser,
        message_id: u64,
        custom_id: &str,
    ) -> Result<Value, FakeError> {
        self.shared.with_world(|world| {
            let message = world
                .message(message_id)
                .ok_or_else(|| FakeError::Rejected(format!("no message {message_id}")))?;
            let channel_id = snowflake(&message["channel_id"]).unwrap_or(0);
            let channel = world
                .channel(channel_id)
                .ok_or_else(|| FakeError::Rejected(format!("unknown channel {channel_id}")))?;
            refuse_interaction_in(world, &channel, user.id, false)?;
            let id = world.next_id();
            let token = interaction_token(id);
            let mut payload = button_click_json(user, &message, &channel, custom_id, id, &token)?;
            current_permissions(world, &mut payload, user.id);
            Ok(payload)
        })
    }

    /// `user` clicks the button `custom_id` on a stored message.
    pub async fn click_button(
        &self,
        user: TestUser,
        message_id: u64,
        custom_id: &str,
    ) -> Result<Dispatched, FakeError> {
        let payload = self.button_payload(user, message_id, custom_id)?;
        self.dispatch_interaction(payload).await
    }
}

/// Whether users may install the app for themselves and use this command (a global command's
/// `integration_types` includes USER_INSTALL, 1; left out, it takes the app's configured
/// contexts, which include user installs once the owner enabled them).
fn installable_by_users(command: &Value) -> bool {
    match command.get("integration_types").and_then(Value::as_array) {
        Some(types) => types.iter().any(|t| t.as_u64() == Some(1)),
        None => true,
    }
}

/// Refuses what no Discord client could send: anything from a guild the bot left, from a channel
/// the user cannot see, and application commands in an archived thread (docs/topics/threads.md:
/// "Users cannot edit messages, add reactions, use application commands, or join archived
/// threads").
fn refuse_interaction_in(
    world: &World,
    channel: &Value,
    user: u64,
    command: bool,
) -> Result<(), FakeError> {
    let Some(channel_id) = snowflake(&channel["id"]) else {
        return Err(FakeError::Rejected("a channel without an id".into()));
    };
    if channel.get("guild_id").is_some() {
        if !world.bot_in_guild() {
            return Err(FakeError::Rejected(
                "the bot is no longer in the guild".into(),
            ));
        }
        if !world.is_member(user) {
            return Err(FakeError::Rejected(format!(
                "user {user} is not a member of the guild"
            )));
        }
        if world.permissions_in(user, channel_id) & permission::VIEW_CHANNEL == 0 {
            return Err(FakeError::Rejected(format!(
                "user {user} cannot see channel {channel_id}"
            )));
        }
    }
    if command && channel["thread_metadata"]["archived"] == true {
        return Err(FakeError::Rejected(format!(
            "thread {channel_id} is archived: Discord clients cannot use application commands there"
        )));
    }
    Ok(())
}

/// docs/interactions/application-commands.md, "Permissions": a command registered with
/// `default_member_permissions` is shown only to members holding those permissions (in the
/// channel), unless the server changed it under Integrations; a Discord client cannot send a
/// command it does not show.
fn refuse_hidden_command(
    world: &World,
    registered: &Value,
    command: &SlashCommand,
) -> Result<(), FakeError> {
    let Some(needed) = registered["default_member_permissions"]
        .as_str()
        .and_then(|bits| bits.parse::<u64>().ok())
    else {
        return Ok(());
    };
    let name = registered["name"].as_str().unwrap_or_default();
    let held = world.permissions_in(command.user.id, command.channel);
    if world.commands_shown_to_everyone.contains(name) || held & needed == needed {
        return Ok(());
    }
    Err(FakeError::Rejected(format!(
        "{} is hidden from {}: its default_member_permissions are {needed}",
        command.display(),
        command.user.name
    )))
}

/// Puts the permissions of this moment (roles and overwrites) and the upload limit into an
/// INTERACTION_CREATE payload, as Discord computes them for each interaction.
fn current_permissions(world: &World, payload: &mut Value, user: u64) {
    let Some(channel) = snowflake(&payload["channel_id"]) else {
        return;
    };
    let user_bits = world.permissions_in(user, channel).to_string();
    if let Some(roles) = world.member_json(user, false).map(|m| m["roles"].clone()) {
        payload["member"]["roles"] = roles;
    }
    payload["member"]["permissions"] = serde_json::json!(user_bits);
    payload["channel"]["permissions"] = serde_json::json!(user_bits);
    // Computed as the docs' pseudo-code computes them: the implicit denials (no VIEW_CHANNEL,
    // no SEND_MESSAGES) are left for the app to apply, as Discord leaves them.
    payload["app_permissions"] =
        serde_json::json!(world.computed_permissions_in(BOT_ID, channel).to_string());
    payload["attachment_size_limit"] = serde_json::json!(world.upload_limit);
}

/// An interaction token in Discord's alphabet (URL-safe).
fn interaction_token(id: u64) -> String {
    format!("aW50ZXJhY3Rpb246{id}OmZha2UtZGlzY29yZC10b2tlbg")
}

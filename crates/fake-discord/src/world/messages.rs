//! Channel messages: posting, editing, deleting, attachments and their gateway events.

use std::collections::HashSet;

use serde_json::{json, Value};

use super::lifecycle::ThreadChange;
use super::validation::{validate_message, validate_uploads};
use super::{at, flag, intent, parse_id, Answer, Interaction, World};
use crate::fixture::{self, permission, APPLICATION_ID, THUDBOT};

/// How long a nonce sent with `enforce_nonce` is remembered. Discord says "the past few
/// minutes" (docs/resources/message.md, "Create Message"); the fake takes five.
pub const NONCE_WINDOW: chrono::Duration = chrono::Duration::minutes(5);

/// The nonce to enforce, if `enforce_nonce` is true; a nonce is an integer or a string of at
/// most 25 characters (docs/resources/message.md, "Create Message").
fn enforced_nonce(body: &Value) -> Result<Option<String>, Answer> {
    let nonce = match body.get("nonce") {
        None | Some(Value::Null) => return Ok(None),
        Some(Value::String(s)) if s.chars().count() <= 25 => s.clone(),
        Some(Value::Number(n)) if n.is_u64() || n.is_i64() => n.to_string(),
        Some(_) => {
            return Err(Answer::invalid_form(
                &at(&[&"nonce"]),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ))
        }
    };
    let enforced = body.get("enforce_nonce").and_then(Value::as_bool) == Some(true);
    Ok(enforced.then_some(nonce))
}
use crate::record::{buttons_of, mentioned_users, snowflake, RecordedFile};

impl World {
    // ----- channels and messages --------------------------------------------------------------

    /// `Some(guild)` for a guild channel or thread, `Some(None)` for a DM, `None` if unknown.
    pub(super) fn channel_guild(&self, channel: u64) -> Option<Option<u64>> {
        let channel = self.channels.get(&channel)?;
        Some(channel.get("guild_id").and_then(snowflake))
    }

    /// POST /channels/{id}/messages: access, permissions (docs/resources/message.md, "Create
    /// Message": SEND_MESSAGES, or SEND_MESSAGES_IN_THREADS in a thread; ATTACH_FILES for files;
    /// READ_MESSAGE_HISTORY for a reply, else 160002), a locked thread (160005 without
    /// MANAGE_THREADS), an archived one (unarchived by the post, docs/topics/threads.md), closed
    /// DMs (50007) and `enforce_nonce`.
    pub(super) fn post_channel_message(
        &mut self,
        channel: &str,
        body: &Value,
        files: &[RecordedFile],
    ) -> Answer {
        let (channel_id, channel) = match self.reach_channel(channel) {
            Ok(found) => found,
            Err(refused) => return refused,
        };
        if channel["type"] == 4 {
            return Answer::error(400, 50008, "Cannot send messages in a non-text channel");
        }
        if channel["type"] == 1 {
            let recipient = channel["recipients"].as_array().and_then(|r| r.first());
            let refuses = recipient.is_some_and(|u| {
                u["bot"] == true
                    || snowflake(&u["id"]).is_some_and(|id| self.closed_dms.contains(&id))
            });
            if refuses {
                return Answer::error(403, 50007, "Cannot send messages to this user");
            }
        }
        let mut needed = World::send_permission(&channel);
        if !files.is_empty() {
            needed |= permission::ATTACH_FILES;
        }
        if let Err(refused) = self.require(channel_id, needed) {
            return refused;
        }
        let replying = body.get("message_reference").is_some_and(|r| !r.is_null());
        if replying && !self.bot_can(channel_id, permission::READ_MESSAGE_HISTORY) {
            return Answer::error(
                403,
                160002,
                "Cannot reply without permission to read message history",
            );
        }
        let thread = &channel["thread_metadata"];
        if thread["locked"] == true && !self.bot_can(channel_id, permission::MANAGE_THREADS) {
            return Answer::error(403, 160005, "Thread is locked");
        }
        if let Err(answer) = validate_message(body, files, true, &[]) {
            return answer;
        }
        let nonce = match enforced_nonce(body) {
            Ok(nonce) => nonce,
            Err(refused) => return refused,
        };
        if let Some(nonce) = &nonce {
            if let Some(existing) = self.message_with_nonce(nonce) {
                return Answer::ok(existing);
            }
        }
        if thread["archived"] == true {
            let now = self.now();
            let change = ThreadChange {
                archived: Some(false),
                ..ThreadChange::default()
            };
            self.change_thread(channel_id, change, now);
        }
        match self.create_message(channel_id, body, files, None, false, 0) {
            Ok(message) => {
                if let (Some(nonce), Some(id)) = (nonce, snowflake(&message["id"])) {
                    let now = self.now();
                    self.nonces.insert((fixture::BOT_ID, nonce), (id, now));
                }
                Answer::ok(message)
            }
            Err(answer) => answer,
        }
    }

    /// The bot's message created with this nonce within [`NONCE_WINDOW`], if it still exists.
    fn message_with_nonce(&self, nonce: &str) -> Option<Value> {
        let (id, at) = self.nonces.get(&(fixture::BOT_ID, nonce.to_string()))?;
        if self.now() - *at > NONCE_WINDOW {
            return None;
        }
        self.messages.get(id).cloned()
    }

    pub(super) fn channel_message(
        &mut self,
        method: &str,
        channel: &str,
        message: &str,
        body: &Value,
        files: &[RecordedFile],
    ) -> Answer {
        let (channel_id, channel) = match self.reach_channel(channel) {
            Ok(found) => found,
            Err(refused) => return refused,
        };
        // Ephemeral messages exist only for the interaction webhook, never for the channel.
        let found = parse_id(message).filter(|m| {
            !self.ephemeral.contains(m)
                && self
                    .messages
                    .get(m)
                    .is_some_and(|msg| snowflake(&msg["channel_id"]) == Some(channel_id))
        });
        if method == "GET" && !self.bot_can(channel_id, permission::READ_MESSAGE_HISTORY) {
            return Answer::error(403, 50001, "Missing Access");
        }
        let Some(message_id) = found else {
            return Answer::error(404, 10008, "Unknown Message");
        };
        match method {
            "GET" => Answer::ok(self.messages[&message_id].clone()),
            // Deleting is the one thing allowed in an archived thread (docs/topics/threads.md).
            "DELETE" => {
                self.delete_message(message_id);
                Answer::no_content()
            }
            _ => {
                let thread = &channel["thread_metadata"];
                if thread["archived"] == true {
                    return Answer::error(
                        400,
                        50083,
                        "Tried to perform an operation on an archived thread, such as editing a message or adding a user to the thread",
                    );
                }
                if thread["locked"] == true && !self.bot_can(channel_id, permission::MANAGE_THREADS)
                {
                    return Answer::error(403, 160005, "Thread is locked");
                }
                if !files.is_empty() {
                    if let Err(refused) = self.require(channel_id, permission::ATTACH_FILES) {
                        return refused;
                    }
                }
                if let Err(answer) = validate_message(body, files, false, &[]) {
                    return answer;
                }
                match self.edit_message(message_id, body, files) {
                    Ok(message) => Answer::ok(message),
                    Err(answer) => answer,
                }
            }
        }
    }

    pub(super) fn is_loading(&self, message: u64) -> bool {
        self.messages
            .get(&message)
            .is_some_and(|m| m["flags"].as_u64().unwrap_or(0) & flag::LOADING != 0)
    }

    /// Builds, stores and announces a new message; `Err` if an attachment reference is bad.
    pub(super) fn create_message(
        &mut self,
        channel_id: u64,
        payload: &Value,
        files: &[RecordedFile],
        interaction: Option<&Interaction>,
        ephemeral: bool,
        extra_flags: u64,
    ) -> Result<Value, Answer> {
        let id = self.next_id();
        let guild = self.channel_guild(channel_id).flatten();
        let attachments = self.attachments(channel_id, payload, files, &[], ephemeral)?;
        let requested_flags = payload.get("flags").and_then(Value::as_u64).unwrap_or(0);
        let mut flags = (requested_flags & !flag::LOADING) | extra_flags;
        if ephemeral {
            flags |= flag::EPHEMERAL;
        }
        let mut message = json!({
            "id": id.to_string(),
            "channel_id": channel_id.to_string(),
            "author": THUDBOT.user_json(),
            "content": payload.get("content").and_then(Value::as_str).unwrap_or(""),
            "timestamp": self.now_timestamp(),
            "edited_timestamp": null,
            "tts": payload.get("tts").and_then(Value::as_bool).unwrap_or(false),
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "attachments": attachments,
            "embeds": normalised_embeds(payload.get("embeds")),
            "pinned": false,
            "type": 0,
            "flags": flags,
            "components": stored_components(payload.get("components")),
        });
        if let Some(reference) = payload.get("message_reference").filter(|r| !r.is_null()) {
            let mut reference = reference.clone();
            reference["type"] = reference.get("type").cloned().unwrap_or(json!(0));
            reference["channel_id"] = reference
                .get("channel_id")
                .cloned()
                .unwrap_or(json!(channel_id.to_string()));
            message["message_reference"] = reference;
            message["type"] = json!(19);
        }
        if let Some(interaction) = interaction {
            let interaction_id = self
                .interactions
                .iter()
                .find(|(_, i)| i.token == interaction.token)
                .map_or(0, |(id, _)| *id);
            message["webhook_id"] = json!(APPLICATION_ID.to_string());
            message["application_id"] = json!(APPLICATION_ID.to_string());
            let owners = json!({"0": interaction.guild_id.unwrap_or(0).to_string()});
            let mut metadata = json!({
                "id": interaction_id.to_string(),
                "type": interaction.kind,
                "user": interaction.user,
                "authorizing_integration_owners": owners,
            });
            if let Some(original) = interaction.original {
                metadata["original_response_message_id"] = json!(original.to_string());
            }
            if interaction.kind == 3 {
                metadata["interacted_message_id"] =
                    json!(interaction.source_message.unwrap_or(0).to_string());
            } else {
                // CHAT_INPUT_COMMAND, with the deprecated `interaction` object Discord still sends.
                message["type"] = json!(20);
                message["interaction"] = json!({
                    "id": interaction_id.to_string(),
                    "type": interaction.kind,
                    "name": interaction.command_name,
                    "user": interaction.user,
                });
            }
            message["interaction_metadata"] = metadata;
        }
        if let Some(nonce) = payload.get("nonce").filter(|n| !n.is_null()) {
            message["nonce"] = nonce.clone();
        }
        set_mentions(&mut message, payload, guild);
        self.messages.insert(id, message.clone());
        if ephemeral {
            self.ephemeral.insert(id);
        } else {
            self.announce_message("MESSAGE_CREATE", &message, guild);
            self.touch_thread(channel_id);
        }
        Ok(message)
    }

    /// Applies an edit as Discord does: present fields replace, absent ones stay.
    pub(super) fn edit_message(
        &mut self,
        id: u64,
        payload: &Value,
        files: &[RecordedFile],
    ) -> Result<Value, Answer> {
        let Some(mut message) = self.messages.get(&id).cloned() else {
            return Err(Answer::error(404, 10008, "Unknown Message"));
        };
        let channel_id = snowflake(&message["channel_id"]).unwrap_or(0);
        let guild = self.channel_guild(channel_id).flatten();
        let ephemeral = self.ephemeral.contains(&id);
        let existing = message["attachments"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        let attachments = self.attachments(channel_id, payload, files, &existing, ephemeral)?;
        message["attachments"] = json!(attachments);
        if let Some(content) = payload.get("content").filter(|v| !v.is_null()) {
            message["content"] = content.clone();
        }
        if let Some(components) = payload.get("components").filter(|v| !v.is_null()) {
            message["components"] = stored_components(Some(components));
        }
        if let Some(embeds) = payload.get("embeds").filter(|v| !v.is_null()) {
            message["embeds"] = normalised_embeds(Some(embeds));
        }
        let flags = message["flags"].as_u64().unwrap_or(0) & !flag::LOADING;
        message["flags"] = json!(flags);
        message["edited_timestamp"] = json!(self.now_timestamp());
        set_mentions(&mut message, payload, guild);
        self.messages.insert(id, message.clone());
        if !ephemeral {
            self.announce_message("MESSAGE_UPDATE", &message, guild);
        }
        Ok(message)
    }

    pub(crate) fn delete_message(&mut self, id: u64) {
        let Some(message) = self.messages.remove(&id) else {
            return;
        };
        let was_ephemeral = self.ephemeral.remove(&id);
        let channel_id = snowflake(&message["channel_id"]).unwrap_or(0);
        let guild = self.channel_guild(channel_id).flatten();
        if !was_ephemeral {
            let mut data = json!({"id": id.to_string(), "channel_id": channel_id.to_string()});
            if let Some(guild) = guild {
                data["guild_id"] = json!(guild.to_string());
            }
            let needed = if guild.is_some() {
                intent::GUILD_MESSAGES
            } else {
                intent::DIRECT_MESSAGES
            };
            self.dispatch(guild, needed, "MESSAGE_DELETE", data);
        }
    }

    /// MESSAGE_CREATE / MESSAGE_UPDATE: the message with `guild_id` and the author's `member`.
    pub(super) fn announce_message(&mut self, event: &str, message: &Value, guild: Option<u64>) {
        let mut data = message.clone();
        let needed = match guild {
            Some(guild) => {
                data["guild_id"] = json!(guild.to_string());
                data["member"] = THUDBOT.member_json(false);
                intent::GUILD_MESSAGES
            }
            None => intent::DIRECT_MESSAGES,
        };
        self.dispatch(guild, needed, event, data);
    }

    /// The attachment list of a new or edited message: kept existing ones plus uploaded files.
    pub(super) fn attachments(
        &mut self,
        channel_id: u64,
        payload: &Value,
        files: &[RecordedFile],
        existing: &[Value],
        ephemeral: bool,
    ) -> Result<Vec<Value>, Answer> {
        validate_uploads(payload, files, self.upload_limit)?;
        let uploads: Vec<(u64, &RecordedFile)> = files
            .iter()
            .filter_map(|f| {
                let index = f
                    .field
                    .strip_prefix("files[")?
                    .strip_suffix(']')?
                    .parse()
                    .ok()?;
                Some((index, f))
            })
            .collect();
        let mut result = Vec::new();
        let mut used = HashSet::new();
        match payload.get("attachments").and_then(Value::as_array) {
            Some(listed) => {
                for (i, entry) in listed.iter().enumerate() {
                    let id = entry.get("id").and_then(snowflake);
                    if let Some(kept) = existing
                        .iter()
                        .find(|a| a.get("id").and_then(snowflake) == id && id.is_some())
                    {
                        result.push(kept.clone());
                    } else if let Some((index, file)) =
                        uploads.iter().find(|(index, _)| Some(*index) == id)
                    {
                        used.insert(*index);
                        let name = entry
                            .get("filename")
                            .and_then(Value::as_str)
                            .unwrap_or(&file.filename)
                            .to_string();
                        let attachment = self.attachment_json(
                            channel_id,
                            file,
                            &name,
                            entry.get("description"),
                            ephemeral,
                        );
                        result.push(attachment);
                    } else {
                        return Err(Answer::invalid_form(
                            &at(&[&"attachments", &i, &"id"]),
                            "ATTACHMENT_NOT_FOUND",
                            "Attachment data not found",
                        ));
                    }
                }
            }
            None => result.extend(existing.iter().cloned()),
        }
        for (index, file) in uploads {
            if !used.contains(&index) {
                let attachment =
                    self.attachment_json(channel_id, file, &file.filename, None, ephemeral);
                result.push(attachment);
            }
        }
        Ok(result)
    }

    pub(super) fn attachment_json(
        &mut self,
        channel_id: u64,
        file: &RecordedFile,
        filename: &str,
        description: Option<&Value>,
        ephemeral: bool,
    ) -> Value {
        let id = self.next_id();
        let path = format!("attachments/{channel_id}/{id}/{filename}");
        let mut attachment = json!({
            "id": id.to_string(),
            "filename": filename,
            "size": file.data.len(),
            "url": format!("https://cdn.discordapp.com/{path}"),
            "proxy_url": format!("https://media.discordapp.net/{path}"),
            "content_type": file.content_type,
        });
        if let Some(description) = description.filter(|d| !d.is_null()) {
            attachment["description"] = description.clone();
        }
        if let Some((width, height)) = png_size(&file.data) {
            attachment["width"] = json!(width);
            attachment["height"] = json!(height);
        }
        if ephemeral {
            attachment["ephemeral"] = json!(true);
        }
        attachment
    }
}

/// Embeds as Discord stores them (`type: "rich"` filled in).
pub(super) fn normalised_embeds(embeds: Option<&Value>) -> Value {
    let mut embeds = embeds
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    for embed in &mut embeds {
        if embed.get("type").is_none() {
            embed["type"] = json!("rich");
        }
    }
    Value::Array(embeds)
}

/// Fills `mentions` with the users the content pings under the allowed mentions, as Discord
/// lists only users it actually notified.
pub(super) fn set_mentions(message: &mut Value, payload: &Value, guild: Option<u64>) {
    let content = message["content"].as_str().unwrap_or("").to_string();
    let allowed = payload.get("allowed_mentions").filter(|a| !a.is_null());
    let parse_users = allowed.is_none_or(|a| {
        a["parse"]
            .as_array()
            .is_some_and(|p| p.iter().any(|v| v == "users"))
    });
    let listed: Vec<u64> = allowed
        .and_then(|a| a.get("users"))
        .and_then(Value::as_array)
        .map(|ids| ids.iter().filter_map(snowflake).collect())
        .unwrap_or_default();
    let mentions: Vec<Value> = mentioned_users(&content)
        .into_iter()
        .filter(|id| parse_users || listed.contains(id))
        .filter_map(fixture::member_by_id)
        .map(|user| {
            let mut json = user.user_json();
            if guild.is_some() {
                json["member"] = user.member_json(false);
            }
            json
        })
        .collect();
    message["mentions"] = Value::Array(mentions);
}

/// Width and height from a PNG's IHDR chunk.
pub(super) fn png_size(data: &[u8]) -> Option<(u32, u32)> {
    const SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";
    if data.len() < 24 || !data.starts_with(SIGNATURE) || &data[12..16] != b"IHDR" {
        return None;
    }
    let width = u32::from_be_bytes(data[16..20].try_into().ok()?);
    let height = u32::from_be_bytes(data[20..24].try_into().ok()?);
    Some((width, height))
}

/// Every button on a stored message.
pub fn message_buttons(message: &Value) -> Vec<Value> {
    buttons_of(
        message["components"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]),
    )
}

/// Components as Discord stores them (docs/components/reference.mdx, "Anatomy of a
/// Component"): each has a numeric `id`, numbered from 1 in reading order where the sender gave
/// none, and fields sent as null are left out.
fn stored_components(sent: Option<&Value>) -> Value {
    fn number(component: &mut Value, next: &mut u64) {
        let Some(fields) = component.as_object_mut() else {
            return;
        };
        fields.retain(|_, value| !value.is_null());
        if !fields.contains_key("id") {
            fields.insert("id".into(), json!(*next));
        }
        *next += 1;
        for child in fields
            .get_mut("components")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            number(child, next);
        }
    }
    let mut components = sent.cloned().unwrap_or(json!([]));
    let mut next = 1;
    for component in components.as_array_mut().into_iter().flatten() {
        number(component, &mut next);
    }
    components
}

//! Threads and DM channels.

use serde_json::{json, Value};

use super::lifecycle::{ThreadChange, ARCHIVE_DURATIONS};
use super::permissions::is_thread;
use super::{at, flag, intent, parse_id, str_len, Answer, World};
use crate::fixture::{self, permission, TestUser, BOT_ID, GUILD_ID};

fn invalid_archive_duration() -> Answer {
    Answer::invalid_form(
        &at(&[&"auto_archive_duration"]),
        "BASE_TYPE_CHOICES",
        "Value must be one of {60, 1440, 4320, 10080}.",
    )
}
use crate::record::snowflake;

impl World {
    // ----- threads and DMs ------------------------------------------------------------------

    pub(super) fn start_thread(
        &mut self,
        channel: &str,
        message: Option<&str>,
        body: &Value,
    ) -> Answer {
        let (parent_id, parent) = match self.reach_channel(channel) {
            Ok(found) => found,
            Err(refused) => return refused,
        };
        if parent["type"] != 0 && parent["type"] != 5 {
            return Answer::error(400, 50024, "Cannot execute action on this channel type");
        }
        let name_length = str_len(body.get("name"));
        if !(1..=100).contains(&name_length) {
            return Answer::invalid_form(
                &at(&[&"name"]),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            );
        }
        let (id, kind) = match message {
            Some(message) => {
                let found = parse_id(message).filter(|m| {
                    !self.ephemeral.contains(m)
                        && self
                            .messages
                            .get(m)
                            .is_some_and(|msg| snowflake(&msg["channel_id"]) == Some(parent_id))
                });
                let Some(message_id) = found else {
                    return Answer::error(404, 10008, "Unknown Message");
                };
                if self.messages[&message_id].get("thread").is_some() {
                    return Answer::error(
                        400,
                        160004,
                        "A thread has already been created for this message",
                    );
                }
                // A thread started from a message takes the message's id.
                (message_id, if parent["type"] == 5 { 10 } else { 11 })
            }
            // API v10 still defaults to a private thread when no type is given.
            None => (
                self.next_id(),
                body.get("type").and_then(Value::as_u64).unwrap_or(12),
            ),
        };
        if ![10, 11, 12].contains(&kind) {
            return Answer::invalid_form(
                &at(&[&"type"]),
                "BASE_TYPE_CHOICES",
                "Value must be one of {10, 11, 12}.",
            );
        }
        // docs/topics/opcodes-and-status-codes: 160006 "Maximum number of active threads
        // reached" (the guild's limit, archived threads not counted).
        if self.active_thread_ids().len() >= self.active_thread_limit {
            return Answer::error(400, 160006, "Maximum number of active threads reached");
        }
        // docs/resources/channel.md, "Start Thread from Message" / "without Message".
        let needed = if kind == 12 {
            permission::CREATE_PRIVATE_THREADS
        } else {
            permission::CREATE_PUBLIC_THREADS
        };
        if let Err(refused) = self.require(parent_id, needed) {
            return refused;
        }
        let archive = body
            .get("auto_archive_duration")
            .and_then(Value::as_u64)
            .unwrap_or(1440);
        if !ARCHIVE_DURATIONS.contains(&archive) {
            return invalid_archive_duration();
        }
        let now = self.now_timestamp();
        let mut metadata = json!({
            "archived": false,
            "auto_archive_duration": archive,
            "archive_timestamp": now,
            "locked": false,
            "create_timestamp": now,
        });
        if kind == 12 {
            metadata["invitable"] = body.get("invitable").cloned().unwrap_or(json!(true));
        }
        let thread = json!({
            "id": id.to_string(),
            "type": kind,
            "guild_id": GUILD_ID.to_string(),
            "parent_id": parent_id.to_string(),
            "owner_id": BOT_ID.to_string(),
            "name": body["name"],
            "last_message_id": null,
            "rate_limit_per_user": body.get("rate_limit_per_user").cloned().unwrap_or(json!(0)),
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": metadata,
            "member": {"id": id.to_string(), "user_id": BOT_ID.to_string(), "join_timestamp": now, "flags": 1},
        });
        self.channels.insert(id, thread.clone());
        self.thread_created(&thread);
        if message.is_some() {
            if let Some(starter) = self.messages.get_mut(&id) {
                starter["thread"] = thread.clone();
                let flags = starter["flags"].as_u64().unwrap_or(0) | flag::HAS_THREAD;
                starter["flags"] = json!(flags);
            }
        }
        let mut event = thread.clone();
        event["newly_created"] = json!(true);
        self.dispatch(Some(GUILD_ID), intent::GUILDS, "THREAD_CREATE", event);
        Answer::created(thread)
    }

    /// The guild's threads that are not archived.
    fn active_thread_ids(&self) -> Vec<u64> {
        self.channels
            .iter()
            .filter(|(_, c)| is_thread(c) && c["thread_metadata"]["archived"] != true)
            .map(|(id, _)| *id)
            .collect()
    }

    /// GET /guilds/{guild}/threads/active (docs/resources/guild.md, "List Active Guild
    /// Threads"): every unarchived thread of the guild the bot can see, and the bot's own
    /// membership of those it joined.
    pub(super) fn active_threads(&self) -> Answer {
        let threads: Vec<Value> = self
            .active_thread_ids()
            .into_iter()
            .filter(|id| self.bot_can(*id, permission::VIEW_CHANNEL))
            .map(|id| {
                let mut thread = self.channels[&id].clone();
                if let Some(map) = thread.as_object_mut() {
                    map.remove("member");
                }
                thread
            })
            .collect();
        let members: Vec<Value> = threads
            .iter()
            .filter_map(|t| snowflake(&t["id"]))
            .filter_map(|id| self.channels[&id].get("member").cloned())
            .collect();
        Answer::ok(json!({"threads": threads, "members": members, "has_more": false}))
    }

    /// PATCH /channels/{id}. For a thread, as docs/topics/threads.md ("Editing & Deleting
    /// Threads") and docs/resources/channel.md ("Modify Channel", thread) say: `archived`,
    /// `auto_archive_duration` and `name` need MANAGE_THREADS or to be the thread's creator;
    /// unarchiving needs only to be a member, but a locked thread stays archived for anyone
    /// without MANAGE_THREADS ("Threads that have locked set to true can only be unarchived by a
    /// user with the MANAGE_THREADS permission"; answered 160005); `locked` and
    /// `rate_limit_per_user` need MANAGE_THREADS; an archived thread takes no other change unless
    /// the same request unarchives it (50083). Other channels need MANAGE_CHANNELS.
    pub(super) fn modify_channel(&mut self, channel: &str, body: &Value) -> Answer {
        let (id, found) = match self.reach_channel(channel) {
            Ok(found) => found,
            Err(refused) => return refused,
        };
        if found.get("guild_id").is_none() {
            return Answer::error(400, 50003, "Cannot execute action on a DM channel");
        }
        if !is_thread(&found) {
            if let Err(refused) = self.require(id, permission::MANAGE_CHANNELS) {
                return refused;
            }
            let mut changed = found;
            for key in ["name", "topic", "nsfw", "rate_limit_per_user"] {
                if let Some(value) = body.get(key) {
                    changed[key] = value.clone();
                }
            }
            self.channels.insert(id, changed.clone());
            self.dispatch(
                Some(GUILD_ID),
                intent::GUILDS,
                "CHANNEL_UPDATE",
                changed.clone(),
            );
            return Answer::ok(changed);
        }
        let moderator = self.bot_can(id, permission::MANAGE_THREADS);
        let creator = snowflake(&found["owner_id"]) == Some(BOT_ID);
        let metadata = &found["thread_metadata"];
        let archived = body.get("archived").and_then(Value::as_bool);
        let locked = body.get("locked").and_then(Value::as_bool);
        let duration = body.get("auto_archive_duration").and_then(Value::as_u64);
        if duration.is_some_and(|d| !ARCHIVE_DURATIONS.contains(&d)) {
            return invalid_archive_duration();
        }
        let is_archived = metadata["archived"] == true;
        let is_locked = metadata["locked"] == true;
        if is_archived && archived != Some(false) {
            return Answer::error(
                400,
                50083,
                "Tried to perform an operation on an archived thread, such as editing a message or adding a user to the thread",
            );
        }
        if is_archived && is_locked && !moderator {
            return Answer::error(403, 160005, "Thread is locked");
        }
        let needs_moderator = locked.is_some() || body.get("rate_limit_per_user").is_some();
        let needs_creator =
            archived == Some(true) || duration.is_some() || body.get("name").is_some();
        if (needs_moderator || (needs_creator && !creator)) && !moderator {
            return Answer::error(403, 50013, "Missing Permissions");
        }
        if let Some(name) = body.get("name").filter(|n| !n.is_null()) {
            if !(1..=100).contains(&str_len(Some(name))) {
                return Answer::invalid_form(
                    &at(&[&"name"]),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                );
            }
            if let Some(stored) = self.channels.get_mut(&id) {
                stored["name"] = name.clone();
            }
        }
        let now = self.now();
        let change = ThreadChange {
            archived,
            locked,
            auto_archive_duration: duration,
        };
        self.change_thread(id, change, now);
        Answer::ok(self.channels[&id].clone())
    }

    /// DELETE /channels/{id}: a thread needs MANAGE_THREADS (docs/topics/threads.md), a channel
    /// MANAGE_CHANNELS; the bot's invite grants neither.
    pub(super) fn delete_channel_route(&mut self, channel: &str) -> Answer {
        let (id, found) = match self.reach_channel(channel) {
            Ok(found) => found,
            Err(refused) => return refused,
        };
        if found.get("guild_id").is_none() {
            return Answer::error(400, 50003, "Cannot execute action on a DM channel");
        }
        let needed = if is_thread(&found) {
            permission::MANAGE_THREADS
        } else {
            permission::MANAGE_CHANNELS
        };
        if let Err(refused) = self.require(id, needed) {
            return refused;
        }
        let _ = self.delete_channel(id);
        Answer::ok(found)
    }

    pub(super) fn open_dm(&mut self, body: &Value) -> Answer {
        let Some(user) = body
            .get("recipient_id")
            .and_then(snowflake)
            .and_then(fixture::member_by_id)
        else {
            return Answer::error(400, 50033, "Invalid Recipient(s)");
        };
        let id = match self.dm_by_user.get(&user.id) {
            Some(id) => *id,
            None => {
                let id = self.next_id();
                self.dm_by_user.insert(user.id, id);
                self.channels.insert(id, dm_channel_json(id, &user));
                id
            }
        };
        Answer::ok(self.channels[&id].clone())
    }
}

pub(super) fn dm_channel_json(id: u64, user: &TestUser) -> Value {
    json!({
        "id": id.to_string(),
        "type": 1,
        "last_message_id": null,
        "flags": 0,
        "recipients": [user.user_json()],
    })
}

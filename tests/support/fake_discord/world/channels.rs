//! Threads and DM channels.

use serde_json::{json, Value};

use super::{at, flag, intent, now_timestamp, parse_id, str_len, Answer, World};
use crate::support::fake_discord::fixture::{self, TestUser, BOT_ID, GUILD_ID};
use crate::support::fake_discord::record::snowflake;

impl World {
    // ----- threads and DMs ------------------------------------------------------------------

    pub(super) fn start_thread(
        &mut self,
        channel: &str,
        message: Option<&str>,
        body: &Value,
    ) -> Answer {
        let Some(parent_id) = parse_id(channel).filter(|c| self.channels.contains_key(c)) else {
            return Answer::error(404, 10003, "Unknown Channel");
        };
        let parent = self.channels[&parent_id].clone();
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
        let now = now_timestamp();
        let archive = body
            .get("auto_archive_duration")
            .and_then(Value::as_u64)
            .unwrap_or(1440);
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

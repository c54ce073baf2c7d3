//! Interaction callbacks and the interaction webhook (followups, `@original`).

use serde_json::{json, Value};

use super::validation::{validate_choices, validate_message};
use super::{at, flag, parse_id, str_len, Answer, World};
use crate::fixture::{permission, APPLICATION_ID};
use crate::record::{snowflake, RecordedFile};

impl World {
    // ----- interactions ---------------------------------------------------------------------

    pub(super) fn interaction_callback(
        &mut self,
        id: &str,
        token: &str,
        body: &Value,
        files: &[RecordedFile],
    ) -> Answer {
        let Some(interaction_id) = parse_id(id) else {
            return Answer::error(404, 10062, "Unknown interaction");
        };
        let Some(interaction) = self.interactions.get(&interaction_id).cloned() else {
            return Answer::error(404, 10062, "Unknown interaction");
        };
        if interaction.token != token {
            return Answer::error(401, 50027, "Invalid Webhook Token");
        }
        if interaction.acknowledged.is_some() {
            return Answer::error(400, 40060, "Interaction has already been acknowledged.");
        }
        if self.since(interaction.dispatched_at) > self.response_deadline {
            return Answer::error(404, 10062, "Unknown interaction");
        }
        let Some(kind) = body.get("type").and_then(Value::as_u64) else {
            return Answer::invalid_form(
                &at(&[&"type"]),
                "BASE_TYPE_REQUIRED",
                "This field is required",
            );
        };
        let allowed: &[u64] = match interaction.kind {
            2 => &[4, 5, 9],
            3 => &[4, 5, 6, 7, 9],
            4 => &[8],
            5 => &[4, 5, 6, 7],
            _ => &[],
        };
        if !allowed.contains(&kind) {
            return Answer::invalid_form(
                &at(&[&"type"]),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "Interaction response type is not valid for this interaction",
            );
        }
        let data = body.get("data").unwrap_or(&Value::Null);
        let data_path = ["data".to_string()];
        let mut original = None;
        match kind {
            4 => {
                if let Err(answer) = validate_message(data, files, true, &data_path) {
                    return answer;
                }
                let ephemeral =
                    data.get("flags").and_then(Value::as_u64).unwrap_or(0) & flag::EPHEMERAL != 0;
                match self.create_message(
                    interaction.channel_id,
                    data,
                    files,
                    Some(&interaction),
                    ephemeral,
                    0,
                ) {
                    Ok(message) => original = snowflake(&message["id"]),
                    Err(answer) => return answer,
                }
            }
            5 => {
                let ephemeral =
                    data.get("flags").and_then(Value::as_u64).unwrap_or(0) & flag::EPHEMERAL != 0;
                let placeholder = json!({"content": ""});
                match self.create_message(
                    interaction.channel_id,
                    &placeholder,
                    &[],
                    Some(&interaction),
                    ephemeral,
                    flag::LOADING,
                ) {
                    Ok(message) => original = snowflake(&message["id"]),
                    Err(answer) => return answer,
                }
            }
            6 => original = interaction.source_message,
            7 => {
                if let Err(answer) = validate_message(data, files, false, &data_path) {
                    return answer;
                }
                let Some(source) = interaction.source_message else {
                    return Answer::error(404, 10008, "Unknown Message");
                };
                if let Err(answer) = self.edit_message(source, data, files) {
                    return answer;
                }
                original = Some(source);
            }
            8 => {
                if let Err(answer) = validate_choices(data) {
                    return answer;
                }
            }
            9 => {
                for key in ["custom_id", "title"] {
                    if str_len(data.get(key)) == 0 {
                        return Answer::invalid_form(
                            &at(&[&"data", &key]),
                            "BASE_TYPE_REQUIRED",
                            "This field is required",
                        );
                    }
                }
            }
            _ => {}
        }
        if let Some(stored) = self.interactions.get_mut(&interaction_id) {
            stored.acknowledged = Some(kind);
            stored.original = original;
            stored.messages.extend(original);
        }
        Answer::no_content()
    }

    pub(super) fn webhook_route(
        &mut self,
        method: &str,
        app: &str,
        token: &str,
        rest: &[&str],
        body: &Value,
        files: &[RecordedFile],
    ) -> Answer {
        let found = self
            .interactions
            .iter()
            .find(|(_, i)| i.token == token)
            .map(|(id, i)| (*id, i.clone()));
        let (interaction_id, interaction) = match found {
            Some(found) if parse_id(app) == Some(APPLICATION_ID) => found,
            _ => return Answer::error(404, 10015, "Unknown Webhook"),
        };
        // "Interaction tokens are valid for 15 minutes" (docs/interactions/receiving-and-responding.md);
        // past that Discord refuses the token itself.
        if self.since(interaction.dispatched_at) > self.token_lifetime {
            return Answer::error(401, 50027, "Invalid Webhook Token");
        }
        if interaction.acknowledged.is_none() {
            return Answer::error(404, 10015, "Unknown Webhook");
        }
        let message_id = |text: &str| -> Option<u64> {
            if text == "@original" {
                interaction.original
            } else {
                parse_id(text).filter(|id| interaction.messages.contains(id))
            }
        };
        // Since 2023-11-01 edits of responses and followups follow the bot's own permissions
        // (docs/change-log, "Fix Message Edit Interaction Response Permissions"): files need
        // ATTACH_FILES in the channel.
        if matches!(method, "POST" | "PATCH") && !files.is_empty() {
            if let Err(refused) = self.require(interaction.channel_id, permission::ATTACH_FILES) {
                return refused;
            }
        }
        match (method, rest) {
            ("POST", []) => {
                if let Err(answer) = validate_message(body, files, true, &[]) {
                    return answer;
                }
                // Right after a deferred response, the first followup fills in the "thinking"
                // message instead of posting a new one (Discord's backwards compatibility).
                if let Some(original) = interaction.original.filter(|id| self.is_loading(*id)) {
                    return match self.edit_message(original, body, files) {
                        Ok(message) => Answer::ok(message),
                        Err(answer) => answer,
                    };
                }
                let ephemeral =
                    body.get("flags").and_then(Value::as_u64).unwrap_or(0) & flag::EPHEMERAL != 0;
                match self.create_message(
                    interaction.channel_id,
                    body,
                    files,
                    Some(&interaction),
                    ephemeral,
                    0,
                ) {
                    Ok(message) => {
                        if let (Some(stored), Some(id)) = (
                            self.interactions.get_mut(&interaction_id),
                            snowflake(&message["id"]),
                        ) {
                            stored.messages.push(id);
                        }
                        Answer::ok(message)
                    }
                    Err(answer) => answer,
                }
            }
            ("GET", ["messages", id]) => match message_id(id).and_then(|m| self.message(m)) {
                Some(message) => Answer::ok(message),
                None => Answer::error(404, 10008, "Unknown Message"),
            },
            ("PATCH", ["messages", id]) => {
                let Some(target) = message_id(id).filter(|m| self.messages.contains_key(m)) else {
                    return Answer::error(404, 10008, "Unknown Message");
                };
                if let Err(answer) = validate_message(body, files, false, &[]) {
                    return answer;
                }
                match self.edit_message(target, body, files) {
                    Ok(message) => Answer::ok(message),
                    Err(answer) => answer,
                }
            }
            ("DELETE", ["messages", id]) => {
                let Some(target) = message_id(id).filter(|m| self.messages.contains_key(m)) else {
                    return Answer::error(404, 10008, "Unknown Message");
                };
                self.delete_message(target);
                Answer::no_content()
            }
            _ => Answer::unknown_route(404),
        }
    }
}

//! The REST router: which route does what, application commands included.

use std::collections::HashSet;

use serde_json::{json, Value};

use super::validation::{command_type, validate_command};
use super::{at, parse_id, Answer, Incoming, World};
use crate::fixture::{self, APPLICATION_ID, GUILD_ID, TOKEN};
use crate::record::snowflake;

impl World {
    /// Routes one request and applies its effects.
    pub fn answer(&mut self, req: &Incoming) -> Answer {
        let segments = req.segments.clone();
        let token_authenticated =
            matches!(segments.first(), Some(&"interactions") | Some(&"webhooks"));
        let expected = format!("Bot {TOKEN}");
        if !token_authenticated && req.authorization != Some(expected.as_str()) {
            return Answer::error(401, 0, "401: Unauthorized");
        }
        self.archive_idle_threads();
        let body = req.body.unwrap_or(&Value::Null);
        match (req.method, segments.as_slice()) {
            ("GET", ["gateway"]) => Answer::ok(json!({"url": self.gateway_url})),
            ("GET", ["gateway", "bot"]) => Answer::ok(json!({
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14_400_000, "max_concurrency": 1},
            })),
            ("GET", ["users", "@me"]) => Answer::ok(fixture::bot_current_user_json()),
            ("POST", ["users", "@me", "channels"]) => self.open_dm(body),
            ("GET", ["users", user]) => match parse_id(user).and_then(fixture::member_by_id) {
                Some(user) => Answer::ok(user.user_json()),
                None => Answer::error(404, 10013, "Unknown User"),
            },
            ("GET", ["oauth2", "applications", "@me"]) | ("GET", ["applications", "@me"]) => {
                Answer::ok(fixture::application_json())
            }
            (method, ["applications", app, rest @ ..]) => {
                self.commands_route(method, app, rest, body)
            }
            ("POST", ["interactions", id, token, "callback"]) => {
                self.interaction_callback(id, token, body, req.files)
            }
            (method, ["webhooks", app, token, rest @ ..]) => {
                self.webhook_route(method, app, token, rest, body, req.files)
            }
            ("GET", ["channels", channel]) => match self.reach_channel(channel) {
                Ok((_, channel)) => Answer::ok(channel),
                Err(refused) => refused,
            },
            ("PATCH", ["channels", channel]) => self.modify_channel(channel, body),
            ("DELETE", ["channels", channel]) => self.delete_channel_route(channel),
            ("POST", ["channels", channel, "messages"]) => {
                self.post_channel_message(channel, body, req.files)
            }
            (method @ ("GET" | "PATCH" | "DELETE"), ["channels", channel, "messages", message]) => {
                self.channel_message(method, channel, message, body, req.files)
            }
            ("POST", ["channels", channel, "threads"]) => self.start_thread(channel, None, body),
            ("POST", ["channels", channel, "messages", message, "threads"]) => {
                self.start_thread(channel, Some(message), body)
            }
            ("POST", ["channels", channel, "typing"]) => {
                let reached = self
                    .reach_channel(channel)
                    .and_then(|(id, c)| self.require(id, World::send_permission(&c)));
                match reached {
                    Ok(()) => Answer::no_content(),
                    Err(refused) => refused,
                }
            }
            ("GET", ["guilds", guild, "threads", "active"]) => {
                if parse_id(guild) != Some(GUILD_ID) || !self.bot_in_guild {
                    return Answer::error(404, 10004, "Unknown Guild");
                }
                self.active_threads()
            }
            ("GET", ["guilds", guild, "members", user]) => {
                if parse_id(guild) != Some(GUILD_ID) || !self.bot_in_guild {
                    return Answer::error(404, 10004, "Unknown Guild");
                }
                match parse_id(user).and_then(|id| self.member_json(id, true)) {
                    Some(member) => Answer::ok(member),
                    None => Answer::error(404, 10007, "Unknown Member"),
                }
            }
            (_, path) => Answer::unknown_route(if known_path(path) { 405 } else { 404 }),
        }
    }

    // ----- application commands -------------------------------------------------------------

    pub(super) fn commands_route(
        &mut self,
        method: &str,
        app: &str,
        rest: &[&str],
        body: &Value,
    ) -> Answer {
        if parse_id(app) != Some(APPLICATION_ID) {
            return Answer::error(403, 50001, "Missing Access");
        }
        let (scope, rest) = match rest {
            ["commands", rest @ ..] => (None, rest),
            ["guilds", guild, "commands", rest @ ..] => {
                if parse_id(guild) != Some(GUILD_ID) || !self.bot_in_guild {
                    return Answer::error(403, 50001, "Missing Access");
                }
                (Some(GUILD_ID), rest)
            }
            _ => return Answer::unknown_route(404),
        };
        match (method, rest) {
            ("GET", []) => Answer::ok(Value::Array(self.commands(scope))),
            ("PUT", []) => {
                let Some(list) = body.as_array() else {
                    return Answer::invalid_form(&[], "BASE_TYPE_ARRAY", "Must be an array.");
                };
                let mut names = HashSet::new();
                for (i, command) in list.iter().enumerate() {
                    if let Err(answer) = validate_command(command, &[i.to_string()]) {
                        return answer;
                    }
                    let key = (
                        command["name"].as_str().unwrap_or("").to_string(),
                        command_type(command),
                    );
                    if !names.insert(key) {
                        return Answer::invalid_form(
                            &at(&[&i, &"name"]),
                            "APPLICATION_COMMANDS_DUPLICATE_NAME",
                            "Application command names must be unique",
                        );
                    }
                }
                let old = self.commands(scope);
                let mut stored = Vec::new();
                for command in list {
                    // Discord keeps the id of a command overwritten under the same name and type.
                    let id = old
                        .iter()
                        .find(|c| {
                            c["name"] == command["name"] && command_type(c) == command_type(command)
                        })
                        .and_then(|c| snowflake(&c["id"]))
                        .unwrap_or_else(|| self.next_id());
                    stored.push(self.echo_command(scope, command, id));
                }
                self.commands.insert(scope, stored.clone());
                Answer::ok(Value::Array(stored))
            }
            ("POST", []) => {
                if let Err(answer) = validate_command(body, &[]) {
                    return answer;
                }
                let mut list = self.commands(scope);
                let existing = list.iter().position(|c| {
                    c["name"] == body["name"] && command_type(c) == command_type(body)
                });
                let id = match existing.and_then(|i| snowflake(&list[i]["id"])) {
                    Some(id) => id,
                    None => self.next_id(),
                };
                let command = self.echo_command(scope, body, id);
                match existing {
                    Some(i) => list[i] = command.clone(),
                    None => list.push(command.clone()),
                }
                self.commands.insert(scope, list);
                if existing.is_some() {
                    Answer::ok(command)
                } else {
                    Answer::created(command)
                }
            }
            (method @ ("GET" | "PATCH" | "DELETE"), [id]) => {
                let mut list = self.commands(scope);
                let Some(i) = list
                    .iter()
                    .position(|c| snowflake(&c["id"]) == parse_id(id))
                else {
                    return Answer::error(404, 10063, "Unknown application command");
                };
                match method {
                    "GET" => Answer::ok(list[i].clone()),
                    "DELETE" => {
                        list.remove(i);
                        self.commands.insert(scope, list);
                        Answer::no_content()
                    }
                    _ => {
                        let mut merged = list[i].clone();
                        if let (Some(target), Some(changes)) =
                            (merged.as_object_mut(), body.as_object())
                        {
                            for (k, v) in changes {
                                target.insert(k.clone(), v.clone());
                            }
                        }
                        if let Err(answer) = validate_command(&merged, &[]) {
                            return answer;
                        }
                        let id = snowflake(&list[i]["id"]).unwrap_or_else(|| self.next_id());
                        list[i] = self.echo_command(scope, &merged, id);
                        let answer = Answer::ok(list[i].clone());
                        self.commands.insert(scope, list);
                        answer
                    }
                }
            }
            _ => Answer::unknown_route(405),
        }
    }

    /// The command object Discord returns for a registered command.
    pub(super) fn echo_command(&mut self, scope: Option<u64>, input: &Value, id: u64) -> Value {
        let version = self.next_id();
        let mut command = input.as_object().cloned().unwrap_or_default();
        // Discord omits what was not given: poise's null and empty fields do not come back.
        command.retain(|key, value| !value.is_null() || key == "default_member_permissions");
        if let Some(options) = command.get_mut("options") {
            stored_options(options);
        }
        command.insert("id".into(), json!(id.to_string()));
        command.insert("application_id".into(), json!(APPLICATION_ID.to_string()));
        command.insert("version".into(), json!(version.to_string()));
        command.insert("type".into(), json!(command_type(input)));
        if let Some(guild) = scope {
            command.insert("guild_id".into(), json!(guild.to_string()));
        }
        for (key, default) in [
            ("default_member_permissions", Value::Null),
            ("nsfw", json!(false)),
            ("name_localizations", Value::Null),
            ("description_localizations", Value::Null),
        ] {
            let missing = command.get(key).is_none();
            if missing {
                command.insert(key.into(), default);
            }
        }
        if scope.is_none() {
            command.entry("dm_permission").or_insert(json!(true));
            command.entry("integration_types").or_insert(json!([0]));
            command.entry("contexts").or_insert(Value::Null);
        }
        Value::Object(command)
    }
}

/// Command options as Discord stores and returns them: null fields (poise sends `min_length`,
/// `max_value`, ... as null) and empty `choices` or `channel_types` left out, at every depth.
fn stored_options(options: &mut Value) {
    for option in options.as_array_mut().into_iter().flatten() {
        if let Some(fields) = option.as_object_mut() {
            fields.retain(|key, value| {
                !(value.is_null()
                    || (matches!(key.as_str(), "choices" | "channel_types")
                        && value.as_array().is_some_and(Vec::is_empty)))
            });
            if let Some(inner) = fields.get_mut("options") {
                stored_options(inner);
            }
        }
    }
}

/// Whether the fake implements some method on this path (for 405 versus 404).
pub(super) fn known_path(path: &[&str]) -> bool {
    matches!(
        path,
        ["gateway"]
            | ["gateway", "bot"]
            | ["users", _]
            | ["users", "@me", "channels"]
            | ["oauth2", "applications", "@me"]
            | ["applications", "@me"]
            | ["interactions", _, _, "callback"]
            | ["channels", _]
            | ["channels", _, "messages"]
            | ["channels", _, "messages", _]
            | ["channels", _, "threads"]
            | ["channels", _, "messages", _, "threads"]
            | ["channels", _, "typing"]
            | ["guilds", _, "members", _]
            | ["guilds", _, "threads", "active"]
    )
}

//! The Discord state the fake keeps (commands, interactions, messages, channels, gateway
//! sessions) and the REST API over it, answering as Discord's API v10 does.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::fixture::{self, TestUser, APPLICATION_ID, BOT_ID, GUILD_ID, THUDBOT, TOKEN};
use super::record::{buttons_of, mentioned_users, snowflake, RecordedFile, RecordedRequest};

/// Milliseconds from the Unix epoch to Discord's epoch (2015-01-01), the base of snowflakes.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// Gateway intent bits the fake honours.
pub mod intent {
    pub const GUILDS: u64 = 1 << 0;
    pub const GUILD_PRESENCES: u64 = 1 << 8;
    pub const GUILD_MESSAGES: u64 = 1 << 9;
    pub const DIRECT_MESSAGES: u64 = 1 << 12;
}

/// Message flags the fake sets or reads.
mod flag {
    pub const HAS_THREAD: u64 = 1 << 5;
    pub const EPHEMERAL: u64 = 1 << 6;
    pub const LOADING: u64 = 1 << 7;
    pub const IS_COMPONENTS_V2: u64 = 1 << 15;
}

/// How the fake answers one request.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Option<Value>,
    /// False for routes the fake does not implement.
    pub known: bool,
}

impl Answer {
    fn ok(body: Value) -> Self {
        Answer {
            status: 200,
            body: Some(body),
            known: true,
        }
    }

    fn created(body: Value) -> Self {
        Answer {
            status: 201,
            body: Some(body),
            known: true,
        }
    }

    fn no_content() -> Self {
        Answer {
            status: 204,
            body: None,
            known: true,
        }
    }

    /// Discord's JSON error: `{"message": ..., "code": ...}`.
    fn error(status: u16, code: u64, message: &str) -> Self {
        Answer {
            status,
            body: Some(json!({"message": message, "code": code})),
            known: true,
        }
    }

    /// Discord's 50035 "Invalid Form Body" with one error at `path` (nested objects, as Discord
    /// nests them, e.g. `{"content": {"_errors": [...]}}`).
    fn invalid_form(path: &[String], code: &str, message: &str) -> Self {
        let mut errors = json!({"_errors": [{"code": code, "message": message}]});
        for key in path.iter().rev() {
            errors = json!({ key.as_str(): errors });
        }
        Answer {
            status: 400,
            body: Some(json!({"message": "Invalid Form Body", "code": 50035, "errors": errors})),
            known: true,
        }
    }

    fn unknown_route(status: u16) -> Self {
        let message = if status == 405 {
            "405: Method Not Allowed"
        } else {
            "404: Not Found"
        };
        Answer {
            status,
            body: Some(json!({"message": message, "code": 0})),
            known: false,
        }
    }
}

/// A path for [`Answer::invalid_form`].
fn at(parts: &[&dyn ToString]) -> Vec<String> {
    parts.iter().map(|p| p.to_string()).collect()
}

/// A request, parsed, as the router sees it.
pub struct Incoming<'a> {
    pub method: &'a str,
    pub segments: Vec<&'a str>,
    pub query: &'a [(String, String)],
    pub authorization: Option<&'a str>,
    pub body: Option<&'a Value>,
    pub files: &'a [RecordedFile],
}

/// A connected, identified gateway session.
pub struct Session {
    /// Counts sessions from 1 in order of IDENTIFY.
    pub number: usize,
    /// `[shard_id, shard_count]` from IDENTIFY.
    pub shard: [u64; 2],
    pub intents: u64,
    /// Dispatches to send: `(event name, data)`; the session task numbers them.
    pub events: mpsc::UnboundedSender<(String, Value)>,
}

/// Which way a gateway frame went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the fake to the bot.
    Sent,
    /// From the bot to the fake.
    Received,
}

/// One gateway frame, as JSON.
#[derive(Clone, Debug)]
pub struct GatewayFrame {
    /// The connection it went over, counted from 1.
    pub connection: usize,
    pub direction: Direction,
    pub payload: Value,
}

/// What the fake knows about an interaction it dispatched.
#[derive(Clone, Debug)]
struct Interaction {
    token: String,
    /// 2 command, 3 component, 4 autocomplete, 5 modal submit.
    kind: u64,
    channel_id: u64,
    guild_id: Option<u64>,
    user: Value,
    /// The full command name (`thud ping`) for commands.
    command_name: String,
    dispatched_at: Instant,
    /// The callback type once acknowledged.
    acknowledged: Option<u64>,
    /// The message `@original` refers to.
    original: Option<u64>,
    /// The message whose component was clicked.
    source_message: Option<u64>,
    /// Every message this interaction's token may edit.
    messages: Vec<u64>,
}

/// Everything the fake Discord knows.
pub struct World {
    pub requests: Vec<RecordedRequest>,
    pub gateway_log: Vec<GatewayFrame>,
    pub sessions: Vec<Session>,
    pub gateway_url: String,
    /// How long after dispatch an interaction may still be answered (Discord: 3 s).
    pub response_deadline: Duration,
    commands: BTreeMap<Option<u64>, Vec<Value>>,
    interactions: HashMap<u64, Interaction>,
    messages: BTreeMap<u64, Value>,
    ephemeral: HashSet<u64>,
    channels: BTreeMap<u64, Value>,
    dm_by_user: HashMap<u64, u64>,
    last_id: u64,
}

/// Now, as Discord writes timestamps.
pub fn now_timestamp() -> String {
    chrono::Utc::now()
        .format("%Y-%m-%dT%H:%M:%S%.6f+00:00")
        .to_string()
}

fn parse_id(text: &str) -> Option<u64> {
    text.parse().ok().filter(|id| *id > 0)
}

fn str_len(value: Option<&Value>) -> usize {
    value
        .and_then(Value::as_str)
        .map_or(0, |s| s.chars().count())
}

impl World {
    /// The world of a freshly started fake.
    pub fn new(gateway_url: String) -> Self {
        let channels = fixture::guild_channels_json()
            .into_iter()
            .filter_map(|c| Some((snowflake(c.get("id")?)?, c)))
            .collect();
        World {
            requests: Vec::new(),
            gateway_log: Vec::new(),
            sessions: Vec::new(),
            gateway_url,
            response_deadline: Duration::from_secs(3),
            commands: BTreeMap::new(),
            interactions: HashMap::new(),
            messages: BTreeMap::new(),
            ephemeral: HashSet::new(),
            channels,
            dm_by_user: HashMap::new(),
            last_id: 0,
        }
    }

    /// A fresh snowflake: the current time in its top bits, always increasing.
    pub fn next_id(&mut self) -> u64 {
        let millis = chrono::Utc::now().timestamp_millis().max(0) as u64;
        let from_clock = millis.saturating_sub(DISCORD_EPOCH_MS) << 22;
        self.last_id = from_clock.max(self.last_id + 1);
        self.last_id
    }

    /// The registered commands of a scope (`None` global, `Some(guild)`).
    pub fn commands(&self, scope: Option<u64>) -> Vec<Value> {
        self.commands.get(&scope).cloned().unwrap_or_default()
    }

    /// The registered command with this top-level name, guild commands first.
    pub fn command_named(&self, guild: Option<u64>, name: &str) -> Option<Value> {
        let scopes = [guild, None];
        scopes
            .iter()
            .filter_map(|scope| self.commands.get(scope))
            .flatten()
            .find(|c| c["name"] == name)
            .cloned()
    }

    /// A stored message as Discord would show it, ephemeral ones included.
    pub fn message(&self, id: u64) -> Option<Value> {
        self.messages.get(&id).cloned()
    }

    /// Every stored message in a channel, oldest first.
    pub fn channel_messages(&self, channel: u64) -> Vec<Value> {
        self.messages
            .values()
            .filter(|m| snowflake(&m["channel_id"]) == Some(channel))
            .cloned()
            .collect()
    }

    /// The message `@original` of an interaction currently refers to.
    pub fn original_message(&self, interaction: u64) -> Option<Value> {
        self.interactions
            .get(&interaction)?
            .original
            .and_then(|id| self.message(id))
    }

    /// A channel the bot can see (guild channel, thread or DM).
    pub fn channel(&self, id: u64) -> Option<Value> {
        self.channels.get(&id).cloned()
    }

    /// Sends a dispatch to the session whose shard holds `guild` (shard 0 for DMs), if that
    /// session asked for `needed_intent` (0: always sent). Returns whether it went out.
    pub fn dispatch(
        &self,
        guild: Option<u64>,
        needed_intent: u64,
        event: &str,
        data: Value,
    ) -> bool {
        let Some(session) = self.session_for(guild) else {
            return false;
        };
        if needed_intent != 0 && session.intents & needed_intent == 0 {
            return false;
        }
        session.events.send((event.to_string(), data)).is_ok()
    }

    /// The session responsible for a guild (or for DMs with `None`).
    pub fn session_for(&self, guild: Option<u64>) -> Option<&Session> {
        self.sessions.iter().find(|s| {
            let count = s.shard[1].max(1);
            let shard = guild.map_or(0, |g| (g >> 22) % count);
            s.shard[0] == shard && !s.events.is_closed()
        })
    }

    /// Remembers an interaction about to be dispatched so its token can be used; `Err` says
    /// what the payload lacks.
    pub fn register_interaction(&mut self, payload: &Value) -> Result<(u64, String), String> {
        let id = payload
            .get("id")
            .and_then(snowflake)
            .ok_or("interaction has no id")?;
        let token = payload
            .get("token")
            .and_then(Value::as_str)
            .ok_or("interaction has no token")?;
        let kind = payload
            .get("type")
            .and_then(Value::as_u64)
            .ok_or("interaction has no type")?;
        let channel_id = payload
            .get("channel_id")
            .and_then(snowflake)
            .ok_or("interaction has no channel_id")?;
        let guild_id = payload.get("guild_id").and_then(snowflake);
        let user = payload
            .get("member")
            .and_then(|m| m.get("user"))
            .or_else(|| payload.get("user"))
            .cloned()
            .ok_or("interaction has neither member.user nor user")?;
        let source_message = payload
            .get("message")
            .and_then(|m| m.get("id"))
            .and_then(snowflake);
        let command_name = command_path(payload.get("data").unwrap_or(&Value::Null));
        self.interactions.insert(
            id,
            Interaction {
                token: token.to_string(),
                kind,
                channel_id,
                guild_id,
                user,
                command_name,
                dispatched_at: Instant::now(),
                acknowledged: None,
                original: None,
                source_message,
                messages: Vec::new(),
            },
        );
        Ok((id, token.to_string()))
    }

    /// Routes one request and applies its effects.
    pub fn answer(&mut self, req: &Incoming) -> Answer {
        let segments = req.segments.clone();
        let token_authenticated =
            matches!(segments.first(), Some(&"interactions") | Some(&"webhooks"));
        let expected = format!("Bot {TOKEN}");
        if !token_authenticated && req.authorization != Some(expected.as_str()) {
            return Answer::error(401, 0, "401: Unauthorized");
        }
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
            ("GET", ["channels", channel]) => match parse_id(channel).and_then(|c| self.channel(c))
            {
                Some(channel) => Answer::ok(channel),
                None => Answer::error(404, 10003, "Unknown Channel"),
            },
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
                match parse_id(channel).and_then(|c| self.channel(c)) {
                    Some(_) => Answer::no_content(),
                    None => Answer::error(404, 10003, "Unknown Channel"),
                }
            }
            ("GET", ["guilds", guild, "members", user]) => {
                if parse_id(guild) != Some(GUILD_ID) {
                    return Answer::error(404, 10004, "Unknown Guild");
                }
                match parse_id(user).and_then(fixture::member_by_id) {
                    Some(member) => Answer::ok(member.member_json(true)),
                    None => Answer::error(404, 10007, "Unknown Member"),
                }
            }
            (_, path) => Answer::unknown_route(if known_path(path) { 405 } else { 404 }),
        }
    }

    // ----- application commands -------------------------------------------------------------

    fn commands_route(&mut self, method: &str, app: &str, rest: &[&str], body: &Value) -> Answer {
        if parse_id(app) != Some(APPLICATION_ID) {
            return Answer::error(403, 50001, "Missing Access");
        }
        let (scope, rest) = match rest {
            ["commands", rest @ ..] => (None, rest),
            ["guilds", guild, "commands", rest @ ..] => {
                if parse_id(guild) != Some(GUILD_ID) {
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
    fn echo_command(&mut self, scope: Option<u64>, input: &Value, id: u64) -> Value {
        let version = self.next_id();
        let mut command = input.as_object().cloned().unwrap_or_default();
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

    // ----- interactions ---------------------------------------------------------------------

    fn interaction_callback(
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
        if interaction.dispatched_at.elapsed() > self.response_deadline {
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

    fn webhook_route(
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

    // ----- channels and messages --------------------------------------------------------------

    /// `Some(guild)` for a guild channel or thread, `Some(None)` for a DM, `None` if unknown.
    fn channel_guild(&self, channel: u64) -> Option<Option<u64>> {
        let channel = self.channels.get(&channel)?;
        Some(channel.get("guild_id").and_then(snowflake))
    }

    fn post_channel_message(
        &mut self,
        channel: &str,
        body: &Value,
        files: &[RecordedFile],
    ) -> Answer {
        let Some(channel_id) = parse_id(channel).filter(|c| self.channels.contains_key(c)) else {
            return Answer::error(404, 10003, "Unknown Channel");
        };
        let channel = self.channels.get(&channel_id).cloned().unwrap_or_default();
        if channel["type"] == 4 {
            return Answer::error(400, 50008, "Cannot send messages in a non-text channel");
        }
        if channel["type"] == 1 {
            let recipient_is_bot = channel["recipients"]
                .as_array()
                .and_then(|r| r.first())
                .is_some_and(|u| u["bot"] == true);
            if recipient_is_bot {
                return Answer::error(403, 50007, "Cannot send messages to this user");
            }
        }
        if let Err(answer) = validate_message(body, files, true, &[]) {
            return answer;
        }
        match self.create_message(channel_id, body, files, None, false, 0) {
            Ok(message) => Answer::ok(message),
            Err(answer) => answer,
        }
    }

    fn channel_message(
        &mut self,
        method: &str,
        channel: &str,
        message: &str,
        body: &Value,
        files: &[RecordedFile],
    ) -> Answer {
        let Some(channel_id) = parse_id(channel).filter(|c| self.channels.contains_key(c)) else {
            return Answer::error(404, 10003, "Unknown Channel");
        };
        // Ephemeral messages exist only for the interaction webhook, never for the channel.
        let found = parse_id(message).filter(|m| {
            !self.ephemeral.contains(m)
                && self
                    .messages
                    .get(m)
                    .is_some_and(|msg| snowflake(&msg["channel_id"]) == Some(channel_id))
        });
        let Some(message_id) = found else {
            return Answer::error(404, 10008, "Unknown Message");
        };
        match method {
            "GET" => Answer::ok(self.messages[&message_id].clone()),
            "DELETE" => {
                self.delete_message(message_id);
                Answer::no_content()
            }
            _ => {
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

    fn is_loading(&self, message: u64) -> bool {
        self.messages
            .get(&message)
            .is_some_and(|m| m["flags"].as_u64().unwrap_or(0) & flag::LOADING != 0)
    }

    /// Builds, stores and announces a new message; `Err` if an attachment reference is bad.
    fn create_message(
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
            "timestamp": now_timestamp(),
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
            "components": payload.get("components").cloned().unwrap_or(json!([])),
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
        set_mentions(&mut message, payload, guild);
        self.messages.insert(id, message.clone());
        if ephemeral {
            self.ephemeral.insert(id);
        } else {
            self.announce_message("MESSAGE_CREATE", &message, guild);
        }
        Ok(message)
    }

    /// Applies an edit as Discord does: present fields replace, absent ones stay.
    fn edit_message(
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
        for key in ["content", "components"] {
            if let Some(value) = payload.get(key).filter(|v| !v.is_null()) {
                message[key] = value.clone();
            }
        }
        if let Some(embeds) = payload.get("embeds").filter(|v| !v.is_null()) {
            message["embeds"] = normalised_embeds(Some(embeds));
        }
        let flags = message["flags"].as_u64().unwrap_or(0) & !flag::LOADING;
        message["flags"] = json!(flags);
        message["edited_timestamp"] = json!(now_timestamp());
        set_mentions(&mut message, payload, guild);
        self.messages.insert(id, message.clone());
        if !ephemeral {
            self.announce_message("MESSAGE_UPDATE", &message, guild);
        }
        Ok(message)
    }

    fn delete_message(&mut self, id: u64) {
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
    fn announce_message(&self, event: &str, message: &Value, guild: Option<u64>) {
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
    fn attachments(
        &mut self,
        channel_id: u64,
        payload: &Value,
        files: &[RecordedFile],
        existing: &[Value],
        ephemeral: bool,
    ) -> Result<Vec<Value>, Answer> {
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

    fn attachment_json(
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

    // ----- threads and DMs ------------------------------------------------------------------

    fn start_thread(&mut self, channel: &str, message: Option<&str>, body: &Value) -> Answer {
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

    fn open_dm(&mut self, body: &Value) -> Answer {
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

fn dm_channel_json(id: u64, user: &TestUser) -> Value {
    json!({
        "id": id.to_string(),
        "type": 1,
        "last_message_id": null,
        "flags": 0,
        "recipients": [user.user_json()],
    })
}

/// Whether the fake implements some method on this path (for 405 versus 404).
fn known_path(path: &[&str]) -> bool {
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
    )
}

/// The invoked command's full name, e.g. `thud challenge`.
fn command_path(data: &Value) -> String {
    let mut parts = Vec::new();
    if let Some(name) = data.get("name").and_then(Value::as_str) {
        parts.push(name.to_string());
    }
    let mut options = data.get("options").and_then(Value::as_array);
    while let Some(list) = options {
        let Some(nested) = list
            .iter()
            .find(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
        else {
            break;
        };
        parts.push(nested["name"].as_str().unwrap_or("").to_string());
        options = nested.get("options").and_then(Value::as_array);
    }
    parts.join(" ")
}

fn command_type(command: &Value) -> u64 {
    command.get("type").and_then(Value::as_u64).unwrap_or(1)
}

/// Discord's naming rule for commands and options.
fn valid_name(name: &str) -> bool {
    let length = name.chars().count();
    (1..=32).contains(&length)
        && name.chars().all(|c| {
            (c.is_alphanumeric() || c == '-' || c == '_' || c == '\'') && c.to_lowercase().eq([c])
        })
}

/// Checks one command as Discord checks registrations.
fn validate_command(command: &Value, path: &[String]) -> Result<(), Answer> {
    let field =
        |name: &str| -> Vec<String> { path.iter().cloned().chain([name.to_string()]).collect() };
    let name = command.get("name").and_then(Value::as_str).unwrap_or("");
    let kind = command_type(command);
    if kind == 1 && !valid_name(name) {
        return Err(Answer::invalid_form(
            &field("name"),
            "APPLICATION_COMMAND_INVALID_NAME",
            "Command name is invalid",
        ));
    }
    let description = str_len(command.get("description"));
    if kind == 1 && !(1..=100).contains(&description) {
        return Err(Answer::invalid_form(
            &field("description"),
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        ));
    }
    if kind != 1 && description != 0 {
        return Err(Answer::invalid_form(
            &field("description"),
            "APPLICATION_COMMAND_INVALID_DESCRIPTION",
            "Context menu commands cannot have description",
        ));
    }
    validate_options(command.get("options"), &field("options"), 0)
}

/// Checks an option list; `depth` 0 is the command's own list, 1 a group's, 2 a subcommand's.
fn validate_options(options: Option<&Value>, path: &[String], depth: u8) -> Result<(), Answer> {
    let Some(options) = options.filter(|o| !o.is_null()) else {
        return Ok(());
    };
    let Some(options) = options.as_array() else {
        return Err(Answer::invalid_form(
            path,
            "BASE_TYPE_ARRAY",
            "Must be an array.",
        ));
    };
    if options.len() > 25 {
        return Err(Answer::invalid_form(
            path,
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    let mut names = HashSet::new();
    let mut seen_optional = false;
    for (i, option) in options.iter().enumerate() {
        let field = |name: &str| -> Vec<String> {
            path.iter()
                .cloned()
                .chain([i.to_string(), name.to_string()])
                .collect()
        };
        let kind = option.get("type").and_then(Value::as_u64).unwrap_or(0);
        if !(1..=11).contains(&kind) {
            return Err(Answer::invalid_form(
                &field("type"),
                "BASE_TYPE_CHOICES",
                "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.",
            ));
        }
        let name = option.get("name").and_then(Value::as_str).unwrap_or("");
        if !valid_name(name) {
            return Err(Answer::invalid_form(
                &field("name"),
                "APPLICATION_COMMAND_INVALID_NAME",
                "Command name is invalid",
            ));
        }
        if !names.insert(name) {
            return Err(Answer::invalid_form(
                &field("name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                "Option names must be unique",
            ));
        }
        if !(1..=100).contains(&str_len(option.get("description"))) {
            return Err(Answer::invalid_form(
                &field("description"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        let nesting = kind == 1 || kind == 2;
        if nesting && (depth == 2 || (kind == 2 && depth == 1)) {
            return Err(Answer::invalid_form(
                &field("type"),
                "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                "Subcommands and groups cannot be nested here",
            ));
        }
        if nesting {
            let inner_depth = if kind == 2 { 1 } else { 2 };
            if kind == 2 {
                let all_subcommands = option["options"]
                    .as_array()
                    .is_some_and(|o| o.iter().all(|s| s["type"] == 1));
                if !all_subcommands {
                    return Err(Answer::invalid_form(
                        &field("options"),
                        "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                        "A subcommand group may only contain subcommands",
                    ));
                }
            }
            validate_options(option.get("options"), &field("options"), inner_depth)?;
            continue;
        }
        let required = option
            .get("required")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        if required && seen_optional {
            return Err(Answer::invalid_form(
                &field("required"),
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            ));
        }
        seen_optional |= !required;
        let choices = option
            .get("choices")
            .and_then(Value::as_array)
            .map_or(0, Vec::len);
        if choices > 25 {
            return Err(Answer::invalid_form(
                &field("choices"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        if choices > 0
            && option
                .get("autocomplete")
                .and_then(Value::as_bool)
                .unwrap_or(false)
        {
            return Err(Answer::invalid_form(
                &field("autocomplete"),
                "APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE",
                "Autocomplete cannot be set on an option with choices",
            ));
        }
    }
    Ok(())
}

/// Checks message content, components and allowed mentions; `creating` also rejects an empty
/// message.
fn validate_message(
    message: &Value,
    files: &[RecordedFile],
    creating: bool,
    path: &[String],
) -> Result<(), Answer> {
    let field = |parts: &[&dyn ToString]| -> Vec<String> {
        path.iter().cloned().chain(at(parts)).collect()
    };
    if str_len(message.get("content")) > 2000 {
        return Err(Answer::invalid_form(
            &field(&[&"content"]),
            "BASE_TYPE_MAX_LENGTH",
            "Must be 2000 or fewer in length.",
        ));
    }
    let embeds = message
        .get("embeds")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    if embeds > 10 {
        return Err(Answer::invalid_form(
            &field(&[&"embeds"]),
            "BASE_TYPE_MAX_LENGTH",
            "Must be 10 or fewer in length.",
        ));
    }
    let flags = message.get("flags").and_then(Value::as_u64).unwrap_or(0);
    let rows = message
        .get("components")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if flags & flag::IS_COMPONENTS_V2 == 0 {
        if rows.len() > 5 {
            return Err(Answer::invalid_form(
                &field(&[&"components"]),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 5 or fewer in length.",
            ));
        }
        let mut custom_ids = HashSet::new();
        for (r, row) in rows.iter().enumerate() {
            let children = row
                .get("components")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            if row["type"] != 1 || children.is_empty() || children.len() > 5 {
                return Err(Answer::invalid_form(
                    &field(&[&"components", &r]),
                    "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                    "An action row must hold 1 to 5 buttons or one select menu",
                ));
            }
            for (c, child) in children.iter().enumerate() {
                let child_field =
                    |name: &str| field(&[&"components", &r, &"components", &c, &name]);
                let kind = child["type"].as_u64().unwrap_or(0);
                let is_select = matches!(kind, 3 | 5 | 6 | 7 | 8);
                if is_select && children.len() != 1 {
                    return Err(Answer::invalid_form(
                        &child_field("type"),
                        "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                        "A select menu must be alone in its row",
                    ));
                }
                if kind != 2 && !is_select {
                    return Err(Answer::invalid_form(
                        &child_field("type"),
                        "UNION_TYPE_CHOICES",
                        "Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8).",
                    ));
                }
                if str_len(child.get("label")) > 80 {
                    return Err(Answer::invalid_form(
                        &child_field("label"),
                        "BASE_TYPE_MAX_LENGTH",
                        "Must be 80 or fewer in length.",
                    ));
                }
                let link = kind == 2 && child["style"] == 5;
                let premium = kind == 2 && child["style"] == 6;
                if link {
                    if str_len(child.get("url")) == 0 {
                        return Err(Answer::invalid_form(
                            &child_field("url"),
                            "BASE_TYPE_REQUIRED",
                            "This field is required",
                        ));
                    }
                } else if !premium {
                    let custom_id = child.get("custom_id").and_then(Value::as_str).unwrap_or("");
                    if !(1..=100).contains(&custom_id.chars().count()) {
                        return Err(Answer::invalid_form(
                            &child_field("custom_id"),
                            "BASE_TYPE_BAD_LENGTH",
                            "Must be between 1 and 100 in length.",
                        ));
                    }
                    if !custom_ids.insert(custom_id.to_string()) {
                        return Err(Answer::invalid_form(
                            &child_field("custom_id"),
                            "COMPONENT_CUSTOM_ID_DUPLICATED",
                            "Component custom id cannot be duplicated",
                        ));
                    }
                }
            }
        }
    }
    if let Some(allowed) = message.get("allowed_mentions").filter(|a| !a.is_null()) {
        let parse: Vec<&str> = allowed
            .get("parse")
            .and_then(Value::as_array)
            .map(|p| p.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(bad) = parse
            .iter()
            .find(|p| !["users", "roles", "everyone"].contains(p))
        {
            return Err(Answer::invalid_form(
                &field(&[&"allowed_mentions", &"parse"]),
                "BASE_TYPE_CHOICES",
                &format!("Value \"{bad}\" is not one of ('roles', 'users', 'everyone')."),
            ));
        }
        for kind in ["users", "roles"] {
            let listed = allowed
                .get(kind)
                .and_then(Value::as_array)
                .map_or(0, Vec::len);
            if listed > 100 {
                return Err(Answer::invalid_form(
                    &field(&[&"allowed_mentions", &kind]),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 100 or fewer in length.",
                ));
            }
            if listed > 0 && parse.contains(&kind) {
                return Err(Answer::invalid_form(
                    &field(&[&"allowed_mentions"]),
                    "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
                    &format!("parse:[\"{kind}\"] and {kind}: [ids] are mutually exclusive."),
                ));
            }
        }
    }
    if creating {
        let has_content = str_len(message.get("content")) > 0;
        let has_attachments = !files.is_empty()
            || message
                .get("attachments")
                .and_then(Value::as_array)
                .is_some_and(|a| !a.is_empty());
        let has_other = ["sticker_ids", "poll"]
            .iter()
            .any(|k| message.get(*k).is_some_and(|v| !v.is_null()));
        if !(has_content || embeds > 0 || has_attachments || !rows.is_empty() || has_other) {
            return Err(Answer::error(400, 50006, "Cannot send an empty message"));
        }
    }
    Ok(())
}

/// Checks an autocomplete result (callback type 8).
fn validate_choices(data: &Value) -> Result<(), Answer> {
    let Some(choices) = data.get("choices").and_then(Value::as_array) else {
        return Err(Answer::invalid_form(
            &at(&[&"data", &"choices"]),
            "BASE_TYPE_REQUIRED",
            "This field is required",
        ));
    };
    if choices.len() > 25 {
        return Err(Answer::invalid_form(
            &at(&[&"data", &"choices"]),
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    for (i, choice) in choices.iter().enumerate() {
        if !(1..=100).contains(&str_len(choice.get("name"))) {
            return Err(Answer::invalid_form(
                &at(&[&"data", &"choices", &i, &"name"]),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 100 in length.",
            ));
        }
        match choice.get("value") {
            Some(Value::String(s)) if s.chars().count() <= 100 => {}
            Some(Value::Number(_)) => {}
            _ => {
                return Err(Answer::invalid_form(
                    &at(&[&"data", &"choices", &i, &"value"]),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                ));
            }
        }
    }
    Ok(())
}

/// Embeds as Discord stores them (`type: "rich"` filled in).
fn normalised_embeds(embeds: Option<&Value>) -> Value {
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
fn set_mentions(message: &mut Value, payload: &Value, guild: Option<u64>) {
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
fn png_size(data: &[u8]) -> Option<(u32, u32)> {
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

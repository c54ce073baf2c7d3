//! INTERACTION_CREATE payloads as Discord builds them: slash commands (type 2), autocomplete
//! (type 4) and button clicks (type 3). Option types come from the command the bot registered,
//! so a test cannot send what no Discord client could.

use serde_json::{json, Map, Value};

use super::fixture::{self, TestUser, ALICE, APPLICATION_ID, GENERAL_CHANNEL, GUILD_ID, THUDBOT};
use super::record::snowflake;
use super::world::message_buttons;
use super::FakeError;

/// The largest upload a bot may make in the test guild (Discord's default, 10 MiB).
pub const ATTACHMENT_SIZE_LIMIT: u64 = 10 * 1024 * 1024;

/// A value typed into a command option.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    Text(String),
    Integer(i64),
    Number(f64),
    Boolean(bool),
    User(TestUser),
    Channel(u64),
    Role(u64),
}

impl From<&str> for OptionValue {
    fn from(text: &str) -> Self {
        OptionValue::Text(text.to_string())
    }
}

impl From<String> for OptionValue {
    fn from(text: String) -> Self {
        OptionValue::Text(text)
    }
}

impl From<i64> for OptionValue {
    fn from(number: i64) -> Self {
        OptionValue::Integer(number)
    }
}

impl From<f64> for OptionValue {
    fn from(number: f64) -> Self {
        OptionValue::Number(number)
    }
}

impl From<bool> for OptionValue {
    fn from(flag: bool) -> Self {
        OptionValue::Boolean(flag)
    }
}

impl From<TestUser> for OptionValue {
    fn from(user: TestUser) -> Self {
        OptionValue::User(user)
    }
}

/// A slash command as a user types it, e.g. `/thud move from:F1 to:F5`, or, with
/// [`SlashCommand::autocomplete`], the autocomplete request sent while typing.
#[derive(Clone, Debug)]
pub struct SlashCommand {
    pub command: String,
    pub group: Option<String>,
    pub subcommand: Option<String>,
    pub options: Vec<(String, OptionValue)>,
    /// The option being typed, for an autocomplete request.
    pub focused: Option<String>,
    pub user: TestUser,
    pub channel: u64,
    pub locale: String,
}

impl SlashCommand {
    /// `/command`, typed by [`ALICE`] in `#general`.
    pub fn new(command: &str) -> Self {
        SlashCommand {
            command: command.to_string(),
            group: None,
            subcommand: None,
            options: Vec::new(),
            focused: None,
            user: ALICE,
            channel: GENERAL_CHANNEL,
            locale: "en-US".to_string(),
        }
    }

    /// `/thud <subcommand>`.
    pub fn thud(subcommand: &str) -> Self {
        SlashCommand::new("thud").subcommand(subcommand)
    }

    /// Goes through a subcommand group: `/command <group> <subcommand>`.
    pub fn group(mut self, group: &str) -> Self {
        self.group = Some(group.to_string());
        self
    }

    /// Picks the subcommand.
    pub fn subcommand(mut self, subcommand: &str) -> Self {
        self.subcommand = Some(subcommand.to_string());
        self
    }

    /// Fills in an option.
    pub fn option(mut self, name: &str, value: impl Into<OptionValue>) -> Self {
        self.options.retain(|(n, _)| n != name);
        self.options.push((name.to_string(), value.into()));
        self
    }

    /// Who types the command.
    pub fn by(mut self, user: TestUser) -> Self {
        self.user = user;
        self
    }

    /// Where the command is typed.
    pub fn in_channel(mut self, channel: u64) -> Self {
        self.channel = channel;
        self
    }

    /// The user's client language.
    pub fn locale(mut self, locale: &str) -> Self {
        self.locale = locale.to_string();
        self
    }

    /// Makes this an autocomplete request while `option` holds the partial text `typed`.
    pub fn autocomplete(mut self, option: &str, typed: &str) -> Self {
        self = self.option(option, typed);
        self.focused = Some(option.to_string());
        self
    }

    /// The INTERACTION_CREATE `d` for this command, given the registered command and the
    /// channel object it is typed in.
    pub fn to_json(
        &self,
        registered: &Value,
        channel: &Value,
        id: u64,
        token: &str,
    ) -> Result<Value, FakeError> {
        let shown = self.display();
        let mut declared = registered
            .get("options")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        let mut path = Vec::new();
        for level in [&self.group, &self.subcommand].into_iter().flatten() {
            let found = declared
                .iter()
                .find(|o| o["name"] == level.as_str() && matches!(o["type"].as_u64(), Some(1 | 2)));
            let Some(found) = found.cloned() else {
                return Err(FakeError::Rejected(format!(
                    "{shown}: `{level}` is not a registered subcommand or group"
                )));
            };
            path.push((level.clone(), found["type"].as_u64().unwrap_or(1)));
            declared = found
                .get("options")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
        }
        if declared
            .iter()
            .any(|o| matches!(o["type"].as_u64(), Some(1 | 2)))
        {
            return Err(FakeError::Rejected(format!(
                "{shown}: a subcommand must be chosen"
            )));
        }

        let mut resolved = Map::new();
        let mut options = Vec::new();
        for (name, value) in &self.options {
            let Some(definition) = declared.iter().find(|o| o["name"] == name.as_str()) else {
                return Err(FakeError::Rejected(format!(
                    "{shown}: no option `{name}` is registered"
                )));
            };
            let kind = definition["type"].as_u64().unwrap_or(3);
            let focused = self.focused.as_deref() == Some(name.as_str());
            let value_json = if focused {
                // While typing, Discord sends the raw text whatever the option's type.
                match value {
                    OptionValue::Text(text) => json!(text),
                    other => {
                        return Err(FakeError::Rejected(format!(
                            "{shown}: focused option `{name}` must be text, not {other:?}"
                        )))
                    }
                }
            } else {
                typed_value(kind, value, &mut resolved).ok_or_else(|| {
                    FakeError::Rejected(format!(
                        "{shown}: option `{name}` has type {kind}; {value:?} does not fit"
                    ))
                })?
            };
            if !focused {
                if let Some(choices) = definition
                    .get("choices")
                    .and_then(Value::as_array)
                    .filter(|c| !c.is_empty())
                {
                    if !choices.iter().any(|c| c["value"] == value_json) {
                        return Err(FakeError::Rejected(format!(
                            "{shown}: {value_json} is not a choice of `{name}`"
                        )));
                    }
                }
            }
            let mut option = json!({"name": name, "type": kind, "value": value_json});
            if focused {
                option["focused"] = json!(true);
            }
            options.push(option);
        }
        if self.focused.is_none() {
            for definition in &declared {
                let required = definition
                    .get("required")
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                if required
                    && !self
                        .options
                        .iter()
                        .any(|(n, _)| definition["name"] == n.as_str())
                {
                    return Err(FakeError::Rejected(format!(
                        "{shown}: required option `{}` is missing",
                        definition["name"]
                    )));
                }
            }
        }
        // Nest the options under the subcommand and group, innermost first.
        for (name, kind) in path.into_iter().rev() {
            options = vec![json!({"name": name, "type": kind, "options": options})];
        }

        let mut data = json!({
            "id": registered["id"],
            "name": self.command,
            "type": 1,
            "options": options,
        });
        if let Some(guild) = registered.get("guild_id").filter(|g| !g.is_null()) {
            data["guild_id"] = guild.clone();
        }
        if !resolved.is_empty() {
            data["resolved"] = Value::Object(resolved);
        }
        let kind = if self.focused.is_some() { 4 } else { 2 };
        Ok(envelope(
            kind,
            id,
            token,
            data,
            self.user,
            channel,
            &self.locale,
        ))
    }

    /// How the command looks in the chat box, for error messages.
    pub fn display(&self) -> String {
        let mut text = format!("/{}", self.command);
        for part in [&self.group, &self.subcommand].into_iter().flatten() {
            text.push(' ');
            text.push_str(part);
        }
        text
    }
}

/// The JSON value for an option of this type, adding users, channels and roles to `resolved`.
fn typed_value(kind: u64, value: &OptionValue, resolved: &mut Map<String, Value>) -> Option<Value> {
    let mut resolve = |section: &str, id: u64, object: Value| {
        let entry = resolved
            .entry(section.to_string())
            .or_insert_with(|| json!({}));
        entry[id.to_string()] = object;
    };
    Some(match (kind, value) {
        (3, OptionValue::Text(text)) => json!(text),
        (4, OptionValue::Integer(n)) => json!(n),
        (10, OptionValue::Number(n)) => json!(n),
        (10, OptionValue::Integer(n)) => json!(*n as f64),
        (5, OptionValue::Boolean(b)) => json!(b),
        (6 | 9, OptionValue::User(user)) => {
            resolve("users", user.id, user.user_json());
            if fixture::member_by_id(user.id).is_some() {
                let mut member = user.member_json(false);
                member["permissions"] = json!(user.permissions().to_string());
                resolve("members", user.id, member);
            }
            json!(user.id.to_string())
        }
        (7, OptionValue::Channel(id)) => {
            let channel = fixture::guild_channels_json()
                .into_iter()
                .find(|c| snowflake(&c["id"]) == Some(*id))?;
            resolve("channels", *id, channel);
            json!(id.to_string())
        }
        (8 | 9, OptionValue::Role(id)) => {
            let role = fixture::roles_json()
                .into_iter()
                .find(|r| snowflake(&r["id"]) == Some(*id))?;
            resolve("roles", *id, role);
            json!(id.to_string())
        }
        _ => return None,
    })
}

/// The fields every guild interaction carries.
fn envelope(
    kind: u64,
    id: u64,
    token: &str,
    data: Value,
    user: TestUser,
    channel: &Value,
    locale: &str,
) -> Value {
    let mut channel = channel.clone();
    channel["permissions"] = json!(user.permissions().to_string());
    json!({
        "id": id.to_string(),
        "application_id": APPLICATION_ID.to_string(),
        "type": kind,
        "data": data,
        "guild": {"id": GUILD_ID.to_string(), "locale": "en-US", "features": []},
        "guild_id": GUILD_ID.to_string(),
        "channel": channel,
        "channel_id": channel["id"],
        "member": user.interaction_member_json(),
        "token": token,
        "version": 1,
        "app_permissions": THUDBOT.permissions().to_string(),
        "locale": locale,
        "guild_locale": "en-US",
        "entitlements": [],
        "authorizing_integration_owners": {"0": GUILD_ID.to_string()},
        "context": 0,
        "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
    })
}

/// The INTERACTION_CREATE `d` for `user` clicking the button `custom_id` on `message` (a stored
/// message object) in `channel`. Refuses buttons that are missing or disabled, which no client
/// could click.
pub fn button_click_json(
    user: TestUser,
    message: &Value,
    channel: &Value,
    custom_id: &str,
    id: u64,
    token: &str,
) -> Result<Value, FakeError> {
    let buttons = message_buttons(message);
    let Some(button) = buttons.iter().find(|b| b["custom_id"] == custom_id) else {
        let present: Vec<&Value> = buttons.iter().map(|b| &b["custom_id"]).collect();
        return Err(FakeError::Rejected(format!(
            "no button `{custom_id}` on message {}; buttons: {present:?}",
            message["id"]
        )));
    };
    if button
        .get("disabled")
        .and_then(Value::as_bool)
        .unwrap_or(false)
    {
        return Err(FakeError::Rejected(format!(
            "button `{custom_id}` is disabled"
        )));
    }
    let data = json!({"custom_id": custom_id, "component_type": 2});
    let mut payload = envelope(3, id, token, data, user, channel, "en-US");
    payload["message"] = message.clone();
    Ok(payload)
}

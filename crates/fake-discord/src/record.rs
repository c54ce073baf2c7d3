//! What the fake remembers of each HTTP request the bot made, with typed accessors for the parts
//! tests assert on.

use serde_json::Value;

pub use super::spec::RequestVerdict as SpecVerdict;

/// A file uploaded in a multipart request.
#[derive(Clone, Debug)]
pub struct RecordedFile {
    /// The form field, `files[N]` for message attachments.
    pub field: String,
    pub filename: String,
    pub content_type: Option<String>,
    pub data: Vec<u8>,
}

/// One HTTP request the bot made, and how the fake answered it.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// Position in the order of arrival, from 0.
    pub seq: usize,
    pub method: String,
    /// Path below `/api/v10`, e.g. `/channels/1/messages` (the full path if the prefix is missing).
    pub path: String,
    /// Query pairs in order; serenity writes `?&key=value`, the empty pair is dropped.
    pub query: Vec<(String, String)>,
    /// Header names are lower-cased.
    pub headers: Vec<(String, String)>,
    /// The JSON body, or the parsed `payload_json` part of a multipart body.
    pub body: Option<Value>,
    /// Text fields of a multipart body other than `payload_json`.
    pub form_fields: Vec<(String, String)>,
    /// Files of a multipart body.
    pub files: Vec<RecordedFile>,
    /// The raw body bytes.
    pub raw_body: Vec<u8>,
    /// The status the fake answered with.
    pub status: u16,
    /// The JSON the fake answered with (none for 204).
    pub response: Option<Value>,
    /// False when the fake does not implement this route (answered 404 or 405): an unexpected call.
    pub known_route: bool,
    /// True when the answer was a failure the test injected (429, 5xx, a dropped connection)
    /// rather than Discord's verdict on the request.
    pub injected: bool,
    /// What Discord's OpenAPI description says of the request (see `spec`); `None` for a path
    /// outside `/api/v10`.
    pub spec_verdict: Option<SpecVerdict>,
    /// The headers the fake answered with (rate-limit headers), names lower-cased.
    pub response_headers: Vec<(String, String)>,
    /// When the request arrived, in real time.
    pub received: std::time::Instant,
}

static NULL: Value = Value::Null;

impl RecordedRequest {
    /// The JSON body (`Null` when there was none).
    pub fn json(&self) -> &Value {
        self.body.as_ref().unwrap_or(&NULL)
    }

    /// Discord's JSON error `code` of the answer, if it was one (50013, 10003, 160005, ...).
    pub fn error_code(&self) -> Option<u64> {
        if self.status < 400 {
            return None;
        }
        self.response.as_ref()?.get("code")?.as_u64()
    }

    /// A response header by (lower-case) name.
    pub fn response_header(&self, name: &str) -> Option<&str> {
        self.response_headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The uploaded files.
    pub fn attachments(&self) -> &[RecordedFile] {
        &self.files
    }

    /// The path split into segments, e.g. `["channels", "1", "messages"]`.
    pub fn segments(&self) -> Vec<&str> {
        self.path.split('/').filter(|s| !s.is_empty()).collect()
    }

    /// `(interaction id, token)` when this is `POST /interactions/{id}/{token}/callback`.
    pub fn interaction_callback(&self) -> Option<(u64, &str)> {
        match self.segments().as_slice() {
            ["interactions", id, token, "callback"] if self.method == "POST" => {
                Some((id.parse().ok()?, *token))
            }
            _ => None,
        }
    }

    /// The interaction token when this is a call on `/webhooks/{application}/{token}...`.
    pub fn webhook_token(&self) -> Option<&str> {
        match self.segments().as_slice() {
            ["webhooks", _, token, ..] => Some(*token),
            _ => None,
        }
    }

    /// Whether this request answers or follows up the interaction with this id and token.
    pub fn is_for_interaction(&self, id: u64, token: &str) -> bool {
        self.interaction_callback()
            .is_some_and(|(i, t)| i == id && t == token)
            || self.webhook_token() == Some(token)
    }

    /// The interaction response `type` of a callback (4 message, 5 deferred, 6 deferred update,
    /// 7 update, 8 autocomplete result, 9 modal).
    pub fn interaction_response_type(&self) -> Option<u64> {
        self.interaction_callback()?;
        self.json().get("type")?.as_u64()
    }

    /// The message part of the request: `data` of a callback, the body otherwise.
    pub fn message(&self) -> &Value {
        if self.interaction_callback().is_some() {
            self.json().get("data").unwrap_or(&NULL)
        } else {
            self.json()
        }
    }

    /// The message `content`, if any.
    pub fn content(&self) -> Option<&str> {
        self.message().get("content")?.as_str()
    }

    /// Message flags (`flags`), 0 when absent.
    pub fn flags(&self) -> u64 {
        self.message()
            .get("flags")
            .and_then(Value::as_u64)
            .unwrap_or(0)
    }

    /// Whether the message is only shown to the invoking user (flag 64).
    pub fn is_ephemeral(&self) -> bool {
        self.flags() & 64 != 0
    }

    /// The `allowed_mentions` object, if the bot sent one.
    pub fn allowed_mentions(&self) -> Option<&Value> {
        self.message()
            .get("allowed_mentions")
            .filter(|v| !v.is_null())
    }

    /// The users Discord would notify: those mentioned in `content` as `<@id>` that
    /// `allowed_mentions` lets through (all of them when it is absent).
    pub fn pinged_users(&self) -> Vec<u64> {
        let mentioned = mentioned_users(self.content().unwrap_or(""));
        let Some(allowed) = self.allowed_mentions() else {
            return mentioned;
        };
        let parse_users = allowed
            .get("parse")
            .and_then(Value::as_array)
            .is_some_and(|p| p.iter().any(|v| v == "users"));
        let listed: Vec<u64> = allowed
            .get("users")
            .and_then(Value::as_array)
            .map(|ids| ids.iter().filter_map(snowflake).collect())
            .unwrap_or_default();
        mentioned
            .into_iter()
            .filter(|id| parse_users || listed.contains(id))
            .collect()
    }

    /// The action rows (`components`) of the message; empty when absent.
    pub fn components(&self) -> Vec<Value> {
        self.message()
            .get("components")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }

    /// Every button in the message's action rows.
    pub fn buttons(&self) -> Vec<Value> {
        buttons_of(&self.components())
    }

    /// The choices of an autocomplete result (response type 8).
    pub fn choices(&self) -> Vec<Value> {
        self.message()
            .get("choices")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    }

    /// A one-line description for failure messages.
    pub fn summary(&self) -> String {
        let body = self
            .body
            .as_ref()
            .map(|b| b.to_string())
            .unwrap_or_default();
        let body: String = body.chars().take(300).collect();
        format!(
            "#{} {} {} -> {}{} {}{}",
            self.seq,
            self.method,
            self.path,
            self.status,
            if !self.known_route {
                " (unknown route)"
            } else if self.injected {
                " (injected)"
            } else {
                ""
            },
            body,
            if self.files.is_empty() {
                String::new()
            } else {
                format!(" +{} file(s)", self.files.len())
            },
        )
    }
}

/// Every button (component type 2) inside these action rows.
pub fn buttons_of(rows: &[Value]) -> Vec<Value> {
    rows.iter()
        .filter_map(|row| row.get("components").and_then(Value::as_array))
        .flatten()
        .filter(|c| c.get("type").and_then(Value::as_u64) == Some(2))
        .cloned()
        .collect()
}

/// A snowflake given as a JSON string or number.
pub fn snowflake(value: &Value) -> Option<u64> {
    match value {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

/// User ids mentioned as `<@id>` or `<@!id>` in message content, in order, without repeats.
pub fn mentioned_users(content: &str) -> Vec<u64> {
    let mut ids = Vec::new();
    let mut rest = content;
    while let Some(start) = rest.find("<@") {
        rest = &rest[start + 2..];
        let digits = rest.strip_prefix('!').unwrap_or(rest);
        let end = digits.find('>').unwrap_or(0);
        if let Ok(id) = digits[..end].parse::<u64>() {
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    ids
}

//! How the fake answers a request, and Discord's JSON error shapes.

use serde_json::{json, Value};

/// How the fake answers one request.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub body: Option<Value>,
    /// False for routes the fake does not implement.
    pub known: bool,
}

impl Answer {
    pub(super) fn ok(body: Value) -> Self {
        Answer {
            status: 200,
            body: Some(body),
            known: true,
        }
    }

    pub(super) fn created(body: Value) -> Self {
        Answer {
            status: 201,
            body: Some(body),
            known: true,
        }
    }

    pub(super) fn no_content() -> Self {
        Answer {
            status: 204,
            body: None,
            known: true,
        }
    }

    /// Discord's JSON error: `{"message": ..., "code": ...}`.
    pub(super) fn error(status: u16, code: u64, message: &str) -> Self {
        Answer {
            status,
            body: Some(json!({"message": message, "code": code})),
            known: true,
        }
    }

    /// Discord's 50035 "Invalid Form Body" with one error at `path` (nested objects, as Discord
    /// nests them, e.g. `{"content": {"_errors": [...]}}`).
    pub(super) fn invalid_form(path: &[String], code: &str, message: &str) -> Self {
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

    pub(super) fn unknown_route(status: u16) -> Self {
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
pub(super) fn at(parts: &[&dyn ToString]) -> Vec<String> {
    parts.iter().map(|p| p.to_string()).collect()
}

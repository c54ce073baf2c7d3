//! One REST exchange judged against the spec: which operation it is, whether the request fits
//! it, and whether the fake's answer does.

use std::fmt;
use std::io::Write;

use jsonschema::error::ValidationErrorKind;
use jsonschema::ValidationError;
use serde_json::{json, Value};

use super::{spec, Operation, Route, DOC_URI};

/// One REST exchange as the fake saw and answered it.
pub struct Exchange<'a> {
    /// The request's position in the fake's record.
    pub seq: usize,
    pub method: &'a str,
    /// The path below `/api/v10`, split.
    pub segments: &'a [&'a str],
    /// Query pairs as sent (still percent-encoded).
    pub query: &'a [(String, String)],
    /// The request's `Content-Type`.
    pub content_type: Option<&'a str>,
    /// The JSON body, or the `payload_json` of a multipart body.
    pub body: Option<&'a Value>,
    /// The body was not JSON (the fake answered 50109).
    pub malformed: bool,
    pub status: u16,
    pub response: Option<&'a Value>,
    /// The answer was a failure the test injected, not the fake's verdict.
    pub injected: bool,
}

/// Where the fake or the bot left the spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub seq: usize,
    pub method: String,
    pub path: String,
    /// The spec's `operationId`, or `-` when the request is no operation of the spec.
    pub operation: String,
    /// `request` (the bot's side), `response` (the fake's) or `route`.
    pub side: &'static str,
    pub status: u16,
    /// JSON pointer into the request or response body.
    pub pointer: String,
    pub reason: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "#{} {} {} -> {} ({}): {} at {:?}: {}",
            self.seq,
            self.method,
            self.path,
            self.status,
            self.operation,
            self.side,
            self.pointer,
            self.reason
        )
    }
}

/// What the spec says of a request's body and parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestVerdict {
    /// No operation of the spec to judge it by.
    NoOperation,
    Fits,
    /// The spec refuses it, and so did the fake.
    RefusedAsSpecRefuses,
    /// The spec refuses it, and the fake accepted it (a violation).
    AcceptedAgainstSpec,
    /// The spec accepts it, and the fake refused it as an invalid form (400 50035): one of
    /// Discord's documented rules that the schema does not carry.
    RefusedBeyondSpec,
}

/// Judges one exchange; writes a line to `$FAKE_DISCORD_SPEC_LOG` when that is set.
pub fn check_exchange(exchange: &Exchange) -> (RequestVerdict, Vec<Violation>) {
    let started = std::time::Instant::now();
    let spec = spec();
    let path = format!("/{}", exchange.segments.join("/"));
    let mut violations = Vec::new();
    let mut violation = |operation: &str, side, pointer: String, reason: String| {
        violations.push(Violation {
            seq: exchange.seq,
            method: exchange.method.to_string(),
            path: path.clone(),
            operation: operation.to_string(),
            side,
            status: exchange.status,
            pointer,
            reason,
        })
    };
    let refused = exchange.status >= 400 && !exchange.injected;
    let (operation, verdict) = match spec.route(exchange.method, exchange.segments) {
        Route::Operation(op) => {
            let problems = request_problems(op, exchange);
            let verdict = if problems.is_empty() {
                let invalid_form = exchange
                    .response
                    .and_then(|r| r.get("code"))
                    .is_some_and(|c| c == 50035);
                if refused && invalid_form {
                    RequestVerdict::RefusedBeyondSpec
                } else {
                    RequestVerdict::Fits
                }
            } else if refused {
                RequestVerdict::RefusedAsSpecRefuses
            } else {
                for (pointer, reason) in problems {
                    violation(&op.id, "request", pointer, reason);
                }
                RequestVerdict::AcceptedAgainstSpec
            };
            for (pointer, reason) in response_problems(op, exchange) {
                violation(&op.id, "response", pointer, reason);
            }
            (op.id.as_str(), verdict)
        }
        Route::MethodNotAllowed | Route::NotFound if refused => ("-", RequestVerdict::NoOperation),
        route => {
            let why = if matches!(route, Route::MethodNotAllowed) {
                "the spec has this path but not this method"
            } else {
                "the spec has no such path"
            };
            violation("-", "route", String::new(), why.to_string());
            ("-", RequestVerdict::NoOperation)
        }
    };
    if let Some(log) = std::env::var_os("FAKE_DISCORD_SPEC_LOG") {
        log_exchange(
            &log,
            exchange,
            operation,
            verdict,
            &violations,
            started.elapsed(),
        );
    }
    (verdict, violations)
}

/// One JSON line per exchange, for counting what the validation found across a whole run.
fn log_exchange(
    log: &std::ffi::OsStr,
    exchange: &Exchange,
    operation: &str,
    verdict: RequestVerdict,
    violations: &[Violation],
    took: std::time::Duration,
) {
    let line = json!({
        "micros": took.as_micros() as u64,
        "operation": operation,
        "method": exchange.method,
        "status": exchange.status,
        "injected": exchange.injected,
        "request": format!("{verdict:?}"),
        "path": format!("/{}", exchange.segments.join("/")),
        "body": if violations.iter().any(|v| v.side == "request") { exchange.body.cloned() } else { None },
        "response": if violations.iter().any(|v| v.side == "response") { exchange.response.cloned() } else { None },
        "violations": violations.iter().map(|v| json!({
            "side": v.side, "pointer": v.pointer, "reason": v.reason,
        })).collect::<Vec<_>>(),
    });
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(log);
    if let Ok(mut file) = file {
        // One write per line, so lines from parallel tests do not interleave.
        let _ = file.write_all(format!("{line}\n").as_bytes());
    }
}

/// Where the request leaves its operation: path and query parameters, then the body.
fn request_problems(op: &Operation, exchange: &Exchange) -> Vec<(String, String)> {
    let spec = spec();
    let mut problems = Vec::new();
    for (template, actual) in op.segments.iter().zip(exchange.segments) {
        let Err(name) = template else { continue };
        if let Some(param) = op.params.iter().find(|p| p.in_path && &p.name == name) {
            if !fits_text(&spec.validator(&param.schema), actual) {
                problems.push((
                    String::new(),
                    format!("path parameter {name} = {actual:?} does not fit the spec"),
                ));
            }
        }
    }
    for (key, value) in exchange.query {
        let value = percent_decode(value);
        match op.params.iter().find(|p| !p.in_path && &p.name == key) {
            None => problems.push((
                String::new(),
                format!("query parameter {key} is not one of the operation's"),
            )),
            Some(param) if !fits_text(&spec.validator(&param.schema), &value) => problems.push((
                String::new(),
                format!("query parameter {key} = {value:?} does not fit the spec"),
            )),
            Some(_) => {}
        }
    }
    for param in op.params.iter().filter(|p| !p.in_path && p.required) {
        if !exchange.query.iter().any(|(k, _)| *k == param.name) {
            problems.push((
                String::new(),
                format!("query parameter {} is required", param.name),
            ));
        }
    }
    if exchange.malformed {
        problems.push((String::new(), "the body is not JSON".to_string()));
        return problems;
    }
    let Some(body) = exchange.body else {
        if op.request_required {
            problems.push((String::new(), "the operation requires a body".to_string()));
        }
        return problems;
    };
    let media = exchange
        .content_type
        .and_then(|c| c.split(';').next())
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match op.request.get(&media) {
        None if op.request.is_empty() => {
            problems.push((String::new(), "the operation takes no body".to_string()))
        }
        None => problems.push((
            String::new(),
            format!("the operation takes no {media:?} body"),
        )),
        Some(schema) => problems.extend(errors(&spec.validator(schema), body)),
    }
    problems
}

/// Where the fake's answer leaves the operation's response for its status.
fn response_problems(op: &Operation, exchange: &Exchange) -> Vec<(String, String)> {
    // A failure the test injected is the test's doing, and the spec describes no 5xx; a 429 is
    // still held to Discord's shape, which serenity reads.
    if exchange.injected && exchange.status != 429 {
        return Vec::new();
    }
    let status = exchange.status.to_string();
    let range = format!("{}XX", exchange.status / 100);
    let Some(schema) = [status.as_str(), range.as_str(), "default"]
        .iter()
        .find_map(|key| op.responses.get(*key))
    else {
        let mut known: Vec<&String> = op.responses.keys().collect();
        known.sort();
        return vec![(
            String::new(),
            format!("the spec has no {status} answer (it has {known:?})"),
        )];
    };
    match (schema, exchange.response) {
        (None, None) => Vec::new(),
        (None, Some(_)) => vec![(
            String::new(),
            format!("the spec's {status} answer has no body"),
        )],
        (Some(_), None) => vec![(
            String::new(),
            format!("the spec's {status} answer has a JSON body; the fake sent none"),
        )],
        (Some(schema), Some(body)) => errors(&spec().validator(schema), body),
    }
}

/// Whether a path or query value fits its schema: as the string it is, or read as JSON for the
/// parameters the spec types as numbers or booleans.
fn fits_text(validator: &jsonschema::Validator, text: &str) -> bool {
    validator.is_valid(&Value::String(text.to_string()))
        || serde_json::from_str::<Value>(text)
            .is_ok_and(|v| !v.is_string() && validator.is_valid(&v))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b'+', _) => {
                out.push(b' ');
                i += 1;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Every error of `instance` against the validator, as (JSON pointer, reason).
fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for error in validator.iter_errors(instance) {
        explain(&error, &mut found);
    }
    found.dedup();
    found
}

/// A union's failure says only that no branch fits; the branch that got furthest (deepest into
/// the instance, then with fewest errors) is almost always the one meant, so its errors are
/// given instead.
fn explain(error: &ValidationError, found: &mut Vec<(String, String)>) {
    let branches = match error.kind() {
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            Some(context)
        }
        _ => None,
    };
    // Discord's unions are told apart by `type`: a branch refused for its `type` is not the one
    // the instance meant.
    let discriminator = format!("{}/type", error.instance_path().as_str());
    if let Some(best) = branches.and_then(|branches| {
        branches.iter().filter(|b| !b.is_empty()).max_by_key(|b| {
            let other_type = b
                .iter()
                .any(|e| e.instance_path().as_str() == discriminator);
            let depth = b.iter().map(|e| e.instance_path().as_str().len()).max();
            (!other_type, depth, std::cmp::Reverse(b.len()))
        })
    }) {
        for inner in best {
            explain(inner, found);
        }
        return;
    }
    let schema = error
        .absolute_keyword_location()
        .map(|uri| uri.as_str().trim_start_matches(DOC_URI).to_string())
        .unwrap_or_else(|| error.schema_path().as_str().to_string());
    found.push((
        error.instance_path().as_str().to_string(),
        format!("{error} (schema {schema})"),
    ));
}

//! Failures a test injects (429, 5xx, a dropped connection) and the rate-limit headers of normal
//! answers.
//!
//! Headers and the 429 body follow docs/topics/rate-limits.md ("Header Format", "Exceeding A
//! Rate Limit"): `X-RateLimit-Limit`, `-Remaining`, `-Reset` (epoch seconds), `-Reset-After`
//! (seconds, with decimals) and `-Bucket` on answers; on a 429 also `Retry-After` (whole
//! seconds), `X-RateLimit-Scope` and, for the global limit, `X-RateLimit-Global: true`, with the
//! body `{"message", "retry_after", "global"}`. Rate limits run on real time (serenity sleeps in
//! real time), not on the fake's clock.

use std::collections::HashMap;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

/// What an injected failure does to a request.
#[derive(Clone, Debug)]
pub enum Failure {
    /// 429 with Discord's rate-limit headers and body.
    RateLimited {
        /// `retry_after` in the body; the `Retry-After` header rounds it up to whole seconds.
        retry_after: Duration,
        /// The global limit (`X-RateLimit-Global`, scope `global`) rather than the route's.
        global: bool,
    },
    /// This HTTP status (500, 502, 503, ...) with Discord's generic JSON error.
    Status(u16),
    /// The connection is closed without an answer.
    Disconnect,
    /// No answer ever comes: the connection stays open until the client gives up (a request
    /// Discord never answers; only a client with a timeout gets past it).
    Hang,
    /// Discord does what was asked, but its answer never arrives: the connection stays open
    /// until the client gives up (a request that timed out after it took effect, which a
    /// client cannot tell from one that did not).
    AnswerLost,
    /// Not a failure of Discord's: the fake answers as usual, then this changes the answer's
    /// body, which is recorded and checked against the spec as the fake's own. For the tests
    /// of that check.
    Corrupt(fn(&mut Value)),
}

/// "Fail the next `times` requests matching `route` with `failure`".
#[derive(Clone, Debug)]
pub struct Fault {
    method: Option<String>,
    pattern: Vec<String>,
    remaining: usize,
    failure: Failure,
}

impl Fault {
    /// `route` is `"[METHOD ]/path"` below `/api/v10`, where `*` stands for one segment and a
    /// final `**` for any rest: `"POST /channels/*/messages"`, `"/interactions/**"`, `"**"`.
    pub fn new(route: &str, times: usize, failure: Failure) -> Self {
        let (method, path) = match route.trim().split_once(' ') {
            Some((method, path)) => (Some(method.to_ascii_uppercase()), path),
            None => (None, route.trim()),
        };
        Fault {
            method,
            pattern: path
                .split('/')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            remaining: times,
            failure,
        }
    }

    fn matches(&self, method: &str, segments: &[&str]) -> bool {
        if self.method.as_deref().is_some_and(|m| m != method) {
            return false;
        }
        let mut i = 0;
        for (n, part) in self.pattern.iter().enumerate() {
            if part == "**" && n == self.pattern.len() - 1 {
                return true;
            }
            match segments.get(i) {
                Some(segment) if part == "*" || part == segment => i += 1,
                _ => return false,
            }
        }
        i == segments.len()
    }
}

/// Takes one use of the first fault matching this request.
pub fn take_fault(faults: &mut Vec<Fault>, method: &str, segments: &[&str]) -> Option<Failure> {
    let index = faults
        .iter()
        .position(|f| f.remaining > 0 && f.matches(method, segments))?;
    let fault = &mut faults[index];
    fault.remaining -= 1;
    let failure = fault.failure.clone();
    if fault.remaining == 0 {
        faults.remove(index);
    }
    Some(failure)
}

/// The JSON body of an injected failure.
pub fn failure_body(failure: &Failure) -> Option<Value> {
    match failure {
        Failure::RateLimited {
            retry_after,
            global,
        } => Some(json!({
            "message": "You are being rate limited.",
            "retry_after": retry_after.as_secs_f64(),
            "global": global,
        })),
        Failure::Status(status) => Some(json!({
            "message": format!("{status}: {}", reason(*status)),
            "code": 0,
        })),
        Failure::Disconnect | Failure::Hang | Failure::AnswerLost | Failure::Corrupt(_) => None,
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        _ => "Server Error",
    }
}

/// One route's rate-limit window.
#[derive(Clone, Debug)]
struct Window {
    bucket: String,
    started: Instant,
    used: u32,
}

/// The per-route rate limits advertised in headers. By default they are not enforced: a test
/// that wants a 429 injects one. Enforced (`enforced`), they are counted as Discord counts
/// them (docs/topics/rate-limits.md): per bucket and major parameter, with routes sharing a
/// bucket (a channel's message posts and edits), and a request over the limit is answered 429
/// without being carried out.
#[derive(Clone, Debug)]
pub struct RateLimits {
    /// Requests a route allows per window (Discord's usual figure for sending messages: 5).
    pub limit: u32,
    /// How long a window lasts.
    pub window: Duration,
    /// Counted and refused over the limit, with shared buckets, rather than only advertised.
    pub enforced: bool,
    windows: HashMap<String, Window>,
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            limit: 5,
            window: Duration::from_secs(1),
            enforced: false,
            windows: HashMap::new(),
        }
    }
}

/// The route a rate limit is counted on: the path with ids and tokens replaced, except the
/// top-level resource (a channel, guild or webhook id, which Discord counts separately).
fn route_key(segments: &[&str]) -> String {
    let first = segments.first().copied().unwrap_or("");
    let parts: Vec<&str> = segments
        .iter()
        .enumerate()
        .map(|(i, segment)| {
            let major = i == 1 && matches!(first, "channels" | "guilds" | "webhooks");
            let token = i == 2 && matches!(first, "interactions" | "webhooks");
            if !major && (token || segment.chars().all(|c| c.is_ascii_digit())) {
                ":id"
            } else {
                segment
            }
        })
        .collect();
    format!("/{}", parts.join("/"))
}

/// A bucket id in Discord's style (hex), the same for every major resource of one route.
fn bucket_id(key: &str) -> String {
    let template: String = key
        .split('/')
        .map(|s| {
            if s.chars().all(|c| c.is_ascii_digit()) && !s.is_empty() {
                ":major"
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join("/");
    let hash = template.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    format!("{hash:016x}")
}

fn epoch_seconds(at: SystemTime) -> f64 {
    at.duration_since(UNIX_EPOCH)
        .unwrap_or_default()
        .as_secs_f64()
}

impl RateLimits {
    /// The window a request is counted in. Enforced, a channel's message routes (posting, and
    /// editing or deleting any of its messages) share one bucket, as Discord lets routes do:
    /// a client must group them by `X-RateLimit-Bucket`, not by path.
    fn key(&self, segments: &[&str]) -> String {
        let key = route_key(segments);
        match segments {
            ["channels", channel, "messages", id] if self.enforced && id.parse::<u64>().is_ok() => {
                format!("/channels/{channel}/messages")
            }
            _ => key,
        }
    }

    /// Enforced, a request to a channel's route whose window has nothing left: the headers of
    /// the 429 Discord answers with (scope `user`, waiting for the window's end), without
    /// counting it. Interactions and webhooks are left alone (Discord exempts interaction
    /// answers from the global limit, and each interaction has a token of its own).
    pub fn refuse(&mut self, segments: &[&str]) -> Option<(Duration, Vec<(String, String)>)> {
        if !self.enforced || segments.first() != Some(&"channels") {
            return None;
        }
        let key = self.key(segments);
        let window = self.windows.get(&key)?;
        let elapsed = window.started.elapsed();
        if elapsed >= self.window || window.used < self.limit {
            return None;
        }
        let retry_after = self.window - elapsed;
        let headers = self.headers_of_429(&key, retry_after);
        Some((retry_after, headers))
    }

    /// Counts a request and returns the headers Discord would send with a normal answer.
    pub fn count(&mut self, segments: &[&str]) -> Vec<(String, String)> {
        let key = self.key(segments);
        let now = Instant::now();
        let window = self.window;
        let entry = self.windows.entry(key.clone()).or_insert_with(|| Window {
            bucket: bucket_id(&key),
            started: now,
            used: 0,
        });
        if now.duration_since(entry.started) >= window {
            entry.started = now;
            entry.used = 0;
        }
        entry.used += 1;
        let reset_after = window.saturating_sub(now.duration_since(entry.started));
        let remaining = self.limit.saturating_sub(entry.used);
        let reset = epoch_seconds(SystemTime::now() + reset_after);
        vec![
            ("x-ratelimit-limit".into(), self.limit.to_string()),
            ("x-ratelimit-remaining".into(), remaining.to_string()),
            ("x-ratelimit-reset".into(), format!("{reset:.3}")),
            (
                "x-ratelimit-reset-after".into(),
                format!("{:.3}", reset_after.as_secs_f64()),
            ),
            ("x-ratelimit-bucket".into(), entry.bucket.clone()),
        ]
    }

    /// The headers of an injected 429.
    pub fn exceeded(
        &mut self,
        segments: &[&str],
        retry_after: Duration,
        global: bool,
    ) -> Vec<(String, String)> {
        let retry_header = retry_after.as_secs_f64().ceil().max(1.0) as u64;
        if global {
            return vec![
                ("retry-after".into(), retry_header.to_string()),
                ("x-ratelimit-global".into(), "true".into()),
                ("x-ratelimit-scope".into(), "global".into()),
            ];
        }
        let key = self.key(segments);
        self.headers_of_429(&key, retry_after)
    }

    fn headers_of_429(&self, key: &str, retry_after: Duration) -> Vec<(String, String)> {
        let retry_header = retry_after.as_secs_f64().ceil().max(1.0) as u64;
        let bucket = bucket_id(key);
        let reset = epoch_seconds(SystemTime::now() + retry_after);
        vec![
            ("retry-after".into(), retry_header.to_string()),
            ("x-ratelimit-limit".into(), self.limit.to_string()),
            ("x-ratelimit-remaining".into(), "0".into()),
            ("x-ratelimit-reset".into(), format!("{reset:.3}")),
            (
                "x-ratelimit-reset-after".into(),
                format!("{:.3}", retry_after.as_secs_f64()),
            ),
            ("x-ratelimit-bucket".into(), bucket),
            ("x-ratelimit-scope".into(), "user".into()),
        ]
    }
}

//! A relay on 127.0.0.1 between serenity and an operator's Discord proxy that keeps Discord's
//! rate limits.
//!
//! serenity 0.12 keeps neither a 429's `Retry-After` header nor its body's `retry_after`, and
//! its own rate limiter cannot be used with a proxy (it always calls discord.com). So with
//! `discord_proxy` set, serenity talks to this relay instead, and the relay forwards each
//! request to the proxy unchanged, once twilight's rate limiter (`twilight-http-ratelimiting`,
//! kept by the twilight project) gives it a permit: per bucket as Discord names them
//! (`X-RateLimit-Bucket`), keyed by the route's major parameter, waiting while a bucket has
//! nothing left, one waiter at a time in order, and with the global limit of 50 a second that
//! interactions are exempt from (docs/topics/rate-limits.md). A 429 that still comes through is
//! waited out for the time Discord gave and tried again; a global one holds every request but
//! interaction answers, which Discord exempts and which have 3 seconds. A wait that would
//! outlast the caller's timeout is not made: the 429 is passed on, and the delivery worker
//! backs off as it does for any failure; nor is a request started that could not finish
//! before serenity gives up on it, so a retry by the caller never doubles one the relay sent.
//!
//! Only this process may use it: its address carries a secret drawn at start, and a request
//! without it is refused. Its logs name routes with interaction and webhook tokens left out.
//!
//! docs/topics/rate-limits.md: the body's `retry_after` is in seconds (a float), as is the
//! `Retry-After` header; `global` (body) or `X-RateLimit-Global` / `X-RateLimit-Scope: global`
//! mark the global limit; `X-RateLimit-Scope: shared` a limit shared with others, which counts
//! against nobody but is waited out all the same.

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderMap, HeaderName};
use hyper::{Request, Response, StatusCode};
use tokio::time::Instant;
use twilight_http_ratelimiting::{Endpoint, Method, RateLimitHeaders, RateLimiter};

/// How many times one request is tried through 429s before the last one is passed on.
const MAX_TRIES: u32 = 5;
/// The wait for a 429 that names none.
const DEFAULT_RETRY_AFTER: Duration = Duration::from_secs(1);
/// Kept free of waiting at the end of the caller's timeout, for the request itself.
const TIMEOUT_MARGIN: Duration = Duration::from_secs(1);

/// What a 429 says about waiting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimited {
    /// How long to wait.
    pub retry_after: Duration,
    /// Every route waits (Discord's global limit), not only this one.
    pub global: bool,
    /// A limit shared with others on the resource (`X-RateLimit-Scope: shared`).
    pub shared: bool,
}

impl RateLimited {
    /// Reads a 429's headers and body as Discord's rate-limit documentation does; `None` for
    /// any other answer.
    pub fn of(status: StatusCode, headers: &HeaderMap, body: &[u8]) -> Option<RateLimited> {
        if status != StatusCode::TOO_MANY_REQUESTS {
            return None;
        }
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let seconds = |name: &str| header(name).and_then(|v| v.trim().parse::<f64>().ok());
        let json: Option<serde_json::Value> = serde_json::from_slice(body).ok();
        let retry_after = json
            .as_ref()
            .and_then(|j| j.get("retry_after")?.as_f64())
            .or_else(|| seconds("retry-after"))
            .or_else(|| seconds("x-ratelimit-reset-after"))
            .and_then(duration)
            .unwrap_or(DEFAULT_RETRY_AFTER);
        let scope =
            |s: &str| header("x-ratelimit-scope").is_some_and(|v| v.eq_ignore_ascii_case(s));
        let global = json
            .as_ref()
            .and_then(|j| j.get("global")?.as_bool())
            .unwrap_or(false)
            || header("x-ratelimit-global").is_some_and(|v| v.eq_ignore_ascii_case("true"))
            || scope("global");
        Some(RateLimited {
            retry_after,
            global,
            shared: scope("shared"),
        })
    }
}

/// What an answer's headers tell the rate limiter about its bucket, as twilight reads them:
/// a shared 429 empties the bucket until its wait is over, counting against nobody.
pub fn bucket_headers(
    headers: &HeaderMap,
    limited: Option<RateLimited>,
) -> Option<RateLimitHeaders> {
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let bucket = header(RateLimitHeaders::BUCKET)?.as_bytes().to_vec();
    if let Some(l) = limited.filter(|l| l.shared) {
        let seconds = l.retry_after.as_secs_f64().ceil().min(f64::from(u16::MAX)) as u16;
        return Some(RateLimitHeaders::shared(bucket, seconds));
    }
    let limit = header(RateLimitHeaders::LIMIT)?.trim().parse().ok()?;
    let remaining = header(RateLimitHeaders::REMAINING)?.trim().parse().ok()?;
    let reset_after = header(RateLimitHeaders::RESET_AFTER)?
        .trim()
        .parse::<f64>()
        .ok()
        .and_then(duration)?;
    Some(RateLimitHeaders {
        bucket,
        limit,
        remaining,
        reset_at: std::time::Instant::now() + reset_after,
    })
}

/// The endpoint a request's path (below the API's version) names, for the rate limiter.
fn endpoint(method: &hyper::Method, path: &str) -> Option<Endpoint> {
    let method = match *method {
        hyper::Method::GET => Method::Get,
        hyper::Method::POST => Method::Post,
        hyper::Method::PATCH => Method::Patch,
        hyper::Method::PUT => Method::Put,
        hyper::Method::DELETE => Method::Delete,
        _ => return None,
    };
    let rest = path.strip_prefix("/api/")?;
    // `v10/channels/…`: the version is no part of the route.
    let (_, route) = rest.split_once('/')?;
    Some(Endpoint {
        method,
        path: route.trim_end_matches('/').to_string(),
    })
}

/// `path` with the tokens of interactions and webhooks left out, for the logs.
pub fn redacted(path: &str) -> String {
    let mut out = Vec::new();
    let mut hide_after = 0;
    for (i, segment) in path.split('/').enumerate() {
        if hide_after > 0 && i == hide_after {
            out.push("…");
            continue;
        }
        if segment == "interactions" || segment == "webhooks" {
            hide_after = i + 2;
        }
        out.push(segment);
    }
    out.join("/")
}

/// Seconds as a duration; `None` for a negative or absurd figure.
fn duration(seconds: f64) -> Option<Duration> {
    (seconds.is_finite() && (0.0..86_400.0).contains(&seconds))
        .then(|| Duration::from_secs_f64(seconds))
}

/// The relay's state: where it forwards to, with which client, the secret its callers name,
/// the rate limiter, and until when Discord's global limit holds every request.
struct Relay {
    upstream: String,
    secret: String,
    client: reqwest::Client,
    timeout: Duration,
    limiter: RateLimiter,
    global_until: Mutex<Option<Instant>>,
}

/// Starts a relay to `upstream` (the proxy's base URL) on 127.0.0.1 and returns its base URL.
/// Needs a tokio runtime; `timeout` is the one serenity's client gives each request.
pub fn start(
    upstream: &str,
    client: reqwest::Client,
    timeout: Duration,
) -> std::io::Result<String> {
    let runtime = tokio::runtime::Handle::try_current().map_err(std::io::Error::other)?;
    let listener = std::net::TcpListener::bind(("127.0.0.1", 0))?;
    listener.set_nonblocking(true)?;
    let address = listener.local_addr()?;
    let secret: String = {
        use rand::Rng;
        let mut rng = rand::thread_rng();
        (0..32)
            .map(|_| char::from_digit(rng.gen_range(0..16), 16).unwrap_or('0'))
            .collect()
    };
    let relay = Arc::new(Relay {
        upstream: upstream.trim_end_matches('/').to_string(),
        secret: secret.clone(),
        client,
        timeout,
        // The limiter's worker runs on the same runtime as the relay.
        limiter: {
            let _entered = runtime.enter();
            RateLimiter::default()
        },
        global_until: Mutex::new(None),
    });
    runtime.spawn(async move {
        let listener = match tokio::net::TcpListener::from_std(listener) {
            Ok(l) => l,
            Err(e) => {
                tracing::error!(error = %e, "the Discord relay could not listen");
                return;
            }
        };
        loop {
            let stream = match listener.accept().await {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!(error = %e, "the Discord relay could not accept a connection");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            };
            let relay = relay.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |request| {
                    let relay = relay.clone();
                    async move { Ok::<_, Infallible>(relay.forward(request).await) }
                });
                let io = hyper_util::rt::TokioIo::new(stream);
                if let Err(e) = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, service)
                    .await
                {
                    tracing::debug!(error = %e, "a connection to the Discord relay ended");
                }
            });
        }
    });
    Ok(format!("http://{address}/{secret}"))
}

/// Headers that belong to one connection, not to the request or answer they travel with.
fn hop_by_hop(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "host" | "connection" | "content-length" | "transfer-encoding" | "keep-alive"
    )
}

impl Relay {
    async fn forward(&self, request: Request<Incoming>) -> Response<Full<Bytes>> {
        let began = Instant::now();
        let (parts, body) = request.into_parts();
        let full = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        let Some(target) = full
            .strip_prefix('/')
            .and_then(|rest| rest.strip_prefix(self.secret.as_str()))
            .filter(|rest| rest.starts_with('/'))
        else {
            return failed(StatusCode::FORBIDDEN, "not a request of this process");
        };
        let body = match body.collect().await {
            Ok(b) => b.to_bytes(),
            Err(e) => {
                return failed(
                    StatusCode::BAD_REQUEST,
                    &format!("reading the request: {e}"),
                )
            }
        };
        let path = target.split('?').next().unwrap_or(target);
        let route = format!("{} {}", parts.method, redacted(path));
        let endpoint = endpoint(&parts.method, path);
        let interaction = endpoint
            .as_ref()
            .is_some_and(|e| e.path.starts_with("interactions") || e.path.starts_with("webhooks"));
        let url = format!("{}{target}", self.upstream);
        let mut tries = 0;
        loop {
            tries += 1;
            // What is left of the caller's patience, less the time the request itself needs.
            let left = |now: Instant| {
                self.timeout
                    .checked_sub(now.duration_since(began) + TIMEOUT_MARGIN)
                    .filter(|left| !left.is_zero())
            };
            let Some(patience) = left(Instant::now()) else {
                return failed(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "rate limited for longer than a request may wait",
                );
            };
            if !interaction {
                if let Some(until) = self.global_until() {
                    if until > began + patience {
                        return failed(
                            StatusCode::SERVICE_UNAVAILABLE,
                            "rate limited for longer than a request may wait",
                        );
                    }
                    tokio::time::sleep_until(until).await;
                }
            }
            let permit = match &endpoint {
                Some(e) => {
                    let permit = self.limiter.acquire(e.clone());
                    match tokio::time::timeout(patience, permit).await {
                        Ok(permit) => Some(permit),
                        Err(_) => {
                            return failed(
                                StatusCode::SERVICE_UNAVAILABLE,
                                "rate limited for longer than a request may wait",
                            )
                        }
                    }
                }
                None => None,
            };
            // The request may take what is left of the caller's time, and no more: one the
            // caller gave up on is not finished behind its back.
            let Some(budget) = left(Instant::now()).map(|l| l + TIMEOUT_MARGIN / 2) else {
                return failed(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "rate limited for longer than a request may wait",
                );
            };
            let mut outgoing = self
                .client
                .request(parts.method.clone(), &url)
                .timeout(budget);
            for (name, value) in parts.headers.iter().filter(|(n, _)| !hop_by_hop(n)) {
                outgoing = outgoing.header(name, value);
            }
            let answer = match outgoing.body(body.clone()).send().await {
                Ok(a) => a,
                // A permit dropped unused frees its place in the queue.
                Err(e) => return failed(StatusCode::BAD_GATEWAY, &format!("the proxy: {e}")),
            };
            let status = answer.status();
            let headers = answer.headers().clone();
            let bytes = match answer.bytes().await {
                Ok(b) => b,
                Err(e) => {
                    return failed(StatusCode::BAD_GATEWAY, &format!("the proxy's answer: {e}"))
                }
            };
            let limited = RateLimited::of(status, &headers, &bytes);
            if let Some(permit) = permit {
                permit.complete(bucket_headers(&headers, limited));
            }
            if let Some(limited) = limited {
                if limited.global {
                    self.hold_all(Instant::now() + limited.retry_after);
                }
                let waited = began.elapsed() + limited.retry_after + TIMEOUT_MARGIN;
                if tries < MAX_TRIES && waited < self.timeout {
                    tracing::info!(%route, retry_after = ?limited.retry_after, global = limited.global,
                        "rate limited; trying again after the wait Discord gave");
                    tokio::time::sleep(limited.retry_after).await;
                    continue;
                }
                tracing::info!(%route, retry_after = ?limited.retry_after, "rate limited for longer than the request may wait; passed on");
            }
            let mut response = Response::new(Full::new(bytes));
            *response.status_mut() = status;
            for (name, value) in headers.iter().filter(|(n, _)| !hop_by_hop(n)) {
                response.headers_mut().append(name, value.clone());
            }
            return response;
        }
    }

    /// Until when Discord's global limit holds every request (interaction answers aside).
    fn global_until(&self) -> Option<Instant> {
        let until = *self.global_until.lock().unwrap_or_else(|e| e.into_inner());
        until.filter(|u| *u > Instant::now())
    }

    /// Discord's global limit holds every request until `until`.
    fn hold_all(&self, until: Instant) {
        let mut held = self.global_until.lock().unwrap_or_else(|e| e.into_inner());
        *held = Some(held.map_or(until, |h| h.max(until)));
    }
}

/// An answer the relay makes itself, in Discord's error shape (a server error: tried again).
fn failed(status: StatusCode, why: &str) -> Response<Full<Bytes>> {
    let body = serde_json::json!({ "message": format!("Discord relay: {why}"), "code": 0 });
    let mut response = Response::new(Full::new(Bytes::from(body.to_string())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        hyper::header::CONTENT_TYPE,
        hyper::header::HeaderValue::from_static("application/json"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.insert(*name, hyper::header::HeaderValue::from_static(value));
        }
        map
    }

    #[test]
    fn a_429_waits_for_the_bodys_retry_after_then_the_headers() {
        let body =
            br#"{"message": "You are being rate limited.", "retry_after": 0.25, "global": false}"#;
        let limited = RateLimited::of(
            StatusCode::TOO_MANY_REQUESTS,
            &headers(&[("retry-after", "1")]),
            body,
        );
        assert_eq!(
            limited,
            Some(RateLimited {
                retry_after: Duration::from_millis(250),
                global: false,
                shared: false,
            })
        );
        let from_header = RateLimited::of(
            StatusCode::TOO_MANY_REQUESTS,
            &headers(&[("retry-after", "2"), ("x-ratelimit-scope", "global")]),
            b"not json",
        );
        assert_eq!(
            from_header,
            Some(RateLimited {
                retry_after: Duration::from_secs(2),
                global: true,
                shared: false,
            })
        );
        let global_in_body = RateLimited::of(
            StatusCode::TOO_MANY_REQUESTS,
            &HeaderMap::new(),
            br#"{"retry_after": 1.5, "global": true}"#,
        );
        assert_eq!(global_in_body.map(|l| l.global), Some(true));
        // A 429 that names no wait still waits; any other answer is no 429.
        assert_eq!(
            RateLimited::of(StatusCode::TOO_MANY_REQUESTS, &HeaderMap::new(), b"")
                .map(|l| l.retry_after),
            Some(DEFAULT_RETRY_AFTER)
        );
        assert_eq!(
            RateLimited::of(StatusCode::OK, &HeaderMap::new(), b""),
            None
        );
    }

    #[test]
    fn an_answers_bucket_is_read_for_the_limiter_and_a_shared_429_empties_it() {
        let answer = headers(&[
            ("x-ratelimit-bucket", "abcd"),
            ("x-ratelimit-limit", "5"),
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset-after", "0.5"),
        ]);
        let read = bucket_headers(&answer, None).expect("a bucket");
        assert_eq!(
            (read.bucket.as_slice(), read.limit, read.remaining),
            (&b"abcd"[..], 5, 0)
        );
        let wait = read.reset_at - std::time::Instant::now();
        assert!(wait <= Duration::from_millis(500) && wait > Duration::from_millis(400));
        // Without a bucket the limiter learns nothing.
        assert_eq!(
            bucket_headers(&headers(&[("x-ratelimit-remaining", "0")]), None),
            None
        );
        let shared = headers(&[
            ("x-ratelimit-bucket", "abcd"),
            ("x-ratelimit-scope", "shared"),
        ]);
        let limited = RateLimited::of(
            StatusCode::TOO_MANY_REQUESTS,
            &shared,
            br#"{"retry_after": 2.2, "global": false}"#,
        );
        let read = bucket_headers(&shared, limited).expect("a bucket");
        assert_eq!((read.limit, read.remaining), (0, 0));
        assert!(read.reset_at - std::time::Instant::now() > Duration::from_secs(2));
    }

    #[test]
    fn routes_are_named_below_the_version_and_logged_without_tokens() {
        let e = endpoint(&hyper::Method::POST, "/api/v10/channels/123/messages").unwrap();
        assert_eq!(
            (e.method, e.path.as_str()),
            (Method::Post, "channels/123/messages")
        );
        assert!(endpoint(&hyper::Method::OPTIONS, "/api/v10/gateway").is_none());
        assert!(endpoint(&hyper::Method::GET, "/elsewhere").is_none());
        assert_eq!(
            redacted("/api/v10/interactions/99/s3cret-token/callback"),
            "/api/v10/interactions/99/…/callback"
        );
        assert_eq!(
            redacted("/api/v10/webhooks/1/s3cret-token/messages/@original"),
            "/api/v10/webhooks/1/…/messages/@original"
        );
        assert_eq!(
            redacted("/api/v10/channels/5/messages"),
            "/api/v10/channels/5/messages"
        );
    }

    #[tokio::test]
    async fn a_request_without_the_secret_is_refused() {
        let base = start(
            "http://127.0.0.1:9",
            reqwest::Client::new(),
            Duration::from_secs(5),
        )
        .expect("started");
        let (address, secret) = base
            .strip_prefix("http://")
            .and_then(|rest| rest.split_once('/'))
            .expect("an address and a secret");
        assert_eq!(secret.len(), 32);
        let client = reqwest::Client::new();
        let refused = client
            .get(format!("http://{address}/api/v10/users/@me"))
            .send()
            .await
            .expect("an answer");
        assert_eq!(refused.status(), reqwest::StatusCode::FORBIDDEN);
        let wrong = client
            .get(format!(
                "http://{address}/{}/api/v10/users/@me",
                "0".repeat(32)
            ))
            .send()
            .await
            .expect("an answer");
        assert_eq!(wrong.status(), reqwest::StatusCode::FORBIDDEN);
    }
}

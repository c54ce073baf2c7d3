//! A relay on 127.0.0.1 between serenity and an operator's Discord proxy that honours 429s.
//!
//! serenity 0.12 keeps neither a 429's `Retry-After` header nor its body's `retry_after`, and
//! its own rate limiter cannot be used with a proxy (it always calls discord.com). So with
//! `discord_proxy` set, serenity talks to this relay instead, and the relay forwards each
//! request to the proxy unchanged. When the answer is a 429, the relay holds the request's
//! route (or every route, for the global limit) for the time Discord gave and tries again, and
//! other requests on a held route wait too instead of sending into the limit. A route whose
//! answer said none of its requests are left holds until its window resets. A wait that would
//! outlast the caller's timeout is not made: the 429 is passed on, and the delivery worker backs
//! off as it does for any failure.
//!
//! docs/topics/rate-limits.md: the body's `retry_after` is in seconds (a float), as is the
//! `Retry-After` header; `global` (body) or `X-RateLimit-Global` / `X-RateLimit-Scope: global`
//! mark the global limit; `X-RateLimit-Remaining` and `X-RateLimit-Reset-After` describe a
//! route's window.

use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderMap, HeaderName};
use hyper::{Request, Response, StatusCode};
use tokio::time::Instant;

/// How many times one request is tried through 429s before the last one is passed on.
const MAX_TRIES: u32 = 5;
/// The wait for a 429 that names none.
const DEFAULT_RETRY_AFTER: Duration = Duration::from_secs(1);
/// Kept free of waiting at the end of the caller's timeout, for the request itself.
const TIMEOUT_MARGIN: Duration = Duration::from_secs(1);

/// What an answer says about waiting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// A 429: wait this long, every route when `global`.
    RateLimited { retry_after: Duration, global: bool },
    /// This route has no requests left until its window resets, in this long.
    Exhausted { reset_after: Duration },
    /// Nothing to wait for.
    Free,
}

impl Limit {
    /// Reads an answer's status, headers and body as Discord's rate-limit documentation does.
    pub fn of(status: StatusCode, headers: &HeaderMap, body: &[u8]) -> Limit {
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let seconds = |name: &str| header(name).and_then(|v| v.trim().parse::<f64>().ok());
        if status == StatusCode::TOO_MANY_REQUESTS {
            let json: Option<serde_json::Value> = serde_json::from_slice(body).ok();
            let retry_after = json
                .as_ref()
                .and_then(|j| j.get("retry_after")?.as_f64())
                .or_else(|| seconds("retry-after"))
                .or_else(|| seconds("x-ratelimit-reset-after"))
                .and_then(duration)
                .unwrap_or(DEFAULT_RETRY_AFTER);
            let global = json
                .as_ref()
                .and_then(|j| j.get("global")?.as_bool())
                .unwrap_or(false)
                || header("x-ratelimit-global").is_some_and(|v| v.eq_ignore_ascii_case("true"))
                || header("x-ratelimit-scope").is_some_and(|v| v.eq_ignore_ascii_case("global"));
            return Limit::RateLimited {
                retry_after,
                global,
            };
        }
        let left = header("x-ratelimit-remaining").and_then(|v| v.trim().parse::<u64>().ok());
        match (left, seconds("x-ratelimit-reset-after").and_then(duration)) {
            (Some(0), Some(reset_after)) => Limit::Exhausted { reset_after },
            _ => Limit::Free,
        }
    }
}

/// Seconds as a duration; `None` for a negative or absurd figure.
fn duration(seconds: f64) -> Option<Duration> {
    (seconds.is_finite() && (0.0..86_400.0).contains(&seconds))
        .then(|| Duration::from_secs_f64(seconds))
}

/// Until when requests must wait: every route, and each route held on its own.
#[derive(Default, Debug)]
pub struct Holds {
    global: Option<Instant>,
    routes: HashMap<String, Instant>,
}

impl Holds {
    /// When a request on `route` may go, if it must wait at all after `now`.
    pub fn ready_at(&self, route: &str, now: Instant) -> Option<Instant> {
        let until = [self.global, self.routes.get(route).copied()]
            .into_iter()
            .flatten()
            .max()?;
        (until > now).then_some(until)
    }

    /// Takes in what an answer on `route` said at `now`.
    pub fn learn(&mut self, route: &str, limit: Limit, now: Instant) {
        let (until, global) = match limit {
            Limit::RateLimited {
                retry_after,
                global,
            } => (now + retry_after, global),
            Limit::Exhausted { reset_after } => (now + reset_after, false),
            Limit::Free => return,
        };
        let slot = if global {
            self.global.get_or_insert(until)
        } else {
            self.routes.entry(route.to_string()).or_insert(until)
        };
        *slot = (*slot).max(until);
        // Holds long past are dropped, so the map stays as small as the routes in use.
        self.routes.retain(|_, t| *t > now);
    }
}

/// The relay's state: where it forwards to, with which client, and the holds it keeps.
struct Relay {
    upstream: String,
    client: reqwest::Client,
    timeout: Duration,
    holds: Mutex<Holds>,
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
    let relay = Arc::new(Relay {
        upstream: upstream.trim_end_matches('/').to_string(),
        client,
        timeout,
        holds: Mutex::new(Holds::default()),
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
    Ok(format!("http://{address}"))
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
        let body = match body.collect().await {
            Ok(b) => b.to_bytes(),
            Err(e) => {
                return failed(
                    StatusCode::BAD_REQUEST,
                    &format!("reading the request: {e}"),
                )
            }
        };
        let target = parts.uri.path_and_query().map_or("/", |p| p.as_str());
        let route = format!("{} {}", parts.method, parts.uri.path());
        let url = format!("{}{target}", self.upstream);
        let mut tries = 0;
        loop {
            tries += 1;
            let ready = self.holds().ready_at(&route, Instant::now());
            if let Some(at) = ready {
                if at.duration_since(began) + TIMEOUT_MARGIN >= self.timeout {
                    return failed(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "rate limited for longer than a request may wait",
                    );
                }
                tokio::time::sleep_until(at).await;
            }
            let mut outgoing = self.client.request(parts.method.clone(), &url);
            for (name, value) in parts.headers.iter().filter(|(n, _)| !hop_by_hop(n)) {
                outgoing = outgoing.header(name, value);
            }
            let answer = match outgoing.body(body.clone()).send().await {
                Ok(a) => a,
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
            let limit = Limit::of(status, &headers, &bytes);
            self.holds().learn(&route, limit, Instant::now());
            if let Limit::RateLimited {
                retry_after,
                global,
            } = limit
            {
                let waited = began.elapsed() + retry_after + TIMEOUT_MARGIN;
                if tries < MAX_TRIES && waited < self.timeout {
                    tracing::info!(%route, ?retry_after, global, "rate limited; trying again after the wait Discord gave");
                    continue;
                }
            }
            let mut response = Response::new(Full::new(bytes));
            *response.status_mut() = status;
            for (name, value) in headers.iter().filter(|(n, _)| !hop_by_hop(n)) {
                response.headers_mut().append(name, value.clone());
            }
            return response;
        }
    }

    fn holds(&self) -> std::sync::MutexGuard<'_, Holds> {
        // A panic while the map was held cannot leave it inconsistent: take it as it is.
        self.holds.lock().unwrap_or_else(|e| e.into_inner())
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
        let limit = Limit::of(
            StatusCode::TOO_MANY_REQUESTS,
            &headers(&[("retry-after", "1")]),
            body,
        );
        assert_eq!(
            limit,
            Limit::RateLimited {
                retry_after: Duration::from_millis(250),
                global: false
            }
        );
        let from_header = Limit::of(
            StatusCode::TOO_MANY_REQUESTS,
            &headers(&[("retry-after", "2"), ("x-ratelimit-scope", "global")]),
            b"not json",
        );
        assert_eq!(
            from_header,
            Limit::RateLimited {
                retry_after: Duration::from_secs(2),
                global: true
            }
        );
        let global_in_body = Limit::of(
            StatusCode::TOO_MANY_REQUESTS,
            &HeaderMap::new(),
            br#"{"retry_after": 1.5, "global": true}"#,
        );
        assert_eq!(
            global_in_body,
            Limit::RateLimited {
                retry_after: Duration::from_millis(1500),
                global: true
            }
        );
        // A 429 that names no wait still waits.
        assert_eq!(
            Limit::of(StatusCode::TOO_MANY_REQUESTS, &HeaderMap::new(), b""),
            Limit::RateLimited {
                retry_after: DEFAULT_RETRY_AFTER,
                global: false
            }
        );
    }

    #[test]
    fn a_route_with_nothing_left_waits_for_its_reset_and_others_do_not() {
        let spent = headers(&[
            ("x-ratelimit-remaining", "0"),
            ("x-ratelimit-reset-after", "0.5"),
        ]);
        assert_eq!(
            Limit::of(StatusCode::OK, &spent, b"{}"),
            Limit::Exhausted {
                reset_after: Duration::from_millis(500)
            }
        );
        let left = headers(&[
            ("x-ratelimit-remaining", "3"),
            ("x-ratelimit-reset-after", "0.5"),
        ]);
        assert_eq!(Limit::of(StatusCode::OK, &left, b"{}"), Limit::Free);

        let now = Instant::now();
        let mut holds = Holds::default();
        holds.learn("POST /a", Limit::of(StatusCode::OK, &spent, b"{}"), now);
        assert_eq!(
            holds.ready_at("POST /a", now),
            Some(now + Duration::from_millis(500))
        );
        assert_eq!(holds.ready_at("POST /b", now), None);
        assert_eq!(
            holds.ready_at("POST /a", now + Duration::from_secs(1)),
            None
        );
    }

    #[test]
    fn a_global_limit_holds_every_route_and_a_later_hold_never_shortens_one() {
        let now = Instant::now();
        let mut holds = Holds::default();
        let long = Limit::RateLimited {
            retry_after: Duration::from_secs(3),
            global: false,
        };
        let short = Limit::RateLimited {
            retry_after: Duration::from_secs(1),
            global: false,
        };
        holds.learn("POST /a", long, now);
        holds.learn("POST /a", short, now);
        assert_eq!(
            holds.ready_at("POST /a", now),
            Some(now + Duration::from_secs(3))
        );
        holds.learn(
            "GET /b",
            Limit::RateLimited {
                retry_after: Duration::from_secs(2),
                global: true,
            },
            now,
        );
        assert_eq!(
            holds.ready_at("PATCH /c", now),
            Some(now + Duration::from_secs(2))
        );
        assert_eq!(
            holds.ready_at("POST /a", now),
            Some(now + Duration::from_secs(3))
        );
    }
}

//! The REST server: parses each request, injects the failures a test asked for, lets the
//! world answer, records the exchange and writes it back.

use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};

use super::multipart;
use super::record::{RecordedFile, RecordedRequest};
use super::spec;
use super::world::{self, Incoming};
use super::{http1, Shared};

impl Shared {
    /// Parses, answers and records one REST request.
    fn handle(&self, wire: http1::WireRequest) -> Reply {
        let (path, query) = match wire.target.split_once('?') {
            Some((path, query)) => (path.to_string(), query.to_string()),
            None => (wire.target.clone(), String::new()),
        };
        let query: Vec<(String, String)> = query
            .split('&')
            .filter(|pair| !pair.is_empty())
            .map(|pair| match pair.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => (pair.to_string(), String::new()),
            })
            .collect();
        let api_path = path
            .strip_prefix("/api/v10")
            .filter(|p| p.is_empty() || p.starts_with('/'));

        let mut body = None;
        let mut files = Vec::new();
        let mut form_fields = Vec::new();
        let mut malformed = None;
        let content_type = wire.header("content-type").unwrap_or("").to_string();
        if let Some(boundary) = multipart::boundary(&content_type) {
            match multipart::parse(&wire.body, &boundary) {
                Ok(parts) => {
                    for part in parts {
                        if part.name == "payload_json" {
                            match serde_json::from_slice(&part.data) {
                                Ok(json) => body = Some(json),
                                Err(_) => {
                                    malformed = Some("payload_json is not valid JSON".to_string())
                                }
                            }
                        } else if let Some(filename) = part.filename {
                            files.push(RecordedFile {
                                field: part.name,
                                filename,
                                content_type: part.content_type,
                                data: part.data,
                            });
                        } else {
                            form_fields.push((
                                part.name,
                                String::from_utf8_lossy(&part.data).into_owned(),
                            ));
                        }
                    }
                }
                Err(why) => malformed = Some(why),
            }
        } else if !wire.body.is_empty() {
            match serde_json::from_slice(&wire.body) {
                Ok(json) => body = Some(json),
                Err(_) => malformed = Some("body is not valid JSON".to_string()),
            }
        }

        let reply = self.with_world(|world| {
            let segments: Vec<&str> = api_path
                .map(|p| p.split('/').filter(|s| !s.is_empty()).collect())
                .unwrap_or_default();
            let injected = api_path.and_then(|_| {
                world::take_fault(&mut world.faults, &wire.method, &segments)
            });
            // A corrupted answer is the fake's own answer, changed afterwards; a lost one is
            // the fake's own answer, never sent.
            let corrupt = match injected {
                Some(world::Failure::Corrupt(change)) => Some(change),
                _ => None,
            };
            let lost = matches!(injected, Some(world::Failure::AnswerLost));
            let injected = injected.filter(|f| {
                !matches!(f, world::Failure::Corrupt(_) | world::Failure::AnswerLost)
            });
            let mut headers = Vec::new();
            let answer = match (&injected, api_path, &malformed) {
                (Some(failure), _, _) => {
                    if let world::Failure::RateLimited {
                        retry_after,
                        global,
                    } = failure
                    {
                        headers = world.rate_limits.exceeded(&segments, *retry_after, *global);
                    }
                    let status = match failure {
                        world::Failure::RateLimited { .. } => 429,
                        world::Failure::Status(status) => *status,
                        world::Failure::Disconnect
                        | world::Failure::Hang
                        | world::Failure::AnswerLost
                        | world::Failure::Corrupt(_) => 0,
                    };
                    world::Answer {
                        status,
                        body: world::failure_body(failure),
                        known: true,
                    }
                }
                (None, _, Some(_)) => world::Answer {
                    status: 400,
                    body: Some(serde_json::json!({"message": "The request body contains invalid JSON.", "code": 50109})),
                    known: true,
                },
                (None, None, None) => world::Answer {
                    status: 404,
                    body: Some(serde_json::json!({"message": "404: Not Found", "code": 0})),
                    known: false,
                },
                (None, Some(_), None) => match world.rate_limits.refuse(&segments) {
                    // Over an enforced limit: refused as Discord does, nothing carried out.
                    Some((retry_after, limited)) => {
                        headers = limited;
                        world::Answer {
                            status: 429,
                            body: world::failure_body(&world::Failure::RateLimited {
                                retry_after,
                                global: false,
                            }),
                            known: true,
                        }
                    }
                    None => {
                    let answer = world.answer(&Incoming {
                        method: &wire.method,
                        segments: segments.clone(),
                        query: &query,
                        authorization: wire.header("authorization"),
                        body: body.as_ref(),
                        files: &files,
                    });
                    if answer.known {
                        headers = world.rate_limits.count(&segments);
                    }
                    let mut answer = answer;
                    if let (Some(change), Some(body)) = (corrupt, answer.body.as_mut()) {
                        change(body);
                    }
                    answer
                    }
                },
            };
            let seq = world.requests.len();
            let mut spec_verdict = None;
            if api_path.is_some() {
                let (verdict, violations) = spec::check_exchange(&spec::Exchange {
                    seq,
                    method: &wire.method,
                    segments: &segments,
                    query: &query,
                    content_type: wire.header("content-type"),
                    body: body.as_ref(),
                    malformed: malformed.is_some(),
                    status: answer.status,
                    response: answer.body.as_ref(),
                    injected: injected.is_some(),
                });
                spec_verdict = Some(verdict);
                world.spec_violations.extend(violations);
            }
            world.requests.push(RecordedRequest {
                seq,
                method: wire.method.clone(),
                path: api_path.unwrap_or(&path).to_string(),
                query: query.clone(),
                headers: wire.headers.clone(),
                body: body.clone(),
                form_fields,
                files,
                raw_body: wire.body.clone(),
                status: answer.status,
                response: answer.body.clone(),
                known_route: answer.known,
                injected: injected.is_some() || lost,
                spec_verdict,
                response_headers: headers.clone(),
                received: std::time::Instant::now(),
            });
            Reply {
                status: answer.status,
                headers,
                body: answer
                    .body
                    .map(|b| b.to_string().into_bytes())
                    .unwrap_or_default(),
                disconnect: matches!(injected, Some(world::Failure::Disconnect)),
                hang: lost || matches!(injected, Some(world::Failure::Hang)),
            }
        });
        self.notify();
        reply
    }
}

/// What goes back over the wire for one request.
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    /// Close the connection without answering (an injected network failure).
    disconnect: bool,
    /// Never answer; wait for the client to close the connection.
    hang: bool,
}

pub(super) async fn serve_rest(listener: TcpListener, shared: Arc<Shared>) {
    let mut connections = tokio::task::JoinSet::new();
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        connections.spawn(rest_connection(stream, shared.clone()));
        while connections.try_join_next().is_some() {}
    }
}

async fn rest_connection<S: AsyncRead + AsyncWrite + Unpin>(stream: S, shared: Arc<Shared>) {
    let (read, mut write) = tokio::io::split(stream);
    let mut reader = BufReader::new(read);
    loop {
        let request = match http1::read_request(&mut reader).await {
            Ok(Some(request)) => request,
            Ok(None) | Err(_) => return,
        };
        let close = request.wants_close();
        let reply = shared.handle(request);
        if reply.disconnect {
            return;
        }
        if reply.hang {
            // Until the client gives up and closes (or a minute, so no test leaks a task).
            let mut rest = [0u8; 1024];
            let wait = async { while matches!(reader.read(&mut rest).await, Ok(n) if n > 0) {} };
            let _ = tokio::time::timeout(std::time::Duration::from_secs(60), wait).await;
            return;
        }
        if http1::write_response(&mut write, reply.status, &reply.headers, &reply.body, close)
            .await
            .is_err()
            || close
        {
            return;
        }
    }
}

/// The TLS tunnel: a forward proxy that takes `CONNECT discord.com:443`, then speaks TLS as
/// discord.com (with the test certificate in tests/data/fake-discord-tls) and serves the same
/// REST answers inside. serenity's own rate limiter always calls https://discord.com, so this
/// is how a test runs it against the fake.
pub(super) async fn serve_tunnel(
    listener: TcpListener,
    shared: Arc<Shared>,
    tls: tokio_rustls::TlsAcceptor,
) {
    let mut connections = tokio::task::JoinSet::new();
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        connections.spawn(tunnel_connection(stream, shared.clone(), tls.clone()));
        while connections.try_join_next().is_some() {}
    }
}

async fn tunnel_connection(
    mut stream: TcpStream,
    shared: Arc<Shared>,
    tls: tokio_rustls::TlsAcceptor,
) {
    // The CONNECT request, read a byte at a time so nothing of the TLS handshake is taken.
    let mut head = Vec::new();
    while !head.ends_with(b"\r\n\r\n") {
        let mut byte = [0u8; 1];
        match stream.read(&mut byte).await {
            Ok(1) if head.len() < 8192 => head.push(byte[0]),
            _ => return,
        }
    }
    if !head.starts_with(b"CONNECT discord.com:443 ") {
        let _ = stream
            .write_all(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n\r\n")
            .await;
        return;
    }
    if stream
        .write_all(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        .await
        .is_err()
    {
        return;
    }
    if let Ok(secure) = tls.accept(stream).await {
        rest_connection(secure, shared).await;
    }
}

/// The TLS server side of the tunnel, with the test certificate for discord.com.
pub(super) fn tunnel_tls() -> tokio_rustls::TlsAcceptor {
    use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
    let cert = CertificateDer::from(TUNNEL_CERT.to_vec());
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(TUNNEL_KEY.to_vec()));
    let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
    let config = tokio_rustls::rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("TLS versions")
        .with_no_client_auth()
        .with_single_cert(vec![cert], key)
        .expect("the test certificate");
    tokio_rustls::TlsAcceptor::from(Arc::new(config))
}

/// A self-signed certificate for discord.com and its key, for the tunnel only.
pub const TUNNEL_CERT: &[u8] = include_bytes!("../../../tests/data/fake-discord-tls/cert.der");
const TUNNEL_KEY: &[u8] = include_bytes!("../../../tests/data/fake-discord-tls/key.der");

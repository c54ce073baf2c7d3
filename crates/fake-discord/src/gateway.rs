//! The gateway: a plain `ws://` WebSocket speaking Discord's gateway protocol v10 with JSON text
//! frames and no compression.

use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::handshake::server::{Request, Response};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

use super::fixture::{self, APPLICATION_FLAGS, APPLICATION_ID, GUILD_ID, TOKEN};
use super::world::{intent, Direction, GatewayFrame, Resumable, Session};
use super::Shared;

/// Accepts gateway connections until the fake is dropped.
pub async fn serve(listener: TcpListener, shared: Arc<Shared>) {
    let mut connections = tokio::task::JoinSet::new();
    let mut number = 0;
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        number += 1;
        connections.spawn(connection(stream, shared.clone(), number));
        // Reap finished connections so the set does not grow.
        while connections.try_join_next().is_some() {}
    }
}

/// One gateway connection: HELLO, then IDENTIFY → READY + GUILD_CREATE (or RESUME → the missed
/// dispatches + RESUMED), heartbeats, dispatches. A connection that drops without the bot
/// closing it with 1000 or 1001 leaves its session to be resumed.
// tungstenite's handshake callback signature fixes the (large) error type.
#[allow(clippy::result_large_err)]
async fn connection(stream: TcpStream, shared: Arc<Shared>, number: usize) {
    let mut request_uri = String::new();
    let handshake =
        tokio_tungstenite::accept_hdr_async(stream, |request: &Request, response: Response| {
            request_uri = request.uri().to_string();
            Ok(response)
        })
        .await;
    let Ok(mut socket) = handshake else { return };
    shared.with_world(|world| {
        world.gateway_log.push(GatewayFrame {
            connection: number,
            direction: Direction::Received,
            payload: json!({"connect": request_uri}),
        });
    });

    while shared.with_world(|world| world.gateway_held) {
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }

    let heartbeat_interval = shared.heartbeat_interval_ms;
    let (events_tx, mut events_rx) = mpsc::unbounded_channel::<(String, Value)>();
    let mut seq: u64 = 0;
    let mut identified = false;
    // The session this connection serves: its id, shard and intents.
    let mut session: Option<(String, [u64; 2], u64)> = None;
    // Whether the session may be resumed after the connection ends.
    let mut resumable = true;

    let hello =
        json!({"op": 10, "d": {"heartbeat_interval": heartbeat_interval}, "s": null, "t": null});
    if send(&mut socket, &shared, number, hello).await.is_err() {
        return;
    }

    loop {
        tokio::select! {
            incoming = socket.next() => {
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Close(frame))) => {
                        // Closing with 1000 or 1001 ends the session (docs/topics/gateway.md).
                        resumable = !frame.is_some_and(|f| matches!(u16::from(f.code), 1000 | 1001));
                        // Keep reading so tungstenite sends its half of the close handshake,
                        // which serenity waits for when shutting a shard down.
                        while let Some(Ok(_)) = socket.next().await {}
                        break;
                    }
                    Some(Ok(_)) => continue,
                    Some(Err(_)) | None => break,
                };
                let Ok(payload) = serde_json::from_str::<Value>(&text) else {
                    let _ = socket.send(close(4002, "Error while decoding payload.")).await;
                    break;
                };
                shared.with_world(|world| world.gateway_log.push(GatewayFrame {
                    connection: number,
                    direction: Direction::Received,
                    payload: payload.clone(),
                }));
                shared.notify();
                match payload["op"].as_u64() {
                    Some(1) => {
                        let ack = json!({"op": 11, "d": null, "s": null, "t": null});
                        if send(&mut socket, &shared, number, ack).await.is_err() {
                            break;
                        }
                    }
                    Some(2) if !identified => {
                        let d = &payload["d"];
                        if d["token"].as_str() != Some(TOKEN) && d["token"].as_str() != Some(&format!("Bot {TOKEN}")) {
                            let _ = socket.send(close(4004, "Authentication failed.")).await;
                            break;
                        }
                        let intents = d["intents"].as_u64().unwrap_or(0);
                        // docs/events/gateway.mdx, "Privileged Intents": a privileged intent not
                        // enabled for the app closes the connection with 4014.
                        if intents & intent::GUILD_MEMBERS != 0 && !shared.with_world(|world| world.members_intent_enabled) {
                            let _ = socket.send(close(4014, "Disallowed intent(s).")).await;
                            break;
                        }
                        let shard = match d["shard"].as_array() {
                            Some(pair) if pair.len() == 2 => [pair[0].as_u64().unwrap_or(0), pair[1].as_u64().unwrap_or(1)],
                            _ => [0, 1],
                        };
                        if shard[1] == 0 || shard[0] >= shard[1] {
                            let _ = socket.send(close(4010, "Invalid shard.")).await;
                            break;
                        }
                        // A guild the bot was removed from is neither in READY nor created.
                        let holds_guild = (GUILD_ID >> 22) % shard[1] == shard[0]
                            && shared.with_world(|world| world.bot_in_guild());
                        seq += 1;
                        let ready = dispatch_frame("READY", seq, ready_json(&shared.gateway_url, number, shard, holds_guild));
                        if send(&mut socket, &shared, number, ready).await.is_err() {
                            break;
                        }
                        if holds_guild && intents & intent::GUILDS != 0 {
                            seq += 1;
                            let guild = shared.with_world(|world| world.guild_create_json(intents & intent::GUILD_PRESENCES != 0));
                            if send(&mut socket, &shared, number, dispatch_frame("GUILD_CREATE", seq, guild)).await.is_err() {
                                break;
                            }
                        }
                        identified = true;
                        session = Some((format!("fake-session-{number:04}"), shard, intents));
                        shared.with_world(|world| world.sessions_invalidated = false);
                        shared.with_world(|world| world.sessions.push(Session {
                            number,
                            shard,
                            intents,
                            events: events_tx.clone(),
                        }));
                        shared.notify();
                    }
                    Some(2) => {
                        let _ = socket.send(close(4005, "Already authenticated.")).await;
                        break;
                    }
                    // RESUME: the session's missed dispatches follow its last sequence number, then
                    // RESUMED; a session that is not known cannot be resumed.
                    Some(6) if !identified => {
                        let d = &payload["d"];
                        let token_ok = d["token"].as_str() == Some(TOKEN) || d["token"].as_str() == Some(&format!("Bot {TOKEN}"));
                        let id = d["session_id"].as_str().unwrap_or_default().to_string();
                        let found = shared.with_world(|world| {
                            let at = world.resumable.iter().position(|r| r.session_id == id)?;
                            Some(world.resumable.remove(at))
                        });
                        let Some(old) = found.filter(|_| token_ok) else {
                            let invalid = json!({"op": 9, "d": false, "s": null, "t": null});
                            if send(&mut socket, &shared, number, invalid).await.is_err() {
                                break;
                            }
                            continue;
                        };
                        seq = old.seq;
                        let mut failed = false;
                        for (event, data) in old.missed {
                            seq += 1;
                            failed |= send(&mut socket, &shared, number, dispatch_frame(&event, seq, data)).await.is_err();
                        }
                        seq += 1;
                        let resumed = dispatch_frame("RESUMED", seq, json!({"_trace": ["[\"fake-gateway\",{\"micros\":0}]"]}));
                        if failed || send(&mut socket, &shared, number, resumed).await.is_err() {
                            break;
                        }
                        identified = true;
                        session = Some((old.session_id, old.shard, old.intents));
                        shared.with_world(|world| world.sessions.push(Session {
                            number,
                            shard: old.shard,
                            intents: old.intents,
                            events: events_tx.clone(),
                        }));
                        shared.notify();
                    }
                    Some(6) => {
                        let _ = socket.send(close(4005, "Already authenticated.")).await;
                        break;
                    }
                    // Presence updates, voice state and member requests are recorded only.
                    Some(3 | 4 | 8 | 31) => {}
                    _ => {
                        let _ = socket.send(close(4001, "Unknown opcode.")).await;
                        break;
                    }
                }
            }
            Some((event, data)) = events_rx.recv() => {
                if event == super::control::DROP_CONNECTION {
                    let _ = socket.send(close(4000, "Unknown error.")).await;
                    break;
                }
                seq += 1;
                if send(&mut socket, &shared, number, dispatch_frame(&event, seq, data)).await.is_err() {
                    break;
                }
            }
        }
    }
    // Under the world's lock no dispatch can slip in between: what was queued for this
    // connection but not sent is kept for the session, and so is what comes later.
    shared.with_world(|world| {
        world.sessions.retain(|s| s.number != number);
        events_rx.close();
        let mut missed = Vec::new();
        while let Ok(event) = events_rx.try_recv() {
            if event.0 != super::control::DROP_CONNECTION {
                missed.push(event);
            }
        }
        if let (Some((session_id, shard, intents)), true, false) =
            (session, resumable, world.sessions_invalidated)
        {
            world.resumable.push(Resumable {
                session_id,
                shard,
                intents,
                seq,
                missed,
            });
        }
    });
    shared.notify();
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code: CloseCode::from(code),
        reason: reason.into(),
    }))
}

fn dispatch_frame(event: &str, seq: u64, data: Value) -> Value {
    json!({"op": 0, "s": seq, "t": event, "d": data})
}

async fn send<S>(socket: &mut S, shared: &Shared, number: usize, payload: Value) -> Result<(), ()>
where
    S: SinkExt<Message> + Unpin,
{
    let text = payload.to_string();
    shared.with_world(|world| {
        world.gateway_log.push(GatewayFrame {
            connection: number,
            direction: Direction::Sent,
            payload,
        })
    });
    shared.notify();
    socket.send(Message::Text(text)).await.map_err(|_| ())
}

/// The READY payload; the guild is listed as unavailable, as Discord does before GUILD_CREATE.
fn ready_json(gateway_url: &str, number: usize, shard: [u64; 2], holds_guild: bool) -> Value {
    let guilds = if holds_guild {
        json!([{"id": GUILD_ID.to_string(), "unavailable": true}])
    } else {
        json!([])
    };
    json!({
        "v": 10,
        "user_settings": {},
        "user": fixture::bot_current_user_json(),
        "guilds": guilds,
        "session_id": format!("fake-session-{number:04}"),
        "session_type": "normal",
        "resume_gateway_url": gateway_url,
        "shard": shard,
        "application": {"id": APPLICATION_ID.to_string(), "flags": APPLICATION_FLAGS},
        "private_channels": [],
        "relationships": [],
        "presences": [],
        "guild_join_requests": [],
        "geo_ordered_rtc_regions": ["rotterdam", "frankfurt"],
        "auth": {},
        "_trace": ["[\"fake-gateway\",{\"micros\":0}]"],
    })
}

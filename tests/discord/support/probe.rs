//! Looking at the fake Discord from outside, for its self-tests: a raw gateway client that sees
//! exactly what the fake sends, Discord's refusals as serenity reports them, test commands
//! registered through serenity's builders and a small board picture.

use std::io::Cursor;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use poise::serenity_prelude as serenity;
use serde_json::{json, Value};
use serenity::model::event::{Event, GatewayEvent};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

use super::fake_discord::{intent, FakeDiscord, GUILD_ID};

/// How long a self-test waits for the fake or the bot.
pub const WAIT: Duration = Duration::from_secs(5);

// ----- a raw gateway client, to see exactly what the fake sends -----------------------------

pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

pub async fn next_payload(socket: &mut Socket) -> Value {
    loop {
        let frame = tokio::time::timeout(WAIT, socket.next())
            .await
            .expect("a gateway frame within the wait")
            .expect("the gateway stays open")
            .expect("a readable frame");
        if let Message::Text(text) = frame {
            return serde_json::from_str(&text).expect("gateway frames are JSON");
        }
    }
}

/// Connects like serenity does and identifies; returns the socket and the frames up to READY
/// (and GUILD_CREATE when the GUILDS intent is asked for).
pub async fn identify(fake: &FakeDiscord, intents: u64) -> (Socket, Vec<Value>) {
    let url = format!("{}/?v=10", fake.gateway_url());
    let (mut socket, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("the gateway accepts");
    let hello = next_payload(&mut socket).await;
    let identify = json!({"op": 2, "d": {
        "token": fake.token(), "intents": intents, "shard": [0, 1], "compress": true,
        "large_threshold": 250, "properties": {"os": "linux", "browser": "test", "device": "test"},
    }});
    socket
        .send(Message::Text(identify.to_string()))
        .await
        .expect("IDENTIFY sent");
    let mut frames = vec![hello, next_payload(&mut socket).await];
    if intents & intent::GUILDS != 0 {
        frames.push(next_payload(&mut socket).await);
    }
    (socket, frames)
}

/// Decodes a frame exactly as serenity's shard does.
pub fn as_serenity_event(frame: &Value) -> GatewayEvent {
    serde_json::from_value(frame.clone())
        .unwrap_or_else(|e| panic!("serenity rejects {frame}: {e}"))
}

pub fn dispatched_event(frame: &Value) -> Event {
    match as_serenity_event(frame) {
        GatewayEvent::Dispatch(_, event) => event,
        other => panic!("expected a dispatch, got {other:?}"),
    }
}

/// The error code and HTTP status of a failed serenity call.
pub fn discord_error(result: Result<impl std::fmt::Debug, serenity::Error>) -> (u16, isize) {
    match result {
        Err(serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(response))) => {
            (response.status_code.as_u16(), response.error.code)
        }
        other => panic!("expected Discord to refuse, got {other:?}"),
    }
}

/// `/thud pick square:<text>`, `/thud duel opponent:<user>` registered through serenity's builders.
pub async fn register_test_commands(http: &serenity::Http) -> Vec<serenity::Command> {
    let pick = serenity::CreateCommandOption::new(
        serenity::CommandOptionType::SubCommand,
        "pick",
        "Pick a square",
    )
    .add_sub_option(
        serenity::CreateCommandOption::new(
            serenity::CommandOptionType::String,
            "square",
            "A square",
        )
        .required(true)
        .set_autocomplete(true),
    );
    let duel = serenity::CreateCommandOption::new(
        serenity::CommandOptionType::SubCommand,
        "duel",
        "Challenge someone",
    )
    .add_sub_option(
        serenity::CreateCommandOption::new(
            serenity::CommandOptionType::User,
            "opponent",
            "Who to challenge",
        )
        .required(true),
    )
    .add_sub_option(serenity::CreateCommandOption::new(
        serenity::CommandOptionType::Integer,
        "days",
        "Days per move",
    ));
    let thud = serenity::CreateCommand::new("thud")
        .description("Play Thud")
        .add_option(pick)
        .add_option(duel);
    serenity::GuildId::new(GUILD_ID)
        .set_commands(http, vec![thud])
        .await
        .expect("commands registered")
}

/// A small checkered PNG, as a board picture would be.
pub fn board_png() -> Result<Vec<u8>, Box<dyn std::error::Error + Send + Sync>> {
    let board = image::RgbaImage::from_fn(8, 6, |x, y| {
        if (x + y) % 2 == 0 {
            image::Rgba([200, 180, 140, 255])
        } else {
            image::Rgba([90, 60, 30, 255])
        }
    });
    let mut bytes = Vec::new();
    image::DynamicImage::ImageRgba8(board)
        .write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png)?;
    Ok(bytes)
}

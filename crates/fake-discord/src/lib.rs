//! A fake Discord on loopback (REST and gateway) for end-to-end tests through the real serenity
//! client.
//!
//! # Using it
//!
//! ```ignore
//! let fake = FakeDiscord::start().await;
//! let mut client = serenity::ClientBuilder::new_with_http(fake.http(), intents)
//!     .framework(framework) // poise; set up to register commands in GUILD_ID on READY
//!     .await?;
//! let shard_manager = client.shard_manager.clone();
//! let bot = tokio::spawn(async move { client.start().await });
//! fake.wait_for(|r| r.method == "PUT" && r.path.ends_with("/commands"), WAIT).await?;
//! let sent = fake.run_command(&SlashCommand::thud("move").option("from", "F1").by(ALICE)).await?;
//! let reply = fake.response_to(&sent, WAIT).await?; // POST .../callback
//! assert_eq!(reply.interaction_response_type(), Some(4));
//! let message = fake.original_response(&sent);      // what the channel now shows
//! fake.click_button(BOB, message_id, "accept:42").await?;
//! assert!(fake.frames_serenity_cannot_read().is_empty());
//! assert!(fake.unexpected_requests().is_empty());
//! shard_manager.shutdown_all().await;               // then await `bot`
//! ```
//!
//! The fixture (`fixture.rs`) is one application/bot (`APPLICATION_ID == BOT_ID`), one guild
//! `GUILD_ID` with `#general` and `#thud` under a category, the roles `@everyone` (id = guild
//! id), Moderator (Manage Server) and the bot's managed role, and members `ALICE`, `BOB`,
//! `CAROL`, `VIMES` (moderator), `VETINARI` (owner, every permission) and `GOLEM` (a bot
//! account). The fake keeps Discord's state: registered commands, interactions and their tokens,
//! messages with every edit, threads and DM channels. Waiting is event-driven: every recorded
//! request or gateway frame wakes the waiters, there is no polling.
//!
//! # What serenity needs, and how it was found out
//!
//! - **REST base.** `HttpBuilder::new(token).proxy(url).ratelimiter_disabled(true)` makes serenity
//!   replace `https://discord.com` in every route by `url`, so requests arrive as
//!   `/api/v10/...`; the recorder strips that prefix. Query strings are written as
//!   `?&key=value` (serenity appends `&` after `?`); the empty pair is dropped. Give the `Http` to
//!   `ClientBuilder::new_with_http(http, intents)` (`ClientBuilder::token` would replace it).
//! - **Gateway URL.** Awaiting the `ClientBuilder` calls `GET /gateway` (not `/gateway/bot`, which
//!   only `start_autosharded` uses) and stores `url` in `client.ws_url`; each shard connects to
//!   `format!("{url}?v=10")`, parsed as a URL, so the fake answers a bare `ws://127.0.0.1:PORT`
//!   and sees the path `/?v=10`. No `encoding` and no `compress=zlib-stream`: there is no
//!   transport compression. IDENTIFY always says `"compress": true` (per-payload zlib), but
//!   serenity reads plain text frames as well as zlib binary ones, so the fake sends text.
//! - **IDENTIFY** carries the token *with* its `Bot ` prefix, `shard: [0, 1]`, the intents bits and
//!   a `since` serialized as `{"secs_since_epoch", "nanos_since_epoch"}`.
//! - **Heartbeats.** serenity sends its first heartbeat one full `heartbeat_interval` after
//!   IDENTIFY (41.25 s by default, so none in a short test), then one per interval, each only if
//!   the previous one was acknowledged; otherwise it reconnects. `start_with_heartbeat(ms)`
//!   shortens the interval.
//! - **Silent drops.** serenity's `Event` enum ends in `#[serde(untagged)] Unknown(..)`: a known
//!   event whose `d` does not fit serenity's model becomes `Event::Unknown`, never reaches poise,
//!   and nothing is logged. Required fields of serenity 0.12.5 that are easy to miss (read in its
//!   models): `attachment_size_limit` on interactions, `colors` on roles, `deaf`/`mute`/`flags` on
//!   members; removing `attachment_size_limit` or a message's `timestamp` on purpose showed the
//!   drop and the absence of any log. `frames_serenity_cannot_read()`
//!   decodes every frame sent the way the shard does and names the failing field. REST answers
//!   of the wrong shape, by contrast, surface as `serenity::Error` in the bot.
//! - **Resuming** (docs/topics/gateway.md, "Resuming"). A connection that drops (`drop_gateway`,
//!   close 4000) without the bot closing it with 1000 or 1001 leaves its session resumable; the
//!   dispatches meant for it meanwhile are kept, and a RESUME with its `session_id` replays them
//!   after its last sequence number, then sends RESUMED. An unknown session gets INVALID_SESSION
//!   (`d: false`) and serenity identifies again. `hold_gateway(true)` keeps new connections
//!   waiting before HELLO (serenity allows 15 s), so a test can act while the bot is away;
//!   `lose_events(true)` drops dispatches and makes the sessions open then unresumable, as an
//!   outage Discord cannot resume from.
//! - **GUILD_CREATE** is sent only with the GUILDS intent, and lists only the bot itself as member
//!   unless GUILD_PRESENCES is asked for (Discord's rule); READY lists the guild as unavailable
//!   first. Interactions carry their own `member`, and `resolved` data for user options.
//! - **Startup order** with poise: `GET /gateway` (serenity), `GET /oauth2/applications/@me`
//!   (poise, to learn the owners), the gateway handshake, then the `setup` callback runs on READY,
//!   where `register_in_guild` does `PUT /applications/{app}/guilds/{guild}/commands`. poise
//!   holds every event until `setup` returns. The application id reaches serenity's `Http` from
//!   READY's `application.id`.
//!
//! # What poise sends
//!
//! - **Registration**: one object per top-level command with `name`, `description`,
//!   `options`, `nsfw: false` and empty `name_localizations` / `description_localizations` maps,
//!   no `type` (Discord defaults it to 1). Subcommands are options of type 1; every option has
//!   `required`, `autocomplete`, `choices: []`, `channel_types: []` and null min/max fields. The
//!   description comes from the doc comment; the fake refuses a registration without one (50035).
//! - **Replies**: `ctx.send` answers with `POST /interactions/{id}/{token}/callback`, type 4,
//!   `data.flags` 64 when ephemeral, and, unless told otherwise, `allowed_mentions` =
//!   `{"parse": ["users"], "replied_user": true, ...}`, which pings every mentioned user: a bot that
//!   must ping only the player to move has to pass its own `CreateAllowedMentions`. Later sends in
//!   the same command are followups (`POST /webhooks/{app}/{token}`); `ReplyHandle::message()`
//!   is `GET .../messages/@original`.
//! - **Attachments** make the request `multipart/form-data`: the whole JSON in a `payload_json`
//!   part with `attachments: [{"id": 0, "filename": ..., "description": null}]`, and the bytes in
//!   part `files[0]` with a content type guessed from the file name (`image/png`).
//! - **Autocomplete** answers type 8 with `data.choices`; a component click answered by
//!   `CreateInteractionResponse::UpdateMessage` is type 7 with the new `content`/`components`.
//!
//! # Discord's rules the fake enforces (each answered with Discord's JSON error)
//!
//! An interaction is answered once (40060), within 3 s of dispatch on the fake's clock (else
//! 10062; see `set_response_deadline`), with a type its kind allows (8 only for autocomplete, 6/7 only for
//! components). Followups and `@original` need an acknowledged interaction (10015). After a
//! deferred response (type 5) the first followup fills in the "thinking" message instead of
//! posting a new one. Messages: not empty (50006), content ≤ 2000, ≤ 5 action rows of ≤ 5
//! buttons, unique `custom_id`s of 1-100 characters, `parse: ["users"]` and `users: [...]` not
//! both. Autocomplete: ≤ 25 choices. Commands: valid lower-case names, descriptions of 1-100
//! characters, ≤ 25 options, required options first, no autocomplete with choices. Ephemeral
//! messages exist only through the interaction webhook, not `GET /channels/.../messages`. A DM
//! to a bot account gets 50007. A thread started from a message takes the message's id; one
//! started without a message is private (type 12) unless a type is given, as API v10 says.
//! Non-ephemeral messages are announced as MESSAGE_CREATE / MESSAGE_UPDATE / MESSAGE_DELETE
//! (with the GUILD_MESSAGES intent) and threads as THREAD_CREATE. Error `code`s of form errors
//! (`BASE_TYPE_BAD_LENGTH`, ...) follow Discord's naming but are not all verified against it.
//!
//! `SlashCommand` builds interactions from the *registered* command: option types come from the
//! registration, and an unknown option, a missing required one, a value outside `choices` or a
//! wrong type is refused as no client could send it; `click_button` refuses a missing or disabled
//! button.
//!
//! # Held to Discord's OpenAPI description (`spec/`)
//!
//! Every REST exchange is checked against Discord's own OpenAPI 3.1 description
//! (tests/data/discord-api-spec): the request must be an operation of the spec whose parameters
//! and body fit it (or be refused by the fake, as the spec refuses it), and the fake's answer
//! must fit the operation's response for its status. Departures are recorded with the
//! operation, JSON pointer and reason (`spec_violations()`, `RecordedRequest::spec_verdict`);
//! `Bot::finish` asserts there are none and dropping the fake panics on any, so the test that
//! caused one fails. The few exceptions, where Discord's docs win over the spec, are listed in
//! `spec/mod.rs` and docs/testing.md. `corrupt_answer` changes an answer after the fact, for
//! the tests of the check itself.
//!
//! # Failing like Discord (`control.rs`)
//!
//! Every refusal below is Discord's verdict and is recorded with `known_route` true: find them
//! with `refused_with(code)` or `RecordedRequest::error_code()`; failures the test injected are
//! flagged `injected` (`injected_failures()`); `unexpected_requests()` stays for routes the fake
//! does not know.
//!
//! - **Clock.** `now()`, `advance(Duration)`, `set_now(t)`: the fake's clock is real time plus an
//!   offset. It drives snowflakes and timestamps, the 3-second answer deadline (10062), the
//!   15-minute interaction token (followups and edits then get 401 50027), thread archiving and
//!   nonce memory. Rate-limit windows run on real time, as serenity sleeps in real time.
//! - **Permissions** (world/permissions.rs, after docs/topics/permissions.md): roles (`@everyone`,
//!   Moderator, the bot's managed role granting exactly the README's invite, 309237681152) and
//!   channel overwrites, computed owner → roles → ADMINISTRATOR → `@everyone` overwrite → role
//!   overwrites → member overwrite, with the implicit rules (no VIEW_CHANNEL, nothing; no
//!   SEND_MESSAGES, no files or embeds). `set_overwrite(channel, Overwrite::role/member(id,
//!   allow, deny))`, `remove_overwrite`, `deny_bot(channel, bits)`, `set_role_permissions(role,
//!   bits)`, `permissions_in(user, channel)`. Every REST call of the bot into a guild channel is
//!   checked: no VIEW_CHANNEL → 403 50001; missing SEND_MESSAGES (SEND_MESSAGES_IN_THREADS in a
//!   thread), ATTACH_FILES, CREATE_PUBLIC/PRIVATE_THREADS, MANAGE_THREADS, MANAGE_CHANNELS →
//!   403 50013; a reply without READ_MESSAGE_HISTORY → 160002. Interaction callbacks are not
//!   checked, as on Discord; followups and edits of responses carrying files need ATTACH_FILES
//!   (the change log of 2023-11-01, "Fix Message Edit Interaction Response Permissions": they
//!   follow the bot's permissions). Interactions carry the current `permissions` and
//!   `app_permissions`, the latter computed as the docs' pseudo-code computes them, without
//!   the implicit denials (so Send Messages still shows where the bot cannot see); a user who
//!   cannot see a channel cannot send a command from it, nor one registered with
//!   `default_member_permissions` they lack unless `show_command_to_everyone(name)` (the
//!   server's Integrations page). GUILD_BAN_ADD reaches the bot only if it holds Ban Members or
//!   View Audit Log. `delete_message(id)`: later edits get 404 10008.
//! - **Deletion and removal.** `delete_channel(id)` (CHANNEL_DELETE; its threads go too),
//!   `delete_thread(id)` (THREAD_DELETE), `was_deleted(id)`: later calls get 404 10003.
//!   `remove_bot_from_guild()` sends GUILD_DELETE without `unavailable`; then channel calls get
//!   403 50001, guild routes 404 10004, guild command registration 403 50001, READY no longer
//!   lists the guild and no interaction comes from it.
//! - **Threads** (docs/topics/threads.md). A thread archives once idle for its
//!   `auto_archive_duration` (60, 1440, 4320 or 10080 minutes; anything else 50035) on the
//!   fake's clock (THREAD_UPDATE); activity is a message, unarchiving or a new archive time.
//!   `run_command` in an archived thread is refused (clients cannot use commands there). A post
//!   by the bot into an archived, unlocked thread unarchives it; editing a message there is
//!   400 50083; deleting is allowed. `lock_thread` / `unlock_thread` / `archive_thread` act as a
//!   moderator (THREAD_UPDATE): in a locked thread the bot, without MANAGE_THREADS, gets 160005
//!   for posts, edits and unarchiving. `PATCH /channels/{thread}`: the creator may archive,
//!   unarchive and change the archive time; `locked` needs MANAGE_THREADS (50013); deleting a
//!   thread needs MANAGE_THREADS. `thread_is_archived(id)`. A new thread beyond the guild's
//!   active-thread limit (`set_active_thread_limit`, default Discord's 1,000; archived
//!   threads do not count) gets 400 160006; `GET /guilds/{id}/threads/active` lists the
//!   unarchived threads the bot can see, with its own memberships.
//! - **Injected failures** (world/faults.rs, after docs/topics/rate-limits.md).
//!   `inject(route, times, Failure)`, `rate_limit(route, times, retry_after)`,
//!   `fail_with_status(route, times, 502)`, `drop_connection(route, times)`, `hang(route,
//!   times)` (no answer until the client gives up), `lose_answer(route, times)` (the request
//!   takes effect, then no answer comes: a time-out after success), `clear_failures()`: `route` is
//!   `"[METHOD ]/path"` below `/api/v10` with `*` for a segment and a final `**` for any rest.
//!   A 429 carries `Retry-After` (whole seconds, rounded up), `X-RateLimit-Limit/Remaining/
//!   Reset/Reset-After/Bucket/Scope` (`X-RateLimit-Global` for a global one) and
//!   `{"message": "You are being rate limited.", "retry_after": 0.5, "global": false}`. Normal
//!   answers carry the route's rate-limit headers too (`set_advertised_rate_limit`, default 5 a
//!   second, advertised but not enforced). `enforce_rate_limits(limit, window)` counts them as
//!   Discord does: per bucket and major parameter, a channel's message posts and edits sharing
//!   one bucket (one `X-RateLimit-Bucket` for two routes), and a request over the limit gets a
//!   429 of the fake's own (`injected` false) without being carried out.
//! - **Uploads** (docs/reference.mdx, "Uploading Files"): ≤ 10 attachments (50035), each file ≤
//!   the upload limit (default 10 MiB, `set_upload_limit`; else 413 40005), descriptions ≤ 1,024
//!   characters (50035).
//! - **Nonces** (docs/resources/message.md, "Create Message"): a post with `nonce` and
//!   `enforce_nonce: true` repeating a nonce of the bot's from the last 5 minutes returns the
//!   earlier message and creates nothing (`channel_messages` shows what a channel really got).
//! - **DMs.** `close_dms(user)`: the DM channel still opens, posting into it gets 403 50007.
//!
//! # Not modelled
//!
//! Guild member chunks (op 8 is recorded and ignored), DM interactions, modals beyond accepting a type
//! 9 answer, select menus clicks, `with_response` callbacks. Rate limits are enforced only when
//! asked, on channel routes, and never the global 50 a second (only injected global 429s). serenity's own rate limiter ignores the `proxy` base and
//! calls https://discord.com; `http_with_rate_limiter()` gives it a client that reaches
//! discord.com through the fake's TLS tunnel (a CONNECT proxy answering as discord.com with the
//! test certificate in tests/data/fake-discord-tls, which that client alone trusts).
//! Embeds are kept even without EMBED_LINKS (Discord drops them); button clicks in archived
//! threads are delivered; slow mode, the guild's boost tier
//! and private-thread membership are not modelled; interaction followups are not checked
//! against archived or locked threads. Discord documents the codes but not the HTTP statuses of
//! 160005 (the fake answers 403), 50083 and 160006 (400), nor the exact length of "the past few
//! minutes" for nonces (5 here). Any route not listed in `world/routes.rs` is
//! answered 404 (405 for a known path with another method) and flagged in
//! `unexpected_requests()`.

// Some of what the fake records is read by only a few tests, or kept for the next one.
#![allow(dead_code)]

mod control;
mod decoding;
mod dispatch;
mod fixture;
mod gateway;
mod http1;
mod interactions;
mod logs;
mod multipart;
mod record;
mod rest;
mod spec;
mod waiting;
mod world;

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde_json::Value;
use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use fixture::*;
pub use interactions::{button_click_json, OptionValue, SlashCommand, ATTACHMENT_SIZE_LIMIT};
pub use logs::{capture_logs, CapturedLogs};
pub use record::{
    buttons_of, mentioned_users, snowflake, RecordedFile, RecordedRequest, SpecVerdict,
};
pub use spec::Violation as SpecViolation;
use world::World;
pub use world::{intent, Direction, Failure, GatewayFrame, Overwrite};

/// Why the fake could not do what a test asked.
#[derive(Debug)]
pub enum FakeError {
    /// Nothing matched before the deadline; `seen` lists what was recorded, for the failure message.
    Timeout { waiting_for: String, seen: String },
    /// The request makes no sense on Discord (unregistered command, missing button, ...).
    Rejected(String),
    /// No bot is connected to the gateway.
    NotConnected,
}

impl fmt::Display for FakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FakeError::Timeout { waiting_for, seen } => {
                write!(
                    f,
                    "timed out waiting for {waiting_for}; recorded so far:\n{seen}"
                )
            }
            FakeError::Rejected(why) => write!(f, "Discord would not deliver this: {why}"),
            FakeError::NotConnected => write!(f, "no bot is connected to the fake gateway"),
        }
    }
}

impl std::error::Error for FakeError {}

/// An interaction the fake delivered to the bot.
#[derive(Clone, Debug)]
pub struct Dispatched {
    pub id: u64,
    pub token: String,
    /// The INTERACTION_CREATE `d` as sent.
    pub payload: Value,
}

impl Dispatched {
    /// Whether a request answers, edits or follows up this interaction.
    pub fn owns(&self, request: &RecordedRequest) -> bool {
        request.is_for_interaction(self.id, &self.token)
    }
}

/// State shared by the servers and the test.
pub(crate) struct Shared {
    world: Mutex<World>,
    changes: watch::Sender<u64>,
    rest_url: String,
    gateway_url: String,
    /// The TLS tunnel's proxy URL (see `rest::serve_tunnel`).
    tunnel_url: String,
    heartbeat_interval_ms: u64,
}

impl Shared {
    fn with_world<R>(&self, f: impl FnOnce(&mut World) -> R) -> R {
        let mut world = self.world.lock().unwrap_or_else(PoisonError::into_inner);
        f(&mut world)
    }

    /// Wakes every waiter: something was recorded.
    fn notify(&self) {
        self.changes.send_modify(|n| *n += 1);
    }
}

/// A running fake Discord. Dropping it stops both servers.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
        // Every test that used the fake fails here if its REST traffic left Discord's OpenAPI
        // description, whether or not it asked (unless it is failing already).
        let violations = self.take_spec_violations();
        if !violations.is_empty() && !std::thread::panicking() {
            panic!("{}", spec_failure(&violations));
        }
    }
}

/// The failure message for spec violations: one line each.
fn spec_failure(violations: &[SpecViolation]) -> String {
    let lines: Vec<String> = violations.iter().map(|v| format!("  {v}")).collect();
    format!(
        "the REST traffic left Discord's OpenAPI description \
         (tests/data/discord-api-spec; docs/testing.md):\n{}",
        lines.join("\n")
    )
}

/// How long Discord waits between heartbeats it asks for (its usual figure).
pub const HEARTBEAT_INTERVAL_MS: u64 = 41_250;

impl FakeDiscord {
    /// Starts REST and gateway servers on random loopback ports.
    pub async fn start() -> FakeDiscord {
        FakeDiscord::start_with_heartbeat(HEARTBEAT_INTERVAL_MS).await
    }

    /// Starts with a custom heartbeat interval in HELLO.
    pub async fn start_with_heartbeat(heartbeat_interval_ms: u64) -> FakeDiscord {
        let rest = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the fake REST port");
        let gateway = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the fake gateway port");
        let tunnel = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the fake TLS tunnel port");
        let tunnel_url = format!("http://{}", tunnel.local_addr().expect("tunnel address"));
        let rest_url = format!("http://{}", rest.local_addr().expect("REST address"));
        let gateway_url = format!("ws://{}", gateway.local_addr().expect("gateway address"));
        // Loaded once per process; here rather than in the first request, whose answer a test
        // may be timing.
        spec::spec();
        let (changes, _) = watch::channel(0);
        let shared = Arc::new(Shared {
            world: Mutex::new(World::new(gateway_url.clone())),
            changes,
            rest_url,
            gateway_url,
            tunnel_url,
            heartbeat_interval_ms,
        });
        let tasks = vec![
            tokio::spawn(rest::serve_rest(rest, shared.clone())),
            tokio::spawn(gateway::serve(gateway, shared.clone())),
            tokio::spawn(rest::serve_tunnel(
                tunnel,
                shared.clone(),
                rest::tunnel_tls(),
            )),
        ];
        FakeDiscord { shared, tasks }
    }

    /// The bot token the fake accepts.
    pub fn token(&self) -> &'static str {
        TOKEN
    }

    /// The REST base, e.g. `http://127.0.0.1:40123`, for `HttpBuilder::proxy`.
    pub fn rest_url(&self) -> &str {
        &self.shared.rest_url
    }

    /// The gateway, e.g. `ws://127.0.0.1:40124`, which `GET /gateway` also returns.
    pub fn gateway_url(&self) -> &str {
        &self.shared.gateway_url
    }

    /// A serenity `Http` with its own rate limiter on, as the bot runs without a proxy: it
    /// calls https://discord.com, which its client reaches through the fake's TLS tunnel,
    /// trusting only the tunnel's test certificate.
    pub fn http_with_rate_limiter(&self) -> serenity::http::Http {
        let root = reqwest::Certificate::from_der(rest::TUNNEL_CERT).expect("the test certificate");
        let proxy = reqwest::Proxy::https(&self.shared.tunnel_url).expect("the tunnel's URL");
        let client = reqwest::Client::builder()
            .use_rustls_tls()
            .tls_built_in_root_certs(false)
            .add_root_certificate(root)
            .proxy(proxy)
            .build()
            .expect("a client for the tunnel");
        serenity::http::HttpBuilder::new(TOKEN)
            .client(client)
            .build()
    }

    /// How long after dispatch an interaction may still be answered (default 3 s, as Discord).
    pub fn set_response_deadline(&self, deadline: Duration) {
        self.shared
            .with_world(|world| world.response_deadline = deadline);
    }

    /// Every REST request so far, in order of arrival.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.with_world(|world| world.requests.clone())
    }

    /// How many REST requests have been recorded; pass to [`Self::wait_for_since`].
    pub fn mark(&self) -> usize {
        self.shared.with_world(|world| world.requests.len())
    }

    /// Requests to routes the fake does not implement (answered 404/405).
    pub fn unexpected_requests(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| !r.known_route)
            .collect()
    }

    /// Requests the fake answered with an error status.
    pub fn failed_requests(&self) -> Vec<RecordedRequest> {
        self.requests()
            .into_iter()
            .filter(|r| r.status >= 400)
            .collect()
    }

    /// Where the REST traffic so far left Discord's OpenAPI description: a request the spec
    /// refuses that the fake accepted, a route the spec does not have, an answer of the fake
    /// that is not the operation's response. Dropping the fake fails the test on any.
    pub fn spec_violations(&self) -> Vec<SpecViolation> {
        self.shared
            .with_world(|world| world.spec_violations.clone())
    }

    /// Takes the spec violations recorded so far, for a test that breaks the spec on purpose.
    pub fn take_spec_violations(&self) -> Vec<SpecViolation> {
        self.shared
            .with_world(|world| std::mem::take(&mut world.spec_violations))
    }

    /// Panics with every spec violation so far, one a line.
    pub fn assert_spec_kept(&self) {
        let violations = self.spec_violations();
        assert!(violations.is_empty(), "{}", spec_failure(&violations));
    }

    /// Every gateway frame so far, both ways.
    pub fn gateway_frames(&self) -> Vec<GatewayFrame> {
        self.shared.with_world(|world| world.gateway_log.clone())
    }

    /// Every frame the fake sent that serenity would drop or misread (see `decoding`); tests
    /// should assert this is empty, since serenity itself says nothing.
    pub fn frames_serenity_cannot_read(&self) -> Vec<String> {
        decoding::unreadable(&self.gateway_frames())
    }

    /// The `d` of the last IDENTIFY received.
    pub fn identify(&self) -> Option<Value> {
        self.gateway_frames()
            .into_iter()
            .rev()
            .find(|f| f.direction == Direction::Received && f.payload["op"] == 2)
            .map(|f| f.payload["d"].clone())
    }

    /// The commands registered in a scope (`None` global, `Some(GUILD_ID)`), as Discord stores them.
    pub fn commands(&self, guild: Option<u64>) -> Vec<Value> {
        self.shared.with_world(|world| world.commands(guild))
    }

    /// A message as stored (after every edit), ephemeral ones included.
    pub fn message(&self, id: u64) -> Option<Value> {
        self.shared.with_world(|world| world.message(id))
    }

    /// The messages of a channel, oldest first.
    pub fn channel_messages(&self, channel: u64) -> Vec<Value> {
        self.shared
            .with_world(|world| world.channel_messages(channel))
    }

    /// The message an interaction's `@original` refers to, as stored (after every edit).
    pub fn original_response(&self, interaction: &Dispatched) -> Option<Value> {
        self.shared
            .with_world(|world| world.original_message(interaction.id))
    }

    /// A channel the bot can see (guild channel, thread, DM).
    pub fn channel(&self, id: u64) -> Option<Value> {
        self.shared.with_world(|world| world.channel(id))
    }
}

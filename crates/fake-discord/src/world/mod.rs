//! The Discord state the fake keeps (commands, interactions, messages, channels, gateway
//! sessions) and the REST API over it, answering as Discord's API v10 does.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde_json::Value;
use tokio::sync::mpsc;

use super::fixture;
use super::record::{snowflake, RecordedFile, RecordedRequest};

mod answer;
mod callbacks;
mod channels;
mod faults;
mod lifecycle;
mod members;
mod messages;
mod permissions;
mod routes;
mod validation;

use answer::at;
pub use answer::Answer;
pub use faults::{failure_body, take_fault, Failure, Fault, RateLimits};
pub use messages::message_buttons;
pub use permissions::{is_thread, Overwrite};
use validation::command_path;

/// Milliseconds from the Unix epoch to Discord's epoch (2015-01-01), the base of snowflakes.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// Gateway intent bits the fake honours.
pub mod intent {
    pub const GUILDS: u64 = 1 << 0;
    /// Privileged: refused with close code 4014 unless enabled for the application.
    pub const GUILD_MEMBERS: u64 = 1 << 1;
    pub const GUILD_MODERATION: u64 = 1 << 2;
    pub const GUILD_PRESENCES: u64 = 1 << 8;
    pub const GUILD_MESSAGES: u64 = 1 << 9;
    pub const DIRECT_MESSAGES: u64 = 1 << 12;
}

/// Message flags the fake sets or reads.
mod flag {
    pub const HAS_THREAD: u64 = 1 << 5;
    pub const EPHEMERAL: u64 = 1 << 6;
    pub const LOADING: u64 = 1 << 7;
    pub const IS_COMPONENTS_V2: u64 = 1 << 15;
}

/// A request, parsed, as the router sees it.
pub struct Incoming<'a> {
    pub method: &'a str,
    pub segments: Vec<&'a str>,
    pub query: &'a [(String, String)],
    pub authorization: Option<&'a str>,
    pub body: Option<&'a Value>,
    pub files: &'a [RecordedFile],
}

/// A connected, identified gateway session.
pub struct Session {
    /// Counts sessions from 1 in order of IDENTIFY.
    pub number: usize,
    /// `[shard_id, shard_count]` from IDENTIFY.
    pub shard: [u64; 2],
    pub intents: u64,
    /// Dispatches to send: `(event name, data)`; the session task numbers them.
    pub events: mpsc::UnboundedSender<(String, Value)>,
}

/// A session whose connection dropped, kept so the bot can resume it (docs/topics/gateway.md,
/// "Resuming"): the events meant for it meanwhile are replayed after its last sequence number.
#[derive(Debug)]
pub struct Resumable {
    pub session_id: String,
    pub shard: [u64; 2],
    pub intents: u64,
    /// The last sequence number sent to it.
    pub seq: u64,
    /// Dispatches it missed, in order.
    pub missed: Vec<(String, Value)>,
}

/// Which way a gateway frame went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// From the fake to the bot.
    Sent,
    /// From the bot to the fake.
    Received,
}

/// One gateway frame, as JSON.
#[derive(Clone, Debug)]
pub struct GatewayFrame {
    /// The connection it went over, counted from 1.
    pub connection: usize,
    pub direction: Direction,
    pub payload: Value,
}

/// What the fake knows about an interaction it dispatched.
#[derive(Clone, Debug)]
struct Interaction {
    token: String,
    /// 2 command, 3 component, 4 autocomplete, 5 modal submit.
    kind: u64,
    channel_id: u64,
    guild_id: Option<u64>,
    user: Value,
    /// The full command name (`thud ping`) for commands.
    command_name: String,
    /// On the fake's clock.
    dispatched_at: DateTime<Utc>,
    /// The callback type once acknowledged.
    acknowledged: Option<u64>,
    /// The message `@original` refers to.
    original: Option<u64>,
    /// The message whose component was clicked.
    source_message: Option<u64>,
    /// Every message this interaction's token may edit.
    messages: Vec<u64>,
}

/// Everything the fake Discord knows.
pub struct World {
    pub requests: Vec<RecordedRequest>,
    /// Where the REST traffic left Discord's OpenAPI description (see `spec`).
    pub spec_violations: Vec<super::spec::Violation>,
    pub gateway_log: Vec<GatewayFrame>,
    pub sessions: Vec<Session>,
    /// Sessions that dropped and may be resumed.
    pub resumable: Vec<Resumable>,
    /// Set when events were lost: no session open now can be resumed; the next IDENTIFY clears
    /// it.
    pub sessions_invalidated: bool,
    /// While true, new gateway connections wait before their HELLO (see
    /// `FakeDiscord::hold_gateway`).
    pub gateway_held: bool,
    pub gateway_url: String,
    /// How long after dispatch an interaction may still be answered (Discord: 3 s).
    pub response_deadline: Duration,
    /// How long an interaction token works for followups and edits (Discord: 15 minutes).
    pub token_lifetime: Duration,
    /// While true, gateway events are dropped (see `FakeDiscord::lose_events`).
    pub events_lost: bool,
    /// The largest file a message may carry in the test guild (Discord's default: 10 MiB).
    pub upload_limit: u64,
    /// Active (unarchived) threads the guild may hold at once; one more is refused with
    /// 160006 (Discord's limit is 1,000; tests lower it).
    pub active_thread_limit: usize,
    /// Failures to inject, in the order they were asked for.
    pub faults: Vec<Fault>,
    /// The rate-limit windows the headers of normal answers describe.
    pub rate_limits: RateLimits,
    /// The fake's clock runs with real time, shifted by this much (see `advance`).
    clock_offset: chrono::Duration,
    /// Each role's permission bits (roles are the fixture's; their permissions can change).
    role_permissions: BTreeMap<u64, u64>,
    /// False once the bot was removed from the test guild.
    bot_in_guild: bool,
    /// The application's owner enabled User Install in the developer portal: users may add the
    /// app to their account and use its commands where the bot is not a member.
    pub user_install: bool,
    /// Commands a server showed to everyone under Integrations, whatever their
    /// `default_member_permissions`.
    pub commands_shown_to_everyone: std::collections::HashSet<String>,
    /// Channels and threads that were deleted.
    deleted_channels: HashSet<u64>,
    /// Users who do not accept DMs from the bot.
    closed_dms: HashSet<u64>,
    /// Members who left the guild, were kicked or banned.
    departed: HashSet<u64>,
    /// Roles given to members since the fixture's.
    given_roles: HashMap<u64, Vec<u64>>,
    /// The application's owner enabled the privileged GUILD_MEMBERS intent in the developer
    /// portal; without it an IDENTIFY asking for it is closed with 4014.
    pub members_intent_enabled: bool,
    /// When each thread last had activity (creation, a message, unarchiving, a new archive time).
    thread_activity: HashMap<u64, DateTime<Utc>>,
    /// Messages created with `enforce_nonce`: `(author, nonce)` to `(message, when)`.
    nonces: HashMap<(u64, String), (u64, DateTime<Utc>)>,
    commands: BTreeMap<Option<u64>, Vec<Value>>,
    interactions: HashMap<u64, Interaction>,
    messages: BTreeMap<u64, Value>,
    ephemeral: HashSet<u64>,
    channels: BTreeMap<u64, Value>,
    dm_by_user: HashMap<u64, u64>,
    last_id: u64,
}

/// A time as Discord writes timestamps.
pub fn timestamp(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%dT%H:%M:%S%.6f+00:00").to_string()
}

fn parse_id(text: &str) -> Option<u64> {
    text.parse().ok().filter(|id| *id > 0)
}

fn str_len(value: Option<&Value>) -> usize {
    value
        .and_then(Value::as_str)
        .map_or(0, |s| s.chars().count())
}

impl World {
    /// The world of a freshly started fake.
    pub fn new(gateway_url: String) -> Self {
        let channels = fixture::guild_channels_json()
            .into_iter()
            .filter_map(|c| Some((snowflake(c.get("id")?)?, c)))
            .collect();
        World {
            requests: Vec::new(),
            spec_violations: Vec::new(),
            gateway_log: Vec::new(),
            sessions: Vec::new(),
            resumable: Vec::new(),
            sessions_invalidated: false,
            gateway_held: false,
            gateway_url,
            response_deadline: Duration::from_secs(3),
            token_lifetime: Duration::from_secs(15 * 60),
            events_lost: false,
            upload_limit: super::interactions::ATTACHMENT_SIZE_LIMIT,
            active_thread_limit: 1000,
            faults: Vec::new(),
            rate_limits: RateLimits::default(),
            clock_offset: chrono::Duration::zero(),
            role_permissions: fixture::roles_json()
                .iter()
                .filter_map(|r| {
                    let id = snowflake(&r["id"])?;
                    let bits = r["permissions"].as_str()?.parse().ok()?;
                    Some((id, bits))
                })
                .collect(),
            bot_in_guild: true,
            user_install: false,
            commands_shown_to_everyone: Default::default(),
            deleted_channels: HashSet::new(),
            closed_dms: HashSet::new(),
            departed: HashSet::new(),
            given_roles: HashMap::new(),
            members_intent_enabled: false,
            thread_activity: HashMap::new(),
            nonces: HashMap::new(),
            commands: BTreeMap::new(),
            interactions: HashMap::new(),
            messages: BTreeMap::new(),
            ephemeral: HashSet::new(),
            channels,
            dm_by_user: HashMap::new(),
            last_id: 0,
        }
    }

    /// Now on the fake's clock: real time plus whatever the test added.
    pub fn now(&self) -> DateTime<Utc> {
        Utc::now() + self.clock_offset
    }

    /// How long ago `then` was on the fake's clock (zero for a future time).
    pub fn since(&self, then: DateTime<Utc>) -> Duration {
        (self.now() - then).to_std().unwrap_or_default()
    }

    /// Now, as Discord writes timestamps.
    pub fn now_timestamp(&self) -> String {
        timestamp(self.now())
    }

    /// Moves the clock forward; threads archive as their time comes.
    pub fn advance(&mut self, by: Duration) {
        self.clock_offset += chrono::Duration::from_std(by).unwrap_or(chrono::Duration::MAX);
        self.archive_idle_threads();
    }

    /// Sets the clock; it keeps running from there with real time.
    pub fn set_now(&mut self, now: DateTime<Utc>) {
        self.clock_offset = now - Utc::now();
        self.archive_idle_threads();
    }

    /// A fresh snowflake: the current time in its top bits, always increasing.
    pub fn next_id(&mut self) -> u64 {
        let millis = self.now().timestamp_millis().max(0) as u64;
        let from_clock = millis.saturating_sub(DISCORD_EPOCH_MS) << 22;
        self.last_id = from_clock.max(self.last_id + 1);
        self.last_id
    }

    /// The registered commands of a scope (`None` global, `Some(guild)`).
    pub fn commands(&self, scope: Option<u64>) -> Vec<Value> {
        self.commands.get(&scope).cloned().unwrap_or_default()
    }

    /// The registered command with this top-level name, guild commands first.
    pub fn command_named(&self, guild: Option<u64>, name: &str) -> Option<Value> {
        let scopes = [guild, None];
        scopes
            .iter()
            .filter_map(|scope| self.commands.get(scope))
            .flatten()
            .find(|c| c["name"] == name)
            .cloned()
    }

    /// A stored message as Discord would show it, ephemeral ones included.
    pub fn message(&self, id: u64) -> Option<Value> {
        self.messages.get(&id).cloned()
    }

    /// Every stored message in a channel, oldest first.
    pub fn channel_messages(&self, channel: u64) -> Vec<Value> {
        self.messages
            .values()
            .filter(|m| snowflake(&m["channel_id"]) == Some(channel))
            .cloned()
            .collect()
    }

    /// The message `@original` of an interaction currently refers to.
    pub fn original_message(&self, interaction: u64) -> Option<Value> {
        self.interactions
            .get(&interaction)?
            .original
            .and_then(|id| self.message(id))
    }

    /// A channel the bot can see (guild channel, thread or DM).
    pub fn channel(&self, id: u64) -> Option<Value> {
        self.channels.get(&id).cloned()
    }

    /// Sends a dispatch to the session whose shard holds `guild` (shard 0 for DMs), if that
    /// session asked for `needed_intent` (0: always sent), or keeps it for that session if it
    /// dropped and may resume. Returns whether it went out or was kept.
    pub fn dispatch(
        &mut self,
        guild: Option<u64>,
        needed_intent: u64,
        event: &str,
        data: Value,
    ) -> bool {
        if self.events_lost {
            return false;
        }
        let Some(session) = self.session_for(guild) else {
            // A dropped session keeps what it misses until it resumes.
            let count = |shard: [u64; 2]| shard[1].max(1);
            let waiting = self.resumable.iter_mut().find(|r| {
                r.shard[0] == guild.map_or(0, |g| (g >> 22) % count(r.shard))
                    && (needed_intent == 0 || r.intents & needed_intent != 0)
            });
            return match waiting {
                Some(r) => {
                    r.missed.push((event.to_string(), data));
                    true
                }
                None => false,
            };
        };
        if needed_intent != 0 && session.intents & needed_intent == 0 {
            return false;
        }
        session.events.send((event.to_string(), data)).is_ok()
    }

    /// The session responsible for a guild (or for DMs with `None`).
    pub fn session_for(&self, guild: Option<u64>) -> Option<&Session> {
        self.sessions.iter().find(|s| {
            let count = s.shard[1].max(1);
            let shard = guild.map_or(0, |g| (g >> 22) % count);
            s.shard[0] == shard && !s.events.is_closed()
        })
    }

    /// Remembers an interaction about to be dispatched so its token can be used; `Err` says
    /// what the payload lacks.
    pub fn register_interaction(&mut self, payload: &Value) -> Result<(u64, String), String> {
        let id = payload
            .get("id")
            .and_then(snowflake)
            .ok_or("interaction has no id")?;
        let token = payload
            .get("token")
            .and_then(Value::as_str)
            .ok_or("interaction has no token")?;
        let kind = payload
            .get("type")
            .and_then(Value::as_u64)
            .ok_or("interaction has no type")?;
        let channel_id = payload
            .get("channel_id")
            .and_then(snowflake)
            .ok_or("interaction has no channel_id")?;
        let guild_id = payload.get("guild_id").and_then(snowflake);
        let user = payload
            .get("member")
            .and_then(|m| m.get("user"))
            .or_else(|| payload.get("user"))
            .cloned()
            .ok_or("interaction has neither member.user nor user")?;
        let source_message = payload
            .get("message")
            .and_then(|m| m.get("id"))
            .and_then(snowflake);
        let command_name = command_path(payload.get("data").unwrap_or(&Value::Null));
        self.interactions.insert(
            id,
            Interaction {
                token: token.to_string(),
                kind,
                channel_id,
                guild_id,
                user,
                command_name,
                dispatched_at: self.now(),
                acknowledged: None,
                original: None,
                source_message,
                messages: Vec::new(),
            },
        );
        Ok((id, token.to_string()))
    }
}

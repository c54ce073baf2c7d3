//! The Discord front-end: slash commands, autocomplete and buttons over the service, through
//! serenity and poise. It holds no game logic: every command reads its options, asks the
//! service, and posts the [`Reply`](crate::service::Reply) it gets back.

mod admin;
mod analysis;
mod announcement;
mod answer;
mod autocomplete;
mod buttons;
mod choices;
mod commands;
mod delivery;
mod events;
mod gateway;
mod markup;
mod organisers;
mod permissions;
mod plan;
mod post;
mod relay;
mod repair;
mod rooms;
mod startup;
mod tournament;
mod tournament_director;

pub use startup::StartError;

use answer::{answer, answer_privately};

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tokio::sync::{watch, RwLock};
use tokio::task::JoinHandle;

use crate::config::{Config, Shards};
use crate::service::{Actor, Place, Refusal, Service, ServiceError};
use crate::store::{ChannelId, GuildId, UserId};

/// How the bot behaves on Discord.
#[derive(Clone, Debug)]
pub struct BotOptions {
    /// Register commands in this guild only instead of globally (and remove them from the
    /// other scope).
    pub development_guild: Option<u64>,
    /// Open a thread for each accepted match.
    pub threads: bool,
    /// How often the clock worker looks for due reminders and forfeits.
    pub clock_interval: Duration,
    pub shards: Shards,
    /// Answer "thinking…" first when the service has not answered by then. Discord drops an
    /// interaction not answered within 3 seconds.
    pub defer_after: Duration,
    /// How long to keep trying to reach Discord and register the commands at start-up before
    /// giving up with an error.
    pub startup_patience: Duration,
    /// How often the delivery worker looks at the outbox when nothing wakes it.
    pub delivery_interval: Duration,
    /// Ask for the privileged GUILD_MEMBERS intent, enabled in the developer portal, to hear
    /// at once when a tournament player leaves the server.
    pub members_intent: bool,
    /// Tournament games seated at once; while every game of a batch is seated, the next
    /// follows at once (Discord's rate limits pace the threads), not at the next round.
    pub seat_batch: usize,
}

/// Tournament games seated at once.
pub const SEAT_BATCH: usize = 25;

impl BotOptions {
    pub fn from_config(config: &Config) -> BotOptions {
        BotOptions {
            development_guild: config.development_guild,
            threads: config.threads,
            clock_interval: Duration::from_secs(config.clock_interval_seconds.max(1)),
            shards: config.shards,
            defer_after: DEFER_AFTER,
            startup_patience: Duration::from_secs(config.startup_patience_seconds.max(1)),
            delivery_interval: Duration::from_secs(5),
            members_intent: config.members_intent,
            seat_batch: SEAT_BATCH,
        }
    }
}

/// Well inside Discord's 3 seconds, leaving room for the network.
pub const DEFER_AFTER: Duration = Duration::from_millis(1500);

/// The REST client for Discord: every request bounded by `timeout`, so a request that never
/// answers counts as a failure to try again instead of holding up what waits behind it
/// (serenity's default client has no timeout). TLS as serenity's own default client has it.
pub fn rest_client(timeout: Duration) -> reqwest::Client {
    reqwest::Client::builder()
        .use_rustls_tls()
        .timeout(timeout)
        .build()
        .unwrap_or_else(|e| {
            tracing::error!(error = %e, "could not build the REST client; requests are unbounded");
            reqwest::Client::new()
        })
}

/// A serenity REST client for `token` with requests bounded by `timeout`; through `proxy`
/// (which keeps Discord's rate limits for every process behind it) when given, by way of a
/// [`relay`] that waits out the 429s that still come through for the time Discord gives.
pub fn http(token: &str, proxy: Option<&str>, timeout: Duration) -> serenity::Http {
    let builder = serenity::http::HttpBuilder::new(token).client(rest_client(timeout));
    match proxy {
        Some(proxy) => {
            let proxy = proxy.trim_end_matches('/');
            let base = relay::start(proxy, rest_client(timeout), timeout).unwrap_or_else(|e| {
                tracing::warn!(error = %e, "no relay for the Discord proxy: a 429 is tried again on the delivery backoff");
                proxy.to_string()
            });
            builder.proxy(base).ratelimiter_disabled(true).build()
        }
        None => builder.build(),
    }
}

/// The commands the bot registers: `/thud` for everyone, `/thud-admin` for a server's staff.
fn all_commands() -> Vec<poise::Command<Data, Error>> {
    vec![commands::thud(), admin::admin()]
}

/// The commands as they are registered with Discord (names, descriptions, options, choices,
/// default permissions), as JSON: what players read in Discord's command picker.
pub fn registered_commands() -> serde_json::Value {
    let commands = poise::builtins::create_application_commands(&all_commands());
    serde_json::to_value(commands).unwrap_or_default()
}

/// What every command handler can reach.
pub struct Data {
    service: Arc<Service>,
    options: BotOptions,
    /// Held for reading by every command while it runs; shutdown takes it for writing, so it
    /// waits until the commands in flight have finished.
    in_flight: Arc<RwLock<()>>,
}

pub type Error = Box<dyn std::error::Error + Send + Sync>;
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// A bot connected (or connecting) to Discord.
pub struct RunningBot {
    shard_manager: Arc<serenity::ShardManager>,
    /// `None` once [`RunningBot::stopped`] has seen it end.
    client: Option<JoinHandle<Result<(), serenity::Error>>>,
    workers: Vec<JoinHandle<()>>,
    stop_workers: watch::Sender<bool>,
    in_flight: Arc<RwLock<()>>,
}

/// How long shutdown waits for commands in flight.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

impl RunningBot {
    /// Waits until the client stops by itself (Discord refused the token, say).
    pub async fn stopped(&mut self) -> Result<(), serenity::Error> {
        let Some(client) = &mut self.client else {
            return Ok(());
        };
        let result = client.await;
        self.client = None;
        match result {
            Ok(result) => result,
            Err(join) => Err(serenity::Error::Other(if join.is_panic() {
                "the Discord client panicked"
            } else {
                "the Discord client was cancelled"
            })),
        }
    }

    /// Disconnects from Discord, lets the commands in flight finish, stops the clock.
    pub async fn shutdown(self) -> Result<(), serenity::Error> {
        self.shard_manager.shutdown_all().await;
        if tokio::time::timeout(SHUTDOWN_GRACE, self.in_flight.write())
            .await
            .is_err()
        {
            tracing::warn!("commands still running after {SHUTDOWN_GRACE:?}; stopping anyway");
        }
        let _ = self.stop_workers.send(true);
        for worker in self.workers {
            let _ = worker.await;
        }
        let Some(mut client) = self.client else {
            return Ok(());
        };
        match tokio::time::timeout(SHUTDOWN_GRACE, &mut client).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(serenity::Error::Other("the Discord client panicked")),
            Err(_) => {
                // Shut down before its shards had started (a signal at start-up): stop it here.
                client.abort();
                Err(serenity::Error::Other("the Discord client did not stop"))
            }
        }
    }
}

/// Reaches Discord through `http` (which carries the token), registers the commands, connects
/// to the gateway and starts the clock and delivery workers. Reaching Discord and registering
/// are retried for `options.startup_patience`; after that the error says why it failed.
pub async fn start(
    http: serenity::Http,
    service: Arc<Service>,
    options: BotOptions,
) -> Result<RunningBot, startup::StartError> {
    let commands = all_commands();
    startup::register(&http, &service, &commands, &options).await?;
    let in_flight = Arc::new(RwLock::new(()));
    let data = Data {
        service: service.clone(),
        options: options.clone(),
        in_flight: in_flight.clone(),
    };
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands,
            event_handler: |framework, event| Box::pin(gateway::on_event(framework, event)),
            on_error: |error| Box::pin(on_error(error)),
            ..Default::default()
        })
        .setup(move |_ctx, ready, _framework| {
            Box::pin(async move {
                tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected to Discord");
                Ok(data)
            })
        })
        .build();

    // Interactions arrive whatever the intents; GUILDS keeps the channel cache for threads and
    // brings role changes. GUILD_MODERATION (not privileged) brings bans, which withdraw a
    // player from tournaments; GUILD_MEMBERS (privileged: the operator must enable it in the
    // developer portal, or Discord closes the connection) brings members leaving too.
    let mut intents = serenity::GatewayIntents::GUILDS | serenity::GatewayIntents::GUILD_MODERATION;
    if options.members_intent {
        intents |= serenity::GatewayIntents::GUILD_MEMBERS;
    }
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await
        .map_err(startup::StartError::Client)?;
    let shard_manager = client.shard_manager.clone();
    let (stop_workers, stopped) = watch::channel(false);
    let discord = delivery::Discord {
        http: client.http.clone(),
        cache: client.cache.clone(),
        token: Default::default(),
    };
    let workers = vec![
        tokio::spawn(service.clock_worker(options.clock_interval, stopped.clone())),
        tokio::spawn(service.computer_worker(stopped.clone())),
        tokio::spawn(service.judging_worker(stopped.clone())),
        tokio::spawn(tournament::seat_worker(
            service.clone(),
            client.http.clone(),
            (options.clock_interval, options.seat_batch),
            stopped.clone(),
        )),
        tokio::spawn(service.delivery_worker(
            delivery::Poster {
                service: service.clone(),
                discord,
            },
            options.delivery_interval,
            stopped,
        )),
    ];
    let shards = options.shards;
    let client = tokio::spawn(async move {
        match shards {
            Shards::Auto => client.start_autosharded().await,
            Shards::Range { total, first, last } => {
                // serenity's range runs `start..=end`.
                client.start_shard_range(first..last, total).await
            }
        }
    });
    Ok(RunningBot {
        shard_manager,
        client: Some(client),
        workers,
        stop_workers,
        in_flight,
    })
}

/// The invoking player, named as the server shows them.
async fn actor(ctx: Context<'_>) -> Actor {
    let user = ctx.author();
    let name = match ctx.author_member().await {
        Some(member) => member.display_name().to_string(),
        None => user.display_name().to_string(),
    };
    Actor::with_kind(UserId(user.id.get()), &name, user.bot)
}

/// A user named in an option.
fn actor_of(user: &serenity::User) -> Actor {
    Actor::with_kind(UserId(user.id.get()), user.display_name(), user.bot)
}

/// Where an interaction came from, as Discord describes it with the interaction.
#[derive(Clone, Copy, Debug)]
pub struct Venue {
    pub place: Place,
    /// The bot's permissions there (`app_permissions`), when Discord sent them.
    pub granted: Option<serenity::Permissions>,
    /// The channel is a thread.
    pub in_thread: bool,
}

/// Whether an interaction's channel is a thread.
fn is_thread(channel: Option<&serenity::PartialChannel>) -> bool {
    channel.is_some_and(|c| {
        matches!(
            c.kind,
            serenity::ChannelType::PublicThread
                | serenity::ChannelType::PrivateThread
                | serenity::ChannelType::NewsThread
        )
    })
}

/// The place of a command, with the bot's permissions there.
fn venue(ctx: Context<'_>) -> Result<Venue, ServiceError> {
    let place = place(ctx)?;
    Ok(match ctx {
        poise::Context::Application(app) => Venue {
            place,
            granted: app.interaction.app_permissions,
            in_thread: is_thread(app.interaction.channel.as_ref()),
        },
        poise::Context::Prefix(_) => Venue {
            place,
            granted: None,
            in_thread: false,
        },
    })
}

/// The server and channel (or thread) of the command.
fn place(ctx: Context<'_>) -> Result<Place, ServiceError> {
    let guild = ctx
        .guild_id()
        .ok_or(ServiceError::Refused(Refusal::NotInAServer))?;
    Ok(Place {
        guild: GuildId(guild.get()),
        channel: ChannelId(ctx.channel_id().get()),
    })
}

/// Errors poise catches before a command runs (options it cannot read, say) are answered
/// privately; failures while answering are logged.
async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Setup { error, .. } => {
            tracing::error!(%error, "could not register the commands");
        }
        poise::FrameworkError::Command { error, ctx, .. } => {
            tracing::error!(command = %ctx.command().qualified_name, %error, "could not answer a command");
        }
        poise::FrameworkError::EventHandler { error, event, .. } => {
            tracing::error!(event = event.snake_case_name(), %error, "could not handle an event");
        }
        poise::FrameworkError::ArgumentParse { ctx, input, .. } => {
            let why = Refusal::NotAnOptionValue {
                given: input.map(|given| crate::service::echo(&given)),
            };
            let text = markup::markdown(&why.text());
            let _ = ctx
                .send(poise::CreateReply::default().content(text).ephemeral(true))
                .await;
        }
        other => {
            if let Err(e) = poise::builtins::on_error(other).await {
                tracing::error!(error = %e, "could not report an error");
            }
        }
    }
}

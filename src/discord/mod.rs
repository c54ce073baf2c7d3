//! The Discord front-end: slash commands, autocomplete and buttons over the service, through
//! serenity and poise. It holds no game logic: every command reads its options, asks the
//! service, and posts the [`Reply`](crate::service::Reply) it gets back.

mod autocomplete;
mod buttons;
mod choices;
mod commands;
mod delivery;
mod events;
mod markup;
mod post;
mod startup;
mod tournament;

pub use startup::StartError;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use tokio::sync::{watch, RwLock};
use tokio::task::JoinHandle;

use crate::config::{Config, Shards};
use crate::service::{Actor, Place, Reply, Service, ServiceError};
use crate::store::{ChannelId, GuildId, UserId};

/// How the bot behaves on Discord.
#[derive(Clone, Debug)]
pub struct BotOptions {
    /// Register commands in this guild only (instant) instead of globally (up to an hour).
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
}

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
        }
    }
}

/// Well inside Discord's 3 seconds, leaving room for the network.
pub const DEFER_AFTER: Duration = Duration::from_millis(1500);

/// The `/thud` command as it is registered with Discord (names, descriptions, options,
/// choices), as JSON: what players read in Discord's command picker.
pub fn registered_commands() -> serde_json::Value {
    let commands = poise::builtins::create_application_commands(&[commands::thud()]);
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
    let commands = vec![commands::thud()];
    startup::register(&http, &commands, &options).await?;
    let in_flight = Arc::new(RwLock::new(()));
    let data = Data {
        service: service.clone(),
        options: options.clone(),
        in_flight: in_flight.clone(),
    };
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands,
            event_handler: |framework, event| Box::pin(buttons::on_event(framework, event)),
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

    // Interactions arrive whatever the intents; GUILDS keeps the channel cache for threads.
    let intents = serenity::GatewayIntents::GUILDS;
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await
        .map_err(startup::StartError::Client)?;
    let shard_manager = client.shard_manager.clone();
    let (stop_workers, stopped) = watch::channel(false);
    let workers = vec![
        tokio::spawn(clock_worker(
            service.clone(),
            options.clock_interval,
            stopped.clone(),
        )),
        tokio::spawn(computer_worker(service.clone(), stopped.clone())),
        tokio::spawn(tournament::seat_worker(
            service.clone(),
            client.http.clone(),
            options.clock_interval,
            stopped.clone(),
        )),
        tokio::spawn(delivery::delivery_worker(
            service,
            client.http.clone(),
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

/// Does the clock's work as it falls due, catching up after downtime; what it has to say goes
/// to the outbox, which the delivery worker posts.
async fn clock_worker(service: Arc<Service>, every: Duration, mut stop: watch::Receiver<bool>) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = stop.changed() => return,
        }
        if let Err(e) = service.tick().await {
            tracing::warn!(error = %e, "the clock could not run; trying again");
        }
    }
}

/// Plays the computer's moves: at once when the service says it may be the computer's turn,
/// and every few seconds for turns left by a process that stopped while thinking.
async fn computer_worker(service: Arc<Service>, mut stop: watch::Receiver<bool>) {
    let signal = service.computer_signal();
    loop {
        // Listen before working, so a wake-up that comes while thinking is not missed.
        let woken = signal.notified();
        tokio::pin!(woken);
        woken.as_mut().enable();
        match service.play_computer_turns().await {
            Ok(played) if played > 0 => continue,
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "the computer could not play; trying again"),
        }
        tokio::select! {
            _ = &mut woken => {}
            _ = tokio::time::sleep(Duration::from_secs(3)) => {}
            _ = stop.changed() => return,
        }
    }
}

/// Runs a service call for a slash command and posts its reply: deferred when the service is
/// slow, errors private to the player.
async fn answer(
    ctx: Context<'_>,
    work: impl Future<Output = Result<Reply, ServiceError>> + Send,
) -> Result<(), Error> {
    let _running = ctx.data().in_flight.read().await;
    let (result, deferred) =
        answer_or_defer(ctx.data().options.defer_after, work, ctx.defer()).await?;
    let reply = reply_or_apology(result);
    let sent = async {
        if deferred && reply.private {
            // The "thinking…" message is public; a private answer replaces it.
            if let poise::Context::Application(app) = ctx {
                app.interaction.delete_response(ctx.http()).await?;
            }
        }
        let mut last = None;
        for m in post::messages(&reply) {
            last = Some(ctx.send(m.poise()).await?);
        }
        Ok::<_, serenity::Error>(last)
    }
    .await;
    match sent {
        Err(e) => {
            announce_instead(ctx.data(), place(ctx).ok(), &reply, &e).await;
            Err(e.into())
        }
        Ok(last) => {
            // The board's message is the last one; its id is fetched only when it has one.
            let message = match (&last, reply.board) {
                (Some(handle), Some(_)) => match handle.message().await {
                    Ok(m) => Some(m.id.get()),
                    Err(e) => {
                        tracing::warn!(error = %e, "could not learn the id of a board's message");
                        None
                    }
                },
                _ => None,
            };
            let channel = ChannelId(ctx.channel_id().get());
            board_shown(ctx.data(), channel, &reply, message).await;
            Ok(())
        }
    }
}

/// A reply showing a board was posted in `channel` (as `message`, if its id is known): the
/// direct messages about it can link there and go out.
async fn board_shown(data: &Data, channel: ChannelId, reply: &Reply, message: Option<u64>) {
    let Some(shot) = reply.board.filter(|_| !reply.private) else {
        return;
    };
    if let Err(e) = data.service.board_posted(channel, shot, message).await {
        tracing::warn!(error = %e, %channel, "could not record where a board was posted");
    }
}

/// The answer to a command that saved a change could not be given (the interaction expired,
/// Discord failed): its public part reaches the channel through the outbox instead, so the
/// opponent still sees the move and is pinged.
async fn announce_instead(
    data: &Data,
    place: Option<Place>,
    reply: &Reply,
    error: &serenity::Error,
) {
    let Some(place) = place.filter(|_| reply.saved && !reply.private) else {
        return;
    };
    let match_id = reply.board.map(|b| b.match_id);
    match data.service.announce_later(place, match_id, reply).await {
        Ok(()) => tracing::warn!(%error, channel = %place.channel,
            "could not answer the command; its announcement goes to the channel instead"),
        Err(e) => tracing::error!(%error, queue_error = %e,
            "could not answer the command nor queue its announcement"),
    }
}

/// Runs `work`; if it has not finished after `defer_after` (at once when that is zero), first
/// tells Discord the answer is coming with `defer`. Returns the result and whether it deferred.
async fn answer_or_defer<T>(
    defer_after: Duration,
    work: impl Future<Output = T>,
    defer: impl Future<Output = Result<(), serenity::Error>>,
) -> Result<(T, bool), serenity::Error> {
    let mut work = std::pin::pin!(work);
    if !defer_after.is_zero() {
        if let Ok(result) = tokio::time::timeout(defer_after, &mut work).await {
            return Ok((result, false));
        }
    }
    defer.await?;
    Ok((work.await, true))
}

/// The reply, or the refusal or apology the player sees privately.
fn reply_or_apology(result: Result<Reply, ServiceError>) -> Reply {
    match result {
        Ok(reply) => reply,
        Err(e) => {
            if !e.is_refusal() {
                tracing::error!(error = %e, "a command failed");
            }
            Reply::private(e.player_message())
        }
    }
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

/// The server and channel (or thread) of the command.
fn place(ctx: Context<'_>) -> Result<Place, ServiceError> {
    let guild = ctx
        .guild_id()
        .ok_or(ServiceError::Refused(crate::service::Refusal::NotInAServer))?;
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
            let text = match input {
                Some(input) => format!(
                    "`{}` is not a value this option takes.",
                    crate::service::echo(&input)
                ),
                None => "One of the options could not be read.".to_string(),
            };
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

//! The Discord front-end: slash commands, autocomplete and buttons over the service, through
//! serenity and poise. It holds no game logic: every command reads its options, asks the
//! service, and posts the [`Reply`](crate::service::Reply) it gets back.

mod autocomplete;
mod buttons;
mod commands;
mod post;

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
}

impl BotOptions {
    pub fn from_config(config: &Config) -> BotOptions {
        BotOptions {
            development_guild: config.development_guild,
            threads: config.threads,
            clock_interval: Duration::from_secs(config.clock_interval_seconds.max(1)),
            shards: config.shards,
            defer_after: DEFER_AFTER,
        }
    }
}

/// Well inside Discord's 3 seconds, leaving room for the network.
pub const DEFER_AFTER: Duration = Duration::from_millis(1500);

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
    client: JoinHandle<Result<(), serenity::Error>>,
    clock: JoinHandle<()>,
    stop_clock: watch::Sender<bool>,
    in_flight: Arc<RwLock<()>>,
}

/// How long shutdown waits for commands in flight.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(30);

impl RunningBot {
    /// Waits until the client stops by itself (Discord refused the token, say).
    pub async fn stopped(&mut self) -> Result<(), serenity::Error> {
        match (&mut self.client).await {
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
        let _ = self.stop_clock.send(true);
        let _ = self.clock.await;
        match tokio::time::timeout(SHUTDOWN_GRACE, self.client).await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(serenity::Error::Other("the Discord client panicked")),
            Err(_) => Err(serenity::Error::Other("the Discord client did not stop")),
        }
    }
}

/// Connects to Discord through `http` (which carries the token) and starts the clock worker.
pub async fn start(
    http: serenity::Http,
    service: Arc<Service>,
    options: BotOptions,
) -> Result<RunningBot, serenity::Error> {
    let in_flight = Arc::new(RwLock::new(()));
    let data = Data {
        service: service.clone(),
        options: options.clone(),
        in_flight: in_flight.clone(),
    };
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![commands::thud()],
            event_handler: |framework, event| Box::pin(buttons::on_event(framework, event)),
            on_error: |error| Box::pin(on_error(error)),
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                match data.options.development_guild {
                    Some(guild) => {
                        let guild = serenity::GuildId::new(guild.max(1));
                        poise::builtins::register_in_guild(ctx, commands, guild).await?;
                        tracing::info!(%guild, "commands registered in the development guild");
                    }
                    None => {
                        poise::builtins::register_globally(ctx, commands).await?;
                        tracing::info!("commands registered globally (Discord may take up to an hour to show them)");
                    }
                }
                tracing::info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected to Discord");
                Ok(data)
            })
        })
        .build();

    // Interactions arrive whatever the intents; GUILDS keeps the channel cache for threads.
    let intents = serenity::GatewayIntents::GUILDS;
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework)
        .await?;
    let shard_manager = client.shard_manager.clone();
    let (stop_clock, stopped) = watch::channel(false);
    let clock = tokio::spawn(clock_worker(
        service,
        client.http.clone(),
        options.clock_interval,
        stopped,
    ));
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
        client,
        clock,
        stop_clock,
        in_flight,
    })
}

/// Posts reminders, expiries and forfeits as they fall due, catching up after downtime.
async fn clock_worker(
    service: Arc<Service>,
    http: Arc<serenity::Http>,
    every: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let mut interval = tokio::time::interval(every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = interval.tick() => {}
            _ = stop.changed() => return,
        }
        match service.tick().await {
            Ok(notices) => {
                for n in notices {
                    if let Err(e) = post::notice(&http, &n).await {
                        // The notice is spent either way: a reminder is sent at most once.
                        tracing::warn!(channel = %n.channel, error = %e, "could not post a clock notice");
                    }
                }
            }
            Err(e) => tracing::warn!(error = %e, "the clock could not run; trying again"),
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
    let mut work = std::pin::pin!(work);
    let mut deferred = false;
    let result = match tokio::time::timeout(ctx.data().options.defer_after, &mut work).await {
        Ok(result) => result,
        Err(_) => {
            ctx.defer().await?;
            deferred = true;
            work.await
        }
    };
    let reply = reply_or_apology(result);
    if deferred && reply.private {
        // The "thinking…" message is public; a private answer replaces it.
        if let poise::Context::Application(app) = ctx {
            app.interaction.delete_response(ctx.http()).await?;
        }
    }
    for m in post::messages(&reply) {
        ctx.send(m.poise()).await?;
    }
    Ok(())
}

/// The reply, or the refusal or apology the player sees privately.
fn reply_or_apology(result: Result<Reply, ServiceError>) -> Reply {
    match result {
        Ok(reply) => reply,
        Err(e) => {
            if let ServiceError::System(detail) = &e {
                tracing::error!(%detail, "a command failed");
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
    Actor {
        id: UserId(user.id.get()),
        name,
        is_bot: user.bot,
    }
}

/// A user named in an option.
fn actor_of(user: &serenity::User) -> Actor {
    Actor {
        id: UserId(user.id.get()),
        name: user.display_name().to_string(),
        is_bot: user.bot,
    }
}

/// The server and channel (or thread) of the command.
fn place(ctx: Context<'_>) -> Result<Place, ServiceError> {
    let guild = ctx.guild_id().ok_or_else(|| {
        ServiceError::Refused("Thud is played in server channels; use /thud in a server.".into())
    })?;
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
                Some(input) => format!("`{input}` is not a value this option takes."),
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

//! Starting up: reaching Discord and registering `/thud`, retried with growing pauses (as the
//! database connection is) until the operator's patience runs out. A bot whose commands are not
//! registered would be online and silent, so failing here stops the process with the reason.

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::{BotOptions, Data, Error};
use crate::service::Service;

/// Why the bot could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("Discord refused the bot token (401 Unauthorized): reset the token in the developer portal and set DISCORD_TOKEN again")]
    Token,
    #[error("could not reach Discord within {patience:?}: {last}")]
    Unreachable { patience: Duration, last: String },
    #[error("could not register the /thud commands within {patience:?}: {last}")]
    Registration { patience: Duration, last: String },
    #[error("could not start the Discord client: {0}")]
    Client(serenity::Error),
}

/// The first pause between tries; it doubles up to [`MAX_PAUSE`].
const FIRST_PAUSE: Duration = Duration::from_millis(500);
const MAX_PAUSE: Duration = Duration::from_secs(30);

/// The key under which the service notes the guild the commands were last registered in.
const COMMANDS_GUILD: &str = "commands-guild";

/// Learns the application's id and registers the commands, in the development guild or
/// globally, then removes them from the other scope, so `/thud` never shows twice: registering
/// in the development guild empties the global list, and registering globally empties the
/// guild the commands were last registered in (noted by the service).
pub(super) async fn register(
    http: &serenity::Http,
    service: &Service,
    commands: &[poise::Command<Data, Error>],
    options: &BotOptions,
) -> Result<(), StartError> {
    let patience = options.startup_patience;
    let application = retry("reach Discord", patience, || {
        http.get_current_application_info()
    })
    .await
    .map_err(|last| match last {
        Failure::Token => StartError::Token,
        Failure::GaveUp(last) => StartError::Unreachable { patience, last },
    })?;
    http.set_application_id(application.id);
    let builders = poise::builtins::create_application_commands(commands);
    let earlier = match service.noted(COMMANDS_GUILD).await {
        Ok(guild) => guild.and_then(|g| g.parse::<u64>().ok()),
        Err(e) => {
            tracing::warn!(error = %e, "could not read where the commands were registered before");
            None
        }
    };
    let registered = match options.development_guild {
        Some(guild) => {
            let guild = serenity::GuildId::new(guild.max(1));
            let done = retry("register the commands", patience, || {
                guild.set_commands(http, builders.clone())
            })
            .await;
            if done.is_ok() {
                tracing::info!(%guild, "commands registered in the development guild");
                remember(service, Some(guild.get())).await;
                let no_commands = Vec::new();
                if let Err(e) = serenity::Command::set_global_commands(http, no_commands).await {
                    tracing::warn!(error = %e, "could not remove the global commands");
                }
                if let Some(before) = earlier.filter(|g| *g != guild.get()) {
                    forget_guild_commands(http, before).await;
                }
            }
            done.map(|_| ())
        }
        None => {
            let done = retry("register the commands", patience, || {
                serenity::Command::set_global_commands(http, builders.clone())
            })
            .await;
            if done.is_ok() {
                tracing::info!("commands registered globally");
                if let Some(before) = earlier {
                    forget_guild_commands(http, before).await;
                    remember(service, None).await;
                }
            }
            done.map(|_| ())
        }
    };
    registered.map_err(|last| match last {
        Failure::Token => StartError::Token,
        Failure::GaveUp(last) => StartError::Registration { patience, last },
    })
}

/// Remembers the guild the commands are registered in (`None`: globally).
async fn remember(service: &Service, guild: Option<u64>) {
    let value = guild.map(|g| g.to_string());
    if let Err(e) = service.note(COMMANDS_GUILD, value.as_deref()).await {
        tracing::warn!(error = %e, "could not remember where the commands are registered");
    }
}

/// Removes the commands registered in `guild` by an earlier run (the bot may have left it:
/// then there is nothing to remove).
async fn forget_guild_commands(http: &serenity::Http, guild: u64) {
    let guild = serenity::GuildId::new(guild.max(1));
    match guild.set_commands(http, Vec::new()).await {
        Ok(_) => tracing::info!(%guild, "removed the commands of the earlier development guild"),
        Err(e) => {
            tracing::warn!(%guild, error = %e, "could not remove the commands of the earlier development guild")
        }
    }
}

enum Failure {
    Token,
    GaveUp(String),
}

/// Runs `attempt` until it succeeds, the token is refused, or `patience` has passed.
async fn retry<T, F, Fut>(what: &str, patience: Duration, mut attempt: F) -> Result<T, Failure>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, serenity::Error>>,
{
    let started = tokio::time::Instant::now();
    let mut pause = FIRST_PAUSE;
    let mut tries = 0u32;
    loop {
        tries += 1;
        let error = match attempt().await {
            Ok(done) => return Ok(done),
            Err(e) => e,
        };
        if is_unauthorized(&error) {
            return Err(Failure::Token);
        }
        let waited = started.elapsed();
        if waited + pause > patience {
            return Err(Failure::GaveUp(format!("{error} (after {tries} tries)")));
        }
        tracing::warn!(%error, attempt = tries, retry_in = ?pause, "could not {what}; trying again");
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(MAX_PAUSE);
    }
}

fn is_unauthorized(error: &serenity::Error) -> bool {
    matches!(
        error,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
            if r.status_code.as_u16() == 401
    )
}

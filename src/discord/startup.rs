//! Starting up: reaching Discord and registering `/thud`, retried with growing pauses (as the
//! database connection is) until the operator's patience runs out. A bot whose commands are not
//! registered would be online and silent, so failing here stops the process with the reason.

use std::time::Duration;

use poise::serenity_prelude as serenity;

use super::{BotOptions, Data, Error};

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

/// Learns the application's id and registers the commands, in the development guild or
/// globally.
pub(super) async fn register(
    http: &serenity::Http,
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
    let registered = match options.development_guild {
        Some(guild) => {
            let guild = serenity::GuildId::new(guild.max(1));
            let done = retry("register the commands", patience, || {
                guild.set_commands(http, builders.clone())
            })
            .await;
            if done.is_ok() {
                tracing::info!(%guild, "commands registered in the development guild");
            }
            done.map(|_| ())
        }
        None => {
            let done = retry("register the commands", patience, || {
                serenity::Command::set_global_commands(http, builders.clone())
            })
            .await;
            if done.is_ok() {
                tracing::info!(
                    "commands registered globally (Discord may take up to an hour to show them)"
                );
            }
            done.map(|_| ())
        }
    };
    registered.map_err(|last| match last {
        Failure::Token => StartError::Token,
        Failure::GaveUp(last) => StartError::Registration { patience, last },
    })
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

//! Discord's refusals read in one place, for every write: whether it may succeed later
//! (`classify`: a 429, a 5xx or the network is tried again, a missing access never), and the
//! refusals the bot can undo: a message in a thread that was
//! archived (50083) goes through once the thread is opened again, as a post would have opened
//! it (docs/topics/threads.md: "Sending a message will automatically unarchive the thread";
//! unarchiving an unlocked thread needs no more than sending does). A locked thread stays
//! closed: only a moderator may open it, and its 160005 is the answer. The bot archives its own
//! threads here too (`archive_if_thread`), for every write that closes one.

use std::future::Future;
use std::time::Duration;

use poise::serenity_prelude as serenity;

use crate::service::DeliveryFailure;

/// Discord's JSON error code for a write into an archived thread.
const ARCHIVED_THREAD: isize = 50083;
/// Discord's JSON error code for a message that no longer exists.
const UNKNOWN_MESSAGE: isize = 10008;

/// Discord's JSON error code, if it answered with one.
pub(super) fn code_of(error: &serenity::Error) -> Option<isize> {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => Some(r.error.code),
        _ => None,
    }
}

/// The HTTP status Discord answered with, if it answered.
pub(super) fn status_of(error: &serenity::Error) -> Option<u16> {
    match error {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            Some(r.status_code.as_u16())
        }
        _ => None,
    }
}

/// Whether Discord refused for a missing permission (50013).
pub(super) fn missing_permissions(error: &serenity::Error) -> bool {
    code_of(error) == Some(50013)
}

/// Whether Discord answered that the thread is archived (50083).
pub(super) fn archived_thread(error: &serenity::Error) -> bool {
    code_of(error) == Some(ARCHIVED_THREAD)
}

/// Whether Discord answered 10008 Unknown Message: the message was deleted.
pub(super) fn unknown_message(error: &serenity::Error) -> bool {
    code_of(error) == Some(UNKNOWN_MESSAGE)
}

/// Runs `write` in `channel`; if it finds the channel an archived thread, opens the thread
/// again and runs it once more.
pub(super) async fn in_open_thread<T, F, Fut>(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    mut write: F,
) -> Result<T, serenity::Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, serenity::Error>>,
{
    match write().await {
        Err(e) if archived_thread(&e) => {
            tracing::info!(%channel, "a thread was archived under a write; opening it again");
            channel
                .edit_thread(http, serenity::EditThread::new().archived(false))
                .await?;
            write().await
        }
        done => done,
    }
}

/// Discord's JSON error codes that mean a post into that channel will never succeed.
/// (discord-api-docs, topics/Opcodes_and_Status_Codes: JSON error codes.)
const PERMANENT: [(isize, &str); 7] = [
    (10003, "the channel or thread no longer exists"),
    (10004, "the bot is no longer in that server"),
    (50001, "the bot cannot see the channel (Missing Access)"),
    (
        50013,
        "the bot lacks a permission it needs there (Missing Permissions)",
    ),
    (50007, "the player does not accept direct messages"),
    (160005, "the thread is locked"),
    (50083, "the thread is archived"),
];

/// How long sending waits after Discord refused the bot's token before it tries again.
pub(super) const TOKEN_HOLD: Duration = Duration::from_secs(600);

/// Whether Discord may take the notice later.
pub(super) fn classify(error: &serenity::Error) -> DeliveryFailure {
    let serenity::Error::Http(http) = error else {
        return DeliveryFailure::later(error);
    };
    match http {
        serenity::HttpError::UnsuccessfulRequest(response) => {
            let status = response.status_code.as_u16();
            let code = response.error.code;
            let reason = match PERMANENT.iter().find(|(c, _)| *c == code) {
                Some((_, why)) => format!("{why} (Discord error {code})"),
                None => format!(
                    "Discord answered {status}: {} (error {code})",
                    response.error.message
                ),
            };
            if status == 429 || status >= 500 {
                DeliveryFailure::later(reason)
            } else if status == 401 {
                // The bot's token, not the channel: nothing is Discord's last word on it.
                DeliveryFailure::Transient {
                    reason,
                    retry_after: Some(TOKEN_HOLD),
                }
            } else {
                DeliveryFailure::Permanent { reason }
            }
        }
        _ => DeliveryFailure::later(http),
    }
}

/// Archives `channel` if it is a thread that is still open, so finished matches do not count
/// against the server's active threads.
pub(super) async fn archive_if_thread(
    http: &serenity::Http,
    channel: serenity::ChannelId,
) -> Result<(), serenity::Error> {
    let serenity::Channel::Guild(c) = channel.to_channel(http).await? else {
        return Ok(());
    };
    let open_thread = matches!(
        c.kind,
        serenity::ChannelType::PublicThread | serenity::ChannelType::PrivateThread
    ) && c.thread_metadata.is_some_and(|t| !t.archived);
    if open_thread {
        channel
            .edit_thread(http, serenity::EditThread::new().archived(true))
            .await?;
    }
    Ok(())
}

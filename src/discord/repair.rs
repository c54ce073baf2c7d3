//! Writes that Discord refused for a reason the bot can undo: a message in a thread that was
//! archived (50083) goes through once the thread is opened again, as a post would have opened
//! it (docs/topics/threads.md: "Sending a message will automatically unarchive the thread";
//! unarchiving an unlocked thread needs no more than sending does). A locked thread stays
//! closed: only a moderator may open it, and its 160005 is the answer.

use std::future::Future;

use poise::serenity_prelude as serenity;

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

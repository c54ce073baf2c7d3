//! The rooms matches are played in: a public thread opened for each, when the channel allows.

use std::sync::Arc;

use poise::serenity_prelude as serenity;

use crate::service::Room;
use crate::store::ChannelId;

/// A room for a match: a public thread opened with `http`.
pub fn thread_room(http: Arc<serenity::Http>) -> Room<'static> {
    Box::new(move |channel, name| {
        Box::pin(async move { match_thread(&http, channel, &name).await })
    })
}

/// Opens a thread named `name` for a match in `channel`; `None` when it cannot (a thread
/// inside a thread, the server's thread limit, no permission), and the match is played in the
/// channel.
async fn match_thread(http: &serenity::Http, channel: ChannelId, name: &str) -> Option<ChannelId> {
    let name: String = name.chars().take(100).collect();
    let thread = serenity::CreateThread::new(name)
        .kind(serenity::ChannelType::PublicThread)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    match serenity::ChannelId::new(channel.0.max(1))
        .create_thread(http, thread)
        .await
    {
        Ok(t) => Some(ChannelId(t.id.get())),
        Err(e) => {
            tracing::warn!(%channel, error = %e, "could not open a thread for the match");
            None
        }
    }
}

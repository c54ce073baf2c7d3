//! A room of a match's own: a thread the front-end opens for it. The service asks for it only
//! once it has decided that the match starts (an accepted challenge claimed, so a raced second
//! accept is refused first), and with no transaction open, since opening it is a Discord call:
//! a refusal or a second accept never leaves an empty thread behind. Only a challenge cancelled
//! or declined while its room opens leaves the room unused.

use std::future::Future;
use std::pin::Pin;

use crate::store::ChannelId;

/// Why no room could be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoRoom {
    /// Discord was busy, slow or out of reach (a 429, a 5xx, a time-out): worth trying again,
    /// and nobody's doing.
    Later(String),
    /// The bot may not open one there (it cannot see the channel, or lacks a permission), or
    /// the channel takes no threads.
    Refused(String),
    /// The server holds as many active threads as Discord allows.
    ThreadLimit,
}

/// Opens a room named by the second argument inside the channel of the first, or says why
/// none could be opened; an ordinary match is then played in that channel.
pub type Room<'a> = Box<
    dyn FnOnce(
            ChannelId,
            String,
        ) -> Pin<Box<dyn Future<Output = Result<ChannelId, NoRoom>> + Send + 'a>>
        + Send
        + 'a,
>;

/// Where a match that begins in `channel` is played: a room of its own when `room` opens one.
pub(in crate::service) async fn open_room(
    room: Option<Room<'_>>,
    channel: ChannelId,
    name: String,
) -> ChannelId {
    match room {
        Some(open) => open(channel, name).await.unwrap_or(channel),
        None => channel,
    }
}

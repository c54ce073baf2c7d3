//! A room of a match's own: a thread the front-end opens for it. The service asks for it only
//! once it has decided that the match starts (an accepted challenge claimed, so a raced second
//! accept is refused first), and with no transaction open, since opening it is a Discord call:
//! a refusal or a second accept never leaves an empty thread behind. Only a challenge cancelled
//! or declined while its room opens leaves the room unused.

use std::future::Future;
use std::pin::Pin;

use crate::store::ChannelId;

/// Opens a room named by the second argument inside the channel of the first; `None` when none
/// could be opened, and the match is then played in that channel.
pub type Room<'a> = Box<
    dyn FnOnce(ChannelId, String) -> Pin<Box<dyn Future<Output = Option<ChannelId>> + Send + 'a>>
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

//! `ChannelCommands`: the front-ends' door to matches in channels the bot cannot reach.

use super::*;

/// What becomes of matches in channels the bot can no longer reach, and carrying them on.
// Implemented by `Service` alone and called on it, so whether a future is `Send` is known
// where it is called.
#[allow(async_fn_in_trait)]
pub trait ChannelCommands {
    /// The concern that does the work.
    #[doc(hidden)]
    fn concern(&self) -> &Channels;

    delegate! {
        to self.concern() {
            /// A channel or thread was deleted: its matches' clocks stop until a player resumes them.
            async fn channel_gone(&self, channel: ChannelId) -> Result<usize>;
            /// A match's thread was locked: the bot cannot post in it, so its clock stops.
            async fn thread_locked(&self, channel: ChannelId) -> Result<usize>;
            /// The bot can no longer see a match's channel (its permissions there were taken away).
            async fn channel_hidden(&self, channel: ChannelId) -> Result<usize>;
            /// A moderator archived a match's thread again soon after the bot had reopened it: the
            /// bot leaves it closed, the match's clock stops, and its players are told in `parent`
            /// (the channel the thread belongs to), where either of them can carry it on.
            async fn thread_closed(&self, guild: GuildId, thread: ChannelId, parent: Option<ChannelId>) -> Result<usize>;
            /// The channels of the matches in play on `guild`, to check when the bot (re)connects.
            async fn match_channels_in(&self, guild: GuildId) -> Result<Vec<ChannelId>>;
            /// The bot was removed from a server: its matches' clocks stop.
            async fn guild_gone(&self, guild: GuildId) -> Result<usize>;
            /// A player carries a troubled match on at `place`: the match moves here if it was played
            /// elsewhere, and its clock runs again with the time it stood still added.
            async fn resume(&self, place: Place, actor: &Actor, id: MatchId) -> Result<Reply>;
            /// A player stops a troubled match: it is recorded, unrated, as aborted by them.
            async fn abort_unreachable(&self, actor: &Actor, id: MatchId) -> Result<Reply>;
        }
    }
}

impl ChannelCommands for Service {
    fn concern(&self) -> &Channels {
        &self.channels
    }
}

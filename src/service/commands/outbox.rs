//! `OutboxCommands`: the front-ends' door to the outbox.

use super::*;

/// The outbox as a front-end that posts by itself uses it: what it could not post, and how a
/// delivery went.
// Implemented by `Service` alone and called on it, so whether a future is `Send` is known
// where it is called.
#[allow(async_fn_in_trait)]
pub trait OutboxCommands {
    /// The concern that does the work.
    #[doc(hidden)]
    fn concern(&self) -> &Outbox;

    delegate! {
        to self.concern() {
            /// Queues the public part of `reply` for the channel at `place`, for when it could not be
            /// given as the answer to the command that made it.
            async fn announce_later(&self, place: Place, match_id: Option<MatchId>, reply: &Reply) -> Result<()>;
            /// Claims up to `limit` notices that are due and makes them ready to send. A reminder
            /// whose turn has been played since is dropped here, never sent.
            async fn claim_deliveries(&self, limit: i64) -> Result<Vec<Delivery>>;
            /// The board `shot` was shown in `channel`, as message `message` where the front-end has
            /// ids: direct messages about it link there, and those waiting for it go now.
            async fn board_posted(&self, channel: crate::store::ChannelId, shot: BoardShot, message: Option<u64>) -> Result<()>;
            /// The notice was posted.
            async fn delivered(&self, delivery: &Delivery) -> Result<()>;
            /// The post failed: tried again later, or, when Discord will never take it, marked
            /// undeliverable and its match's clock paused until a player acts.
            async fn delivery_failed(&self, delivery: &Delivery, failure: &DeliveryFailure) -> Result<()>;
            /// The bot is about to archive `thread` itself: remembered, so that the archive is not
            /// taken for a moderator's when a match in it (one that began in a race) reopens it.
            async fn closing_thread(&self, thread: crate::store::ChannelId) -> Result<()>;
        }
    }
}

impl OutboxCommands for Service {
    fn concern(&self) -> &Outbox {
        &self.outbox
    }
}

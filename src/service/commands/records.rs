//! `RecordCommands`: the front-ends' door to records and replays.

use super::*;

/// A match's record and a battle's replay.
// Implemented by `Service` alone and called on it, so whether a future is `Send` is known
// where it is called.
#[allow(async_fn_in_trait)]
pub trait RecordCommands {
    /// The concern that does the work.
    #[doc(hidden)]
    fn concern(&self) -> &Records;

    delegate! {
        to self.concern() {
            /// The game record of a match, attached as a text file the engine can replay.
            async fn record(&self, place: Place, id: Option<MatchId>) -> Result<Reply>;
            /// A battle of a match (the current or last one by default) as an animated GIF of at
            /// most `upload_limit` bytes (Discord's default of 10 MiB when unknown): a battle too long
            /// for it is replayed from as far back as fits, and the message says so.
            async fn replay(&self, place: Place, id: Option<MatchId>, battle: Option<u8>, theme: Option<Theme>, upload_limit: Option<usize>) -> Result<Reply>;
        }
    }
}

impl RecordCommands for Service {
    fn concern(&self) -> &Records {
        &self.records
    }
}

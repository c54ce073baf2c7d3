//! `LadderCommands`: the front-ends' door to the ladders.

use super::*;

/// The leaderboards, a player's figures and history.
// Implemented by `Service` alone and called on it, so whether a future is `Send` is known
// where it is called.
#[allow(async_fn_in_trait)]
pub trait LadderCommands {
    /// The concern that does the work.
    #[doc(hidden)]
    fn concern(&self) -> &Ladder;

    delegate! {
        to self.concern() {
            /// One page (from 1) of a ladder; any other page is refused with how many there are.
            async fn leaderboard(&self, place: Place, scope: LadderScope, page: i64) -> Result<Reply>;
            /// A player's ratings and record; `viewer`'s record against them when it is someone else,
            /// and the player's record against each level of the computer.
            async fn stats(&self, place: Place, viewer: &Actor, player: &Actor) -> Result<Reply>;
            /// A player's recent matches.
            async fn history(&self, place: Place, player: &Actor) -> Result<Reply>;
        }
    }
}

impl LadderCommands for Service {
    fn concern(&self) -> &Ladder {
        &self.ladder
    }
}

//! `PeopleCommands`: the front-ends' door to settings, vacations and the rules.

use super::*;

/// A player's settings and vacations, and the rules.
// Implemented by `Service` alone and called on it, so whether a future is `Send` is known
// where it is called.
#[allow(async_fn_in_trait)]
pub trait PeopleCommands {
    /// The concern that does the work.
    #[doc(hidden)]
    fn concern(&self) -> &People;

    delegate! {
        to self.concern() {
            /// Changes `actor`'s board style, theme and how they hear of their turn; with none of
            /// them, shows the current ones.
            async fn settings(&self, actor: &Actor, style: Option<&str>, theme: Option<&str>, notify: Option<Notify>) -> Result<Reply>;
            /// The rules of a variant (classic by default), for `/thud rules`.
            fn rules(&self, variant: Option<Variant>) -> Result<Reply>;
            /// `actor` goes on vacation for `days` (default: all the allowance left).
            async fn start_vacation(&self, actor: &Actor, days: Option<u32>) -> Result<Reply>;
            /// `actor` comes back early.
            async fn end_vacation(&self, actor: &Actor) -> Result<Reply>;
        }
    }
}

impl PeopleCommands for Service {
    fn concern(&self) -> &People {
        &self.people
    }
}

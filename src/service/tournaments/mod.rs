//! Tournaments: what an organiser and the players do (create, join, leave, start, withdraw,
//! cancel, standings), and what the clock does (start at the set time, pair each round once its
//! matches are decided, decide the matches left at a round's deadline, end with the winner).
//!
//! Each pairing is a normal match, rated as any. A game waits for a channel (the front-end
//! gives [`Tournaments::seat_game`] a room, a thread opened once the game is claimed), since only the front-end can
//! make one. Every change locks the tournament's row first, so two processes ticking together
//! pair a round once; notices go through the outbox in the same transaction.

mod announcement;
mod corrections;
mod deadlines;
mod here;
mod lifecycle;
mod lost;
mod organisers;
mod rounds;
mod seating;
mod standings;

pub use crate::service::refusal::TournamentRefusal;
pub use announcement::Announcement;
pub use lifecycle::{Departure, TournamentOptions};
pub use organisers::OrganiserRoleChange;
pub use rounds::TournamentTick;
pub use seating::{GameToSeat, Seating};

use super::error::{refuse, Result};
use super::refusal::Refusal;

/// The days a round may last, per day a move, unless the organiser says otherwise: a match is
/// two battles of a few dozen moves each, most of them played well inside their time.
pub const DEFAULT_ROUND_FACTOR: u32 = 10;

fn refuse_tournament<T>(why: TournamentRefusal) -> Result<T> {
    refuse(Refusal::Tournament(why))
}

use std::sync::Arc;

use tokio::sync::Notify;

use crate::service::clock::Clock;
use crate::service::flow::Matches;
use crate::store::Store;

/// Tournaments: entries, rounds paired and decided, games seated as matches (through the
/// match flow below), standings, and what their organisers may do.
pub struct Tournaments {
    store: Store,
    clock: Arc<dyn Clock>,
    outbox_signal: Arc<Notify>,
    matches: Arc<Matches>,
}

impl Tournaments {
    pub(crate) fn new(
        store: Store,
        clock: Arc<dyn Clock>,
        outbox_signal: Arc<Notify>,
        matches: Arc<Matches>,
    ) -> Tournaments {
        Tournaments {
            store,
            clock,
            outbox_signal,
            matches,
        }
    }
}

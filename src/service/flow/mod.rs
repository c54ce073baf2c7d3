//! The match flow: challenges and their answers, moves, ends by agreement, resignation and
//! claims, the computer's turns, rematches, vacations, and the rooms (threads) matches are played in.

pub(super) mod agreement;
pub(super) mod board;
pub(super) mod challenges;
pub(super) mod computer;
pub(super) mod deadlines;
pub(super) mod forfeits;
pub(super) mod plans;
pub(super) mod play;
pub(super) mod progress;
pub(super) mod rematch;
pub(super) mod room;
pub(super) mod suggestions;
pub(super) mod told;
pub(super) mod tournament_game;
pub(super) mod trouble;
pub(super) mod vacation;

use std::sync::Arc;

use tokio::sync::Notify;

use crate::render::Renderer;
use crate::service::clock::Clock;
use crate::service::people::Ladder;
use crate::service::thinking::Thinking;
use crate::service::ServiceConfig;
use crate::store::Store;

/// A match from challenge to result: every change to a match runs in one transaction that
/// locks it first, says what happened as events, and queues what is told unasked. It rates
/// finished matches through the ladder and leaves tournaments to the concern above it.
pub struct Matches {
    store: Store,
    clock: Arc<dyn Clock>,
    renderer: Arc<Renderer>,
    config: ServiceConfig,
    outbox_signal: Arc<Notify>,
    computer_signal: Arc<Notify>,
    thinking: Thinking,
    ladder: Arc<Ladder>,
}

/// What the match flow is built with, besides the ladder.
pub(crate) struct Parts {
    pub store: Store,
    pub clock: Arc<dyn Clock>,
    pub renderer: Arc<Renderer>,
    pub config: ServiceConfig,
    pub outbox_signal: Arc<Notify>,
    pub computer_signal: Arc<Notify>,
    pub thinking: Thinking,
}

impl Matches {
    pub(crate) fn new(parts: Parts, ladder: Arc<Ladder>) -> Matches {
        Matches {
            store: parts.store,
            clock: parts.clock,
            renderer: parts.renderer,
            config: parts.config,
            outbox_signal: parts.outbox_signal,
            computer_signal: parts.computer_signal,
            thinking: parts.thinking,
            ladder,
        }
    }

    /// Wakes the computer's worker: it may be its move.
    fn wake_computer(&self) {
        self.computer_signal.notify_waiters();
    }
}

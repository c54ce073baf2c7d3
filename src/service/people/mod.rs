//! People and ladders: ratings and leaderboards, vacations, and each player's settings.

pub(super) mod ladder;
pub(super) mod settings;
pub(super) mod vacation;

use std::sync::Arc;

use tokio::sync::Notify;

use crate::service::clock::Clock;
use crate::service::ServiceConfig;
use crate::store::Store;

/// Ratings and what is read from them: the leaderboards, a player's figures and history.
pub struct Ladder {
    store: Store,
    clock: Arc<dyn Clock>,
    config: ServiceConfig,
}

impl Ladder {
    pub(crate) fn new(store: Store, clock: Arc<dyn Clock>, config: ServiceConfig) -> Ladder {
        Ladder {
            store,
            clock,
            config,
        }
    }
}

/// A player's own settings and time away.
pub struct People {
    store: Store,
    clock: Arc<dyn Clock>,
    config: ServiceConfig,
    outbox_signal: Arc<Notify>,
}

impl People {
    pub(crate) fn new(
        store: Store,
        clock: Arc<dyn Clock>,
        config: ServiceConfig,
        outbox_signal: Arc<Notify>,
    ) -> People {
        People {
            store,
            clock,
            config,
            outbox_signal,
        }
    }
}

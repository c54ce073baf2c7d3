//! People and ladders: ratings and leaderboards, and each player's settings.

pub(super) mod ladder;
pub(super) mod settings;

use std::sync::Arc;

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

/// A player's own settings.
pub struct People {
    store: Store,
    clock: Arc<dyn Clock>,
}

impl People {
    pub(crate) fn new(store: Store, clock: Arc<dyn Clock>) -> People {
        People { store, clock }
    }
}

//! Records of matches: game records and replays, and the analysis of finished matches.

pub(super) mod analysis;
pub(super) mod replays;

use std::sync::Arc;

use crate::render::Renderer;
use crate::store::Store;

/// A finished or running match as a record and a replay.
pub struct Records {
    store: Store,
    renderer: Arc<Renderer>,
}

impl Records {
    pub(crate) fn new(store: Store, renderer: Arc<Renderer>) -> Records {
        Records { store, renderer }
    }
}

//! The notices: the outbox (each notice queued in the transaction of the change it reports,
//! then claimed, worded and settled), who is told of a turn, and closing the threads the bot
//! opened. The bottom of the service: it names no concern above it. Its worker, which hands
//! notices to a front-end and settles what Discord refused, is `watch/courier.rs`.

pub(super) mod delivery;
pub(super) mod failure;
pub(super) mod notify;
pub(super) mod queue;
pub(super) mod threads;
pub(super) mod worded;

use std::sync::Arc;

use tokio::sync::Notify;

use crate::render::Renderer;
use crate::service::clock::Clock;
use crate::store::Store;

/// The outbox: notices are queued (by the free functions of `delivery`, in the transaction
/// of the change they report), claimed and prepared for a front-end's deliverer (worded then,
/// boards drawn then), and settled by what the deliverer reports.
pub struct Outbox {
    store: Store,
    clock: Arc<dyn Clock>,
    renderer: Arc<Renderer>,
    outbox_signal: Arc<Notify>,
}

impl Outbox {
    pub(crate) fn new(
        store: Store,
        clock: Arc<dyn Clock>,
        renderer: Arc<Renderer>,
        outbox_signal: Arc<Notify>,
    ) -> Outbox {
        Outbox {
            store,
            clock,
            renderer,
            outbox_signal,
        }
    }

    /// What wakes the delivery worker: notices queued.
    pub(in crate::service) fn signal(&self) -> Arc<Notify> {
        self.outbox_signal.clone()
    }
}

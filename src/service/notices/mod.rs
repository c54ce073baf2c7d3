//! The clock and the notices: the time source, the clock worker (reminders, expiries,
//! forfeits), the outbox and its delivery, who is told of a turn, channels the bot cannot
//! reach, and closing the threads it opened.

pub(super) mod delivery;
pub(super) mod notify;
pub(super) mod queue;
pub(super) mod threads;
pub(super) mod worded;
pub(super) mod worker;

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
}

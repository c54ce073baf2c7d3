//! The delivery worker: hands the outbox's notices to a [`Deliverer`] as they fall due and
//! settles each by what it reports. A way of telling players (Discord's channels and direct
//! messages, or any other) is one implementation of the trait; what a failure means for the
//! notice (try again later, or never, and the match's clock paused) is decided once, by
//! [`Channels::delivery_failed`]. It sits above the outbox so that the outbox, at the bottom,
//! never reaches up into the matches.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinSet;

use super::trouble::Channels;
use crate::service::error::Result;
use crate::service::notices::delivery::Delivery;
use crate::service::notices::failure::DeliveryFailure;
use crate::service::notices::Outbox;
use crate::store::Recipient;

/// Notices claimed per round, and deliveries under way at most.
const BATCH: i64 = 20;

/// A way of telling players.
pub trait Deliverer: Send + Sync + 'static {
    /// Sends `delivery` to its reader (or, for a notice that closes a thread, closes it);
    /// returns the id of its last message where the way has ids, or why it failed.
    fn deliver(
        &self,
        delivery: &Delivery,
    ) -> impl Future<Output = Result<Option<u64>, DeliveryFailure>> + Send;
}

/// The delivery worker's parts: the outbox it empties, and the channels' watch, which
/// settles what Discord refused.
pub(crate) struct Courier {
    outbox: Arc<Outbox>,
    channels: Arc<Channels>,
}

impl Courier {
    pub(crate) fn new(outbox: Arc<Outbox>, channels: Arc<Channels>) -> Courier {
        Courier { outbox, channels }
    }

    /// Delivers what the outbox holds as it falls due, woken early whenever notices are
    /// queued or a delivery ends. Readers are served side by side, each reader's notices in
    /// order: the store hands out a reader's next notice only once the one before it is
    /// settled, so a delivery still in flight (a slow or hung request) holds up its own
    /// reader and nobody else's.
    pub(crate) async fn run<D: Deliverer>(
        self: Arc<Self>,
        deliverer: D,
        every: Duration,
        mut stop: watch::Receiver<bool>,
    ) {
        let deliverer = Arc::new(deliverer);
        let queued = self.outbox.signal();
        let mut in_flight = InFlight::default();
        loop {
            in_flight.start_due(&self, &deliverer).await;
            tokio::select! {
                _ = tokio::time::sleep(every) => {}
                _ = queued.notified() => {}
                Some(done) = in_flight.tasks.join_next_with_id() => in_flight.ended(done),
                _ = stop.changed() => break,
            }
        }
        // Deliveries under way finish (each request is bounded by the client's timeout), so
        // none is cut off between its post and its record.
        while let Some(done) = in_flight.tasks.join_next_with_id().await {
            in_flight.ended(done);
        }
    }

    /// Delivers every notice due now through `deliverer`, one at a time in the order the
    /// store hands them out: the delivery worker's round for a front-end that needs its
    /// output in order (the console).
    pub(crate) async fn deliver_due(&self, deliverer: &impl Deliverer) -> Result<()> {
        loop {
            let batch = self.outbox.claim_deliveries(BATCH).await?;
            if batch.is_empty() {
                return Ok(());
            }
            for delivery in &batch {
                self.deliver_one(deliverer, delivery).await;
            }
        }
    }

    /// Sends one notice and records how it went.
    async fn deliver_one(&self, deliverer: &impl Deliverer, delivery: &Delivery) {
        let outcome = match deliverer.deliver(delivery).await {
            Ok(last) => {
                if let (Some(shot), Recipient::Channel(channel)) =
                    (delivery.reply.board, delivery.to)
                {
                    if let Err(e) = self.outbox.board_posted(channel, shot, last).await {
                        tracing::warn!(error = %e, "could not record where a board was posted");
                    }
                }
                self.outbox.delivered(delivery).await
            }
            Err(failure) => {
                match &failure {
                    DeliveryFailure::Permanent { reason }
                        if matches!(delivery.to, Recipient::Dm(_)) =>
                    {
                        tracing::info!(
                            notice = delivery.id, %reason,
                            "a direct message cannot be delivered; it goes to the channel"
                        )
                    }
                    DeliveryFailure::Permanent { reason } => tracing::warn!(
                        to = ?delivery.to, notice = delivery.id, %reason,
                        "a notice cannot be delivered; its match's clock is paused"
                    ),
                    DeliveryFailure::Transient { reason, .. } => tracing::info!(
                        to = ?delivery.to, notice = delivery.id,
                        attempt = delivery.attempt, %reason, "a notice will be tried again"
                    ),
                }
                self.channels.delivery_failed(delivery, &failure).await
            }
        };
        if let Err(e) = outcome {
            // The lease runs out and the notice is taken up again; its nonce keeps a second
            // send from doubling it.
            tracing::warn!(notice = delivery.id, error = %e, "could not record a delivery");
        }
    }
}

/// The deliveries under way, one task a reader, with the notices each task holds.
#[derive(Default)]
struct InFlight {
    tasks: JoinSet<()>,
    readers: HashMap<tokio::task::Id, (Recipient, Vec<i64>)>,
}

impl InFlight {
    /// Starts every notice that is due now, up to [`BATCH`] deliveries under way at once.
    async fn start_due<D: Deliverer>(&mut self, courier: &Arc<Courier>, deliverer: &Arc<D>) {
        loop {
            let room = BATCH - self.tasks.len() as i64;
            if room <= 0 {
                return;
            }
            let batch = match courier.outbox.claim_deliveries(room).await {
                Ok(batch) => batch,
                Err(e) => {
                    tracing::warn!(error = %e, "could not read the outbox; trying again");
                    return;
                }
            };
            if batch.is_empty() {
                return;
            }
            let full = batch.len() as i64 >= room;
            let mut gave_back = false;
            let mut by_reader: HashMap<Recipient, Vec<Delivery>> = HashMap::new();
            for delivery in batch {
                by_reader.entry(delivery.to).or_default().push(delivery);
            }
            for (reader, queue) in by_reader {
                // A reader under way keeps its order: what was claimed for it now waits. A
                // notice whose delivery hangs here (its lease ran out) waits for its lease to
                // run out again; a later one, claimed because the task has recorded its last
                // delivery and not yet ended, is given back, to be claimed as soon as the task
                // ends rather than when its lease runs out.
                if let Some((_, held)) = self.readers.values().find(|(r, _)| *r == reader) {
                    for delivery in queue.iter().filter(|d| !held.contains(&d.id)) {
                        // Claimed again at once, it would only be given back again.
                        gave_back = true;
                        if let Err(e) = courier.outbox.release(delivery).await {
                            tracing::warn!(notice = delivery.id, error = %e,
                                "could not give back a notice; it waits for its lease");
                        }
                    }
                    continue;
                }
                let held: Vec<i64> = queue.iter().map(|d| d.id).collect();
                let courier = courier.clone();
                let deliverer = deliverer.clone();
                let task = self.tasks.spawn(async move {
                    for delivery in &queue {
                        courier.deliver_one(&*deliverer, delivery).await;
                    }
                });
                self.readers.insert(task.id(), (reader, held));
            }
            if !full || gave_back {
                return;
            }
        }
    }

    fn ended(&mut self, done: Result<(tokio::task::Id, ()), tokio::task::JoinError>) {
        let id = match done {
            Ok((id, ())) => id,
            Err(e) => {
                tracing::error!(error = %e, "a delivery task ended abnormally");
                e.id()
            }
        };
        self.readers.remove(&id);
    }
}

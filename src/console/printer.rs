//! The console's way of telling players: the outbox's delivery round hands it each notice,
//! and the console prints them in order once the round is over.

use std::future::Future;
use std::sync::Mutex;

use crate::service::{Deliverer, Delivery, DeliveryFailure};

/// The notices delivered in a round, to print.
#[derive(Default)]
pub(super) struct Printer {
    delivered: Mutex<Vec<Delivery>>,
}

impl Printer {
    /// The notices delivered since the last call, in order.
    pub(super) fn take(&self) -> Vec<Delivery> {
        match self.delivered.lock() {
            Ok(mut delivered) => std::mem::take(&mut *delivered),
            Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
        }
    }
}

impl Deliverer for Printer {
    fn deliver(
        &self,
        delivery: &Delivery,
    ) -> impl Future<Output = Result<Option<u64>, DeliveryFailure>> + Send {
        // The console has no threads to archive; everything else is printed.
        if !delivery.closes_thread {
            match self.delivered.lock() {
                Ok(mut delivered) => delivered.push(delivery.clone()),
                Err(poisoned) => poisoned.into_inner().push(delivery.clone()),
            }
        }
        std::future::ready(Ok(None))
    }
}

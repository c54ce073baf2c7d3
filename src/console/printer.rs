//! The console's way of telling players: the outbox's delivery round hands it each notice,
//! and the console prints them in order once the round is over.

use std::future::Future;
use std::sync::{Mutex, PoisonError};

use crate::service::{Deliverer, Delivery, DeliveryFailure};

/// The notices delivered in a round, to print.
#[derive(Default)]
pub(super) struct Printer {
    delivered: Mutex<Vec<Delivery>>,
}

impl Printer {
    /// The notices delivered since the last call, in order.
    pub(super) fn take(&self) -> Vec<Delivery> {
        std::mem::take(
            &mut *self
                .delivered
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }
}

impl Deliverer for Printer {
    fn deliver(
        &self,
        delivery: &Delivery,
    ) -> impl Future<Output = Result<Option<u64>, DeliveryFailure>> + Send {
        // The console has no threads to archive, reopen or clear, prints a tournament's field
        // where it is asked for and an analysis where it judges it (its log cannot be edited);
        // everything else is printed.
        if !delivery.closes_thread
            && !delivery.reopens_thread
            && delivery.shows_field.is_none()
            && delivery.shows_analysis.is_none()
            && delivery.clears_room.is_none()
        {
            self.delivered
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(delivery.clone());
        }
        std::future::ready(Ok(None))
    }
}

//! The delivery worker (`Courier`) with a deliverer of the test's own: a reader's notices go
//! out in order and none waits for a lease to run out.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use crate::common::{alice, bob, ok, place, service};
use thudbot::service::{ChallengeOptions, Deliverer, Delivery, DeliveryFailure};

/// Takes a little while over each notice, and notes the order it took them in.
#[derive(Clone, Default)]
struct Slow(Arc<Mutex<Vec<i64>>>);

impl Deliverer for Slow {
    async fn deliver(&self, delivery: &Delivery) -> Result<Option<u64>, DeliveryFailure> {
        tokio::time::sleep(Duration::from_millis(15)).await;
        self.0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(delivery.id);
        Ok(None)
    }
}

/// Notices to one channel queued while the one before is being delivered: each goes out as
/// soon as the one before it is done, in order. (The worker used to claim the next one in the
/// moment between recording a delivery and its task ending, skip it as its reader's, and leave
/// it leased: it then waited two minutes, and forever on a clock that stands still.)
#[tokio::test]
async fn a_readers_next_notice_goes_out_when_the_one_before_is_done_not_when_its_lease_ends() {
    let service = service().await;
    let at = place(1);
    let challenge = ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &ChallengeOptions::default())
        .await);
    let slow = Slow::default();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    // Polling all the time, as a busy worker is woken all the time.
    let worker =
        tokio::spawn(service.delivery_worker(slow.clone(), Duration::from_millis(1), stopped));
    const NOTICES: usize = 40;
    for _ in 0..NOTICES {
        service
            .outbox()
            .announce_later(at, None, &challenge)
            .await
            .expect("queued");
        tokio::time::sleep(Duration::from_millis(9)).await;
    }
    // The service's clock stands still: a notice left leased would never go.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let done = slow
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        if done.len() == NOTICES {
            let mut sorted = done.clone();
            sorted.sort_unstable();
            assert_eq!(done, sorted, "in the order queued");
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "{} of {NOTICES} delivered: {done:?}",
            done.len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop.send(true).expect("the worker listens");
    worker.await.expect("the worker stops");
}

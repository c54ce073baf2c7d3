//! The service's own doors besides the concerns' commands: the clock's round and the
//! workers.

use std::future::Future;

use tokio::sync::watch;

use super::*;

impl Service {
    /// Does everything that is due now, including anything missed while the bot was down,
    /// and queues what to announce.
    pub async fn tick(&self) -> Result<TickReport> {
        self.timekeeper.tick().await
    }

    /// What the bot noted under `key` for itself (a front-end's own state across restarts,
    /// such as where it registered its commands).
    pub async fn noted(&self, key: &str) -> Result<Option<String>> {
        Ok(self.store.bot_state(key).await?)
    }

    /// Notes `value` under `key` (`None` forgets it).
    pub async fn note(&self, key: &str, value: Option<&str>) -> Result<()> {
        Ok(self.store.set_bot_state(key, value).await?)
    }
}

/// The workers, each a future to spawn: they live with the concern they drive. The bot spawns
/// them; the console runs one round of each after every line (`tick`, `play_computer_turns`,
/// `analyse_some`, `deliver_due`), the same work in an order it can print.
impl Service {
    /// The clock worker: what is due on the clock, every `every` and after downtime.
    pub fn clock_worker(
        &self,
        every: std::time::Duration,
        stop: watch::Receiver<bool>,
    ) -> impl Future<Output = ()> + Send + 'static {
        self.timekeeper.clone().run(every, stop)
    }

    /// The computer's worker: its moves as they fall due.
    pub fn computer_worker(
        &self,
        stop: watch::Receiver<bool>,
    ) -> impl Future<Output = ()> + Send + 'static {
        self.matches.clone().run_computer(stop)
    }

    /// The judging worker: analyses, a position at a time.
    pub fn judging_worker(
        &self,
        stop: watch::Receiver<bool>,
    ) -> impl Future<Output = ()> + Send + 'static {
        self.analysis.clone().run_judging(stop)
    }

    /// One round of the delivery worker, for a front-end that needs its output in order (the
    /// console): every notice due now through `deliverer`, one at a time.
    pub async fn deliver_due(&self, deliverer: &impl Deliverer) -> Result<()> {
        self.courier.deliver_due(deliverer).await
    }

    /// The delivery worker: the outbox's notices through `deliverer` as they fall due.
    pub fn delivery_worker<D: Deliverer>(
        &self,
        deliverer: D,
        every: std::time::Duration,
        stop: watch::Receiver<bool>,
    ) -> impl Future<Output = ()> + Send + 'static {
        self.courier.clone().run(deliverer, every, stop)
    }
}

//! Waiting for the bot: every recorded request or gateway frame wakes the waiters, there is no
//! polling.

use std::time::Duration;

use super::fixture::GUILD_ID;
use super::record::RecordedRequest;
use super::world::{GatewayFrame, World};
use super::{Dispatched, FakeDiscord, FakeError};

impl FakeDiscord {
    /// Waits until `check` finds something in the world, waking on every recorded change.
    async fn wait_until<T>(
        &self,
        timeout: Duration,
        waiting_for: &str,
        mut check: impl FnMut(&World) -> Option<T>,
    ) -> Result<T, FakeError> {
        let mut changes = self.shared.changes.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            changes.borrow_and_update();
            if let Some(found) = self.shared.with_world(|world| check(world)) {
                return Ok(found);
            }
            if tokio::time::timeout_at(deadline, changes.changed())
                .await
                .is_err()
            {
                let seen = self.shared.with_world(|world| {
                    let mut lines: Vec<String> = world
                        .requests
                        .iter()
                        .map(RecordedRequest::summary)
                        .collect();
                    lines.push(format!(
                        "{} gateway frame(s), {} session(s)",
                        world.gateway_log.len(),
                        world.sessions.len()
                    ));
                    lines.join("\n")
                });
                return Err(FakeError::Timeout {
                    waiting_for: waiting_for.to_string(),
                    seen,
                });
            }
        }
    }

    /// The first request (ever) matching `predicate`, waiting up to `timeout` for it.
    pub async fn wait_for(
        &self,
        predicate: impl Fn(&RecordedRequest) -> bool,
        timeout: Duration,
    ) -> Result<RecordedRequest, FakeError> {
        self.wait_for_since(0, predicate, timeout).await
    }

    /// The first request from position `since` on (see [`Self::mark`]) matching `predicate`.
    pub async fn wait_for_since(
        &self,
        since: usize,
        predicate: impl Fn(&RecordedRequest) -> bool,
        timeout: Duration,
    ) -> Result<RecordedRequest, FakeError> {
        self.wait_until(timeout, "a matching request", |world| {
            world
                .requests
                .iter()
                .skip(since)
                .find(|r| predicate(r))
                .cloned()
        })
        .await
    }

    /// The callback (`POST /interactions/{id}/{token}/callback`) answering an interaction.
    pub async fn response_to(
        &self,
        interaction: &Dispatched,
        timeout: Duration,
    ) -> Result<RecordedRequest, FakeError> {
        let id = interaction.id;
        self.wait_until(
            timeout,
            &format!("the response to interaction {id}"),
            |world| {
                world
                    .requests
                    .iter()
                    .find(|r| r.interaction_callback().is_some_and(|(i, _)| i == id))
                    .cloned()
            },
        )
        .await
    }

    /// The first gateway frame matching `predicate`.
    pub async fn wait_for_frame(
        &self,
        predicate: impl Fn(&GatewayFrame) -> bool,
        timeout: Duration,
    ) -> Result<GatewayFrame, FakeError> {
        self.wait_until(timeout, "a matching gateway frame", |world| {
            world.gateway_log.iter().find(|f| predicate(f)).cloned()
        })
        .await
    }

    /// Waits until the gateway log as a whole satisfies `predicate` (e.g. "three heartbeats").
    pub async fn wait_for_frames(
        &self,
        predicate: impl Fn(&[GatewayFrame]) -> bool,
        timeout: Duration,
    ) -> Result<Vec<GatewayFrame>, FakeError> {
        self.wait_until(timeout, "the gateway log to match", |world| {
            predicate(&world.gateway_log).then(|| world.gateway_log.clone())
        })
        .await
    }

    /// Waits until a bot has identified on the gateway and received READY.
    pub async fn wait_until_connected(&self, timeout: Duration) -> Result<(), FakeError> {
        self.wait_until(timeout, "a bot to identify on the gateway", |world| {
            world.session_for(Some(GUILD_ID)).map(|_| ())
        })
        .await
    }

    /// Waits until no bot is connected to the gateway any more (after a clean shutdown).
    pub async fn wait_until_disconnected(&self, timeout: Duration) -> Result<(), FakeError> {
        self.wait_until(timeout, "every gateway session to close", |world| {
            world.sessions.is_empty().then_some(())
        })
        .await
    }
}

//! The places the computer's searches run in: its moves and the analyses share them, so
//! together they never take every core.

use std::sync::Arc;

use tokio::sync::Semaphore;

use crate::service::error::{Result, ServiceError};

/// A bound on the searches running at once.
#[derive(Clone)]
pub(crate) struct Thinking(Arc<Semaphore>);

impl Thinking {
    pub(crate) fn new(at_once: usize) -> Thinking {
        Thinking(Arc::new(Semaphore::new(at_once)))
    }

    /// Runs `work` on a blocking thread, once one of the places is free.
    pub(crate) async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T> {
        let _permit = self
            .0
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| ServiceError::System(format!("thinking closed: {e}")))?;
        tokio::task::spawn_blocking(work)
            .await
            .map_err(|e| ServiceError::System(format!("the computer's search failed: {e}")))
    }
}

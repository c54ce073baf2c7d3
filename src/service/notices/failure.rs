//! What a failed delivery means for its next try: Discord may take it later (after a growing
//! pause, or the wait Discord gave), or never.

use chrono::Duration;

/// The longest pause between two tries of a notice.
const MAX_BACKOFF_SECONDS: i64 = 600;

/// Why a post failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeliveryFailure {
    /// Worth trying again (a 5xx, a rate limit, the network); `retry_after` when Discord said.
    Transient {
        reason: String,
        retry_after: Option<std::time::Duration>,
    },
    /// Discord will never take it: no access, a missing permission, the channel gone.
    Permanent { reason: String },
}

impl DeliveryFailure {
    /// Worth trying again after the growing pause, for `reason`.
    pub fn later(reason: impl std::fmt::Display) -> DeliveryFailure {
        DeliveryFailure::Transient {
            reason: reason.to_string(),
            retry_after: None,
        }
    }
}

/// How long to wait before try `attempt` + 1: what Discord asked for (`retry_after`), else the
/// growing pause, never more than ten minutes.
pub(in crate::service) fn pause_before_retry(
    attempt: u32,
    retry_after: Option<std::time::Duration>,
) -> Duration {
    match retry_after {
        Some(after) => Duration::from_std(after)
            .unwrap_or(Duration::seconds(MAX_BACKOFF_SECONDS))
            .min(Duration::seconds(MAX_BACKOFF_SECONDS)),
        None => backoff(attempt),
    }
}

/// Waits between tries: 2, 4, 8 … seconds, at most ten minutes.
fn backoff(attempt: u32) -> Duration {
    let seconds = 1i64 << attempt.clamp(1, 10);
    Duration::seconds(seconds.min(MAX_BACKOFF_SECONDS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_is_capped() {
        assert_eq!(backoff(1), Duration::seconds(2));
        assert_eq!(backoff(3), Duration::seconds(8));
        assert_eq!(backoff(40), Duration::seconds(MAX_BACKOFF_SECONDS));
    }
}

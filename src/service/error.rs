//! Refusals a player causes, and failures of the system (worded in `voice/refusals.rs`).

use super::refusal::Refusal;
use crate::store::StoreError;

/// Why the service did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The player asked for something the rules or the match flow do not allow. The message
    /// is written for them; nothing changed.
    #[error("{0}")]
    Refused(Refusal),
    /// Something broke on our side (the database, say). Logged; the player gets an apology.
    #[error("system failure: {0}")]
    System(String),
    /// Saving failed in a way that leaves it unknown whether the change landed (the database
    /// went away during the commit). The player is told to look before trying again.
    #[error("commit outcome unknown: {0}")]
    Unsure(String),
}

impl From<Refusal> for ServiceError {
    fn from(refusal: Refusal) -> ServiceError {
        ServiceError::Refused(refusal)
    }
}

impl ServiceError {
    pub fn is_refusal(&self) -> bool {
        matches!(self, ServiceError::Refused(_))
    }
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> ServiceError {
        match e {
            StoreError::CommitUnsure(_) => ServiceError::Unsure(e.to_string()),
            e => ServiceError::System(e.to_string()),
        }
    }
}

/// A refusal with a message for the player.
pub fn refuse<T>(refusal: Refusal) -> Result<T, ServiceError> {
    Err(ServiceError::Refused(refusal))
}

pub type Result<T, E = ServiceError> = std::result::Result<T, E>;

//! Refusals a player causes, and failures of the system.

use crate::store::StoreError;

/// Why the service did not do what was asked.
#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    /// The player asked for something the rules or the match flow do not allow. The message
    /// is written for them; nothing changed.
    #[error("{0}")]
    Refused(String),
    /// Something broke on our side (the database, say). Logged; the player gets an apology.
    #[error("system failure: {0}")]
    System(String),
}

impl ServiceError {
    /// What to tell the player.
    pub fn player_message(&self) -> String {
        match self {
            ServiceError::Refused(m) => m.clone(),
            ServiceError::System(_) => {
                "Sorry, something went wrong on our side and nothing was changed. Please try again in a moment.".to_string()
            }
        }
    }

    pub fn is_refusal(&self) -> bool {
        matches!(self, ServiceError::Refused(_))
    }
}

impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> ServiceError {
        ServiceError::System(e.to_string())
    }
}

/// A refusal with a message for the player.
pub fn refuse<T>(message: impl Into<String>) -> Result<T, ServiceError> {
    Err(ServiceError::Refused(message.into()))
}

pub type Result<T, E = ServiceError> = std::result::Result<T, E>;

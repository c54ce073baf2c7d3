//! What can go wrong in storage.

/// A rule the database enforces that a write would break.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Conflict {
    /// The channel already has a match in play.
    ChannelBusy,
    /// The two players already have an open challenge in the channel.
    DuplicateChallenge,
    /// Another submission for the same turn landed first.
    TurnTaken,
    /// The battle already has an open end proposal.
    ProposalOpen,
}

/// A storage failure.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("conflicting write: {0:?}")]
    Conflict(Conflict),
    #[error("stored data is damaged: {0}")]
    Corrupt(String),
    #[error("database error: {0}")]
    Database(#[source] sqlx::Error),
    /// The commit failed in a way that leaves its outcome unknown: the connection broke after
    /// COMMIT was sent, say.
    #[error("the commit may or may not have landed: {0}")]
    CommitUnsure(sqlx::Error),
}

impl StoreError {
    /// The conflict this error reports, if it is one.
    pub fn conflict(&self) -> Option<Conflict> {
        match self {
            StoreError::Conflict(c) => Some(*c),
            _ => None,
        }
    }
}

/// A row that does not decode into its type holds damaged data; anything else is the
/// database's own failure.
impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        match e {
            sqlx::Error::ColumnDecode { index, source } => {
                StoreError::Corrupt(format!("column {index}: {source}"))
            }
            sqlx::Error::Decode(source) => StoreError::Corrupt(source.to_string()),
            e => StoreError::Database(e),
        }
    }
}

/// Maps a unique-constraint violation to the rule it stands for.
pub(crate) fn classify(e: sqlx::Error) -> StoreError {
    if let sqlx::Error::Database(db) = &e {
        let conflict = match db.constraint() {
            Some("matches_one_active_per_channel") => Some(Conflict::ChannelBusy),
            Some("challenges_one_pending_per_pair") => Some(Conflict::DuplicateChallenge),
            Some("moves_pkey") => Some(Conflict::TurnTaken),
            Some("end_proposals_one_open_per_battle") => Some(Conflict::ProposalOpen),
            _ => None,
        };
        if let Some(c) = conflict {
            return StoreError::Conflict(c);
        }
    }
    StoreError::from(e)
}

/// The query macros read a row's columns by position, so a value that does not decode is
/// reported as column "7"; `columns` (the query's, in order) gives it its name again.
pub(crate) fn name_column<'a>(columns: &'a [&'a str]) -> impl Fn(sqlx::Error) -> sqlx::Error + 'a {
    move |e| match e {
        sqlx::Error::ColumnDecode { index, source } => {
            let name = index.parse::<usize>().ok().and_then(|i| columns.get(i));
            sqlx::Error::ColumnDecode {
                index: name.map_or(index, |c| format!("{c:?}")),
                source,
            }
        }
        e => e,
    }
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

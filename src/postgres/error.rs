//! Why the managed local server could not be created, started or stopped.

use std::io;
use std::path::PathBuf;

use super::{DEBIAN_BINARIES_ROOT, SERVER_OS_USER};

/// Why the managed local server could not be created, started or stopped.
#[derive(Debug, thiserror::Error)]
pub enum LocalServerError {
    /// No `initdb` and `postgres` binaries were found.
    #[error(
        "no PostgreSQL server binaries found (looked for `initdb` and `postgres` on PATH and in \
         {}/*/bin). Install them (Debian/Ubuntu: `apt-get install postgresql`), or set \
         DATABASE_URL to use a PostgreSQL server you run yourself",
        DEBIAN_BINARIES_ROOT
    )]
    NoBinaries,
    /// The cluster was created by a major version of PostgreSQL that is no longer installed.
    #[error(
        "the database in {dir} was created by PostgreSQL {cluster_major}, but only PostgreSQL \
         {found} is installed. Install PostgreSQL {cluster_major} (Debian/Ubuntu: \
         `apt-get install postgresql-{cluster_major}`) or upgrade the data with `pg_upgrade`"
    )]
    VersionMismatch {
        dir: PathBuf,
        cluster_major: u32,
        found: String,
    },
    /// thudbot runs as root and the unprivileged user for the server does not exist.
    #[error(
        "thudbot runs as root, but PostgreSQL refuses to run as root and there is no `{}` \
         user to run it as. Install PostgreSQL from your distribution (Debian/Ubuntu: \
         `apt-get install postgresql`, which creates the user), create it \
         (`useradd --system {}`), run thudbot as an ordinary user, or set DATABASE_URL",
        SERVER_OS_USER,
        SERVER_OS_USER
    )]
    NoServerUser,
    /// The server's OS user cannot reach the data directory.
    #[error(
        "the PostgreSQL server runs as the OS user `{user}`, who cannot enter {blocked} (on the \
         way to {dir}). Put the data directory somewhere `{user}` can reach, or allow it with \
         `chmod o+x {blocked}`"
    )]
    Inaccessible {
        dir: PathBuf,
        blocked: PathBuf,
        user: String,
    },
    /// The cluster directory holds something that is not a PostgreSQL cluster.
    #[error(
        "{dir} is not empty but holds no PostgreSQL cluster (no PG_VERSION file); move it \
         away so thudbot can create its database there"
    )]
    NotACluster { dir: PathBuf },
    /// Another server already runs on this cluster.
    #[error(
        "PostgreSQL processes (pid {pid}) are already running on {dir}: is another thudbot \
         using the same data directory? Stop it first"
    )]
    AlreadyRunning { dir: PathBuf, pid: i32 },
    /// `initdb` failed.
    #[error("initdb could not create the PostgreSQL cluster in {dir}:\n{output}")]
    Initdb { dir: PathBuf, output: String },
    /// The server did not come up.
    #[error(
        "the PostgreSQL server in {dir} did not start ({reason}); the end of {log}:\n{log_tail}"
    )]
    Start {
        dir: PathBuf,
        reason: String,
        log: PathBuf,
        log_tail: String,
    },
    /// The server did not stop, even when killed.
    #[error("the PostgreSQL server in {dir} (pid {pid}) did not stop")]
    Stop { dir: PathBuf, pid: i32 },
    /// A file system or process operation failed.
    #[error("{action}: {source}")]
    Io {
        action: String,
        #[source]
        source: io::Error,
    },
}

/// Turns an `io::Error` into a [`LocalServerError::Io`] saying what was being done.
pub(super) fn io_error(action: impl Into<String>) -> impl FnOnce(io::Error) -> LocalServerError {
    let action = action.into();
    move |source| LocalServerError::Io { action, source }
}

//! The managed local PostgreSQL server: a private cluster inside the bot's data directory,
//! run with the system's PostgreSQL binaries and reachable only through a unix socket in that
//! directory, so it needs no set-up and cannot clash with any other server on the machine.
//!
//! Linux only: the server is tied to the life of this process with `PR_SET_PDEATHSIG`.
//!
//! `binaries.rs` finds the installed PostgreSQL binaries, `cluster.rs` makes the cluster with
//! `initdb` (as an unprivileged user when thudbot runs as root), and `server.rs` runs the server
//! on it. No SQL is run here: that is `store/`'s.

mod binaries;
mod cluster;
mod error;
mod server;

pub use binaries::Binaries;
pub use error::LocalServerError;
pub use server::LocalServer;

/// The database superuser the managed cluster is created with.
pub const SUPERUSER: &str = "thudbot";

/// The OS user the server runs as when thudbot runs as root (PostgreSQL refuses to run as root).
pub const SERVER_OS_USER: &str = "postgres";

/// Where Debian and Ubuntu install the versioned PostgreSQL binaries.
pub const DEBIAN_BINARIES_ROOT: &str = "/usr/lib/postgresql";

/// How much the cluster's data matters, which decides how carefully it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Durability {
    /// The bot's own data: every commit reaches the disk.
    Durable,
    /// Test and benchmark data: no fsync, thrown away afterwards.
    Throwaway,
}

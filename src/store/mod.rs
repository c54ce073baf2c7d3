//! Storage: every SQL statement and the migrations live here, over PostgreSQL through sqlx.

pub mod connect;
pub mod local;
pub mod scratch;

pub use connect::{Database, DatabaseConfig, OpenError, MIGRATOR};
pub use local::{Binaries, Durability, LocalServer, LocalServerError};
pub use scratch::{ScratchDatabase, ScratchError};

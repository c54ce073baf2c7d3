//! Scratch databases, for tests and benchmarks only: each [`ScratchDatabase`] is a fresh,
//! uniquely named, migrated database, dropped again when its handle is dropped, so tests run
//! in parallel and leave nothing behind.
//!
//! They live on the server at `DATABASE_URL` when that is set (its user needs CREATEDB, and
//! PostgreSQL 13 or later for `DROP DATABASE ... WITH (FORCE)`), otherwise on a managed local
//! server private to the test process.
//!
//! Why one server per test process rather than one shared by all: the server is started from
//! a thread that lives as long as it, with a parent-death signal, so it stops whenever the
//! test process ends — a failed test, Ctrl-C or a kill included — and no server is ever left
//! running after `cargo test`, nor shared by test binaries that would need to agree on who
//! stops it. The cost is one `initdb` and start per test binary (about 1.5 s). The cluster lives in
//! `$TMPDIR/thudbot-test-postgres.<uid>/<pid>` (a short path, far from the unix socket limit);
//! it is removed when the process exits normally, and clusters of processes that died are
//! swept by the next test process.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::Duration;

use nix::unistd::Uid;
use sqlx::migrate::MigrateError;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{ConnectOptions, Connection, Executor, PgConnection};

use super::connect::{DATABASE_URL_VAR, MIGRATOR};
use crate::postgres::{Durability, LocalServer, LocalServerError};

/// Why a scratch database could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ScratchError {
    /// The test server could not be set up (a bad `DATABASE_URL`, or the managed server).
    #[error("could not set up the test database server: {0}")]
    TestServer(String),
    /// The test server refused a connection or a command.
    #[error("the test database server failed: {0}")]
    Database(#[from] sqlx::Error),
    /// The migrations failed on the fresh database.
    #[error("could not migrate the scratch database: {0}")]
    Migrate(#[from] MigrateError),
}

/// A fresh database for one test or benchmark, dropped with the handle.
#[derive(Debug)]
pub struct ScratchDatabase {
    name: String,
    options: PgConnectOptions,
    admin: PgConnectOptions,
    pool: PgPool,
}

impl ScratchDatabase {
    /// Creates a fresh database with every migration applied.
    pub async fn create() -> Result<ScratchDatabase, ScratchError> {
        let scratch = Self::create_empty().await?;
        MIGRATOR.run(&scratch.pool).await?;
        Ok(scratch)
    }

    /// Creates a fresh database without applying the migrations.
    pub async fn create_empty() -> Result<ScratchDatabase, ScratchError> {
        let admin = tokio::task::spawn_blocking(admin_options)
            .await
            .map_err(|join| ScratchError::TestServer(join.to_string()))??;
        let name = unique_name();
        let mut connection = PgConnection::connect_with(&admin).await?;
        // Runtime-checked: a database's name cannot be a bound parameter.
        connection
            .execute(format!(r#"CREATE DATABASE "{name}""#).as_str())
            .await?;
        connection.close().await.ok();
        let options = admin.clone().database(&name);
        let pool = PgPoolOptions::new()
            .max_connections(20)
            .acquire_timeout(Duration::from_secs(30))
            .connect_lazy_with(options.clone());
        Ok(ScratchDatabase {
            name,
            options,
            admin,
            pool,
        })
    }

    /// A pool of up to 20 connections to this database.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// The database's name, unique on its server.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// How to connect to this database, for tests that need their own connections.
    pub fn connect_options(&self) -> PgConnectOptions {
        self.options.clone()
    }

    /// A `postgres://` URL of this database, as `DATABASE_URL` would name it.
    pub fn url(&self) -> String {
        self.options.to_url_lossy().to_string()
    }
}

impl Drop for ScratchDatabase {
    fn drop(&mut self) {
        // Drop may run inside an async runtime, which cannot be blocked on; a thread with its
        // own small runtime can.
        let admin = self.admin.clone();
        let name = self.name.clone();
        let dropped = std::thread::spawn(move || drop_database(admin, &name)).join();
        match dropped {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                tracing::warn!(database = %self.name, %error, "could not drop a scratch database")
            }
            Err(_) => tracing::warn!(database = %self.name, "could not drop a scratch database"),
        }
    }
}

fn drop_database(admin: PgConnectOptions, name: &str) -> Result<(), sqlx::Error> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let mut connection = PgConnection::connect_with(&admin).await?;
        // Runtime-checked: a database's name cannot be a bound parameter.
        connection
            .execute(format!(r#"DROP DATABASE IF EXISTS "{name}" WITH (FORCE)"#).as_str())
            .await?;
        connection.close().await
    })
}

fn unique_name() -> String {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    format!(
        "thudbot_scratch_{}_{}_{:08x}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed),
        rand::random::<u32>()
    )
}

/// The test server of this process: decided (and started) once.
struct TestServer {
    /// For creating and dropping databases.
    admin: PgConnectOptions,
    /// The managed server and its directory, when `DATABASE_URL` is not set.
    managed: Option<(Mutex<LocalServer>, PathBuf)>,
}

static TEST_SERVER: OnceLock<Result<TestServer, String>> = OnceLock::new();

/// Connection options for creating and dropping databases on the test server.
fn admin_options() -> Result<PgConnectOptions, ScratchError> {
    match TEST_SERVER.get_or_init(start_test_server) {
        Ok(server) => Ok(server.admin.clone()),
        Err(reason) => Err(ScratchError::TestServer(reason.clone())),
    }
}

fn start_test_server() -> Result<TestServer, String> {
    if let Some(url) = std::env::var(DATABASE_URL_VAR)
        .ok()
        .filter(|url| !url.trim().is_empty())
    {
        let admin = PgConnectOptions::from_str(&url)
            .map_err(|error| format!("{DATABASE_URL_VAR} is not a valid database URL: {error}"))?;
        return Ok(TestServer {
            admin,
            managed: None,
        });
    }
    let root = test_server_root().map_err(|error| error.to_string())?;
    sweep(&root);
    let dir = root.join(std::process::id().to_string());
    if dir.exists() {
        // Left by an earlier process that had this pid.
        let _ = fs::remove_dir_all(&dir);
    }
    let server =
        LocalServer::open(&dir, Durability::Throwaway).map_err(|error| error.to_string())?;
    let admin = server.connect_options("postgres");
    // SAFETY: registers a plain function with no captured state; it runs once, at exit.
    unsafe {
        nix::libc::atexit(stop_test_server);
    }
    Ok(TestServer {
        admin,
        managed: Some((Mutex::new(server), dir)),
    })
}

/// Runs at normal process exit (statics are never dropped): stops the test server and
/// removes its cluster.
extern "C" fn stop_test_server() {
    if let Some(Ok(TestServer {
        managed: Some((server, dir)),
        ..
    })) = TEST_SERVER.get()
    {
        let mut server = server.lock().unwrap_or_else(PoisonError::into_inner);
        if server.stop().is_ok() {
            let _ = fs::remove_dir_all(dir);
        }
    }
}

/// `$TMPDIR/thudbot-test-postgres.<uid>`: one per OS user, holding one cluster per process.
fn test_server_root() -> Result<PathBuf, LocalServerError> {
    let root = std::env::temp_dir().join(format!("thudbot-test-postgres.{}", Uid::effective()));
    fs::create_dir_all(&root).map_err(|source| LocalServerError::Io {
        action: format!("creating {}", root.display()),
        source,
    })?;
    let meta = fs::metadata(&root).map_err(|source| LocalServerError::Io {
        action: format!("inspecting {}", root.display()),
        source,
    })?;
    if meta.uid() != Uid::effective().as_raw() {
        return Err(LocalServerError::Io {
            action: format!("using {}", root.display()),
            source: std::io::Error::other("it belongs to another user"),
        });
    }
    // The server's own OS user (when testing as root) must pass through it.
    fs::set_permissions(&root, fs::Permissions::from_mode(0o755)).map_err(|source| {
        LocalServerError::Io {
            action: format!("opening {} to the server's user", root.display()),
            source,
        }
    })?;
    Ok(root)
}

/// Removes the clusters of test processes that are gone (killed before they could clean up).
fn sweep(root: &Path) {
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        let Ok(pid) = name.trim_end_matches(".initdb").parse::<u32>() else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

//! Opening the bot's database: the server named by `DATABASE_URL` or the config file, else the
//! managed local server; waiting for it at start-up, applying the migrations, and a pool that
//! outlives outages of the server.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, Instant};

use sqlx::migrate::{MigrateError, Migrator};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{Connection, Executor, PgConnection};

use crate::postgres::{Durability, LocalServer, LocalServerError};

/// The schema migrations, embedded in the binary and applied at start-up.
pub static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

/// The database the bot keeps its data in on the managed local server.
pub const DATABASE_NAME: &str = "thudbot";

/// The environment variable naming the database server; it wins over the config file.
pub const DATABASE_URL_VAR: &str = "DATABASE_URL";

/// Where the bot's data lives and how patient the connection is.
#[derive(Clone, Debug)]
pub struct DatabaseConfig {
    /// A `postgres://` URL; None runs the managed local server in `data_dir/postgres`.
    pub url: Option<String>,
    /// The bot's data directory.
    pub data_dir: PathBuf,
    /// The most connections the pool opens.
    pub max_connections: u32,
    /// How long a command waits for a connection before it fails (also while the database is
    /// away).
    pub acquire_timeout: Duration,
    /// How long start-up keeps trying to reach the database before giving up.
    pub startup_timeout: Duration,
}

impl DatabaseConfig {
    /// The defaults for a data directory: managed local server, 10 connections, 5 s to get a
    /// connection, 60 s to reach the database at start-up.
    pub fn new(data_dir: impl Into<PathBuf>) -> DatabaseConfig {
        DatabaseConfig {
            url: None,
            data_dir: data_dir.into(),
            max_connections: 10,
            acquire_timeout: Duration::from_secs(5),
            startup_timeout: Duration::from_secs(60),
        }
    }

    /// Applies `DATABASE_URL` from the process environment, which wins over the config file.
    pub fn with_environment(self) -> DatabaseConfig {
        self.with_environment_from(|name| std::env::var(name).ok())
    }

    /// Applies `DATABASE_URL` as `lookup` reports it (an empty value counts as unset).
    pub fn with_environment_from(
        mut self,
        lookup: impl Fn(&str) -> Option<String>,
    ) -> DatabaseConfig {
        if let Some(url) = lookup(DATABASE_URL_VAR).filter(|url| !url.trim().is_empty()) {
            self.url = Some(url);
        }
        self
    }

    /// The managed local server's cluster directory: `data_dir/postgres`.
    pub fn cluster_dir(&self) -> PathBuf {
        self.data_dir.join("postgres")
    }

    fn pool_options(&self) -> PgPoolOptions {
        PgPoolOptions::new()
            .max_connections(self.max_connections)
            .min_connections(0)
            .acquire_timeout(self.acquire_timeout)
            // A connection that died with the server is found out and replaced before a
            // command gets it, so the pool recovers by itself when the server is back.
            .test_before_acquire(true)
            .idle_timeout(Some(Duration::from_secs(600)))
            .max_lifetime(Some(Duration::from_secs(1800)))
    }
}

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// The configured database URL could not be understood.
    #[error("the database URL is not valid: {reason}")]
    BadUrl { reason: String },
    /// The managed local server could not be set up.
    #[error("could not run the managed local PostgreSQL server: {0}")]
    LocalServer(#[from] LocalServerError),
    /// The server could not be reached before the start-up timeout.
    #[error(
        "could not reach the {target} after {attempts} attempts over {} s: {source}. Check that \
         the PostgreSQL server is running and that DATABASE_URL (or database_url in the config \
         file) is right",
        waited.as_secs()
    )]
    Unreachable {
        target: String,
        attempts: u32,
        waited: Duration,
        #[source]
        source: sqlx::Error,
    },
    /// The server answered but refused the connection; trying again would not help.
    #[error("the {target} refused the connection: {source}")]
    Refused {
        target: String,
        #[source]
        source: sqlx::Error,
    },
    /// The bot's database could not be created on the managed server.
    #[error("could not create the database `{DATABASE_NAME}` on the managed server: {0}")]
    Create(#[source] sqlx::Error),
    /// The migrations could not be applied.
    #[error("could not apply the database migrations: {0}")]
    Migrate(#[from] MigrateError),
}

/// The bot's open database: a connection pool, and the managed server when there is one.
#[derive(Debug)]
pub struct Database {
    pool: PgPool,
    server: Option<LocalServer>,
    target: String,
}

impl Database {
    /// Opens the database `config` names (or the managed local server), waiting for it at
    /// start-up, and applies the migrations.
    pub async fn open(config: &DatabaseConfig) -> Result<Database, OpenError> {
        let (options, server) = match &config.url {
            Some(url) => {
                let options = PgConnectOptions::from_str(url).map_err(|e| OpenError::BadUrl {
                    reason: e.to_string(),
                })?;
                (options, None)
            }
            None => {
                let cluster = config.cluster_dir();
                let server = tokio::task::spawn_blocking(move || {
                    LocalServer::open(cluster, Durability::Durable)
                })
                .await
                .map_err(|join| {
                    OpenError::LocalServer(LocalServerError::Io {
                        action: "starting the managed PostgreSQL server".into(),
                        source: std::io::Error::other(join.to_string()),
                    })
                })??;
                create_database(&server, config).await?;
                (server.connect_options(DATABASE_NAME), Some(server))
            }
        };
        let options = options.application_name("thudbot");
        let target = match &server {
            // Its socket may be named through /proc/self/fd; the directory says more.
            Some(server) => format!(
                "database {DATABASE_NAME} on the managed server in {}",
                server.cluster_dir().display()
            ),
            None => describe(&options),
        };
        reach(&options, config).await?.close().await.ok();
        let pool = config.pool_options().connect_lazy_with(options);
        MIGRATOR.run(&pool).await?;
        tracing::info!(%target, "database ready");
        Ok(Database {
            pool,
            server,
            target,
        })
    }

    /// The connection pool every query goes through.
    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Which database this is, for log lines (never includes a password).
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The managed local server, when the bot runs one.
    pub fn local_server(&mut self) -> Option<&mut LocalServer> {
        self.server.as_mut()
    }

    /// Closes the pool and stops the managed server, waiting for both.
    pub async fn close(mut self) {
        self.pool.close().await;
        if let Some(mut server) = self.server.take() {
            let stopped = tokio::task::spawn_blocking(move || server.stop()).await;
            match stopped {
                Ok(Ok(())) => {}
                Ok(Err(error)) => tracing::error!(%error, "could not stop the database server"),
                Err(error) => tracing::error!(%error, "could not stop the database server"),
            }
        }
    }
}

/// Creates the bot's database on the managed server on first start.
async fn create_database(server: &LocalServer, config: &DatabaseConfig) -> Result<(), OpenError> {
    let mut admin = reach(&server.connect_options("postgres"), config).await?;
    let exists = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM pg_database WHERE datname = $1) AS "exists!""#,
        DATABASE_NAME
    )
    .fetch_one(&mut admin)
    .await
    .map_err(OpenError::Create)?;
    if !exists {
        tracing::info!("creating the database `{DATABASE_NAME}`");
        // Runtime-checked: a database's name cannot be a bound parameter.
        admin
            .execute(format!(r#"CREATE DATABASE "{DATABASE_NAME}""#).as_str())
            .await
            .map_err(OpenError::Create)?;
    }
    admin.close().await.ok();
    Ok(())
}

/// Connects once, retrying with growing pauses until `config.startup_timeout` has passed.
async fn reach(
    options: &PgConnectOptions,
    config: &DatabaseConfig,
) -> Result<PgConnection, OpenError> {
    let target = describe(options);
    let started = Instant::now();
    let mut pause = Duration::from_millis(250);
    let mut attempt = 0;
    loop {
        attempt += 1;
        let patience = config
            .acquire_timeout
            .min(config.startup_timeout.saturating_sub(started.elapsed()))
            .max(Duration::from_millis(100));
        let error = match tokio::time::timeout(patience, PgConnection::connect_with(options)).await
        {
            Ok(Ok(connection)) => {
                if attempt > 1 {
                    tracing::info!(%target, attempt, "database reachable");
                }
                return Ok(connection);
            }
            Ok(Err(error)) => error,
            Err(_) => sqlx::Error::Io(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                format!("no answer within {} ms", patience.as_millis()),
            )),
        };
        if is_refusal(&error) {
            tracing::error!(%target, %error, "the database refused the connection");
            return Err(OpenError::Refused {
                target,
                source: error,
            });
        }
        let waited = started.elapsed();
        if waited + pause > config.startup_timeout {
            tracing::error!(%target, attempt, %error, "giving up on reaching the database");
            return Err(OpenError::Unreachable {
                target,
                attempts: attempt,
                waited,
                source: error,
            });
        }
        tracing::warn!(
            %target,
            attempt,
            retry_in_ms = pause.as_millis() as u64,
            %error,
            "database not reachable yet; retrying"
        );
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_secs(10));
    }
}

/// Errors no amount of waiting will cure: wrong credentials, a missing database, a bad setting.
fn is_refusal(error: &sqlx::Error) -> bool {
    match error {
        sqlx::Error::Configuration(_) => true,
        sqlx::Error::Database(db) => db
            .code()
            .is_some_and(|code| code.starts_with("28") || code == "3D000"),
        _ => false,
    }
}

/// "database thudbot as thudbot on unix socket /srv/thudbot/postgres": no password.
pub fn describe(options: &PgConnectOptions) -> String {
    let place = match options.get_socket() {
        Some(socket) => format!("unix socket in {}", socket.display()),
        None if options.get_host().starts_with('/') => {
            format!("unix socket in {}", options.get_host())
        }
        None => format!("{}:{}", options.get_host(), options.get_port()),
    };
    format!(
        "database {} as {} on {}",
        options.get_database().unwrap_or("(default)"),
        options.get_username(),
        place
    )
}

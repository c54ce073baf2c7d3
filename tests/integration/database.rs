//! The database plumbing against a real PostgreSQL: the managed local server, opening the
//! database, outages, migrations and scratch databases.

use std::path::Path;
use std::time::Duration;

use crate::common::TempDir;
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;
use sqlx::{Connection, PgConnection};
use thudbot::postgres::{Binaries, Durability, LocalServer, LocalServerError};
use thudbot::store::{Database, DatabaseConfig, OpenError, ScratchDatabase, MIGRATOR};

async fn connect(server: &LocalServer, database: &str) -> Result<PgConnection, sqlx::Error> {
    PgConnection::connect_with(&server.connect_options(database)).await
}

async fn setting(connection: &mut PgConnection, name: &str) -> String {
    sqlx::query_scalar("SELECT current_setting($1)")
        .bind(name)
        .fetch_one(connection)
        .await
        .expect("settings can be read")
}

fn wait_until_stopped(server: &LocalServer) {
    for _ in 0..500 {
        if !server.is_running() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("the server process did not end");
}

#[test]
fn without_postgresql_binaries_the_error_says_what_to_install() {
    let error = Binaries::find_in(
        Some(std::ffi::OsStr::new("")),
        Path::new("/nonexistent/postgresql"),
        None,
    )
    .expect_err("nothing to find");
    assert!(matches!(error, LocalServerError::NoBinaries));
    let message = error.to_string();
    assert!(message.contains("apt-get install postgresql"), "{message}");
    assert!(message.contains("DATABASE_URL"), "{message}");
}

#[tokio::test]
async fn managed_server_is_created_started_reused_and_stopped() {
    let data = TempDir::new("managed");
    let cluster = data.path().join("postgres");

    let mut server = LocalServer::open(&cluster, Durability::Durable).expect("server starts");
    assert!(
        cluster.join("PG_VERSION").is_file(),
        "a cluster was created"
    );
    assert!(server.is_running());
    let first_pid = server.pid().expect("running");

    let mut connection = connect(&server, "postgres").await.expect("connects");
    assert_eq!(setting(&mut connection, "listen_addresses").await, "");
    assert_eq!(
        Path::new(&setting(&mut connection, "data_directory").await),
        std::fs::canonicalize(&cluster).expect("cluster exists")
    );
    sqlx::raw_sql("CREATE TABLE dwarfs (name text); INSERT INTO dwarfs VALUES ('Grabpot')")
        .execute(&mut connection)
        .await
        .expect("writes");
    connection.close().await.expect("closes");

    server.stop().expect("stops");
    assert!(!server.is_running());
    assert!(server.pid().is_none());
    assert!(
        !cluster.join("postmaster.pid").exists(),
        "a clean stop leaves no lock file"
    );
    assert!(
        connect(&server, "postgres").await.is_err(),
        "nothing answers once stopped"
    );
    drop(server);

    let server = LocalServer::open(&cluster, Durability::Durable).expect("starts again");
    assert_ne!(server.pid(), Some(first_pid));
    let mut connection = connect(&server, "postgres").await.expect("connects");
    let names: Vec<String> = sqlx::query_scalar("SELECT name FROM dwarfs")
        .fetch_all(&mut connection)
        .await
        .expect("the earlier data is still there");
    assert_eq!(names, ["Grabpot"]);
    connection.close().await.expect("closes");

    drop(server);
    assert!(
        !cluster.join("postmaster.pid").exists(),
        "dropping the handle stops the server"
    );
}

#[tokio::test]
async fn a_second_server_on_the_same_cluster_is_refused() {
    let data = TempDir::new("twice");
    let cluster = data.path().join("postgres");
    let server = LocalServer::open(&cluster, Durability::Throwaway).expect("server starts");
    let error = LocalServer::open(&cluster, Durability::Throwaway).expect_err("one at a time");
    assert!(
        matches!(error, LocalServerError::AlreadyRunning { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("already running"), "{error}");
    assert!(server.is_running(), "the first server is untouched");
    let connection = connect(&server, "postgres").await.expect("still answers");
    connection.close().await.expect("closes");
}

#[tokio::test]
async fn a_crashed_server_and_a_recycled_pid_do_not_block_the_next_start() {
    let data = TempDir::new("crash");
    let cluster = data.path().join("postgres");

    let crashed = LocalServer::open(&cluster, Durability::Throwaway).expect("server starts");
    let pid = crashed.pid().expect("running");
    kill(Pid::from_raw(pid as i32), Signal::SIGKILL).expect("the server can be killed");
    wait_until_stopped(&crashed);
    drop(crashed);
    assert!(
        cluster.join("postmaster.pid").exists(),
        "a killed server leaves its lock file behind"
    );

    let mut server =
        LocalServer::open(&cluster, Durability::Throwaway).expect("starts after a crash");
    let connection = connect(&server, "postgres").await.expect("connects");
    connection.close().await.expect("closes");
    server.stop().expect("stops");

    // After a reboot the pid in a stale lock file often belongs to some other live process,
    // which PostgreSQL alone takes for a running server.
    let mut stranger = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .expect("sleep runs");
    let canonical = std::fs::canonicalize(&cluster).expect("cluster exists");
    std::fs::write(
        cluster.join("postmaster.pid"),
        format!(
            "{}\n{}\n1700000000\n5432\n.\n\n  5432001         0\nready   \n",
            stranger.id(),
            canonical.display()
        ),
    )
    .expect("lock file written");
    let started = server.start();
    let _ = stranger.kill();
    let _ = stranger.wait();
    started.expect("starts despite a lock file naming another process");
    let connection = connect(&server, "postgres").await.expect("connects");
    connection.close().await.expect("closes");
}

#[tokio::test]
async fn a_data_directory_too_deep_for_a_socket_path_still_works() {
    let data = TempDir::new("deep");
    let deep = data
        .path()
        .join("a-data-directory-with-a-rather-long-name-to-push-the-socket-path")
        .join("past-the-hundred-and-seven-bytes-a-unix-socket-address-can-hold");
    let cluster = deep.join("postgres");
    assert!(cluster.join(".s.PGSQL.5432").as_os_str().len() > 107);

    let server = LocalServer::open(&cluster, Durability::Throwaway).expect("server starts");
    let mut connection = connect(&server, "postgres").await.expect("connects");
    let one: i32 = sqlx::query_scalar("SELECT 1")
        .fetch_one(&mut connection)
        .await
        .expect("answers");
    assert_eq!(one, 1);
    connection.close().await.expect("closes");
}

#[tokio::test]
async fn a_directory_that_is_not_a_cluster_is_left_alone() {
    let data = TempDir::new("occupied");
    let cluster = data.path().join("postgres");
    std::fs::create_dir_all(&cluster).expect("dir");
    std::fs::write(cluster.join("notes.txt"), "keep me").expect("file");
    let error = LocalServer::open(&cluster, Durability::Throwaway).expect_err("not a cluster");
    assert!(
        matches!(error, LocalServerError::NotACluster { .. }),
        "{error}"
    );
    assert_eq!(
        std::fs::read_to_string(cluster.join("notes.txt")).expect("still there"),
        "keep me"
    );
}

#[tokio::test]
async fn the_pool_survives_the_managed_server_stopping_and_restarting() {
    let data = TempDir::new("outage");
    let mut config = DatabaseConfig::new(data.path());
    config.acquire_timeout = Duration::from_secs(2);
    let mut database = Database::open(&config).await.expect("opens");
    let name: String = sqlx::query_scalar("SELECT current_database()")
        .fetch_one(database.pool())
        .await
        .expect("answers");
    assert_eq!(name, "thudbot");
    // Several connections in the pool, all of which the outage will break.
    let pool = database.pool().clone();
    let slow = || sqlx::query("SELECT pg_sleep(0.05)").execute(&pool);
    let (a, b, c) = tokio::join!(slow(), slow(), slow());
    assert!(a.is_ok() && b.is_ok() && c.is_ok());

    let server = database.local_server().expect("a managed server");
    server.stop().expect("stops");
    for _ in 0..3 {
        let during = tokio::time::timeout(
            Duration::from_secs(30),
            sqlx::query_scalar::<_, i32>("SELECT 1").fetch_one(&pool),
        )
        .await
        .expect("a command during the outage returns instead of hanging");
        assert!(during.is_err(), "no database, no answer");
    }

    database
        .local_server()
        .expect("a managed server")
        .start()
        .expect("starts again");
    let after: Vec<i32> = sqlx::query_scalar("SELECT generate_series(1, 3)")
        .fetch_all(&pool)
        .await
        .expect("the same pool works again");
    assert_eq!(after, [1, 2, 3]);
    let (a, b, c) = tokio::join!(slow(), slow(), slow());
    assert!(
        a.is_ok() && b.is_ok() && c.is_ok(),
        "every connection recovered"
    );
    database.close().await;
    assert!(!data.path().join("postgres/postmaster.pid").exists());
}

/// Log output gathered for a test to read.
#[derive(Clone, Default)]
struct Log(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Log {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Log {
    fn text(&self) -> String {
        let bytes = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

#[tokio::test]
async fn an_unreachable_database_is_retried_then_reported() {
    let log = Log::default();
    let writer = log.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .finish();
    // The test runs on this thread alone, so a thread-local subscriber sees all it logs.
    let _logging = tracing::subscriber::set_default(subscriber);
    let data = TempDir::new("unreachable");
    let mut config = DatabaseConfig::new(data.path());
    // Port 1 on loopback: nothing listens, every attempt is refused.
    config.url = Some("postgres://thudbot:hunter2@127.0.0.1:1/thudbot".into());
    config.startup_timeout = Duration::from_secs(2);
    config.acquire_timeout = Duration::from_secs(1);
    let error = Database::open(&config).await.expect_err("nothing to reach");
    let OpenError::Unreachable { attempts, .. } = &error else {
        panic!("expected an unreachable database, got: {error}");
    };
    assert!(*attempts >= 2, "retried: {attempts} attempts");
    let message = error.to_string();
    assert!(message.contains("could not reach"), "{message}");
    assert!(message.contains("127.0.0.1:1"), "{message}");
    assert!(!message.contains("hunter2"), "no password in messages");
    assert!(!data.path().join("postgres").exists(), "no managed server");

    let log = log.text();
    let retries = log.matches("database not reachable yet; retrying").count();
    assert_eq!(
        retries as u32,
        attempts - 1,
        "one line per failed attempt:\n{log}"
    );
    assert!(log.contains("WARN"), "{log}");
    assert!(
        log.contains("127.0.0.1:1"),
        "the log says which database:\n{log}"
    );
    assert!(log.contains("giving up on reaching the database"), "{log}");
    assert!(!log.contains("hunter2"), "no password in the log");
}

#[tokio::test]
async fn a_database_that_does_not_exist_is_reported_at_once() {
    let scratch = ScratchDatabase::create_empty().await.expect("scratch");
    let mut options = scratch.connect_options();
    options = options.database("thudbot_no_such_database");
    let mut config = DatabaseConfig::new("/nonexistent");
    config.url = Some(sqlx::ConnectOptions::to_url_lossy(&options).to_string());
    let error = Database::open(&config).await.expect_err("no such database");
    assert!(matches!(error, OpenError::Refused { .. }), "{error}");
    assert!(error.to_string().contains("does not exist"), "{error}");
}

#[tokio::test]
async fn migrations_apply_to_an_empty_database_and_again_change_nothing() {
    let scratch = ScratchDatabase::create_empty().await.expect("scratch");
    let migrations_table: Option<String> =
        sqlx::query_scalar("SELECT to_regclass('_sqlx_migrations')::text")
            .fetch_one(scratch.pool())
            .await
            .expect("answers");
    assert_eq!(migrations_table, None, "the database starts empty");

    let mut config = DatabaseConfig::new("/nonexistent");
    config.url = Some(scratch.url());
    let applied = || async {
        sqlx::query_as::<_, (i64, bool, Vec<u8>, chrono::DateTime<chrono::Utc>)>(
            "SELECT version, success, checksum, installed_on \
             FROM _sqlx_migrations ORDER BY version",
        )
        .fetch_all(scratch.pool())
        .await
        .expect("the migrations are recorded")
    };

    Database::open(&config).await.expect("opens").close().await;
    let first = applied().await;
    let embedded: Vec<(i64, Vec<u8>)> = MIGRATOR
        .iter()
        .filter(|m| !m.migration_type.is_down_migration())
        .map(|m| (m.version, m.checksum.to_vec()))
        .collect();
    let recorded: Vec<(i64, Vec<u8>)> = first
        .iter()
        .map(|(version, _, checksum, _)| (*version, checksum.clone()))
        .collect();
    assert_eq!(recorded, embedded, "every embedded migration was applied");
    assert!(first.iter().all(|(_, success, _, _)| *success));

    Database::open(&config)
        .await
        .expect("opens again")
        .close()
        .await;
    assert_eq!(applied().await, first, "a second start applies nothing");
}

#[tokio::test]
async fn scratch_databases_are_isolated_and_dropped() {
    let scratches = futures_util::future::join_all((0..6).map(|_| ScratchDatabase::create())).await;
    let scratches: Vec<ScratchDatabase> =
        scratches.into_iter().map(|s| s.expect("scratch")).collect();
    let mut names: Vec<&str> = scratches.iter().map(ScratchDatabase::name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), 6, "every database has its own name");

    futures_util::future::join_all(scratches.iter().map(|scratch| async move {
        sqlx::query("CREATE TABLE trolls (name text)")
            .execute(scratch.pool())
            .await
            .expect("creates");
        sqlx::query("INSERT INTO trolls VALUES ($1)")
            .bind(scratch.name())
            .execute(scratch.pool())
            .await
            .expect("inserts");
    }))
    .await;
    for scratch in &scratches {
        let rows: Vec<String> = sqlx::query_scalar("SELECT name FROM trolls")
            .fetch_all(scratch.pool())
            .await
            .expect("reads");
        assert_eq!(rows, [scratch.name()], "each sees only its own rows");
    }

    let mut scratches = scratches;
    let keeper = scratches.pop().expect("six of them");
    let dropped: Vec<String> = scratches.iter().map(|s| s.name().to_string()).collect();
    drop(scratches);
    let left: i64 = sqlx::query_scalar("SELECT count(*) FROM pg_database WHERE datname = ANY($1)")
        .bind(&dropped)
        .fetch_one(keeper.pool())
        .await
        .expect("answers");
    assert_eq!(left, 0, "dropped handles take their databases with them");
    let kept: i64 = sqlx::query_scalar("SELECT count(*) FROM pg_database WHERE datname = $1")
        .bind(keeper.name())
        .fetch_one(keeper.pool())
        .await
        .expect("answers");
    assert_eq!(kept, 1);
}

#[tokio::test]
async fn a_database_url_from_the_environment_wins_over_the_managed_server() {
    let scratch = ScratchDatabase::create().await.expect("scratch");
    let data = TempDir::new("environment");
    let url = scratch.url();
    let environment = |name: &str| (name == "DATABASE_URL").then(|| url.clone());

    let mut config = DatabaseConfig::new(data.path());
    config.url = Some("postgres://thudbot@config-file.invalid/thudbot".into());
    let config = config.with_environment_from(environment);
    let database = Database::open(&config).await.expect("opens");
    let name: String = sqlx::query_scalar("SELECT current_database()")
        .fetch_one(database.pool())
        .await
        .expect("answers");
    assert_eq!(
        name,
        scratch.name(),
        "the environment's database was opened"
    );
    database.close().await;
    assert!(
        !data.path().join("postgres").exists(),
        "no managed server was created"
    );

    let unset = DatabaseConfig::new(data.path()).with_environment_from(|_| None);
    assert_eq!(unset.url, None, "without it, the managed server is used");
    let empty = DatabaseConfig::new(data.path()).with_environment_from(|_| Some(String::new()));
    assert_eq!(empty.url, None, "an empty DATABASE_URL counts as unset");
}

#[tokio::test]
async fn a_data_directory_the_server_cannot_reach_is_refused_before_anything_is_made() {
    use std::os::unix::fs::PermissionsExt;
    // As `mktemp -d` makes it: a folder only its owner may enter.
    let data = TempDir::new("private");
    let private = data.path().join("private");
    std::fs::create_dir(&private).expect("dir");
    std::fs::set_permissions(&private, std::fs::Permissions::from_mode(0o700)).expect("chmod");
    let cluster = private.join("data").join("postgres");
    let opened = LocalServer::open(&cluster, Durability::Throwaway);
    if nix::unistd::Uid::effective().is_root() {
        // Run as root, the server runs as `postgres`, who cannot enter it: said up front.
        let error = opened.expect_err("postgres cannot enter the folder");
        assert!(
            matches!(&error, LocalServerError::Inaccessible { blocked, .. } if *blocked == private),
            "{error}"
        );
        assert!(!private.join("data").exists(), "an empty data/ was left");
    } else {
        // Run as its owner, the server runs as that owner, who can.
        let server = opened.expect("the owner's own folder works");
        assert!(server.is_running());
    }
}

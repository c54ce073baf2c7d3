//! Shared pieces of the integration tests.
// Each test binary that includes this module (tests/integration, tests/discord) uses a part of it.
#![allow(dead_code, unused_macros, unused_imports)]

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use thudbot::render::Renderer;
use thudbot::service::{
    Actor, ManualClock, Place, Refusal, Reply, Service, ServiceConfig, ServiceError,
};
use thudbot::store::{ChannelId, GuildId, ScratchDatabase, Store, UserId};

/// A service over a fresh scratch database, with a clock the test sets. The database is
/// dropped with it.
pub struct TestService {
    pub service: Service,
    pub clock: Arc<ManualClock>,
    pub db: ScratchDatabase,
}

impl Deref for TestService {
    type Target = Service;
    fn deref(&self) -> &Service {
        &self.service
    }
}

/// One renderer for the whole test process: preparing one paints every theme's tiles, which
/// takes seconds in a debug build, and it never changes once made.
pub fn renderer() -> Arc<Renderer> {
    static RENDERER: std::sync::OnceLock<Arc<Renderer>> = std::sync::OnceLock::new();
    RENDERER.get_or_init(|| Arc::new(Renderer::new())).clone()
}

/// The time every test starts at.
pub fn start_time() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap()
}

pub async fn service_with(config: ServiceConfig) -> TestService {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let clock = Arc::new(ManualClock::new(start_time()));
    let service = Service::new(
        Store::new(db.pool().clone()),
        renderer(),
        clock.clone(),
        config,
    );
    TestService { service, clock, db }
}

/// Takes every notice due from the outbox and marks it delivered, as a delivery worker that
/// always succeeds would; returns them in order.
pub async fn deliver_all(service: &Service) -> Vec<thudbot::service::Delivery> {
    let mut all = Vec::new();
    loop {
        let batch = service
            .outbox()
            .claim_deliveries(100)
            .await
            .expect("the outbox");
        if batch.is_empty() {
            return all;
        }
        for d in &batch {
            service.outbox().delivered(d).await.expect("recorded");
        }
        all.extend(batch);
    }
}

pub async fn service() -> TestService {
    service_with(ServiceConfig::default()).await
}

pub fn alice() -> Actor {
    Actor::new(UserId(1001), "alice")
}

pub fn bob() -> Actor {
    Actor::new(UserId(1002), "bob")
}

pub fn carol() -> Actor {
    Actor::new(UserId(1003), "carol")
}

pub const GUILD: GuildId = GuildId(77);

pub fn place(channel: u64) -> Place {
    Place {
        guild: GUILD,
        channel: ChannelId(channel),
    }
}

/// A directory under the system temp dir (reachable by the database server's OS user), removed
/// when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// Creates a fresh, uniquely named directory, first removing those of test processes that
    /// were killed before they could clean up.
    pub fn new(label: &str) -> TempDir {
        sweep();
        let path = std::env::temp_dir().join(format!(
            "thudbot-{label}-{}-{:08x}",
            std::process::id(),
            rand::random::<u32>()
        ));
        std::fs::create_dir_all(&path).expect("the temp dir is writable");
        TempDir(path)
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Removes `thudbot-<label>-<pid>-<hex>` directories whose process is gone.
fn sweep() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            continue;
        };
        if !name.starts_with("thudbot-") || name.starts_with("thudbot-test-postgres") {
            continue;
        }
        let mut parts = name.rsplit('-');
        let (Some(_), Some(pid)) = (parts.next(), parts.next()) else {
            continue;
        };
        let Ok(pid) = pid.parse::<u32>() else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// The reply of a service call that must succeed.
pub fn ok(result: Result<Reply, ServiceError>) -> Reply {
    result.unwrap_or_else(|e| panic!("expected success, got {e:?}"))
}

/// The sentence of a service call that must be refused.
pub fn refusal(result: Result<Reply, ServiceError>) -> Refusal {
    match result {
        Err(ServiceError::Refused(refusal)) => refusal,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Asserts that one of `events` matches the pattern (and its guard), showing them all if none
/// does: what happened, whatever the words.
macro_rules! assert_event {
    ($events:expr, $pattern:pat $(if $guard:expr)? $(,)?) => {{
        let events: &[thudbot::service::Event] = &$events;
        assert!(
            events.iter().any(|e| matches!(e, $pattern $(if $guard)?)),
            "no {} in {events:#?}",
            stringify!($pattern)
        );
    }};
}
pub(crate) use assert_event;

/// Asserts that none of `events` matches the pattern (and its guard).
macro_rules! assert_no_event {
    ($events:expr, $pattern:pat $(if $guard:expr)? $(,)?) => {{
        let events: &[thudbot::service::Event] = &$events;
        assert!(
            !events.iter().any(|e| matches!(e, $pattern $(if $guard)?)),
            "unexpected {} in {events:#?}",
            stringify!($pattern)
        );
    }};
}
pub(crate) use assert_no_event;

/// The player who won match `result` of `players`, `None` for a draw.
pub fn match_winner(players: &[UserId; 2], result: &thudbot::game::MatchResult) -> Option<UserId> {
    result.winner.map(|seat| match seat {
        thudbot::game::Seat::First => players[0],
        thudbot::game::Seat::Second => players[1],
    })
}

//! Shared set-up for tests that need a database and a service.
#![allow(dead_code)]

use std::sync::Arc;

use chrono::{DateTime, TimeZone, Utc};
use sqlx::postgres::PgPoolOptions;
use thudbot::render::Renderer;
use thudbot::service::{Actor, ManualClock, Place, Service, ServiceConfig};
use thudbot::store::{ChannelId, GuildId, Store, UserId, MIGRATIONS};

/// A fresh, migrated database of its own for one test.
pub async fn store() -> Store {
    let base = std::env::var("DATABASE_URL").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into());
    let admin = PgPoolOptions::new().max_connections(1).connect(&base).await.unwrap();
    let name = format!("thud_t_{}", rand::random::<u64>());
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&admin).await.unwrap();
    let url = match base.rfind('/') {
        Some(i) => format!("{}/{name}", &base[..i]),
        None => unreachable!(),
    };
    let pool = PgPoolOptions::new().max_connections(8).connect(&url).await.unwrap();
    MIGRATIONS.run(&pool).await.unwrap();
    Store::new(pool)
}

/// The time every test starts at.
pub fn start_time() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap()
}

/// A service over a fresh database with a clock the test sets.
pub async fn service_with(config: ServiceConfig) -> (Service, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(start_time()));
    let service = Service::new(store().await, Arc::new(Renderer::new()), clock.clone(), config);
    (service, clock)
}

pub async fn service() -> (Service, Arc<ManualClock>) {
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

//! Shared harness for the integration tests. Each test crate uses a different part of it.
#![allow(dead_code, unused_imports)]

pub mod bot;
pub mod fake_discord;
pub mod probe;

//! The bot end to end through the real serenity client against a fake Discord on loopback,
//! and the fake itself held to Discord's documentation and OpenAPI description. A test binary
//! of its own beside tests/integration, so the two compile side by side. Shared harnesses:
//! `common` (tests/integration's: a service over a scratch database), `support` (the fake
//! Discord and the bot on it).

#[path = "../integration/common/mod.rs"]
mod common;
mod support;

mod discord;
mod discord_analysis;
mod discord_announcement;
mod discord_away;
mod discord_computer;
mod discord_delivery;
mod discord_notify;
mod discord_permissions;
mod discord_plans;
mod discord_rate_limits;
mod discord_rooms;
mod discord_servers;
mod discord_threads;
mod discord_tournament;
mod fake_discord_channels;
mod fake_discord_failures;
mod fake_discord_payloads;
mod fake_discord_poise;
mod fake_discord_rules;
mod fake_discord_spec;

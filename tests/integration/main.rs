//! The integration tests, in one test binary so that the suite links once: each module is
//! what was a test file of its own (the rules by group, the store, the service, the fake
//! Discord and the bot end to end through serenity, the console, the computer, pictures).
//! Shared harnesses: `common` (a service over a scratch database), `support` (the fake Discord
//! and the bot on it), `rules_support` (positions written as RULES.md writes them).

mod common;
mod rules_support;
mod support;

mod after_a_match;
mod agreement;
mod analysis;
mod classic_brute;
mod computer;
mod computer_matches;
mod console;
mod console_analysis;
mod database;
mod delivery;
mod discord;
mod discord_analysis;
mod discord_announcement;
mod discord_away;
mod discord_computer;
mod discord_delivery;
mod discord_notify;
mod discord_permissions;
mod discord_rate_limits;
mod discord_servers;
mod discord_threads;
mod discord_tournament;
mod examples;
mod fake_discord_channels;
mod fake_discord_failures;
mod fake_discord_payloads;
mod fake_discord_poise;
mod fake_discord_rules;
mod fake_discord_spec;
mod games_list;
mod koom_valley_brute;
mod option_names;
mod outbox_events;
mod perft;
mod properties;
mod reminders;
mod render;
mod results_said;
mod rules_battles_and_matches;
mod rules_board;
mod rules_dwarfs_and_trolls;
mod rules_koom_valley;
mod rules_notation;
mod service;
mod service_days;
mod service_refusals;
mod service_rooms;
mod service_variants;
mod store;
mod tournament_people;
mod tournament_results;
mod tournaments;
mod vacation;
mod what_players_read;

//! The bot's integration tests but the Discord ones (tests/discord): the store, the service,
//! the console, the computer in matches, pictures, the command line. Each module is what was a
//! test file of its own, in one binary so that they link once. Shared harness: `common` (a
//! service over a scratch database). The rules' tests are the engine's
//! (crates/engine/tests/rules).

mod common;
#[path = "../../crates/engine/tests/rules/strategies.rs"]
mod strategies;

mod after_a_match;
mod agreement;
mod analysis;
mod computer;
mod computer_matches;
mod console;
mod console_analysis;
mod courier;
mod database;
mod delivery;
mod examples;
mod games_list;
mod house;
mod option_names;
mod outbox_events;
mod perft_cli;
mod plans;
mod reminders;
mod render;
mod results_said;
mod service;
mod service_days;
mod service_refusals;
mod service_rooms;
mod service_variants;
mod store;
mod tournament_news;
mod tournament_people;
mod tournament_results;
mod tournament_seating;
mod tournaments;
mod vacation;
mod what_players_read;

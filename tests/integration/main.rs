//! The integration tests but the Discord ones (tests/discord): the rules by group, the store,
//! the service, the console, the computer, pictures. Each module is what was a test file of
//! its own, in one binary so that they link once. Shared harnesses: `common` (a service over a
//! scratch database), `rules_support` (positions written as RULES.md writes them).

mod common;
mod rules_support;

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
mod examples;
mod games_list;
mod house;
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
mod tournament_news;
mod tournament_people;
mod tournament_results;
mod tournaments;
mod vacation;
mod what_players_read;

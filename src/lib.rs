//! thudbot: correspondence games of Thud on Discord.

pub mod computer;
pub mod config;
pub mod console;
pub mod discord;
pub mod game;
pub(crate) mod input;
pub mod postgres;
pub mod render;
pub mod service;
pub mod store;
pub mod tournament;

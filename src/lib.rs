//! thudbot: correspondence games of Thud on Discord. This crate is the bot: the service (every
//! rule of a match's flow), the store, and the front-ends (Discord and the console). The rules,
//! the computer player and tournament pairing are the `thud-engine` crate, the pictures the
//! `thud-render` crate; they are named here under the paths the bot has always used.

pub(crate) use thud_engine::input;
pub use thud_engine::{computer, game, tournament};
pub use thud_render as render;

pub mod config;
pub mod console;
pub mod discord;
pub mod postgres;
pub mod service;
pub mod store;

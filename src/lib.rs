//! thudbot: correspondence games of Thud on Discord.

pub mod game;
pub mod render;

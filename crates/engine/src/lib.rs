//! Thud without I/O: the rules of the three variants, the computer player, and tournament
//! pairing and scoring. Nothing here names the bot, its database or Discord; the bot crate
//! and the lab binaries build on it.

pub mod computer;
pub mod game;
pub mod input;
pub mod tournament;

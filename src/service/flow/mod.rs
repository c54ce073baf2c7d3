//! The match flow: challenges and their answers, moves, ends by agreement, resignation and
//! claims, the computer's turns, rematches, and the rooms (threads) matches are played in.

pub(super) mod agreement;
pub(super) mod board;
pub(super) mod challenges;
pub(super) mod computer;
pub(super) mod forfeits;
pub(super) mod play;
pub(super) mod rematch;
pub(super) mod room;
pub(super) mod suggestions;

//! People and ladders: ratings and leaderboards, vacations, and each player's settings.

pub(super) mod ladder;
pub(super) mod settings;
pub(super) mod vacation;

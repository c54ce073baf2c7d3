//! Records of matches: game records and replays, and the analysis of finished matches.

pub(super) mod analysis;
pub(super) mod replays;

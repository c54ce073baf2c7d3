//! Tournaments as pure values: round-robin schedules, Swiss pairings, scores and tie-breaks.
//!
//! Players are numbered by their seed (0 is the first to join); nothing here knows of
//! Discord, SQL or the clock. The service stores tournaments and turns pairings into matches.

mod format;
mod matching;
mod pairing;
mod round_robin;
mod score;
mod standings;
mod swiss;

pub use format::{Format, FormatError, MAX_ROUND_ROBIN, MAX_SWISS, MIN_PLAYERS};
pub use matching::{maximum_weight_matching, Edge};
pub use pairing::Pairing;
pub use round_robin::{round_robin, round_robin_rounds};
pub use score::{HalfPoints, MatchOutcome, QuarterPoints};
pub use standings::{Cell, Game, Standing, Standings, TieBreaks};
pub use swiss::MAX_SWISS_ROUNDS;
pub use swiss::{default_swiss_rounds, pair_swiss, Contender, Unpairable};

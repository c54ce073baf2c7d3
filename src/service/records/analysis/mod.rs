//! Analysis of finished matches: a player asks for it, the engine judges every position of
//! both battles in the background, and the report shows where the match turned.
//!
//! - `request`: asking for an analysis (refused while the match is in play, so nobody can
//!   consult the engine during a match) and where it stands.
//! - `work`: the worker's rounds: claim an analysis through the store (never two processes on
//!   one match), judge its positions one at a time on a blocking thread under the computer's
//!   search permit (one core at most), save each judgement at once (a restart resumes there).
//! - `report`: the finished report: the evaluation graph, each player's largest mistakes with
//!   the better move, and a line per player and battle, all as text too.

mod report;
mod request;
mod work;

pub use request::{progress_text, AnalysisAnswer};

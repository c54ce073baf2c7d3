//! The front-ends' door: one trait per concern, each command forwarded to the concern that
//! owns it (and a match command's answer worded once its change is saved), so a front-end
//! holds one `Service` and needs no knowledge of how the work is divided. `use
//! thudbot::service::commands::*` brings them all.

pub(super) use delegate::delegate;

pub(super) use super::*;
pub(super) use crate::game::Variant;
pub(super) use crate::render::Theme;
pub(super) use crate::service::flow::told::Told;
pub(super) use crate::service::flow::Matches;
pub(super) use crate::service::notices::trouble::Channels;
pub(super) use crate::service::notices::Outbox;
pub(super) use crate::service::people::Ladder;
pub(super) use crate::service::people::People;
pub(super) use crate::service::records::analysis::Analysis;
pub(super) use crate::service::records::Records;
pub(super) use crate::service::tournaments::Tournaments;
pub(super) use crate::store::{
    AnalysisStatus, BoardStyle, Challenge, ChallengeId, MatchId, Notify, TournamentId,
};

mod analysis;
mod channels;
mod ladder;
mod matches;
mod outbox;
mod people;
mod records;
mod tournaments;

pub use analysis::AnalysisCommands;
pub use channels::ChannelCommands;
pub use ladder::LadderCommands;
pub use matches::MatchCommands;
pub use outbox::OutboxCommands;
pub use people::PeopleCommands;
pub use records::RecordCommands;
pub use tournaments::TournamentCommands;

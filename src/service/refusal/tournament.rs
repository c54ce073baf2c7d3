//! Why a tournament command was refused, with the sentence the player reads.

use crate::service::text::Text;
use crate::tournament::FormatError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentRefusal {
    /// Creating, starting and cancelling need Manage Server or the organisers' role (named
    /// when the server set one).
    NotOrganiser {
        role: Option<String>,
    },
    /// Naming the organisers' role needs Manage Server.
    NotServerManager,
    /// No tournament is open or running in this channel.
    NoTournamentHere,
    /// This channel already has a tournament open or running.
    ChannelHasOne,
    AlreadyJoined,
    NotJoined,
    /// Joining or leaving after the start.
    AlreadyStarted,
    /// Withdrawing before the start: leave instead.
    NotStarted,
    AlreadyWithdrawn,
    /// Bots cannot play in tournaments.
    BotCannotJoin,
    /// The name is empty or too long.
    BadName,
    BadDays(u32),
    BadRoundFactor(u32),
    /// The start time is in the past.
    StartsInThePast,
    /// The format does not fit the players (too few, too many, rounds).
    Format(FormatError),
    /// The bot runs without match threads, and a tournament's games need one each.
    NeedsThreads,
}

impl TournamentRefusal {
    pub fn text(&self) -> Text {
        use TournamentRefusal::*;
        match self {
            NotOrganiser { role: None } => "Only an organiser (a member with the Manage Server permission) can do that.".into(),
            NotOrganiser { role: Some(role) } => format!("Only an organiser (a member with the Manage Server permission or the {role} role) can do that.").into(),
            NotServerManager => "Only a member with the Manage Server permission can choose the organisers' role.".into(),
            NoTournamentHere => Text::prose("There is no tournament open or running in this channel. An organiser starts one with `/thud-admin tournament create`."),
            ChannelHasOne => Text::prose("This channel already has a tournament open or running; finish or cancel it first, or use another channel."),
            AlreadyJoined => "You are already in this tournament.".into(),
            NotJoined => "You are not in this tournament.".into(),
            AlreadyStarted => "This tournament has started; players can no longer join or leave it. A player in it can withdraw.".into(),
            NotStarted => Text::prose("This tournament has not started; use `/thud tournament leave` to leave it."),
            AlreadyWithdrawn => "You have already withdrawn from this tournament.".into(),
            BotCannotJoin => "Bots cannot play in tournaments.".into(),
            BadName => "A tournament needs a name of 1 to 60 characters.".into(),
            BadDays(d) => format!("{d} days a move is not offered; choose 1, 2, 3, 5, 7, 10 or 14.").into(),
            BadRoundFactor(f) => format!("A round lasts 1 to 50 times the days a move, not {f}.").into(),
            StartsInThePast => "The start time has passed; choose a later one, or start it by hand.".into(),
            Format(e) => format!("{}.", first_upper(&e.to_string())).into(),
            NeedsThreads => Text::prose("Tournaments need match threads, which this bot has turned off (`threads = false`); ask its operator."),
        }
    }
}

fn first_upper(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

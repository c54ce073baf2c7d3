//! Why a tournament command was refused, with the sentence the player reads.

use crate::service::text::Text;
use crate::store::MatchId;
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
    /// Starting a tournament already running.
    AlreadyRunning,
    /// The tournament has as many players as its format takes.
    Full {
        most: usize,
    },
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
    /// The tournament's games could never be seated in this channel: `why`, and what to do.
    CannotSeatGames {
        why: String,
    },
    /// A correction names a match that is not a game of this tournament.
    NotAGameHere(MatchId),
    /// A correction names a winner who did not play the game.
    NotAPlayerOfTheGame(MatchId),
    /// A correction names a game still being played.
    GameUndecided(MatchId),
    /// A late entry is for a Swiss (a round robin's schedule is fixed at its start).
    LateEntryOnlySwiss,
    /// The organiser adds a player who is in the tournament already.
    AlreadyIn,
    /// Reinstating a player who is not withdrawn from it.
    NotWithdrawn,
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
            AlreadyRunning => Text::prose("This tournament is already running; `/thud tournament standings` shows where it stands."),
            Full { most } => format!("This tournament is full: it takes at most {most} players.").into(),
            NotStarted => Text::prose("This tournament has not started; use `/thud tournament leave` to leave it."),
            AlreadyWithdrawn => "You have already withdrawn from this tournament.".into(),
            BotCannotJoin => "Bots cannot play in tournaments.".into(),
            BadName => "A tournament needs a name of 1 to 60 characters.".into(),
            BadDays(d) => format!("{d} days a move is not offered; choose 1, 2, 3, 5, 7, 10 or 14.").into(),
            BadRoundFactor(f) => format!("A round lasts 1 to 50 times the days a move, not {f}.").into(),
            StartsInThePast => "The start time has passed; choose a later one, or start it by hand.".into(),
            Format(e) => format!("{}.", first_upper(&e.to_string())).into(),
            CannotSeatGames { why } => format!("A tournament cannot run here: {why}.").into(),
            NotAGameHere(id) => format!("Match #{id} is not a game of this tournament.").into(),
            NotAPlayerOfTheGame(id) => format!("The winner must be one of the two players of match #{id}, or leave the winner out for a draw.").into(),
            GameUndecided(id) => format!("Match #{id} is still being played; its result counts the moment it ends, and can be corrected after that.").into(),
            LateEntryOnlySwiss => "Late entries are for a Swiss; a round robin's schedule is fixed when it starts.".into(),
            AlreadyIn => "That player is in this tournament already (reinstate them if they withdrew).".into(),
            NotWithdrawn => "That player is not withdrawn from this tournament.".into(),
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

//! Why a tournament command was refused (worded in `voice/refusals.rs`).

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
    /// A late entry before the start: players join by themselves until then.
    LateEntryBeforeStart,
    /// Correcting a result or reinstating a player before the start: there is none yet.
    NotRunningYet,
    AlreadyWithdrawn,
    /// Bots cannot play in tournaments.
    BotCannotJoin,
    /// The name is empty or too long.
    BadName,
    BadDays(u32),
    BadRoundFactor(i64),
    /// The start time is in the past.
    StartsInThePast,
    /// The format does not fit the players (too few, too many, rounds).
    Format(FormatError),
    /// The bot runs without match threads, and a tournament's games need one each.
    NeedsThreads,
    /// The tournament's games could never be seated in this channel.
    CannotSeatGames(Unseatable),
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
    /// A page of the standings before their first or past their last.
    NoSuchStandingsPage {
        name: String,
        pages: u32,
        page: i64,
    },
}

/// Why no game of a tournament could be seated in a channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unseatable {
    /// A thread or forum post: its games' threads cannot be opened inside it.
    InAThread,
    /// An announcement channel, whose threads are announcement threads.
    Announcements,
    /// Not a text channel at all.
    NotText,
    /// The bot lacks these permissions (named as Discord names them) in the channel.
    Missing(Vec<String>),
}

//! Why the service refused what a player asked: one variant per reason, so callers and tests
//! tell refusals apart by kind; the voice words each (`voice/refusals.rs`). A refusal changes
//! nothing.

use std::fmt;

use chrono::{DateTime, Utc};

mod tournament;
pub use tournament::{TournamentRefusal, Unseatable};

use crate::store::MatchId;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    // ----- where and who ---------------------------------------------------------------
    /// The command was used outside a server (a direct message).
    NotInAServer,
    /// No match is in play in this channel.
    NoMatchHere,
    /// The player asked about a match in a channel that has never had one.
    NoMatchYet,
    /// The asker does not play in the match.
    NotAPlayer,
    /// A match asked for by number does not exist.
    NoSuchMatch,
    /// A match asked for by number is not one of this server's.
    NotOnThisServer(MatchId),
    /// A match named by a stale button is over.
    MatchNoLongerInPlay,
    /// The match is over.
    MatchOver,
    /// This channel already has a match in play.
    ChannelBusy,
    /// The challenge's channel is taken by another match meanwhile.
    ChallengeChannelBusy,
    /// A troubled match cannot move here: this channel has a match in play.
    ResumeChannelBusy,
    /// Aborting needs the Manage Server permission.
    NotAModerator,
    /// The bot may not post where the match would be played, so nobody would hear of it;
    /// `permission` is what a moderator must grant, as Discord names it.
    BotCannotPost {
        permission: &'static str,
    },

    // ----- challenges ------------------------------------------------------------------
    ChallengeSelf,
    /// The opponent is another bot, which cannot play.
    OpponentIsABot {
        name: String,
    },
    DuplicateChallenge {
        opponent: String,
    },
    ChallengeExpired,
    ChallengeClosed,
    NoSuchChallenge,
    NobodyChallengedYou,
    NoChallengeOfYours,
    /// Several open challenges could be meant: the player must give a number. Each is the
    /// challenge's number and the other player's name; `command` is `accept`, `decline` or
    /// `cancel`.
    WhichChallenge {
        command: &'static str,
        open: Vec<(u64, String)>,
    },
    /// An opponent given without a name.
    NoOpponentNamed,
    /// The challenge was already answered; `state` says how ("accepted", "declined", …).
    ChallengeAlreadyAnswered {
        state: &'static str,
    },
    AnswerOwnChallenge,
    NotYourChallenge,
    OnlyChallengerCancels,
    DaysNotOffered(i64),
    /// `level` was given for a match against a person.
    LevelAgainstPerson,
    NoSuchLevel(i64),
    RatedAgainstComputer,

    // ----- moves -----------------------------------------------------------------------
    /// The move text is far longer than any move; `echo` is its shortened start.
    MoveTooLong {
        echo: String,
    },
    UnreadableMove {
        why: String,
    },
    UnreadableSquare {
        which: &'static str,
        why: String,
    },
    UnreadableCaptures {
        why: String,
    },
    NotAHurl {
        mv: String,
    },
    ShoveWithoutCapture,
    NotAShove {
        mv: String,
    },
    NotYourTurn {
        to_move: String,
    },
    IllegalMove {
        mv: String,
        why: String,
    },
    /// Another move for the turn was saved first.
    TurnTaken,
    /// The rules refuse what was asked of the match (a forfeit or an end out of turn, say).
    Rules {
        why: String,
    },

    // ----- ending a battle, claims ---------------------------------------------------
    AlreadyProposed {
        other: String,
    },
    ProposalOpen,
    NoProposal,
    ProposalNoLongerOpen,
    /// `actor` proposed ending the battle in this position already, and `other` declined.
    ProposalDeclinedHere {
        other: String,
    },
    AnswerOwnProposal,
    ClaimOnYourTurn,
    NoClock,
    ComputerNeverLate,
    OpponentOnVacation,
    ClockPaused {
        why: String,
    },
    OpponentHasTime {
        deadline: DateTime<Utc>,
    },

    // ----- conditional moves (a plan) ----------------------------------------------------
    /// A plan answers the opponent's moves: it is for the player waiting for one.
    PlanOnYourTurn,
    /// The computer answers at once: there is no wait to plan for.
    PlanAgainstComputer,
    /// An end proposal is open: it is answered first (a proposal drops plans).
    PlanWhileProposal,
    /// A line of `plies` moves: it must be pairs of the opponent's move and the answer, at
    /// most `most` moves.
    PlanShape {
        plies: usize,
        most: usize,
    },
    /// The line's `ply`th move (from 1) cannot be read.
    PlanUnreadable {
        ply: usize,
        mv: String,
        why: String,
    },
    /// The line's `ply`th move is not legal where it would be played.
    PlanIllegal {
        ply: usize,
        mv: String,
        why: String,
    },
    /// The line's `ply`th move ends the battle, yet the line goes on.
    PlanPastBattleEnd {
        ply: usize,
        mv: String,
    },
    /// The plan already answers the opponent's `theirs` with `answer`.
    PlanConflict {
        theirs: String,
        answer: String,
    },
    /// The line is in the plan already.
    PlanHasLine,
    /// The plan has `most` lines, as many as it may.
    PlanFull {
        most: usize,
    },

    // ----- records, replays, rematches, troubled matches ---------------------------------
    /// A battle number other than 1 or 2.
    NoSuchBattle(u8),
    NoBattleYet {
        match_id: MatchId,
        battle: u8,
    },
    NothingToReplay {
        match_id: MatchId,
        battle: u8,
    },
    ReplayTooLarge {
        smallest: usize,
        limit: usize,
    },
    RematchNotAPlayer(MatchId),
    RematchTooEarly(MatchId),
    RematchOfStopped(MatchId),
    NeedsNoResuming(MatchId),
    StopOnlyUnreachable(MatchId),
    /// Analysis is for finished matches only, so nobody can consult it while playing.
    AnalysisDuringPlay(MatchId),
    NothingToAnalyse(MatchId),

    // ----- settings and vacations --------------------------------------------------------
    NotABoardStyle {
        given: String,
    },
    NotATheme {
        given: String,
    },
    VacationsOff,
    VacationTooShort,
    OnVacationUntil(DateTime<Utc>),
    OnVacation,
    NotOnVacation,
    DeadlinePassed,
    VacationUsed {
        allowance: String,
    },
    VacationLeft {
        left: String,
    },

    /// An option's value could not be read (`given`, when the front-end has it).
    NotAnOptionValue {
        given: Option<String>,
    },
    /// The organisers' role was both named and cleared.
    RoleNamedAndCleared,

    /// A front-end's own reading of its input failed (the console's line syntax, say).
    Input(String),

    /// A tournament command that cannot be done (see `service::tournaments`).
    Tournament(TournamentRefusal),
}

/// The sentence as plain words (times in full).
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.text().fmt(f)
    }
}

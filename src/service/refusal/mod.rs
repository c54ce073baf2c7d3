//! Why the service refused what a player asked: one variant per reason, so callers and tests
//! tell refusals apart by kind, and each with the sentence the player reads. A refusal changes
//! nothing.

use std::fmt;

use chrono::{DateTime, Utc};

use super::text::Text;

mod tournament;
pub use tournament::TournamentRefusal;

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
    DaysNotOffered(u32),
    /// `level` was given for a match against a person.
    LevelAgainstPerson,
    NoSuchLevel(u8),
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

    /// A front-end's own reading of its input failed (the console's line syntax, say).
    Input(String),

    /// A tournament command that cannot be done (see `service::tournaments`).
    Tournament(TournamentRefusal),
}

impl Refusal {
    /// The sentence the player reads.
    pub fn text(&self) -> Text {
        use Refusal::*;
        let prose = |s: &str| Text::prose(s);
        match self {
            Tournament(why) => why.text(),
            NotInAServer => "Thud is played in server channels; use /thud in a server.".into(),
            BotCannotPost { permission } => Text::prose(
                "thudbot may not post in this channel, so nobody would hear of the match's moves. \
                 A moderator can allow it ",
            )
            .strong(*permission)
            .plain(" in the channel's permissions; until then, play in another channel."),
            NoMatchHere => prose("There is no match in play in this channel. Start one with `/thud challenge`."),
            NoMatchYet => prose("No match has been played in this channel; name one with `match:`."),
            NotAPlayer => prose("You are not playing in this match. Anyone can watch with `/thud board`; only the two players act."),
            NoSuchMatch => "That match does not exist.".into(),
            NotOnThisServer(id) => format!("There is no match #{id} on this server.").into(),
            MatchNoLongerInPlay => "That match is no longer in play.".into(),
            MatchOver => "This match is over.".into(),
            ChannelBusy => "This channel already has a match in play. Finish it first, or challenge in another channel.".into(),
            ChallengeChannelBusy => "This channel already has a match in play; the challenge stays open until it is free.".into(),
            ResumeChannelBusy => "This channel already has a match in play. Resume the match in another channel.".into(),
            NotAModerator => "Only a server moderator (with the Manage Server permission) can abort a match.".into(),

            ChallengeSelf => "You cannot challenge yourself. Pick another player.".into(),
            OpponentIsABot { name } => format!("{name} is a bot and cannot play Thud. Challenge a person, or challenge the Thud bot itself to play the computer.").into(),
            DuplicateChallenge { opponent } => format!("You and {opponent} already have an open challenge in this channel. Answer or cancel it first.").into(),
            ChallengeExpired => "This challenge has expired. Ask for a new one.".into(),
            ChallengeClosed => "This challenge is no longer open.".into(),
            NoSuchChallenge => "That challenge does not exist.".into(),
            NobodyChallengedYou => "Nobody has challenged you in this channel.".into(),
            NoChallengeOfYours => "You have no open challenge in this channel.".into(),
            WhichChallenge { command, open } => {
                let list: Vec<String> = open
                    .iter()
                    .map(|(id, name)| format!("#{id} ({name})"))
                    .collect();
                let first = open.first().map_or(1, |(id, _)| *id);
                Text::from(format!(
                    "You have {} open challenges in this channel: {}. Say which, e.g. ",
                    open.len(),
                    list.join(", ")
                ))
                .code(format!("/thud {command} challenge:{first}"))
                .plain(".")
            }
            NoOpponentNamed => prose("Name the player you challenge, e.g. `/thud challenge opponent:@alice`."),
            ChallengeAlreadyAnswered { state } => format!("This challenge was already {state}.").into(),
            AnswerOwnChallenge => "You cannot answer your own challenge; you can cancel it.".into(),
            NotYourChallenge => "This challenge is not addressed to you.".into(),
            OnlyChallengerCancels => "Only the challenger can cancel a challenge.".into(),
            DaysNotOffered(days) => format!("{days} days per move is not offered; choose 1, 2, 3, 5, 7, 10 or 14.").into(),
            LevelAgainstPerson => prose("`level` is for a match against the bot itself; leave it out to challenge a person."),
            NoSuchLevel(n) => format!("There is no level {n}; choose 1 (a beginner) to 5 (the strongest).").into(),
            RatedAgainstComputer => prose("Matches against the computer are never rated; leave out `rated`, or challenge a person."),

            MoveTooLong { echo } => Text::new()
                .code(echo)
                .plain(" is too long to be a move. Write a move like ")
                .code("dF1-F5")
                .plain(" or ")
                .code("TG7-F6xE5xF5")
                .plain("."),
            UnreadableMove { why } => format!("I could not read that move: {why}.").into(),
            UnreadableSquare { which, why } => format!("The {which} square: {why}.").into(),
            UnreadableCaptures { why } => format!("The captured squares: {why}.").into(),
            NotAHurl { mv } => Text::new()
                .code(mv)
                .then(prose(" is not a hurl: a hurl lands a dwarf on a troll and captures it. Use `/thud move` for a plain move.")),
            ShoveWithoutCapture => prose("A shove must capture a dwarf. Use `/thud move` for a plain step."),
            NotAShove { mv } => Text::new().code(mv).plain(" is not a shove: only trolls shove."),
            NotYourTurn { to_move } => format!("It is not your turn; {to_move} is to move.").into(),
            IllegalMove { mv, why } => Text::new().code(mv).plain(format!(" is not legal: {why}.")),
            TurnTaken => "Another move for this turn landed first. Look at the board and try again.".into(),
            Rules { why } => format!("{why}.").into(),

            AlreadyProposed { other } => format!("You have already proposed ending this battle; {other} has not answered yet.").into(),
            ProposalOpen => "A proposal to end this battle is already open.".into(),
            NoProposal => "There is no open proposal to end the battle.".into(),
            ProposalNoLongerOpen => "That proposal is no longer open: it was answered, or a move since changed the position it was made in, and a proposal stands only for that position. Propose again to end the battle as it stands now.".into(),
            AnswerOwnProposal => "You cannot answer your own proposal; the other player must.".into(),
            ClaimOnYourTurn => "It is your turn; only the player waiting can claim a match on time.".into(),
            NoClock => "This match has no running clock.".into(),
            ComputerNeverLate => prose("The computer never runs out of time: it moves as soon as it has thought. Give it a moment, or look at `/thud board`."),
            OpponentOnVacation => "Your opponent is on vacation: their clock stands still until they are back, and the deadline moves on by the time away.".into(),
            ClockPaused { why } => Text::from(format!("The clock of this match is paused: {why}. Nobody loses on time while the bot cannot reach the players; resume it from "))
                .code("/thud games")
                .plain("."),
            OpponentHasTime { deadline } => Text::from("Your opponent still has time: the deadline is ")
                .time(*deadline)
                .plain(". You can claim the match after that."),

            NoSuchBattle(_) => "A match has two battles: choose battle 1 or 2.".into(),
            NoBattleYet { match_id, battle } => format!("Match #{match_id} has no battle {battle} yet.").into(),
            NothingToReplay { match_id, battle } => format!("Battle {battle} of match #{match_id} has no moves to replay yet.").into(),
            ReplayTooLarge { smallest, limit } => format!("Even the last move of this battle makes a replay of {smallest} bytes, more than the {limit} bytes this channel accepts.").into(),
            RematchNotAPlayer(id) => format!("Only the two players of match #{id} can ask for a rematch.").into(),
            RematchTooEarly(id) => format!("Match #{id} is still in play; a rematch comes after it.").into(),
            RematchOfStopped(id) => Text::from(format!("Match #{id} was stopped; start a new one with "))
                .code("/thud challenge")
                .plain("."),
            NeedsNoResuming(id) => format!("Match #{id} needs no resuming: the bot can reach its channel.").into(),
            StopOnlyUnreachable(id) => format!("Match #{id} can only be stopped this way while the bot cannot reach its channel. Resign or ask a moderator instead.").into(),
            AnalysisDuringPlay(id) => format!("Match #{id} is still in play. It can be analysed once it is over, so that nobody can consult the engine during a match.").into(),
            NothingToAnalyse(id) => format!("Match #{id} has no moves to analyse.").into(),

            NotABoardStyle { given } => Text::new().code(given).plain(" is not a board style; choose full or brief."),
            NotATheme { given } => Text::new().code(given).plain(" is not a theme; choose default or high-contrast."),
            VacationsOff => "Vacations are turned off on this bot.".into(),
            VacationTooShort => "A vacation lasts at least one day.".into(),
            OnVacationUntil(until) => Text::from("You are already on vacation until ")
                .time(*until)
                .then(prose(". End it early with `/thud vacation end`.")),
            OnVacation => "You are already on vacation.".into(),
            NotOnVacation => "You are not on vacation.".into(),
            DeadlinePassed => prose("One of your moves is already past its deadline: play it (see `/thud games`) before going on vacation."),
            VacationUsed { allowance } => format!("You have taken your {allowance} of vacation in the last year.").into(),
            VacationLeft { left } => format!("You have {left} of vacation left in the last year; ask for at most that.").into(),

            Input(text) => text.as_str().into(),
        }
    }
}

/// The sentence as plain words (times in full).
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.text().fmt(f)
    }
}

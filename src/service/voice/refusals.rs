//! What a player reads when the service refuses what they asked (one sentence per reason of
//! [`Refusal`]) or fails.

use crate::service::error::ServiceError;
use crate::service::refusal::{Refusal, TournamentRefusal, Unseatable};
use crate::service::text::{count, Text};
use crate::tournament::{FormatError, MAX_ROUND_ROBIN, MAX_SWISS, MAX_SWISS_ROUNDS, MIN_PLAYERS};

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
            DaysNotOffered(days) => format!("{days} days a move is not offered; choose 1, 2, 3, 5, 7, 10 or 14.").into(),
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
            ProposalDeclinedHere { other } => format!("{other} has already declined ending this battle in this position; you can propose again after the next move.").into(),
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

            PlanOnYourTurn => prose("It is your turn: play your move. A plan answers your opponent's moves while you wait for them."),
            PlanAgainstComputer => "The computer answers at once, so there is no wait to plan for; play your moves as they come.".into(),
            PlanWhileProposal => prose("A proposal to end the battle is open: answer it first with `/thud end`. A plan is dropped by any proposal."),
            PlanShape { plies, most } => Text::from(format!(
                "A plan's line is your opponent's move and your answer, in pairs of moves, at most {most} moves, e.g. "
            ))
            .code("TG7-F6 dF1-F5")
            .plain(format!("; this one has {}.", count(*plies as i64, "move", "moves"))),
            PlanUnreadable { ply, mv, why } => Text::from(format!("Move {ply} of the line, "))
                .code(mv)
                .plain(format!(", could not be read: {why}.")),
            PlanIllegal { ply, mv, why } => {
                let said = Text::from(format!("Move {ply} of the line, "))
                    .code(mv)
                    .plain(format!(", is not legal there: {why}."));
                match ply {
                    // The commonest slip: the line begun with the planner's own move.
                    1 => said.plain(" A line starts with your opponent's move, then your answer."),
                    _ => said,
                }
            }
            PlanPastBattleEnd { ply, mv } => Text::from(format!("Move {ply} of the line, "))
                .code(mv)
                .plain(" ends the battle, so the line cannot go on after it."),
            PlanConflict { theirs, answer } => Text::from("Your plan already answers ")
                .code(theirs)
                .plain(" with ")
                .code(answer)
                .plain(". ")
                .then(prose("Start it again with `/thud plan clear:true` and the line you want.")),
            PlanHasLine => prose("That line is in your plan already; see it with `/thud plan`."),
            PlanFull { most } => Text::from(format!("Your plan has {most} lines, as many as it may. "))
                .then(prose("Start it again with `/thud plan clear:true`.")),

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

            NotAnOptionValue { given: Some(given) } => Text::new().code(given).plain(" is not a value this option takes."),
            NotAnOptionValue { given: None } => "One of the options could not be read.".into(),
            RoleNamedAndCleared => "Name a role, or clear the one named, not both.".into(),
            Input(text) => text.as_str().into(),
        }
    }
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
            LateEntryBeforeStart => Text::prose("This tournament has not started: players join it themselves with `/thud tournament join` until it does. Late entries are for a Swiss already running."),
            NotRunningYet => "This tournament has not started yet, so it has no results to correct and no withdrawn players.".into(),
            AlreadyWithdrawn => "You have already withdrawn from this tournament.".into(),
            BotCannotJoin => "Bots cannot play in tournaments.".into(),
            BadName => "A tournament needs a name of 1 to 60 characters.".into(),
            BadDays(d) => format!("{d} days a move is not offered; choose 1, 2, 3, 5, 7, 10 or 14.").into(),
            BadRoundFactor(f) => format!("A round lasts 1 to 50 times the days a move, not {f}.").into(),
            StartsInThePast => "The start time has passed; choose a later one, or start it by hand.".into(),
            Format(e) => format!("{}.", first_upper(&format_error(e))).into(),
            CannotSeatGames(why) => format!("A tournament cannot run here: {}.", unseatable(why)).into(),
            NotAGameHere(id) => format!("Match #{id} is not a game of this tournament.").into(),
            NotAPlayerOfTheGame(id) => format!("The winner must be one of the two players of match #{id}, or leave the winner out for a draw.").into(),
            GameUndecided(id) => format!("Match #{id} is still being played; its result counts the moment it ends, and can be corrected after that.").into(),
            LateEntryOnlySwiss => "Late entries are for a Swiss; a round robin's schedule is fixed when it starts.".into(),
            AlreadyIn => "That player is in this tournament already (reinstate them if they withdrew).".into(),
            NotWithdrawn => "That player is not withdrawn from this tournament.".into(),
            NoSuchStandingsPage { name, pages, page } => format!(
                "The standings of {name} have {}; there is no page {page}.",
                count(*pages as i64, "page", "pages")
            )
            .into(),
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

impl ServiceError {
    /// What to tell the player.
    pub fn player_message(&self) -> Text {
        match self {
            ServiceError::Refused(r) => r.text(),
            ServiceError::System(_) => Text::from(
                "Sorry, something went wrong on our side and nothing was changed. Please try again in a moment.",
            ),
            ServiceError::Unsure(_) => Text::from(
                "Sorry, something went wrong on our side while saving this, and it may have gone through. Look at ",
            )
            .code("/thud board")
            .plain(" before trying again."),
        }
    }
}

/// Why a tournament's games cannot be seated in a channel, and what to do.
fn unseatable(why: &Unseatable) -> String {
    let place = match why {
        Unseatable::InAThread => {
            "a thread or forum post, and its games' threads cannot be opened inside it"
        }
        Unseatable::Announcements => {
            "an announcement channel, whose threads are announcement threads"
        }
        Unseatable::NotText => "not a text channel",
        Unseatable::Missing(missing) => {
            return format!(
                "the bot lacks {} in this channel; each game is played in a thread the bot opens here, so grant {} to the bot's role",
                missing.join(", "),
                if missing.len() == 1 { "it" } else { "them" }
            )
        }
    };
    format!("this is {place}; create the tournament in an ordinary text channel")
}

/// Why a format does not fit the players, as a clause.
pub(in crate::service) fn format_error(e: &FormatError) -> String {
    match e {
        FormatError::TooFewPlayers(n) => {
            format!("a tournament needs at least {MIN_PLAYERS} players; it has {n}")
        }
        FormatError::TooManyForRoundRobin(n) => format!(
            "a round robin takes at most {MAX_ROUND_ROBIN} players; it has {n} (a Swiss takes up to {MAX_SWISS})"
        ),
        FormatError::TooManyForSwiss(n) => {
            format!("a Swiss takes at most {MAX_SWISS} players; it has {n}")
        }
        FormatError::BadRounds(n) => {
            format!("a Swiss has 1 to {MAX_SWISS_ROUNDS} rounds, not {n}")
        }
        FormatError::RoundsForPlayers {
            players,
            rounds,
            most,
        } => format!(
            "with {players} players a Swiss can have at most {most} rounds without a rematch, not {rounds}"
        ),
        FormatError::RoundsForRoundRobin => "a round robin's rounds follow from its players (everyone meets everyone once): leave rounds out".into(),
        FormatError::Unknown(name) => format!("unknown format `{name}`: say round-robin or swiss"),
    }
}

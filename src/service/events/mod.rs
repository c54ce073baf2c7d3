//! What happened, as the service records it: typed events, produced in the transaction of the
//! change they report. The outbox keeps events and who they are for, never sentences; the
//! voice (`service::voice`) words them for their reader when they are said or sent.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::game::{BattleResult, MatchResult, Score, Side, Variant};
use crate::store::{ChallengeId, GuildId, MatchId, SideChoice, TournamentId, UserId};

mod kept;
mod tournament;
pub use tournament::{EarlyEnd, Entrants, Paired, SeatTrouble, TournamentEvent};

/// One thing that happened. Players are kept by id; their names are read when the event is
/// worded, so a notice sent later shows the names of the day.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A match began: battle 1's commanders, whether it is rated, and what brought it about.
    MatchBegan {
        match_id: MatchId,
        #[serde(with = "kept::variant")]
        variant: Variant,
        dwarfs: UserId,
        trolls: UserId,
        rated: bool,
        occasion: Occasion,
    },
    /// Move `ply` of battle `battle`, by `mover` (the computer at `level`, if it played it).
    Moved {
        match_id: MatchId,
        battle: u8,
        ply: u32,
        mover: UserId,
        level: Option<u8>,
        #[serde(with = "kept::side")]
        side: Side,
        /// The move in the notation of RULES.md.
        notation: String,
        /// The squares taken, in notation; empty when nothing was.
        captured: String,
        /// The score after the move; `None` where the variant is won by objective.
        #[serde(with = "kept::score")]
        score: Option<Score>,
    },
    /// An end proposal lapsed: a move (by either player) changed the position it was made in.
    ProposalLapsed { proposer: UserId, mover: UserId },
    /// `by` proposed to `to` ending battle `battle` (proposal `proposal`, answered with its
    /// buttons), the score standing at `score` (none where the variant is won by objective).
    /// The computer proposes only when no capture is in reach of either side.
    EndProposed {
        match_id: MatchId,
        battle: u8,
        proposal: i64,
        by: UserId,
        to: UserId,
        #[serde(with = "kept::score")]
        score: Option<Score>,
        by_computer: bool,
        /// The computer answers at once, in the same message.
        to_computer: bool,
    },
    /// `by` wants to keep playing battle `battle` (the computer says why, `reason`).
    EndDeclined {
        by: UserId,
        battle: u8,
        reason: Option<String>,
    },
    /// The computer, `player`, could not answer a proposal yet; it stands.
    NoAnswerYet { player: UserId },
    /// `by` agreed with `with` to end battle `battle` at `score`, the score `by` was shown
    /// (none where the variant is won by objective); `crossed` when `by` agreed by proposing
    /// while `with`'s proposal stood.
    EndAgreed {
        battle: u8,
        by: UserId,
        with: UserId,
        #[serde(default)]
        #[serde(with = "kept::score")]
        score: Option<Score>,
        #[serde(default)]
        crossed: bool,
    },
    BattleOver {
        battle: u8,
        #[serde(with = "kept::variant")]
        variant: Variant,
        /// The player commanding the winning side, `None` for a draw.
        winner: Option<UserId>,
        #[serde(with = "kept::battle_result")]
        result: BattleResult,
    },
    /// Battle 2 begins with the roles swapped.
    BattleBegan {
        battle: u8,
        dwarfs: UserId,
        trolls: UserId,
    },
    MatchOver {
        match_id: MatchId,
        players: [UserId; 2],
        #[serde(with = "kept::match_result")]
        result: MatchResult,
    },
    /// `player` resigned the match.
    Resigned { player: UserId },
    /// `by` claimed the match: `late` let the deadline pass.
    Claimed {
        by: UserId,
        late: UserId,
        deadline: DateTime<Utc>,
    },
    /// The clock forfeited the match of `player`, late since `deadline` (and, in a
    /// tournament, the round's deadline came).
    DeadlineMissed {
        player: UserId,
        deadline: DateTime<Utc>,
        round_over: bool,
    },
    /// `player` left the tournament the match was a game of, forfeiting it.
    LeftTournament {
        player: UserId,
        departure: Departure,
    },
    /// A moderator, `by`, stopped the match: recorded, unrated.
    Aborted { match_id: MatchId, by: UserId },
    /// `late` never made a move (and let `deadline` pass): the match is aborted, unrated.
    NeverPlayed {
        match_id: MatchId,
        late: UserId,
        deadline: Option<DateTime<Utc>>,
    },
    /// A match forfeited by `late`, who never moved in it, counts for its tournament round
    /// but rates nobody.
    NotRated { late: UserId },
    /// `player` is on vacation until `until`: their clocks stand still.
    Away {
        player: UserId,
        until: DateTime<Utc>,
    },
    /// `player` is back from vacation: their clocks run again.
    Back { player: UserId },
    /// A moderator closed match `match_id`'s thread again after the bot had reopened it: its
    /// clock stands still until one of `players` carries it on.
    ThreadClosedAgain {
        match_id: MatchId,
        thread: crate::store::ChannelId,
        players: [UserId; 2],
    },
    /// Something in a tournament.
    Tournament(TournamentEvent),
    /// `by` carried the paused match `match_id` on in `channel`; its clock runs again for the
    /// turn of `to_move` (none for the computer), until `deadline`.
    Resumed {
        match_id: MatchId,
        by: UserId,
        channel: crate::store::ChannelId,
        to_move: Option<(UserId, DateTime<Utc>)>,
    },
    /// Match `match_id`, begun for `occasion`, is played in `channel`, not where it was
    /// accepted; `accepted_by` accepted the challenge.
    PlayedElsewhere {
        match_id: MatchId,
        channel: crate::store::ChannelId,
        accepted_by: Option<UserId>,
        occasion: Occasion,
    },
    /// The ratings on the match's server after a rated match.
    Rated { changes: Vec<RatingChange> },
    /// It is `player`'s turn, until `deadline`.
    TurnStarted {
        match_id: MatchId,
        #[serde(with = "kept::variant")]
        variant: Variant,
        player: UserId,
        #[serde(with = "kept::side")]
        side: Side,
        deadline: DateTime<Utc>,
    },
    /// It is the computer's turn; its move follows.
    ComputerThinking {
        player: UserId,
        #[serde(with = "kept::side")]
        side: Side,
    },
    /// A reminder of `player`'s turn, true only while the turn that started at
    /// `turn_started_at` is still being played.
    ReminderDue {
        match_id: MatchId,
        guild: GuildId,
        player: UserId,
        turn_started_at: DateTime<Utc>,
        deadline: DateTime<Utc>,
        /// The first reminder, at half time (on a turn longer than a day); else less than a
        /// day is left.
        half_time: bool,
    },
    /// `challenger` challenged `opponent` (challenge `challenge`, answered with its buttons).
    Challenged {
        challenge: ChallengeId,
        challenger: UserId,
        opponent: UserId,
        #[serde(with = "kept::variant")]
        variant: Variant,
        side: SideChoice,
        days_per_move: u32,
        rated: bool,
        expires_at: DateTime<Utc>,
    },
    /// The opponent declined the challenge.
    ChallengeDeclined {
        challenger: UserId,
        opponent: UserId,
    },
    /// The challenger withdrew the challenge.
    ChallengeWithdrawn {
        challenger: UserId,
        opponent: UserId,
    },
    ChallengeExpired {
        challenger: UserId,
        opponent: UserId,
    },
    /// Discord refused `player` a direct message: they are told, once, how to open their DMs.
    DmsClosed { player: UserId },
    /// The match's channel could not be reached and is a thread of its own: it is closed
    /// (archived) once the last words in it had time to land. Says nothing.
    ThreadDone { match_id: MatchId },
    /// What tournament `tournament`'s announcement shows changed (its field, or whether it
    /// takes players): the announcement is shown afresh, as it reads when this is delivered.
    /// Says nothing.
    FieldChanged { tournament: TournamentId },
    /// The analysis of match `match_id` has something new to show (its progress message is
    /// to be posted, its count brought up to date, or its report shown): shown as it stands
    /// when this is delivered. Says nothing.
    AnalysisChanged { match_id: MatchId },
    /// The thread of match `match_id`, its reader, was archived while something lives in it
    /// (by Discord after its idle time, or once by a moderator): it is opened again. Says
    /// nothing.
    ThreadArchived { match_id: MatchId },
    /// The thread of its reader was opened for game `game` of tournament `tournament`, which
    /// needed none by then (another process seated it, or the tournament ended meanwhile):
    /// it is closed (archived), empty. Says nothing.
    RoomUnused { tournament: TournamentId, game: i64 },
    /// A thread named `name` was wanted in its reader, a channel, for a match (the outbox's
    /// record of a thread being opened): settled with the match that begins in it. One left
    /// pending (the match never began there, or its process stopped in between) is delivered
    /// by looking for such a thread of the bot's and closing it if nothing lives in it. Says
    /// nothing.
    RoomWanted { name: String },
}

/// Why a player leaves a tournament that has started.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Departure {
    /// They withdrew.
    Withdrew,
    /// They are no longer a member of the server: they left it, or were kicked.
    Left,
    /// They were banned from the server.
    Banned,
}

/// What a match was begun for.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "occasion", rename_all = "kebab-case")]
pub enum Occasion {
    /// A challenge accepted.
    Challenge,
    /// `player` against the computer at `level`.
    Computer {
        player: UserId,
        computer: UserId,
        level: u8,
        days_per_move: u32,
    },
    /// A game of round `round` of the tournament called `name`.
    Tournament { name: String, round: u32 },
}

/// One player's rating before and after a match.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct RatingChange {
    pub player: UserId,
    pub before: ShownRating,
    pub after: ShownRating,
}

/// A rating as players see it: rounded, and marked while still provisional.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct ShownRating {
    pub rating: f64,
    pub provisional: bool,
}

/// A rating is provisional while its deviation is above this.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

impl ShownRating {
    /// Rating `r` as a player sees it.
    pub fn of(r: &crate::store::Rating) -> ShownRating {
        ShownRating {
            rating: r.rating,
            provisional: r.deviation > PROVISIONAL_DEVIATION,
        }
    }
}

impl Event {
    /// Every player the event names, whose names the voice needs.
    pub fn people(&self) -> Vec<UserId> {
        match self {
            Event::MatchBegan {
                dwarfs,
                trolls,
                occasion,
                ..
            } => {
                let mut all = vec![*dwarfs, *trolls];
                if let Occasion::Computer { computer, .. } = occasion {
                    all.push(*computer);
                }
                all
            }
            Event::BattleBegan { dwarfs, trolls, .. } => vec![*dwarfs, *trolls],
            Event::Moved { mover, .. } => vec![*mover],
            Event::ProposalLapsed { proposer, mover } => vec![*proposer, *mover],
            Event::EndProposed { by, to, .. } => vec![*by, *to],
            Event::EndDeclined { by, .. } => vec![*by],
            Event::NoAnswerYet { player } => vec![*player],
            Event::EndAgreed { by, with, .. } => vec![*by, *with],
            Event::BattleOver { winner, .. } => winner.iter().copied().collect(),
            Event::MatchOver { players, .. } | Event::ThreadClosedAgain { players, .. } => {
                players.to_vec()
            }
            Event::Rated { changes } => changes.iter().map(|c| c.player).collect(),
            Event::TurnStarted { player, .. }
            | Event::DmsClosed { player }
            | Event::ComputerThinking { player, .. }
            | Event::ReminderDue { player, .. } => vec![*player],
            Event::Challenged {
                challenger,
                opponent,
                ..
            }
            | Event::ChallengeDeclined {
                challenger,
                opponent,
            }
            | Event::ChallengeWithdrawn {
                challenger,
                opponent,
            }
            | Event::ChallengeExpired {
                challenger,
                opponent,
            } => vec![*challenger, *opponent],
            Event::Away { player, .. }
            | Event::Back { player }
            | Event::Resigned { player }
            | Event::DeadlineMissed { player, .. }
            | Event::LeftTournament { player, .. } => vec![*player],
            Event::Claimed { by, late, .. } => vec![*by, *late],
            Event::Aborted { by, .. } => vec![*by],
            Event::NeverPlayed { late, .. } | Event::NotRated { late } => vec![*late],
            Event::Tournament(t) => t.people(),
            Event::Resumed { by, to_move, .. } => {
                let mut all = vec![*by];
                all.extend(to_move.map(|(p, _)| p));
                all
            }
            Event::PlayedElsewhere {
                accepted_by,
                occasion,
                ..
            } => {
                let mut all: Vec<UserId> = accepted_by.iter().copied().collect();
                if let Occasion::Computer {
                    player, computer, ..
                } = occasion
                {
                    all.extend([*player, *computer]);
                }
                all
            }
            Event::ThreadDone { .. }
            | Event::FieldChanged { .. }
            | Event::AnalysisChanged { .. }
            | Event::ThreadArchived { .. }
            | Event::RoomUnused { .. }
            | Event::RoomWanted { .. } => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests;

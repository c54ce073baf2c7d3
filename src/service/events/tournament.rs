//! What happens in a tournament, as events: told in its channel (rounds paired and over, the
//! end) and in its matches' channels (a game stopped or cancelled).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::Departure;
use crate::game::Variant;
use crate::store::{ChannelId, MatchId, TournamentId, UserId};
use crate::tournament::{Format, FormatError};

/// The field of a tournament as its announcement shows it.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Entrants {
    /// Still taking players: this many so far.
    SoFar(u32),
    /// Started (or ended) with this many: joining is over.
    Closed(u32),
    /// Called off: joining is over.
    CalledOff,
}

/// Why a tournament game's thread could not be opened.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq, Default)]
#[serde(rename_all = "kebab-case")]
pub enum SeatTrouble {
    /// The bot may not open threads there (notices queued before the reason was kept read
    /// as this, the only reason they gave).
    #[default]
    Permissions,
    /// The server holds as many active threads as Discord allows.
    ThreadLimit,
}

impl SeatTrouble {
    fn is_permissions(&self) -> bool {
        *self == SeatTrouble::Permissions
    }
}

/// One thing that happened in the tournament called `name` (kept with each event, so a notice
/// says the name it had).
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "tournament-event", rename_all = "kebab-case")]
pub enum TournamentEvent {
    /// Tournament `id` was created and takes players (answered with a Join button).
    Created {
        id: TournamentId,
        name: String,
        #[serde(with = "super::kept::format")]
        format: Format,
        #[serde(with = "super::kept::variant")]
        variant: Variant,
        days_per_move: u32,
        round_days: u32,
        starts_at: Option<DateTime<Utc>>,
        /// How many have joined, when the announcement is shown again as the field grows.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        entrants: Option<Entrants>,
    },
    /// `player` joined it, now of `players` players.
    Joined {
        name: String,
        player: UserId,
        players: u32,
    },
    /// `player` left it before it started, leaving `players` players.
    LeftBeforeStart {
        name: String,
        player: UserId,
        players: u32,
    },
    /// `by` started it, with `players` players over `rounds` rounds.
    Started {
        name: String,
        /// The organiser who started it, or who set its start time when `scheduled`.
        by: UserId,
        players: u32,
        rounds: u32,
        /// The rounds asked for, when the field was too small for them (a cap, not a refusal).
        #[serde(default)]
        asked: Option<u32>,
        /// It started by itself at its start time.
        #[serde(default)]
        scheduled: bool,
    },
    /// It could not start when its time came.
    CalledOff {
        name: String,
        #[serde(with = "super::kept::format_error")]
        why: FormatError,
    },
    /// Round `round` was paired, to be played by `deadline`.
    RoundPaired {
        name: String,
        round: u32,
        deadline: DateTime<Utc>,
        games: Vec<Paired>,
    },
    /// Vacations taken during round `round` by `players` moved its deadline on by
    /// `extension_seconds`, to `to`.
    RoundDeadlineMoved {
        name: String,
        round: u32,
        extension_seconds: i64,
        players: Vec<UserId>,
        to: DateTime<Utc>,
    },
    /// Round `round` reached its deadline with games undecided; they are decided now.
    RoundDeadlineReached { name: String, round: u32 },
    /// Round `round` is over: the standings after it are shown with it.
    RoundOver {
        id: TournamentId,
        name: String,
        round: u32,
    },
    /// The tournament is over after round `round`; `leaders` share first place (one wins).
    Over {
        id: TournamentId,
        name: String,
        round: u32,
        early: Option<EarlyEnd>,
        leaders: Vec<UserId>,
    },
    /// `player` left it; their games in it are forfeited.
    Left {
        name: String,
        player: UserId,
        departure: Departure,
    },
    /// Said in a match's channel: round `round` reached its deadline with the match
    /// unfinished; it is stopped, unrated, and counts as drawn.
    GameStopped { name: String, round: u32 },
    /// Said in a match's channel: the tournament was cancelled; the match is stopped.
    GameCancelled { name: String },
    /// `by` cancelled it; `stopped` matches in play were stopped, unrated.
    Cancelled {
        name: String,
        by: UserId,
        stopped: u32,
    },
    /// It was called off because `why` (its channel was deleted, the bot removed from its
    /// server); `stopped` matches in play were stopped, unrated. Told to its organiser.
    Lost {
        name: String,
        why: String,
        stopped: u32,
    },
    /// A game's thread could not be opened in `channel`, the tournament's: it is tried again
    /// with growing pauses, and drawn if its round's deadline comes first.
    GameNotSeated {
        name: String,
        channel: ChannelId,
        players: Vec<UserId>,
        // Left out when it is the default, so a notice reads and is stored as before.
        #[serde(default, skip_serializing_if = "SeatTrouble::is_permissions")]
        trouble: SeatTrouble,
    },
    /// An organiser, `by`, corrected the result of match `match_id` (`first` against
    /// `second`): `winner` wins it, or nobody (a draw).
    ResultCorrected {
        name: String,
        match_id: MatchId,
        first: UserId,
        second: UserId,
        winner: Option<UserId>,
        by: UserId,
    },
    /// An organiser, `by`, added `player` to the running Swiss, paired from round `from`.
    LateEntry {
        name: String,
        player: UserId,
        by: UserId,
        from: u32,
    },
    /// An organiser, `by`, took withdrawn `player` back, paired from round `from`.
    Reinstated {
        name: String,
        player: UserId,
        by: UserId,
        from: u32,
    },
}

/// A game of a paired round.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(tag = "game", rename_all = "kebab-case")]
pub enum Paired {
    /// `first` against `second`; `forfeited` when one of them had withdrawn (a round robin
    /// keeps its schedule), the other winning.
    Match {
        first: UserId,
        second: UserId,
        forfeited: bool,
        /// Who won by that forfeit (stored since this field was added; older events name
        /// nobody).
        #[serde(default)]
        winner: Option<UserId>,
    },
    /// `player` sits the round out; `scored` as a win in a Swiss.
    Bye { player: UserId, scored: bool },
}

/// Why a tournament ended before its last round.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum EarlyEnd {
    FewerThanTwoLeft,
    NoPairingWithoutRematch,
}

impl TournamentEvent {
    /// Every player the event names.
    pub fn people(&self) -> Vec<UserId> {
        match self {
            TournamentEvent::Started { by, .. } | TournamentEvent::Cancelled { by, .. } => {
                vec![*by]
            }
            TournamentEvent::RoundPaired { games, .. } => games
                .iter()
                .flat_map(|g| match *g {
                    Paired::Match { first, second, .. } => vec![first, second],
                    Paired::Bye { player, .. } => vec![player],
                })
                .collect(),
            TournamentEvent::RoundDeadlineMoved { players, .. }
            | TournamentEvent::GameNotSeated { players, .. } => players.clone(),
            TournamentEvent::ResultCorrected {
                first, second, by, ..
            } => vec![*first, *second, *by],
            TournamentEvent::LateEntry { player, by, .. }
            | TournamentEvent::Reinstated { player, by, .. } => vec![*player, *by],
            TournamentEvent::Over { leaders, .. } => leaders.clone(),
            TournamentEvent::Left { player, .. }
            | TournamentEvent::Joined { player, .. }
            | TournamentEvent::LeftBeforeStart { player, .. } => vec![*player],
            TournamentEvent::Created { .. }
            | TournamentEvent::CalledOff { .. }
            | TournamentEvent::RoundDeadlineReached { .. }
            | TournamentEvent::RoundOver { .. }
            | TournamentEvent::GameStopped { .. }
            | TournamentEvent::GameCancelled { .. }
            | TournamentEvent::Lost { .. } => Vec::new(),
        }
    }

    /// The tournament whose standings go with the event, as a picture (and, for a round's
    /// end, as text).
    pub fn standings(&self) -> Option<(TournamentId, u32)> {
        match *self {
            TournamentEvent::RoundOver { id, round, .. }
            | TournamentEvent::Over { id, round, .. } => Some((id, round)),
            _ => None,
        }
    }
}

//! A match: two battles between the same two players with the roles swapped.

use serde::{Deserialize, Serialize};

use super::battle::{Battle, BattleRecord, BattleResult, RecordError};
use super::legality::IllegalMove;
use super::moves::Move;
use super::notation::MoveText;
use super::score::Points;
use super::side::Side;
use super::variant::Variant;

/// Battles in a match.
pub const BATTLES: u8 = 2;

/// One of the two players of a match: `First` commands the dwarfs in battle 1 and the trolls
/// in battle 2.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    First,
    Second,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::First, Seat::Second];

    pub const fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// The side this seat commands in battle `number` (1 or 2).
    pub const fn side_in(self, number: u8) -> Side {
        match (self, number) {
            (Seat::First, 1) | (Seat::Second, 2) => Side::Dwarfs,
            _ => Side::Trolls,
        }
    }

    /// The seat commanding `side` in battle `number`.
    pub const fn commanding(side: Side, number: u8) -> Seat {
        match (side, number) {
            (Side::Dwarfs, 1) | (Side::Trolls, 2) => Seat::First,
            _ => Seat::Second,
        }
    }

    const fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }
}

/// Why a match refused an action.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    #[error("this match is over")]
    Over,
    #[error("it is not your turn")]
    NotYourTurn,
    #[error("{0}")]
    Illegal(#[from] IllegalMove),
}

/// What a move or an agreed end did to the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The battle the action happened in (1 or 2).
    pub battle: u8,
    /// The battle's result, if the action ended it.
    pub battle_result: Option<BattleResult>,
    /// The match's result, if the action ended the match.
    pub match_result: Option<MatchResult>,
}

/// The result of a finished match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// Points each seat won in each played battle: `battles[i][seat]`.
    pub battles: Vec<[Points; 2]>,
    /// Total points per seat (`[first, second]`).
    pub totals: [Points; 2],
    /// The winner, `None` for a draw.
    pub winner: Option<Seat>,
    /// The difference in total points.
    pub margin: Points,
    /// The seat that resigned or lost on time, if the match ended that way.
    pub forfeited_by: Option<Seat>,
}

impl MatchResult {
    /// Points of `seat` in total.
    pub fn total(&self, seat: Seat) -> Points {
        self.totals[seat.index()]
    }
}

/// A match between two seats.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(try_from = "MatchRecord", into = "MatchRecord")]
pub struct Match {
    variant: Variant,
    battles: Vec<Battle>,
    forfeited_by: Option<Seat>,
}

impl Match {
    /// A new match; battle 1 begins at once with the dwarfs to move.
    pub fn new(variant: Variant) -> Match {
        Match {
            variant,
            battles: vec![Battle::new(variant)],
            forfeited_by: None,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The battles begun so far (1 or 2).
    pub fn battles(&self) -> &[Battle] {
        &self.battles
    }

    /// The battle being played, or the last one once the match is over.
    pub fn current_battle(&self) -> &Battle {
        self.battles.last().expect("a match always has a battle")
    }

    /// The number (1 or 2) of the current battle.
    pub fn battle_number(&self) -> u8 {
        self.battles.len() as u8
    }

    /// Whose turn it is; `None` once the match is over.
    pub fn seat_to_move(&self) -> Option<Seat> {
        if self.forfeited_by.is_some() {
            return None;
        }
        let side = self.current_battle().side_to_move()?;
        Some(Seat::commanding(side, self.battle_number()))
    }

    pub fn is_over(&self) -> bool {
        self.seat_to_move().is_none()
    }

    /// `seat` plays the move `text` names.
    pub fn play(&mut self, seat: Seat, text: &MoveText) -> Result<(Move, Progress), MatchError> {
        self.check_turn(seat)?;
        let battle = self
            .battles
            .last_mut()
            .expect("a match always has a battle");
        let mv = battle.play(text)?;
        Ok((mv, self.progress()))
    }

    /// Ends the current battle because both players agreed.
    pub fn end_battle_by_agreement(&mut self) -> Result<Progress, MatchError> {
        if self.is_over() {
            return Err(MatchError::Over);
        }
        let battle = self
            .battles
            .last_mut()
            .expect("a match always has a battle");
        battle.end_by_agreement()?;
        Ok(self.progress())
    }

    /// `seat` gives up the whole match (resigning, or losing on time); the other seat wins.
    pub fn forfeit(&mut self, seat: Seat) -> Result<MatchResult, MatchError> {
        if self.is_over() {
            return Err(MatchError::Over);
        }
        self.forfeited_by = Some(seat);
        Ok(self.result().expect("a forfeited match has a result"))
    }

    fn check_turn(&self, seat: Seat) -> Result<(), MatchError> {
        match self.seat_to_move() {
            None => Err(MatchError::Over),
            Some(s) if s != seat => Err(MatchError::NotYourTurn),
            Some(_) => Ok(()),
        }
    }

    /// After an action: report an ended battle, and begin battle 2 when battle 1 ends.
    fn progress(&mut self) -> Progress {
        let number = self.battle_number();
        let battle_result = self.current_battle().result();
        if battle_result.is_some() && number < BATTLES {
            self.battles.push(Battle::new(self.variant));
        }
        Progress {
            battle: number,
            battle_result,
            match_result: self.result(),
        }
    }

    /// The result, once both battles are over or a seat has forfeited.
    pub fn result(&self) -> Option<MatchResult> {
        let finished = self.battles.len() == BATTLES as usize && self.current_battle().is_over();
        if !finished && self.forfeited_by.is_none() {
            return None;
        }
        let battles: Vec<[Points; 2]> = self
            .battles
            .iter()
            .enumerate()
            .filter_map(|(i, b)| {
                let result = b.result()?;
                let number = i as u8 + 1;
                Some(Seat::BOTH.map(|seat| result.points_for(seat.side_in(number), self.variant)))
            })
            .collect();
        let totals = battles
            .iter()
            .fold([Points::ZERO; 2], |acc, b| [acc[0] + b[0], acc[1] + b[1]]);
        let (winner, margin) = match self.forfeited_by {
            Some(loser) => (Some(loser.other()), totals[0].difference(totals[1])),
            None => {
                let margin = totals[0].difference(totals[1]);
                let winner = match totals[0].cmp(&totals[1]) {
                    std::cmp::Ordering::Greater => Some(Seat::First),
                    std::cmp::Ordering::Less => Some(Seat::Second),
                    std::cmp::Ordering::Equal => None,
                };
                (winner, margin)
            }
        };
        Some(MatchResult {
            battles,
            totals,
            winner,
            margin,
            forfeited_by: self.forfeited_by,
        })
    }
}

/// A match as stored: its battles as records, and any forfeit.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct MatchRecord {
    pub variant: Variant,
    pub battles: Vec<BattleRecord>,
    pub forfeited_by: Option<Seat>,
}

impl From<Match> for MatchRecord {
    fn from(m: Match) -> MatchRecord {
        MatchRecord {
            variant: m.variant,
            battles: m.battles.into_iter().map(BattleRecord::from).collect(),
            forfeited_by: m.forfeited_by,
        }
    }
}

/// Why a stored match could not be read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchRecordError {
    #[error("a match has 1 or 2 battles, this record has {0}")]
    BattleCount(usize),
    #[error("battle {number}: {error}")]
    Battle { number: usize, error: RecordError },
    #[error("battle 2 began before battle 1 was over")]
    Unfinished,
}

impl TryFrom<MatchRecord> for Match {
    type Error = MatchRecordError;

    fn try_from(r: MatchRecord) -> Result<Match, MatchRecordError> {
        if r.battles.is_empty() || r.battles.len() > BATTLES as usize {
            return Err(MatchRecordError::BattleCount(r.battles.len()));
        }
        let battles = r
            .battles
            .into_iter()
            .enumerate()
            .map(|(i, b)| {
                Battle::try_from(b).map_err(|error| MatchRecordError::Battle {
                    number: i + 1,
                    error,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if battles.len() == 2 && !battles[0].is_over() {
            return Err(MatchRecordError::Unfinished);
        }
        let mut m = Match {
            variant: r.variant,
            battles,
            forfeited_by: r.forfeited_by,
        };
        // A stored match may have been saved at the moment battle 1 ended.
        if m.battles.len() == 1 && m.current_battle().is_over() && m.forfeited_by.is_none() {
            m.battles.push(Battle::new(m.variant));
        }
        Ok(m)
    }
}

//! A battle: one game from a start position until the side to move has no move, an objective
//! is reached, or both players agree to end it.

use serde::{Deserialize, Serialize};

use super::legality::IllegalMove;
use super::moves::Move;
use super::notation::MoveText;
use super::position::Position;
use super::score::{Points, Score};
use super::side::Side;
use super::variant::Variant;

/// How a battle ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum BattleEnd {
    /// Both players agreed to stop.
    Agreement,
    /// The side to move had no legal move (or no pieces).
    NoLegalMove { side: Side },
    /// Koom Valley: a side reached its objective.
    Objective { winner: Side },
}

/// The result of a finished battle.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct BattleResult {
    pub end: BattleEnd,
    /// Pieces left, counted as the rules count them.
    pub score: Score,
    /// The winning side, `None` for a draw.
    pub winner: Option<Side>,
    /// What the winner scores towards the match: the margin in points on the board, or in
    /// Koom Valley 1 for a win.
    pub margin: Points,
}

impl BattleResult {
    /// The match points this battle gives `side`.
    pub fn points_for(&self, side: Side, variant: Variant) -> Points {
        match self.winner {
            Some(w) if w == side => self.margin,
            Some(_) => Points::ZERO,
            // A drawn Koom Valley battle is half a point each; a classic draw scores nothing.
            None if variant.wins_by_objective() => Points::HALF,
            None => Points::ZERO,
        }
    }
}

/// One battle: its start, its moves, and where it stands.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(try_from = "BattleRecord", into = "BattleRecord")]
pub struct Battle {
    start: Position,
    moves: Vec<Move>,
    position: Position,
    end: Option<BattleEnd>,
}

impl Battle {
    /// A battle from the variant's start.
    pub fn new(variant: Variant) -> Battle {
        Battle::from_position(Position::start(variant))
    }

    /// A battle from any position.
    pub fn from_position(start: Position) -> Battle {
        let mut battle = Battle {
            position: start.clone(),
            start,
            moves: Vec::new(),
            end: None,
        };
        battle.end = battle.natural_end();
        battle
    }

    pub fn variant(&self) -> Variant {
        self.start.variant()
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    pub fn last_move(&self) -> Option<&Move> {
        self.moves.last()
    }

    /// The side to move; `None` once the battle is over.
    pub fn side_to_move(&self) -> Option<Side> {
        self.end.is_none().then(|| self.position.side_to_move())
    }

    pub fn is_over(&self) -> bool {
        self.end.is_some()
    }

    pub fn end(&self) -> Option<BattleEnd> {
        self.end
    }

    /// Pieces on the board, counted as the rules count them.
    pub fn score(&self) -> Score {
        self.position.score()
    }

    /// Plays the move `text` names, or says why it is illegal and changes nothing.
    pub fn play(&mut self, text: &MoveText) -> Result<Move, IllegalMove> {
        if self.end.is_some() {
            return Err(IllegalMove::BattleOver);
        }
        let mv = self.position.resolve(text)?;
        self.apply(mv);
        Ok(mv)
    }

    /// Plays `mv` if it is one of the legal moves.
    pub fn play_move(&mut self, mv: Move) -> Result<(), IllegalMove> {
        if self.end.is_some() {
            return Err(IllegalMove::BattleOver);
        }
        if !self.position.legal_moves().contains(&mv) {
            return Err(IllegalMove::NotLegal);
        }
        self.apply(mv);
        Ok(())
    }

    fn apply(&mut self, mv: Move) {
        self.position.make(&mv);
        self.moves.push(mv);
        self.end = self.natural_end();
    }

    /// Ends the battle because both players agreed.
    pub fn end_by_agreement(&mut self) -> Result<(), IllegalMove> {
        if self.end.is_some() {
            return Err(IllegalMove::BattleOver);
        }
        self.end = Some(BattleEnd::Agreement);
        Ok(())
    }

    /// An end the position itself brings: an objective reached, or no legal move.
    fn natural_end(&self) -> Option<BattleEnd> {
        if let Some(winner) = self.position.objective_reached() {
            return Some(BattleEnd::Objective { winner });
        }
        (!self.position.has_legal_move()).then(|| BattleEnd::NoLegalMove {
            side: self.position.side_to_move(),
        })
    }

    /// The result, once the battle is over.
    pub fn result(&self) -> Option<BattleResult> {
        let end = self.end?;
        let score = self.score();
        let (winner, margin) = if self.variant().wins_by_objective() {
            match end {
                BattleEnd::Objective { winner } => (Some(winner), Points::whole(1)),
                _ => (None, Points::ZERO),
            }
        } else {
            match score.leader() {
                Some((side, margin)) => (Some(side), Points::whole(margin)),
                None => (None, Points::ZERO),
            }
        };
        Some(BattleResult {
            end,
            score,
            winner,
            margin,
        })
    }

    /// Every position of the battle, from the start to now.
    pub fn positions(&self) -> Vec<Position> {
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        let mut at = self.start.clone();
        positions.push(at.clone());
        for mv in &self.moves {
            at.make(mv);
            positions.push(at.clone());
        }
        positions
    }
}

/// A battle as stored: the start, the moves in notation, and whether it ended by agreement.
/// Reading it back replays every move, so a stored battle can never hold an illegal one.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct BattleRecord {
    pub variant: Variant,
    pub start: String,
    pub moves: Vec<String>,
    pub agreed: bool,
}

/// Why a stored battle could not be read back.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    #[error("bad start position: {0}")]
    Start(#[from] super::fen::FenError),
    #[error("move {number} `{text}`: {reason}")]
    Move {
        number: usize,
        text: String,
        reason: String,
    },
}

impl From<Battle> for BattleRecord {
    fn from(b: Battle) -> BattleRecord {
        BattleRecord {
            variant: b.variant(),
            start: b.start.fen(),
            moves: b.moves.iter().map(Move::to_string).collect(),
            agreed: b.end == Some(BattleEnd::Agreement),
        }
    }
}

impl TryFrom<BattleRecord> for Battle {
    type Error = RecordError;

    fn try_from(r: BattleRecord) -> Result<Battle, RecordError> {
        let mut battle = Battle::from_position(Position::from_fen(&r.start, r.variant)?);
        for (i, text) in r.moves.iter().enumerate() {
            let fail = |reason: String| RecordError::Move {
                number: i + 1,
                text: text.clone(),
                reason,
            };
            let parsed: MoveText = text
                .parse()
                .map_err(|e: super::notation::NotationError| fail(e.to_string()))?;
            battle.play(&parsed).map_err(|e| fail(e.to_string()))?;
        }
        if r.agreed {
            battle
                .end_by_agreement()
                .map_err(|e| fail_agreement(r.moves.len(), e))?;
        }
        Ok(battle)
    }
}

fn fail_agreement(moves: usize, e: IllegalMove) -> RecordError {
    RecordError::Move {
        number: moves + 1,
        text: "end by agreement".into(),
        reason: e.to_string(),
    }
}

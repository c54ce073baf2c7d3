//! Settling what a player's move text means in a position, and saying in the player's words
//! why it is refused.
//!
//! A text is accepted exactly when it names one of [`Position::legal_moves`], so the validator
//! and the generator cannot disagree; the rest of this file only explains refusals.

use super::koom_valley::TROLL_REACH;
use super::moves::Move;
use super::notation::MoveText;
use super::piece::Piece;
use super::position::{Cell, Position};
use super::side::Side;
use super::square::{Direction, Square};
use super::square_set::SquareSet;
use super::variant::Variant;

/// Why a proposed move is not legal, written for the player who proposed it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("this battle is over; no more moves can be made")]
    BattleOver,
    #[error("there is no piece on {square}")]
    NoPiece { square: Square },
    #[error("that is not your piece: {square} holds a {piece} and it is the {side}' turn")]
    NotYourPiece {
        square: Square,
        piece: &'static str,
        side: Side,
    },
    #[error("{square} holds a {found}, not a {named}")]
    WrongPiece {
        square: Square,
        named: &'static str,
        found: &'static str,
    },
    #[error("the Thudstone never moves")]
    StoneNeverMoves,
    #[error("a move must leave {square}")]
    Stationary { square: Square },
    #[error("{from} to {to} is not a straight line")]
    NotALine { from: Square, to: Square },
    #[error("{square} is in the way")]
    InTheWay { square: Square },
    #[error("{square} is taken by a {piece}")]
    Occupied { square: Square, piece: &'static str },
    #[error("a line of {line} {} can hurl at most {line} {}", plural(*line, "dwarf"), plural(*line, "square"))]
    HurlTooFar { line: u8 },
    #[error("a hurl captures only the troll it lands on, {landing}")]
    HurlCapturesLanding { landing: Square },
    #[error("a line of {line} {} can be shoved at most {line} {}", plural(*line, "troll"), plural(*line, "square"))]
    ShoveTooFar { line: u8 },
    #[error("only a line of two or more trolls can shove under the original rules")]
    ShoveNeedsTwoTrolls,
    #[error("a shove must capture a dwarf")]
    ShoveMustCapture,
    #[error("{capture} is not next to {landing}")]
    NotNextTo { capture: Square, landing: Square },
    #[error("{square} holds no {piece} to capture")]
    NothingToCapture { square: Square, piece: &'static str },
    #[error("after a step a troll may capture at most one dwarf under the original rules")]
    OneCaptureAfterStep,
    #[error(
        "a shove captures every dwarf around its landing square under the original rules: {all}"
    )]
    ShoveCapturesAll { all: SquareSet },
    #[error("this move captures {}", if captures.is_empty() { "nothing".to_string() } else { captures.to_string() })]
    CapturesAreAutomatic { captures: SquareSet },
    #[error("only a Koom Valley trample lists several landing squares")]
    SeveralLandings,
    #[error("in Koom Valley dwarfs do not hurl; they capture a troll by sandwiching it against another dwarf")]
    NoHurlInKoomValley,
    #[error("in Koom Valley a troll walks at most {TROLL_REACH} squares, or tramples over dwarfs")]
    TrollReach,
    #[error("in Koom Valley trolls capture only by trampling: jumping over a dwarf next to them")]
    WalkCannotCapture,
    #[error("a trample jumps over a dwarf next to the troll onto the empty square beyond; {hop} is not such a jump")]
    BadTrampleJump { hop: String },
    #[error("the Rock moves one square at a time")]
    RockMovesOneSquare,
    #[error("a dwarf must stand next to the Rock before it is moved")]
    RockNeedsDwarfBefore,
    #[error("a dwarf must stand next to the Rock's new square {square}")]
    RockNeedsDwarfAfter { square: Square },
    #[error("that move is not legal here")]
    NotLegal,
}

fn plural(n: u8, word: &str) -> String {
    if n == 1 {
        word.to_string()
    } else {
        format!("{word}s")
    }
}

impl Position {
    /// The legal move `text` names, or why there is none. Captures a move makes by itself
    /// (a hurl, a Koom Valley sandwich or trample) may be left out of the text.
    pub fn resolve(&self, text: &MoveText) -> Result<Move, IllegalMove> {
        if !self.has_legal_move() {
            return Err(IllegalMove::BattleOver);
        }
        let from = text.from();
        let variant = self.variant();
        let piece = self
            .piece_at(from)
            .ok_or(IllegalMove::NoPiece { square: from })?;
        if let Some(named) = text.piece {
            if named != piece {
                return Err(IllegalMove::WrongPiece {
                    square: from,
                    named: named.name(variant),
                    found: piece.name(variant),
                });
            }
        }
        self.check_owner(from, piece)?;
        let landings = &text.squares[1..];
        let legal = self.legal_moves_from(from);
        let candidates: Vec<&Move> = legal
            .iter()
            .filter(|m| landings_of(m) == landings)
            .collect();
        let named: SquareSet = text.captures.iter().copied().collect();
        if let Some(m) = candidates.iter().find(|m| m.captured() == named) {
            return Ok(**m);
        }
        if named.is_empty() {
            if let [only] = candidates.as_slice() {
                if makes_its_own_captures(only) {
                    return Ok(**only);
                }
            }
        }
        if candidates.is_empty() {
            Err(self.explain_path(text, piece))
        } else {
            Err(self.explain_captures(&candidates, text.to(), named))
        }
    }

    fn check_owner(&self, square: Square, piece: Piece) -> Result<(), IllegalMove> {
        let side = self.side_to_move();
        let owner = match piece {
            Piece::Dwarf => Side::Dwarfs,
            Piece::Troll => Side::Trolls,
            Piece::Stone if self.variant() == Variant::KoomValley => Side::Dwarfs,
            Piece::Stone => return Err(IllegalMove::StoneNeverMoves),
        };
        if owner == side {
            Ok(())
        } else {
            Err(IllegalMove::NotYourPiece {
                square,
                piece: piece.name(self.variant()),
                side,
            })
        }
    }

    /// Why no legal move of this piece lands where the text says.
    fn explain_path(&self, text: &MoveText, piece: Piece) -> IllegalMove {
        let (from, to) = (text.from(), text.to());
        let koom_valley = self.variant() == Variant::KoomValley;
        if piece == Piece::Troll
            && koom_valley
            && (text.squares.len() > 2 || !text.captures.is_empty())
        {
            return self.explain_trample(text);
        }
        if text.squares.len() > 2 {
            return IllegalMove::SeveralLandings;
        }
        if from == to {
            return IllegalMove::Stationary { square: from };
        }
        let Some((d, distance)) = from.line_to(to) else {
            return IllegalMove::NotALine { from, to };
        };
        match (piece, koom_valley) {
            (Piece::Stone, _) => {
                if distance > 1 {
                    IllegalMove::RockMovesOneSquare
                } else if let Some(p) = self.piece_at(to) {
                    self.occupied(to, p)
                } else if self.dwarfs_around(from).is_empty() {
                    IllegalMove::RockNeedsDwarfBefore
                } else {
                    IllegalMove::RockNeedsDwarfAfter { square: to }
                }
            }
            (Piece::Troll, true) if distance > TROLL_REACH => IllegalMove::TrollReach,
            (Piece::Troll, false) if distance > 1 => {
                let line = self.line_length(from, d.opposite(), Cell::Troll, u8::MAX);
                if self.variant() == Variant::Original && line < 2 {
                    IllegalMove::ShoveNeedsTwoTrolls
                } else if distance > line {
                    IllegalMove::ShoveTooFar { line }
                } else {
                    self.blocked(from, d, distance)
                        .or_else(|| self.misnamed_capture(text.captures.iter().copied(), to))
                        .unwrap_or(IllegalMove::ShoveMustCapture)
                }
            }
            (Piece::Dwarf, _) => {
                if let Some(blocked) = self.in_the_way(from, d, distance - 1) {
                    return blocked;
                }
                match self.piece_at(to) {
                    Some(Piece::Troll) if koom_valley => IllegalMove::NoHurlInKoomValley,
                    Some(Piece::Troll) => IllegalMove::HurlTooFar {
                        line: self.line_length(from, d.opposite(), Cell::Dwarf, u8::MAX),
                    },
                    Some(p) => self.occupied(to, p),
                    None => IllegalMove::NotLegal,
                }
            }
            _ => self
                .blocked(from, d, distance)
                .unwrap_or(IllegalMove::NotLegal),
        }
    }

    /// The first square taken among the `distance` squares from `from` in direction `d`.
    fn blocked(&self, from: Square, d: Direction, distance: u8) -> Option<IllegalMove> {
        let mut at = from;
        for k in 1..=distance {
            at = at.step(d)?;
            if let Some(p) = self.piece_at(at) {
                return Some(if k == distance {
                    self.occupied(at, p)
                } else {
                    IllegalMove::InTheWay { square: at }
                });
            }
        }
        None
    }

    /// The first square taken among the `passed` squares a piece travels over (not onto).
    fn in_the_way(&self, from: Square, d: Direction, passed: u8) -> Option<IllegalMove> {
        let mut at = from;
        for _ in 0..passed {
            at = at.step(d)?;
            if self.piece_at(at).is_some() {
                return Some(IllegalMove::InTheWay { square: at });
            }
        }
        None
    }

    fn occupied(&self, square: Square, piece: Piece) -> IllegalMove {
        IllegalMove::Occupied {
            square,
            piece: piece.name(self.variant()),
        }
    }

    /// Why a Koom Valley trample path is not one.
    fn explain_trample(&self, text: &MoveText) -> IllegalMove {
        let mut gone = SquareSet::single(text.from());
        for hop in text.squares.windows(2) {
            let (at, landing) = (hop[0], hop[1]);
            let describe = || format!("{at}-{landing}");
            let Some((d, 2)) = at.line_to(landing) else {
                return IllegalMove::BadTrampleJump { hop: describe() };
            };
            let Some(over) = at.step(d) else {
                return IllegalMove::BadTrampleJump { hop: describe() };
            };
            let over_is_dwarf = self.dwarfs().contains(over) && !gone.contains(over);
            let landing_free = self.is_empty(landing) || gone.contains(landing);
            if !over_is_dwarf || !landing_free {
                return IllegalMove::BadTrampleJump { hop: describe() };
            }
            gone.insert(over);
        }
        if text.squares.len() == 2 {
            IllegalMove::WalkCannotCapture
        } else {
            IllegalMove::NotLegal
        }
    }

    /// The first capture named that a troll landing on `landing` cannot make: a square not
    /// next to it, or one with no dwarf on it.
    fn misnamed_capture(
        &self,
        named: impl IntoIterator<Item = Square>,
        landing: Square,
    ) -> Option<IllegalMove> {
        named.into_iter().find_map(|sq| {
            if !sq.is_adjacent(landing) {
                Some(IllegalMove::NotNextTo {
                    capture: sq,
                    landing,
                })
            } else if !self.dwarfs().contains(sq) {
                Some(IllegalMove::NothingToCapture {
                    square: sq,
                    piece: "dwarf",
                })
            } else {
                None
            }
        })
    }

    /// Why the captures named do not fit any legal move with this landing.
    fn explain_captures(
        &self,
        candidates: &[&Move],
        landing: Square,
        named: SquareSet,
    ) -> IllegalMove {
        let first = candidates[0];
        match first {
            Move::Hurl { .. } => return IllegalMove::HurlCapturesLanding { landing },
            Move::Dwarf { .. } | Move::Trample { .. } | Move::Rock { .. } => {
                return IllegalMove::CapturesAreAutomatic {
                    captures: first.captured(),
                }
            }
            Move::Troll { .. } if self.variant() == Variant::KoomValley => {
                return IllegalMove::WalkCannotCapture
            }
            Move::Troll { .. } => {}
        }
        if let Some(why) = self.misnamed_capture(named, landing) {
            return why;
        }
        let around = self.dwarfs_around(landing);
        let from = first.from();
        let is_step = from.is_adjacent(landing);
        let in_a_line = from
            .line_to(landing)
            .is_some_and(|(d, _)| self.line_reaches(from, d.opposite(), Cell::Troll, 2));
        match self.variant() {
            // Capturing several after one square is a shove, which takes them all.
            Variant::Original if is_step && named.len() > 1 && in_a_line => {
                IllegalMove::ShoveCapturesAll { all: around }
            }
            Variant::Original if is_step && named.len() > 1 => IllegalMove::OneCaptureAfterStep,
            Variant::Original if !is_step => IllegalMove::ShoveCapturesAll { all: around },
            _ if named.is_empty() && !is_step => IllegalMove::ShoveMustCapture,
            _ => IllegalMove::NotLegal,
        }
    }
}

/// The landing squares a move names in notation (several only for a trample).
fn landings_of(m: &Move) -> Vec<Square> {
    match *m {
        Move::Trample { from, jumps } => jumps.landings(from).collect(),
        _ => vec![m.to()],
    }
}

/// Moves whose captures follow from where they go, so the player need not list them.
fn makes_its_own_captures(m: &Move) -> bool {
    matches!(
        m,
        Move::Hurl { .. } | Move::Dwarf { .. } | Move::Trample { .. }
    )
}

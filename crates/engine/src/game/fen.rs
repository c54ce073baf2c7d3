//! The FEN-like position format: rows 15 down to 1 separated by `/`, each listing only its
//! playable squares (`d` dwarf, `T` troll, `R` stone, digits for empty runs), then the side to
//! move (`d` or `t`).

use std::fmt;
use std::str::FromStr;

use super::piece::Piece;
use super::position::Position;
use super::side::Side;
use super::square::{Square, ROW_LENGTHS, SIZE};
use super::variant::Variant;

/// Why position text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    #[error("the position is empty")]
    Empty,
    #[error("a position has 15 rows separated by `/`, this one has {found}")]
    WrongRowCount { found: usize },
    #[error("row {row} should hold {expected} squares but holds {found}")]
    WrongRowLength { row: u8, expected: u8, found: usize },
    #[error("row {row} holds `{letter}`, which is not a piece (d dwarf, T troll, R stone)")]
    UnknownPiece { row: u8, letter: char },
    #[error("there is no Thudstone (R) on the board")]
    NoStone,
    #[error("there are {count} Thudstones (R); there must be exactly one")]
    SeveralStones { count: usize },
    #[error("there are {found} {piece}s, more than a {variant} battle starts with ({max})")]
    TooManyPieces {
        piece: &'static str,
        found: usize,
        max: usize,
        variant: Variant,
    },
    #[error("the side to move is missing; end the position with ` d` or ` t`")]
    MissingSide,
    #[error("`{text}` is not a side to move; use d (dwarfs) or t (trolls)")]
    BadSide { text: String },
    #[error("unexpected text after the side to move: `{text}`")]
    TrailingText { text: String },
}

impl Position {
    /// Reads a position to be played under `variant`.
    pub fn from_fen(text: &str, variant: Variant) -> Result<Position, FenError> {
        let mut fields = text.split_whitespace();
        let board = fields.next().ok_or(FenError::Empty)?;
        let side = match fields.next() {
            None => return Err(FenError::MissingSide),
            Some("d") | Some("D") => Side::Dwarfs,
            Some("t") | Some("T") => Side::Trolls,
            Some(other) => {
                return Err(FenError::BadSide {
                    text: other.to_string(),
                })
            }
        };
        if let Some(extra) = fields.next() {
            return Err(FenError::TrailingText {
                text: extra.to_string(),
            });
        }
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != SIZE as usize {
            return Err(FenError::WrongRowCount { found: rows.len() });
        }
        let mut pieces: Vec<(Square, Piece)> = Vec::new();
        for (i, row_text) in rows.iter().enumerate() {
            let row = SIZE - 1 - i as u8;
            let expected = ROW_LENGTHS[row as usize];
            let cut = (SIZE - expected) / 2;
            let mut filled = 0usize;
            let mut chars = row_text.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(digit) = c.to_digit(10) {
                    let mut run = digit as usize;
                    while let Some(next) = chars.peek().and_then(|c| c.to_digit(10)) {
                        run = run.saturating_mul(10).saturating_add(next as usize);
                        chars.next();
                    }
                    filled = filled.saturating_add(run);
                    continue;
                }
                let piece = match c {
                    'd' | 'D' => Piece::Dwarf,
                    'T' | 't' => Piece::Troll,
                    'R' | 'r' => Piece::Stone,
                    letter => {
                        return Err(FenError::UnknownPiece {
                            row: row + 1,
                            letter,
                        })
                    }
                };
                if filled < expected as usize {
                    let sq = Square::from_coords(cut + filled as u8, row)
                        .expect("columns within the row length are playable");
                    pieces.push((sq, piece));
                }
                filled += 1;
            }
            if filled != expected as usize {
                return Err(FenError::WrongRowLength {
                    row: row + 1,
                    expected,
                    found: filled,
                });
            }
        }
        let stones: Vec<Square> = pieces
            .iter()
            .filter(|(_, p)| *p == Piece::Stone)
            .map(|(s, _)| *s)
            .collect();
        let stone = match stones.as_slice() {
            [] => return Err(FenError::NoStone),
            [one] => *one,
            several => {
                return Err(FenError::SeveralStones {
                    count: several.len(),
                })
            }
        };
        let (max_dwarfs, max_trolls) = variant.starting_pieces();
        for (piece, max) in [(Piece::Dwarf, max_dwarfs), (Piece::Troll, max_trolls)] {
            let found = pieces.iter().filter(|(_, p)| *p == piece).count();
            if found > max {
                return Err(FenError::TooManyPieces {
                    piece: piece.name(variant),
                    found,
                    max,
                    variant,
                });
            }
        }
        let mut position = Position::with_stone(variant, stone, side);
        for (sq, piece) in pieces {
            if piece != Piece::Stone {
                position.put(sq, piece);
            }
        }
        Ok(position)
    }

    /// The position in the FEN-like format.
    pub fn fen(&self) -> String {
        self.to_string()
    }
}

impl FromStr for Position {
    type Err = FenError;

    /// Reads a classic position; use [`Position::from_fen`] for another variant.
    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s, Variant::Classic)
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..SIZE).rev() {
            let mut empty = 0;
            for column in 0..SIZE {
                let Some(sq) = Square::from_coords(column, row) else {
                    continue;
                };
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(piece) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", piece.letter())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.side_to_move().letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::variant::CLASSIC_START;

    #[test]
    fn the_classic_start_reads_and_prints_back() {
        let pos: Position = CLASSIC_START.parse().unwrap();
        assert_eq!(pos.to_string(), CLASSIC_START);
        assert_eq!(pos.dwarfs().len(), 32);
        assert_eq!(pos.trolls().len(), 8);
        assert_eq!(pos.stone().to_string(), "H8");
        assert_eq!(pos.side_to_move(), Side::Dwarfs);
    }

    #[test]
    fn bad_positions_give_specific_errors() {
        let start = CLASSIC_START;
        assert_eq!("".parse::<Position>(), Err(FenError::Empty));
        assert_eq!(
            start.trim_end_matches(" d").parse::<Position>(),
            Err(FenError::MissingSide)
        );
        assert!(matches!(
            start.replace(" d", " x").parse::<Position>(),
            Err(FenError::BadSide { .. })
        ));
        assert!(matches!(
            format!("{start} extra").parse::<Position>(),
            Err(FenError::TrailingText { .. })
        ));
        // Row 15 with one square too many.
        assert_eq!(
            start.replacen("dd1dd", "dd2dd", 1).parse::<Position>(),
            Err(FenError::WrongRowLength {
                row: 15,
                expected: 5,
                found: 6
            })
        );
        assert_eq!(
            start.replacen("dd1dd", "dd1dq", 1).parse::<Position>(),
            Err(FenError::UnknownPiece {
                row: 15,
                letter: 'q'
            })
        );
        assert_eq!(
            start.replace("TRT", "TTT").parse::<Position>(),
            Err(FenError::NoStone)
        );
        assert_eq!(
            start.replacen("dd1dd", "ddRdd", 1).parse::<Position>(),
            Err(FenError::SeveralStones { count: 2 })
        );
        assert_eq!(
            start.replacen("/", "", 1).parse::<Position>(),
            Err(FenError::WrongRowCount { found: 14 })
        );
        assert!("99999999999999999999999/".parse::<Position>().is_err());
        assert!(matches!(
            start.replacen("dd1dd", "ddddd", 1).parse::<Position>(),
            Err(FenError::TooManyPieces {
                found: 33,
                max: 32,
                ..
            })
        ));
    }

    #[test]
    fn every_error_message_reads_as_a_sentence() {
        let err = CLASSIC_START
            .replacen("dd1dd", "dd1dq", 1)
            .parse::<Position>()
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "row 15 holds `q`, which is not a piece (d dwarf, T troll, R stone)"
        );
    }
}

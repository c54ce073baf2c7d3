//! Reading move text as players type it. What a text means is settled against a position
//! (see [`crate::game::Position::resolve`]), since `TF3-H5xG4` is a shove in one variant and a
//! trample in another.

use std::fmt;
use std::str::FromStr;

use super::piece::Piece;
use super::square::{Square, SquareError};

/// A move as written: an optional piece letter, the start and landing squares, and the
/// squares the player says are captured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveText {
    pub piece: Option<Piece>,
    /// The start square followed by each landing square (more than one only for a trample).
    pub squares: Vec<Square>,
    pub captures: Vec<Square>,
}

impl MoveText {
    /// A text naming just a start, a landing and captures.
    pub fn new(from: Square, to: Square, captures: Vec<Square>) -> MoveText {
        MoveText {
            piece: None,
            squares: vec![from, to],
            captures,
        }
    }

    /// The start square.
    pub fn from(&self) -> Square {
        self.squares[0]
    }

    /// The final landing square.
    pub fn to(&self) -> Square {
        self.squares[self.squares.len() - 1]
    }
}

/// Why move text could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    #[error("the move is empty; write it like F1-F5 or dE6-H9xH9")]
    Empty,
    #[error("`{text}` needs a start and a landing square joined by `-`, like F1-F5")]
    MissingLanding { text: String },
    #[error("in `{text}`: {error}")]
    BadSquare { text: String, error: SquareError },
    #[error("in `{text}`: a capture needs a square after `x`")]
    EmptyCapture { text: String },
}

impl FromStr for MoveText {
    type Err = NotationError;

    /// Reads `dA6-A9`, `D4-G7xG7`, `tg7-f6 x e5 x f5`, `TF3-H5-J7xG4xI6`, `RH8-H9`.
    /// Captures may also be listed with commas: `G7-F6xE5,F5`.
    fn from_str(s: &str) -> Result<MoveText, NotationError> {
        let text = s.trim();
        if text.is_empty() {
            return Err(NotationError::Empty);
        }
        let (piece, rest) = split_piece_letter(text);
        let mut parts = rest.split(['x', 'X']);
        let path = parts.next().unwrap_or_default();
        let square = |part: &str| {
            part.parse::<Square>()
                .map_err(|error| NotationError::BadSquare {
                    text: text.to_string(),
                    error,
                })
        };
        let squares = path.split('-').map(square).collect::<Result<Vec<_>, _>>()?;
        if squares.len() < 2 {
            return Err(NotationError::MissingLanding {
                text: text.to_string(),
            });
        }
        let mut captures = Vec::new();
        for part in parts {
            if part.trim().is_empty() {
                return Err(NotationError::EmptyCapture {
                    text: text.to_string(),
                });
            }
            for name in part.split(',') {
                captures.push(square(name)?);
            }
        }
        Ok(MoveText {
            piece,
            squares,
            captures,
        })
    }
}

/// Splits off a leading piece letter. `d` is also a column, so it is a piece letter only when
/// another letter follows (`dD4`, `d d4`); `t` and `r` are not columns.
fn split_piece_letter(text: &str) -> (Option<Piece>, &str) {
    let mut chars = text.chars();
    let first = chars.next().map(|c| c.to_ascii_lowercase());
    let rest = chars.as_str();
    let piece = match first {
        Some('t') => Some(Piece::Troll),
        Some('r') => Some(Piece::Stone),
        Some('d')
            if rest
                .trim_start()
                .starts_with(|c: char| c.is_ascii_alphabetic()) =>
        {
            Some(Piece::Dwarf)
        }
        _ => None,
    };
    match piece {
        Some(p) => (Some(p), rest),
        None => (None, text),
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.piece {
            write!(f, "{}", p.letter())?;
        }
        for (i, sq) in self.squares.iter().enumerate() {
            if i > 0 {
                f.write_str("-")?;
            }
            write!(f, "{sq}")?;
        }
        for sq in &self.captures {
            write!(f, "x{sq}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        name.parse().unwrap()
    }

    #[test]
    fn notation_is_read_with_or_without_piece_letters_in_any_case() {
        let m: MoveText = "dA6-A9".parse().unwrap();
        assert_eq!(m.piece, Some(Piece::Dwarf));
        assert_eq!(m.squares, [sq("A6"), sq("A9")]);
        let m: MoveText = "D4-G7xG7".parse().unwrap();
        assert_eq!(m.piece, None);
        assert_eq!(m.squares, [sq("D4"), sq("G7")]);
        assert_eq!(m.captures, [sq("G7")]);
        let m: MoveText = " tg7 - f6 x e5 x f5 ".parse().unwrap();
        assert_eq!(m.piece, Some(Piece::Troll));
        assert_eq!(m.captures, [sq("E5"), sq("F5")]);
        let m: MoveText = "TF3-H5-J7xG4xI6".parse().unwrap();
        assert_eq!(m.squares.len(), 3);
        let m: MoveText = "rh8-h9".parse().unwrap();
        assert_eq!(m.piece, Some(Piece::Stone));
        let m: MoveText = "G7-F6xE5, F5".parse().unwrap();
        assert_eq!(m.captures, [sq("E5"), sq("F5")]);
        let m: MoveText = "d d4-g7".parse().unwrap();
        assert_eq!(m.piece, Some(Piece::Dwarf));
    }

    #[test]
    fn bad_notation_names_the_bad_part() {
        assert_eq!("".parse::<MoveText>(), Err(NotationError::Empty));
        assert!(matches!(
            "F1".parse::<MoveText>(),
            Err(NotationError::MissingLanding { .. })
        ));
        let err = "F1-Z5".parse::<MoveText>().unwrap_err();
        assert!(err.to_string().contains("Z5"), "{err}");
        let err = "F1-F5x".parse::<MoveText>().unwrap_err();
        assert!(matches!(err, NotationError::EmptyCapture { .. }));
        assert!("F1-F5xH1 5".parse::<MoveText>().is_err());
        assert!("--".parse::<MoveText>().is_err());
        assert!("ü".parse::<MoveText>().is_err());
    }
}

//! Squares of the octagonal board, the eight directions, and square notation (`H8`).

use std::fmt;
use std::str::FromStr;

/// Board width and height: a 15×15 grid with a triangle cut from each corner.
pub const SIZE: u8 = 15;

/// How many squares each row holds, from row 1 to row 15.
pub const ROW_LENGTHS: [u8; 15] = [5, 7, 9, 11, 13, 15, 15, 15, 15, 15, 13, 11, 9, 7, 5];

/// Number of playable squares.
pub const SQUARE_COUNT: usize = 165;

/// A playable square of the board.
///
/// The index is `column * 16 + row` (both from 0). Column 15 and row 15 never hold a playable
/// square, so one step in any direction from a playable square, computed with wrapping `u8`
/// arithmetic, lands either on its true neighbour or on that padding: board code can step without
/// bounds checks and simply find "off the board".
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

/// Whether the grid cell (column, row), both from 0, is one of the 165 playable squares.
pub const fn is_playable(column: u8, row: u8) -> bool {
    if column >= SIZE || row >= SIZE {
        return false;
    }
    let cut = (SIZE - ROW_LENGTHS[row as usize]) / 2;
    column >= cut && column < SIZE - cut
}

/// A table over all 256 padded indices saying which are playable.
const PLAYABLE: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 256 {
        table[i] = is_playable((i / 16) as u8, (i % 16) as u8);
        i += 1;
    }
    table
};

impl Square {
    /// The square at (column, row), both counted from 0, if it is playable.
    pub const fn from_coords(column: u8, row: u8) -> Option<Square> {
        if is_playable(column, row) {
            Some(Square(column * 16 + row))
        } else {
            None
        }
    }

    /// The square with this padded index, if it is playable.
    pub const fn from_index(index: u8) -> Option<Square> {
        if PLAYABLE[index as usize] {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square at a padded index the caller knows to be playable.
    #[inline(always)]
    pub(crate) const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(PLAYABLE[index as usize]);
        Square(index)
    }

    /// The padded index (`column * 16 + row`), used for board arrays of 256 cells.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Column from 0 (A) to 14 (O).
    #[inline]
    pub const fn column(self) -> u8 {
        self.0 / 16
    }

    /// Row from 0 (row 1) to 14 (row 15).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 % 16
    }

    /// The column letter, `A` to `O`.
    pub const fn column_letter(self) -> char {
        (b'A' + self.column()) as char
    }

    /// The neighbour in direction `d`, if it is on the board.
    #[inline]
    pub fn step(self, d: Direction) -> Option<Square> {
        Square::from_index(step_index(self.0, d))
    }

    /// All 165 playable squares, column by column (A1 … O10).
    pub fn all() -> impl Iterator<Item = Square> {
        (0u8..=255).filter_map(Square::from_index)
    }

    /// Whether the square lies on the edge: it has an orthogonal neighbour off the board.
    pub fn is_perimeter(self) -> bool {
        Direction::ORTHOGONAL
            .iter()
            .any(|&d| self.step(d).is_none())
    }

    /// The direction and distance from `self` to `other` when they share a line.
    pub fn line_to(self, other: Square) -> Option<(Direction, u8)> {
        let dc = other.column() as i8 - self.column() as i8;
        let dr = other.row() as i8 - self.row() as i8;
        if (dc, dr) == (0, 0) || !(dc == 0 || dr == 0 || dc.abs() == dr.abs()) {
            return None;
        }
        let d = Direction::from_offsets(dc.signum(), dr.signum())?;
        Some((d, dc.abs().max(dr.abs()) as u8))
    }

    /// Whether the two squares touch (orthogonally or diagonally).
    pub fn is_adjacent(self, other: Square) -> bool {
        matches!(self.line_to(other), Some((_, 1)))
    }
}

/// One step from a padded index, landing on the padding when it leaves the board.
#[inline(always)]
pub const fn step_index(index: u8, d: Direction) -> u8 {
    index.wrapping_add(d.delta() as u8)
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.column_letter(), self.row() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a piece of text is not a square.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SquareError {
    #[error("a square is missing (squares look like H8)")]
    Empty,
    #[error("`{text}` is not a square: the column must be a letter from A to O")]
    BadColumn { text: String },
    #[error("`{text}` is not a square: the row must be a number from 1 to 15")]
    BadRow { text: String },
    #[error("`{text}` is not a square: write the row number without spaces inside it")]
    SpaceInRow { text: String },
    #[error("{square} is not on the board: that corner is cut off the octagon")]
    OffBoard { square: String },
}

impl FromStr for Square {
    type Err = SquareError;

    /// Parses `H8`, `h8`, ` h 8 `; refuses `H1 5`, `P3`, `A1` (a cut corner).
    fn from_str(s: &str) -> Result<Square, SquareError> {
        let text = s.trim();
        let mut chars = text.chars();
        let Some(letter) = chars.next() else {
            return Err(SquareError::Empty);
        };
        let column = match letter.to_ascii_uppercase() {
            c @ 'A'..='O' => c as u8 - b'A',
            _ => {
                return Err(SquareError::BadColumn {
                    text: text.to_string(),
                })
            }
        };
        let number = chars.as_str().trim_start();
        if number.is_empty() || !number.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(SquareError::BadRow {
                text: text.to_string(),
            });
        }
        if number.chars().any(char::is_whitespace) {
            return Err(SquareError::SpaceInRow {
                text: text.to_string(),
            });
        }
        if !number.chars().all(|c| c.is_ascii_digit()) || number.len() > 2 {
            return Err(SquareError::BadRow {
                text: text.to_string(),
            });
        }
        let row: u8 = number.parse().map_err(|_| SquareError::BadRow {
            text: text.to_string(),
        })?;
        if !(1..=15).contains(&row) {
            return Err(SquareError::BadRow {
                text: text.to_string(),
            });
        }
        Square::from_coords(column, row - 1).ok_or_else(|| SquareError::OffBoard {
            square: format!("{}{}", (b'A' + column) as char, row),
        })
    }
}

/// Parses a comma-separated list of squares (`E5, F5`), naming the first bad part.
pub fn parse_square_list(s: &str) -> Result<Vec<Square>, SquareError> {
    if s.trim().is_empty() {
        return Ok(Vec::new());
    }
    s.split(',').map(str::parse).collect()
}

/// One of the eight directions a piece can travel.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    North,
    NorthEast,
    East,
    SouthEast,
    South,
    SouthWest,
    West,
    NorthWest,
}

impl Direction {
    /// All eight, clockwise from north; `ALL[i]` has mask bit `1 << i` in [`crate::game::Around`].
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// The four orthogonal directions.
    pub const ORTHOGONAL: [Direction; 4] = [
        Direction::North,
        Direction::East,
        Direction::South,
        Direction::West,
    ];

    /// Position in [`Direction::ALL`].
    #[inline]
    pub const fn number(self) -> usize {
        self as usize
    }

    /// The change of padded index for one step.
    #[inline(always)]
    pub const fn delta(self) -> i8 {
        match self {
            Direction::North => 1,
            Direction::NorthEast => 17,
            Direction::East => 16,
            Direction::SouthEast => 15,
            Direction::South => -1,
            Direction::SouthWest => -17,
            Direction::West => -16,
            Direction::NorthWest => -15,
        }
    }

    /// The direction pointing the other way.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Direction::ALL[(self as usize + 4) % 8]
    }

    /// The direction with these column and row offsets (each −1, 0 or 1, not both 0).
    pub const fn from_offsets(dc: i8, dr: i8) -> Option<Direction> {
        Some(match (dc, dr) {
            (0, 1) => Direction::North,
            (1, 1) => Direction::NorthEast,
            (1, 0) => Direction::East,
            (1, -1) => Direction::SouthEast,
            (0, -1) => Direction::South,
            (-1, -1) => Direction::SouthWest,
            (-1, 0) => Direction::West,
            (-1, 1) => Direction::NorthWest,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_165_squares_with_the_stated_row_lengths() {
        assert_eq!(Square::all().count(), SQUARE_COUNT);
        for row in 0..15u8 {
            let n = Square::all().filter(|s| s.row() == row).count();
            assert_eq!(n, ROW_LENGTHS[row as usize] as usize, "row {}", row + 1);
        }
        let row1: Vec<String> = Square::all()
            .filter(|s| s.row() == 0)
            .map(|s| s.to_string())
            .collect();
        assert_eq!(row1, ["F1", "G1", "H1", "I1", "J1"]);
        let row6 = Square::all().filter(|s| s.row() == 5).count();
        assert_eq!(row6, 15);
        assert!("A6".parse::<Square>().is_ok() && "O6".parse::<Square>().is_ok());
    }

    #[test]
    fn square_names_parse_case_insensitively_with_white_space_around_or_between() {
        let h8: Square = "H8".parse().unwrap();
        for text in ["h8", " H8 ", "h 8", "H\t8", "  h   8  "] {
            assert_eq!(text.parse::<Square>(), Ok(h8), "{text:?}");
        }
        assert_eq!(h8.to_string(), "H8");
        assert_eq!("o10".parse::<Square>().unwrap().to_string(), "O10");
    }

    #[test]
    fn bad_square_text_is_an_error_naming_the_bad_part() {
        assert!(matches!(
            "H1 5".parse::<Square>(),
            Err(SquareError::SpaceInRow { text }) if text == "H1 5"
        ));
        assert!(
            matches!("P3".parse::<Square>(), Err(SquareError::BadColumn { text }) if text == "P3")
        );
        assert!(matches!(
            "H16".parse::<Square>(),
            Err(SquareError::BadRow { .. })
        ));
        assert!(matches!(
            "H0".parse::<Square>(),
            Err(SquareError::BadRow { .. })
        ));
        assert!(matches!(
            "H".parse::<Square>(),
            Err(SquareError::BadRow { .. })
        ));
        assert!(matches!(
            "H8x".parse::<Square>(),
            Err(SquareError::BadRow { .. })
        ));
        assert!(matches!(
            "8H".parse::<Square>(),
            Err(SquareError::BadColumn { .. })
        ));
        assert_eq!("".parse::<Square>(), Err(SquareError::Empty));
        assert_eq!(
            "a1".parse::<Square>(),
            Err(SquareError::OffBoard {
                square: "A1".into()
            })
        );
        let message = "A1".parse::<Square>().unwrap_err().to_string();
        assert!(message.contains("A1"), "{message}");
        assert!("é5".parse::<Square>().is_err());
    }

    #[test]
    fn square_lists_are_separated_by_commas_and_name_the_bad_entry() {
        let list = parse_square_list("e5, F5 ,g 6").unwrap();
        let names: Vec<String> = list.iter().map(|s| s.to_string()).collect();
        assert_eq!(names, ["E5", "F5", "G6"]);
        assert_eq!(parse_square_list("  ").unwrap(), vec![]);
        let err = parse_square_list("E5, Z9").unwrap_err();
        assert!(err.to_string().contains("Z9"), "{err}");
        assert!(parse_square_list("E5 F5").is_err());
    }

    #[test]
    fn stepping_off_any_edge_finds_no_square() {
        for sq in Square::all() {
            for d in Direction::ALL {
                // A negative coordinate becomes 255 here, which is not playable either.
                let expected = Square::from_coords(
                    (sq.column() as i8 + col_offset(d)) as u8,
                    (sq.row() as i8 + row_offset(d)) as u8,
                );
                assert_eq!(sq.step(d), expected, "{sq} {d:?}");
            }
        }
    }

    fn col_offset(d: Direction) -> i8 {
        match d {
            Direction::NorthEast | Direction::East | Direction::SouthEast => 1,
            Direction::NorthWest | Direction::West | Direction::SouthWest => -1,
            _ => 0,
        }
    }

    fn row_offset(d: Direction) -> i8 {
        match d {
            Direction::North | Direction::NorthEast | Direction::NorthWest => 1,
            Direction::South | Direction::SouthEast | Direction::SouthWest => -1,
            _ => 0,
        }
    }

    #[test]
    fn the_board_is_convex_so_lines_between_squares_stay_on_it() {
        let squares: Vec<Square> = Square::all().collect();
        for &a in &squares {
            for &b in &squares {
                if let Some((d, n)) = a.line_to(b) {
                    let mut s = a;
                    for _ in 0..n {
                        s = s
                            .step(d)
                            .expect("a line between two squares leaves the board");
                    }
                    assert_eq!(s, b);
                }
            }
        }
    }

    #[test]
    fn perimeter_squares_are_those_with_an_orthogonal_neighbour_off_the_board() {
        let perimeter: Vec<String> = Square::all()
            .filter(|s| s.is_perimeter())
            .map(|s| s.to_string())
            .collect();
        // 32 dwarf squares plus H1, H15, A8, O8.
        assert_eq!(perimeter.len(), 36);
        for name in ["H1", "H15", "A8", "O8", "F1", "E2", "A6", "B5"] {
            assert!(perimeter.contains(&name.to_string()), "{name}");
        }
        assert!(!perimeter.contains(&"B6".to_string()));
    }
}

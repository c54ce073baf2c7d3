//! Taking a move back: finding the move that led to a position from its notation, as when a
//! position is given on its own with the move that reached it (the `render` command). The
//! position before is rebuilt by undoing the move, and the move is accepted only if it is
//! legal there and leads to the given position.

use super::{FenError, IllegalMove, Move, MoveText, Piece, Position, Side, Square, SquareSet};

/// Why a move could not have led to the position, written for the person who named it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LastMoveError {
    #[error("{square} is empty, so no move ended there")]
    NothingLanded { square: Square },
    #[error("{square} holds a {found}, but the move names a {named}")]
    WrongPiece {
        square: Square,
        named: &'static str,
        found: &'static str,
    },
    #[error("the move starts on {square}, but a piece stands there now")]
    StartTaken { square: Square },
    #[error("the move captures on {square}, but a piece stands there now")]
    CaptureTaken { square: Square },
    #[error("the position before the move would be impossible: {0}")]
    Before(FenError),
    #[error("the move is not legal in the position before it: {0}")]
    Illegal(IllegalMove),
    #[error("after a move by the {mover} it is the {}' turn, but the position gives the {mover} the move", mover.opposite())]
    SideToMove { mover: Side },
    #[error("the move does not lead to this position")]
    Elsewhere,
}

/// The move named by `text` that was just played to reach `position`. The text names its
/// captures as a record writes them (`TG7-F6xE5xF5`, `dD4-G7xG7`); only a Koom Valley trample
/// with several landings may leave them out, since its jumps say what it took.
pub fn last_move_into(position: &Position, text: &MoveText) -> Result<Move, LastMoveError> {
    let variant = position.variant();
    let to = text.to();
    let mover = position
        .piece_at(to)
        .ok_or(LastMoveError::NothingLanded { square: to })?;
    if let Some(named) = text.piece.filter(|&p| p != mover) {
        return Err(LastMoveError::WrongPiece {
            square: to,
            named: named.name(variant),
            found: mover.name(variant),
        });
    }
    let mut board: [[Option<Piece>; 15]; 15] = [[None; 15]; 15];
    for sq in Square::all() {
        board[sq.row() as usize][sq.column() as usize] = position.piece_at(sq);
    }
    let at = |sq: Square| (sq.row() as usize, sq.column() as usize);
    let (r, c) = at(to);
    board[r][c] = None;
    let victim = match mover {
        Piece::Troll => Some(Piece::Dwarf),
        Piece::Dwarf => Some(Piece::Troll),
        Piece::Stone => None,
    };
    let mut captured: SquareSet = text.captures.iter().copied().collect();
    if captured.is_empty() && mover == Piece::Troll && text.squares.len() > 2 {
        // A trample written without its captures: each jump removed the dwarf it passed.
        for hop in text.squares.windows(2) {
            if let Some(over) = hop[0]
                .line_to(hop[1])
                .and_then(|(d, n)| (n == 2).then_some(d).and_then(|d| hop[0].step(d)))
            {
                captured.insert(over);
            }
        }
    }
    for sq in captured {
        let (r, c) = at(sq);
        if board[r][c].is_some() {
            return Err(LastMoveError::CaptureTaken { square: sq });
        }
        board[r][c] = victim;
    }
    let from = text.from();
    let (r, c) = at(from);
    if board[r][c].is_some() {
        return Err(LastMoveError::StartTaken { square: from });
    }
    board[r][c] = Some(mover);
    let side = match mover {
        Piece::Troll => Side::Trolls,
        Piece::Dwarf | Piece::Stone => Side::Dwarfs,
    };
    let before = Position::from_fen(&fen(&board, side), variant).map_err(LastMoveError::Before)?;
    let mv = before.resolve(text).map_err(LastMoveError::Illegal)?;
    let after = before.after(&mv);
    if after.with_side_to_move(position.side_to_move()) != *position {
        return Err(LastMoveError::Elsewhere);
    }
    if position.side_to_move() == side {
        return Err(LastMoveError::SideToMove { mover: side });
    }
    Ok(mv)
}

/// Position text for `board` (indexed by row, then column, from 0) with `side` to move.
fn fen(board: &[[Option<Piece>; 15]; 15], side: Side) -> String {
    let mut out = String::with_capacity(100);
    for row in (0..15u8).rev() {
        let mut empty = 0;
        for column in 0..15u8 {
            if Square::from_coords(column, row).is_none() {
                continue;
            }
            match board[row as usize][column as usize] {
                Some(piece) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(piece.letter());
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if row > 0 {
            out.push('/');
        }
    }
    out.push(' ');
    out.push(side.letter());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Battle, Variant};

    fn text(s: &str) -> MoveText {
        s.parse().unwrap()
    }

    #[test]
    fn a_played_move_is_found_again_from_the_position_it_led_to() {
        let mut battle = Battle::new(Variant::Classic);
        for m in ["dA7-E7", "TG7-F6", "dA9-F9"] {
            battle.play(&text(m)).unwrap();
        }
        let played = battle.last_move().copied().unwrap();
        let found = last_move_into(battle.position(), &text("A9-F9")).unwrap();
        assert_eq!(found, played);
    }

    #[test]
    fn a_trample_is_found_with_or_without_its_captures() {
        let before = Position::from_fen(
            "5/7/9/11/13/15/15/7R7/15/6d8/13/5d5/5T3/7/5 t",
            Variant::KoomValley,
        )
        .unwrap();
        let trample = before.resolve(&text("TI3-G5-G7xH4xG6")).unwrap();
        let after = before.after(&trample);
        assert_eq!(
            last_move_into(&after, &text("TI3-G5-G7xG6xH4")),
            Ok(trample)
        );
        assert_eq!(last_move_into(&after, &text("I3-G5-G7")), Ok(trample));
        assert_eq!(
            last_move_into(
                &after.clone().with_side_to_move(Side::Trolls),
                &text("I3-G5-G7")
            ),
            Err(LastMoveError::SideToMove {
                mover: Side::Trolls
            })
        );
    }

    #[test]
    fn the_start_position_rebuilds_to_itself() {
        let start = Variant::Classic.start();
        let mut board = [[None; 15]; 15];
        for sq in Square::all() {
            board[sq.row() as usize][sq.column() as usize] = start.piece_at(sq);
        }
        assert_eq!(fen(&board, Side::Dwarfs), start.fen());
    }

    #[test]
    fn moves_that_cannot_have_led_here_are_refused_with_a_reason() {
        let start = Variant::Classic.start().with_side_to_move(Side::Trolls);
        assert_eq!(
            last_move_into(&start, &text("F2-F8")),
            Err(LastMoveError::NothingLanded {
                square: "F8".parse().unwrap()
            })
        );
        assert!(matches!(
            last_move_into(&start, &text("TB6-A6")),
            Err(LastMoveError::WrongPiece { .. })
        ));
        assert!(matches!(
            last_move_into(&start, &text("F1-A6")),
            Err(LastMoveError::StartTaken { .. })
        ));
        assert!(matches!(
            last_move_into(&start, &text("B6-A6xA7")),
            Err(LastMoveError::CaptureTaken { .. })
        ));
        // E3 and A6 do not share a line.
        assert!(matches!(
            last_move_into(&start, &text("E3-A6")),
            Err(LastMoveError::Illegal(_))
        ));
    }
}

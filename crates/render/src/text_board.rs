//! The "brief" board: the position as monospace text with coordinates, for a Discord code
//! block or a terminal.

use std::fmt::Write;

use thud_engine::game::{Piece, Position, Side, Square};

const COLUMNS: &str = "   A B C D E F G H I J K L M N O";

/// The position as monospace text: rows 15 to 1 with numbers on both sides, column letters
/// above and below, `d` dwarf, `T` troll, `R` Thudstone or Rock, `.` empty, `*` an empty
/// Koom Valley goal square; then whose turn it is and the score. About 700 characters, so it
/// fits a Discord message inside a ``` code block with room to spare.
pub fn text_board(position: &Position) -> String {
    board_text(position, false)
}

/// The brief board of a battle that has ended, perhaps by agreement with moves left.
pub fn ended_text_board(position: &Position) -> String {
    board_text(position, true)
}

fn board_text(position: &Position, over: bool) -> String {
    let variant = position.variant();
    let goals = variant.goal_squares();
    let mut out = String::with_capacity(800);
    out.push_str(COLUMNS);
    out.push('\n');
    for row in (0..15u8).rev() {
        let _ = write!(out, "{:>2}", row + 1);
        for column in 0..15u8 {
            out.push(' ');
            out.push(match Square::from_coords(column, row) {
                None => ' ',
                Some(sq) => match position.piece_at(sq) {
                    Some(piece) => piece.letter(),
                    None if goals.contains(sq) => '*',
                    None => '.',
                },
            });
        }
        let _ = writeln!(out, " {}", row + 1);
    }
    out.push_str(COLUMNS);
    out.push('\n');
    let name = |side| match side {
        Side::Dwarfs => "Dwarfs",
        Side::Trolls => "Trolls",
    };
    let turn = match position.objective_reached() {
        Some(winner) => format!("{} have won", name(winner)),
        None if over => "Battle over".to_string(),
        None if position.has_legal_move() => format!("{} to move", name(position.side_to_move())),
        None => format!("{} have no move", name(position.side_to_move())),
    };
    let stone = Piece::Stone.name(variant);
    if variant.wins_by_objective() {
        let _ = writeln!(
            out,
            "{turn} · {} left",
            pieces_left(position.dwarfs().len(), position.trolls().len())
        );
        let _ = write!(out, "d dwarf · T troll · R {stone} · * Rock's goal");
    } else {
        let score = position.score();
        let _ = writeln!(
            out,
            "{turn} · dwarfs {} · trolls {}",
            score.dwarfs, score.trolls
        );
        let _ = write!(out, "d dwarf · T troll · R {stone}");
    }
    out
}

/// [`text_board`] inside a ``` code block, ready to send as a Discord message.
pub fn text_board_block(position: &Position) -> String {
    format!("```\n{}\n```", text_board(position))
}

/// "3 dwarfs, 1 troll".
fn pieces_left(dwarfs: usize, trolls: usize) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    format!(
        "{dwarfs} dwarf{}, {trolls} troll{}",
        plural(dwarfs),
        plural(trolls)
    )
}

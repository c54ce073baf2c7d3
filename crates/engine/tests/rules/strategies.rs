//! Random positions written as text, and random variants: shared by the engine's property
//! tests and the bot's (tests/integration/what_players_read.rs includes this file).

use proptest::prelude::*;
use thud_engine::game::{Square, Variant};

/// Writes a position from lists of squares (by number among the 165), later pieces not
/// displacing earlier ones.
pub(crate) fn written_position(
    stone: usize,
    dwarfs: &[usize],
    trolls: &[usize],
    dwarfs_to_move: bool,
) -> String {
    let all: Vec<Square> = Square::all().collect();
    let mut cells = [None; 256];
    cells[all[stone].index()] = Some('R');
    for (list, letter) in [(trolls, 'T'), (dwarfs, 'd')] {
        for &i in list {
            let cell = &mut cells[all[i % all.len()].index()];
            if cell.is_none() {
                *cell = Some(letter);
            }
        }
    }
    let mut rows = Vec::new();
    for row in (0..15u8).rev() {
        let mut text = String::new();
        let mut run = 0;
        for column in 0..15u8 {
            let Some(sq) = Square::from_coords(column, row) else {
                continue;
            };
            match cells[sq.index()] {
                None => run += 1,
                Some(letter) => {
                    if run > 0 {
                        text += &run.to_string();
                        run = 0;
                    }
                    text.push(letter);
                }
            }
        }
        if run > 0 {
            text += &run.to_string();
        }
        rows.push(text);
    }
    format!(
        "{} {}",
        rows.join("/"),
        if dwarfs_to_move { 'd' } else { 't' }
    )
}

pub(crate) fn variant_strategy() -> impl Strategy<Value = Variant> {
    prop_oneof![
        Just(Variant::Classic),
        Just(Variant::Original),
        Just(Variant::KoomValley)
    ]
}

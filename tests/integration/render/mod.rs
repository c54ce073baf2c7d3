//! Board pictures as a player sees them: the PNG and GIF are decoded and their pixels checked
//! against the position, the last move and the theme's colours. By topic: the board picture,
//! replays, the text board, the `render` command, and the pictures in `docs/`.

mod board;
mod command;
mod docs;
mod graph;
mod replay;
mod text_board;

use std::io::Cursor;

use image::{AnimationDecoder, RgbImage};
use thudbot::game::{
    last_move_into, Battle, Move, MoveText, Piece, Position, Side, Square, SquareSet, Variant,
};
use thudbot::render::layout::{picture_size, square_centre, square_origin, SQUARE_PX};
use thudbot::render::{
    ended_text_board, text_board, text_board_block, BoardView, Caption, Colours, Renderer, Rgb,
    Theme,
};

/// The test process's one renderer (see `common::renderer`).
fn renderer() -> std::sync::Arc<Renderer> {
    crate::common::renderer()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap()
}

fn decode(png: &[u8]) -> RgbImage {
    image::load_from_memory(png).unwrap().to_rgb8()
}

fn pixel(img: &RgbImage, (x, y): (u32, u32)) -> Rgb {
    img.get_pixel(x, y).0
}

/// A battle of up to `moves` moves, each picked from the legal moves by a fixed
/// pseudo-random sequence: deterministic, with captures on both sides, and long-lasting.
fn fixed_battle(variant: Variant, moves: usize) -> Battle {
    let mut battle = Battle::new(variant);
    let mut seed: u64 = 1;
    for _ in 0..moves {
        if battle.is_over() {
            break;
        }
        let legal = battle.position().legal_moves();
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        battle
            .play_move(legal[(seed >> 33) as usize % legal.len()])
            .unwrap();
    }
    battle
}

/// What the centre of `square` should show: its piece, or its square colour.
fn expected_centre(c: &Colours, position: &Position, square: Square) -> Rgb {
    let dark = (square.column() + square.row()).is_multiple_of(2);
    match position.piece_at(square) {
        Some(Piece::Dwarf) => c.dwarf,
        Some(Piece::Troll) => c.troll,
        Some(Piece::Stone) if position.variant() == Variant::KoomValley => c.rock,
        Some(Piece::Stone) => c.thudstone,
        None if dark => c.dark,
        None => c.light,
    }
}

/// Checks the centre of every square a move did not touch.
fn assert_squares_match(
    img: &RgbImage,
    c: &Colours,
    position: &Position,
    captioned: bool,
    skip: SquareSet,
) {
    let mut checked = 0;
    for square in Square::all().filter(|s| !skip.contains(*s)) {
        let found = pixel(img, square_centre(square, captioned));
        let wanted = expected_centre(c, position, square);
        assert_eq!(
            found,
            wanted,
            "centre of {square}: {:?}",
            position.piece_at(square)
        );
        checked += 1;
    }
    assert_eq!(checked + skip.len(), 165);
}

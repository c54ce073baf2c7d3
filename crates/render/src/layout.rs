//! Where things go in a picture: a 600×600 board with coordinates in its margins, and an
//! optional caption band above it.

use thud_engine::game::Square;

/// Side of one square, in pixels.
pub const SQUARE_PX: u32 = 36;
/// Width of the margin holding the coordinates around the 15×15 grid.
pub const MARGIN_PX: u32 = 30;
/// Width and height of the board part of a picture.
pub const BOARD_PX: u32 = 2 * MARGIN_PX + 15 * SQUARE_PX;
/// Height of the caption band above the board, when a caption is given.
pub const CAPTION_PX: u32 = 92;

/// Width and height of a picture with or without a caption band.
pub const fn picture_size(captioned: bool) -> (u32, u32) {
    if captioned {
        (BOARD_PX, BOARD_PX + CAPTION_PX)
    } else {
        (BOARD_PX, BOARD_PX)
    }
}

/// The top-left pixel of grid cell (column, row), both from 0 with row 0 at the bottom, in
/// board coordinates (without the caption band).
pub(super) const fn cell_origin(column: u8, row: u8) -> (u32, u32) {
    (
        MARGIN_PX + column as u32 * SQUARE_PX,
        MARGIN_PX + (14 - row as u32) * SQUARE_PX,
    )
}

/// The top-left pixel of `square` in a picture.
pub fn square_origin(square: Square, captioned: bool) -> (u32, u32) {
    let (x, y) = cell_origin(square.column(), square.row());
    (x, y + if captioned { CAPTION_PX } else { 0 })
}

/// The centre pixel of `square` in a picture.
pub fn square_centre(square: Square, captioned: bool) -> (u32, u32) {
    let (x, y) = square_origin(square, captioned);
    (x + SQUARE_PX / 2, y + SQUARE_PX / 2)
}

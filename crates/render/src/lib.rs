//! Pictures of a game: a board PNG after every move, a brief text board, and a replay GIF.
//!
//! Depends on `game` only. Like lila-gif, everything that does not change between pictures
//! (the palette, the empty board, a tile for every look of a square, glyphs) is prepared once
//! per theme in [`Renderer::new`]; a picture is then a copy of the board, a few tiles and a
//! little text on a palette canvas, encoded without any colour quantisation.

mod assets;
mod canvas;
mod encode;
pub mod graph;
pub mod layout;
mod picture;
mod replay;
mod sketch;
mod standings;
mod text;
mod text_board;
mod theme;

use thud_engine::game::{Move, Position};

pub use replay::{ReplaySpan, ReplayTooLarge};
pub use standings::{table_png, Table, MAX_ROWS};
pub use text_board::{ended_text_board, text_board, text_board_block};
pub use theme::{Colours, Rgb, Theme, UnknownTheme};

use assets::Assets;
use text::Lettering;

/// What the caption band above the board says; plain text, written by the caller.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Caption {
    /// E.g. "Match #12 · Battle 1 of 2".
    pub title: String,
    /// The player commanding the dwarfs.
    pub dwarfs: String,
    /// The player commanding the trolls.
    pub trolls: String,
    /// E.g. "alice to move" or "Trolls win battle 1 by 3".
    pub status: String,
    /// The battle has ended, perhaps by agreement with moves left: nobody is shown to move.
    pub over: bool,
}

/// One picture's subject: a position, the move that led to it, and an optional caption.
#[derive(Clone, Copy, Debug)]
pub struct BoardView<'a> {
    /// The position drawn; its pieces, score and side to move are what the picture shows.
    pub position: &'a Position,
    /// The move that led to the position, highlighted with its captures.
    pub last_move: Option<&'a Move>,
    /// Text for the band above the board; without it the picture is 600×600.
    pub caption: Option<&'a Caption>,
}

impl<'a> BoardView<'a> {
    /// A view of `position` alone, without last move or caption.
    pub fn new(position: &'a Position) -> BoardView<'a> {
        BoardView {
            position,
            last_move: None,
            caption: None,
        }
    }
}

/// Draws board pictures. Prepares fonts, palettes, boards and tiles for every theme once;
/// share one through an `Arc`.
pub struct Renderer {
    lettering: Lettering,
    /// In `Theme::ALL` order.
    themes: Vec<Assets>,
}

impl Renderer {
    /// Prepares every theme (about a sixth of a second); do it once and share the result.
    pub fn new() -> Renderer {
        let lettering = Lettering::new();
        let themes = Theme::ALL
            .iter()
            .map(|&theme| Assets::new(theme, &lettering))
            .collect();
        Renderer { lettering, themes }
    }

    fn assets(&self, theme: Theme) -> &Assets {
        let i = Theme::ALL.iter().position(|&t| t == theme).unwrap_or(0);
        &self.themes[i]
    }

    /// The board picture as PNG: 600×600, or 600×692 with a caption.
    pub fn board_png(&self, view: &BoardView<'_>, theme: Theme) -> Vec<u8> {
        let assets = self.assets(theme);
        let canvas = picture::compose(assets, &self.lettering, view, "last move");
        encode::png(&canvas, &assets.palette)
    }
}

impl Default for Renderer {
    fn default() -> Renderer {
        Renderer::new()
    }
}

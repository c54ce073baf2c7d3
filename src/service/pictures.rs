//! Boards to show with a message. Drawing takes about a millisecond of CPU, so it runs on a
//! blocking thread, away from the async workers, and can overlap a move's database writes.

use std::sync::Arc;

use tokio::task::JoinHandle;

use super::error::{Result, ServiceError};
use super::outcome::Reply;
use super::{battle_status, Names, Service};
use crate::game::{Move, Position, Seat, Side};
use crate::render::{ended_text_board, text_board, BoardView, Caption, Renderer, Theme};
use crate::store::{BoardStyle, Settings, StoredMatch};

/// A board to show, owning all it needs so it can be drawn on another thread.
pub(super) struct BoardToShow {
    position: Position,
    last_move: Option<Move>,
    caption: Caption,
    theme: Theme,
    brief: bool,
    filename: String,
}

/// A drawn board: the text board always, the picture unless the viewer prefers text.
pub(super) struct DrawnBoard {
    text: String,
    picture: Option<(String, Vec<u8>)>,
}

impl DrawnBoard {
    /// `reply` with this board: attached as a picture, or written as a text board.
    pub(super) fn onto(self, mut reply: Reply) -> Reply {
        reply.board_text = Some(self.text.clone());
        match self.picture {
            Some((filename, png)) => reply.attach(filename, png),
            None => {
                reply.text.push_str(&format!("\n```\n{}```", self.text));
                reply
            }
        }
    }
}

/// Battle `index` (from 0) of `m`, captioned, in the viewer's style and theme.
pub(super) fn board_to_show(
    m: &StoredMatch,
    names: &Names,
    index: usize,
    settings: &Settings,
) -> BoardToShow {
    let battle = &m.game.battles()[index];
    let number = index as u8 + 1;
    BoardToShow {
        position: battle.position().clone(),
        last_move: battle.last_move().copied(),
        caption: Caption {
            title: format!(
                "Match #{} · Battle {number} of 2 · {}",
                m.id,
                m.variant.title()
            ),
            dwarfs: names.of(m.player(Seat::commanding(Side::Dwarfs, number))),
            trolls: names.of(m.player(Seat::commanding(Side::Trolls, number))),
            status: battle_status(m, names, index),
            over: battle.is_over(),
        },
        theme: settings.theme.parse().unwrap_or_default(),
        brief: settings.board_style == BoardStyle::Brief,
        filename: format!("thud-match-{}-battle-{number}.png", m.id),
    }
}

impl BoardToShow {
    fn draw(self, renderer: &Renderer) -> DrawnBoard {
        let text = if self.caption.over {
            ended_text_board(&self.position)
        } else {
            text_board(&self.position)
        };
        let picture = (!self.brief).then(|| {
            let view = BoardView {
                position: &self.position,
                last_move: self.last_move.as_ref(),
                caption: Some(&self.caption),
            };
            (self.filename.clone(), renderer.board_png(&view, self.theme))
        });
        DrawnBoard { text, picture }
    }
}

impl Service {
    /// Starts drawing `board` on a blocking thread.
    pub(super) fn start_drawing(&self, board: BoardToShow) -> JoinHandle<DrawnBoard> {
        let renderer: Arc<Renderer> = self.renderer.clone();
        tokio::task::spawn_blocking(move || board.draw(&renderer))
    }
}

/// Waits for a drawing started with [`Service::start_drawing`].
pub(super) async fn finish_drawing(drawing: JoinHandle<DrawnBoard>) -> Result<DrawnBoard> {
    drawing
        .await
        .map_err(|e| ServiceError::System(format!("drawing the board failed: {e}")))
}

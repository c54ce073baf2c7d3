//! Boards to show with a message. Drawing takes about a millisecond of CPU, so it runs on a
//! blocking thread, away from the async workers, and can overlap a move's database writes.

use std::sync::Arc;

use tokio::task::JoinHandle;

use super::error::{Result, ServiceError};
use super::outcome::BoardShot;
use super::outcome::Reply;
use super::voice::{battle_status, caption};
use super::Names;
use crate::game::{Move, Position, Seat};
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
    shot: BoardShot,
}

/// A drawn board: the text board always, the picture unless the viewer prefers text.
pub(super) struct DrawnBoard {
    text: String,
    picture: Option<(String, Vec<u8>)>,
    shot: BoardShot,
}

impl DrawnBoard {
    /// `reply` with this board: attached as a picture, or written as a text board.
    pub(super) fn onto(self, mut reply: Reply) -> Reply {
        reply.board_text = Some(self.text.clone());
        reply.board = Some(self.shot);
        match self.picture {
            Some((filename, png)) => reply.attach(filename, png),
            None => {
                reply.text = reply.text.block(self.text);
                reply
            }
        }
    }
}

/// Battle `index` (from 0) of `m`, captioned, in the viewer's style and theme. A post in a
/// channel is drawn with `Settings::default()`: everyone reads it, so a player's own style and
/// theme apply only to what they alone see (the board they ask for, their direct messages).
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
        caption: caption(
            m,
            names,
            number,
            battle_status(m, names, index),
            battle.is_over(),
        ),
        theme: settings.theme.parse().unwrap_or_default(),
        brief: settings.board_style == BoardStyle::Brief,
        filename: format!("thud-match-{}-battle-{number}.png", m.id),
        shot: BoardShot {
            match_id: m.id,
            battle: number,
            plies: battle.moves().len() as u32,
        },
    }
}

/// Battle 2's first board when `progress` ended battle 1 of `m`: the player the message pings
/// moves in it next, so it is shown after battle 1's last board.
pub(super) fn next_battle_board(
    m: &StoredMatch,
    names: &Names,
    progress: &crate::game::Progress,
) -> Option<BoardToShow> {
    let began = progress.battle_result.is_some() && progress.match_result.is_none();
    let next = progress.battle as usize;
    (began && next < m.game.battles().len())
        .then(|| board_to_show(m, names, next, &Settings::default()))
}

/// The board of `shot`: battle `shot.battle` of `m` as it stood after `shot.plies` moves, for a
/// notice posted later than it was written. `None` if `m` has no such battle or moves.
pub(super) fn board_at(
    m: &StoredMatch,
    names: &Names,
    shot: BoardShot,
    settings: &Settings,
) -> Option<BoardToShow> {
    let index = (shot.battle as usize).checked_sub(1)?;
    let battle = m.game.battles().get(index)?;
    let plies = shot.plies as usize;
    let mut board = board_to_show(m, names, index, settings);
    if plies < battle.moves().len() {
        // The match went on since: show the board as it was, with whoever was to move then.
        let position = battle.positions().into_iter().nth(plies)?;
        let side = position.side_to_move();
        board.last_move = plies.checked_sub(1).map(|i| battle.moves()[i]);
        board.caption.status = format!(
            "{} to move ({})",
            names.of(m.player(Seat::commanding(side, shot.battle))),
            side
        );
        board.caption.over = false;
        board.position = position;
        board.shot = shot;
    } else if plies > battle.moves().len() {
        return None;
    }
    Some(board)
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
        DrawnBoard {
            text,
            picture,
            shot: self.shot,
        }
    }
}

/// Starts drawing `board` on a blocking thread.
pub(super) fn start_drawing(
    renderer: &Arc<Renderer>,
    board: BoardToShow,
) -> JoinHandle<DrawnBoard> {
    let renderer = renderer.clone();
    tokio::task::spawn_blocking(move || board.draw(&renderer))
}

/// Waits for a drawing started before a commit and adds it to `reply` (left out if it could
/// not be drawn, as in [`drawn_after_commit`]).
pub(super) async fn attach_after_commit(drawing: JoinHandle<DrawnBoard>, reply: Reply) -> Reply {
    let drawn = drawn_after_commit(vec![drawing]).await;
    drawn
        .into_iter()
        .fold(reply, |reply, board| board.onto(reply))
}

/// Waits for drawings started before a commit. After a commit nothing may turn the answer
/// into a failure, so a board that could not be drawn is left out.
pub(super) async fn drawn_after_commit(drawings: Vec<JoinHandle<DrawnBoard>>) -> Vec<DrawnBoard> {
    let mut drawn = Vec::with_capacity(drawings.len());
    for drawing in drawings {
        match drawing.await {
            Ok(board) => drawn.push(board),
            Err(e) => {
                tracing::error!(error = %e, "a board could not be drawn; answering without it")
            }
        }
    }
    drawn
}

/// Waits for a drawing started with [`start_drawing`].
pub(super) async fn finish_drawing(drawing: JoinHandle<DrawnBoard>) -> Result<DrawnBoard> {
    drawing
        .await
        .map_err(|e| ServiceError::System(format!("drawing the board failed: {e}")))
}

//! Replays: a looping GIF of a battle, one frame per position, and one that keeps to a byte
//! limit (an upload limit) by showing the last part of a long battle.

use std::ops::Range;

use thud_engine::game::{Battle, Position, Side};

use super::assets::Assets;
use super::canvas::Canvas;
use super::encode::{gif, gif_frame, gif_frame_len, GifFrame, GIF_OVERHEAD};
use super::{layout, picture, BoardView, Caption, Renderer, Theme};

/// How long a replay shows its first position, each move, and the final position
/// (hundredths of a second).
const START_CS: u16 = 150;
const MOVE_CS: u16 = 80;
const END_CS: u16 = 500;

/// Frames coded on each thread at least: fewer are not worth a thread.
const FRAMES_PER_THREAD: usize = 24;

/// Which moves a replay shows. Moves are counted from 1; a replay of moves 41 to 60 starts
/// from the position after move 40.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplaySpan {
    /// The first move shown; the replay starts from the position before it.
    pub first_move: usize,
    /// The last move shown: always the battle's last move.
    pub last_move: usize,
    /// How many moves the battle has.
    pub total_moves: usize,
}

impl ReplaySpan {
    /// Whether the replay shows every move of the battle.
    pub fn is_whole(&self) -> bool {
        self.first_move <= 1
    }

    /// How many moves at the start of the battle the replay leaves out.
    pub fn moves_left_out(&self) -> usize {
        self.first_move.saturating_sub(1)
    }
}

/// Why no replay fits a byte limit: even the final position alone is larger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("even a one-frame replay takes {smallest} bytes, more than the {limit} allowed")]
pub struct ReplayTooLarge {
    pub limit: usize,
    pub smallest: usize,
}

/// One battle's frames being made.
struct Frames<'a> {
    renderer: &'a Renderer,
    assets: &'a Assets,
    battle: &'a Battle,
    positions: Vec<Position>,
    caption: Option<&'a Caption>,
}

impl Frames<'_> {
    /// The picture of position `i` (after `i` moves).
    fn compose(&self, i: usize) -> Canvas {
        // The caption's status (the result, for a finished battle) is true of the last
        // position only; every frame before it says who is to move there.
        let on_the_way = self
            .caption
            .filter(|_| i + 1 < self.positions.len())
            .map(|c| {
                let side = self.positions[i].side_to_move();
                let name = match side {
                    Side::Dwarfs => &c.dwarfs,
                    Side::Trolls => &c.trolls,
                };
                Caption {
                    status: format!("{name} to move ({side})"),
                    over: false,
                    ..c.clone()
                }
            });
        let view = BoardView {
            position: &self.positions[i],
            last_move: i.checked_sub(1).and_then(|m| self.battle.moves().get(m)),
            caption: on_the_way.as_ref().or(self.caption),
        };
        let note = format!("move {i}");
        picture::compose(self.assets, &self.renderer.lettering, &view, &note)
    }

    /// Frames for the positions in `range`: the first whole if `range` starts the replay,
    /// else as a change from the position before; every other as a change.
    fn code(&self, range: Range<usize>, whole_first: bool) -> Vec<GifFrame> {
        let mut previous = (!whole_first).then(|| self.compose(range.start - 1));
        let mut frames = Vec::with_capacity(range.len());
        for i in range {
            let canvas = self.compose(i);
            frames.push(gif_frame(previous.as_ref(), &canvas));
            previous = Some(canvas);
        }
        frames
    }

    /// Frames for positions `start..` to the end, the first whole, coded on as many threads
    /// as the machine offers.
    fn code_from(&self, start: usize) -> Vec<GifFrame> {
        let end = self.positions.len();
        let threads = std::thread::available_parallelism()
            .map_or(1, |n| n.get())
            .min((end - start).div_ceil(FRAMES_PER_THREAD))
            .max(1);
        if threads == 1 {
            return self.code(start..end, true);
        }
        let chunk = (end - start).div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (start..end)
                .step_by(chunk)
                .map(|from| {
                    let range = from..(from + chunk).min(end);
                    scope.spawn(move || self.code(range, from == start))
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("coding replay frames does not panic"))
                .collect()
        })
    }

    /// The GIF of `frames`, which show the positions from `start` to the end.
    fn write(&self, start: usize, frames: &[GifFrame]) -> Vec<u8> {
        let (width, height) = layout::picture_size(self.caption.is_some());
        let last = frames.len().saturating_sub(1);
        let delays = (0..frames.len()).map(|i| match i {
            _ if i == last => END_CS,
            0 => START_CS,
            _ => MOVE_CS,
        });
        debug_assert_eq!(start + frames.len(), self.positions.len());
        gif(
            width,
            height,
            &self.assets.palette,
            frames.iter().zip(delays),
        )
    }

    fn span(&self, start: usize) -> ReplaySpan {
        let total = self.battle.moves().len();
        ReplaySpan {
            first_move: (start + 1).min(total),
            last_move: total,
            total_moves: total,
        }
    }
}

impl Renderer {
    fn frames<'a>(
        &'a self,
        battle: &'a Battle,
        caption: Option<&'a Caption>,
        theme: Theme,
    ) -> Frames<'a> {
        Frames {
            renderer: self,
            assets: self.assets(theme),
            battle,
            positions: battle.positions(),
            caption,
        }
    }

    /// A looping GIF replay of `battle`: one frame for the start and one after each move, the
    /// last frame held for five seconds.
    pub fn replay_gif(&self, battle: &Battle, caption: Option<&Caption>, theme: Theme) -> Vec<u8> {
        let frames = self.frames(battle, caption, theme);
        frames.write(0, &frames.code_from(0))
    }

    /// A replay of `battle` of at most `max_bytes` (an upload limit): the whole battle if it
    /// fits, else its last part, starting as far back as fits. Says which moves it shows.
    pub fn replay_within(
        &self,
        battle: &Battle,
        caption: Option<&Caption>,
        theme: Theme,
        max_bytes: usize,
    ) -> Result<(Vec<u8>, ReplaySpan), ReplayTooLarge> {
        let frames = self.frames(battle, caption, theme);
        let mut coded = frames.code_from(0);
        // Bytes of the frames after each position: `after[i]` for the changes i+1.. .
        let mut after = vec![0; coded.len()];
        for i in (0..coded.len().saturating_sub(1)).rev() {
            after[i] = after[i + 1] + gif_frame_len(&coded[i + 1]);
        }
        if GIF_OVERHEAD + gif_frame_len(&coded[0]) + after[0] <= max_bytes {
            let gif = frames.write(0, &coded);
            if gif.len() <= max_bytes {
                return Ok((gif, frames.span(0)));
            }
        }
        // Start at the earliest position whose whole frame and the changes after it fit. A
        // whole frame costs about as much wherever it is, so guess with the first one's size,
        // then check the guess exactly and move on while it does not fit.
        let whole = gif_frame_len(&coded[0]);
        let mut start = (1..coded.len())
            .find(|&i| GIF_OVERHEAD + whole + after[i] <= max_bytes)
            .unwrap_or(coded.len() - 1);
        loop {
            let first = gif_frame(None, &frames.compose(start));
            let size = GIF_OVERHEAD + gif_frame_len(&first) + after[start];
            if size <= max_bytes {
                coded.drain(..start);
                coded[0] = first;
                let gif = frames.write(start, &coded);
                debug_assert_eq!(gif.len(), size);
                return Ok((gif, frames.span(start)));
            }
            if start + 1 == coded.len() {
                return Err(ReplayTooLarge {
                    limit: max_bytes,
                    smallest: size,
                });
            }
            start += 1;
        }
    }
}

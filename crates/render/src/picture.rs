//! Composing one picture: the prepared board, a tile for each square that differs from an
//! empty one, the score and turn in the cut corners, and the caption band.

use thud_engine::game::{Move, Piece, Position, Side, SquareSet, Variant};

use super::assets::{is_dark, Assets, Content, Figure, Look, Marking, ICON_PX};
use super::canvas::Canvas;
use super::layout::{picture_size, square_origin, BOARD_PX, CAPTION_PX, MARGIN_PX};
use super::text::{Lettering, Style};
use super::{BoardView, Caption};

/// Inner edge of the corner texts: a few pixels inside the coordinate margin.
const INSET: f32 = MARGIN_PX as f32 + 6.0;

/// Composes the picture of `view`; `note` labels the last move ("last move", "move 12").
pub(super) fn compose(
    assets: &Assets,
    lettering: &Lettering,
    view: &BoardView<'_>,
    note: &str,
) -> Canvas {
    let captioned = view.caption.is_some();
    let (width, height) = picture_size(captioned);
    let mut canvas = Canvas::new(width, height, assets.background);
    let top = if captioned { CAPTION_PX } else { 0 };
    let position = view.position;
    canvas.draw(assets.board(position.variant()), 0, top);
    draw_squares(&mut canvas, assets, position, view.last_move, captioned);
    let over = view.caption.is_some_and(|c| c.over);
    draw_sides(&mut canvas, assets, lettering, position, over, top as f32);
    if let Some(mv) = view.last_move {
        let bottom = (top + BOARD_PX) as f32 - MARGIN_PX as f32;
        let r = &assets.ramps;
        lettering.draw(
            &mut canvas,
            Style::Note,
            note,
            (INSET, bottom - 42.0),
            130.0,
            &r.muted,
        );
        lettering.draw(
            &mut canvas,
            Style::Notation,
            &mv.to_string(),
            (INSET, bottom - 12.0),
            172.0,
            &r.text,
        );
    }
    if let Some(caption) = view.caption {
        draw_caption(&mut canvas, assets, lettering, caption);
    }
    canvas
}

fn figure(piece: Piece, variant: Variant) -> Figure {
    match (piece, variant) {
        (Piece::Dwarf, _) => Figure::Dwarf,
        (Piece::Troll, _) => Figure::Troll,
        (Piece::Stone, Variant::KoomValley) => Figure::Rock,
        (Piece::Stone, _) => Figure::Thudstone,
    }
}

fn draw_squares(
    canvas: &mut Canvas,
    assets: &Assets,
    position: &Position,
    last_move: Option<&Move>,
    captioned: bool,
) {
    let variant = position.variant();
    let goals = variant.goal_squares();
    let (ends, path, captured) = match last_move {
        Some(mv) => {
            let ends = SquareSet::single(mv.from()) | SquareSet::single(mv.to());
            let path: SquareSet = mv.path().into_iter().collect();
            (ends, path - ends, mv.captured())
        }
        None => (SquareSet::EMPTY, SquareSet::EMPTY, SquareSet::EMPTY),
    };
    // What a capture took is the other side's piece: a troll's captures are dwarfs.
    let victim = match last_move.map(Move::piece) {
        Some(Piece::Troll) => Figure::Dwarf,
        _ => Figure::Troll,
    };
    let stone = position.stone();
    let pieces = position.dwarfs() | position.trolls() | SquareSet::single(stone);
    let touched = pieces | ends | path | captured;
    for square in touched {
        let marking = if ends.contains(square) {
            Marking::Moved
        } else if path.contains(square) {
            Marking::Path
        } else {
            Marking::Plain
        };
        let taken = captured.contains(square);
        let content = match position.piece_at(square) {
            Some(piece) if taken => Content::Taken(figure(piece, variant)),
            Some(piece) => Content::Piece(figure(piece, variant)),
            None if taken => Content::Ghost(victim),
            None if marking == Marking::Path => Content::Footstep,
            None => Content::Empty,
        };
        let look = Look {
            dark: is_dark(square.column(), square.row()),
            goal: goals.contains(square),
            marking,
            content,
        };
        if look != Look::plain(square, look.goal) {
            let (x, y) = square_origin(square, captioned);
            canvas.draw(assets.tile(look), x, y);
        }
    }
}

/// The two top corners: each side's icon, name and score, and which side is to move (or has
/// won, in Koom Valley).
fn draw_sides(
    canvas: &mut Canvas,
    assets: &Assets,
    lettering: &Lettering,
    position: &Position,
    over: bool,
    top: f32,
) {
    let variant = position.variant();
    let (dwarfs, trolls, unit) = if variant.wins_by_objective() {
        (
            position.dwarfs().len() as u32,
            position.trolls().len() as u32,
            "left",
        )
    } else {
        let score = position.score();
        (score.dwarfs, score.trolls, "pts")
    };
    let (badge, badge_side) = match position.objective_reached() {
        Some(winner) => (Some(&assets.wins), winner),
        None if !over && position.has_legal_move() => {
            (Some(&assets.to_move), position.side_to_move())
        }
        None => (None, position.side_to_move()),
    };
    let right = BOARD_PX as f32 - INSET;
    let r = &assets.ramps;
    let icon_y = (top + INSET) as u32;
    let name_y = top + INSET + 17.0;
    let score_y = top + INSET + 56.0;
    let badge_y = (top + INSET + 64.0) as u32;
    for side in [Side::Dwarfs, Side::Trolls] {
        let (icon, name, score) = match side {
            Side::Dwarfs => (&assets.dwarf_icon, "DWARFS", dwarfs),
            Side::Trolls => (&assets.troll_icon, "TROLLS", trolls),
        };
        let score = score.to_string();
        let name_w = lettering.width(Style::SideName, name, f32::MAX);
        let score_w = lettering.width(Style::Score, &score, f32::MAX);
        let unit_w = lettering.width(Style::Unit, unit, f32::MAX);
        let gap = 5.0;
        let left = match side {
            Side::Dwarfs => INSET,
            Side::Trolls => right - (ICON_PX as f32 + gap + name_w),
        };
        canvas.draw(icon, left as u32, icon_y);
        let name_x = left + ICON_PX as f32 + gap;
        lettering.draw(
            canvas,
            Style::SideName,
            name,
            (name_x, name_y),
            200.0,
            &r.text,
        );
        let score_x = match side {
            Side::Dwarfs => INSET,
            Side::Trolls => right - (score_w + gap + unit_w),
        };
        lettering.draw(
            canvas,
            Style::Score,
            &score,
            (score_x, score_y),
            200.0,
            &r.text,
        );
        let unit_x = score_x + score_w + gap;
        lettering.draw(
            canvas,
            Style::Unit,
            unit,
            (unit_x, score_y),
            200.0,
            &r.muted,
        );
        if let Some(badge) = badge.filter(|_| side == badge_side) {
            let x = match side {
                Side::Dwarfs => INSET as u32,
                Side::Trolls => (right as u32).saturating_sub(badge.width),
            };
            canvas.draw(badge, x, badge_y);
        }
    }
}

fn draw_caption(canvas: &mut Canvas, assets: &Assets, lettering: &Lettering, caption: &Caption) {
    let r = &assets.ramps;
    let left = 14.0;
    let width = BOARD_PX as f32 - 2.0 * left;
    lettering.draw(
        canvas,
        Style::Title,
        &caption.title,
        (left, 27.0),
        width,
        &r.text,
    );
    let names_y = 56.0;
    let icon_y = 39;
    let vs = "  vs  ";
    let vs_w = lettering.width(Style::Names, vs, f32::MAX);
    let name_room = (width - vs_w) / 2.0 - ICON_PX as f32 - 6.0;
    let mut x = left;
    for (i, (icon, name)) in [
        (&assets.dwarf_icon, &caption.dwarfs),
        (&assets.troll_icon, &caption.trolls),
    ]
    .into_iter()
    .enumerate()
    {
        if i == 1 {
            x += lettering.draw(canvas, Style::Names, vs, (x, names_y), vs_w, &r.muted);
        }
        canvas.draw(icon, x as u32, icon_y);
        x += ICON_PX as f32 + 6.0;
        x += lettering.draw(canvas, Style::Names, name, (x, names_y), name_room, &r.text);
    }
    lettering.draw(
        canvas,
        Style::Status,
        &caption.status,
        (left, 83.0),
        width,
        &r.accent,
    );
}

//! The evaluation graph of an analysed match: one panel per battle, the score (the final margin
//! expected, in points) from the dwarfs' side ply by ply (shaded blue where the dwarfs lead,
//! brown where the trolls do), a dot on every capture, and a line and dot on each mistake the
//! report names, blue for the dwarfs' and red for the trolls', with its ply written above the
//! plot.
//!
//! Drawn with `imageproc` on an RGB image in a few flat colours, then kept to a palette (the
//! marks' colours exact) and written as a palette PNG: a two-battle graph is a few KB.

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use image::{Rgb as Pixel, RgbImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_filled_rect_mut, draw_line_segment_mut};
use imageproc::rect::Rect;

use super::canvas::Palette;
use super::theme::Rgb;
use thud_engine::game::Side;

/// What one panel shows.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct GraphBattle {
    /// E.g. "Battle 1 · alice (dwarfs) v bob (trolls)".
    pub title: String,
    /// The score of each position from the start (index 0) to the last, from the dwarfs'
    /// side in hundredths of a point (a dwarf 100, a troll 400).
    pub scores: Vec<i32>,
    /// Positions reached by a capture (index into `scores`).
    pub captures: Vec<usize>,
    /// Positions reached by a mistake the report names, and the side that made it.
    pub mistakes: Vec<(usize, Side)>,
}

pub const BACKGROUND: Rgb = [250, 248, 243];
pub const PLOT: Rgb = [255, 255, 255];
pub const GRID: Rgb = [226, 222, 214];
pub const AXIS: Rgb = [80, 80, 80];
pub const DWARFS_AHEAD: Rgb = [208, 224, 244];
pub const TROLLS_AHEAD: Rgb = [238, 219, 203];
pub const CURVE: Rgb = [28, 58, 118];
pub const CAPTURE: Rgb = [232, 136, 16];
pub const DWARFS_MISTAKE: Rgb = [0, 110, 210];
pub const TROLLS_MISTAKE: Rgb = [204, 28, 28];
const INK: Rgb = [40, 40, 40];

/// Where things are in a graph of `battles` panels, so callers and tests can find them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphLayout {
    /// The score at the top of each panel's plot (and its negation at the bottom): each
    /// battle has its own, so a close battle's swings show beside a lopsided one.
    pub scales: Vec<i32>,
}

pub const WIDTH: u32 = 720;
const LEFT: u32 = 52;
const RIGHT: u32 = 18;
const TOP: u32 = 8;
const TITLE: u32 = 26;
/// The band between the title and the plot where the mistakes' plies are written, in rows.
const MARKS: u32 = 2 * MARK_ROW + 2;
const MARK_ROW: u32 = 14;
const PLOT_HEIGHT: u32 = 150;
const BELOW: u32 = 26;
const PANEL: u32 = TITLE + MARKS + PLOT_HEIGHT + BELOW;
const LEGEND: u32 = 48;
const PLOT_WIDTH: u32 = WIDTH - LEFT - RIGHT;

impl GraphLayout {
    /// The layout for `battles`, each panel scaled to its largest score (at least a troll,
    /// at most ten, rounded up to whole trolls).
    pub fn for_battles(battles: &[GraphBattle]) -> GraphLayout {
        let scales = battles
            .iter()
            .map(|b| {
                let largest = b
                    .scores
                    .iter()
                    .map(|s| s.saturating_abs())
                    .max()
                    .unwrap_or(0)
                    .clamp(400, 4_000);
                (largest + 399) / 400 * 400
            })
            .collect();
        GraphLayout { scales }
    }

    /// The score at the top of panel `panel`.
    pub fn full_scale(&self, panel: usize) -> i32 {
        self.scales.get(panel).copied().unwrap_or(400)
    }

    pub fn height(&self) -> u32 {
        TOP + PANEL * self.scales.len().max(1) as u32 + LEGEND
    }

    /// The plot of panel `panel`: left, top, width, height.
    pub fn plot(&self, panel: usize) -> (u32, u32, u32, u32) {
        (
            LEFT,
            TOP + PANEL * panel as u32 + TITLE + MARKS,
            PLOT_WIDTH,
            PLOT_HEIGHT,
        )
    }

    /// The column of position `index` of `positions`.
    pub fn x(&self, index: usize, positions: usize) -> u32 {
        let span = positions.saturating_sub(1).max(1) as u64;
        LEFT + ((PLOT_WIDTH - 1) as u64 * index.min(positions) as u64 / span) as u32
    }

    /// The row of `score` in panel `panel`.
    pub fn y(&self, panel: usize, score: i32) -> u32 {
        let (_, top, _, height) = self.plot(panel);
        let half = (height / 2) as i64;
        let full = self.full_scale(panel);
        let clamped = score.clamp(-full, full) as i64;
        let offset = clamped * (half - 1) / full as i64;
        (top as i64 + half - offset) as u32
    }
}

/// The graph as a PNG.
pub fn evaluation_graph(battles: &[GraphBattle]) -> Vec<u8> {
    let layout = GraphLayout::for_battles(battles);
    let font = FontRef::try_from_slice(super::text::REGULAR).expect("the committed font is valid");
    let mut image = RgbImage::from_pixel(WIDTH, layout.height(), Pixel(BACKGROUND));
    let layout = &layout;
    for (panel, battle) in battles.iter().enumerate() {
        draw_panel(&mut image, &font, layout, panel, battle);
    }
    draw_legend(&mut image, &font, layout);
    let key = [
        BACKGROUND,
        PLOT,
        GRID,
        AXIS,
        DWARFS_AHEAD,
        TROLLS_AHEAD,
        CURVE,
        CAPTURE,
        DWARFS_MISTAKE,
        TROLLS_MISTAKE,
        INK,
    ];
    let palette = Palette::build(&key, &[&image]);
    super::encode::png(&palette.quantise(&image), &palette)
}

fn draw_panel(
    image: &mut RgbImage,
    font: &FontRef<'_>,
    layout: &GraphLayout,
    panel: usize,
    battle: &GraphBattle,
) {
    let (left, top, width, height) = layout.plot(panel);
    let n = battle.scores.len();
    text(
        image,
        font,
        15.0,
        left as i32,
        (top - MARKS) as i32 - 21,
        &battle.title,
    );
    rect(image, left, top, width, height, PLOT);
    // Shade between the zero line and the score, column by column.
    let zero = layout.y(panel, 0);
    if n > 0 {
        for px in 0..width {
            let at = (px as f64) * (n.saturating_sub(1)) as f64 / (width - 1) as f64;
            let i = at.floor() as usize;
            let j = (i + 1).min(n - 1);
            let f = at - i as f64;
            let score = battle.scores[i] as f64 * (1.0 - f) + battle.scores[j] as f64 * f;
            let y = layout.y(panel, score.round() as i32);
            let (from, to, colour) = if y < zero {
                (y, zero, DWARFS_AHEAD)
            } else {
                (zero, y, TROLLS_AHEAD)
            };
            rect(image, left + px, from, 1, to - from + 1, colour);
        }
    }
    // Grid: up to four lines each side of zero, at whole trolls, and the ply ticks.
    let full = layout.full_scale(panel);
    let grid = [400, 800, 1200, 2000]
        .into_iter()
        .find(|&s| full / s <= 4)
        .unwrap_or(4000);
    let mut level = grid;
    while level < full {
        for s in [level, -level] {
            hline(image, left, width, layout.y(panel, s), GRID);
        }
        level += grid;
    }
    let step = tick_step(n);
    let mut ply = 0;
    while ply < n.max(1) {
        let x = layout.x(ply, n);
        if ply > 0 {
            rect(image, x, top, 1, height, GRID);
        }
        text(
            image,
            font,
            12.0,
            x as i32 - 6,
            (top + height + 5) as i32,
            &ply.to_string(),
        );
        ply += step;
    }
    hline(image, left, width, zero, AXIS);
    rect(image, left, top, 1, height, AXIS);
    let dwarfs = full / 100;
    text(image, font, 12.0, 6, top as i32 - 2, &format!("+{dwarfs}"));
    text(image, font, 12.0, 14, zero as i32 - 7, "0");
    text(
        image,
        font,
        12.0,
        6,
        (top + height) as i32 - 14,
        &format!("-{dwarfs}"),
    );
    // The curve, then the marks on it.
    let point = |i: usize| {
        (
            layout.x(i, n) as f32,
            layout.y(panel, battle.scores[i]) as f32,
        )
    };
    for i in 1..n {
        draw_line_segment_mut(image, point(i - 1), point(i), Pixel(CURVE));
        let (a, b) = (point(i - 1), point(i));
        draw_line_segment_mut(image, (a.0, a.1 + 1.0), (b.0, b.1 + 1.0), Pixel(CURVE));
    }
    for &i in battle.captures.iter().filter(|&&i| i < n) {
        let (x, y) = point(i);
        draw_filled_circle_mut(image, (x as i32, y as i32), 3, Pixel(CAPTURE));
    }
    let mut marked: Vec<(usize, Side)> = battle
        .mistakes
        .iter()
        .copied()
        .filter(|&(i, _)| i < n)
        .collect();
    marked.sort_by_key(|&(i, _)| i);
    // Each ply is written just right of its line, in the first row where it clears the plies
    // written before it; where none does, after the row's last one (in ply order, each in its
    // side's colour), so that mistakes a ply or two apart stay apart.
    let mut ends = [0u32; (MARKS / MARK_ROW) as usize];
    let mut labels = Vec::with_capacity(marked.len());
    for &(i, side) in &marked {
        let x = layout.x(i, n);
        let label = i.to_string();
        let wide = text_width(font, 12.0, &label);
        let row = match ends.iter().position(|&end| x + 1 > end) {
            Some(row) => row,
            None => (0..ends.len()).min_by_key(|&r| ends[r]).unwrap_or(0),
        };
        let from = (x + 1).max(ends[row]);
        let y = top - MARKS + 1 + MARK_ROW * row as u32;
        ends[row] = from + wide + 4;
        rect(image, x, y, 1, top + height - y, mistake_colour(side));
        labels.push((from, y, wide, label, side));
    }
    for (from, y, wide, label, side) in labels {
        rect(image, from, y, wide + 3, MARK_ROW - 1, BACKGROUND);
        let colour = mistake_colour(side);
        coloured_text(image, font, 12.0, from as i32 + 2, y as i32, &label, colour);
    }
    for &(i, side) in &marked {
        let (x, y) = point(i);
        draw_filled_circle_mut(image, (x as i32, y as i32), 4, Pixel(mistake_colour(side)));
    }
}

/// The colour of `side`'s mistakes.
pub fn mistake_colour(side: Side) -> Rgb {
    match side {
        Side::Dwarfs => DWARFS_MISTAKE,
        Side::Trolls => TROLLS_MISTAKE,
    }
}

fn draw_legend(image: &mut RgbImage, font: &FontRef<'_>, layout: &GraphLayout) {
    let y = (layout.height() - LEGEND + 8) as i32;
    let mut x = LEFT as i32;
    for (colour, radius, what) in [
        (CAPTURE, 3, "capture"),
        (DWARFS_MISTAKE, 4, "dwarfs' mistake"),
        (TROLLS_MISTAKE, 4, "trolls' mistake"),
    ] {
        draw_filled_circle_mut(image, (x + 4, y + 7), radius, Pixel(colour));
        text(image, font, 13.0, x + 12, y, what);
        x += 12 + text_width(font, 13.0, what) as i32 + 22;
    }
    text(image, font, 13.0, x, y, "(its ply written above the plot)");
    text(
        image,
        font,
        13.0,
        LEFT as i32,
        y + 18,
        "along: plies; up: final margin expected, points; above 0 dwarfs lead",
    );
}

/// Ply ticks every 10, 20, 50 … so that at most about ten are labelled.
fn tick_step(positions: usize) -> usize {
    [5, 10, 20, 25, 50, 100, 200, 500]
        .into_iter()
        .find(|&s| positions / s <= 10)
        .unwrap_or(1000)
}

fn rect(image: &mut RgbImage, x: u32, y: u32, w: u32, h: u32, colour: Rgb) {
    if w > 0 && h > 0 {
        let r = Rect::at(x as i32, y as i32).of_size(w, h);
        draw_filled_rect_mut(image, r, Pixel(colour));
    }
}

fn hline(image: &mut RgbImage, x: u32, w: u32, y: u32, colour: Rgb) {
    rect(image, x, y, w, 1, colour);
}

/// How wide `s` is written at `px`.
fn text_width(font: &FontRef<'_>, px: f32, s: &str) -> u32 {
    let scaled = font.as_scaled(PxScale::from(px));
    s.chars()
        .map(|c| scaled.h_advance(scaled.glyph_id(c)))
        .sum::<f32>()
        .ceil() as u32
}

/// Writes `s` with its top-left corner near `(x, y)`, blended onto what is there.
fn text(image: &mut RgbImage, font: &FontRef<'_>, px: f32, x: i32, y: i32, s: &str) {
    coloured_text(image, font, px, x, y, s, INK);
}

/// Writes `s` in `ink` with its top-left corner near `(x, y)`, blended onto what is there.
fn coloured_text(
    image: &mut RgbImage,
    font: &FontRef<'_>,
    px: f32,
    x: i32,
    y: i32,
    s: &str,
    ink: Rgb,
) {
    let scaled = font.as_scaled(PxScale::from(px));
    let mut pen = x as f32;
    let baseline = y as f32 + scaled.ascent();
    for c in s.chars().take(110) {
        let glyph = scaled
            .glyph_id(c)
            .with_scale_and_position(px, point(pen, baseline));
        pen += scaled.h_advance(glyph.id);
        let Some(outline) = font.outline_glyph(glyph) else {
            continue;
        };
        let bounds = outline.px_bounds();
        outline.draw(|gx, gy, coverage| {
            let (px, py) = (
                bounds.min.x as i32 + gx as i32,
                bounds.min.y as i32 + gy as i32,
            );
            if px < 0 || py < 0 || px as u32 >= image.width() || py as u32 >= image.height() {
                return;
            }
            let under = image.get_pixel_mut(px as u32, py as u32);
            let a = coverage.clamp(0.0, 1.0);
            for (channel, ink) in under.0.iter_mut().zip(ink) {
                *channel = (*channel as f32 * (1.0 - a) + ink as f32 * a).round() as u8;
            }
        });
    }
}

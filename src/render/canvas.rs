//! Surfaces to draw on. `Paint` is a full-colour surface with anti-aliased shapes, used only
//! while a theme's assets are prepared; `Canvas` is the palette-indexed surface every picture
//! is composed on, so composing is copying bytes and encoding needs no colour quantisation.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::theme::Rgb;

/// Subsamples per pixel side when measuring how much of a pixel a shape covers.
const SUBSAMPLES: u32 = 4;

/// A region of the plane, asked point by point.
pub(super) trait Shape {
    /// A box `(x0, y0, x1, y1)` holding the whole shape.
    fn bounds(&self) -> (f32, f32, f32, f32);
    fn contains(&self, x: f32, y: f32) -> bool;
}

pub(super) struct Circle {
    pub cx: f32,
    pub cy: f32,
    pub r: f32,
}

impl Shape for Circle {
    fn bounds(&self) -> (f32, f32, f32, f32) {
        (
            self.cx - self.r,
            self.cy - self.r,
            self.cx + self.r,
            self.cy + self.r,
        )
    }
    fn contains(&self, x: f32, y: f32) -> bool {
        let (dx, dy) = (x - self.cx, y - self.cy);
        dx * dx + dy * dy <= self.r * self.r
    }
}

/// A closed polygon, filled by the even-odd rule.
pub(super) struct Polygon(pub Vec<(f32, f32)>);

impl Polygon {
    /// The polygon scaled by `factor` about `(cx, cy)`.
    pub fn scaled(&self, cx: f32, cy: f32, factor: f32) -> Polygon {
        Polygon(
            self.0
                .iter()
                .map(|&(x, y)| (cx + (x - cx) * factor, cy + (y - cy) * factor))
                .collect(),
        )
    }

    /// The polygon moved by `(dx, dy)` and scaled by `factor` about the origin first.
    pub fn placed(&self, dx: f32, dy: f32, factor: f32) -> Polygon {
        Polygon(
            self.0
                .iter()
                .map(|&(x, y)| (dx + x * factor, dy + y * factor))
                .collect(),
        )
    }
}

impl Shape for Polygon {
    fn bounds(&self) -> (f32, f32, f32, f32) {
        self.0.iter().fold(
            (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
            |(x0, y0, x1, y1), &(x, y)| (x0.min(x), y0.min(y), x1.max(x), y1.max(y)),
        )
    }
    fn contains(&self, x: f32, y: f32) -> bool {
        let mut inside = false;
        let n = self.0.len();
        for i in 0..n {
            let (xi, yi) = self.0[i];
            let (xj, yj) = self.0[(i + n - 1) % n];
            if (yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi {
                inside = !inside;
            }
        }
        inside
    }
}

/// A straight stroke with round ends.
pub(super) struct Stroke {
    pub from: (f32, f32),
    pub to: (f32, f32),
    pub width: f32,
}

impl Shape for Stroke {
    fn bounds(&self) -> (f32, f32, f32, f32) {
        let h = self.width / 2.0;
        (
            self.from.0.min(self.to.0) - h,
            self.from.1.min(self.to.1) - h,
            self.from.0.max(self.to.0) + h,
            self.from.1.max(self.to.1) + h,
        )
    }
    fn contains(&self, x: f32, y: f32) -> bool {
        let (ax, ay) = self.from;
        let (dx, dy) = (self.to.0 - ax, self.to.1 - ay);
        let len2 = dx * dx + dy * dy;
        let t = if len2 == 0.0 {
            0.0
        } else {
            (((x - ax) * dx + (y - ay) * dy) / len2).clamp(0.0, 1.0)
        };
        let (px, py) = (ax + t * dx - x, ay + t * dy - y);
        px * px + py * py <= self.width * self.width / 4.0
    }
}

/// The band between two nested rectangles with rounded corners.
pub(super) struct Frame {
    pub x0: f32,
    pub y0: f32,
    pub x1: f32,
    pub y1: f32,
    pub thickness: f32,
    pub radius: f32,
}

/// Whether `(x, y)` lies in the rectangle with corners rounded by `r`.
pub(super) fn in_rounded_rect(
    x: f32,
    y: f32,
    (x0, y0, x1, y1): (f32, f32, f32, f32),
    r: f32,
) -> bool {
    if x < x0 || x > x1 || y < y0 || y > y1 {
        return false;
    }
    let cx = x.clamp(x0 + r, x1 - r);
    let cy = y.clamp(y0 + r, y1 - r);
    (x - cx).powi(2) + (y - cy).powi(2) <= r * r
}

impl Shape for Frame {
    fn bounds(&self) -> (f32, f32, f32, f32) {
        (self.x0, self.y0, self.x1, self.y1)
    }
    fn contains(&self, x: f32, y: f32) -> bool {
        let t = self.thickness;
        in_rounded_rect(x, y, (self.x0, self.y0, self.x1, self.y1), self.radius)
            && !in_rounded_rect(
                x,
                y,
                (self.x0 + t, self.y0 + t, self.x1 - t, self.y1 - t),
                (self.radius - t).max(0.0),
            )
    }
}

/// A filled rectangle with rounded corners.
pub(super) struct RoundedRect {
    pub x0: f32,
    pub y0: f32,
    pub x1: f32,
    pub y1: f32,
    pub radius: f32,
}

impl Shape for RoundedRect {
    fn bounds(&self) -> (f32, f32, f32, f32) {
        (self.x0, self.y0, self.x1, self.y1)
    }
    fn contains(&self, x: f32, y: f32) -> bool {
        in_rounded_rect(x, y, (self.x0, self.y0, self.x1, self.y1), self.radius)
    }
}

/// A full-colour surface for preparing assets.
#[derive(Clone)]
pub(super) struct Paint {
    pub width: u32,
    pub height: u32,
    pixels: Vec<[f32; 3]>,
}

impl Paint {
    pub fn new(width: u32, height: u32, colour: Rgb) -> Paint {
        Paint {
            width,
            height,
            pixels: vec![to_f32(colour); (width * height) as usize],
        }
    }

    /// Lays `colour` over the pixel at `(x, y)` with opacity `alpha` (0 to 1).
    pub fn blend(&mut self, x: i32, y: i32, colour: Rgb, alpha: f32) {
        if x < 0 || y < 0 || x as u32 >= self.width || y as u32 >= self.height || alpha <= 0.0 {
            return;
        }
        let p = &mut self.pixels[(y as u32 * self.width + x as u32) as usize];
        let c = to_f32(colour);
        for i in 0..3 {
            p[i] += (c[i] - p[i]) * alpha.min(1.0);
        }
    }

    /// Fills `shape` with `colour` at opacity `alpha`, anti-aliased by supersampling.
    pub fn fill(&mut self, shape: &impl Shape, colour: Rgb, alpha: f32) {
        let (x0, y0, x1, y1) = shape.bounds();
        let x0 = (x0.floor() as i32).max(0);
        let y0 = (y0.floor() as i32).max(0);
        let x1 = (x1.ceil() as i32).min(self.width as i32);
        let y1 = (y1.ceil() as i32).min(self.height as i32);
        let step = 1.0 / SUBSAMPLES as f32;
        for y in y0..y1 {
            for x in x0..x1 {
                let mut hits = 0;
                for sy in 0..SUBSAMPLES {
                    for sx in 0..SUBSAMPLES {
                        let px = x as f32 + (sx as f32 + 0.5) * step;
                        let py = y as f32 + (sy as f32 + 0.5) * step;
                        if shape.contains(px, py) {
                            hits += 1;
                        }
                    }
                }
                if hits > 0 {
                    let coverage = hits as f32 / (SUBSAMPLES * SUBSAMPLES) as f32;
                    self.blend(x, y, colour, coverage * alpha);
                }
            }
        }
    }

    /// Copies `other` onto this surface with its top-left corner at `(x, y)`.
    pub fn draw_paint(&mut self, other: &Paint, x: u32, y: u32) {
        for row in 0..other.height {
            for col in 0..other.width {
                let (tx, ty) = (x + col, y + row);
                if tx < self.width && ty < self.height {
                    self.pixels[(ty * self.width + tx) as usize] =
                        other.pixels[(row * other.width + col) as usize];
                }
            }
        }
    }

    /// The pixels rounded to 8-bit colours.
    pub fn rgb(&self) -> impl Iterator<Item = Rgb> + '_ {
        self.pixels.iter().map(|p| {
            [
                p[0].round().clamp(0.0, 255.0) as u8,
                p[1].round().clamp(0.0, 255.0) as u8,
                p[2].round().clamp(0.0, 255.0) as u8,
            ]
        })
    }
}

fn to_f32(c: Rgb) -> [f32; 3] {
    [c[0] as f32, c[1] as f32, c[2] as f32]
}

/// A map keyed by colour. Preparing a theme looks up every pixel of every surface, so the
/// key is hashed by one multiplication rather than by the default, DoS-resistant hasher
/// (the keys are our own colours, never input).
type ColourMap<V> = HashMap<Rgb, V, BuildHasherDefault<ColourHasher>>;

#[derive(Default)]
struct ColourHasher(u64);

impl Hasher for ColourHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 16
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8) | b as u64;
        }
    }
}

/// The palette index GIF frames use for "unchanged since the last frame"; no colour uses it.
pub(super) const TRANSPARENT: u8 = 255;

/// Up to 255 colours shared by every picture of a theme.
pub(super) struct Palette {
    colours: Vec<Rgb>,
    lookup: ColourMap<u8>,
}

impl Palette {
    /// A palette keeping `key` colours exact and filling the remaining places with the colours
    /// the prepared surfaces use most; anything else is drawn in its nearest entry.
    pub fn build(key: &[Rgb], surfaces: &[&Paint]) -> Palette {
        let mut colours: Vec<Rgb> = Vec::with_capacity(255);
        for &c in key {
            if !colours.contains(&c) && colours.len() < 255 {
                colours.push(c);
            }
        }
        let mut counts: ColourMap<u32> = ColourMap::default();
        for surface in surfaces {
            for c in surface.rgb() {
                *counts.entry(c).or_default() += 1;
            }
        }
        let mut by_use: Vec<(Rgb, u32)> = counts.into_iter().collect();
        by_use.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        // First take colours clearly unlike those already chosen, then close ones, so a
        // crowded palette spends its places on variety rather than near-duplicates.
        for min_distance in [48, 12, 3, 1] {
            for &(c, _) in &by_use {
                if colours.len() >= 255 {
                    break;
                }
                if colours.iter().all(|&p| distance(p, c) >= min_distance) {
                    colours.push(c);
                }
            }
        }
        let lookup = colours
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i as u8))
            .collect();
        Palette { colours, lookup }
    }

    /// The entry drawing `c`: exact when the palette holds it, else the nearest.
    pub fn index(&self, c: Rgb) -> u8 {
        if let Some(&i) = self.lookup.get(&c) {
            return i;
        }
        self.colours
            .iter()
            .enumerate()
            .min_by_key(|&(_, &p)| distance(p, c))
            .map_or(0, |(i, _)| i as u8)
    }

    /// The palette as 256 RGB triples (the last ones unused), as PNG and GIF store it.
    pub fn bytes(&self) -> Vec<u8> {
        let mut bytes: Vec<u8> = self.colours.iter().flatten().copied().collect();
        bytes.resize(256 * 3, 0);
        bytes
    }

    /// The palette as stored in a PNG: only the entries in use.
    pub fn used_bytes(&self) -> Vec<u8> {
        self.colours.iter().flatten().copied().collect()
    }

    /// Converts a prepared surface to palette indices.
    pub fn quantise(&self, paint: &Paint) -> Canvas {
        let mut memo: ColourMap<u8> = ColourMap::default();
        let pixels = paint
            .rgb()
            .map(|c| *memo.entry(c).or_insert_with(|| self.index(c)))
            .collect();
        Canvas {
            width: paint.width,
            height: paint.height,
            pixels,
        }
    }
}

/// Squared distance between colours, weighted roughly as the eye weighs the channels.
fn distance(a: Rgb, b: Rgb) -> u32 {
    let d = |i: usize, w: u32| {
        let x = a[i].abs_diff(b[i]) as u32;
        w * x * x
    };
    (d(0, 3) + d(1, 4) + d(2, 2)) / 9
}

/// A palette-indexed picture or piece of one.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) struct Canvas {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl Canvas {
    pub fn new(width: u32, height: u32, index: u8) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![index; (width * height) as usize],
        }
    }

    /// Copies `part` with its top-left corner at `(x, y)`, clipped to this canvas.
    pub fn draw(&mut self, part: &Canvas, x: u32, y: u32) {
        if x >= self.width || y >= self.height {
            return;
        }
        let w = part.width.min(self.width - x) as usize;
        for row in 0..part.height.min(self.height - y) {
            let src = (row * part.width) as usize;
            let dst = ((y + row) * self.width + x) as usize;
            self.pixels[dst..dst + w].copy_from_slice(&part.pixels[src..src + w]);
        }
    }

    pub fn set(&mut self, x: i32, y: i32, index: u8) {
        if x >= 0 && y >= 0 && (x as u32) < self.width && (y as u32) < self.height {
            self.pixels[(y as u32 * self.width + x as u32) as usize] = index;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_colours_stay_exact_and_palette_leaves_the_transparent_index_free() {
        let mut paint = Paint::new(64, 64, [10, 20, 30]);
        paint.fill(
            &Circle {
                cx: 32.0,
                cy: 32.0,
                r: 20.0,
            },
            [250, 200, 40],
            1.0,
        );
        for i in 0..64 {
            paint.blend(i, i, [i as u8 * 4, 255 - i as u8, 7], 1.0);
        }
        let palette = Palette::build(&[[10, 20, 30], [250, 200, 40]], &[&paint]);
        assert!(palette.colours.len() <= 255);
        let canvas = palette.quantise(&paint);
        assert_eq!(canvas.pixels[63], palette.index([10, 20, 30]));
        assert_eq!(
            palette.colours[palette.index([250, 200, 40]) as usize],
            [250, 200, 40]
        );
        assert!(canvas.pixels.iter().all(|&i| i != TRANSPARENT));
    }
}

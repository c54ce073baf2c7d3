//! Drawing a theme's assets ahead: shapes are rasterised by `imageproc` on a coverage mask
//! four times finer than the picture, scaled down by `image`'s box-averaging `thumbnail` for
//! smooth edges, and laid on a full-colour sketch at a few opacity levels, so the blends of
//! an edge are few colours that repeat (cheap for the PNG's compressor and the palette).
//!
//! The samples sit at the centres of the fine cells, `(i + ½) / 4` of a pixel. `imageproc`
//! centres a circle on a point, never between two, so shapes are marked on a lattice twice
//! as fine again (points `i / 8`) and the odd points are kept: a shape centred on a pixel
//! corner, as every piece is, is then sampled symmetrically about its centre, and a piece
//! symmetric in the design is symmetric to the pixel (which also lets the compressor match
//! its mirrored rows).

use image::{imageops, GrayImage, Luma, Rgb as Pixel, RgbImage};
use imageproc::drawing::{draw_filled_circle_mut, draw_filled_rect_mut, draw_polygon_mut};
use imageproc::point::Point;
use imageproc::rect::Rect;

use super::theme::{mix, Rgb};

/// Samples per pixel along each side.
const SUPERSAMPLE: u32 = 4;
/// Points per pixel along each side of the lattice shapes are marked on.
const LATTICE: u32 = 2 * SUPERSAMPLE;

/// Opacity steps of a shape's edge: smooth enough to look round, few enough that every pair
/// of colours blends into a handful of palette entries.
const EDGE_LEVELS: u32 = 4;

const INK: Luma<u8> = Luma([255]);
const ERASE: Luma<u8> = Luma([0]);

/// A region of the plane, in picture pixels.
pub(super) enum Shape {
    Circle {
        cx: f32,
        cy: f32,
        r: f32,
    },
    /// A closed polygon.
    Polygon(Vec<(f32, f32)>),
    /// A straight stroke with round ends.
    Stroke {
        from: (f32, f32),
        to: (f32, f32),
        width: f32,
    },
    /// A filled rectangle with corners rounded by `radius`.
    RoundedRect {
        x0: f32,
        y0: f32,
        x1: f32,
        y1: f32,
        radius: f32,
    },
    /// The band between a rounded rectangle and the same shrunk by `thickness`.
    Frame {
        x0: f32,
        y0: f32,
        x1: f32,
        y1: f32,
        thickness: f32,
        radius: f32,
    },
}

/// A coordinate on the lattice.
fn fine(v: f32) -> i32 {
    (v * LATTICE as f32).round() as i32
}

fn fine_point((x, y): (f32, f32)) -> Point<i32> {
    Point::new(fine(x), fine(y))
}

impl Shape {
    /// The polygon through `points` scaled by `factor` about `(cx, cy)`.
    pub fn scaled(points: &[(f32, f32)], (cx, cy): (f32, f32), factor: f32) -> Shape {
        Shape::Polygon(
            points
                .iter()
                .map(|&(x, y)| (cx + (x - cx) * factor, cy + (y - cy) * factor))
                .collect(),
        )
    }

    /// Marks the shape on `mask` (a lattice whose origin is picture pixel `at`) with `ink`.
    fn mark(&self, mask: &mut GrayImage, at: (f32, f32), ink: Luma<u8>) {
        let shift = |(x, y): (f32, f32)| (x - at.0, y - at.1);
        match self {
            Shape::Circle { cx, cy, r } => {
                let (x, y) = shift((*cx, *cy));
                draw_filled_circle_mut(mask, (fine(x), fine(y)), fine(*r), ink);
            }
            Shape::Polygon(points) => {
                let mut fine_points: Vec<Point<i32>> =
                    points.iter().map(|&p| fine_point(shift(p))).collect();
                fine_points.dedup();
                if fine_points.len() > 2 && fine_points.first() == fine_points.last() {
                    fine_points.pop();
                }
                if fine_points.len() >= 3 {
                    draw_polygon_mut(mask, &fine_points, ink);
                }
            }
            Shape::Stroke { from, to, width } => {
                let (a, b) = (shift(*from), shift(*to));
                let (dx, dy) = (b.0 - a.0, b.1 - a.1);
                let len = (dx * dx + dy * dy).sqrt().max(f32::EPSILON);
                let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
                let corners = [
                    (a.0 + nx, a.1 + ny),
                    (b.0 + nx, b.1 + ny),
                    (b.0 - nx, b.1 - ny),
                    (a.0 - nx, a.1 - ny),
                ];
                let corners: Vec<Point<i32>> = corners.into_iter().map(fine_point).collect();
                draw_polygon_mut(mask, &corners, ink);
                for end in [a, b] {
                    draw_filled_circle_mut(
                        mask,
                        (fine(end.0), fine(end.1)),
                        fine(width / 2.0),
                        ink,
                    );
                }
            }
            Shape::RoundedRect {
                x0,
                y0,
                x1,
                y1,
                radius,
            } => {
                let (x0, y0) = shift((*x0, *y0));
                let (x1, y1) = shift((*x1, *y1));
                rounded_rect(
                    mask,
                    (fine(x0), fine(y0), fine(x1), fine(y1)),
                    fine(*radius),
                    ink,
                );
            }
            Shape::Frame {
                x0,
                y0,
                x1,
                y1,
                thickness,
                radius,
            } => {
                let (x0, y0) = shift((*x0, *y0));
                let (x1, y1) = shift((*x1, *y1));
                let t = *thickness;
                rounded_rect(
                    mask,
                    (fine(x0), fine(y0), fine(x1), fine(y1)),
                    fine(*radius),
                    ink,
                );
                let inner = (fine(x0 + t), fine(y0 + t), fine(x1 - t), fine(y1 - t));
                rounded_rect(mask, inner, fine((radius - t).max(0.0)), ERASE);
            }
        }
    }

    /// A box `(x0, y0, x1, y1)` holding the whole shape, in picture pixels.
    fn bounds(&self) -> (f32, f32, f32, f32) {
        let around = |points: &mut dyn Iterator<Item = (f32, f32)>, pad: f32| {
            points.fold(
                (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
                |(x0, y0, x1, y1), (x, y)| {
                    (
                        x0.min(x - pad),
                        y0.min(y - pad),
                        x1.max(x + pad),
                        y1.max(y + pad),
                    )
                },
            )
        };
        match self {
            Shape::Circle { cx, cy, r } => (cx - r, cy - r, cx + r, cy + r),
            Shape::Polygon(points) => around(&mut points.iter().copied(), 0.0),
            Shape::Stroke { from, to, width } => around(&mut [*from, *to].into_iter(), width / 2.0),
            Shape::RoundedRect { x0, y0, x1, y1, .. } | Shape::Frame { x0, y0, x1, y1, .. } => {
                (*x0, *y0, *x1, *y1)
            }
        }
    }
}

/// Fills the rectangle `(x0, y0)`–`(x1, y1)` with its corners rounded by `r`.
fn rounded_rect(
    mask: &mut GrayImage,
    (x0, y0, x1, y1): (i32, i32, i32, i32),
    r: i32,
    ink: Luma<u8>,
) {
    let (w, h) = (x1 - x0, y1 - y0);
    if w <= 0 || h <= 0 {
        return;
    }
    let r = r.min(w / 2).min(h / 2).max(0);
    let rect = |x, y, w: i32, h: i32| Rect::at(x, y).of_size(w as u32 + 1, h as u32 + 1);
    draw_filled_rect_mut(mask, rect(x0 + r, y0, w - 2 * r, h), ink);
    draw_filled_rect_mut(mask, rect(x0, y0 + r, w, h - 2 * r), ink);
    for (cx, cy) in [
        (x0 + r, y0 + r),
        (x1 - r, y0 + r),
        (x0 + r, y1 - r),
        (x1 - r, y1 - r),
    ] {
        draw_filled_circle_mut(mask, (cx, cy), r, ink);
    }
}

/// A full-colour surface an asset is drawn on.
#[derive(Clone)]
pub(super) struct Sketch {
    pub image: RgbImage,
}

impl Sketch {
    pub fn new(width: u32, height: u32, colour: Rgb) -> Sketch {
        Sketch {
            image: RgbImage::from_pixel(width, height, Pixel(colour)),
        }
    }

    /// Lays `colour` over the pixel at `(x, y)` with opacity `alpha` (0 to 1).
    pub fn blend(&mut self, x: i32, y: i32, colour: Rgb, alpha: f32) {
        let (w, h) = self.image.dimensions();
        if x < 0 || y < 0 || x as u32 >= w || y as u32 >= h || alpha <= 0.0 {
            return;
        }
        let p = self.image.get_pixel_mut(x as u32, y as u32);
        p.0 = mix(p.0, colour, alpha.min(1.0));
    }

    /// Fills `shape` with `colour`, its edges smoothed to a few levels.
    pub fn fill(&mut self, shape: &Shape, colour: Rgb) {
        let (bx0, by0, bx1, by1) = shape.bounds();
        let x0 = (bx0.floor() as i32 - 1).max(0);
        let y0 = (by0.floor() as i32 - 1).max(0);
        let x1 = (bx1.ceil() as i32 + 1).min(self.image.width() as i32);
        let y1 = (by1.ceil() as i32 + 1).min(self.image.height() as i32);
        if x1 <= x0 || y1 <= y0 {
            return;
        }
        let (w, h) = ((x1 - x0) as u32, (y1 - y0) as u32);
        let mut lattice = GrayImage::new(w * LATTICE, h * LATTICE);
        shape.mark(&mut lattice, (x0 as f32, y0 as f32), INK);
        let samples = GrayImage::from_fn(w * SUPERSAMPLE, h * SUPERSAMPLE, |x, y| {
            *lattice.get_pixel(2 * x + 1, 2 * y + 1)
        });
        let coverage = imageops::thumbnail(&samples, w, h);
        for (x, y, &Luma([c])) in coverage.enumerate_pixels() {
            let level = (c as u32 * EDGE_LEVELS + 127) / 255;
            if level > 0 {
                let a = level as f32 / EDGE_LEVELS as f32;
                self.blend(x0 + x as i32, y0 + y as i32, colour, a);
            }
        }
    }

    /// Copies `other` onto this sketch with its top-left corner at `(x, y)`.
    pub fn put(&mut self, other: &Sketch, x: u32, y: u32) {
        imageops::replace(&mut self.image, &other.image, x as i64, y as i64);
    }

    /// Blends `other`, the same size, over this sketch at opacity `alpha`.
    pub fn fade_into(&mut self, other: &Sketch, alpha: f32) {
        for (p, q) in self.image.pixels_mut().zip(other.image.pixels()) {
            p.0 = mix(p.0, q.0, alpha);
        }
    }
}

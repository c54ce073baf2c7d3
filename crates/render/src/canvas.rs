//! The palette-indexed surface every picture is composed on, and the palette of a theme:
//! composing is copying bytes, and encoding needs no colour quantisation.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use image::RgbImage;

use super::theme::Rgb;

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
    pub fn build(key: &[Rgb], surfaces: &[&RgbImage]) -> Palette {
        let mut colours: Vec<Rgb> = Vec::with_capacity(255);
        for &c in key {
            if !colours.contains(&c) && colours.len() < 255 {
                colours.push(c);
            }
        }
        let mut counts: ColourMap<u32> = ColourMap::default();
        for surface in surfaces {
            for c in surface.pixels() {
                *counts.entry(c.0).or_default() += 1;
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

    /// The colours, in index order.
    pub fn colours(&self) -> &[Rgb] {
        &self.colours
    }

    /// Converts a prepared surface to palette indices.
    pub fn quantise(&self, image: &RgbImage) -> Canvas {
        let mut memo: ColourMap<u8> = ColourMap::default();
        let pixels = image
            .pixels()
            .map(|c| *memo.entry(c.0).or_insert_with(|| self.index(c.0)))
            .collect();
        Canvas {
            width: image.width(),
            height: image.height(),
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
        let mut image = RgbImage::from_pixel(64, 64, image::Rgb([10, 20, 30]));
        for i in 0..64 {
            for j in 0..64 {
                image.put_pixel(i, j, image::Rgb([i as u8 * 4, 255 - j as u8, 7]));
            }
        }
        image.put_pixel(63, 0, image::Rgb([10, 20, 30]));
        let palette = Palette::build(&[[10, 20, 30], [250, 200, 40]], &[&image]);
        assert!(palette.colours.len() <= 255);
        let canvas = palette.quantise(&image);
        assert_eq!(canvas.pixels[63], palette.index([10, 20, 30]));
        assert_eq!(
            palette.colours[palette.index([250, 200, 40]) as usize],
            [250, 200, 40]
        );
        assert!(canvas.pixels.iter().all(|&i| i != TRANSPARENT));
    }
}

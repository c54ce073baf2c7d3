//! Writing composed canvases as files: a palette PNG, and an animated GIF whose frames after
//! the first hold only the rectangle that changed.

use std::borrow::Cow;

use super::canvas::{Canvas, Palette, TRANSPARENT};
use super::layout::SQUARE_PX;
use super::{deflate, lzw};

/// A palette PNG of `canvas`.
pub(super) fn png(canvas: &Canvas, palette: &Palette) -> Vec<u8> {
    let width = canvas.width as usize;
    let stride = width + 1;
    // Each row starts with its filter byte; "none" suits palette pictures, whose repeats the
    // compressor finds directly.
    let mut raw = Vec::with_capacity(stride * canvas.height as usize);
    for row in canvas.pixels.chunks(width) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    // Where repeats are: the row above, the previous pixel, the square two to the left (same
    // shade). More candidates found little more and cost time.
    let distances = [stride, 1, 2 * SQUARE_PX as usize];
    let idat = deflate::zlib(&raw, &distances);
    let mut out = Vec::with_capacity(idat.len() + palette.used_bytes().len() + 128);
    let mut encoder = png::Encoder::new(&mut out, canvas.width, canvas.height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.used_bytes());
    // Writing a well-formed image to memory cannot fail: the size, palette and data always
    // agree, and a Vec accepts every write.
    let mut writer = encoder
        .write_header()
        .expect("a palette PNG header writes to memory");
    writer
        .write_chunk(png::chunk::IDAT, &idat)
        .expect("image data writes to memory");
    writer.finish().expect("a PNG finishes in memory");
    out
}

/// An animated GIF being written, one canvas at a time.
pub(super) struct Animation {
    encoder: gif::Encoder<Vec<u8>>,
    previous: Option<Canvas>,
}

impl Animation {
    /// An animation of `width`×`height` pictures in `palette`, looping forever.
    pub fn new(width: u32, height: u32, palette: &Palette) -> Animation {
        let mut encoder = gif::Encoder::new(
            Vec::with_capacity(256 * 1024),
            width as u16,
            height as u16,
            &palette.bytes(),
        )
        .expect("a GIF header writes to memory");
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .expect("a GIF extension writes to memory");
        Animation {
            encoder,
            previous: None,
        }
    }

    /// Adds `canvas`, shown for `delay` hundredths of a second. `common` is the index most
    /// of a whole picture is drawn in (the background), which compresses quickest.
    pub fn add(&mut self, canvas: Canvas, delay: u16, common: u8) {
        let mut frame = match &self.previous {
            None => gif::Frame {
                width: canvas.width as u16,
                height: canvas.height as u16,
                buffer: Cow::Owned(lzw::compress(&canvas.pixels, common)),
                ..gif::Frame::default()
            },
            Some(previous) => {
                let mut frame = changes(previous, &canvas);
                frame.buffer = Cow::Owned(lzw::compress(&frame.buffer, TRANSPARENT));
                frame
            }
        };
        frame.delay = delay;
        frame.dispose = gif::DisposalMethod::Keep;
        self.encoder
            .write_lzw_pre_encoded_frame(&frame)
            .expect("a GIF frame writes to memory");
        self.previous = Some(canvas);
    }

    pub fn finish(self) -> Vec<u8> {
        self.encoder
            .into_inner()
            .expect("a GIF trailer writes to memory")
    }
}

/// A frame holding the smallest rectangle where `next` differs from `previous`, with the
/// unchanged pixels inside it transparent so they compress to almost nothing.
fn changes<'a>(previous: &Canvas, next: &Canvas) -> gif::Frame<'a> {
    let w = next.width as usize;
    let rows: Vec<usize> = (0..next.height as usize)
        .filter(|&y| previous.pixels[y * w..(y + 1) * w] != next.pixels[y * w..(y + 1) * w])
        .collect();
    let (Some(&y0), Some(&y1)) = (rows.first(), rows.last()) else {
        // Nothing changed; a single transparent pixel keeps one frame per position.
        return gif::Frame {
            width: 1,
            height: 1,
            buffer: Cow::Owned(vec![TRANSPARENT]),
            transparent: Some(TRANSPARENT),
            ..gif::Frame::default()
        };
    };
    let (mut x0, mut x1) = (w, 0);
    for &y in &rows {
        let old = &previous.pixels[y * w..(y + 1) * w];
        let new = &next.pixels[y * w..(y + 1) * w];
        if let Some(first) = old.iter().zip(new).position(|(a, b)| a != b) {
            x0 = x0.min(first);
        }
        if let Some(last) = old.iter().zip(new).rposition(|(a, b)| a != b) {
            x1 = x1.max(last);
        }
    }
    let mut buffer = Vec::with_capacity((x1 - x0 + 1) * (y1 - y0 + 1));
    for y in y0..=y1 {
        let old = &previous.pixels[y * w + x0..=y * w + x1];
        let new = &next.pixels[y * w + x0..=y * w + x1];
        buffer.extend(
            old.iter()
                .zip(new)
                .map(|(&a, &b)| if a == b { TRANSPARENT } else { b }),
        );
    }
    gif::Frame {
        left: x0 as u16,
        top: y0 as u16,
        width: (x1 - x0 + 1) as u16,
        height: (y1 - y0 + 1) as u16,
        buffer: Cow::Owned(buffer),
        transparent: Some(TRANSPARENT),
        ..gif::Frame::default()
    }
}

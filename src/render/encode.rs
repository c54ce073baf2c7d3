//! Writing composed canvases as files: a palette PNG, and an animated GIF whose frames after
//! the first hold only the rectangle that changed.

use std::borrow::Cow;

use super::canvas::{Canvas, Palette, TRANSPARENT};

/// A palette PNG of `canvas`.
pub(super) fn png(canvas: &Canvas, palette: &Palette) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 * 1024);
    let mut encoder = png::Encoder::new(&mut out, canvas.width, canvas.height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette.used_bytes());
    encoder.set_deflate_compression(png::DeflateCompression::Level(9));
    // Palette indices are not quantities: "none" lets the compressor see the repeats as drawn.
    encoder.set_filter(png::Filter::NoFilter);
    // Writing a well-formed image to memory cannot fail: the size, palette and data always
    // agree, and a Vec accepts every write.
    let mut writer = encoder
        .write_header()
        .expect("a palette PNG header writes to memory");
    writer
        .write_image_data(&canvas.pixels)
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

    /// Adds `canvas`, shown for `delay` hundredths of a second.
    pub fn add(&mut self, canvas: Canvas, delay: u16) {
        let mut frame = match &self.previous {
            None => gif::Frame {
                width: canvas.width as u16,
                height: canvas.height as u16,
                buffer: Cow::Borrowed(&canvas.pixels),
                ..gif::Frame::default()
            },
            Some(previous) => changes(previous, &canvas),
        };
        frame.delay = delay;
        frame.dispose = gif::DisposalMethod::Keep;
        self.encoder
            .write_frame(&frame)
            .expect("a GIF frame writes to memory");
        drop(frame);
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

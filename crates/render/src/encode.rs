//! Writing composed canvases as files: a palette PNG, and an animated GIF whose frames after
//! the first hold only the rectangle that changed.

use std::borrow::Cow;

use super::canvas::{Canvas, Palette, TRANSPARENT};

/// A palette PNG of `canvas`.
pub(super) fn png(canvas: &Canvas, palette: &Palette) -> Vec<u8> {
    // A picture shows a fraction of its theme's palette: the file keeps only those colours,
    // which saves most of a full palette's 765 bytes.
    let mut used = [false; 256];
    for &i in &canvas.pixels {
        used[i as usize] = true;
    }
    let mut renumber = [0u8; 256];
    let mut colours = Vec::with_capacity(3 * 256);
    for (i, rgb) in palette.colours().iter().enumerate() {
        if used[i] {
            renumber[i] = (colours.len() / 3) as u8;
            colours.extend_from_slice(rgb);
        }
    }
    let pixels: Vec<u8> = canvas
        .pixels
        .iter()
        .map(|&i| renumber[i as usize])
        .collect();

    let mut out = Vec::with_capacity(16 * 1024);
    let mut encoder = png::Encoder::new(&mut out, canvas.width, canvas.height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(colours);
    // zlib level 7 searches deep enough to find most repeats a row or two squares back; on
    // the mid-game board with its caption, 8 and 9 save 0.6 to 0.7 KB more for 30 to 60 %
    // more time, and 6 costs 1.8 KB.
    encoder.set_deflate_compression(png::DeflateCompression::Level(7));
    // Palette indices are not quantities: "none" lets the compressor see the repeats as drawn.
    encoder.set_filter(png::Filter::NoFilter);
    // Writing a well-formed image to memory cannot fail: the size, palette and data always
    // agree, and a Vec accepts every write.
    let mut writer = encoder
        .write_header()
        .expect("a palette PNG header writes to memory");
    writer
        .write_image_data(&pixels)
        .expect("image data writes to memory");
    writer.finish().expect("a PNG finishes in memory");
    out
}

/// One frame of a GIF, LZW-coded already (as `gif` allows, so frames can be coded on
/// several threads and a replay's length chosen before it is written).
pub(super) type GifFrame = gif::Frame<'static>;

/// `canvas` as a GIF frame: whole, or only what changed since `previous`.
pub(super) fn gif_frame(previous: Option<&Canvas>, canvas: &Canvas) -> GifFrame {
    let mut frame = match previous {
        None => gif::Frame::from_indexed_pixels(
            canvas.width as u16,
            canvas.height as u16,
            canvas.pixels.clone(),
            None,
        ),
        Some(previous) => changes(previous, canvas),
    };
    frame.dispose = gif::DisposalMethod::Keep;
    frame.make_lzw_pre_encoded();
    frame
}

/// The bytes `frame` takes in a file: its control extension, descriptor and data blocks.
pub(super) fn gif_frame_len(frame: &GifFrame) -> usize {
    let data = frame.buffer.len().saturating_sub(1);
    8 + 10 + 1 + data + data.div_ceil(255) + 1
}

/// A looping GIF of `width`×`height` pictures in `palette`, showing each frame for its
/// delay (hundredths of a second).
pub(super) fn gif<'a>(
    width: u32,
    height: u32,
    palette: &Palette,
    frames: impl IntoIterator<Item = (&'a GifFrame, u16)>,
) -> Vec<u8> {
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
    for (frame, delay) in frames {
        let frame = gif::Frame {
            delay,
            buffer: Cow::Borrowed(&frame.buffer[..]),
            palette: None,
            ..*frame
        };
        encoder
            .write_lzw_pre_encoded_frame(&frame)
            .expect("a GIF frame writes to memory");
    }
    encoder
        .into_inner()
        .expect("a GIF trailer writes to memory")
}

/// The bytes of a GIF's header, palette and loop extension, and its trailer.
pub(super) const GIF_OVERHEAD: usize = 13 + 256 * 3 + 19 + 1;

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

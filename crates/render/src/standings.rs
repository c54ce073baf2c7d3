//! A table as a picture: a tournament's standings or crosstable, drawn with the committed
//! DejaVu fonts. The caller words every cell; this only lays them out, so render stays free
//! of tournament rules.

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use image::{ImageEncoder, Rgb, RgbImage};
use imageproc::drawing::draw_filled_rect_mut;
use imageproc::rect::Rect;

static REGULAR: &[u8] = include_bytes!("../../../fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../../fonts/DejaVuSans-Bold.ttf");

/// The most rows a picture shows; the rest are summed up in the footer.
pub const MAX_ROWS: usize = 64;
/// The longest cell, in characters; longer ones are cut in the middle with an ellipsis, so
/// names that differ only at their end (a number, a suffix) stay apart.
const MAX_CELL: usize = 28;
/// The narrowest picture: the title and the legend are wrapped to the picture's width, and
/// below this they would take too many lines.
const MIN_WIDTH: u32 = 560;

const PAD: u32 = 12;
const ROW: u32 = 26;
const TITLE_ROW: u32 = 30;
const TITLE_PX: f32 = 22.0;
const CELL_PX: f32 = 16.0;

const BACKGROUND: Rgb<u8> = Rgb([250, 247, 240]);
const STRIPE: Rgb<u8> = Rgb([236, 230, 216]);
const HEADER: Rgb<u8> = Rgb([74, 58, 40]);
const HEADER_INK: Rgb<u8> = Rgb([250, 247, 240]);
const INK: Rgb<u8> = Rgb([33, 28, 22]);
const LEADER: Rgb<u8> = Rgb([255, 226, 140]);

/// A table to draw: a title, column headings, rows of cells, a footer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    pub title: String,
    pub headings: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// Rows drawn highlighted (the leaders), by index.
    pub highlighted: Vec<usize>,
    pub footer: String,
}

/// The table as a PNG.
pub fn table_png(table: &Table) -> Vec<u8> {
    let (Ok(regular), Ok(bold)) = (
        FontRef::try_from_slice(REGULAR),
        FontRef::try_from_slice(BOLD),
    ) else {
        // The fonts are part of the binary; without them there is nothing to draw with.
        return Vec::new();
    };
    let cell = PxScale::from(CELL_PX);
    let title_scale = PxScale::from(TITLE_PX);
    let columns = table
        .headings
        .len()
        .max(table.rows.iter().map(Vec::len).max().unwrap_or(0));
    let rows: Vec<Vec<String>> = table
        .rows
        .iter()
        .take(MAX_ROWS)
        .map(|r| {
            (0..columns)
                .map(|c| cut(r.get(c).map_or("", |s| s)))
                .collect()
        })
        .collect();
    let headings: Vec<String> = (0..columns)
        .map(|c| cut(table.headings.get(c).map_or("", |s| s)))
        .collect();
    let mut widths = vec![0u32; columns];
    for (c, w) in widths.iter_mut().enumerate() {
        *w = text_size(cell, &bold, &headings[c]).0;
        for r in &rows {
            *w = (*w).max(text_size(cell, &regular, &r[c]).0);
        }
        *w += 2 * PAD;
    }
    // The table sets the width; a narrow one is widened to fill it, column by column, and the
    // title and the legend are wrapped to it, so the table never sits in a corner of the
    // picture.
    let mut table_width: u32 = widths.iter().sum();
    let width = (table_width + 2 * PAD).max(MIN_WIDTH);
    if let Some(spare) = (width - 2 * PAD).checked_sub(table_width) {
        let count = widths.len().max(1) as u32;
        for (i, w) in widths.iter_mut().enumerate() {
            *w += spare / count + u32::from((i as u32) < spare % count);
        }
        table_width = widths.iter().sum();
    }
    let line_width = width - 2 * PAD;
    let title = wrap(&table.title, &|l| {
        text_size(title_scale, &bold, l).0 <= line_width
    });
    // The footer (a legend) is wrapped, never cut: every mark it explains stays readable.
    let footer = wrap(&table.footer, &|l| {
        text_size(cell, &regular, l).0 <= line_width
    });
    let title_height = 10 + TITLE_ROW * title.len().max(1) as u32;
    let height = title_height + ROW * (rows.len() as u32 + 1) + ROW * footer.len() as u32 + PAD;
    let mut image = RgbImage::from_pixel(width, height, BACKGROUND);

    for (i, line) in title.iter().enumerate() {
        let y = 8 + TITLE_ROW * i as u32;
        draw_text_mut(
            &mut image,
            INK,
            PAD as i32,
            y as i32,
            title_scale,
            &bold,
            line,
        );
    }
    let top = title_height;
    draw_filled_rect_mut(
        &mut image,
        Rect::at(PAD as i32, top as i32).of_size(table_width.max(1), ROW),
        HEADER,
    );
    let mut x = PAD;
    for (c, heading) in headings.iter().enumerate() {
        draw_text_mut(
            &mut image,
            HEADER_INK,
            (x + PAD) as i32,
            (top + 4) as i32,
            cell,
            &bold,
            heading,
        );
        x += widths[c];
    }
    for (i, row) in rows.iter().enumerate() {
        let y = top + ROW * (i as u32 + 1);
        let fill = if table.highlighted.contains(&i) {
            Some(LEADER)
        } else if i % 2 == 1 {
            Some(STRIPE)
        } else {
            None
        };
        if let Some(fill) = fill {
            draw_filled_rect_mut(
                &mut image,
                Rect::at(PAD as i32, y as i32).of_size(table_width.max(1), ROW),
                fill,
            );
        }
        let mut x = PAD;
        for (c, text) in row.iter().enumerate() {
            draw_text_mut(
                &mut image,
                INK,
                (x + PAD) as i32,
                (y + 4) as i32,
                cell,
                &regular,
                text,
            );
            x += widths[c];
        }
    }
    let footer_y = top + ROW * (rows.len() as u32 + 1) + 4;
    for (i, line) in footer.iter().enumerate() {
        draw_text_mut(
            &mut image,
            INK,
            PAD as i32,
            (footer_y + ROW * i as u32) as i32,
            cell,
            &regular,
            line,
        );
    }

    let mut bytes = Vec::new();
    let encoder = image::codecs::png::PngEncoder::new_with_quality(
        &mut bytes,
        image::codecs::png::CompressionType::Best,
        image::codecs::png::FilterType::Adaptive,
    );
    if encoder
        .write_image(
            image.as_raw(),
            width,
            height,
            image::ExtendedColorType::Rgb8,
        )
        .is_err()
    {
        return Vec::new();
    }
    bytes
}

/// `text` in lines that `fits`, broken between words (a word too long for a line alone is
/// cut at its end).
fn wrap(text: &str, fits: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        if let Some(line) = lines.last_mut() {
            let longer = format!("{line} {word}");
            if fits(&longer) {
                *line = longer;
                continue;
            }
        }
        let mut word: String = word.chars().filter(|c| !c.is_control()).collect();
        while !fits(&word) && word.chars().count() > 1 {
            let keep = word.chars().count() - 2;
            word = word.chars().take(keep).chain(['…']).collect();
        }
        lines.push(word);
    }
    lines
}

/// The width and height `text` takes at `scale`.
fn text_size(scale: PxScale, font: &FontRef<'_>, text: &str) -> (u32, u32) {
    let scaled = font.as_scaled(scale);
    let mut width = 0.0f32;
    let mut previous = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = previous {
            width += scaled.kern(p, id);
        }
        width += scaled.h_advance(id);
        previous = Some(id);
    }
    (width.ceil() as u32, scaled.height().ceil() as u32)
}

/// Draws `text` with its top left at (x, y), blending the glyphs' coverage into the image.
fn draw_text_mut(
    image: &mut RgbImage,
    ink: Rgb<u8>,
    x: i32,
    y: i32,
    scale: PxScale,
    font: &FontRef<'_>,
    text: &str,
) {
    let scaled = font.as_scaled(scale);
    let mut caret = x as f32;
    let baseline = y as f32 + scaled.ascent();
    let mut previous = None;
    for c in text.chars() {
        let id = scaled.glyph_id(c);
        if let Some(p) = previous {
            caret += scaled.kern(p, id);
        }
        let glyph = id.with_scale_and_position(scale, point(caret, baseline));
        caret += scaled.h_advance(id);
        previous = Some(id);
        let Some(outline) = font.outline_glyph(glyph) else {
            continue;
        };
        let bounds = outline.px_bounds();
        outline.draw(|gx, gy, coverage| {
            let px = bounds.min.x as i32 + gx as i32;
            let py = bounds.min.y as i32 + gy as i32;
            if px < 0 || py < 0 || px >= image.width() as i32 || py >= image.height() as i32 {
                return;
            }
            let pixel = image.get_pixel_mut(px as u32, py as u32);
            let a = coverage.clamp(0.0, 1.0);
            for k in 0..3 {
                let blended = f32::from(pixel.0[k]) * (1.0 - a) + f32::from(ink.0[k]) * a;
                pixel.0[k] = blended.round() as u8;
            }
        });
    }
}

/// `text` with control characters dropped, at most [`MAX_CELL`] characters: a longer one
/// keeps its beginning and its end around an ellipsis.
fn cut(text: &str) -> String {
    let clean: Vec<char> = text.chars().filter(|c| !c.is_control()).collect();
    if clean.len() <= MAX_CELL {
        return clean.into_iter().collect();
    }
    let tail = (MAX_CELL - 1) / 2;
    let head = MAX_CELL - 1 - tail;
    clean[..head]
        .iter()
        .chain(['…'].iter())
        .chain(clean[clean.len() - tail..].iter())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_is_a_png_as_wide_as_its_cells() {
        let table = Table {
            title: "Autumn Cup — round 2 of 3".into(),
            headings: vec!["#".into(), "Player".into(), "Points".into()],
            rows: vec![
                vec!["1".into(), "alice".into(), "2".into()],
                vec![
                    "2".into(),
                    "a name far too long to be shown whole in a cell".into(),
                    "1½".into(),
                ],
            ],
            highlighted: vec![0],
            footer: "Ties: Buchholz, then margin.".into(),
        };
        let png = table_png(&table);
        let image = image::load_from_memory(&png).expect("a PNG").to_rgb8();
        assert_eq!(image.height(), 40 + ROW * 3 + ROW + PAD);
        assert!(image.width() > 300);
        // The leader's row is highlighted, the header dark.
        let leader_row = 40 + ROW + ROW / 2;
        assert!((0..image.width()).any(|x| *image.get_pixel(x, leader_row) == LEADER));
        assert_eq!(*image.get_pixel(PAD + 1, 41), HEADER);
        // Ink was laid down in the body.
        let inked = image.pixels().filter(|p| **p == INK).count();
        assert!(inked > 100, "{inked}");
    }

    #[test]
    fn long_names_that_differ_at_their_end_stay_apart() {
        let a = cut("player_with_a_rather_long_name_041");
        let b = cut("player_with_a_rather_long_name_042");
        assert_ne!(a, b);
        assert_eq!(a.chars().count(), MAX_CELL);
        assert!(
            a.starts_with("player_with_") && a.ends_with("name_041"),
            "{a}"
        );
        assert_eq!(cut("alice"), "alice");
    }

    #[test]
    fn a_long_title_wraps_and_the_table_fills_the_picture() {
        let table = Table {
            title: "The Grand Autumn Invitational of the Ankh-Morpork Thud Club — round 2 of 7, page 2 of 5".into(),
            headings: vec!["#".into(), "No.".into(), "Player".into()],
            rows: vec![vec!["1".into(), "1".into(), "alice".into()]],
            highlighted: vec![],
            footer: "Ties: Buchholz, then margin.".into(),
        };
        let image = image::load_from_memory(&table_png(&table))
            .unwrap()
            .to_rgb8();
        assert_eq!(image.width(), MIN_WIDTH);
        // The title takes more than one line, and the table starts below them.
        let top = image.height() - (2 * ROW + ROW + PAD);
        assert!(top >= 10 + 2 * TITLE_ROW, "{top}");
        assert_eq!((top - 10) % TITLE_ROW, 0, "{top}");
        // The header bar reaches the right-hand margin.
        assert_eq!(*image.get_pixel(MIN_WIDTH - PAD - 2, top + 1), HEADER);
    }

    #[test]
    fn empty_and_odd_tables_still_draw() {
        let png = table_png(&Table::default());
        assert!(image::load_from_memory(&png).is_ok());
        let ragged = Table {
            rows: vec![vec!["a\u{0}b".into()], vec![], vec!["x".into(); 5]],
            ..Table::default()
        };
        let image = image::load_from_memory(&table_png(&ragged)).unwrap();
        assert!(image.width() >= 200);
    }
}

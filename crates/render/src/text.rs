//! Lettering: the committed DejaVu Sans fonts, glyphs rasterised once per size, and text laid
//! out on a prepared surface or straight onto a palette canvas.

use std::borrow::Cow;

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};

use super::canvas::Canvas;
use super::sketch::Sketch;
use super::theme::{mix, Rgb};

pub(super) static REGULAR: &[u8] = include_bytes!("../../../fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../../../fonts/DejaVuSans-Bold.ttf");

/// Coverage levels text is drawn with on a palette canvas: enough for smooth edges, few
/// enough that every text colour's blends fit in the palette.
pub(super) const LEVELS: usize = 4;

/// No line of a picture holds more characters than this, so longer text is cut before it
/// is laid out.
const MAX_CHARS: usize = 160;

/// The kinds of lettering in a picture.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Style {
    /// Column letters and row numbers.
    Coordinate,
    /// "DWARFS", "TROLLS".
    SideName,
    /// The big score number.
    Score,
    /// "pts", "left" after the score.
    Unit,
    /// Small notes: "last move", the variant's name.
    Note,
    /// The last move's notation.
    Notation,
    /// "TO MOVE", "WINS".
    Badge,
    /// The caption's first line.
    Title,
    /// The players' names.
    Names,
    /// The caption's status line.
    Status,
}

impl Style {
    const ALL: [Style; 10] = [
        Style::Coordinate,
        Style::SideName,
        Style::Score,
        Style::Unit,
        Style::Note,
        Style::Notation,
        Style::Badge,
        Style::Title,
        Style::Names,
        Style::Status,
    ];

    const fn bold(self) -> bool {
        !matches!(self, Style::Unit | Style::Note | Style::Names)
    }

    const fn px(self) -> f32 {
        match self {
            Style::Coordinate => 18.0,
            Style::SideName => 15.0,
            Style::Score => 30.0,
            Style::Unit => 14.0,
            Style::Note => 14.0,
            Style::Notation => 17.0,
            Style::Badge => 12.0,
            Style::Title => 20.0,
            Style::Names => 18.0,
            Style::Status => 18.0,
        }
    }
}

/// One rasterised glyph: coverage (0–255) and where it sits relative to the pen on the
/// baseline.
#[derive(Clone, Debug)]
struct Glyph {
    left: i32,
    top: i32,
    width: u32,
    height: u32,
    coverage: Vec<u8>,
    advance: f32,
}

/// Glyphs of one style: printable ASCII prepared ahead, a few other common characters too.
struct Face {
    style: Style,
    ascii: Vec<Glyph>,
    extra: Vec<(char, Glyph)>,
}

/// Characters outside ASCII that pictures use often enough to prepare.
const EXTRA: [char; 4] = ['…', '·', '½', '–'];

/// The fonts and every prepared glyph.
pub(super) struct Lettering {
    regular: FontRef<'static>,
    bold: FontRef<'static>,
    faces: Vec<Face>,
}

impl Lettering {
    pub fn new() -> Lettering {
        let regular = FontRef::try_from_slice(REGULAR).expect("the committed font is valid");
        let bold = FontRef::try_from_slice(BOLD).expect("the committed font is valid");
        let mut lettering = Lettering {
            regular,
            bold,
            faces: Vec::new(),
        };
        let faces = Style::ALL
            .iter()
            .map(|&style| Face {
                style,
                ascii: (' '..='~').map(|c| lettering.rasterise(style, c)).collect(),
                extra: EXTRA
                    .iter()
                    .map(|&c| (c, lettering.rasterise(style, c)))
                    .collect(),
            })
            .collect();
        lettering.faces = faces;
        lettering
    }

    fn font(&self, style: Style) -> &FontRef<'static> {
        if style.bold() {
            &self.bold
        } else {
            &self.regular
        }
    }

    fn rasterise(&self, style: Style, c: char) -> Glyph {
        let font = self.font(style);
        let scale = PxScale::from(style.px());
        // Characters the font lacks (emoji, most CJK) show as a question mark, not a box.
        let c = if font.glyph_id(c).0 == 0 || c.is_control() {
            '?'
        } else {
            c
        };
        let id = font.glyph_id(c);
        let advance = font.as_scaled(scale).h_advance(id);
        let glyph = id.with_scale_and_position(scale, point(0.0, 0.0));
        match font.outline_glyph(glyph) {
            Some(outline) => {
                let bounds = outline.px_bounds();
                let width = bounds.width() as u32;
                let height = bounds.height() as u32;
                let mut coverage = vec![0u8; (width * height) as usize];
                outline.draw(|x, y, c| {
                    if x < width && y < height {
                        coverage[(y * width + x) as usize] = (c.clamp(0.0, 1.0) * 255.0) as u8;
                    }
                });
                Glyph {
                    left: bounds.min.x as i32,
                    top: bounds.min.y as i32,
                    width,
                    height,
                    coverage,
                    advance,
                }
            }
            None => Glyph {
                left: 0,
                top: 0,
                width: 0,
                height: 0,
                coverage: Vec::new(),
                advance,
            },
        }
    }

    fn face(&self, style: Style) -> &Face {
        self.faces
            .iter()
            .find(|f| f.style == style)
            .expect("every style has a face")
    }

    /// Calls `f` with each glyph of `text` and its pen position, as long as it fits in
    /// `max_width`; a text too long ends in an ellipsis.
    fn lay_out(&self, style: Style, text: &str, max_width: f32, mut f: impl FnMut(&Glyph, f32)) {
        let face = self.face(style);
        let glyph_of = |c: char| -> Cow<'_, Glyph> {
            let c = if c.is_whitespace() { ' ' } else { c };
            if (' '..='~').contains(&c) {
                return Cow::Borrowed(&face.ascii[(c as u32 - ' ' as u32) as usize]);
            }
            match face.extra.iter().find(|(e, _)| *e == c) {
                Some((_, g)) => Cow::Borrowed(g),
                None => Cow::Owned(self.rasterise(style, c)),
            }
        };
        let glyphs: Vec<Cow<'_, Glyph>> = text.chars().take(MAX_CHARS).map(glyph_of).collect();
        let total: f32 = glyphs.iter().map(|g| g.advance).sum();
        if total <= max_width {
            let mut pen = 0.0;
            for g in &glyphs {
                f(g, pen);
                pen += g.advance;
            }
            return;
        }
        let ellipsis = glyph_of('…');
        let mut pen = 0.0;
        for g in &glyphs {
            if pen + g.advance + ellipsis.advance > max_width {
                break;
            }
            f(g, pen);
            pen += g.advance;
        }
        f(&ellipsis, pen);
    }

    /// How wide `text` is drawn, up to `max_width`.
    pub fn width(&self, style: Style, text: &str, max_width: f32) -> f32 {
        let mut end: f32 = 0.0;
        self.lay_out(style, text, max_width, |g, pen| {
            end = end.max(pen + g.advance)
        });
        end
    }

    /// Draws `text` on a prepared surface, pen starting at `x` on baseline `y`. Coverage is
    /// cut to the same levels as on a canvas, so all text shares a few colours that repeat.
    pub fn paint(
        &self,
        sketch: &mut Sketch,
        style: Style,
        text: &str,
        x: f32,
        y: f32,
        colour: Rgb,
    ) {
        self.lay_out(style, text, f32::MAX, |g, pen| {
            let gx = (x + pen).round() as i32 + g.left;
            let gy = y.round() as i32 + g.top;
            for row in 0..g.height {
                for col in 0..g.width {
                    let c = g.coverage[(row * g.width + col) as usize];
                    let level = (c as usize * LEVELS + 127) / 255;
                    let alpha = level as f32 / LEVELS as f32;
                    sketch.blend(gx + col as i32, gy + row as i32, colour, alpha);
                }
            }
        });
    }

    /// Draws `text` on a canvas whose pixels under it are `ramp[0]`, fitting it in
    /// `max_width`; returns the width drawn.
    pub fn draw(
        &self,
        canvas: &mut Canvas,
        style: Style,
        text: &str,
        (x, y): (f32, f32),
        max_width: f32,
        ramp: &Ramp,
    ) -> f32 {
        let mut end: f32 = 0.0;
        self.lay_out(style, text, max_width, |g, pen| {
            end = end.max(pen + g.advance);
            let gx = (x + pen).round() as i32 + g.left;
            let gy = y.round() as i32 + g.top;
            for row in 0..g.height {
                for col in 0..g.width {
                    let c = g.coverage[(row * g.width + col) as usize] as usize;
                    let level = (c * LEVELS + 127) / 255;
                    if level > 0 {
                        canvas.set(gx + col as i32, gy + row as i32, ramp.0[level]);
                    }
                }
            }
        });
        end
    }
}

/// Palette entries from a background (level 0) to a text colour (the last level).
#[derive(Clone, Copy, Debug)]
pub(super) struct Ramp(pub [u8; LEVELS + 1]);

/// The colours of a ramp from `background` to `ink`, for the palette to keep.
pub(super) fn ramp_colours(background: Rgb, ink: Rgb) -> [Rgb; LEVELS + 1] {
    std::array::from_fn(|i| mix(background, ink, i as f32 / LEVELS as f32))
}

//! Everything a theme draws ahead: the palette, the empty board of each variant, a tile for
//! every way a square can look, piece icons and badges. Composing a picture only copies these.

use thud_engine::game::{Square, Variant};

use super::canvas::{Canvas, Palette};
use super::layout::{cell_origin, BOARD_PX, MARGIN_PX, SQUARE_PX};
use super::sketch::{Shape, Sketch};
use super::text::{ramp_colours, Lettering, Ramp, Style, LEVELS};
use super::theme::{mix, Colours, Rgb, Theme};

/// Side of the small piece icons beside the side names.
pub(super) const ICON_PX: u32 = 22;
/// Height of the "TO MOVE" and "WINS" badges.
const BADGE_PX: u32 = 18;

/// What stands on a square, as drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Figure {
    Dwarf,
    Troll,
    Thudstone,
    Rock,
}

impl Figure {
    const ALL: [Figure; 4] = [
        Figure::Dwarf,
        Figure::Troll,
        Figure::Thudstone,
        Figure::Rock,
    ];

    fn number(self) -> usize {
        self as usize
    }
}

/// How the last move touched a square.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Marking {
    Plain,
    /// The move started or ended here.
    Moved,
    /// The move passed over here.
    Path,
}

/// What a square shows besides its colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Content {
    Empty,
    /// An empty square the last move passed over.
    Footstep,
    Piece(Figure),
    /// A piece standing where the last move captured (a hurl's landing, a trample's).
    Taken(Figure),
    /// An empty square whose piece the last move captured: its ghost, crossed out.
    Ghost(Figure),
}

impl Content {
    const COUNT: usize = 14;

    fn number(self) -> usize {
        match self {
            Content::Empty => 0,
            Content::Footstep => 1,
            Content::Piece(f) => 2 + f.number(),
            Content::Taken(f) => 6 + f.number(),
            Content::Ghost(f) => 10 + f.number(),
        }
    }

    fn all() -> impl Iterator<Item = Content> {
        [Content::Empty, Content::Footstep]
            .into_iter()
            .chain(Figure::ALL.into_iter().map(Content::Piece))
            .chain(Figure::ALL.into_iter().map(Content::Taken))
            .chain(Figure::ALL.into_iter().map(Content::Ghost))
    }
}

/// Everything that decides how one square is drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Look {
    pub dark: bool,
    pub goal: bool,
    pub marking: Marking,
    pub content: Content,
}

impl Look {
    const COUNT: usize = 2 * 2 * 3 * Content::COUNT;

    /// The look of `square` on an untouched, empty board.
    pub fn plain(square: Square, goal: bool) -> Look {
        Look {
            dark: is_dark(square.column(), square.row()),
            goal,
            marking: Marking::Plain,
            content: Content::Empty,
        }
    }

    fn number(self) -> usize {
        let marking = self.marking as usize;
        ((self.dark as usize * 2 + self.goal as usize) * 3 + marking) * Content::COUNT
            + self.content.number()
    }

    fn all() -> impl Iterator<Item = Look> {
        [false, true].into_iter().flat_map(|dark| {
            [false, true].into_iter().flat_map(move |goal| {
                [Marking::Plain, Marking::Moved, Marking::Path]
                    .into_iter()
                    .flat_map(move |marking| {
                        Content::all().map(move |content| Look {
                            dark,
                            goal,
                            marking,
                            content,
                        })
                    })
            })
        })
    }
}

/// Whether grid cell (column, row) is a dark square; the Thudstone's square H8 is dark.
pub(super) const fn is_dark(column: u8, row: u8) -> bool {
    (column + row) % 2 == 0
}

/// Text colours over the background, as palette ramps.
pub(super) struct Ramps {
    pub text: Ramp,
    pub muted: Ramp,
    pub accent: Ramp,
}

/// Everything prepared for one theme.
pub(super) struct Assets {
    pub palette: Palette,
    pub background: u8,
    /// The empty board of each variant, in `Variant::ALL` order.
    boards: Vec<Canvas>,
    tiles: Vec<Canvas>,
    pub dwarf_icon: Canvas,
    pub troll_icon: Canvas,
    pub to_move: Canvas,
    pub wins: Canvas,
    pub ramps: Ramps,
}

impl Assets {
    pub fn new(theme: Theme, lettering: &Lettering) -> Assets {
        let colours = theme.colours();
        let tiles: Vec<Sketch> = Look::all()
            .map(|look| paint_tile(theme, &colours, look))
            .collect();
        debug_assert_eq!(tiles.len(), Look::COUNT);
        debug_assert!(Look::all().enumerate().all(|(i, l)| l.number() == i));
        let boards: Vec<Sketch> = Variant::ALL
            .iter()
            .map(|&v| paint_board(&colours, v, lettering, &tiles))
            .collect();
        let icon = |figure| {
            let mut icon = Sketch::new(ICON_PX, ICON_PX, colours.background);
            paint_figure(&mut icon, theme, &colours, figure, ICON_PX as f32);
            icon
        };
        let (dwarf_icon, troll_icon) = (icon(Figure::Dwarf), icon(Figure::Troll));
        let to_move = paint_badge(&colours, lettering, "TO MOVE");
        let wins = paint_badge(&colours, lettering, "WINS");

        let mut key = colours.all();
        for ink in [colours.text, colours.muted, colours.accent] {
            key.extend(ramp_colours(colours.background, ink));
        }
        let mut surfaces: Vec<&image::RgbImage> =
            tiles.iter().chain(&boards).map(|s| &s.image).collect();
        surfaces.extend([&dwarf_icon, &troll_icon, &to_move, &wins].map(|s| &s.image));
        let palette = Palette::build(&key, &surfaces);
        let ramp = |ink| Ramp(ramp_colours(colours.background, ink).map(|c| palette.index(c)));
        let ramps = Ramps {
            text: ramp(colours.text),
            muted: ramp(colours.muted),
            accent: ramp(colours.accent),
        };
        debug_assert_eq!(ramps.text.0.len(), LEVELS + 1);
        Assets {
            background: palette.index(colours.background),
            boards: boards.iter().map(|b| palette.quantise(&b.image)).collect(),
            tiles: tiles.iter().map(|t| palette.quantise(&t.image)).collect(),
            dwarf_icon: palette.quantise(&dwarf_icon.image),
            troll_icon: palette.quantise(&troll_icon.image),
            to_move: palette.quantise(&to_move.image),
            wins: palette.quantise(&wins.image),
            ramps,
            palette,
        }
    }

    /// The empty board of `variant`, with its coordinates.
    pub fn board(&self, variant: Variant) -> &Canvas {
        let i = Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0);
        &self.boards[i]
    }

    pub fn tile(&self, look: Look) -> &Canvas {
        &self.tiles[look.number()]
    }
}

fn square_colour(c: &Colours, dark: bool, marking: Marking) -> Rgb {
    match (marking, dark) {
        (Marking::Plain, false) => c.light,
        (Marking::Plain, true) => c.dark,
        (Marking::Moved, false) => c.moved_light,
        (Marking::Moved, true) => c.moved_dark,
        (Marking::Path, false) => c.path_light,
        (Marking::Path, true) => c.path_dark,
    }
}

fn paint_tile(theme: Theme, c: &Colours, look: Look) -> Sketch {
    let s = SQUARE_PX as f32;
    let mut p = Sketch::new(
        SQUARE_PX,
        SQUARE_PX,
        square_colour(c, look.dark, look.marking),
    );
    if look.goal {
        let frame = Shape::Frame {
            x0: 1.0,
            y0: 1.0,
            x1: s - 1.0,
            y1: s - 1.0,
            thickness: 3.5,
            radius: 4.0,
        };
        p.fill(&frame, c.goal);
    }
    let mid = s / 2.0;
    match look.content {
        Content::Empty => {}
        Content::Footstep => p.fill(
            &Shape::Circle {
                cx: mid,
                cy: mid,
                r: 5.0,
            },
            c.footstep,
        ),
        Content::Piece(f) => paint_figure(&mut p, theme, c, f, s),
        Content::Taken(f) => {
            paint_figure(&mut p, theme, c, f, s);
            // A small crossed badge in the corner: the piece here replaced a captured one.
            let (bx, by, br) = (s - 7.0, 7.0, 6.5);
            p.fill(
                &Shape::Circle {
                    cx: bx,
                    cy: by,
                    r: br,
                },
                c.capture,
            );
            let arm = 3.0;
            for (dx, dy) in [(arm, arm), (arm, -arm)] {
                let stroke = Shape::Stroke {
                    from: (bx - dx, by - dy),
                    to: (bx + dx, by + dy),
                    width: 2.0,
                };
                p.fill(&stroke, [0xff, 0xff, 0xff]);
            }
        }
        Content::Ghost(f) => {
            // The captured piece at half strength, crossed out.
            let mut ghost = p.clone();
            paint_figure(&mut ghost, theme, c, f, s);
            p.fade_into(&ghost, 0.5);
            let (a, b) = (8.5, s - 8.5);
            for (from, to) in [((a, a), (b, b)), ((b, a), (a, b))] {
                let stroke = Shape::Stroke {
                    from,
                    to,
                    width: 5.0,
                };
                p.fill(&stroke, c.capture);
            }
        }
    }
    p
}

/// Draws `figure` filling a sketch of side `size`. Shapes are designed on a 36-pixel square
/// and scaled.
fn paint_figure(p: &mut Sketch, theme: Theme, c: &Colours, figure: Figure, size: f32) {
    let k = size / 36.0;
    let edge = theme.edge() * k.max(0.75);
    let place = |points: &[(f32, f32)]| -> Vec<(f32, f32)> {
        points.iter().map(|&(x, y)| (x * k, y * k)).collect()
    };
    let mid = (18.0 * k, 18.0 * k);
    let circle = |(cx, cy): (f32, f32), r: f32| Shape::Circle { cx, cy, r };
    match figure {
        Figure::Dwarf => {
            let r = 12.5 * k;
            p.fill(&circle(mid, r), c.dwarf_edge);
            p.fill(&circle(mid, r - edge), c.dwarf);
        }
        Figure::Troll => {
            let outer = place(&[(18.0, 2.5), (34.0, 31.5), (2.0, 31.5)]);
            let (ix, iy, r) = incircle(&outer);
            p.fill(&Shape::Polygon(outer.clone()), c.troll_edge);
            p.fill(&Shape::scaled(&outer, (ix, iy), (r - edge) / r), c.troll);
        }
        Figure::Thudstone => {
            let outer = place(&[(18.0, 2.0), (34.0, 18.0), (18.0, 34.0), (2.0, 18.0)]);
            let apothem = 16.0 * k / std::f32::consts::SQRT_2;
            p.fill(&Shape::Polygon(outer.clone()), c.thudstone_edge);
            let body = (apothem - edge) / apothem;
            p.fill(&Shape::scaled(&outer, mid, body), c.thudstone);
            // A pale inner ring, so the stone reads as a cut gem even when drawn in black.
            let ring = mix(c.thudstone, [0xff, 0xff, 0xff], 0.6);
            p.fill(&Shape::scaled(&outer, mid, 0.55), ring);
            let inside = 0.55 - 1.8 * k / apothem;
            p.fill(&Shape::scaled(&outer, mid, inside), c.thudstone);
        }
        Figure::Rock => {
            let outer = place(&[
                (5.0, 26.0),
                (3.0, 16.0),
                (8.5, 7.0),
                (18.0, 3.0),
                (28.5, 6.0),
                (33.5, 15.0),
                (33.0, 26.5),
                (24.5, 33.0),
                (11.5, 32.5),
            ]);
            p.fill(&Shape::Polygon(outer.clone()), c.rock_edge);
            let body = (14.5 * k - edge) / (14.5 * k);
            p.fill(&Shape::scaled(&outer, mid, body), c.rock);
            let speck = mix(c.rock, c.rock_edge, 0.55);
            for (x, y, r) in [(10.5, 14.0, 2.4), (25.5, 25.5, 2.2), (24.0, 11.0, 1.7)] {
                p.fill(&circle((x * k, y * k), r * k), speck);
            }
        }
    }
}

/// The centre and radius of the circle inscribed in a triangle.
fn incircle(t: &[(f32, f32)]) -> (f32, f32, f32) {
    let d = |a: (f32, f32), b: (f32, f32)| ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt();
    let (a, b, c) = (d(t[1], t[2]), d(t[0], t[2]), d(t[0], t[1]));
    let p = a + b + c;
    let x = (a * t[0].0 + b * t[1].0 + c * t[2].0) / p;
    let y = (a * t[0].1 + b * t[1].1 + c * t[2].1) / p;
    let s = p / 2.0;
    let area = (s * (s - a) * (s - b) * (s - c)).sqrt();
    (x, y, area / s)
}

fn paint_badge(c: &Colours, lettering: &Lettering, label: &str) -> Sketch {
    let text_width = lettering.width(Style::Badge, label, f32::MAX);
    let width = text_width.ceil() as u32 + 14;
    let mut p = Sketch::new(width, BADGE_PX, c.background);
    let pill = Shape::RoundedRect {
        x0: 0.0,
        y0: 0.0,
        x1: width as f32,
        y1: BADGE_PX as f32,
        radius: BADGE_PX as f32 / 2.0,
    };
    p.fill(&pill, c.accent);
    lettering.paint(&mut p, Style::Badge, label, 7.0, 13.5, c.on_accent);
    p
}

/// The empty board of `variant`; `tiles` are the painted tiles in `Look` order.
fn paint_board(c: &Colours, variant: Variant, lettering: &Lettering, tiles: &[Sketch]) -> Sketch {
    let mut p = Sketch::new(BOARD_PX, BOARD_PX, c.background);
    let goals = variant.goal_squares();
    for square in Square::all() {
        let tile = &tiles[Look::plain(square, goals.contains(square)).number()];
        let (x, y) = cell_origin(square.column(), square.row());
        p.put(tile, x, y);
    }
    let s = SQUARE_PX as f32;
    let m = MARGIN_PX as f32;
    let far = BOARD_PX as f32 - m;
    // Letters below, numbers on both sides: letters above too would cost a tenth of the
    // picture's bytes for little help.
    for i in 0..15u8 {
        let letter = ((b'A' + i) as char).to_string();
        let number = (i + 1).to_string();
        let w = lettering.width(Style::Coordinate, &letter, f32::MAX);
        let x = m + i as f32 * s + (s - w) / 2.0;
        lettering.paint(&mut p, Style::Coordinate, &letter, x, far + 22.0, c.text);
        let w = lettering.width(Style::Coordinate, &number, f32::MAX);
        let y = m + (14 - i) as f32 * s + s / 2.0 + 6.5;
        lettering.paint(&mut p, Style::Coordinate, &number, (m - w) / 2.0, y, c.text);
        lettering.paint(
            &mut p,
            Style::Coordinate,
            &number,
            far + (m - w) / 2.0,
            y,
            c.text,
        );
    }
    // The variant's name, and in Koom Valley what the framed squares mean, in the cut
    // bottom-right corner where no square is.
    let right = far - 6.0;
    let title = variant.title();
    let w = lettering.width(Style::Note, title, f32::MAX);
    lettering.paint(&mut p, Style::Note, title, right - w, far - 12.0, c.muted);
    if !goals.is_empty() {
        let legend = "Rock's goal";
        let w = lettering.width(Style::Note, legend, f32::MAX);
        lettering.paint(&mut p, Style::Note, legend, right - w, far - 42.0, c.muted);
        let side = 16.0;
        let x0 = right - w - 6.0 - side;
        let y0 = far - 42.0 - 12.5;
        let frame = Shape::Frame {
            x0,
            y0,
            x1: x0 + side,
            y1: y0 + side,
            thickness: 3.0,
            radius: 3.0,
        };
        p.fill(&frame, c.goal);
    }
    p
}

//! Themes: the colours a board picture is drawn in.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A colour as red, green and blue.
pub type Rgb = [u8; 3];

/// A look for board pictures, chosen by each player.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Theme {
    /// Parchment and wood, gold dwarfs and slate trolls.
    #[default]
    Default,
    /// Black, white and saturated colours with heavy outlines, for low vision and bright sun.
    HighContrast,
}

/// Why a theme name was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a theme; choose default or high-contrast")]
pub struct UnknownTheme(pub String);

impl Theme {
    /// Every theme, default first.
    pub const ALL: [Theme; 2] = [Theme::Default, Theme::HighContrast];

    /// The fixed name players type and settings store.
    pub const fn name(self) -> &'static str {
        match self {
            Theme::Default => "default",
            Theme::HighContrast => "high-contrast",
        }
    }

    /// The colours of this theme.
    pub fn colours(self) -> Colours {
        match self {
            Theme::Default => Colours::from_scheme(&DEFAULT),
            Theme::HighContrast => Colours::from_scheme(&HIGH_CONTRAST),
        }
    }

    /// Outline width of pieces, in pixels: heavier in high contrast.
    pub(super) const fn edge(self) -> f32 {
        match self {
            Theme::Default => 2.0,
            Theme::HighContrast => 3.0,
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Theme {
    type Err = UnknownTheme;

    fn from_str(s: &str) -> Result<Theme, UnknownTheme> {
        let wanted = s.trim().to_ascii_lowercase().replace([' ', '_'], "-");
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == wanted)
            .ok_or_else(|| UnknownTheme(s.trim().to_string()))
    }
}

/// Every colour a picture uses for a meaning, so tests and callers can tell what a pixel shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Colours {
    /// Around the board, in the cut corners and behind the caption.
    pub background: Rgb,
    pub text: Rgb,
    /// Secondary text: units, "last move", the variant's name.
    pub muted: Rgb,
    /// The "to move" mark and the caption's status line.
    pub accent: Rgb,
    /// Text on the accent colour.
    pub on_accent: Rgb,
    pub light: Rgb,
    pub dark: Rgb,
    /// A light square the last move started or ended on.
    pub moved_light: Rgb,
    pub moved_dark: Rgb,
    /// A light square the last move passed over.
    pub path_light: Rgb,
    pub path_dark: Rgb,
    /// The footstep dot on an empty square the last move passed over.
    pub footstep: Rgb,
    /// The frame around the Koom Valley goal squares.
    pub goal: Rgb,
    pub dwarf: Rgb,
    pub dwarf_edge: Rgb,
    pub troll: Rgb,
    pub troll_edge: Rgb,
    /// The classic Thudstone.
    pub thudstone: Rgb,
    pub thudstone_edge: Rgb,
    /// The Koom Valley Rock.
    pub rock: Rgb,
    pub rock_edge: Rgb,
    /// The cross over a piece captured by the last move.
    pub capture: Rgb,
}

/// The hand-picked colours of a theme; the tinted squares are mixed from them.
struct Scheme {
    background: Rgb,
    text: Rgb,
    muted: Rgb,
    accent: Rgb,
    on_accent: Rgb,
    light: Rgb,
    dark: Rgb,
    highlight: Rgb,
    moved_strength: f32,
    path_strength: f32,
    footstep: Rgb,
    goal: Rgb,
    dwarf: Rgb,
    dwarf_edge: Rgb,
    troll: Rgb,
    troll_edge: Rgb,
    thudstone: Rgb,
    thudstone_edge: Rgb,
    rock: Rgb,
    rock_edge: Rgb,
    capture: Rgb,
}

const DEFAULT: Scheme = Scheme {
    background: [0x2a, 0x2b, 0x30],
    text: [0xf0, 0xea, 0xdc],
    muted: [0xa9, 0xa5, 0x9a],
    accent: [0x6f, 0xd3, 0xa8],
    on_accent: [0x10, 0x24, 0x1b],
    light: [0xec, 0xde, 0xc2],
    dark: [0xc6, 0xa6, 0x7c],
    highlight: [0x9b, 0xc7, 0x00],
    moved_strength: 0.45,
    path_strength: 0.25,
    footstep: [0x5d, 0x7a, 0x12],
    goal: [0x2f, 0x6f, 0xd6],
    dwarf: [0xf2, 0xb5, 0x2a],
    dwarf_edge: [0x4a, 0x30, 0x05],
    troll: [0x56, 0x72, 0x86],
    troll_edge: [0x16, 0x22, 0x2b],
    thudstone: [0x3b, 0x3b, 0x44],
    thudstone_edge: [0x0e, 0x0e, 0x12],
    rock: [0x8d, 0x68, 0x45],
    rock_edge: [0x2e, 0x1d, 0x10],
    capture: [0xd9, 0x21, 0x2f],
};

const HIGH_CONTRAST: Scheme = Scheme {
    background: [0x00, 0x00, 0x00],
    text: [0xff, 0xff, 0xff],
    muted: [0xd8, 0xd8, 0xd8],
    accent: [0xff, 0xe6, 0x00],
    on_accent: [0x00, 0x00, 0x00],
    light: [0xff, 0xff, 0xff],
    dark: [0xa6, 0xa6, 0xa6],
    highlight: [0x00, 0xc8, 0xff],
    moved_strength: 0.6,
    path_strength: 0.3,
    footstep: [0x00, 0x4a, 0x99],
    goal: [0xd4, 0x00, 0xd4],
    dwarf: [0xff, 0xd4, 0x00],
    dwarf_edge: [0x00, 0x00, 0x00],
    troll: [0x1a, 0x3c, 0xff],
    troll_edge: [0x00, 0x00, 0x00],
    thudstone: [0x00, 0x00, 0x00],
    thudstone_edge: [0x00, 0x00, 0x00],
    rock: [0x99, 0x4c, 0x00],
    rock_edge: [0x00, 0x00, 0x00],
    capture: [0xff, 0x00, 0x00],
};

impl Colours {
    fn from_scheme(s: &Scheme) -> Colours {
        Colours {
            background: s.background,
            text: s.text,
            muted: s.muted,
            accent: s.accent,
            on_accent: s.on_accent,
            light: s.light,
            dark: s.dark,
            moved_light: mix(s.light, s.highlight, s.moved_strength),
            moved_dark: mix(s.dark, s.highlight, s.moved_strength),
            path_light: mix(s.light, s.highlight, s.path_strength),
            path_dark: mix(s.dark, s.highlight, s.path_strength),
            footstep: s.footstep,
            goal: s.goal,
            dwarf: s.dwarf,
            dwarf_edge: s.dwarf_edge,
            troll: s.troll,
            troll_edge: s.troll_edge,
            thudstone: s.thudstone,
            thudstone_edge: s.thudstone_edge,
            rock: s.rock,
            rock_edge: s.rock_edge,
            capture: s.capture,
        }
    }

    /// Every colour with a meaning; the palette keeps these exact.
    pub(super) fn all(&self) -> Vec<Rgb> {
        vec![
            self.background,
            self.text,
            self.muted,
            self.accent,
            self.on_accent,
            self.light,
            self.dark,
            self.moved_light,
            self.moved_dark,
            self.path_light,
            self.path_dark,
            self.footstep,
            self.goal,
            self.dwarf,
            self.dwarf_edge,
            self.troll,
            self.troll_edge,
            self.thudstone,
            self.thudstone_edge,
            self.rock,
            self.rock_edge,
            self.capture,
        ]
    }
}

/// `a` moved towards `b` by `t` (0 = a, 1 = b), rounded.
pub(super) fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let channel = |i: usize| (a[i] as f32 + (b[i] as f32 - a[i] as f32) * t).round() as u8;
    [channel(0), channel(1), channel(2)]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn theme_names_round_trip_through_text_and_serde() {
        for t in Theme::ALL {
            assert_eq!(t.name().parse::<Theme>(), Ok(t));
            assert_eq!(t.to_string(), t.name());
            assert_eq!(
                serde_json::to_string(&t).unwrap(),
                format!("\"{}\"", t.name())
            );
            assert_eq!(
                serde_json::from_str::<Theme>(&format!("\"{}\"", t.name())).unwrap(),
                t
            );
        }
        assert_eq!(" High Contrast ".parse::<Theme>(), Ok(Theme::HighContrast));
        let err = "neon".parse::<Theme>().unwrap_err();
        assert!(err.to_string().contains("neon"), "{err}");
    }

    #[test]
    fn meaningful_colours_are_told_apart() {
        for t in Theme::ALL {
            let c = t.colours();
            let squares = [
                c.light,
                c.dark,
                c.moved_light,
                c.moved_dark,
                c.path_light,
                c.path_dark,
            ];
            let marks = [c.dwarf, c.troll, c.thudstone, c.rock, c.capture, c.footstep];
            for (i, a) in squares.iter().chain(&marks).enumerate() {
                for b in squares.iter().chain(&marks).skip(i + 1) {
                    assert_ne!(a, b, "{t}: two meanings share a colour");
                }
            }
            assert_ne!(c.background, c.light);
            assert_ne!(c.background, c.dark);
        }
    }
}

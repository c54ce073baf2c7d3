//! A match's game record as text: tags, then each battle's moves one a line in RULES.md
//! notation. Reading a record back replays every move through the engine.
//!
//! ```text
//! [Variant "classic"]
//! [First "alice"]
//! [Second "bob"]
//!
//! Battle 1
//! 1. dF1-F5
//! 2. TG7-F6xE5
//! agreed
//!
//! Battle 2
//! 1. dA6-A9
//! ```

use std::fmt::Write;
use std::str::FromStr;

use super::battle::BattleRecord;
use super::r#match::{Match, MatchRecord, Seat};
use super::variant::Variant;

/// A match with descriptive tags (players, dates, results).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Tags in order, such as `("First", "alice")`. `Variant` and `Forfeit` are written from
    /// the game itself and need not be listed.
    pub tags: Vec<(String, String)>,
    pub game: Match,
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameRecordError {
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("the record has no [Variant] tag")]
    NoVariant,
    #[error("{0}")]
    Replay(#[from] super::r#match::MatchRecordError),
}

impl GameRecord {
    /// The value of tag `name`, if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The record as text.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let record = MatchRecord::from(self.game.clone());
        let mut tags: Vec<(String, String)> =
            vec![("Variant".into(), record.variant.name().into())];
        if let Some(seat) = record.forfeited_by {
            let who = match seat {
                Seat::First => "first",
                Seat::Second => "second",
            };
            tags.push(("Forfeit".into(), who.into()));
        }
        tags.extend(
            self.tags
                .iter()
                .filter(|(k, _)| k != "Variant" && k != "Forfeit")
                .cloned(),
        );
        for (k, v) in &tags {
            let _ = writeln!(out, "[{k} \"{}\"]", escape(v));
        }
        for (i, battle) in record.battles.iter().enumerate() {
            let _ = write!(out, "\nBattle {}\n", i + 1);
            if battle.start != record.variant.start().fen() {
                let _ = writeln!(out, "start {}", battle.start);
            }
            for (n, mv) in battle.moves.iter().enumerate() {
                let _ = writeln!(out, "{}. {mv}", n + 1);
            }
            if battle.agreed {
                out.push_str("agreed\n");
            }
        }
        out
    }
}

fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', " ")
}

fn unescape(v: &str) -> String {
    let mut out = String::new();
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl FromStr for GameRecord {
    type Err = GameRecordError;

    fn from_str(text: &str) -> Result<GameRecord, GameRecordError> {
        let mut tags = Vec::new();
        let mut battles: Vec<BattleRecord> = Vec::new();
        let mut variant: Option<Variant> = None;
        let mut forfeited_by = None;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let fail = |reason: &str| GameRecordError::Line {
                line: i + 1,
                reason: reason.to_string(),
            };
            if line.is_empty() {
                continue;
            }
            if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                let (key, value) = inner
                    .split_once(' ')
                    .ok_or_else(|| fail("a tag looks like [Name \"value\"]"))?;
                let value = value
                    .trim()
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .ok_or_else(|| fail("a tag's value is in double quotes"))?;
                let value = unescape(value);
                match key {
                    "Variant" => {
                        variant =
                            Some(value.parse().map_err(|e: super::variant::UnknownVariant| {
                                fail(&e.to_string())
                            })?)
                    }
                    "Forfeit" => {
                        forfeited_by = Some(match value.as_str() {
                            "first" => Seat::First,
                            "second" => Seat::Second,
                            _ => return Err(fail("Forfeit is first or second")),
                        })
                    }
                    _ => tags.push((key.to_string(), value)),
                }
                continue;
            }
            let variant = variant.ok_or(GameRecordError::NoVariant)?;
            if let Some(number) = line.strip_prefix("Battle ") {
                if number.trim() != (battles.len() + 1).to_string() {
                    return Err(fail("battles are numbered 1 and 2 in order"));
                }
                battles.push(BattleRecord {
                    variant,
                    start: variant.start().fen(),
                    moves: Vec::new(),
                    agreed: false,
                });
                continue;
            }
            let battle = battles
                .last_mut()
                .ok_or_else(|| fail("moves must follow a `Battle 1` line"))?;
            if let Some(fen) = line.strip_prefix("start ") {
                battle.start = fen.trim().to_string();
            } else if line == "agreed" {
                battle.agreed = true;
            } else {
                let (number, notation) = line
                    .split_once(". ")
                    .ok_or_else(|| fail("a move line looks like `12. dF1-F5`"))?;
                if number.trim() != (battle.moves.len() + 1).to_string() {
                    return Err(fail("moves are numbered from 1 in order"));
                }
                battle.moves.push(notation.trim().to_string());
            }
        }
        let variant = variant.ok_or(GameRecordError::NoVariant)?;
        let game = Match::try_from(MatchRecord {
            variant,
            battles,
            forfeited_by,
        })?;
        Ok(GameRecord { tags, game })
    }
}

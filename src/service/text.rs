//! The neutral message model: what the service says, as spans a front-end renders in its own
//! way. Discord turns them into markdown, mentions and timestamps; the console into plain
//! text. The service never writes a front-end's markup, so a player's name is only ever text.

use std::fmt;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::store::{ChannelId, UserId};

/// How a time is shown.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum TimeStyle {
    /// "in 2 days", "3 hours ago".
    Relative,
    /// The date and time, in the reader's time zone where the front-end knows it.
    Full,
}

/// One piece of a message.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
#[serde(tag = "span", content = "value", rename_all = "kebab-case")]
pub enum Span {
    Plain(String),
    /// Emphasised: a player's name, a heading, the key words of a sentence.
    Strong(String),
    /// Something to type or that was typed: a command, a move, a square.
    Code(String),
    /// Lines shown as they are, in a fixed-width font: the text board.
    Block(String),
    /// A player. Pinged only when the message names them among its mentions.
    Player {
        user: UserId,
        name: String,
    },
    Channel(ChannelId),
    Time {
        at: DateTime<Utc>,
        style: TimeStyle,
    },
    Link {
        label: String,
        url: String,
    },
    /// Text queued by an earlier version, already in Discord's markdown.
    Legacy(String),
}

/// A message's text: spans in order. Lines are separated by `\n` inside plain spans.
#[derive(Serialize, Clone, Debug, PartialEq, Eq, Default)]
#[serde(transparent)]
pub struct Text(Vec<Span>);

/// Reads a text stored by this version (spans) or an earlier one (a markdown string).
impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Stored {
            Spans(Vec<Span>),
            Legacy(String),
        }
        Ok(match Stored::deserialize(d)? {
            Stored::Spans(spans) => Text(spans),
            Stored::Legacy(markdown) => Text(vec![Span::Legacy(markdown)]),
        })
    }
}

impl Text {
    pub fn new() -> Text {
        Text::default()
    }

    /// The service's own fixed prose, written with `**strong**` and `` `code` `` marks for
    /// readability and read into spans here. Never for text holding a player's words.
    pub fn prose(source: &str) -> Text {
        let mut text = Text::new();
        let mut rest = source;
        loop {
            let strong = rest.find("**");
            let code = rest.find('`');
            let (at, mark) = match (strong, code) {
                (Some(s), Some(c)) if c < s => (c, "`"),
                (Some(s), _) => (s, "**"),
                (None, Some(c)) => (c, "`"),
                (None, None) => break,
            };
            let inner = &rest[at + mark.len()..];
            let Some(end) = inner.find(mark) else { break };
            if at > 0 {
                text = text.plain(&rest[..at]);
            }
            text = if mark == "`" {
                text.code(&inner[..end])
            } else {
                text.strong(&inner[..end])
            };
            rest = &inner[end + mark.len()..];
        }
        if rest.is_empty() {
            text
        } else {
            text.plain(rest)
        }
    }

    pub fn spans(&self) -> &[Span] {
        &self.0
    }

    fn push(mut self, span: Span) -> Text {
        self.0.push(span);
        self
    }

    pub fn plain(self, text: impl Into<String>) -> Text {
        self.push(Span::Plain(text.into()))
    }

    pub fn strong(self, text: impl Into<String>) -> Text {
        self.push(Span::Strong(text.into()))
    }

    pub fn code(self, text: impl Into<String>) -> Text {
        self.push(Span::Code(text.into()))
    }

    pub fn block(self, text: impl Into<String>) -> Text {
        self.push(Span::Block(text.into()))
    }

    pub fn player(self, user: UserId, name: impl Into<String>) -> Text {
        self.push(Span::Player {
            user,
            name: name.into(),
        })
    }

    pub fn channel(self, channel: ChannelId) -> Text {
        self.push(Span::Channel(channel))
    }

    /// The time in full.
    pub fn time(self, at: DateTime<Utc>) -> Text {
        self.push(Span::Time {
            at,
            style: TimeStyle::Full,
        })
    }

    /// The time from now ("in 2 days").
    pub fn relative(self, at: DateTime<Utc>) -> Text {
        self.push(Span::Time {
            at,
            style: TimeStyle::Relative,
        })
    }

    pub fn link(self, label: impl Into<String>, url: impl Into<String>) -> Text {
        self.push(Span::Link {
            label: label.into(),
            url: url.into(),
        })
    }

    /// Appends plain words, as `String::push_str` does.
    pub fn push_str(&mut self, text: &str) {
        self.0.push(Span::Plain(text.to_string()));
    }

    /// The text without the white space that ends it.
    pub fn trim_end(mut self) -> Text {
        while let Some(Span::Plain(last)) = self.0.last_mut() {
            let kept = last.trim_end().len();
            if kept > 0 {
                last.truncate(kept);
                break;
            }
            self.0.pop();
        }
        self
    }

    /// A line break.
    pub fn line(self) -> Text {
        self.plain("\n")
    }

    /// `self` followed by `other`.
    pub fn then(mut self, other: Text) -> Text {
        self.0.extend(other.0);
        self
    }

    /// The texts one per line.
    pub fn lines(texts: impl IntoIterator<Item = Text>) -> Text {
        let mut out = Text::new();
        for (i, t) in texts.into_iter().enumerate() {
            if i > 0 {
                out = out.line();
            }
            out = out.then(t);
        }
        out
    }

    /// Whether the text shows lines as they are (a text board), which a console prints
    /// itself.
    pub fn has_block(&self) -> bool {
        self.0.iter().any(|s| matches!(s, Span::Block(_)))
    }

    /// The text as plain words, with times relative to `now`: what the console prints.
    pub fn to_plain(&self, now: DateTime<Utc>) -> String {
        let mut out = String::new();
        for span in &self.0 {
            match span {
                Span::Plain(t) | Span::Strong(t) | Span::Code(t) => out.push_str(t),
                Span::Block(t) => {
                    if !out.is_empty() && !out.ends_with('\n') {
                        out.push('\n');
                    }
                    for line in t.lines() {
                        out.push_str("  ");
                        out.push_str(line);
                        out.push('\n');
                    }
                }
                Span::Player { name, .. } => {
                    out.push('@');
                    out.push_str(name);
                }
                Span::Channel(c) => out.push_str(&format!("#{c}")),
                Span::Time { at, style } => out.push_str(&match style {
                    TimeStyle::Full => full_plain(*at),
                    TimeStyle::Relative => relative_plain(*at - now),
                }),
                Span::Link { label, url } => out.push_str(&format!("{label} ({url})")),
                Span::Legacy(t) => out.push_str(&t.replace("**", "")),
            }
        }
        out
    }

    /// Whether the plain words (see [`Display`](#impl-Display-for-Text)) contain `needle`.
    pub fn contains(&self, needle: &str) -> bool {
        self.to_string().contains(needle)
    }

    /// Where `needle` starts in the plain words.
    pub fn find(&self, needle: &str) -> Option<usize> {
        self.to_string().find(needle)
    }
}

/// The plain words with every time in full: for logs and tests, where there is no "now".
impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let relative_as_full: Vec<Span> = self
            .0
            .iter()
            .map(|s| match s {
                Span::Time { at, .. } => Span::Time {
                    at: *at,
                    style: TimeStyle::Full,
                },
                other => other.clone(),
            })
            .collect();
        f.write_str(&Text(relative_as_full).to_plain(DateTime::<Utc>::MIN_UTC))
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Text {
        Text::new().plain(text)
    }
}

impl From<String> for Text {
    fn from(text: String) -> Text {
        Text::new().plain(text)
    }
}

/// "2026-11-23 18:00 UTC".
fn full_plain(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// "in 2 days 3 hours", "5 hours ago".
fn relative_plain(delta: chrono::Duration) -> String {
    let words = duration_words(delta.abs());
    if delta < chrono::Duration::zero() {
        format!("{words} ago")
    } else {
        format!("in {words}")
    }
}

/// A length of time in words, rounded to the nearest unit it shows and never down: "3 days",
/// "1 day 4 hours", "5 hours", "20 minutes". Under an hour it counts minutes; under a day,
/// hours; beyond, days and hours. A 24-hour challenge made a second ago expires "in 1 day".
pub fn duration_words(d: chrono::Duration) -> String {
    let seconds = d.num_seconds().max(0) as u64;
    let unit = |n: u64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let minutes = (seconds + 30) / 60;
    if minutes == 0 {
        return "less than a minute".to_string();
    }
    if minutes < 60 {
        return unit(minutes, "minute");
    }
    let hours = (seconds + 1800) / 3600;
    match (hours / 24, hours % 24) {
        (0, h) => unit(h, "hour"),
        (d, 0) => unit(d, "day"),
        (d, h) => format!("{} {}", unit(d, "day"), unit(h, "hour")),
    }
}

/// "1 move", "3 moves": a count and its noun, singular for one.
pub fn count(n: impl Into<i64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn plain_words_name_players_and_show_times() {
        let now = Utc.with_ymd_and_hms(2026, 11, 23, 18, 0, 0).unwrap();
        let deadline = now + chrono::Duration::hours(50);
        let text = Text::new()
            .player(UserId(7), "alice")
            .plain(", your move. Deadline ")
            .time(deadline)
            .plain(" (")
            .relative(deadline)
            .plain("). Play ")
            .code("dF1-F5")
            .plain(".");
        assert_eq!(
            text.to_plain(now),
            "@alice, your move. Deadline 2026-11-25 20:00 UTC (in 2 days 2 hours). Play dF1-F5."
        );
        assert!(text.contains("Deadline 2026-11-25 20:00 UTC (2026-11-25 20:00 UTC)"));
    }

    #[test]
    fn stored_texts_read_back_and_so_do_an_earlier_versions_strings() {
        let text = Text::new()
            .strong("bob")
            .plain(" wins.")
            .line()
            .block("a\nb");
        let stored = serde_json::to_value(&text).unwrap();
        assert_eq!(serde_json::from_value::<Text>(stored).unwrap(), text);
        let old: Text = serde_json::from_value(serde_json::json!("**bob** wins.")).unwrap();
        assert_eq!(old.spans(), [Span::Legacy("**bob** wins.".into())]);
        assert_eq!(old.to_string(), "bob wins.");
    }

    #[test]
    fn durations_are_rounded_to_the_nearest_unit_never_down() {
        let d = chrono::Duration::seconds;
        // A 24-hour challenge a moment after it was made, a 3-day move likewise.
        assert_eq!(duration_words(d(24 * 3600 - 1)), "1 day");
        assert_eq!(duration_words(d(72 * 3600 - 40)), "3 days");
        assert_eq!(duration_words(d(50 * 3600 + 29 * 60)), "2 days 2 hours");
        assert_eq!(duration_words(d(50 * 3600 + 31 * 60)), "2 days 3 hours");
        assert_eq!(duration_words(d(90 * 60 - 1)), "1 hour");
        assert_eq!(duration_words(d(90 * 60)), "2 hours");
        // Never "in 0 minutes".
        assert_eq!(duration_words(d(20)), "less than a minute");
        assert_eq!(relative_plain(d(20)), "in less than a minute");
        assert_eq!(duration_words(d(31)), "1 minute");
        assert_eq!(duration_words(d(59 * 60 + 45)), "1 hour");
        assert_eq!(duration_words(d(61)), "1 minute");
        assert_eq!(duration_words(d(0)), "less than a minute");
        let now = Utc.with_ymd_and_hms(2026, 11, 23, 18, 0, 0).unwrap();
        let text = Text::new().relative(now + d(24 * 3600 - 1));
        assert_eq!(text.to_plain(now), "in 1 day");
        let text = Text::new().relative(now - d(3 * 3600 + 35 * 60));
        assert_eq!(text.to_plain(now), "4 hours ago");
    }

    #[test]
    fn counts_name_one_in_the_singular() {
        assert_eq!(count(1, "move", "moves"), "1 move");
        assert_eq!(count(0, "move", "moves"), "0 moves");
        assert_eq!(count(2u32, "match", "matches"), "2 matches");
    }

    #[test]
    fn prose_marks_become_spans() {
        let text = Text::prose("**Dwarf**: moves, or **hurls** (`dE6-H9xH9`). A lone * stays");
        assert_eq!(
            text.spans(),
            [
                Span::Strong("Dwarf".into()),
                Span::Plain(": moves, or ".into()),
                Span::Strong("hurls".into()),
                Span::Plain(" (".into()),
                Span::Code("dE6-H9xH9".into()),
                Span::Plain("). A lone * stays".into()),
            ]
        );
    }

    #[test]
    fn blocks_start_on_a_line_of_their_own() {
        let text = Text::from("Board:").block("x\ny");
        assert_eq!(text.to_string(), "Board:\n  x\n  y\n");
        assert!(text.has_block());
    }
}

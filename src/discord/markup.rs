//! The service's neutral [`Text`] as Discord's markdown: players as mentions, times as
//! timestamps the reader's client shows in their own time zone, and every piece of plain text
//! escaped, so a name like `*bob*` or `<@1>` is shown as it is written and formats nothing.

use crate::service::{Span, Text, TimeStyle};

/// `text` as a Discord message's content.
pub fn markdown(text: &Text) -> String {
    let mut out = String::new();
    for span in text.spans() {
        match span {
            Span::Plain(t) => escape_into(&mut out, t),
            Span::Strong(t) => {
                out.push_str("**");
                escape_into(&mut out, t);
                out.push_str("**");
            }
            Span::Code(t) => {
                let fence = if t.contains('`') { "``" } else { "`" };
                out.push_str(&format!("{fence}{}{fence}", t.replace('\n', " ")));
            }
            Span::Block(t) => {
                if !out.is_empty() && !out.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str("```\n");
                out.push_str(&t.replace("```", "'''"));
                if !t.ends_with('\n') {
                    out.push('\n');
                }
                out.push_str("```");
            }
            Span::Player { user, .. } => out.push_str(&format!("<@{user}>")),
            Span::Channel(c) => out.push_str(&format!("<#{c}>")),
            Span::Time { at, style } => {
                let letter = match style {
                    TimeStyle::Relative => 'R',
                    TimeStyle::Full => 'f',
                };
                out.push_str(&format!("<t:{}:{letter}>", at.timestamp()));
            }
            Span::Link { label, url } => {
                out.push('[');
                escape_into(&mut out, label);
                out.push_str(&format!("]({url})"));
            }
            Span::Legacy(t) => out.push_str(t),
        }
    }
    out
}

/// Appends `text` with a backslash before everything Discord would read as markdown.
fn escape_into(out: &mut String, text: &str) {
    for c in text.chars() {
        let line_start = out.is_empty() || out.ends_with('\n');
        let special = matches!(c, '\\' | '*' | '_' | '~' | '`' | '|' | '<' | '[' | ']')
            || (line_start && matches!(c, '>' | '#' | '-'));
        if special {
            out.push('\\');
        }
        out.push(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{ChannelId, UserId};
    use chrono::{TimeZone, Utc};

    #[test]
    fn spans_become_discord_markdown() {
        let at = Utc.timestamp_opt(1_800_000_000, 0).unwrap();
        let text = Text::new()
            .strong("Match #3")
            .plain(" · ")
            .player(UserId(42), "alice")
            .plain(", your move in ")
            .channel(ChannelId(9))
            .plain(". Deadline ")
            .time(at)
            .plain(" (")
            .relative(at)
            .plain("). Try ")
            .code("dF1-F5")
            .plain(" or see ")
            .link("the match", "https://discord.com/channels/1/9")
            .block("board");
        assert_eq!(
            markdown(&text),
            "**Match #3** · <@42>, your move in <#9>. Deadline <t:1800000000:f> \
             (<t:1800000000:R>). Try `dF1-F5` or see [the match](https://discord.com/channels/1/9)\n\
             ```\nboard\n```"
        );
    }

    #[test]
    fn names_format_nothing() {
        let text = Text::new()
            .strong("*bob*_<@1>")
            .plain(" wins")
            .line()
            .plain("> #1 - [x](y) `z` ~~s~~ ||h|| \\");
        assert_eq!(
            markdown(&text),
            "**\\*bob\\*\\_\\<@1>** wins\n\\> #1 - \\[x\\](y) \\`z\\` \\~\\~s\\~\\~ \\|\\|h\\|\\| \\\\"
        );
    }

    #[test]
    fn texts_of_an_earlier_version_are_sent_as_they_were_written() {
        let old: Text = serde_json::from_value(serde_json::json!("**bob** wins.")).unwrap();
        assert_eq!(markdown(&old), "**bob** wins.");
    }
}

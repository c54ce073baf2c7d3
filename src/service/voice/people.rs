//! What the bot says to a player about themselves and their server: their settings, their
//! vacation, who organises tournaments there, a match the bot could not reach stopped, the
//! files it may not attach there.

use chrono::{DateTime, Duration, Utc};

use crate::service::text::{count, duration_words, Text};
use crate::store::{MatchId, Notify, Settings};

/// A vacation begun, until `until`, with clocks standing in `matches` matches, of an
/// `allowance` a year.
pub(in crate::service) fn on_vacation(
    until: DateTime<Utc>,
    matches: usize,
    allowance: Duration,
) -> Text {
    Text::from("You are on vacation until ")
        .time(until)
        .plain(" (")
        .relative(until)
        .plain(format!(
            "). Your clocks in {} stand still; your opponents are told. End it early with ",
            count(matches as i64, "match", "matches"),
        ))
        .code("/thud vacation end")
        .plain(format!(
            "; only the time you take counts against your {} a year.",
            duration_words(allowance)
        ))
}

/// Back early from a vacation, with `left` still to take this year.
pub(in crate::service) fn back_from_vacation(left: Duration) -> Text {
    Text::from(format!(
        "Welcome back: your clocks run again, each deadline moved on by the time you were away. \
         You have {} of vacation left in the last year.",
        duration_words(left)
    ))
}

/// A player's settings, `changed` when they were just saved.
pub(in crate::service) fn settings_said(settings: &Settings, changed: bool) -> Text {
    let hear = match settings.notify {
        Notify::Channel => "a ping in the match's channel",
        Notify::Dm => "a direct message (the channel message does not ping you)",
        Notify::Both => "a ping in the match's channel and a direct message",
    };
    Text::prose(&format!(
        "{} board style **{}**, theme **{}**, notify **{}**: your turns and reminders reach you by {hear}.",
        if changed { "Saved:" } else { "Your settings:" },
        settings.board_style.name(),
        settings.theme,
        settings.notify.name(),
    ))
}

/// Who organises tournaments on this server: Manage Server, and the members of `role`.
pub(in crate::service) fn organisers_here(role: Option<&str>) -> Text {
    match role {
        Some(role) => Text::from(
            "Tournament organisers here are the members with the Manage Server permission and the members of the ",
        )
        .strong(role)
        .plain(" role: they create, start and cancel tournaments."),
        None => Text::from(
            "Tournament organisers here are the members with the Manage Server permission: they create, start and cancel tournaments.",
        ),
    }
}

/// A match the bot could not reach, stopped by one of its players.
pub(in crate::service) fn stopped_unreachable(id: MatchId) -> Text {
    Text::from(format!(
        "Match #{id} is stopped. It is recorded but not rated."
    ))
}

/// A file left off a message because the bot may not attach files in the channel.
pub fn file_not_attached(filename: String) -> Text {
    Text::prose("The file ")
        .code(filename)
        .plain(" is not attached: ")
        .then(grant_attach_files())
}

/// Said once in a channel where the bot may not attach files: boards come as text.
pub fn boards_shown_as_text() -> Text {
    Text::prose("(Boards are shown as text here. ").then(grant_attach_files().plain(")"))
}

/// Says which permission the bot lacks to attach files, and who can grant it.
fn grant_attach_files() -> Text {
    Text::prose(
        "thudbot may not attach files in this channel. A moderator can allow it **Attach Files** \
         in the channel's permissions.",
    )
}

//! Player input as the bot stores and repeats it: display names, and text echoed back in a
//! refusal. Below every layer that speaks to players, so the pure ones can use it too.

use std::fmt::Display;

/// The longest name the bot shows or stores (Discord's display names are at most 32).
pub const MAX_NAME: usize = 64;

/// A display name safe to store and show: control characters (a NUL byte, line breaks) become
/// spaces, runs of white space one space, at most [`MAX_NAME`] characters, and an empty name
/// becomes "player <id>".
pub fn clean_name(name: &str, id: impl Display) -> String {
    let mut out = String::new();
    for word in name
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .split_whitespace()
    {
        if out.chars().count() >= MAX_NAME {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().take(MAX_NAME));
    }
    if out.is_empty() {
        format!("player {id}")
    } else {
        out.chars().take(MAX_NAME).collect()
    }
}

/// Player input echoed in a message, cut to a length a message can carry.
pub fn echo(input: &str) -> String {
    const MAX_ECHO: usize = 40;
    let clean: String = input
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .filter(|c| *c != '`')
        .collect();
    if clean.chars().count() <= MAX_ECHO {
        clean
    } else {
        let cut: String = clean.chars().take(MAX_ECHO - 1).collect();
        format!("{cut}…")
    }
}

//! What the bot says of a player's plan (conditional moves): to that player alone.

use crate::service::text::{count, Text};

/// The lines of a plan against `opponent`: "if they play X, you play Y; then if Z, W".
pub(in crate::service) fn plan(lines: &[Vec<String>], opponent: &str) -> Text {
    if lines.is_empty() {
        return Text::from(format!(
            "You have no plan. While you wait for {opponent}'s move, "
        ))
        .then(Text::prose(
            "queue answers with `/thud plan line:` and their move then yours, \
                 e.g. `TG7-F6 dF1-F5`.",
        ));
    }
    let mut text = Text::new().strong("Your plan").plain(format!(
        ": answered at once when {opponent} moves ({}).\n",
        count(lines.len() as i64, "line", "lines")
    ));
    for (n, line) in lines.iter().enumerate() {
        text = text.plain(format!("{}. If {opponent} plays ", n + 1));
        for (i, pair) in line.chunks(2).enumerate() {
            if i > 0 {
                text = text.plain("; then if ");
            }
            text = text.code(&pair[0]);
            if let Some(answer) = pair.get(1) {
                text = text
                    .plain(if i == 0 { ", you play " } else { ", " })
                    .code(answer);
            }
        }
        text = text.plain(".\n");
    }
    text.plain(format!(
        "Any other move of {opponent}'s, or a proposal to end the battle, drops the plan. "
    ))
    .then(Text::prose(
        "Only you see it; `/thud plan clear:true` drops it now.",
    ))
}

/// The player dropped a plan of `lines` lines.
pub(in crate::service) fn plan_dropped(lines: usize) -> Text {
    match lines {
        0 => "You had no plan in this match.".into(),
        n => format!(
            "Your plan is dropped ({}). Your opponent's next move waits for you as usual.",
            count(n as i64, "line", "lines")
        )
        .into(),
    }
}

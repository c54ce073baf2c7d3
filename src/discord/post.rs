//! Turning the service's [`Reply`] into Discord messages: text split to Discord's 2,000
//! characters, attachments, buttons, and mentions restricted to the users the reply names.

use poise::serenity_prelude as serenity;

use crate::service::{Button, ButtonStyle, Reply};

/// Discord's limit on a message's text.
const MAX_CONTENT: usize = 2000;
/// Discord's limit on a message's buttons: five action rows of five.
const MAX_BUTTONS: usize = 25;
/// Discord's limit on an attachment's description (its alt text).
const MAX_DESCRIPTION: usize = 1024;

/// One message to send: the builders for the three ways a message reaches Discord (an
/// interaction's first response, a followup, a plain channel message) are filled from this.
pub struct Message {
    pub content: String,
    pub ephemeral: bool,
    pub mentions: serenity::CreateAllowedMentions,
    pub attachments: Vec<serenity::CreateAttachment>,
    pub components: Vec<serenity::CreateActionRow>,
}

impl Message {
    pub fn response(self) -> serenity::CreateInteractionResponseMessage {
        serenity::CreateInteractionResponseMessage::new()
            .content(self.content)
            .ephemeral(self.ephemeral)
            .allowed_mentions(self.mentions)
            .components(self.components)
            .add_files(self.attachments)
    }

    /// The edit that fills in a deferred response.
    pub fn edit(self) -> serenity::EditInteractionResponse {
        let mut edit = serenity::EditInteractionResponse::new()
            .content(self.content)
            .allowed_mentions(self.mentions)
            .components(self.components);
        for a in self.attachments {
            edit = edit.new_attachment(a);
        }
        edit
    }

    pub fn followup(self) -> serenity::CreateInteractionResponseFollowup {
        serenity::CreateInteractionResponseFollowup::new()
            .content(self.content)
            .ephemeral(self.ephemeral)
            .allowed_mentions(self.mentions)
            .components(self.components)
            .add_files(self.attachments)
    }

    pub fn channel(self) -> serenity::CreateMessage {
        serenity::CreateMessage::new()
            .content(self.content)
            .allowed_mentions(self.mentions)
            .components(self.components)
            .add_files(self.attachments)
    }
}

/// The messages that carry a reply, in order: long text is split at line ends, and the last
/// message carries the files and the first [`MAX_BUTTONS`] buttons; any more buttons follow in
/// messages of their own, so none is dropped.
pub fn messages(reply: &Reply) -> Vec<Message> {
    let parts = split_text(&super::markup::markdown(&reply.text));
    let last = parts.len() - 1;
    let mut button_sets = reply.buttons.chunks(MAX_BUTTONS);
    let mut out: Vec<Message> = parts
        .into_iter()
        .enumerate()
        .map(|(i, content)| Message {
            content,
            ephemeral: reply.private,
            mentions: allowed_mentions(reply),
            attachments: if i == last {
                attachments(reply)
            } else {
                Vec::new()
            },
            components: match button_sets.next().filter(|_| i == last) {
                Some(set) => components(set),
                None => Vec::new(),
            },
        })
        .collect();
    for set in button_sets {
        out.push(Message {
            content: String::new(),
            ephemeral: reply.private,
            mentions: serenity::CreateAllowedMentions::new(),
            attachments: Vec::new(),
            components: components(set),
        });
    }
    out
}

/// Only the users the reply names are pinged; every other `<@id>` shows as a name.
fn allowed_mentions(reply: &Reply) -> serenity::CreateAllowedMentions {
    serenity::CreateAllowedMentions::new().users(
        reply
            .mentions
            .iter()
            .filter(|u| u.0 != 0)
            .map(|u| serenity::UserId::new(u.0)),
    )
}

fn attachments(reply: &Reply) -> Vec<serenity::CreateAttachment> {
    reply
        .attachments
        .iter()
        .map(|a| {
            let file = serenity::CreateAttachment::bytes(a.bytes.clone(), a.filename.clone());
            // The text board describes a board picture for screen readers.
            match &reply.board_text {
                Some(text) if a.filename.ends_with(".png") && text.len() <= MAX_DESCRIPTION => {
                    file.description(text.clone())
                }
                _ => file,
            }
        })
        .collect()
}

/// Buttons in rows of five, as Discord lays them out (at most [`MAX_BUTTONS`]: five rows).
pub fn components(buttons: &[Button]) -> Vec<serenity::CreateActionRow> {
    buttons
        .chunks(5)
        .take(MAX_BUTTONS / 5)
        .map(|row| {
            serenity::CreateActionRow::Buttons(
                row.iter()
                    .map(|b| {
                        serenity::CreateButton::new(b.action.custom_id())
                            .label(b.label.clone())
                            .style(style(b.style))
                    })
                    .collect(),
            )
        })
        .collect()
}

/// The buttons of a message, all disabled: a spent question.
pub fn disabled(message: &serenity::Message) -> Vec<serenity::CreateActionRow> {
    message
        .components
        .iter()
        .map(|row| {
            serenity::CreateActionRow::Buttons(
                row.components
                    .iter()
                    .filter_map(|c| match c {
                        serenity::ActionRowComponent::Button(b) => {
                            let mut b = b.clone();
                            b.disabled = true;
                            Some(serenity::CreateButton::from(b))
                        }
                        _ => None,
                    })
                    .collect(),
            )
        })
        .filter(|row| !matches!(row, serenity::CreateActionRow::Buttons(b) if b.is_empty()))
        .collect()
}

fn style(style: ButtonStyle) -> serenity::ButtonStyle {
    match style {
        ButtonStyle::Primary => serenity::ButtonStyle::Primary,
        ButtonStyle::Secondary => serenity::ButtonStyle::Secondary,
        ButtonStyle::Success => serenity::ButtonStyle::Success,
        ButtonStyle::Danger => serenity::ButtonStyle::Danger,
    }
}

/// Splits text into pieces of at most [`MAX_CONTENT`] characters, at line ends where it can.
fn split_text(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    for line in text.split_inclusive('\n') {
        if current.chars().count() + line.chars().count() > MAX_CONTENT && !current.is_empty() {
            parts.push(std::mem::take(&mut current));
        }
        if line.chars().count() > MAX_CONTENT {
            let chars: Vec<char> = line.chars().collect();
            for chunk in chars.chunks(MAX_CONTENT) {
                parts.push(chunk.iter().collect());
            }
        } else {
            current.push_str(line);
        }
    }
    if !current.is_empty() || parts.is_empty() {
        parts.push(current);
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::{messages, split_text};
    use crate::service::{Action, ButtonStyle, Reply};
    use crate::store::MatchId;

    #[test]
    fn no_message_carries_more_than_25_buttons_and_none_is_dropped() {
        let mut reply = Reply::public("Pick one.");
        for i in 0..30 {
            reply = reply.button(Action::Rematch(MatchId(i)), "Rematch", ButtonStyle::Primary);
        }
        let sent = messages(&reply);
        let counts: Vec<usize> = sent
            .iter()
            .map(|m| {
                let json = serde_json::to_value(&m.components).unwrap();
                json.as_array()
                    .unwrap()
                    .iter()
                    .map(|row| row["components"].as_array().unwrap().len())
                    .sum()
            })
            .collect();
        assert_eq!(counts, [25, 5]);
        assert!(sent.iter().all(|m| m.components.len() <= 5));
        assert_eq!(sent[0].content, "Pick one.");
    }

    #[test]
    fn long_text_is_split_at_line_ends_within_discords_limit() {
        let line = format!("{}\n", "x".repeat(99));
        let text = line.repeat(45);
        let parts = split_text(&text);
        assert_eq!(parts.len(), 3);
        assert!(parts.iter().all(|p| p.chars().count() <= 2000));
        assert!(parts[..2].iter().all(|p| p.ends_with('\n')));
        assert_eq!(parts.concat(), text);
    }

    #[test]
    fn a_line_longer_than_the_limit_is_cut() {
        let text = "é".repeat(4500);
        let parts = split_text(&text);
        assert_eq!(
            parts.iter().map(|p| p.chars().count()).collect::<Vec<_>>(),
            [2000, 2000, 500]
        );
        assert_eq!(split_text(""), [""]);
        assert_eq!(split_text("short"), ["short"]);
    }
}

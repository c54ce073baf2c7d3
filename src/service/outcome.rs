//! What the service hands back to a front-end: a [`Text`], files, buttons and who to mention.
//! Only the users in [`Reply::mentions`] may be pinged; every other player in the text is
//! shown as a name without a notification.

use serde::{Deserialize, Serialize};

use super::text::Text;
use crate::store::{ChallengeId, ChannelId, GuildId, MatchId, TournamentId, UserId};

/// A file to attach: a board picture, a replay or a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    pub filename: String,
    pub bytes: Vec<u8>,
}

/// How a button looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ButtonStyle {
    Primary,
    Secondary,
    Success,
    Danger,
}

/// What pressing a button asks the service to do. The id carries the match or challenge, so a
/// press is checked against the current state and the presser.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Accept(ChallengeId),
    Decline(ChallengeId),
    Cancel(ChallengeId),
    /// Agree to the end proposal `proposal` of a match.
    AgreeEnd {
        match_id: MatchId,
        proposal: i64,
    },
    KeepPlaying {
        match_id: MatchId,
        proposal: i64,
    },
    ConfirmResign(MatchId),
    /// Carry on a match the bot cannot reach, in the channel where the button is pressed.
    Resume(MatchId),
    /// Stop, unrated, a match the bot cannot reach.
    AbortUnreachable(MatchId),
    /// Challenge the other player of a finished match again, the roles swapped.
    Rematch(MatchId),
    /// Show (asking for it first if needed) the analysis of a finished match.
    Analyse(MatchId),
    /// Join a tournament that is taking players.
    JoinTournament(TournamentId),
}

impl Action {
    /// The button's custom id (at most 100 characters, as Discord requires).
    pub fn custom_id(&self) -> String {
        match *self {
            Action::Accept(c) => format!("thud:accept:{c}"),
            Action::Decline(c) => format!("thud:decline:{c}"),
            Action::Cancel(c) => format!("thud:cancel:{c}"),
            Action::AgreeEnd { match_id, proposal } => format!("thud:agree:{match_id}:{proposal}"),
            Action::KeepPlaying { match_id, proposal } => {
                format!("thud:keep:{match_id}:{proposal}")
            }
            Action::ConfirmResign(m) => format!("thud:resign:{m}"),
            Action::Resume(m) => format!("thud:resume:{m}"),
            Action::AbortUnreachable(m) => format!("thud:stop:{m}"),
            Action::Rematch(m) => format!("thud:rematch:{m}"),
            Action::Analyse(m) => format!("thud:analyse:{m}"),
            Action::JoinTournament(t) => format!("thud:join:{t}"),
        }
    }

    /// Reads a custom id back; `None` for anything that is not one of ours.
    pub fn parse(id: &str) -> Option<Action> {
        let mut parts = id.split(':');
        if parts.next()? != "thud" {
            return None;
        }
        let verb = parts.next()?;
        let first: u64 = parts.next()?.parse().ok()?;
        let second: Option<i64> = match parts.next() {
            Some(p) => Some(p.parse().ok()?),
            None => None,
        };
        if parts.next().is_some() {
            return None;
        }
        Some(match (verb, second) {
            ("accept", None) => Action::Accept(ChallengeId(first)),
            ("decline", None) => Action::Decline(ChallengeId(first)),
            ("cancel", None) => Action::Cancel(ChallengeId(first)),
            ("agree", Some(p)) => Action::AgreeEnd {
                match_id: MatchId(first),
                proposal: p,
            },
            ("keep", Some(p)) => Action::KeepPlaying {
                match_id: MatchId(first),
                proposal: p,
            },
            ("resign", None) => Action::ConfirmResign(MatchId(first)),
            ("resume", None) => Action::Resume(MatchId(first)),
            ("stop", None) => Action::AbortUnreachable(MatchId(first)),
            ("rematch", None) => Action::Rematch(MatchId(first)),
            ("analyse", None) => Action::Analyse(MatchId(first)),
            ("join", None) => Action::JoinTournament(TournamentId(i64::try_from(first).ok()?)),
            _ => return None,
        })
    }
}

/// A button under a message. Kept with a queued notice, its action as its custom id.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Button {
    #[serde(with = "action_as_id")]
    pub action: Action,
    pub label: String,
    pub style: ButtonStyle,
}

/// A message for the channel (or, when `private`, for the asking player only).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Reply {
    pub text: Text,
    pub attachments: Vec<Attachment>,
    pub buttons: Vec<Button>,
    /// The users this message pings.
    pub mentions: Vec<UserId>,
    /// Shown only to the player who asked (Discord's ephemeral messages).
    pub private: bool,
    /// When answering a button: the buttons of the message pressed are spent and should be
    /// disabled.
    pub spend_buttons: bool,
    /// The board in text whenever the message shows a board: for a console, or as the
    /// picture's description for screen readers.
    pub board_text: Option<String>,
    /// The board the message shows, to draw again if it has to be posted later.
    pub board: Option<BoardShot>,
    /// The message reports a change that was saved: if it cannot be shown as the answer to
    /// the command, its public part must reach the channel another way.
    pub saved: bool,
    /// What happened, where the message says it: the events it was worded from.
    pub events: Vec<crate::service::events::Event>,
}

impl Reply {
    /// A message for the channel.
    pub fn public(text: impl Into<Text>) -> Reply {
        Reply {
            text: text.into(),
            ..Reply::default()
        }
    }

    /// A message for the asking player only.
    pub fn private(text: impl Into<Text>) -> Reply {
        Reply {
            text: text.into(),
            private: true,
            ..Reply::default()
        }
    }

    /// Marks the reply as reporting a saved change.
    pub fn saved(mut self) -> Reply {
        self.saved = true;
        self
    }

    pub fn mention(mut self, user: UserId) -> Reply {
        if !self.mentions.contains(&user) {
            self.mentions.push(user);
        }
        self
    }

    pub fn attach(mut self, filename: impl Into<String>, bytes: Vec<u8>) -> Reply {
        self.attachments.push(Attachment {
            filename: filename.into(),
            bytes,
        });
        self
    }

    pub fn button(mut self, action: Action, label: &str, style: ButtonStyle) -> Reply {
        self.buttons.push(Button {
            action,
            label: label.to_string(),
            style,
        });
        self
    }
}

/// A board to draw with a message, perhaps when it is sent later: battle `battle` of a match
/// after `plies` moves.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardShot {
    pub match_id: MatchId,
    pub battle: u8,
    pub plies: u32,
}

/// An action stored as the custom id it has on Discord, which [`Action::parse`] reads back.
mod action_as_id {
    use serde::{de::Error, Deserialize, Deserializer, Serializer};

    use super::Action;

    pub fn serialize<S: Serializer>(action: &Action, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&action.custom_id())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Action, D::Error> {
        let id = String::deserialize(d)?;
        Action::parse(&id).ok_or_else(|| D::Error::custom(format!("not a button of ours: {id}")))
    }
}

/// A link to a channel on any server, for lists that span servers.
pub fn channel_link(guild: GuildId, channel: ChannelId) -> String {
    format!("https://discord.com/channels/{guild}/{channel}")
}

/// A link to one message.
pub fn message_link(guild: GuildId, channel: ChannelId, message: u64) -> String {
    format!("https://discord.com/channels/{guild}/{channel}/{message}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_ids_read_back_and_foreign_ids_are_ignored() {
        let actions = [
            Action::Accept(ChallengeId(7)),
            Action::Decline(ChallengeId(7)),
            Action::Cancel(ChallengeId(8)),
            Action::AgreeEnd {
                match_id: MatchId(3),
                proposal: 9,
            },
            Action::KeepPlaying {
                match_id: MatchId(3),
                proposal: 9,
            },
            Action::ConfirmResign(MatchId(u64::MAX)),
            Action::Resume(MatchId(4)),
            Action::AbortUnreachable(MatchId(5)),
            Action::Rematch(MatchId(6)),
            Action::Analyse(MatchId(7)),
        ];
        for a in actions {
            assert!(a.custom_id().len() <= 100);
            assert_eq!(Action::parse(&a.custom_id()), Some(a));
            // Kept with a notice, a button reads back as it was.
            let button = Button {
                action: a,
                label: "Go".into(),
                style: ButtonStyle::Success,
            };
            let stored = serde_json::to_value(&button).unwrap();
            assert_eq!(serde_json::from_value::<Button>(stored).unwrap(), button);
        }
        for bad in [
            "",
            "thud",
            "thud:accept",
            "thud:accept:x",
            "other:accept:1",
            "thud:agree:1",
            "thud:accept:1:2:3",
        ] {
            assert_eq!(Action::parse(bad), None, "{bad}");
        }
    }
}

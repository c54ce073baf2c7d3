//! Notices stored as sentences, worded when they were queued: those queued before notices
//! became events (still delivered after an upgrade), and the announcements not yet told as
//! events (tournaments, forfeits, a paused match, an answer that could not be posted).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::service::error::Result;
use crate::service::notices::queue::{queue_body, Settled};
use crate::service::outcome::{BoardShot, Button, Reply};
use crate::service::text::Text;
use crate::service::voice::offer_rematch;
use crate::service::Place;
use crate::store::{MatchId, Recipient, Tx, UserId};

/// What kind of notice, for the checks made when its turn comes.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum NoticeKind {
    /// A reminder, true only while the turn it was claimed for is still in play.
    Reminder {
        player: UserId,
        turn_started_at: DateTime<Utc>,
    },
    /// The public part of an answer that could not be given as the interaction's response,
    /// or the opening of a match in its new thread. Earlier versions also queued expired
    /// challenges and forfeits as their own kinds, settled the same way; they are read as this.
    #[serde(alias = "challenge-expired", alias = "forfeit")]
    Announcement,
    /// A match ended: a thread of its own is archived, after the last words in it had time
    /// to land. Says nothing.
    MatchOver,
}

/// A notice worded when it was queued.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct NoticeBody {
    #[serde(flatten)]
    pub kind: NoticeKind,
    pub text: Text,
    pub mentions: Vec<UserId>,
    pub board: Option<BoardShot>,
    /// The message's buttons (Accept / Decline, Agree / Keep playing, Rematch …), checked
    /// against the state when pressed, as any button is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub buttons: Vec<Button>,
    /// Notices queued by earlier versions kept only a rematch button, here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<MatchId>,
    /// A tournament whose standings picture goes with the message, drawn when it is sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standings: Option<crate::store::TournamentId>,
    /// Sent as a direct message to this player (queued by earlier versions, which kept the
    /// reader in the body).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dm: Option<UserId>,
}

impl NoticeBody {
    pub(in crate::service) fn new(kind: NoticeKind, reply: &Reply) -> NoticeBody {
        NoticeBody {
            kind,
            text: reply.text.clone(),
            mentions: reply.mentions.clone(),
            board: reply.board,
            buttons: reply.buttons.clone(),
            rematch: None,
            standings: None,
            dm: None,
        }
    }

    /// The message, its board and standings still to draw; whether it is still true is
    /// checked by the caller.
    pub(in crate::service) fn reply(&self) -> Reply {
        let mut reply = Reply::public(self.text.clone());
        reply.mentions = self.mentions.clone();
        reply.buttons = self.buttons.clone();
        if let Some(id) = self.rematch {
            reply = offer_rematch(reply, id);
        }
        reply.board = self.board;
        reply
    }

    /// How the notice's life ends, for the outbox.
    pub(in crate::service) fn settled(&self) -> Settled {
        match self.kind {
            NoticeKind::Reminder {
                player,
                turn_started_at,
            } => Settled::WhileTurn {
                player,
                turn_started_at,
            },
            NoticeKind::MatchOver => Settled::ClosesThread,
            _ => Settled::Always,
        }
    }
}

/// Queues `body` for the channel at `place` in `tx`.
pub(in crate::service) async fn queue(
    tx: &mut Tx,
    place: Place,
    match_id: Option<MatchId>,
    body: &NoticeBody,
    now: DateTime<Utc>,
) -> Result<()> {
    let to = Recipient::Channel(place.channel);
    queue_body(
        tx,
        (place.guild, to),
        match_id,
        body,
        body.settled(),
        body.board,
        now,
    )
    .await
}

#[cfg(test)]
mod tests {
    use super::NoticeKind;

    #[test]
    fn kinds_queued_by_earlier_versions_are_read_as_announcements() {
        for old in ["forfeit", "challenge-expired", "announcement"] {
            let json = format!(r#"{{"kind":"{old}"}}"#);
            let kind: NoticeKind = serde_json::from_str(&json).expect(&json);
            assert_eq!(kind, NoticeKind::Announcement, "{old}");
        }
        let over: NoticeKind = serde_json::from_str(r#"{"kind":"match-over"}"#).unwrap();
        assert_eq!(over, NoticeKind::MatchOver);
    }
}

//! The outbox's service side: notices are queued in the transaction of the change they report,
//! and handed to a front-end's delivery worker with their boards drawn at send time.
//!
//! A notice Discord will never take (the bot lost access, the channel is gone, the thread is
//! locked) is marked undeliverable and pauses its match's clock: a match is never decided by a
//! clock its players could not hear.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use crate::service::error::{Result, ServiceError};
use crate::service::outcome::{
    channel_link, message_link, offer_rematch, BoardShot, Button, Reply,
};
use crate::service::pictures::{board_at, finish_drawing};
use crate::service::text::Text;
use crate::service::{Names, Place, Service};
use crate::store::{
    ChannelId, GuildId, MatchId, NewNotice, NoticeState, QueuedNotice, Settings, Tx, UserId,
};

/// How long a worker holds a claimed notice before another process may take it over.
const LEASE_SECONDS: i64 = 120;
/// The longest pause between two tries of a notice.
const MAX_BACKOFF_SECONDS: i64 = 600;

/// What kind of notice, for the checks made when its turn comes.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum NoticeKind {
    /// A reminder, true only while the turn it was claimed for is still in play.
    Reminder {
        player: UserId,
        turn_started_at: DateTime<Utc>,
    },
    ChallengeExpired,
    /// A match decided by the clock.
    Forfeit,
    /// The public part of an answer that could not be given as the interaction's response,
    /// or the opening of a match in its new thread.
    Announcement,
    /// A match ended: a thread of its own is archived, after the last words in it had time
    /// to land. Says nothing.
    MatchOver,
}

/// How long a finished match's thread stays open for its final messages.
const MATCH_OVER_DELAY_SECONDS: i64 = 120;
/// How long a turn notice by DM waits, at most, for the move's message in the channel it
/// links to (see [`Service::board_posted`]).
const DM_WAITS_FOR_BOARD_SECONDS: i64 = 60;

/// A notice as the outbox keeps it.
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
    /// Sent as a direct message to this player rather than to a channel.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dm: Option<UserId>,
}

/// A notice claimed for posting, ready to send.
#[derive(Clone, Debug)]
pub struct Delivery {
    pub id: i64,
    pub guild: GuildId,
    pub channel: ChannelId,
    pub match_id: Option<MatchId>,
    pub reply: Reply,
    /// Discord's message nonce (at most 25 characters), the same on every try, so a retry
    /// after a post whose answer was lost does not post twice.
    pub nonce: String,
    /// Tries so far, this one included.
    pub attempt: u32,
    pub kind: NoticeKind,
    /// A direct message to this player; `channel` is then only the outbox's queue for them.
    pub dm: Option<UserId>,
}

/// Why a post failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeliveryFailure {
    /// Worth trying again (a 5xx, a rate limit, the network); `retry_after` when Discord said.
    Transient {
        reason: String,
        retry_after: Option<std::time::Duration>,
    },
    /// Discord will never take it: no access, a missing permission, the channel gone.
    Permanent { reason: String },
}

impl BoardShot {
    /// The board as the store keys it.
    pub(in crate::service) fn key(self) -> (MatchId, u8, u32) {
        (self.match_id, self.battle, self.plies)
    }
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
}

/// Queues `body` for the channel at `place` in `tx`.
pub(in crate::service) async fn queue(
    tx: &mut Tx,
    place: Place,
    match_id: Option<MatchId>,
    body: &NoticeBody,
    now: DateTime<Utc>,
) -> Result<()> {
    let body_kind = body.kind;
    let value = serde_json::to_value(body)
        .map_err(|e| ServiceError::System(format!("a notice could not be written: {e}")))?;
    let due_at = match body_kind {
        NoticeKind::MatchOver => now + Duration::seconds(MATCH_OVER_DELAY_SECONDS),
        _ if body.dm.is_some() && body.board.is_some() => {
            now + Duration::seconds(DM_WAITS_FOR_BOARD_SECONDS)
        }
        _ => now,
    };
    tx.queue_notice(&NewNotice {
        guild: place.guild,
        channel: place.channel,
        match_id,
        body: value,
        created_at: now,
        due_at,
    })
    .await?;
    Ok(())
}

/// Queues the end of match `m` for its channel (see [`NoticeKind::MatchOver`]).
pub(in crate::service) async fn queue_match_over(
    tx: &mut Tx,
    m: &crate::store::StoredMatch,
    now: DateTime<Utc>,
) -> Result<()> {
    let place = Place {
        guild: m.guild,
        channel: m.channel,
    };
    let body = NoticeBody::new(NoticeKind::MatchOver, &Reply::default());
    queue(tx, place, Some(m.id), &body, now).await
}

impl Service {
    /// Queues the public part of `reply` for the channel at `place`, for when it could not be
    /// given as the answer to the command that made it.
    pub async fn announce_later(
        &self,
        place: Place,
        match_id: Option<MatchId>,
        reply: &Reply,
    ) -> Result<()> {
        let mut tx = self.store.begin().await?;
        let body = NoticeBody::new(NoticeKind::Announcement, reply);
        queue(&mut tx, place, match_id, &body, self.now()).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        Ok(())
    }

    /// Claims up to `limit` notices that are due and makes them ready to send. A reminder
    /// whose turn has been played since is dropped here, never sent.
    pub async fn claim_deliveries(&self, limit: i64) -> Result<Vec<Delivery>> {
        let now = self.now();
        let claimed = self
            .store
            .claim_notices(now, Duration::seconds(LEASE_SECONDS), limit)
            .await?;
        let mut ready = Vec::with_capacity(claimed.len());
        for notice in claimed {
            match self.prepare(&notice).await {
                Ok(Some(delivery)) => ready.push(delivery),
                Ok(None) => {
                    self.store
                        .finish_notice(notice.id, NoticeState::Obsolete, None, now)
                        .await?
                }
                Err(e) => {
                    let reason = e.to_string();
                    tracing::error!(notice = notice.id, %reason, "a notice could not be prepared");
                    self.store
                        .finish_notice(notice.id, NoticeState::Undeliverable, Some(&reason), now)
                        .await?
                }
            }
        }
        Ok(ready)
    }

    /// The notice as a message, or `None` when it is no longer true.
    async fn prepare(&self, notice: &QueuedNotice) -> Result<Option<Delivery>> {
        let body: NoticeBody = serde_json::from_value(notice.body.clone())
            .map_err(|e| ServiceError::System(format!("notice {} is damaged: {e}", notice.id)))?;
        if let NoticeKind::Reminder {
            player,
            turn_started_at,
        } = body.kind
        {
            let Some(id) = notice.match_id else {
                return Ok(None);
            };
            let m = self.store.load_match(id).await?;
            let still_due = m.and_then(|m| m.clock).is_some_and(|c| {
                c.player == player && c.turn_started_at == turn_started_at && c.paused_at.is_none()
            });
            if !still_due {
                return Ok(None);
            }
        }
        let mut reply = Reply::public(body.text);
        reply.mentions = body.mentions;
        reply.buttons = body.buttons;
        if let Some(id) = body.rematch {
            reply = offer_rematch(reply, id);
        }
        if let Some(shot) = body.board {
            if let Some(m) = self.store.load_match(shot.match_id).await? {
                if body.dm.is_some() {
                    // A turn notice links to the move's message, or to the channel if the
                    // message was never seen.
                    let url = match self.store.board_post(shot.key()).await? {
                        Some((channel, message)) => message_link(m.guild, channel, message),
                        None => channel_link(m.guild, m.channel),
                    };
                    reply.text = reply
                        .text
                        .plain(" Play it in ")
                        .link(format!("match #{}'s channel", m.id), url)
                        .plain(".");
                }
                let names = Names(self.store.names(&m.players).await?);
                // A direct message shows the board as its reader likes it.
                let settings = match body.dm {
                    Some(player) => self.store.settings(player).await?,
                    None => Settings::default(),
                };
                if let Some(board) = board_at(&m, &names, shot, &settings) {
                    reply = finish_drawing(self.start_drawing(board)).await?.onto(reply);
                }
            }
        }
        if let Some(id) = body.standings {
            if let Some((filename, png)) = self.standings_picture(id).await? {
                reply = reply.attach(filename, png);
            }
        }
        Ok(Some(Delivery {
            id: notice.id,
            guild: notice.guild,
            channel: notice.channel,
            match_id: notice.match_id,
            reply,
            nonce: format!("n{}", notice.id),
            attempt: notice.attempts,
            kind: body.kind,
            dm: body.dm,
        }))
    }

    /// The board `shot` was shown in `channel`, as message `message` where the front-end has
    /// ids: direct messages about it link there, and those waiting for it go now.
    pub async fn board_posted(
        &self,
        channel: ChannelId,
        shot: BoardShot,
        message: Option<u64>,
    ) -> Result<()> {
        self.store
            .board_posted(shot.key(), channel, message, self.now())
            .await?;
        self.outbox_signal.notify_waiters();
        Ok(())
    }

    /// The notice was posted.
    pub async fn delivered(&self, delivery: &Delivery) -> Result<()> {
        let now = self.now();
        self.store
            .finish_notice(delivery.id, NoticeState::Delivered, None, now)
            .await?;
        Ok(())
    }

    /// The post failed: tried again later, or, when Discord will never take it, marked
    /// undeliverable and its match's clock paused until a player acts.
    pub async fn delivery_failed(
        &self,
        delivery: &Delivery,
        failure: &DeliveryFailure,
    ) -> Result<()> {
        let now = self.now();
        match failure {
            DeliveryFailure::Transient {
                reason,
                retry_after,
            } => {
                let wait = match retry_after {
                    Some(after) => Duration::from_std(*after)
                        .unwrap_or(Duration::seconds(MAX_BACKOFF_SECONDS))
                        .min(Duration::seconds(MAX_BACKOFF_SECONDS)),
                    None => backoff(delivery.attempt),
                };
                self.store
                    .retry_notice(delivery.id, now + wait, reason)
                    .await?;
            }
            DeliveryFailure::Permanent { reason } if delivery.dm.is_some() => {
                self.dm_refused(delivery, reason).await?;
            }
            DeliveryFailure::Permanent { reason } => {
                let mut tx = self.store.begin().await?;
                if let Some(id) = delivery.match_id {
                    if let Some(m) = tx.lock_match(id).await? {
                        // A match resumed in another channel since is not held back by a
                        // notice left behind in its old one.
                        if m.state == crate::store::MatchState::Active
                            && m.channel == delivery.channel
                        {
                            tx.pause_clock(id, reason, now).await?;
                            if let NoticeKind::Reminder {
                                turn_started_at, ..
                            } = delivery.kind
                            {
                                // The reminder never reached its player: send it again once
                                // the clock runs.
                                tx.forget_reminder(id, turn_started_at).await?;
                            }
                        }
                    }
                }
                tx.commit().await?;
                self.store
                    .finish_notice(delivery.id, NoticeState::Undeliverable, Some(reason), now)
                    .await?;
            }
        }
        Ok(())
    }
}

/// Waits between tries: 2, 4, 8 … seconds, at most ten minutes.
fn backoff(attempt: u32) -> Duration {
    let seconds = 1i64 << attempt.clamp(1, 10);
    Duration::seconds(seconds.min(MAX_BACKOFF_SECONDS))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_grows_and_is_capped() {
        assert_eq!(backoff(1), Duration::seconds(2));
        assert_eq!(backoff(3), Duration::seconds(8));
        assert_eq!(backoff(40), Duration::seconds(MAX_BACKOFF_SECONDS));
    }

    #[test]
    fn a_notice_body_reads_back() {
        let body = NoticeBody {
            kind: NoticeKind::Reminder {
                player: UserId(7),
                turn_started_at: DateTime::from_timestamp(1_800_000_000, 0).unwrap_or_default(),
            },
            text: "a reminder".into(),
            mentions: vec![UserId(7)],
            board: Some(BoardShot {
                match_id: MatchId(3),
                battle: 2,
                plies: 41,
            }),
            buttons: vec![Button {
                action: crate::service::Action::Rematch(MatchId(3)),
                label: "Rematch".into(),
                style: crate::service::ButtonStyle::Primary,
            }],
            rematch: Some(MatchId(3)),
            standings: None,
            dm: Some(UserId(7)),
        };
        let value = serde_json::to_value(&body).unwrap_or_default();
        assert_eq!(value["kind"], "reminder");
        assert_eq!(serde_json::from_value::<NoticeBody>(value).ok(), Some(body));
    }
}

//! The outbox's service side: notices are queued in the transaction of the change they report,
//! and handed to a front-end's delivery worker with their boards drawn at send time.
//!
//! A notice Discord will never take (the bot lost access, the channel is gone, the thread is
//! locked) is marked undeliverable, after `Channels::delivery_failed` paused its match's
//! clock: a match is never decided by a clock its players could not hear.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

use super::Outbox;
use crate::service::error::{Result, ServiceError};
use crate::service::events::Event;
use crate::service::notices::failure::{pause_before_retry, DeliveryFailure};
use crate::service::notices::queue::{queue_body, Settled};
use crate::service::notices::worded::{NoticeBody, NoticeKind};
use crate::service::outcome::{channel_link, message_link, BoardShot, Reply};
use crate::service::pictures::start_drawing;
use crate::service::pictures::{board_at, finish_drawing};
use crate::service::standings::standings_after;
use crate::service::voice::{self, Reader};
use crate::service::wording::word;
use crate::service::{Names, Place};
use crate::store::{
    ChannelId, GuildId, MatchId, NoticeState, QueuedNotice, Recipient, Settings, Tx, UserId,
};

/// How long a worker holds a claimed notice before another process may take it over.
const LEASE_SECONDS: i64 = 120;

/// A notice as the outbox keeps it: what happened, to be worded for its reader when it is
/// sent, and the board to show with it.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Notice {
    pub events: Vec<Event>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<BoardShot>,
    /// The players the message pings, as their settings asked when it was queued.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ping: Vec<UserId>,
}

impl Notice {
    pub(in crate::service) fn new(events: Vec<Event>, board: Option<BoardShot>) -> Notice {
        Notice {
            events,
            board,
            ping: Vec::new(),
        }
    }

    /// A message worded from events, kept for later as its events, board and pings; `None`
    /// for one worded otherwise.
    pub(in crate::service) fn from_reply(reply: &Reply) -> Option<Notice> {
        (!reply.events.is_empty()).then(|| Notice {
            events: reply.events.clone(),
            board: reply.board,
            ping: reply.mentions.clone(),
        })
    }

    pub(in crate::service) fn pinging(mut self, player: Option<UserId>) -> Notice {
        self.ping.extend(player);
        self
    }

    /// The thread it records as wanted, if it is such a record.
    fn room_wanted(&self) -> Option<&str> {
        self.events.iter().find_map(|e| match e {
            Event::RoomWanted { name } => Some(name.as_str()),
            _ => None,
        })
    }

    fn settled(&self) -> Settled {
        for event in &self.events {
            match *event {
                Event::ReminderDue {
                    player,
                    turn_started_at,
                    ..
                } => {
                    return Settled::WhileTurn {
                        player,
                        turn_started_at,
                    }
                }
                Event::ThreadDone { .. } | Event::RoomUnused { .. } => {
                    return Settled::ClosesThread
                }
                Event::FieldChanged { tournament } => return Settled::ShowsField(tournament),
                Event::AnalysisChanged { match_id } => return Settled::ShowsAnalysis(match_id),
                Event::ThreadArchived { .. } => return Settled::ReopensThread,
                _ => {}
            }
        }
        Settled::Always
    }
}

/// A stored notice, in either of the outbox's formats.
#[derive(Deserialize, Clone, Debug)]
#[serde(untagged)]
enum Stored {
    Events(Notice),
    Worded(NoticeBody),
}

/// A notice claimed for posting, ready to send.
#[derive(Clone, Debug)]
pub struct Delivery {
    pub id: i64,
    pub guild: GuildId,
    pub to: Recipient,
    pub match_id: Option<MatchId>,
    pub reply: Reply,
    /// Discord's message nonce (at most 25 characters), the same on every try, so a retry
    /// after a post whose answer was lost does not post twice.
    pub nonce: String,
    /// Tries so far, this one included.
    pub attempt: u32,
    /// Says nothing: the match's thread of its own is to be closed (archived).
    pub closes_thread: bool,
    /// Says nothing: the announcement of this tournament is to be shown as it reads now
    /// (edited, or posted anew if somebody deleted it).
    pub shows_field: Option<crate::store::TournamentId>,
    /// Says nothing: the thread it is for, archived, is to be opened again.
    pub reopens_thread: bool,
    /// Says nothing: the analysis of this match is to be shown as it stands (its progress
    /// message posted or brought up to date, or its report shown).
    pub shows_analysis: Option<MatchId>,
    /// Says nothing: a thread of this name was wanted in the channel it is for, and no match
    /// began in it; one the bot made is to be found and closed if nothing lives in it.
    pub clears_room: Option<String>,
    /// What was stored, for what a failure does next.
    stored: Stored,
}

impl Delivery {
    /// What keeps the notice true until sent.
    pub(in crate::service) fn settled(&self) -> Settled {
        match &self.stored {
            Stored::Events(n) => n.settled(),
            Stored::Worded(b) => b.settled(),
        }
    }

    /// The events it tells, unless it was worded when queued.
    pub(in crate::service) fn notice(&self) -> Option<&Notice> {
        match &self.stored {
            Stored::Events(n) => Some(n),
            Stored::Worded(_) => None,
        }
    }
}

impl BoardShot {
    /// The board as the store keys it.
    pub(in crate::service) fn key(self) -> (MatchId, u8, u32) {
        (self.match_id, self.battle, self.plies)
    }
}

/// Queues `events` for `to` (on server `guild`) in `tx`, with the board to show.
pub(in crate::service) async fn queue_events(
    tx: &mut Tx,
    (guild, to): (GuildId, Recipient),
    match_id: Option<MatchId>,
    notice: &Notice,
    now: DateTime<Utc>,
) -> Result<()> {
    let settled = notice.settled();
    queue_body(
        tx,
        (guild, to),
        match_id,
        notice,
        settled,
        notice.board,
        now,
    )
    .await
}

/// Queues `event`, an effect that says nothing and is made as things stand when the notice is
/// delivered (an announcement or an analysis shown, a thread reopened), unless the same is
/// queued and not yet taken up, which will show this change too: latest wins. An effect for
/// a match in play (`match_id`) that Discord refuses for good pauses it, as a notice would.
pub(in crate::service) async fn queue_effect(
    tx: &mut Tx,
    to: (GuildId, Recipient),
    (match_id, event): (Option<MatchId>, Event),
    now: DateTime<Utc>,
) -> Result<()> {
    let stored = serde_json::to_value(&event)
        .map_err(|e| ServiceError::System(format!("an effect could not be written: {e}")))?;
    if tx.told_later(&stored).await? {
        return Ok(());
    }
    queue_events(tx, to, match_id, &Notice::new(vec![event], None), now).await
}

/// Queues the public part of `reply` for the channel at `place`: as its events where it was
/// worded from them, else as its words.
pub(in crate::service) async fn queue_reply(
    tx: &mut Tx,
    place: Place,
    match_id: Option<MatchId>,
    reply: &Reply,
    now: DateTime<Utc>,
) -> Result<()> {
    match Notice::from_reply(reply) {
        Some(notice) => {
            let to = (place.guild, Recipient::Channel(place.channel));
            queue_events(tx, to, match_id, &notice, now).await
        }
        None => {
            // Every answer that saves a change is worded from events; one that is not is
            // still delivered, as it was worded, rather than lost.
            tracing::error!(text = %reply.text, "an announcement without events was queued");
            let body = NoticeBody::new(NoticeKind::Announcement, reply);
            crate::service::notices::worded::queue(tx, place, match_id, &body, now).await
        }
    }
}

/// Queues the end of match `m` for its channel: a thread the bot opened for a match is closed
/// once the last words in it had time to land, if nothing else lives in it by then. A channel
/// or a thread somebody else made is never closed.
pub(in crate::service) async fn queue_match_over(
    tx: &mut Tx,
    m: &crate::store::StoredMatch,
    now: DateTime<Utc>,
) -> Result<()> {
    if !tx.is_match_thread(m.channel).await? {
        return Ok(());
    }
    let notice = Notice::new(vec![Event::ThreadDone { match_id: m.id }], None);
    let to = (m.guild, Recipient::Channel(m.channel));
    queue_events(tx, to, Some(m.id), &notice, now).await
}

/// Queues the close of `channel` if the bot opened it for a match: a challenge asked there (a
/// rematch) ended without a match. It is closed after the usual delay if nothing else lives in
/// it by then.
pub(in crate::service) async fn queue_thread_close(
    tx: &mut Tx,
    guild: GuildId,
    channel: ChannelId,
    now: DateTime<Utc>,
) -> Result<()> {
    let Some(match_id) = tx.thread_opened_for(channel).await? else {
        return Ok(());
    };
    let notice = Notice::new(vec![Event::ThreadDone { match_id }], None);
    queue_events(
        tx,
        (guild, Recipient::Channel(channel)),
        Some(match_id),
        &notice,
        now,
    )
    .await
}

impl Outbox {
    /// Queues the public part of `reply` for the channel at `place`, for when it could not be
    /// given as the answer to the command that made it.
    pub async fn announce_later(
        &self,
        place: Place,
        match_id: Option<MatchId>,
        reply: &Reply,
    ) -> Result<()> {
        let mut tx = self.store.begin().await?;
        queue_reply(&mut tx, place, match_id, reply, self.clock.now()).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        Ok(())
    }

    /// Claims up to `limit` notices that are due and makes them ready to send. A reminder
    /// whose turn has been played since is dropped here, never sent.
    pub async fn claim_deliveries(&self, limit: i64) -> Result<Vec<Delivery>> {
        let now = self.clock.now();
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
        let stored: Stored = serde_json::from_value(notice.body.clone())
            .map_err(|e| ServiceError::System(format!("notice {} is damaged: {e}", notice.id)))?;
        let (settled, board, standings) = match &stored {
            Stored::Events(n) => (n.settled(), n.board, None),
            Stored::Worded(b) => (b.settled(), b.board, b.standings),
        };
        if let (Settled::ClosesThread, Recipient::Channel(thread)) = (settled, notice.to) {
            // A rematch played in it, or an analysis still being shown there: whatever lives
            // in the thread queues its close again when it ends.
            if self.store.thread_in_use(thread).await? {
                return Ok(None);
            }
        }
        if let (Settled::ReopensThread, Recipient::Channel(thread)) = (settled, notice.to) {
            // Nothing lives in it any more: it stays archived.
            if !self.store.thread_in_use(thread).await? {
                return Ok(None);
            }
        }
        if let Settled::WhileTurn {
            player,
            turn_started_at,
        } = settled
        {
            let m = match notice.match_id {
                Some(id) => self.store.load_match(id).await?,
                None => None,
            };
            let still_due = m.and_then(|m| m.clock).is_some_and(|c| {
                c.player == player && c.turn_started_at == turn_started_at && c.paused_at.is_none()
            });
            if !still_due {
                return Ok(None);
            }
        }
        // Notices queued before readers were a column named their player in the body.
        let to = match &stored {
            Stored::Worded(NoticeBody { dm: Some(p), .. }) => Recipient::Dm(*p),
            _ => notice.to,
        };
        let m = match notice.match_id.or(board.map(|b| b.match_id)) {
            Some(id) => self.store.load_match(id).await?,
            None => None,
        };
        let mut reply = match &stored {
            Stored::Events(n) => {
                let reader = match (to, &m) {
                    (Recipient::Dm(_), Some(m)) => Reader::Dm {
                        play_at: Some((m.id, self.where_to_play(m, board).await?)),
                    },
                    (Recipient::Dm(_), None) => Reader::Dm { play_at: None },
                    (Recipient::Channel(_), _) => Reader::Channel,
                };
                let mut reply = word(&self.store, &n.events, &reader).await?;
                reply.board = board;
                for &player in &n.ping {
                    reply = reply.mention(player);
                }
                reply
            }
            Stored::Worded(b) => {
                let mut reply = b.reply();
                if let (Recipient::Dm(_), Some(m), Some(_)) = (to, &m, board) {
                    // Turn notices queued before were worded without their link.
                    let url = self.where_to_play(m, board).await?;
                    reply.text = reply.text.then(voice::play_here(&Some((m.id, url))));
                }
                reply
            }
        };
        if let (Some(shot), Some(m)) = (board, &m) {
            let names = Names(self.store.names(&m.players).await?);
            // A direct message shows the board as its reader likes it.
            let settings = match to {
                Recipient::Dm(player) => self.store.settings(player).await?,
                Recipient::Channel(_) => Settings::default(),
            };
            if let Some(board) = board_at(m, &names, shot, &settings) {
                reply = finish_drawing(start_drawing(&self.renderer, board))
                    .await?
                    .onto(reply);
            }
        }
        if let Some(id) = standings {
            // Queued before notices were events: the standings after the round just played.
            if let Some(t) = self.store.tournament(id).await? {
                let round = match t.state {
                    crate::store::TournamentState::Finished => t.current_round,
                    _ => t.current_round.saturating_sub(1).max(1),
                };
                if let Some((_, (filename, png))) = standings_after(&self.store, id, round).await? {
                    reply = reply.attach(filename, png);
                }
            }
        }
        Ok(Some(Delivery {
            id: notice.id,
            guild: notice.guild,
            to,
            match_id: notice.match_id,
            reply,
            nonce: format!("n{}", notice.id),
            attempt: notice.attempts,
            closes_thread: settled == Settled::ClosesThread,
            reopens_thread: settled == Settled::ReopensThread,
            shows_field: match settled {
                Settled::ShowsField(tournament) => Some(tournament),
                _ => None,
            },
            shows_analysis: match settled {
                Settled::ShowsAnalysis(id) => Some(id),
                _ => None,
            },
            clears_room: match &stored {
                Stored::Events(n) => n.room_wanted().map(str::to_string),
                Stored::Worded(_) => None,
            },
            stored,
        }))
    }

    /// Where match `m` is played, for a direct message: the message showing `board` when the
    /// front-end saw it posted, else the match's channel.
    async fn where_to_play(
        &self,
        m: &crate::store::StoredMatch,
        board: Option<BoardShot>,
    ) -> Result<String> {
        let posted = match board {
            Some(shot) => self.store.board_post(shot.key()).await?,
            None => None,
        };
        Ok(match posted {
            Some((channel, message)) => message_link(m.guild, channel, message),
            None => channel_link(m.guild, m.channel),
        })
    }

    /// The board `shot` was shown in `channel`, as message `message` where the front-end has
    /// ids: direct messages about it link there, and those waiting for it go now.
    pub async fn board_posted(
        &self,
        channel: crate::store::ChannelId,
        shot: BoardShot,
        message: Option<u64>,
    ) -> Result<()> {
        self.store
            .board_posted(shot.key(), channel, message, self.clock.now())
            .await?;
        self.outbox_signal.notify_waiters();
        Ok(())
    }

    /// The notice was claimed and not tried: it is given back, to be claimed again.
    pub(in crate::service) async fn release(&self, delivery: &Delivery) -> Result<()> {
        Ok(self.store.release_notice(delivery.id).await?)
    }

    /// The notice was posted.
    pub async fn delivered(&self, delivery: &Delivery) -> Result<()> {
        let now = self.clock.now();
        self.store
            .finish_notice(delivery.id, NoticeState::Delivered, None, now)
            .await?;
        Ok(())
    }

    /// The post failed: tried again later, or, when Discord will never take it, marked
    /// undeliverable (a direct message goes to the channel instead).
    pub(in crate::service) async fn delivery_failed(
        &self,
        delivery: &Delivery,
        failure: &DeliveryFailure,
    ) -> Result<()> {
        let now = self.clock.now();
        match failure {
            DeliveryFailure::Transient {
                reason,
                retry_after,
            } => {
                let wait = pause_before_retry(delivery.attempt, *retry_after);
                self.store
                    .retry_notice(delivery.id, now + wait, reason)
                    .await?;
            }
            DeliveryFailure::Permanent { reason } if matches!(delivery.to, Recipient::Dm(_)) => {
                self.dm_refused(delivery, reason).await?;
            }
            // What a refusal does to its match (its clock paused) is done above the outbox,
            // by `Channels::delivery_failed`, before the notice is settled here.
            DeliveryFailure::Permanent { reason } => {
                self.store
                    .finish_notice(delivery.id, NoticeState::Undeliverable, Some(reason), now)
                    .await?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notice_reads_back_and_so_does_one_worded_before() {
        let at = DateTime::from_timestamp(1_800_000_000, 0).unwrap_or_default();
        let notice = Notice::new(
            vec![Event::ReminderDue {
                match_id: MatchId(3),
                guild: GuildId(1),
                player: UserId(7),
                turn_started_at: at,
                deadline: at,
                half_time: true,
            }],
            Some(BoardShot {
                match_id: MatchId(3),
                battle: 2,
                plies: 41,
            }),
        );
        let value = serde_json::to_value(&notice).unwrap_or_default();
        assert_eq!(value["events"][0]["event"], "reminder-due");
        let Ok(Stored::Events(back)) = serde_json::from_value::<Stored>(value) else {
            panic!("not read back as events");
        };
        assert_eq!(back, notice);
        assert_eq!(
            back.settled(),
            Settled::WhileTurn {
                player: UserId(7),
                turn_started_at: at
            }
        );

        // As this version's predecessor queued a reminder by DM.
        let worded = serde_json::json!({
            "kind": "reminder", "player": 7, "turn_started_at": at,
            "text": [{"span": "plain", "value": "a reminder"}],
            "mentions": [7], "board": null,
            "buttons": [{"action": "thud:rematch:3", "label": "Rematch", "style": "primary"}],
            "dm": 7
        });
        let Ok(Stored::Worded(body)) = serde_json::from_value::<Stored>(worded) else {
            panic!("not read back as a worded notice");
        };
        assert_eq!(body.dm, Some(UserId(7)));
        assert_eq!(body.reply().text.to_string(), "a reminder");
        assert_eq!(body.reply().buttons.len(), 1);
        assert_eq!(
            body.settled(),
            Settled::WhileTurn {
                player: UserId(7),
                turn_started_at: at
            }
        );
    }
}

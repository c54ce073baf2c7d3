//! Who is told, and how: the player whose turn it is hears of it in the channel (pinged), by
//! direct message, or both, as their settings (`/thud settings notify:`) ask; a direct
//! message Discord will not deliver falls back to the channel.

use super::Outbox;
use crate::service::error::Result;
use crate::service::events::Event;
use crate::service::notices::delivery::{queue_events, Delivery, Notice};
use crate::service::notices::worded::{queue, NoticeBody};
use crate::service::outcome::{BoardShot, Reply};
use crate::service::voice;
use crate::service::Place;
use crate::store::{MatchState, NoticeState, Recipient, StoredMatch, Tx, UserId};

impl Outbox {
    /// A direct message Discord will never take (the player's DMs are closed: 50007): for a
    /// player who hears of their turn by DM only, what it said of their turn goes to the
    /// match's channel instead, pinging them, and the first time it also says how to open
    /// their DMs.
    pub(in crate::service) async fn dm_refused(
        &self,
        delivery: &Delivery,
        reason: &str,
    ) -> Result<()> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        if let (Recipient::Dm(player), Some(id)) = (delivery.to, delivery.match_id) {
            let only_dm = !tx.settings(player).await?.notify.in_channel();
            let m = tx.lock_match(id).await?;
            if let Some(m) = m.filter(|m| only_dm && m.state == MatchState::Active) {
                let hint = tx.note_dm_hint(player, now).await?;
                let place = Place {
                    guild: m.guild,
                    channel: m.channel,
                };
                match delivery.notice() {
                    Some(notice) => {
                        // The channel has heard the rest (the move, the battle's end).
                        let mut events: Vec<Event> = notice
                            .events
                            .iter()
                            .filter(|e| {
                                matches!(e, Event::TurnStarted { .. } | Event::ReminderDue { .. })
                            })
                            .cloned()
                            .collect();
                        if hint {
                            events.push(Event::DmsClosed { player });
                        }
                        let notice = Notice::new(events, None).pinging(Some(player));
                        let to = (m.guild, Recipient::Channel(m.channel));
                        queue_events(&mut tx, to, Some(m.id), &notice, now).await?;
                    }
                    None => {
                        let reply = worded_in_channel(&mut tx, delivery, player, hint).await?;
                        let body = NoticeBody::new(
                            crate::service::notices::worded::NoticeKind::Announcement,
                            &reply,
                        );
                        queue(&mut tx, place, Some(m.id), &body, now).await?;
                    }
                }
            }
        }
        tx.commit().await?;
        self.store
            .finish_notice(delivery.id, NoticeState::Undeliverable, Some(reason), now)
            .await?;
        self.outbox_signal.notify_waiters();
        Ok(())
    }
}

/// Tells the player whose turn `events` start (if any) in match `m`: by direct message,
/// with everything `events` say and `board`, if their settings ask for one. Returns who
/// the channel message should ping.
pub(in crate::service) async fn tell_turn(
    tx: &mut Tx,
    m: &StoredMatch,
    events: &[Event],
    board: Option<BoardShot>,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<Option<UserId>> {
    let Some(player) = events.iter().find_map(|e| match e {
        Event::TurnStarted { player, .. } => Some(*player),
        _ => None,
    }) else {
        return Ok(None);
    };
    tell(tx, (m.guild, m.id), player, events, board, now).await
}

/// Tells `player` of `events` about match `match_id` (on server `guild`) as their settings ask:
/// by direct message, with `board`, if they chose one. Returns them when the channel's message
/// should ping them too.
pub(in crate::service) async fn tell(
    tx: &mut Tx,
    (guild, match_id): (crate::store::GuildId, crate::store::MatchId),
    player: UserId,
    events: &[Event],
    board: Option<BoardShot>,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<Option<UserId>> {
    let notify = tx.settings(player).await?.notify;
    if notify.by_dm() {
        let notice = Notice::new(events.to_vec(), board);
        queue_events(
            tx,
            (guild, Recipient::Dm(player)),
            Some(match_id),
            &notice,
            now,
        )
        .await?;
    }
    Ok(notify.in_channel().then_some(player))
}

/// A direct message worded when it was queued (by an earlier version), for the channel:
/// addressed to `player`, with the hint on opening DMs when `hint`.
async fn worded_in_channel(
    tx: &mut Tx,
    delivery: &Delivery,
    player: UserId,
    hint: bool,
) -> Result<Reply> {
    let name = tx
        .names(&[player])
        .await?
        .remove(&player)
        .unwrap_or_default();
    let text = voice::dm_said_in_channel(player, name, delivery.reply.text.clone(), hint);
    let mut reply = Reply::public(text).mention(player);
    reply.board = delivery.reply.board;
    Ok(reply)
}

/// The board of `m` as it stands: its current battle after the moves played so far.
pub(in crate::service) fn current_board(m: &StoredMatch) -> BoardShot {
    let battles = m.game.battles();
    BoardShot {
        match_id: m.id,
        battle: battles.len() as u8,
        plies: battles.last().map_or(0, |b| b.moves().len() as u32),
    }
}

//! Turn notices by direct message, for players who chose them (`/thud settings notify:`), and
//! the fall back to the channel when Discord will not deliver them.

use chrono::{DateTime, Utc};

use crate::service::error::Result;
use crate::service::notices::delivery::{queue, Delivery, NoticeBody, NoticeKind};
use crate::service::outcome::BoardShot;
use crate::service::outcome::Reply;
use crate::service::text::Text;
use crate::service::{Place, Service};
use crate::store::{ChannelId, GuildId, MatchId, MatchState, NoticeState, StoredMatch, Tx, UserId};

impl Service {
    /// Tells `player` by direct message that it is their move in `m` (`said` says what
    /// happened; `board` is the board to show; the turn's deadline is `deadline`), if their
    /// settings ask for one. Returns whether the channel message should ping them.
    pub(in crate::service) async fn tell_turn(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        player: UserId,
        said: Text,
        board: Option<BoardShot>,
        deadline: DateTime<Utc>,
    ) -> Result<bool> {
        let notify = tx.settings(player).await?.notify;
        if notify.by_dm() {
            let text = said
                .line()
                .plain(format!(
                    "It is your move in match #{} ({}). Deadline ",
                    m.id,
                    m.variant.title()
                ))
                .time(deadline)
                .plain(" (")
                .relative(deadline)
                .plain(").");
            let mut reply = Reply::public(text);
            reply.board = board;
            let kind = NoticeKind::Announcement;
            queue_dm(tx, (m.guild, m.id), player, kind, &reply, self.now()).await?;
        }
        Ok(notify.in_channel())
    }

    /// Starts telling the player to move next, `next` (if any), of their turn after `lines`
    /// were said in match `m`: by direct message if they chose it. Returns who the channel
    /// message should ping.
    pub(in crate::service) async fn tell_next(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        next: Option<UserId>,
        lines: &[Text],
    ) -> Result<Option<UserId>> {
        let Some(next) = next else {
            return Ok(None);
        };
        let deadline = crate::service::turn_clock(next, self.now(), m.days_per_move).deadline;
        let said = without_ping(lines);
        let ping = self
            .tell_turn(tx, m, next, said, Some(current_board(m)), deadline)
            .await?;
        Ok(ping.then_some(next))
    }

    /// A direct message Discord will never take (the player's DMs are closed: 50007): for a
    /// player who hears of their turn by DM only, the notice goes to the match's channel
    /// instead, pinging them, and the first time it also says how to open their DMs.
    pub(in crate::service) async fn dm_refused(
        &self,
        delivery: &Delivery,
        reason: &str,
    ) -> Result<()> {
        let now = self.now();
        let mut tx = self.store.begin().await?;
        if let (Some(player), Some(id)) = (delivery.dm, delivery.match_id) {
            let only_dm = !tx.settings(player).await?.notify.in_channel();
            let m = tx.lock_match(id).await?;
            if let Some(m) = m.filter(|m| only_dm && m.state == MatchState::Active) {
                let name = tx
                    .names(&[player])
                    .await?
                    .remove(&player)
                    .unwrap_or_default();
                let mut text = Text::new()
                    .player(player, name)
                    .plain(": ")
                    .then(delivery.reply.text.clone());
                if tx.note_dm_hint(player, now).await? {
                    text = text
                        .plain(
                            "\n(I could not send you this as a direct message: Discord refused it. \
                             To get turn notices by DM, allow direct messages from members of this server \
                             in its Privacy Settings; or choose ",
                        )
                        .code("/thud settings notify:channel")
                        .plain(".)");
                }
                let mut reply = Reply::public(text).mention(player);
                reply.board = delivery.reply.board;
                let place = Place {
                    guild: m.guild,
                    channel: m.channel,
                };
                let body = NoticeBody::new(delivery.kind, &reply);
                queue(&mut tx, place, Some(m.id), &body, now).await?;
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

/// Queues `reply` as a direct message to `player` about match `m`. A player's direct messages
/// are queued in order under their own id, apart from every channel's.
pub(in crate::service) async fn queue_dm(
    tx: &mut Tx,
    (guild, match_id): (GuildId, MatchId),
    player: UserId,
    kind: NoticeKind,
    reply: &Reply,
    now: DateTime<Utc>,
) -> Result<()> {
    let mut body = NoticeBody::new(kind, reply);
    body.dm = Some(player);
    let place = Place {
        guild,
        channel: ChannelId(player.0),
    };
    queue(tx, place, Some(match_id), &body, now).await
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

/// The lines of an announcement to repeat in a direct message: all but the last, which pings
/// the player to move in the channel.
pub(in crate::service) fn without_ping(lines: &[Text]) -> Text {
    Text::lines(lines[..lines.len().saturating_sub(1)].iter().cloned())
}

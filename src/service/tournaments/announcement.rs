//! A tournament's announcement, shown again as its field changes: the front-end records the
//! message that announced it, and every change to the field (a join, a leave, the start, the
//! end) queues a showing in the outbox, in the change's own transaction, which the delivery
//! worker makes by editing that message. So the channel shows how many have joined without a
//! line for each join, and a showing is retried, leased and ordered as every notice is.

use chrono::{DateTime, Utc};

use super::Tournaments;
use crate::service::error::Result;
use crate::service::events::{Entrants, Event, TournamentEvent};
use crate::service::notices::delivery::queue_effect;
use crate::service::voice::Reader;
use crate::service::wording::word;
use crate::service::Reply;
use crate::store::{ChannelId, Recipient, StoredTournament, TournamentId, TournamentState, Tx};

/// A tournament's announcement as it should read now, and the message to edit.
#[derive(Debug)]
pub struct Announcement {
    pub channel: ChannelId,
    pub message: u64,
    pub reply: Reply,
}

impl Tournaments {
    /// `message` announced tournament `id` (the answer to its creation). Players who joined
    /// before the message was known are shown on it now.
    pub async fn announced(&self, id: TournamentId, message: u64) -> Result<()> {
        self.store.set_tournament_announcement(id, message).await?;
        let mut tx = self.store.begin().await?;
        if let Some(t) = tx.lock_tournament(id).await? {
            if !tx.entrants(id).await?.is_empty() {
                show_field(&mut tx, &t, self.clock.now()).await?;
            }
        }
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        Ok(())
    }

    /// `new` announces tournament `id` in place of message `old`, which somebody deleted.
    pub async fn announced_anew(&self, id: TournamentId, old: u64, new: u64) -> Result<()> {
        Ok(self
            .store
            .replace_tournament_announcement(id, old, new)
            .await?)
    }

    /// Tournament `id`'s announcement as it should read now (its field's size, and the Join
    /// button only while it takes players); `None` when no announcement of it was recorded.
    pub async fn announcement_of(&self, id: TournamentId) -> Result<Option<Announcement>> {
        let Some(t) = self.store.tournament(id).await? else {
            return Ok(None);
        };
        let Some(message) = self.store.tournament_announcement(id).await? else {
            return Ok(None);
        };
        let channel = t.channel;
        let mut tx = self.store.begin().await?;
        let players = tx.entrants(id).await?.len() as u32;
        tx.rollback().await?;
        let entrants = match t.state {
            TournamentState::Open => Entrants::SoFar(players),
            TournamentState::Running | TournamentState::Finished => Entrants::Closed(players),
            TournamentState::Cancelled => Entrants::CalledOff,
        };
        let created = Event::Tournament(TournamentEvent::Created {
            id,
            name: t.name,
            format: t.format,
            variant: t.variant,
            days_per_move: t.days_per_move,
            round_days: t.round_days,
            starts_at: t.starts_at,
            entrants: Some(entrants),
        });
        let mut reply = word(&self.store, &[created], &Reader::Channel).await?;
        if t.state != TournamentState::Open {
            reply.buttons.clear();
        }
        Ok(Some(Announcement {
            channel,
            message,
            reply,
        }))
    }
}

/// Queues a showing of `t`'s announcement as it will read when delivered, unless one is
/// queued and not yet taken up (that one will show this change too: latest wins).
pub(super) async fn show_field(
    tx: &mut Tx,
    t: &StoredTournament,
    now: DateTime<Utc>,
) -> Result<()> {
    let to = (t.guild, Recipient::Channel(t.channel));
    let shown = Event::FieldChanged { tournament: t.id };
    queue_effect(tx, to, (None, shown), now).await
}

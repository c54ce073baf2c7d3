//! A tournament's announcement, shown again as its field changes: the front-end records the
//! message that announced it and edits that message when players join or leave and when it
//! starts, so the channel shows how many have joined without a line for each join.

use super::rounds::told;
use super::Tournaments;
use crate::service::error::Result;
use crate::service::events::{Entrants, TournamentEvent};
use crate::service::voice::Reader;
use crate::service::wording::word;
use crate::service::Reply;
use crate::store::{ChannelId, TournamentId, TournamentState};

/// A tournament's announcement as it should read now, and the message to edit.
#[derive(Debug)]
pub struct Announcement {
    pub tournament: TournamentId,
    pub channel: ChannelId,
    pub message: u64,
    /// The players who have joined.
    pub players: u32,
    pub reply: Reply,
}

impl Tournaments {
    /// `message` announced tournament `id` (the answer to its creation).
    pub async fn announced(&self, id: TournamentId, message: u64) -> Result<()> {
        Ok(self.store.set_tournament_announcement(id, message).await?)
    }

    /// `new` announces tournament `id` in place of message `old`, which somebody deleted.
    pub async fn announced_anew(&self, id: TournamentId, old: u64, new: u64) -> Result<()> {
        Ok(self
            .store
            .replace_tournament_announcement(id, old, new)
            .await?)
    }

    /// The announcement of the latest tournament in `channel` as it should read now (its
    /// field's size, and the Join button only while it takes players); `None` when no
    /// announcement of it was recorded.
    pub async fn announcement_in(&self, channel: ChannelId) -> Result<Option<Announcement>> {
        let Some((id, message)) = self.store.tournament_announcement_in(channel).await? else {
            return Ok(None);
        };
        let Some(t) = self.store.tournament(id).await? else {
            return Ok(None);
        };
        let mut tx = self.store.begin().await?;
        let players = tx.entrants(id).await?.len() as u32;
        tx.rollback().await?;
        let entrants = match t.state {
            TournamentState::Open => Entrants::SoFar(players),
            TournamentState::Running | TournamentState::Finished => Entrants::Closed(players),
            TournamentState::Cancelled => Entrants::CalledOff,
        };
        let created = told(TournamentEvent::Created {
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
            tournament: id,
            channel,
            message,
            players,
            reply,
        }))
    }
}

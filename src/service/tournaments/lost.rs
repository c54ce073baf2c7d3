//! A tournament whose channel was deleted, or whose server removed the bot, cannot seat a game
//! or announce a round any more: it is called off, as its matches are paused, and its
//! organiser is told by direct message (the channel is gone).

use super::lifecycle::stop_matches;
use super::rounds::told;
use super::Tournaments;
use crate::service::error::Result;
use crate::service::events::TournamentEvent;
use crate::service::notices::delivery::{queue_events, Notice};
use crate::store::{ChannelId, GuildId, Recipient, TournamentState};

impl Tournaments {
    /// Calls off the open or running tournaments of `channel`, or of every channel of `guild`,
    /// because `why` (its channel was deleted, the bot was removed); returns how many.
    pub(in crate::service) async fn tournaments_lost(
        &self,
        guild: Option<GuildId>,
        channel: Option<ChannelId>,
        why: &str,
    ) -> Result<usize> {
        let mut ids = Vec::new();
        if let Some(guild) = guild {
            ids.extend(self.store.tournaments_of_guild(guild).await?);
        }
        if let Some(channel) = channel {
            ids.extend(
                self.store
                    .latest_tournament_in(channel)
                    .await?
                    .map(|t| t.id),
            );
        }
        let now = self.clock.now();
        let mut lost = 0;
        for id in ids {
            let mut tx = self.store.begin().await?;
            let Some(t) = tx.lock_tournament(id).await? else {
                continue;
            };
            if !matches!(t.state, TournamentState::Open | TournamentState::Running) {
                continue;
            }
            let stopped = stop_matches(&self.matches, &mut tx, &t, None).await?;
            tx.end_tournament(t.id, TournamentState::Cancelled, Some(why), now)
                .await?;
            let notice = Notice::new(
                vec![told(TournamentEvent::Lost {
                    name: t.name.clone(),
                    why: why.to_string(),
                    stopped,
                })],
                None,
            );
            queue_events(
                &mut tx,
                (t.guild, Recipient::Dm(t.organiser)),
                None,
                &notice,
                now,
            )
            .await?;
            tx.commit().await?;
            lost += 1;
        }
        if lost > 0 {
            self.outbox_signal.notify_waiters();
        }
        Ok(lost)
    }
}

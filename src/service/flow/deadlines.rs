//! What the clock decides in a match: challenges left unanswered too long expire, and a
//! player who let the deadline pass by the operator's grace forfeits (or, never having moved,
//! the match is aborted). The clock's driver (`watch/timekeeping.rs`) calls these; each item
//! is locked, decided and announced in one transaction, so several processes never double it.

use chrono::{DateTime, Utc};

use crate::service::error::Result;
use crate::service::events::Event;
use crate::service::flow::Matches;
use crate::service::notices::delivery::{queue_events, queue_thread_close, Notice};
use crate::service::Place;
use crate::store::{Finish, Recipient};

/// Items claimed per round trip; a round returning fewer means everything due is done.
const BATCH: i64 = 100;

impl Matches {
    /// Expires the challenges open past their time; returns how many.
    pub(in crate::service) async fn expire_challenges(&self, now: DateTime<Utc>) -> Result<usize> {
        let mut count = 0;
        loop {
            let mut tx = self.store.begin().await?;
            let expired = tx.expire_challenges(now, BATCH).await?;
            for c in &expired {
                let notice = Notice::new(
                    vec![Event::ChallengeExpired {
                        challenger: c.challenger,
                        opponent: c.opponent,
                    }],
                    None,
                );
                let to = (c.guild, Recipient::Channel(c.channel));
                queue_events(&mut tx, to, None, &notice, now).await?;
                queue_thread_close(&mut tx, c.guild, c.channel, now).await?;
            }
            tx.commit().await?;
            count += expired.len();
            if (expired.len() as i64) < BATCH {
                break;
            }
        }
        Ok(count)
    }

    /// Decides the matches whose player to move let the deadline pass before `late_since`;
    /// returns how many.
    pub(in crate::service) async fn forfeit_overdue(
        &self,
        late_since: DateTime<Utc>,
    ) -> Result<usize> {
        let now = self.clock.now();
        let mut count = 0;
        loop {
            let mut tx = self.store.begin().await?;
            let overdue = tx.lock_overdue_matches(late_since, 1).await?;
            let Some(&id) = overdue.first() else {
                break;
            };
            let Some(m) = tx.lock_match(id).await? else {
                break;
            };
            // The candidate was read before the lock: a move may have started a new turn
            // since, whose player is not late.
            let Some(clock) = m.clock.filter(|c| c.deadline <= late_since) else {
                tx.rollback().await?;
                continue;
            };
            let Some(loser) = m.game.seat_to_move() else {
                tx.rollback().await?;
                break;
            };
            let place = Place {
                guild: m.guild,
                channel: m.channel,
            };
            let match_id = m.id;
            let said = match self
                .abort_if_never_moved(&mut tx, &m, m.player(loser))
                .await?
            {
                Some(aborted) => aborted,
                None => {
                    let opening = Event::DeadlineMissed {
                        player: m.player(loser),
                        deadline: clock.deadline,
                        round_over: false,
                    };
                    self.forfeit(&mut tx, m, loser, Finish::Timeout, opening)
                        .await?
                }
            };
            let to = (place.guild, Recipient::Channel(place.channel));
            queue_events(&mut tx, to, Some(match_id), &said.notice(), now).await?;
            tx.commit().await?;
            count += 1;
        }
        Ok(count)
    }
}

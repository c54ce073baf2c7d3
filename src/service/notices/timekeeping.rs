//! The clock's work: expiring challenges, two reminders per turn, and forfeits after a missed
//! deadline when the operator turned them on. Safe to run in several bot processes at once:
//! the store hands each due item to exactly one of them, and the notice announcing it is
//! queued in the same transaction, so it is neither lost nor doubled.

use crate::service::error::Result;
use crate::service::events::Event;
use crate::service::notices::delivery::{queue_events, queue_reply, Notice};
use crate::service::notices::notify::tell;
use crate::service::{Place, Service};
use crate::store::{Finish, Recipient};

/// Items claimed per round trip; a round returning fewer means everything due is done.
const BATCH: i64 = 100;

/// What one tick of the clock did; its notices are in the outbox.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TickReport {
    pub expired_challenges: usize,
    pub reminders: usize,
    pub forfeits: usize,
    pub vacations_ended: usize,
    /// Tournament rounds paired and tournaments ended.
    pub tournaments: crate::service::TournamentTick,
}

impl TickReport {
    /// Whether anything was queued.
    pub fn queued_any(&self) -> bool {
        self.expired_challenges + self.reminders + self.forfeits + self.vacations_ended > 0
    }
}

impl Service {
    /// Does everything that is due now, including anything missed while the bot was down,
    /// and queues what to announce.
    pub async fn tick(&self) -> Result<TickReport> {
        let now = self.now();
        let mut report = TickReport::default();

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
            }
            tx.commit().await?;
            report.expired_challenges += expired.len();
            if (expired.len() as i64) < BATCH {
                break;
            }
        }

        // Vacations first: a clock that runs again may have a reminder due.
        report.vacations_ended = self.end_vacations_due(now).await?;

        loop {
            let mut tx = self.store.begin().await?;
            let due = tx.claim_due_reminders(now, BATCH).await?;
            for r in &due {
                let reminder = Event::ReminderDue {
                    match_id: r.match_id,
                    guild: r.guild,
                    player: r.player,
                    turn_started_at: r.turn_started_at,
                    deadline: r.deadline,
                    half_time: r.deadline - now > chrono::Duration::hours(25),
                };
                // Reminders follow the player's choice of channel, direct message or both.
                let events = [reminder];
                let about = (r.guild, r.match_id);
                if let Some(ping) = tell(&mut tx, about, r.player, &events, None, now).await? {
                    let notice = Notice::new(events.to_vec(), None).pinging(Some(ping));
                    let to = (r.guild, Recipient::Channel(r.channel));
                    queue_events(&mut tx, to, Some(r.match_id), &notice, now).await?;
                }
            }
            tx.commit().await?;
            report.reminders += due.len();
            if (due.len() as i64) < BATCH {
                break;
            }
        }

        if let Some(grace) = self.config.auto_forfeit_after {
            loop {
                let mut tx = self.store.begin().await?;
                let overdue = tx.lock_overdue_matches(now - grace, 1).await?;
                let Some(&id) = overdue.first() else {
                    break;
                };
                let Some(m) = tx.lock_match(id).await? else {
                    break;
                };
                // The candidate was read before the lock: a move may have started a new turn
                // since, whose player is not late.
                let Some(clock) = m.clock.filter(|c| c.deadline <= now - grace) else {
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
                let reply = match self
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
                queue_reply(&mut tx, place, Some(match_id), &reply, now).await?;
                tx.commit().await?;
                report.forfeits += 1;
            }
        }
        report.tournaments = self.tick_tournaments().await?;
        if report.queued_any() {
            self.outbox_signal.notify_waiters();
        }
        Ok(report)
    }
}

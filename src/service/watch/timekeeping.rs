//! The clock's work: expiring challenges, two reminders per turn, and forfeits after a missed
//! deadline when the operator turned them on. Safe to run in several bot processes at once:
//! the store hands each due item to exactly one of them, and the notice announcing it is
//! queued in the same transaction, so it is neither lost nor doubled.

use std::sync::Arc;

use tokio::sync::{watch, Notify};

use crate::service::error::Result;
use crate::service::events::Event;
use crate::service::flow::Matches;
use crate::service::notices::delivery::{queue_events, Notice};
use crate::service::notices::notify::tell;
use crate::service::tournaments::Tournaments;
use crate::service::{Clock, ServiceConfig};
use crate::store::{Recipient, Store};

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

/// The clock's driver: what is due on the clock, done through the concerns it belongs to.
pub(crate) struct Timekeeper {
    store: Store,
    clock: Arc<dyn Clock>,
    config: ServiceConfig,
    outbox_signal: Arc<Notify>,
    matches: Arc<Matches>,
    tournaments: Arc<Tournaments>,
}

impl Timekeeper {
    pub(crate) fn new(
        store: Store,
        clock: Arc<dyn Clock>,
        config: ServiceConfig,
        outbox_signal: Arc<Notify>,
        (matches, tournaments): (Arc<Matches>, Arc<Tournaments>),
    ) -> Timekeeper {
        Timekeeper {
            store,
            clock,
            config,
            outbox_signal,
            matches,
            tournaments,
        }
    }

    /// The clock worker: does the clock's work as it falls due, catching up after downtime;
    /// what it has to say goes to the outbox, which the delivery worker posts.
    pub(crate) async fn run(
        self: Arc<Self>,
        every: std::time::Duration,
        mut stop: watch::Receiver<bool>,
    ) {
        let mut interval = tokio::time::interval(every);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = interval.tick() => {}
                _ = stop.changed() => return,
            }
            if let Err(e) = self.tick().await {
                tracing::warn!(error = %e, "the clock could not run; trying again");
            }
        }
    }

    /// Does everything that is due now, including anything missed while the bot was down,
    /// and queues what to announce.
    pub async fn tick(&self) -> Result<TickReport> {
        let now = self.clock.now();
        let mut report = TickReport {
            expired_challenges: self.matches.expire_challenges(now).await?,
            // Vacations before reminders: a clock that runs again may have a reminder due.
            vacations_ended: self.matches.end_vacations_due(now).await?,
            ..TickReport::default()
        };

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
            report.forfeits = self.matches.forfeit_overdue(now - grace).await?;
        }
        report.tournaments = self.tournaments.tick().await?;
        if report.queued_any() {
            self.outbox_signal.notify_waiters();
        }
        Ok(report)
    }
}

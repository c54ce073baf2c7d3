//! The clock's work: expiring challenges, two reminders per turn, and forfeits after a missed
//! deadline when the operator turned them on. Safe to run in several bot processes at once:
//! the store hands each due item to exactly one of them, and the notice announcing it is
//! queued in the same transaction, so it is neither lost nor doubled.

use crate::service::error::Result;
use crate::service::notices::delivery::{queue, NoticeBody, NoticeKind};
use crate::service::notices::notify::queue_dm;
use crate::service::outcome::{channel_link, Reply};
use crate::service::text::Text;
use crate::service::{names_in, Names, Place, Service};
use crate::store::Finish;

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
                let names = Names(tx.names(&[c.challenger, c.opponent]).await?);
                let reply = Reply::public(format!(
                    "{}'s challenge to {} has expired.",
                    names.of(c.challenger),
                    names.of(c.opponent)
                ));
                let place = Place {
                    guild: c.guild,
                    channel: c.channel,
                };
                let body = NoticeBody::new(NoticeKind::ChallengeExpired, &reply);
                queue(&mut tx, place, None, &body, now).await?;
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
                let left = if r.deadline - now > chrono::Duration::hours(25) {
                    "half of your time for it has passed"
                } else {
                    "less than a day is left"
                };
                let said = |opening: &str| {
                    Text::from(format!(
                        "{opening} reminder: it is your move in match #{}, and {left}. The deadline is ",
                        r.match_id
                    ))
                    .time(r.deadline)
                    .plain(" (")
                    .relative(r.deadline)
                    .plain("); after it your opponent may claim the match.")
                };
                let kind = NoticeKind::Reminder {
                    player: r.player,
                    turn_started_at: r.turn_started_at,
                };
                // Reminders follow the player's choice of channel, direct message or both.
                let notify = tx.settings(r.player).await?.notify;
                if notify.by_dm() {
                    let text = said("A").plain(" Play it in ").link(
                        format!("match #{}'s channel", r.match_id),
                        channel_link(r.guild, r.channel),
                    );
                    let reply = Reply::public(text.plain("."));
                    queue_dm(&mut tx, (r.guild, r.match_id), r.player, kind, &reply, now).await?;
                }
                if notify.in_channel() {
                    let name = Names(tx.names(&[r.player]).await?).of(r.player);
                    let text = Text::new()
                        .player(r.player, name)
                        .plain(", ")
                        .then(said("a"));
                    let reply = Reply::public(text).mention(r.player);
                    let place = Place {
                        guild: r.guild,
                        channel: r.channel,
                    };
                    let body = NoticeBody::new(kind, &reply);
                    queue(&mut tx, place, Some(r.match_id), &body, now).await?;
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
                let names = names_in(&mut tx, &m).await?;
                let place = Place {
                    guild: m.guild,
                    channel: m.channel,
                };
                let match_id = m.id;
                let late = names.of(m.player(loser));
                let reply = match self
                    .abort_if_never_moved(&mut tx, &m, m.player(loser))
                    .await?
                {
                    Some(aborted) => aborted,
                    None => {
                        let opening = Text::from(format!("{late} missed the deadline of "))
                            .time(clock.deadline)
                            .plain("; the match is forfeited.");
                        self.forfeit(&mut tx, m, loser, Finish::Timeout, opening)
                            .await?
                    }
                };
                let body = NoticeBody::new(NoticeKind::Forfeit, &reply);
                queue(&mut tx, place, Some(match_id), &body, now).await?;
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

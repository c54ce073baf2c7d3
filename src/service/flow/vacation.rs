//! Vacation: a player stops every clock of theirs for a while, within an allowance per year.
//!
//! The rules players see (also in the README and `/thud rules`): a vacation runs for the days asked (by default
//! all the allowance left) and ends by itself then, or earlier with `/thud vacation end`; only
//! the time actually taken counts against the allowance of any 365 days. While it runs, each
//! turn of theirs stands still, new turns included, and their deadlines move on by the time
//! away; their opponents' clocks run as usual. It cannot be started while one of their moves
//! is past its deadline. Both players of a match may be away at once: the match just waits.

use chrono::{DateTime, Duration, Utc};

use super::Matches;
use crate::service::error::{refuse, Result};
use crate::service::events::Event;
use crate::service::flow::told::{News, Told};
use crate::service::notices::delivery::{queue_events, Notice};
use crate::service::outcome::Reply;
use crate::service::refusal::Refusal;
use crate::service::text::duration_words;
use crate::service::Actor;
use crate::service::Names;
use crate::store::{MatchId, Recipient, StoreError, Tx, UserId};

impl Matches {
    /// `actor` goes on vacation for `days` (default: all the allowance left).
    pub async fn start_vacation(&self, actor: &Actor, days: Option<u32>) -> Result<Reply> {
        let now = self.clock.now();
        let allowance = self.config.vacation_per_year;
        if allowance <= Duration::zero() {
            return refuse(Refusal::VacationsOff);
        }
        if days == Some(0) {
            return refuse(Refusal::VacationTooShort);
        }
        let mut tx = self.store.begin().await?;
        let matches = tx.lock_matches_of(actor.id).await?;
        if let Some(v) = tx.vacation_of(actor.id).await? {
            return refuse(Refusal::OnVacationUntil(v.until));
        }
        if tx.has_overdue_turn(actor.id, now).await? {
            return refuse(Refusal::DeadlinePassed);
        }
        let left = allowance - tx.vacation_used(actor.id, now).await?;
        if left < Duration::hours(1) {
            return refuse(Refusal::VacationUsed {
                allowance: duration_words(allowance),
            });
        }
        let length = match days {
            Some(d) => {
                let asked = Duration::days(d.min(366) as i64);
                if asked > left {
                    return refuse(Refusal::VacationLeft {
                        left: duration_words(left),
                    });
                }
                asked
            }
            None => left,
        };
        let until = now + length;
        tx.save_player(&actor.player(), now).await?;
        match tx.start_vacation(actor.id, now, until).await {
            Ok(()) => {}
            // Another vacation began at the same moment: this one changes nothing.
            Err(StoreError::Conflict(_)) => return refuse(Refusal::OnVacation),
            Err(e) => return Err(e.into()),
        }
        let away = Event::Away {
            player: actor.id,
            until,
        };
        self.announce_to(&mut tx, &matches, away, now).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        let news = News::Away {
            until,
            matches: matches.len(),
            allowance,
        };
        Ok(Told::new(news, Names::default()).worded())
    }

    /// `actor` comes back early.
    pub async fn end_vacation(&self, actor: &Actor) -> Result<Reply> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let matches = tx.lock_matches_of(actor.id).await?;
        if tx.vacation_of(actor.id).await?.is_none() {
            return refuse(Refusal::NotOnVacation);
        }
        self.come_back(&mut tx, actor.id, &matches, now).await?;
        let left = self.config.vacation_per_year - tx.vacation_used(actor.id, now).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        let news = News::Back {
            left: left.max(Duration::zero()),
        };
        Ok(Told::new(news, Names::default()).worded())
    }

    /// Ends the vacations whose time is up; returns how many. Run by the clock.
    pub(in crate::service) async fn end_vacations_due(&self, now: DateTime<Utc>) -> Result<usize> {
        let mut ended = 0;
        let due = {
            let mut tx = self.store.begin().await?;
            let due = tx.vacations_over(now, 100).await?;
            tx.commit().await?;
            due
        };
        for v in due {
            let mut tx = self.store.begin().await?;
            let matches = tx.lock_matches_of(v.player).await?;
            // Another process, or the player, may have ended it since.
            if !tx
                .vacation_of(v.player)
                .await?
                .is_some_and(|still| still == v)
            {
                continue;
            }
            // It ended when it was due, however late the clock noticed.
            self.come_back(&mut tx, v.player, &matches, v.until).await?;
            tx.commit().await?;
            ended += 1;
        }
        if ended > 0 {
            self.outbox_signal.notify_waiters();
        }
        Ok(ended)
    }

    async fn come_back(
        &self,
        tx: &mut Tx,
        player: UserId,
        matches: &[MatchId],
        at: DateTime<Utc>,
    ) -> Result<()> {
        tx.end_vacation(player, at).await?;
        self.announce_to(tx, matches, Event::Back { player }, self.clock.now())
            .await
    }

    /// Tells the channel of each of `matches` of `event`.
    async fn announce_to(
        &self,
        tx: &mut Tx,
        matches: &[MatchId],
        event: Event,
        now: DateTime<Utc>,
    ) -> Result<()> {
        for id in matches {
            let Some(m) = tx.lock_match(*id).await? else {
                continue;
            };
            let notice = Notice::new(vec![event.clone()], None);
            let to = (m.guild, Recipient::Channel(m.channel));
            queue_events(tx, to, Some(m.id), &notice, now).await?;
        }
        Ok(())
    }
}

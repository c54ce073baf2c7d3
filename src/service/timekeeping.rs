//! The clock's work: expiring challenges, one reminder per turn, and forfeits after a missed
//! deadline when the operator turned them on. Safe to run in several bot processes at once:
//! the store hands each due item to exactly one of them.

use super::error::Result;
use super::outcome::{full_time, mention, relative_time, Notice, Reply};
use super::{names_in, Names, Service};
use crate::store::Finish;

/// Items claimed per round trip; a round returning fewer means everything due is done.
const BATCH: i64 = 100;

impl Service {
    /// Does everything that is due now, including anything missed while the bot was down, and
    /// returns what to announce.
    pub async fn tick(&self) -> Result<Vec<Notice>> {
        let now = self.now();
        let mut notices = Vec::new();

        for c in self.store.expire_challenges(now).await? {
            let names = Names(self.store.names(&[c.challenger, c.opponent]).await?);
            notices.push(Notice {
                guild: c.guild,
                channel: c.channel,
                reply: Reply::public(format!(
                    "{}'s challenge to {} has expired.",
                    names.of(c.challenger),
                    names.of(c.opponent)
                )),
            });
        }

        loop {
            let mut tx = self.store.begin().await?;
            let due = tx.claim_due_reminders(now, BATCH).await?;
            tx.commit().await?;
            for r in &due {
                notices.push(Notice {
                    guild: r.guild,
                    channel: r.channel,
                    reply: Reply::public(format!(
                        "{}, a reminder: it is your move in match #{}. The deadline is {} ({}); after it your opponent may claim the match.",
                        mention(r.player),
                        r.match_id,
                        full_time(r.deadline),
                        relative_time(r.deadline)
                    ))
                    .mention(r.player),
                });
            }
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
                let Some(loser) = m.game.seat_to_move() else {
                    break;
                };
                let names = names_in(&mut tx, &m).await?;
                let (guild, channel) = (m.guild, m.channel);
                let late = names.of(m.player(loser));
                let deadline = m.clock.map(|c| full_time(c.deadline)).unwrap_or_default();
                let reply = self
                    .forfeit(
                        tx,
                        m,
                        loser,
                        Finish::Timeout,
                        format!(
                            "{late} missed the deadline of {deadline}; the match is forfeited."
                        ),
                    )
                    .await?;
                notices.push(Notice {
                    guild,
                    channel,
                    reply,
                });
            }
        }
        Ok(notices)
    }
}

//! A round's deadline moves with its players' vacations, as a move's deadline does.
//!
//! The rule: each game still undecided gets the time during the round when at least one of
//! its two players was on vacation (counted once when both were away together); the round's
//! deadline moves on by the most any game got. Games run side by side, so two players away
//! one after the other in different games need one extension, not the sum of both. While a
//! player of an undecided game is still away, the deadline does not fall: their clocks stand
//! still, so the round waits for them, and moves on by their time away once they are back.

use chrono::{DateTime, Duration, Utc};

use super::Tournaments;
use crate::service::error::Result;
use crate::service::events::{Event, TournamentEvent};
use crate::store::{Entrant, StoredTournament, TimeAway, TournamentGame, Tx, UserId};
use crate::tournament::Pairing;

/// What the round's deadline, now passed, means once vacations are counted.
pub(super) enum RoundDue {
    /// The deadline stands: the undecided games are decided now.
    Now,
    /// A player of an undecided game is away: nothing is decided until they are back.
    Waits,
    /// Vacations moved the deadline on (the event says to when).
    MovesTo(Event),
}

impl Tournaments {
    /// Whether the round in play of `t`, whose stored deadline has passed, is due now.
    pub(super) async fn round_due(
        &self,
        tx: &mut Tx,
        t: &StoredTournament,
        entrants: &[Entrant],
        open: &[&TournamentGame],
    ) -> Result<RoundDue> {
        let now = self.clock.now();
        // A round paired before rounds kept this had no vacation counted: it stays as it was.
        let Some(paired_at) = tx.round_paired_at(t.id).await? else {
            return Ok(RoundDue::Now);
        };
        let players_of = |game: &TournamentGame| -> Vec<UserId> {
            let Pairing::Match { first, second } = game.pairing else {
                return Vec::new();
            };
            [first, second]
                .iter()
                .filter_map(|seed| entrants.get(*seed).map(|e| e.user))
                .collect()
        };
        let players: Vec<UserId> = open.iter().flat_map(|g| players_of(g)).collect();
        let away = tx.time_away(&players, paired_at, now).await?;
        if away.iter().any(|a| a.ended.is_none()) {
            return Ok(RoundDue::Waits);
        }
        let mut longest = (Duration::zero(), Vec::new());
        for game in open {
            let of_game = players_of(game);
            let spans: Vec<TimeAway> = away
                .iter()
                .filter(|a| of_game.contains(&a.player))
                .copied()
                .collect();
            let time = union_within(&spans, paired_at, now);
            if time > longest.0 {
                let mut who: Vec<UserId> = spans.iter().map(|a| a.player).collect();
                who.sort();
                who.dedup();
                longest = (time, who);
            }
        }
        let (extension, who) = longest;
        let moved = paired_at + Duration::days(i64::from(t.round_days)) + extension;
        if moved <= now {
            return Ok(RoundDue::Now);
        }
        tx.move_round_deadline(t.id, moved).await?;
        Ok(RoundDue::MovesTo(Event::Tournament(
            TournamentEvent::RoundDeadlineMoved {
                name: t.name.clone(),
                round: t.current_round,
                extension_seconds: extension.num_seconds(),
                players: who,
                to: moved,
            },
        )))
    }
}

/// How long, between `from` and `to`, at least one of `spans` ran (overlaps counted once).
fn union_within(spans: &[TimeAway], from: DateTime<Utc>, to: DateTime<Utc>) -> Duration {
    let mut pieces: Vec<(DateTime<Utc>, DateTime<Utc>)> = spans
        .iter()
        .map(|a| (a.started.max(from), a.ended.unwrap_or(to).min(to)))
        .filter(|(start, end)| start < end)
        .collect();
    pieces.sort();
    let mut total = Duration::zero();
    let mut covered: Option<(DateTime<Utc>, DateTime<Utc>)> = None;
    for (start, end) in pieces {
        covered = match covered {
            Some((s, e)) if start <= e => Some((s, e.max(end))),
            Some((s, e)) => {
                total += e - s;
                Some((start, end))
            }
            None => Some((start, end)),
        };
    }
    if let Some((s, e)) = covered {
        total += e - s;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn day(d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 1, d, 0, 0, 0).unwrap()
    }

    fn away(player: u64, from: u32, to: u32) -> TimeAway {
        TimeAway {
            player: UserId(player),
            started: day(from),
            ended: Some(day(to)),
        }
    }

    #[test]
    fn time_away_together_counts_once_and_outside_the_round_not_at_all() {
        // Days 3–8 and 6–10 overlap: 7 days. Day 1–2 is before the round (from day 2).
        let spans = [away(1, 3, 8), away(2, 6, 10), away(1, 1, 2)];
        assert_eq!(union_within(&spans, day(2), day(20)), Duration::days(7));
        // Clipped at both ends of the round.
        assert_eq!(
            union_within(&[away(1, 1, 30)], day(5), day(9)),
            Duration::days(4)
        );
        assert_eq!(union_within(&[], day(1), day(9)), Duration::zero());
    }
}

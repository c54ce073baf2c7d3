//! What every move, agreed end and forfeit does after the game changed: a battle ended,
//! battle 2 begun, the match finished and rated, its tournament game decided, or the next
//! turn's clock started and its player told.

use chrono::{DateTime, Duration, Utc};

use super::Matches;
use crate::game::{MatchResult, Progress, Seat, Side};
use crate::service::error::{self, Result, ServiceError};
use crate::service::events::Event;
use crate::service::flow::told::Told;
use crate::service::notices::delivery::Notice;
use crate::service::notices::notify;
use crate::service::refusal::Refusal;
use crate::service::{notices, Actor, Names};
use crate::store::{ChannelId, Finish, StoredMatch, TurnClock, Tx, UserId};

impl Matches {
    /// Writes what an action did to the match beyond the move itself: a battle ended, battle 2
    /// begun, the match finished and rated, or the next turn's clock. Returns what happened.
    pub(super) async fn record_progress(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        progress: &Progress,
        battle_id: i64,
    ) -> Result<Vec<Event>> {
        let now = self.clock.now();
        let mut events = Vec::new();
        if let Some(result) = &progress.battle_result {
            tx.finish_battle(battle_id, result, now).await?;
            events.push(Event::BattleOver {
                battle: progress.battle,
                variant: m.variant,
                winner: result
                    .winner
                    .map(|side| m.player(Seat::commanding(side, progress.battle))),
                result: *result,
            });
            if progress.match_result.is_none()
                && m.game.battles().len() == 2
                && progress.battle == 1
            {
                tx.insert_battle(m.id, 2, m.players, m.variant, now).await?;
                events.push(Event::BattleBegan {
                    battle: 2,
                    dwarfs: m.player(Seat::commanding(Side::Dwarfs, 2)),
                    trolls: m.player(Seat::commanding(Side::Trolls, 2)),
                });
            }
        }
        if let Some(result) = &progress.match_result {
            events.extend(self.finish(tx, m, result, Finish::Completed).await?);
            return Ok(events);
        }
        let next =
            m.game.seat_to_move().map(|s| m.player(s)).ok_or_else(|| {
                ServiceError::System(format!("match {} has no player to move", m.id))
            })?;
        let clock = start_clock(tx, m.id, next, now, m.days_per_move).await?;
        if m.trouble.is_some() {
            // A player acted: the new turn's clock runs, and its notices will show whether
            // the channel works again.
            tx.clear_trouble(m.id).await?;
        }
        events.push(turn_event(m, next, clock.deadline));
        Ok(events)
    }

    /// What every move and every agreed end does after the game changed, in one place:
    /// `opening` (the move, or the agreement) and what it brought about
    /// ([`Self::record_progress`]), the next player told of their turn, and what to post.
    pub(super) async fn after_move(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        progress: &Progress,
        battle_id: i64,
        opening: Vec<Event>,
    ) -> Result<Said> {
        let mut events = opening;
        events.extend(self.record_progress(tx, m, progress, battle_id).await?);
        let board = notices::notify::current_board(m);
        let ping = notify::tell_turn(tx, m, &events, Some(board), self.clock.now()).await?;
        Ok(Said { events, ping })
    }

    /// Ends a match with `result` and rates it; returns what happened.
    pub(super) async fn finish(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        result: &MatchResult,
        finish: Finish,
    ) -> Result<Vec<Event>> {
        self.finish_rating(tx, m, result, finish, true).await
    }

    /// As [`Matches::finish`], rating the match only when `rate` holds (a forfeit by a player
    /// who never moved rates nobody: nothing was played).
    pub(super) async fn finish_rating(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        result: &MatchResult,
        finish: Finish,
        rate: bool,
    ) -> Result<Vec<Event>> {
        let now = self.clock.now();
        let winner = result.winner.map(|s| m.player(s));
        tx.finish_match(m.id, finish, winner, Some(result.totals), None, now)
            .await?;
        notices::delivery::queue_match_over(tx, m, now).await?;
        crate::service::flow::tournament_game::record_game_result(tx, m.id).await?;
        let mut events = vec![Event::MatchOver {
            match_id: m.id,
            players: m.players,
            result: result.clone(),
        }];
        if rate {
            events.extend(self.ladder.rate(tx, m, result).await?);
        }
        Ok(events)
    }
}

/// `player`'s turn in `m` started, until `deadline`; the computer's is its thinking (it is
/// not told: its worker is woken after the commit).
pub(in crate::service) fn turn_event(
    m: &StoredMatch,
    player: UserId,
    deadline: DateTime<Utc>,
) -> Event {
    let side = side_of(m, player);
    if m.computer.is_some_and(|c| c.player == player) {
        return Event::ComputerThinking { player, side };
    }
    Event::TurnStarted {
        match_id: m.id,
        variant: m.variant,
        player,
        side,
        deadline,
    }
}

/// What a move or an agreed end says in the match's channel.
pub(in crate::service) struct Said {
    pub(super) events: Vec<Event>,
    /// The player the message pings: the one to move, unless told by DM only.
    pub(super) ping: Option<UserId>,
}

impl Said {
    /// What happened as a notice for the match's channel, pinging as the message would.
    pub(in crate::service) fn notice(self) -> Notice {
        Notice::new(self.events, None).pinging(self.ping)
    }

    /// The answer in the match's channel: what happened, pinging as the notice would.
    pub(in crate::service) fn told(self, names: Names) -> Told {
        Told::happened(self.events, names).pinging(self.ping)
    }
}

/// The clock of a turn that starts `now`: the deadline, and the first reminder, when half the
/// time is left. The second, a day before the deadline, is set when the first is claimed
/// (see `Tx::claim_due_reminders`); with one or two days a move they are one reminder.
pub(in crate::service) fn turn_clock(player: UserId, now: DateTime<Utc>, days: u32) -> TurnClock {
    let allowance = Duration::days(days as i64);
    let deadline = now + allowance;
    TurnClock {
        player,
        turn_started_at: now,
        deadline,
        remind_at: deadline - allowance / 2,
        reminder_sent_at: None,
        paused_at: None,
        vacation_since: None,
    }
}

/// Starts the clock of `player`'s turn in match `id` at `now`, standing still from the start
/// if they are on vacation.
pub(in crate::service) async fn start_clock(
    tx: &mut Tx,
    id: crate::store::MatchId,
    player: UserId,
    now: DateTime<Utc>,
    days: u32,
) -> Result<TurnClock> {
    let mut clock = turn_clock(player, now, days);
    if tx.vacation_of(player).await?.is_some() {
        clock.vacation_since = Some(now);
    }
    tx.set_clock(id, &clock).await?;
    Ok(clock)
}

/// The side `player` commands in the current battle.
pub(in crate::service) fn side_of(m: &StoredMatch, player: UserId) -> Side {
    let number = m.game.battle_number();
    match m.seat_of(player) {
        Some(seat) => seat.side_in(number),
        None => Side::Dwarfs,
    }
}

/// The match a spectator or player means: the one in play in the channel.
pub(in crate::service) async fn match_in_play(
    tx: &mut Tx,
    channel: ChannelId,
) -> Result<StoredMatch> {
    match tx.lock_active_match(channel).await? {
        Some(m) => Ok(m),
        None => error::refuse(Refusal::NoMatchHere),
    }
}

/// The seat of `actor` in `m`, or a refusal for spectators.
pub(in crate::service) fn seat_of(m: &StoredMatch, actor: &Actor) -> Result<Seat> {
    match m.seat_of(actor.id) {
        Some(s) => Ok(s),
        None => error::refuse(Refusal::NotAPlayer),
    }
}

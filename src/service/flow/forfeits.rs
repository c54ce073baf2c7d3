//! Ending a match early: resigning, claiming it on time, a moderator's abort.

use crate::game::Seat;
use crate::service::error::{refuse, Result};
use crate::service::events::Event;
use crate::service::flow::progress::{match_in_play, seat_of, Said};
use crate::service::flow::told::{News, Told};
use crate::service::notices::delivery::{queue_events, queue_match_over, Notice};
use crate::service::refusal::Refusal;
use crate::service::{names_in, Actor, Names, Place};
use chrono::{DateTime, Utc};

use super::Matches;
use crate::service::flow::tournament_game::record_game_result;
use crate::service::Reply;
use crate::store::{Finish, MatchId, Recipient, StoredMatch, TurnClock, Tx, UserId};

impl Matches {
    /// Asks `actor` to confirm resigning: a private message with a Confirm button.
    pub async fn resign_prompt(&self, place: Place, actor: &Actor) -> Result<Reply> {
        let m = match self.store.active_match_in(place.channel).await? {
            Some(m) => m,
            None => return refuse(Refusal::NoMatchHere),
        };
        seat_of(&m, actor)?;
        let prompt = News::ResignPrompt {
            match_id: m.id,
            moved: has_moved(&m, actor.id),
        };
        Ok(Told::new(prompt, Names::default()).worded())
    }

    /// `actor` resigns the match in this channel (`confirmed` names it when confirmed by button).
    pub async fn resign(
        &self,
        place: Place,
        actor: &Actor,
        confirmed: Option<MatchId>,
    ) -> Result<Reply> {
        let mut tx = self.store.begin().await?;
        let m = match_in_play(&mut tx, place.channel).await?;
        if confirmed.is_some_and(|id| id != m.id) {
            return refuse(Refusal::MatchNoLongerInPlay);
        }
        let seat = seat_of(&m, actor)?;
        let names = names_in(&mut tx, &m).await?;
        let said = self
            .forfeit(
                &mut tx,
                m,
                seat,
                Finish::Resigned,
                Event::Resigned { player: actor.id },
            )
            .await?;
        tx.commit().await?;
        Ok(said.told(names).spending(confirmed.is_some()).worded())
    }

    /// `actor` claims the match because the opponent let the deadline pass.
    pub async fn claim(&self, place: Place, actor: &Actor) -> Result<Reply> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let m = match_in_play(&mut tx, place.channel).await?;
        // A player claims often too early; release the match's lock at once when refusing, so
        // the clock, which skips locked matches, does not miss a reminder due now.
        let clock = match claimable(&m, actor, now) {
            Ok(clock) => clock,
            Err(refusal) => {
                tx.rollback().await?;
                return Err(refusal);
            }
        };
        let names = names_in(&mut tx, &m).await?;
        if let Some(said) = self.abort_if_never_moved(&mut tx, &m, clock.player).await? {
            tx.commit().await?;
            return Ok(said.told(names).worded());
        }
        let waiting = seat_of(&m, actor)?;
        let said = self
            .forfeit(
                &mut tx,
                m,
                waiting.other(),
                Finish::Timeout,
                Event::Claimed {
                    by: actor.id,
                    late: clock.player,
                    deadline: clock.deadline,
                },
            )
            .await?;
        tx.commit().await?;
        Ok(said.told(names).worded())
    }

    /// Stops `m` (locked in `tx`) unrated, as aborted by `by` (a moderator, an organiser or a
    /// player of a match the bot cannot reach; nobody when the clock or a lost channel
    /// stopped it), queues `said` to its channel, then the close of its thread. Its
    /// tournament game, if any, is the caller's to decide; the caller commits.
    pub(in crate::service) async fn stop_in(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        by: Option<UserId>,
        said: Option<&Notice>,
    ) -> Result<()> {
        let now = self.clock.now();
        tx.finish_match(m.id, Finish::Aborted, None, None, by, now)
            .await?;
        if let Some(notice) = said {
            let to = (m.guild, Recipient::Channel(m.channel));
            queue_events(tx, to, Some(m.id), notice, now).await?;
        }
        queue_match_over(tx, m, now).await?;
        Ok(())
    }

    /// A moderator stops the match in this channel; it is recorded and unrated.
    pub async fn abort(&self, place: Place, actor: &Actor, is_moderator: bool) -> Result<Reply> {
        if !is_moderator {
            return refuse(Refusal::NotAModerator);
        }
        let mut tx = self.store.begin().await?;
        let m = match_in_play(&mut tx, place.channel).await?;
        let now = self.clock.now();
        tx.save_player(&actor.player(), now).await?;
        self.stop_in(&mut tx, &m, Some(actor.id), None).await?;
        record_game_result(&mut tx, m.id).await?;
        // The moderator need not be a player; their name was saved above.
        let names = Names(tx.names(&[m.players[0], m.players[1], actor.id]).await?);
        tx.commit().await?;
        let aborted = Event::Aborted {
            match_id: m.id,
            by: actor.id,
        };
        Ok(Told::happened(vec![aborted], names).worded())
    }

    /// A match whose late player never made a move is aborted, unrated, rather than won on
    /// time (as lichess aborts a game whose player never moved): nothing was played to rate.
    /// A tournament game is the exception, since its round needs a result. Returns the
    /// announcement when it aborted `m` in `tx` (the caller commits).
    pub(in crate::service) async fn abort_if_never_moved(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        late: UserId,
    ) -> Result<Option<Said>> {
        if has_moved(m, late) || tx.is_tournament_game(m.id).await? {
            return Ok(None);
        }
        let deadline = m.clock.map(|c| c.deadline);
        Ok(Some(
            self.abort_unplayed(tx, m, late, deadline, None).await?,
        ))
    }

    /// Aborts `m`, unrated, because `late` never moved in it; `opening` (a resignation) is
    /// said first.
    async fn abort_unplayed(
        &self,
        tx: &mut Tx,
        m: &StoredMatch,
        late: UserId,
        deadline: Option<DateTime<Utc>>,
        opening: Option<Event>,
    ) -> Result<Said> {
        let now = self.clock.now();
        tx.finish_match(m.id, Finish::Aborted, None, None, None, now)
            .await?;
        crate::service::notices::delivery::queue_match_over(tx, m, now).await?;
        let never = Event::NeverPlayed {
            match_id: m.id,
            late,
            deadline,
        };
        let events: Vec<Event> = opening.into_iter().chain([never]).collect();
        Ok(Said { events, ping: None })
    }

    /// `loser` forfeits `m`; writes the result and ratings in `tx` (the caller commits) and
    /// returns what happened, to say or to queue.
    pub(in crate::service) async fn forfeit(
        &self,
        tx: &mut Tx,
        mut m: StoredMatch,
        loser: Seat,
        finish: Finish,
        opening: Event,
    ) -> Result<Said> {
        // One rule for a match its forfeiting player never moved in: outside a tournament it
        // is aborted, unrated, as a claim against a player who never moved is; inside, the
        // round still needs its result, which stands unrated.
        let late = m.player(loser);
        let never_moved = !has_moved(&m, late);
        let in_tournament = tx.is_tournament_game(m.id).await?;
        if never_moved && !in_tournament {
            return self.abort_unplayed(tx, &m, late, None, Some(opening)).await;
        }
        let result = match m.game.forfeit(loser) {
            Ok(r) => r,
            Err(e) => return refuse(Refusal::Rules { why: e.to_string() }),
        };
        let mut events = vec![opening];
        events.extend(
            self.finish_rating(tx, &m, &result, finish, !never_moved)
                .await?,
        );
        if m.rated && never_moved {
            events.push(Event::NotRated { late });
        }
        let winner = m.player(loser.other());
        let ping = m
            .computer
            .is_none_or(|c| c.player != winner)
            .then_some(winner);
        Ok(Said { events, ping })
    }
}

/// Whether `player` made a move in `m`.
fn has_moved(m: &StoredMatch, player: UserId) -> bool {
    m.battles
        .iter()
        .flat_map(|b| &b.stamps)
        .any(|s| s.player == player)
}

/// The clock of `m` when `actor` may claim it now: they are waiting and the deadline passed.
fn claimable(m: &StoredMatch, actor: &Actor, now: DateTime<Utc>) -> Result<TurnClock> {
    let seat = seat_of(m, actor)?;
    if m.game.seat_to_move() == Some(seat) {
        return refuse(Refusal::ClaimOnYourTurn);
    }
    let Some(clock) = m.clock else {
        return refuse(Refusal::NoClock);
    };
    if m.computer.is_some_and(|c| c.player == clock.player) {
        return refuse(Refusal::ComputerNeverLate);
    }
    if clock.vacation_since.is_some() {
        return refuse(Refusal::OpponentOnVacation);
    }
    if clock.paused_at.is_some() {
        return refuse(Refusal::ClockPaused {
            why: m
                .trouble
                .clone()
                .unwrap_or_else(|| "the bot could not post in its channel".to_string()),
        });
    }
    if now < clock.deadline {
        return refuse(Refusal::OpponentHasTime {
            deadline: clock.deadline,
        });
    }
    Ok(clock)
}

//! What the clock does for tournaments: start them, learn their matches' results, pair the
//! next round, decide what a round's deadline leaves, end them; and seat a paired game in the
//! channel a front-end made for it.

use chrono::{DateTime, Duration, Utc};

use super::deadlines::RoundDue;
use super::Tournaments;
use crate::game::Seat;
use crate::service::error::Result;
use crate::service::events::{EarlyEnd, Event, Paired, TournamentEvent};
use crate::service::flow::tournament_game::game_result;
use crate::service::notices::delivery::{queue_events, Notice};
use crate::service::standings::standings_of;
use crate::service::voice;
use crate::service::Place;
use crate::store::{
    Entrant, Finish, GameOutcome, MatchId, MatchState, Recipient, StoredTournament, TournamentGame,
    TournamentState, Tx, UserId,
};
use crate::tournament::{pair_swiss, round_robin, Contender, Format, Pairing, Unpairable};

/// What one tick did to tournaments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TournamentTick {
    pub rounds_paired: usize,
    pub finished: usize,
}

impl Tournaments {
    /// Moves every tournament on as far as it can go now; called by the clock's tick.
    pub async fn tick(&self) -> Result<TournamentTick> {
        let mut report = TournamentTick::default();
        for id in self.store.tournaments_in_play().await? {
            let mut tx = self.store.begin().await?;
            let Some(t) = tx.lock_tournament(id).await? else {
                continue;
            };
            let (round, state) = (t.current_round, t.state);
            let place = Place {
                guild: t.guild,
                channel: t.channel,
            };
            let events = self.advance(&mut tx, t).await?;
            if events.is_empty() {
                // Results learned without a round ending are kept all the same.
                tx.commit().await?;
                continue;
            }
            let after = tx.lock_tournament(id).await?;
            if let Some(after) = &after {
                report.rounds_paired += (after.current_round - round) as usize;
                if after.state != state
                    && matches!(
                        after.state,
                        TournamentState::Finished | TournamentState::Cancelled
                    )
                {
                    report.finished += 1;
                }
            }
            let notice = Notice::new(events, None);
            let to = (place.guild, Recipient::Channel(place.channel));
            queue_events(&mut tx, to, None, &notice, self.clock.now()).await?;
            tx.commit().await?;
        }
        if report != TournamentTick::default() {
            self.outbox_signal.notify_waiters();
        }
        Ok(report)
    }

    /// Moves the locked tournament `t` on as far as it can go now, and returns what to
    /// announce in its channel (nothing when nothing changed).
    pub(super) async fn advance(&self, tx: &mut Tx, mut t: StoredTournament) -> Result<Vec<Event>> {
        let now = self.clock.now();
        let mut lines = Vec::new();
        if t.state == TournamentState::Open {
            if t.starts_at.is_none_or(|at| at > now) {
                return Ok(lines);
            }
            let players = tx.entrants(t.id).await?.len();
            match t.format.rounds_for(players) {
                Ok(rounds) => {
                    tx.start_tournament(t.id, rounds).await?;
                    super::announcement::show_field(tx, &t, now).await?;
                    t.state = TournamentState::Running;
                    t.rounds = Some(rounds);
                    lines.push(told(TournamentEvent::Started {
                        name: t.name.clone(),
                        by: t.organiser,
                        players: players as u32,
                        rounds,
                        asked: asked_rounds(t.format),
                        scheduled: true,
                    }));
                }
                Err(e) => {
                    let why = voice::called_off_because(&e);
                    tx.end_tournament(t.id, TournamentState::Cancelled, Some(&why), now)
                        .await?;
                    super::announcement::show_field(tx, &t, now).await?;
                    lines.push(told(TournamentEvent::CalledOff {
                        name: t.name.clone(),
                        why: e,
                    }));
                    return Ok(lines);
                }
            }
        }
        if t.state != TournamentState::Running {
            return Ok(lines);
        }
        let entrants = tx.entrants(t.id).await?;
        let active = entrants.iter().filter(|e| !e.withdrawn).count();
        // Each pass decides what it can; a round that ends is followed by the next at once.
        for _ in 0..2 {
            let games = tx.games(t.id).await?;
            let changed = self.learn_results(tx, &games).await?;
            let games = if changed {
                tx.games(t.id).await?
            } else {
                games
            };
            let open: Vec<&TournamentGame> = games
                .iter()
                .filter(|g| g.round == t.current_round && g.outcome.is_none())
                .collect();
            if !open.is_empty() {
                if t.round_deadline.is_some_and(|d| d <= now) {
                    match self.round_due(tx, &t, &entrants, &open).await? {
                        RoundDue::Now => {}
                        RoundDue::Waits => return Ok(lines),
                        RoundDue::MovesTo(moved) => {
                            lines.push(moved);
                            return Ok(lines);
                        }
                    }
                    lines.push(told(TournamentEvent::RoundDeadlineReached {
                        name: t.name.clone(),
                        round: t.current_round,
                    }));
                    for game in open {
                        self.decide_at_deadline(tx, &t, game).await?;
                    }
                    continue;
                }
                return Ok(lines);
            }
            let rounds = t.rounds.unwrap_or(0);
            if t.current_round > 0 {
                lines.push(told(TournamentEvent::RoundOver {
                    id: t.id,
                    name: t.name.clone(),
                    round: t.current_round,
                }));
            }
            if t.current_round >= rounds {
                return self
                    .end_with_winner(tx, &t, &entrants, &games, None, lines)
                    .await;
            }
            if active < 2 {
                let why = EarlyEnd::FewerThanTwoLeft;
                return self
                    .end_with_winner(tx, &t, &entrants, &games, Some(why), lines)
                    .await;
            }
            let next = t.current_round + 1;
            let pairings = match pairings_for(&t, &entrants, &games, next) {
                Ok(p) => p,
                Err(Unpairable) => {
                    let why = EarlyEnd::NoPairingWithoutRematch;
                    return self
                        .end_with_winner(tx, &t, &entrants, &games, Some(why), lines)
                        .await;
                }
            };
            let deadline = now + Duration::days(i64::from(t.round_days));
            lines.push(
                self.pair_round(tx, &t, &entrants, next, &pairings, deadline)
                    .await?,
            );
            t.current_round = next;
            t.round_deadline = Some(deadline);
            return Ok(lines);
        }
        Ok(lines)
    }

    /// Writes round `round`'s games and announces them.
    async fn pair_round(
        &self,
        tx: &mut Tx,
        t: &StoredTournament,
        entrants: &[Entrant],
        round: u32,
        pairings: &[Pairing],
        deadline: DateTime<Utc>,
    ) -> Result<Event> {
        let user = |seed: usize| entrants.get(seed).map(|e| e.user);
        let withdrawn = |seed: usize| entrants.get(seed).is_none_or(|e| e.withdrawn);
        let bye_scores = matches!(t.format, Format::Swiss { .. });
        let mut games = Vec::new();
        for pairing in pairings {
            match *pairing {
                Pairing::Match { first, second } => {
                    // A round robin keeps its schedule: a withdrawn player's match is
                    // forfeited to the other.
                    let outcome = match (withdrawn(first), withdrawn(second)) {
                        (true, true) => continue,
                        (true, false) => Some(GameOutcome::SecondForfeit),
                        (false, true) => Some(GameOutcome::FirstForfeit),
                        (false, false) => None,
                    };
                    tx.insert_game(t.id, round, *pairing, outcome).await?;
                    if let (Some(first), Some(second)) = (user(first), user(second)) {
                        let winner = match outcome {
                            Some(GameOutcome::FirstForfeit) => Some(first),
                            Some(_) => Some(second),
                            None => None,
                        };
                        games.push(Paired::Match {
                            first,
                            second,
                            forfeited: outcome.is_some(),
                            winner,
                        });
                    }
                }
                Pairing::Bye(p) if !withdrawn(p) => {
                    tx.insert_game(t.id, round, *pairing, Some(GameOutcome::Bye))
                        .await?;
                    if let Some(player) = user(p) {
                        games.push(Paired::Bye {
                            player,
                            scored: bye_scores,
                        });
                    }
                }
                Pairing::Bye(_) => {}
            }
        }
        tx.set_round(t.id, round, self.clock.now(), deadline)
            .await?;
        Ok(told(TournamentEvent::RoundPaired {
            name: t.name.clone(),
            round,
            deadline,
            games,
        }))
    }

    /// Ends the tournament and names the winner.
    async fn end_with_winner(
        &self,
        tx: &mut Tx,
        t: &StoredTournament,
        entrants: &[Entrant],
        games: &[TournamentGame],
        early: Option<EarlyEnd>,
        mut lines: Vec<Event>,
    ) -> Result<Vec<Event>> {
        let why = early.map(|e| match e {
            EarlyEnd::FewerThanTwoLeft => "fewer than two players are left",
            EarlyEnd::NoPairingWithoutRematch => "no round can be paired without a rematch",
        });
        tx.end_tournament(t.id, TournamentState::Finished, why, self.clock.now())
            .await?;
        let standings = standings_of(t, entrants, games);
        let leaders: Vec<UserId> = standings
            .leaders()
            .into_iter()
            .filter_map(|seed| entrants.get(seed))
            .map(|e| e.user)
            .collect();
        lines.push(told(TournamentEvent::Over {
            id: t.id,
            name: t.name.clone(),
            round: t.current_round,
            early,
            leaders,
        }));
        Ok(lines)
    }

    /// Reads the results of the matches of undecided games; true when any was decided.
    async fn learn_results(&self, tx: &mut Tx, games: &[TournamentGame]) -> Result<bool> {
        let mut changed = false;
        let playing: Vec<MatchId> = games
            .iter()
            .filter(|g| g.outcome.is_none())
            .filter_map(|g| g.match_id)
            .collect();
        if playing.is_empty() {
            return Ok(false);
        }
        let over = tx.matches_over(&playing).await?;
        for game in games.iter().filter(|g| g.outcome.is_none()) {
            let Some(match_id) = game.match_id.filter(|id| over.contains(id)) else {
                continue;
            };
            let Some(m) = tx.lock_match(match_id).await? else {
                continue;
            };
            let Some((outcome, margin)) = game_result(&m) else {
                continue;
            };
            changed |= tx.decide_game(game.id, outcome, margin).await?;
        }
        Ok(changed)
    }

    /// A game still open at its round's deadline: a player past their move's deadline loses
    /// it, as a claim would; otherwise the match is stopped and the game drawn.
    async fn decide_at_deadline(
        &self,
        tx: &mut Tx,
        t: &StoredTournament,
        game: &TournamentGame,
    ) -> Result<()> {
        let now = self.clock.now();
        let Some(m) = (match game.match_id {
            Some(id) => tx.lock_match(id).await?,
            None => None,
        }) else {
            tx.decide_game(game.id, GameOutcome::Drawn, 0).await?;
            return Ok(());
        };
        if m.state != MatchState::Active {
            return Ok(());
        }
        let there = Place {
            guild: m.guild,
            channel: m.channel,
        };
        let late = m
            .clock
            .filter(|c| c.deadline <= now && c.vacation_since.is_none() && c.paused_at.is_none());
        if let (Some(clock), Some(loser)) = (late, m.game.seat_to_move()) {
            let opening = Event::DeadlineMissed {
                player: m.player(loser),
                deadline: clock.deadline,
                round_over: true,
            };
            let match_id = m.id;
            let first_lost = loser == Seat::First;
            let said = self
                .matches
                .forfeit(tx, m, loser, Finish::Timeout, opening)
                .await?;
            let to = (there.guild, Recipient::Channel(there.channel));
            queue_events(tx, to, Some(match_id), &said.notice(), now).await?;
            let outcome = if first_lost {
                GameOutcome::SecondForfeit
            } else {
                GameOutcome::FirstForfeit
            };
            tx.decide_game(game.id, outcome, 0).await?;
        } else {
            let stopped = Notice::new(
                vec![told(TournamentEvent::GameStopped {
                    name: t.name.clone(),
                    round: game.round,
                })],
                None,
            );
            self.matches.stop_in(tx, &m, None, Some(&stopped)).await?;
            tx.decide_game(game.id, GameOutcome::Drawn, 0).await?;
        }
        Ok(())
    }
}

/// The pairings of round `round`.
fn pairings_for(
    t: &StoredTournament,
    entrants: &[Entrant],
    games: &[TournamentGame],
    round: u32,
) -> std::result::Result<Vec<Pairing>, Unpairable> {
    match t.format {
        Format::RoundRobin => Ok(round_robin(entrants.len())
            .into_iter()
            .nth(round as usize - 1)
            .unwrap_or_default()),
        Format::Swiss { .. } => {
            let standings = standings_of(t, entrants, games);
            // In the standings' order, so the pairing ranks equal scores by their tie-breaks.
            let contenders: Vec<Contender> = standings
                .lines
                .iter()
                .filter_map(|l| entrants.iter().find(|e| e.seed == l.player))
                .filter(|e| !e.withdrawn)
                .map(|e| Contender {
                    player: e.seed,
                    score: standings.of(e.seed).map(|s| s.points).unwrap_or_default(),
                    had_bye: games.iter().any(|g| g.pairing == Pairing::Bye(e.seed)),
                    opponents: games
                        .iter()
                        .filter_map(|g| g.pairing.opponent_of(e.seed))
                        .collect(),
                })
                .collect();
            if contenders.len() < 2 {
                return Err(Unpairable);
            }
            pair_swiss(&contenders)
        }
    }
}

/// A tournament's event.
pub(super) fn told(event: TournamentEvent) -> Event {
    Event::Tournament(event)
}

/// The rounds the organiser asked for, if any.
pub(super) fn asked_rounds(format: Format) -> Option<u32> {
    match format {
        Format::Swiss { rounds } => rounds,
        Format::RoundRobin => None,
    }
}

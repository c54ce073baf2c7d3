//! What the organiser and the players do: create, join, leave, start, withdraw, cancel.

use chrono::{DateTime, Utc};

use super::announcement::show_field;
use super::here::{lock_here, news_from};
use super::rounds::{asked_rounds, told};
use super::Tournaments;
use super::{refuse_tournament, DEFAULT_ROUND_FACTOR};
use crate::game::{Seat, Variant};
use crate::service::error::Result;
use crate::service::events::{Event, TournamentEvent};
use crate::service::notices::delivery::{queue_events, Notice};
use crate::service::outcome::Reply;
use crate::service::refusal::TournamentRefusal as Why;
use crate::service::voice::Reader;
use crate::service::wording::word;
use crate::service::{Actor, Place, DAYS_PER_MOVE, DEFAULT_DAYS_PER_MOVE};
use crate::store::{
    Finish, GameOutcome, NewTournament, Recipient, Store, StoredTournament, TournamentState, Tx,
};
use crate::tournament::{Format, Pairing};

pub use crate::service::events::Departure;

/// What an organiser chooses; `None` means the default.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentOptions {
    pub name: String,
    pub format: Format,
    pub variant: Option<Variant>,
    pub days_per_move: Option<u32>,
    /// A round's deadline in days per move ([`DEFAULT_ROUND_FACTOR`] by default).
    pub round_factor: Option<u32>,
    /// When round 1 is paired by itself; without it the organiser starts it.
    pub starts_at: Option<DateTime<Utc>>,
}

const MAX_NAME: usize = 60;

impl Tournaments {
    /// An organiser announces a tournament in this channel; players join until it starts.
    pub async fn create(
        &self,
        place: Place,
        actor: &Actor,
        is_organiser: bool,
        options: &TournamentOptions,
    ) -> Result<Reply> {
        if !is_organiser {
            return self.not_organiser(place.guild).await;
        }
        let name = crate::service::clean_name(&options.name, actor.id);
        if options.name.trim().is_empty() || options.name.trim().chars().count() > MAX_NAME {
            return refuse_tournament(Why::BadName);
        }
        let days = options.days_per_move.unwrap_or(DEFAULT_DAYS_PER_MOVE);
        if !DAYS_PER_MOVE.contains(&days) {
            return refuse_tournament(Why::BadDays(days));
        }
        let factor = options.round_factor.unwrap_or(DEFAULT_ROUND_FACTOR);
        if !(1..=50).contains(&factor) {
            return refuse_tournament(Why::BadRoundFactor(factor.into()));
        }
        if let Format::Swiss { rounds: Some(r) } = options.format {
            if let Err(e) = Format::check_rounds(r) {
                return refuse_tournament(Why::Format(e));
            }
        }

        let now = self.clock.now();
        if options.starts_at.is_some_and(|at| at <= now) {
            return refuse_tournament(Why::StartsInThePast);
        }
        let variant = options.variant.unwrap_or_default();
        let mut tx = self.store.begin().await?;
        if tx.lock_tournament_in(place.channel).await?.is_some() {
            return refuse_tournament(Why::ChannelHasOne);
        }
        tx.save_player(&actor.player(), now).await?;
        let new = NewTournament {
            guild: place.guild,
            channel: place.channel,
            name: name.clone(),
            format: options.format,
            variant,
            days_per_move: days,
            round_days: days * factor,
            organiser: actor.id,
            starts_at: options.starts_at,
            created_at: now,
        };
        let id = tx.create_tournament(&new).await?;
        tx.commit().await?;
        let created = told(TournamentEvent::Created {
            id,
            name,
            format: options.format,
            variant,
            days_per_move: days,
            round_days: days * factor,
            starts_at: options.starts_at,
            entrants: None,
        });
        Ok(word(&self.store, &[created], &Reader::Channel)
            .await?
            .saved())
    }

    /// A player joins the tournament open in this channel.
    pub async fn join(&self, place: Place, actor: &Actor) -> Result<Reply> {
        let mut tx = self.store.begin().await?;
        let t = open_here(&self.store, &mut tx, place).await?;
        self.enrol(tx, t, actor).await
    }

    /// A player joins tournament `id` by its Join button.
    pub async fn join_numbered(
        &self,
        actor: &Actor,
        id: crate::store::TournamentId,
    ) -> Result<Reply> {
        let mut tx = self.store.begin().await?;
        let t = match tx.lock_tournament(id).await? {
            Some(t) if t.state == TournamentState::Open => t,
            Some(_) => return refuse_tournament(Why::AlreadyStarted),
            None => return refuse_tournament(Why::NoTournamentHere),
        };
        self.enrol(tx, t, actor).await
    }

    async fn enrol(&self, mut tx: Tx, t: StoredTournament, actor: &Actor) -> Result<Reply> {
        if actor.is_bot {
            return refuse_tournament(Why::BotCannotJoin);
        }
        let now = self.clock.now();
        let entrants = tx.entrants(t.id).await?;
        if entrants.iter().any(|e| e.user == actor.id) {
            return refuse_tournament(Why::AlreadyJoined);
        }
        // One more than the format takes would call the whole tournament off at its start.
        let most = t.format.most_players();
        if entrants.len() >= most {
            return refuse_tournament(Why::Full { most });
        }
        tx.save_player(&actor.player(), now).await?;
        if !tx.add_entrant(t.id, actor.id, now).await? {
            return refuse_tournament(Why::AlreadyJoined);
        }
        let players = entrants.len() as u32 + 1;
        show_field(&mut tx, &t, now).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        let joined = told(TournamentEvent::Joined {
            name: t.name,
            player: actor.id,
            players,
        });
        // Said to the player alone: a field of 200 would otherwise fill the channel with
        // join lines. The count is in the standings and in the start's announcement.
        let mut reply = word(&self.store, &[joined], &Reader::Channel)
            .await?
            .saved();
        reply.private = true;
        Ok(reply)
    }

    /// A player leaves the tournament before it starts.
    pub async fn leave(&self, place: Place, actor: &Actor) -> Result<Reply> {
        let mut tx = self.store.begin().await?;
        let t = open_here(&self.store, &mut tx, place).await?;
        if !tx.remove_entrant(t.id, actor.id).await? {
            return refuse_tournament(Why::NotJoined);
        }
        let players = tx.entrants(t.id).await?.len() as u32;
        tx.save_player(&actor.player(), self.clock.now()).await?;
        show_field(&mut tx, &t, self.clock.now()).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        let left = told(TournamentEvent::LeftBeforeStart {
            name: t.name,
            player: actor.id,
            players,
        });
        let mut reply = word(&self.store, &[left], &Reader::Channel).await?.saved();
        reply.private = true;
        Ok(reply)
    }

    /// The organiser starts the tournament now: round 1 is paired.
    pub async fn start_now(
        &self,
        place: Place,
        actor: &Actor,
        is_organiser: bool,
    ) -> Result<Reply> {
        if !is_organiser {
            return self.not_organiser(place.guild).await;
        }
        let mut tx = self.store.begin().await?;
        let t = match lock_here(&self.store, &mut tx, place).await? {
            Some(t) if t.state == TournamentState::Open => t,
            Some(_) => return refuse_tournament(Why::AlreadyRunning),
            None => return refuse_tournament(Why::NoTournamentHere),
        };
        let players = tx.entrants(t.id).await?.len();
        let rounds = match t.format.rounds_for(players) {
            Ok(r) => r,
            Err(e) => return refuse_tournament(Why::Format(e)),
        };
        tx.start_tournament(t.id, rounds).await?;
        let t = StoredTournament {
            state: TournamentState::Running,
            rounds: Some(rounds),
            ..t
        };
        tx.save_player(&actor.player(), self.clock.now()).await?;
        let mut events = vec![told(TournamentEvent::Started {
            name: t.name.clone(),
            by: actor.id,
            players: players as u32,
            rounds,
            asked: asked_rounds(t.format),
            scheduled: false,
        })];
        show_field(&mut tx, &t, self.clock.now()).await?;
        events.extend(self.advance(&mut tx, t).await?);
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        word(&self.store, &events, &Reader::Channel).await
    }

    /// A player withdraws from a running tournament: their match in play is forfeited, their
    /// games waiting for a channel are won by their opponents, later rounds skip them.
    pub async fn withdraw(&self, place: Place, actor: &Actor) -> Result<Reply> {
        let mut tx = self.store.begin().await?;
        let Some(t) = lock_here(&self.store, &mut tx, place).await? else {
            return refuse_tournament(Why::NoTournamentHere);
        };
        if t.state == TournamentState::Open {
            return refuse_tournament(Why::NotStarted);
        }
        if !matches!(t.state, TournamentState::Running) {
            return refuse_tournament(Why::NoTournamentHere);
        }
        tx.save_player(&actor.player(), self.clock.now()).await?;
        let events = self
            .withdraw_in(&mut tx, t.clone(), actor.id, Departure::Withdrew)
            .await?;
        let events = news_from(&mut tx, &t, place, events, self.clock.now()).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        word(&self.store, &events, &Reader::Channel).await
    }

    /// Withdraws `user`, who left the server `guild` or was banned from it, from every
    /// tournament of `guild` (one not started yet just loses them); returns how many.
    pub async fn withdraw_everywhere(
        &self,
        guild: crate::store::GuildId,
        user: crate::store::UserId,
        why: Departure,
    ) -> Result<usize> {
        let mut count = 0;
        for id in self.store.tournaments_of_guild(guild).await? {
            let mut tx = self.store.begin().await?;
            let Some(t) = tx.lock_tournament(id).await? else {
                continue;
            };
            if !matches!(t.state, TournamentState::Open | TournamentState::Running) {
                continue;
            }
            let Some(me) = tx
                .entrants(t.id)
                .await?
                .into_iter()
                .find(|e| e.user == user)
            else {
                continue;
            };
            if me.withdrawn {
                continue;
            }
            let place = Place {
                guild: t.guild,
                channel: t.channel,
            };
            if t.state == TournamentState::Open {
                tx.remove_entrant(t.id, user).await?;
            } else {
                let events = self.withdraw_in(&mut tx, t, user, why).await?;
                let notice = Notice::new(events, None);
                let to = (place.guild, Recipient::Channel(place.channel));
                queue_events(&mut tx, to, None, &notice, self.clock.now()).await?;
            }
            tx.commit().await?;
            count += 1;
        }
        self.outbox_signal.notify_waiters();
        Ok(count)
    }

    async fn withdraw_in(
        &self,
        tx: &mut Tx,
        t: StoredTournament,
        user: crate::store::UserId,
        why: Departure,
    ) -> Result<Vec<Event>> {
        let now = self.clock.now();
        let entrants = tx.entrants(t.id).await?;
        let Some(me) = entrants.iter().find(|e| e.user == user).copied() else {
            return refuse_tournament(Why::NotJoined);
        };
        if !tx.withdraw_entrant(t.id, user, now).await? {
            return refuse_tournament(Why::AlreadyWithdrawn);
        }
        for game in tx.games(t.id).await? {
            if game.outcome.is_some() || !game.pairing.has(me.seed) {
                continue;
            }
            let Pairing::Match { first, .. } = game.pairing else {
                continue;
            };
            let forfeit = if first == me.seed {
                GameOutcome::SecondForfeit
            } else {
                GameOutcome::FirstForfeit
            };
            if let Some(match_id) = game.match_id {
                if let Some(m) = tx.lock_match(match_id).await? {
                    // A match already over keeps its result: a withdrawal forfeits only what
                    // is still undecided.
                    if let Some((outcome, margin)) =
                        crate::service::flow::tournament_game::game_result(&m)
                    {
                        tx.decide_game(game.id, outcome, margin).await?;
                        continue;
                    }
                    if m.state == crate::store::MatchState::Active {
                        let seat = m.seat_of(user).unwrap_or(Seat::First);
                        let there = Place {
                            guild: m.guild,
                            channel: m.channel,
                        };
                        let opening = Event::LeftTournament {
                            player: user,
                            departure: why,
                        };
                        let said = self
                            .matches
                            .forfeit(tx, m, seat, Finish::Resigned, opening)
                            .await?;
                        let to = (there.guild, Recipient::Channel(there.channel));
                        queue_events(tx, to, Some(match_id), &said.notice(), now).await?;
                    }
                }
            }
            tx.decide_game(game.id, forfeit, 0).await?;
        }
        let mut events = vec![told(TournamentEvent::Left {
            name: t.name.clone(),
            player: user,
            departure: why,
        })];
        // Their leaving may have decided the round.
        events.extend(self.advance(tx, t).await?);
        Ok(events)
    }

    /// The organiser cancels the tournament: its matches in play are stopped, unrated.
    pub async fn cancel(&self, place: Place, actor: &Actor, is_organiser: bool) -> Result<Reply> {
        if !is_organiser {
            return self.not_organiser(place.guild).await;
        }
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let Some(t) = lock_here(&self.store, &mut tx, place).await? else {
            return refuse_tournament(Why::NoTournamentHere);
        };
        let stopped = stop_matches(&self.matches, &mut tx, &t, Some(actor.id)).await?;
        tx.end_tournament(
            t.id,
            TournamentState::Cancelled,
            Some("cancelled by the organiser"),
            now,
        )
        .await?;
        tx.save_player(&actor.player(), now).await?;
        let cancelled = told(TournamentEvent::Cancelled {
            name: t.name.clone(),
            by: actor.id,
            stopped,
        });
        let events = news_from(&mut tx, &t, place, vec![cancelled], now).await?;
        show_field(&mut tx, &t, now).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        word(&self.store, &events, &Reader::Channel).await
    }
}

/// Stops the matches in play of tournament `t` (locked in `tx`), unrated, each told in its
/// own channel; returns how many. `by` is the organiser who stopped them, if one did.
pub(super) async fn stop_matches(
    matches: &crate::service::flow::Matches,
    tx: &mut Tx,
    t: &StoredTournament,
    by: Option<crate::store::UserId>,
) -> Result<u32> {
    let mut stopped = 0;
    for game in tx.games(t.id).await? {
        let Some(match_id) = game.match_id.filter(|_| game.outcome.is_none()) else {
            continue;
        };
        if let Some(m) = tx.lock_match(match_id).await? {
            if m.state == crate::store::MatchState::Active {
                let cancelled = Notice::new(
                    vec![told(TournamentEvent::GameCancelled {
                        name: t.name.clone(),
                    })],
                    None,
                );
                matches.stop_in(tx, &m, by, Some(&cancelled)).await?;
                stopped += 1;
            }
        }
    }
    Ok(stopped)
}

/// The tournament taking players here, locked, or a refusal.
async fn open_here(store: &Store, tx: &mut Tx, place: Place) -> Result<StoredTournament> {
    match lock_here(store, tx, place).await? {
        Some(t) if t.state == TournamentState::Open => Ok(t),
        Some(_) => refuse_tournament(Why::AlreadyStarted),
        None => refuse_tournament(Why::NoTournamentHere),
    }
}

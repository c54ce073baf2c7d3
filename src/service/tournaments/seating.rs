//! Seating a paired game: the front-end opens a room (a thread) for it, and its match begins
//! there. The room is opened with no lock held; a game whose room cannot be opened backs off
//! behind the others, and its players and organiser are told why when the reason is the
//! server's (a missing permission, the limit of active threads).

use chrono::{DateTime, Duration, Utc};

use super::rounds::told;
use super::Tournaments;
use crate::service::error::{Result, ServiceError};
use crate::service::events::{Event, Occasion, SeatTrouble, TournamentEvent};
use crate::service::flow::room::{end_opening, Opening};
use crate::service::notices::delivery::{queue_events, Notice};
use crate::service::refusal::Refusal;
use crate::service::voice;
use crate::service::{NoRoom, Place, Room};
use crate::store::{
    ChannelId, Conflict, Entrant, GuildId, MatchId, NewMatch, Recipient, StoreError,
    StoredTournament, TournamentGame, TournamentId, TournamentState, UserId,
};
use crate::tournament::Pairing;

/// A game waiting for a channel: the front-end opens a thread of `channel` named `title`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameToSeat {
    pub game: i64,
    pub tournament: TournamentId,
    pub guild: GuildId,
    pub channel: ChannelId,
    pub title: String,
    /// Who plays it, so the front-end can check they are still in the server first.
    pub players: [UserId; 2],
}

impl Tournaments {
    /// Games of running tournaments that wait for a channel, oldest first.
    pub async fn games_to_seat(&self, limit: i64) -> Result<Vec<GameToSeat>> {
        let mut out = Vec::new();
        let mut read: Option<(StoredTournament, Vec<Entrant>, Vec<TournamentGame>)> = None;
        let now = self.clock.now();
        for (tournament, game) in self.store.unseated_tournament_games(limit, now).await? {
            if read.as_ref().is_none_or(|(t, _, _)| t.id != tournament) {
                let Some(t) = self.store.tournament(tournament).await? else {
                    continue;
                };
                // Read without locking: seating checks again under the lock.
                let mut tx = self.store.begin().await?;
                let entrants = tx.entrants(t.id).await?;
                let games = tx.games(t.id).await?;
                tx.rollback().await?;
                read = Some((t, entrants, games));
            }
            let Some((t, entrants, games)) = &read else {
                continue;
            };
            let Some(Pairing::Match { first, second }) =
                games.iter().find(|g| g.id == game).map(|g| g.pairing)
            else {
                continue;
            };
            let (Some(a), Some(b)) = (entrants.get(first), entrants.get(second)) else {
                continue;
            };
            out.push(GameToSeat {
                game,
                tournament,
                guild: t.guild,
                channel: t.channel,
                title: voice::game_room_name(&t.name, game),
                players: [a.user, b.user],
            });
        }
        Ok(out)
    }

    /// Begins the match of tournament game `game` in the room `room` opens for it (a thread of
    /// the tournament's channel); its opening goes there through the outbox. Not seated when
    /// the game needs no match any more (seated by another process, decided, or its
    /// tournament over), or when its room could not be opened (the game then backs off, and
    /// its players and organiser are told when the reason is the server's). A room opened for
    /// a game that needed none by then is closed through the outbox (`Event::RoomUnused`).
    pub async fn seat_game(&self, game: i64, room: Room<'_>) -> Result<Seating> {
        let Some(tournament) = self.store.tournament_of_game(game).await? else {
            return Ok(Seating::NotSeated);
        };
        let now = self.clock.now();
        // Claim the game under the tournament's lock, briefly: the room is opened with no lock
        // held (it is a Discord call), and a second process sees the claim and leaves it.
        let mut tx = self.store.begin().await?;
        let Some(t) = tx.lock_tournament(tournament).await? else {
            return Ok(Seating::NotSeated);
        };
        if t.state != TournamentState::Running
            || !tx
                .claim_seating(game, now, now + Duration::minutes(SEATING_MINUTES))
                .await?
        {
            return Ok(Seating::NotSeated);
        }
        tx.commit().await?;
        let name = voice::game_room_name(&t.name, game);
        let opening = Opening::open(&self.store, now, room, (t.guild, t.channel), name).await?;
        let channel = match opening.opened.clone() {
            Ok(channel) => channel,
            Err(why) => {
                end_opening(&self.store, now, Some(opening), false).await;
                self.seating_failed(&t, game, &why).await?;
                return Ok(Seating::NotSeated);
            }
        };
        let seated = self.seat_in(tournament, game, channel, now).await;
        // A room its game did not need is closed below, as a finished match's thread is.
        end_opening(&self.store, now, Some(opening), seated.is_ok()).await;
        Ok(match seated? {
            Some(id) => Seating::Seated(id),
            None => {
                // Closed through the outbox, as a finished match's thread is.
                let mut tx = self.store.begin().await?;
                let unused = Notice::new(vec![Event::RoomUnused { tournament, game }], None);
                let to = (t.guild, Recipient::Channel(channel));
                queue_events(&mut tx, to, None, &unused, now).await?;
                tx.commit().await?;
                Seating::RoomUnused(channel)
            }
        })
    }

    /// Begins game `game`'s match in `channel`, its room, unless it needs none any more.
    async fn seat_in(
        &self,
        tournament: TournamentId,
        game: i64,
        channel: ChannelId,
        now: DateTime<Utc>,
    ) -> Result<Option<MatchId>> {
        let mut tx = self.store.begin().await?;
        let Some(t) = tx.lock_tournament(tournament).await? else {
            return Ok(None);
        };
        if t.state != TournamentState::Running {
            return Ok(None);
        }
        let entrants = tx.entrants(t.id).await?;
        let Some(g) = tx.games(t.id).await?.into_iter().find(|g| g.id == game) else {
            return Ok(None);
        };
        let Pairing::Match { first, second } = g.pairing else {
            return Ok(None);
        };
        if g.match_id.is_some() || g.outcome.is_some() {
            return Ok(None);
        }
        let (Some(a), Some(b)) = (entrants.get(first), entrants.get(second)) else {
            return Err(ServiceError::System(format!(
                "game {game} names an unknown seed"
            )));
        };
        let new = NewMatch {
            guild: t.guild,
            channel,
            challenge: None,
            players: [a.user, b.user],
            variant: t.variant,
            days_per_move: t.days_per_move,
            created_at: now,
            rated: true,
            computer: None,
        };
        let match_id = match tx.insert_match(&new).await {
            Ok(id) => id,
            Err(StoreError::Conflict(Conflict::ChannelBusy)) => {
                return crate::service::error::refuse(Refusal::ChannelBusy)
            }
            Err(e) => return Err(e.into()),
        };
        crate::service::flow::progress::start_clock(
            &mut tx,
            match_id,
            a.user,
            now,
            t.days_per_move,
        )
        .await?;
        if !tx.seat_game(game, match_id).await? {
            return Ok(None);
        }
        let place = Place {
            guild: t.guild,
            channel: t.channel,
        };
        let occasion = Occasion::Tournament {
            name: t.name.clone(),
            round: g.round,
        };
        self.matches
            .open_match(tx, match_id, place, None, occasion)
            .await?;
        Ok(Some(match_id))
    }
}

/// What became of a tournament game to seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seating {
    /// Its match began, in the room opened for it.
    Seated(MatchId),
    /// Not now: it needs no match any more, another process is seating it, or no room could
    /// be opened (it is tried again later).
    NotSeated,
    /// A room was opened, but the game needed no match by then: nothing will be played there.
    RoomUnused(ChannelId),
}

impl Seating {
    /// The match begun, if one was.
    pub fn match_id(self) -> Option<MatchId> {
        match self {
            Seating::Seated(id) => Some(id),
            _ => None,
        }
    }
}

/// How long a process may take to open a game's room before another may try.
const SEATING_MINUTES: i64 = 2;
/// The longest pause between tries at seating a game whose room could not be opened.
const LONGEST_SEATING_PAUSE_MINUTES: i64 = 60;

impl Tournaments {
    /// Game `game` of `t` could not get its room (`why`): it waits, longer each time, behind
    /// the games that can be seated. The first time the reason is the server's (a missing
    /// permission, Discord's limit of active threads), its players and the organiser are told
    /// why and what would help (in the tournament's channel and by direct message, since the
    /// bot may be unable to post in the channel at all); Discord's passing trouble is only
    /// tried again.
    async fn seating_failed(&self, t: &StoredTournament, game: i64, why: &NoRoom) -> Result<()> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let before = tx.seat_attempts(game).await?;
        let pause = (1i64 << before.min(6)).min(LONGEST_SEATING_PAUSE_MINUTES);
        let attempts = tx
            .seating_failed(game, now + Duration::minutes(pause))
            .await?;
        tracing::warn!(tournament = %t.id, game, attempts, ?why, "could not open a tournament game's room");
        let trouble = match why {
            NoRoom::Later(_) => None,
            NoRoom::Refused(_) => Some(SeatTrouble::Permissions),
            NoRoom::ThreadLimit => Some(SeatTrouble::ThreadLimit),
        };
        let tell = match trouble {
            Some(trouble) if tx.tell_seating_trouble(game).await? => Some(trouble),
            _ => None,
        };
        if let Some(trouble) = tell {
            let entrants = tx.entrants(t.id).await?;
            let players: Vec<UserId> = match tx.games(t.id).await?.iter().find(|g| g.id == game) {
                Some(g) => g
                    .pairing
                    .players()
                    .into_iter()
                    .filter_map(|seed| entrants.get(seed).map(|e| e.user))
                    .collect(),
                None => Vec::new(),
            };
            let notice = Notice::new(
                vec![told(TournamentEvent::GameNotSeated {
                    name: t.name.clone(),
                    channel: t.channel,
                    players: players.clone(),
                    trouble,
                })],
                None,
            );
            let mut to = vec![Recipient::Channel(t.channel), Recipient::Dm(t.organiser)];
            to.extend(players.iter().map(|p| Recipient::Dm(*p)));
            to.dedup();
            for recipient in to {
                queue_events(&mut tx, (t.guild, recipient), None, &notice, now).await?;
            }
        }
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        Ok(())
    }
}

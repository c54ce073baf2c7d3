//! Challenging a player, and answering a challenge.

use chrono::{DateTime, Duration, Utc};
use rand::Rng;

use super::Matches;
use crate::game::{Seat, Side, Variant};
use crate::service::error::{refuse, Result};
use crate::service::events::{Event, Occasion};
use crate::service::flow::room::{end_opening, open_room, Room};
use crate::service::flow::told::Told;
use crate::service::notices::delivery::{queue_events, queue_thread_close, Notice};
use crate::service::notices::notify::tell_turn;
use crate::service::outcome::BoardShot;
use crate::service::pictures::start_drawing;
use crate::service::pictures::{board_to_show, drawn_after_commit};
use crate::service::refusal::Refusal;
use crate::service::see;
use crate::service::voice::room_name;
use crate::service::Reply;
use crate::service::{Actor, Names, Place, DAYS_PER_MOVE, DEFAULT_DAYS_PER_MOVE};
use crate::store::Settings;
use crate::store::{
    Challenge, ChallengeId, ChallengeState, ChannelId, Conflict, MatchId, NewChallenge, NewMatch,
    Recipient, SideChoice, StoreError, Tx, UserId,
};

/// What a challenger may choose; `None` means the default.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ChallengeOptions {
    /// Classic by default.
    pub variant: Option<Variant>,
    /// The challenger's side in battle 1; drawn by lot by default.
    pub side: Option<SideChoice>,
    /// [`DEFAULT_DAYS_PER_MOVE`] by default; one of [`DAYS_PER_MOVE`].
    pub days_per_move: Option<u32>,
    /// `Some(false)` for a friendly match, kept off the leaderboards; rated by default.
    pub rated: Option<bool>,
}

/// How long an accept may take to open the match's room before another may try.
const ACCEPTING_SECONDS: i64 = 60;

impl Matches {
    /// `challenger` invites `opponent` to a match in this channel.
    pub async fn challenge(
        &self,
        place: Place,
        challenger: &Actor,
        opponent: &Actor,
        options: &ChallengeOptions,
    ) -> Result<Reply> {
        let variant = options.variant.unwrap_or_default();
        let side = options.side.unwrap_or_default();
        let days = options.days()?;
        let rated = options.rated.unwrap_or(true);
        if opponent.id == challenger.id {
            return refuse(Refusal::ChallengeSelf);
        }
        if opponent.is_bot {
            return refuse(Refusal::OpponentIsABot {
                name: opponent.name.clone(),
            });
        }
        if self.store.active_match_in(place.channel).await?.is_some() {
            return refuse(Refusal::ChannelBusy);
        }
        let now = self.clock.now();
        let new = NewChallenge {
            guild: place.guild,
            channel: place.channel,
            challenger: challenger.id,
            opponent: opponent.id,
            variant,
            side,
            days_per_move: days,
            created_at: now,
            expires_at: now + self.config.challenge_expiry,
            rated,
        };
        // The names are saved with the challenge, so a refused challenge changes nothing.
        let mut tx = self.store.begin().await?;
        tx.save_player(&challenger.player(), now).await?;
        tx.save_player(&opponent.player(), now).await?;
        let challenge = match tx.create_challenge(&new).await {
            Ok(c) => c,
            Err(StoreError::Conflict(Conflict::DuplicateChallenge)) => {
                return refuse(Refusal::DuplicateChallenge {
                    opponent: opponent.name.clone(),
                })
            }
            Err(e) => return Err(e.into()),
        };
        tx.commit().await?;
        let challenged = Event::Challenged {
            challenge: challenge.id,
            challenger: challenger.id,
            opponent: opponent.id,
            variant,
            side,
            days_per_move: days,
            rated,
            expires_at: challenge.expires_at,
        };
        let names = Names(
            [
                (challenger.id, challenger.name.clone()),
                (opponent.id, opponent.name.clone()),
            ]
            .into(),
        );
        Ok(Told::happened(vec![challenged], names)
            .pinging(Some(opponent.id))
            .worded())
    }

    /// The open challenge `actor` could accept here, without accepting it: lets a front-end
    /// check before it opens a thread for the match.
    pub async fn challenge_to_accept(
        &self,
        place: Place,
        actor: &Actor,
        id: Option<ChallengeId>,
    ) -> Result<Challenge> {
        let challenge = self
            .find_challenge(place, actor, id, Role::Opponent, "accept")
            .await?;
        if challenge.expires_at <= self.clock.now() {
            return refuse(Refusal::ChallengeExpired);
        }
        Ok(challenge)
    }

    /// The opponent accepts; battle 1 begins in a `room` of its own (a thread in the channel
    /// of the challenge, opened once the challenge is closed) or in the channel itself.
    pub async fn accept(
        &self,
        place: Place,
        actor: &Actor,
        id: Option<ChallengeId>,
        room: Option<Room<'_>>,
    ) -> Result<Reply> {
        let challenge = self.challenge_to_accept(place, actor, id).await?;
        see(&self.store, actor, self.clock.now()).await?;
        let challenger = self.store.name_of(challenge.challenger).await?;
        let now = self.clock.now();
        let challenger_first = match challenge.side {
            SideChoice::Dwarfs => true,
            SideChoice::Trolls => false,
            SideChoice::Random => rand::thread_rng().gen_bool(0.5),
        };
        let players = if challenger_first {
            [challenge.challenger, challenge.opponent]
        } else {
            [challenge.opponent, challenge.challenger]
        };
        // Claimed first, with no lock held afterwards: the room is a Discord call, and a
        // concurrent accept sees the claim and is refused before it opens a second room.
        let until = now + Duration::seconds(ACCEPTING_SECONDS);
        if !self
            .store
            .claim_acceptance(challenge.id, now, until)
            .await?
        {
            return refuse(Refusal::ChallengeClosed);
        }
        let name = room_name(&challenger, &actor.name);
        let at = (challenge.guild, challenge.channel);
        let (channel, opening) = match open_room(&self.store, now, room, at, name).await {
            Ok(opened) => opened,
            Err(e) => {
                // Nothing was asked of Discord: the challenge may be accepted again at once.
                self.store.release_acceptance(challenge.id).await?;
                return Err(e);
            }
        };
        let begun = self
            .begin_accepted(&challenge, players, channel, place, actor, now)
            .await;
        end_opening(&self.store, now, opening, begun.is_ok()).await;
        if begun.is_err() {
            // Refused or failed before the match began: the challenge may be accepted again
            // at once (nothing if it was accepted after all).
            self.store.release_acceptance(challenge.id).await?;
        }
        Ok(begun?.spending(id.is_some()).worded())
    }

    /// Begins the match of `challenge`, claimed for accepting: the challenge is closed and
    /// battle 1 opened in `channel` in one transaction.
    async fn begin_accepted(
        &self,
        challenge: &Challenge,
        players: [UserId; 2],
        channel: ChannelId,
        place: Place,
        actor: &Actor,
        now: DateTime<Utc>,
    ) -> Result<Told> {
        let mut tx = self.store.begin().await?;
        if tx
            .accept_claimed_challenge(challenge.id, now)
            .await?
            .is_none()
        {
            return refuse(Refusal::ChallengeClosed);
        }
        let new = NewMatch {
            guild: challenge.guild,
            channel,
            challenge: Some(challenge.id),
            players,
            variant: challenge.variant,
            days_per_move: challenge.days_per_move,
            created_at: now,
            rated: challenge.rated,
            computer: None,
        };
        let match_id = match tx.insert_match(&new).await {
            Ok(id) => id,
            Err(StoreError::Conflict(Conflict::ChannelBusy)) => {
                return refuse(Refusal::ChallengeChannelBusy)
            }
            Err(e) => return Err(e.into()),
        };
        if channel != challenge.channel {
            tx.thread_opened(channel, match_id).await?;
        }
        crate::service::flow::progress::start_clock(
            &mut tx,
            match_id,
            players[0],
            now,
            challenge.days_per_move,
        )
        .await?;
        self.open_match(tx, match_id, place, Some(actor.id), Occasion::Challenge)
            .await
    }

    /// Announces battle 1 of match `match_id` (inserted, its clock set, in `tx`) and asks the
    /// first player to move, then commits. A match played elsewhere than `place` (a thread of
    /// its own, or the channel of a challenge accepted from another one) gets its opening
    /// there through the outbox, and `place` is told where (and who accepted it,
    /// `accepted_by`).
    pub(in crate::service) async fn open_match(
        &self,
        mut tx: Tx,
        match_id: MatchId,
        place: Place,
        accepted_by: Option<crate::store::UserId>,
        occasion: Occasion,
    ) -> Result<Told> {
        let now = self.clock.now();
        let m = tx.lock_match(match_id).await?.ok_or_else(|| {
            crate::service::ServiceError::System(format!("match {match_id} vanished"))
        })?;
        let clock = m.clock.ok_or_else(|| {
            crate::service::ServiceError::System(format!("match {match_id} has no clock"))
        })?;
        let own_room = matches!(
            occasion,
            Occasion::Tournament { .. } | Occasion::Computer { .. }
        );
        if own_room && m.channel != place.channel {
            // A tournament game, or a match against the computer, played elsewhere than where
            // it was asked for is in a thread opened for it. (An accepted challenge records its
            // thread in `accept`: it may also be played in the challenge's channel.)
            tx.thread_opened(m.channel, m.id).await?;
        }
        let names = Names(tx.names(&m.players).await?);
        let events = vec![
            Event::MatchBegan {
                match_id: m.id,
                variant: m.variant,
                dwarfs: m.player(Seat::commanding(Side::Dwarfs, 1)),
                trolls: m.player(Seat::commanding(Side::Trolls, 1)),
                rated: m.rated,
                occasion: occasion.clone(),
            },
            crate::service::flow::progress::turn_event(&m, m.players[0], clock.deadline),
        ];
        let board = BoardShot {
            match_id: m.id,
            battle: 1,
            plies: 0,
        };
        // The first player hears of their turn as they chose, as for any turn.
        let ping = tell_turn(&mut tx, &m, &events, Some(board), self.clock.now()).await?;
        if m.channel != place.channel {
            // Accepted by number from elsewhere, perhaps another server: the match is played
            // where it was challenged (or in its thread), and the opening goes there.
            // A tournament game is seated by the clock, not by its players: both are pinged
            // (which also adds them to its thread), not only the first to move.
            let waiting = matches!(occasion, Occasion::Tournament { .. }).then(|| m.players[1]);
            let notice = Notice::new(events, Some(board))
                .pinging(ping)
                .pinging(waiting);
            let there = (m.guild, Recipient::Channel(m.channel));
            queue_events(&mut tx, there, Some(m.id), &notice, now).await?;
            tx.commit().await?;
            self.outbox_signal.notify_waiters();
            self.wake_computer();
            let elsewhere = Event::PlayedElsewhere {
                match_id: m.id,
                channel: m.channel,
                accepted_by,
                occasion,
            };
            return Ok(Told::happened(vec![elsewhere], names));
        }
        let drawing = start_drawing(
            &self.renderer,
            board_to_show(&m, &names, 0, &Settings::default()),
        );
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        self.wake_computer();
        let board = drawn_after_commit(vec![drawing]).await;
        Ok(Told::happened(events, names).pinging(ping).showing(board))
    }

    /// The opponent declines.
    pub async fn decline(
        &self,
        place: Place,
        actor: &Actor,
        id: Option<ChallengeId>,
    ) -> Result<Reply> {
        let challenge = self
            .find_challenge(place, actor, id, Role::Opponent, "decline")
            .await?;
        self.close(challenge, ChallengeState::Declined, id.is_some(), |c| {
            Event::ChallengeDeclined {
                challenger: c.challenger,
                opponent: c.opponent,
            }
        })
        .await
        .map(Told::worded)
    }

    /// The challenger withdraws.
    pub async fn cancel(
        &self,
        place: Place,
        actor: &Actor,
        id: Option<ChallengeId>,
    ) -> Result<Reply> {
        let challenge = self
            .find_challenge(place, actor, id, Role::Challenger, "cancel")
            .await?;
        self.close(challenge, ChallengeState::Cancelled, id.is_some(), |c| {
            Event::ChallengeWithdrawn {
                challenger: c.challenger,
                opponent: c.opponent,
            }
        })
        .await
        .map(Told::worded)
    }

    async fn close(
        &self,
        challenge: Challenge,
        state: ChallengeState,
        from_button: bool,
        closed_by: impl Fn(&Challenge) -> Event,
    ) -> Result<Told> {
        let mut tx = self.store.begin().await?;
        let Some(closed) = tx
            .close_challenge(challenge.id, state, self.clock.now())
            .await?
        else {
            return refuse(Refusal::ChallengeClosed);
        };
        let names = Names(tx.names(&[closed.challenger, closed.opponent]).await?);
        // A rematch asked for in a finished match's thread kept it open: now nothing may.
        queue_thread_close(&mut tx, closed.guild, closed.channel, self.clock.now()).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        Ok(Told::happened(vec![closed_by(&closed)], names).spending(from_button))
    }

    /// The challenge `id`, or the newest open one here where `actor` plays `role`.
    async fn find_challenge(
        &self,
        place: Place,
        actor: &Actor,
        id: Option<ChallengeId>,
        role: Role,
        command: &'static str,
    ) -> Result<Challenge> {
        let challenge = match id {
            Some(id) => match self.store.challenge(id).await? {
                Some(c) => c,
                None => return refuse(Refusal::NoSuchChallenge),
            },
            None => {
                let open = self
                    .store
                    .pending_challenges(place.channel, actor.id)
                    .await?;
                let mut mine: Vec<Challenge> = open
                    .into_iter()
                    .filter(|c| role.of(c) == actor.id)
                    .collect();
                match mine.len() {
                    0 => {
                        return refuse(match role {
                            Role::Opponent => Refusal::NobodyChallengedYou,
                            Role::Challenger => Refusal::NoChallengeOfYours,
                        })
                    }
                    1 => mine.remove(0),
                    // Never a silent pick between challenges: the player names one.
                    _ => {
                        let mut open = Vec::new();
                        for c in &mine {
                            let other = match role {
                                Role::Opponent => c.challenger,
                                Role::Challenger => c.opponent,
                            };
                            open.push((c.id.0, self.store.name_of(other).await?));
                        }
                        open.sort();
                        return refuse(Refusal::WhichChallenge { command, open });
                    }
                }
            }
        };
        if challenge.state != ChallengeState::Pending {
            return refuse(Refusal::ChallengeAlreadyAnswered {
                state: challenge.state.name(),
            });
        }
        if role.of(&challenge) != actor.id {
            return refuse(match role {
                Role::Opponent if challenge.challenger == actor.id => Refusal::AnswerOwnChallenge,
                Role::Opponent => Refusal::NotYourChallenge,
                Role::Challenger => Refusal::OnlyChallengerCancels,
            });
        }
        Ok(challenge)
    }
}

impl ChallengeOptions {
    /// The days per move asked for, or a refusal naming the ones offered.
    pub(in crate::service) fn days(&self) -> Result<u32> {
        let days = self.days_per_move.unwrap_or(DEFAULT_DAYS_PER_MOVE);
        if DAYS_PER_MOVE.contains(&days) {
            Ok(days)
        } else {
            refuse(Refusal::DaysNotOffered(days.into()))
        }
    }
}

/// The part a player has in a challenge.
#[derive(Clone, Copy)]
enum Role {
    Challenger,
    Opponent,
}

impl Role {
    fn of(self, c: &Challenge) -> crate::store::UserId {
        match self {
            Role::Challenger => c.challenger,
            Role::Opponent => c.opponent,
        }
    }
}

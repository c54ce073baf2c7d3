//! Matches against the computer: starting one, the computer's moves, and its answers to a
//! proposal to end a battle.
//!
//! The computer moves from a worker, never inside a player's command: a turn is claimed in the
//! store (so two processes never think about the same one, and one that dies leaves it to
//! another), searched on a blocking thread while no lock is held, then played in a transaction
//! that checks the match has not changed meanwhile. Its move reaches the channel through the
//! outbox, as its own message with the board, pinging the player.

use std::sync::Arc;

use chrono::Duration;
use rand::Rng;
use tokio::sync::watch;

use super::Matches;
use crate::computer::{assess, choose_move, Assessment, Level, STALLED_PLIES};
use crate::game::MoveText;
use crate::service::error::{refuse, Result, ServiceError};
use crate::service::events::{Event, Occasion};
use crate::service::flow::play::moved;
use crate::service::flow::progress::side_of;
use crate::service::flow::room::{end_opening, open_room, Room};
use crate::service::flow::told::Told;
use crate::service::notices::delivery::{queue_events, Notice};
use crate::service::outcome::BoardShot;
use crate::service::refusal::Refusal;
use crate::service::voice::room_name;
use crate::service::Reply;
use crate::service::{Actor, ChallengeOptions, Names, Place};
use crate::store::{
    ComputerSeat, Conflict, MatchId, NewMatch, ProposalAnswer, Recipient, SideChoice, StoreError,
    StoredMatch,
};

/// How long a process may think about one turn before another may take it over.
const THINKING_LEASE_SECONDS: i64 = 60;
/// Turns claimed at once by one round of the worker.
const TURNS_PER_ROUND: i64 = 4;

/// How many searches may run at once: every core but one, so players' commands always have one.
pub(in crate::service) fn searches_at_once() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get().saturating_sub(1))
        .unwrap_or(1)
        .max(1)
}

impl Matches {
    /// `challenger` plays `computer` (the bot's own account) at `level` (default 3): the match
    /// begins at once, here or in a `room` of its own (a thread). It is never rated.
    pub async fn challenge_computer(
        &self,
        place: Place,
        challenger: &Actor,
        computer: &Actor,
        level: Option<u8>,
        options: &ChallengeOptions,
        room: Option<Room<'_>>,
    ) -> Result<Reply> {
        let level = match level {
            None => Level::DEFAULT,
            Some(n) => match Level::new(n) {
                Some(level) => level,
                None => return refuse(Refusal::NoSuchLevel(n.into())),
            },
        };
        if options.rated == Some(true) {
            return refuse(Refusal::RatedAgainstComputer);
        }
        let days = options.days()?;
        let variant = options.variant.unwrap_or_default();
        let challenger_first = match options.side.unwrap_or_default() {
            SideChoice::Dwarfs => true,
            SideChoice::Trolls => false,
            SideChoice::Random => rand::thread_rng().gen_bool(0.5),
        };
        let players = if challenger_first {
            [challenger.id, computer.id]
        } else {
            [computer.id, challenger.id]
        };
        let now = self.clock.now();
        // The room is a Discord call: opened before the transaction, so no lock waits on it.
        let name = room_name(&challenger.name, &computer.name);
        let at = (place.guild, place.channel);
        let (channel, opening) = open_room(&self.store, now, room, at, name).await?;
        let begun: Result<Reply> = async {
            let mut tx = self.store.begin().await?;
            tx.save_player(&challenger.player(), now).await?;
            tx.save_player(&computer.player(), now).await?;
            let new = NewMatch {
                guild: place.guild,
                channel,
                challenge: None,
                players,
                variant,
                days_per_move: days,
                created_at: now,
                rated: false,
                computer: Some(ComputerSeat {
                    player: computer.id,
                    level: level.number(),
                }),
            };
            let match_id = match tx.insert_match(&new).await {
                Ok(id) => id,
                Err(StoreError::Conflict(Conflict::ChannelBusy)) => {
                    return refuse(Refusal::ChannelBusy)
                }
                Err(e) => return Err(e.into()),
            };
            crate::service::flow::progress::start_clock(&mut tx, match_id, players[0], now, days)
                .await?;
            let occasion = Occasion::Computer {
                player: challenger.id,
                computer: computer.id,
                level: level.number(),
                days_per_move: days,
            };
            self.open_match(tx, match_id, place, None, occasion)
                .await
                .map(Told::worded)
        }
        .await;
        end_opening(&self.store, now, opening, begun.is_ok()).await;
        begun
    }

    /// The computer's worker: plays its moves at once when woken (it may be the computer's
    /// turn), and every few seconds for turns left by a process that stopped while thinking.
    pub(crate) async fn run_computer(self: Arc<Self>, mut stop: watch::Receiver<bool>) {
        let signal = self.computer_signal.clone();
        loop {
            // Listen before working, so a wake-up that comes while thinking is not missed.
            let woken = signal.notified();
            tokio::pin!(woken);
            woken.as_mut().enable();
            match self.play_computer_turns().await {
                Ok(played) if played > 0 => continue,
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "the computer could not play; trying again"),
            }
            tokio::select! {
                _ = &mut woken => {}
                _ = tokio::time::sleep(std::time::Duration::from_secs(3)) => {}
                _ = stop.changed() => return,
            }
        }
    }

    /// Plays the computer's moves that are due, one round of at most a few matches; returns
    /// how many it played. The clock worker and the console call it whenever woken.
    pub async fn play_computer_turns(&self) -> Result<usize> {
        let now = self.clock.now();
        let lease = now + Duration::seconds(THINKING_LEASE_SECONDS);
        let turns = self
            .store
            .claim_computer_turns(now, lease, TURNS_PER_ROUND)
            .await?;
        let mut played = 0;
        for id in turns {
            match self.computer_turn(id).await {
                Ok(true) => played += 1,
                Ok(false) => self.store.release_computer_turn(id).await?,
                Err(e) => {
                    // Left claimed: another round takes it again once the lease runs out.
                    tracing::warn!(match_id = %id, error = %e, "the computer could not play its turn");
                }
            }
        }
        Ok(played)
    }

    /// Thinks about and plays the computer's turn in match `id`; `false` when it is not the
    /// computer's turn after all (the match ended or changed meanwhile).
    async fn computer_turn(&self, id: MatchId) -> Result<bool> {
        let Some(m) = self.store.load_match(id).await? else {
            return Ok(false);
        };
        let Some(computer) = m.computer else {
            return Ok(false);
        };
        if m.player_to_move() != Some(computer.player) {
            return Ok(false);
        }
        let level = Level::new(computer.level).unwrap_or(Level::DEFAULT);
        let side = side_of(&m, computer.player);
        let battle = m.game.current_battle().clone();
        let plies = battle.moves().len();
        // The same turn always gets the same seed, so a turn taken over by another process
        // is thought about the same way.
        let seed = (m.id.0 << 20) ^ ((m.game.battle_number() as u64) << 16) ^ plies as u64;
        let thought = self
            .thinking
            .run(move || {
                let best = choose_move(battle.position(), level, seed);
                // Whether to propose an end is judged on the position the player will face
                // after the computer's move, which is the one the proposal speaks of.
                let assessment = best.and_then(|mv| {
                    let mut after = battle;
                    after.play_move(mv).ok()?;
                    Some(assess(&after, side))
                });
                (best, assessment)
            })
            .await?;
        let (Some(best), Some(assessment)) = thought else {
            return Ok(false);
        };
        self.play_computer_move(m, computer, level, plies, best.to_string(), assessment)
            .await
    }

    /// Plays `notation` for the computer in match `m` if the turn it was chosen for, after
    /// `plies` moves of the battle, is still in play.
    async fn play_computer_move(
        &self,
        stale: StoredMatch,
        computer: ComputerSeat,
        level: Level,
        plies: usize,
        notation: String,
        assessment: Assessment,
    ) -> Result<bool> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let Some(mut m) = tx.lock_match(stale.id).await? else {
            return Ok(false);
        };
        let seat = match m.seat_of(computer.player) {
            Some(seat) if m.player_to_move() == Some(computer.player) => seat,
            _ => return Ok(false),
        };
        if m.game.battle_number() != stale.game.battle_number()
            || m.current_battle().stamps.len() != plies
        {
            return Ok(false);
        }
        let text: MoveText = notation
            .parse()
            .map_err(|e| ServiceError::System(format!("the computer wrote {notation}: {e}")))?;
        let battle_row = m.current_battle().clone();
        let (mv, progress) = m.game.play(seat, &text).map_err(|e| {
            ServiceError::System(format!("the computer chose an illegal {notation}: {e}"))
        })?;
        let ply = plies as u32 + 1;
        tx.insert_move(battle_row.id, ply, &mv, computer.player, now)
            .await?;
        let index = progress.battle as usize - 1;
        let mut opening = vec![moved(&m, index, computer.player, Some(level), ply, &mv)];
        // Any move ends the proposal open before it (it was for the position before the move).
        if let Some(p) = m.proposal.take() {
            tx.answer_proposal(p.id, ProposalAnswer::Lapsed, now)
                .await?;
            opening.push(Event::ProposalLapsed {
                proposer: p.proposer,
                mover: computer.player,
            });
        }
        let mut said = self
            .after_move(&mut tx, &m, &progress, battle_row.id, opening)
            .await?;
        let proposes = assessment.propose_end
            && progress.battle_result.is_none()
            && m.proposal.is_none()
            && tx
                .last_proposal_at(battle_row.id, computer.player)
                .await?
                .is_none_or(|at| ply >= at + STALLED_PLIES as u32);
        if proposes {
            let proposal = tx
                .open_proposal(battle_row.id, computer.player, ply, now)
                .await?;
            said.events.push(Event::EndProposed {
                match_id: m.id,
                battle: progress.battle,
                proposal: proposal.id,
                by: computer.player,
                to: m.player(seat.other()),
                score: None,
                by_computer: true,
                to_computer: false,
            });
        }
        let board = BoardShot {
            match_id: m.id,
            battle: progress.battle,
            plies: m.game.battles()[index].moves().len() as u32,
        };
        let notice = Notice::new(said.events, Some(board)).pinging(said.ping);
        let to = (m.guild, Recipient::Channel(m.channel));
        queue_events(&mut tx, to, Some(m.id), &notice, now).await?;
        tx.computer_turn_done(m.id).await?;
        tx.commit().await?;
        self.outbox_signal.notify_waiters();
        // Battle 2 may open with the computer's move.
        self.wake_computer();
        Ok(true)
    }

    /// The computer's answer to `proposer`'s proposal to end the battle in match `m`: its
    /// assessment, made off the async runtime.
    pub(in crate::service) async fn computer_answer(
        &self,
        m: &StoredMatch,
    ) -> Result<Option<Assessment>> {
        let Some(computer) = m.computer else {
            return Ok(None);
        };
        let side = side_of(m, computer.player);
        let battle = m.game.current_battle().clone();
        let assessment = self.thinking.run(move || assess(&battle, side)).await?;
        Ok(Some(assessment))
    }
}

/// The computer as an actor in its own match.
pub(in crate::service) fn computer_actor(computer: ComputerSeat, names: &Names) -> Actor {
    Actor::with_kind(computer.player, &names.of(computer.player), true)
}

//! Ending a battle by agreement: one player proposes, the other agrees or declines.

use super::Matches;
use crate::game::MatchError;
use crate::service::error::{refuse, Result};
use crate::service::events::Event;
use crate::service::flow::computer::computer_actor;
use crate::service::flow::progress::{match_in_play, seat_of};
use crate::service::flow::told::{News, Told};
use crate::service::pictures::start_drawing;
use crate::service::pictures::{board_to_show, drawn_after_commit, next_battle_board};
use crate::service::refusal::Refusal;
use crate::service::Reply;
use crate::service::{names_in, Actor, Names, Place};
use crate::store::Settings;
use crate::store::{ComputerSeat, Conflict, MatchId, ProposalAnswer, StoreError, StoredMatch};

impl Matches {
    /// `actor` proposes ending the current battle.
    pub async fn propose_end(&self, place: Place, actor: &Actor) -> Result<Reply> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let m = match_in_play(&mut tx, place.channel).await?;
        let seat = seat_of(&m, actor)?;
        let names = names_in(&mut tx, &m).await?;
        if let Some(p) = &m.proposal {
            if p.proposer == actor.id {
                return refuse(Refusal::AlreadyProposed {
                    other: names.of(m.player(seat.other())),
                });
            }
            // Proposing while the other player's proposal stands is agreeing to it (RULES §3);
            // the agreement says so, so nobody takes it for a new proposal.
            tx.rollback().await?;
            return self
                .agree_or_decline(place, actor, true, None, true)
                .await
                .map(Told::worded);
        }
        let battle = m.current_battle();
        // A proposal declined in this very position would only ping the other player again
        // for the same answer: a new one waits for a move.
        if tx.last_proposal_at(battle.id, actor.id).await? == Some(battle.stamps.len() as u32) {
            return refuse(Refusal::ProposalDeclinedHere {
                other: names.of(m.player(seat.other())),
            });
        }
        let proposal = match tx
            .open_proposal(battle.id, actor.id, battle.stamps.len() as u32, now)
            .await
        {
            Ok(p) => p,
            Err(StoreError::Conflict(Conflict::ProposalOpen)) => {
                return refuse(Refusal::ProposalOpen)
            }
            Err(e) => return Err(e.into()),
        };
        // A plan is for a position nobody is asked to end: the proposal drops it.
        tx.drop_plans(m.id).await?;
        tx.commit().await?;
        let other = m.player(seat.other());
        let proposed = Event::EndProposed {
            match_id: m.id,
            battle: m.game.battle_number(),
            proposal: proposal.id,
            by: actor.id,
            to: other,
            score: (!m.variant.wins_by_objective()).then(|| m.game.current_battle().score()),
            by_computer: false,
            to_computer: m.computer.is_some(),
        };
        if let Some(computer) = m.computer {
            return self
                .computer_answers(place, &m, computer, names, proposed)
                .await
                .map(Told::worded);
        }
        Ok(Told::happened(vec![proposed], names)
            .pinging(Some(other))
            .worded())
    }

    /// The computer answers at once the proposal just made in its match `m`, after thinking
    /// it over: the answer follows the proposal in one message.
    async fn computer_answers(
        &self,
        place: Place,
        m: &StoredMatch,
        computer: ComputerSeat,
        names: Names,
        proposed: Event,
    ) -> Result<Told> {
        let assessment = self.computer_answer(m).await?;
        let agree = assessment.as_ref().is_some_and(|a| a.agree_to_end);
        let me = computer_actor(computer, &names);
        let mut told = match self.agree_or_decline(place, &me, agree, None, false).await {
            Ok(told) => told,
            // The proposal stands (saved above); the player can still move or withdraw.
            Err(e) => {
                tracing::warn!(match_id = %m.id, error = %e, "the computer could not answer a proposal");
                let silent = Event::NoAnswerYet { player: me.id };
                return Ok(Told::happened(vec![proposed, silent], names));
            }
        };
        // One message: the proposal, then the answer with the computer's reason for it.
        if let News::Happened(answer) = &mut told.news {
            let mut events = vec![proposed];
            for mut event in std::mem::take(answer) {
                if let Event::EndDeclined { reason, .. } = &mut event {
                    *reason = assessment.as_ref().and_then(|a| a.reason.clone());
                }
                events.push(event);
            }
            *answer = events;
        }
        told.ping.clear();
        Ok(told)
    }

    /// `actor` answers the open proposal; `pressed` names the proposal when answered by
    /// button, so a stale button is refused.
    pub async fn answer_end(
        &self,
        place: Place,
        actor: &Actor,
        agree: bool,
        pressed: Option<(MatchId, i64)>,
    ) -> Result<Reply> {
        self.agree_or_decline(place, actor, agree, pressed, false)
            .await
            .map(Told::worded)
    }

    /// Answers the open proposal; `crossed` when the answer is a proposal of `actor`'s own.
    async fn agree_or_decline(
        &self,
        place: Place,
        actor: &Actor,
        agree: bool,
        pressed: Option<(MatchId, i64)>,
        crossed: bool,
    ) -> Result<Told> {
        let now = self.clock.now();
        let mut tx = self.store.begin().await?;
        let mut m = match_in_play(&mut tx, place.channel).await?;
        let seat = seat_of(&m, actor)?;
        let Some(proposal) = m.proposal else {
            // A button names a proposal that was open once; so does a typed answer when this
            // battle had one: either way, say why it no longer counts, in the same words.
            let battle = m.current_battle().id;
            let proposed_before = pressed.is_some()
                || tx.last_proposal_at(battle, m.player(seat)).await?.is_some()
                || tx
                    .last_proposal_at(battle, m.player(seat.other()))
                    .await?
                    .is_some();
            return refuse(match proposed_before {
                true => Refusal::ProposalNoLongerOpen,
                false => Refusal::NoProposal,
            });
        };
        if let Some((match_id, id)) = pressed {
            if match_id != m.id || id != proposal.id {
                return refuse(Refusal::ProposalNoLongerOpen);
            }
        }
        if proposal.proposer == actor.id {
            return refuse(Refusal::AnswerOwnProposal);
        }
        // Every move closes the proposal open before it, so this holds; checked all the same,
        // since agreeing ends the battle at the score of the position the proposal was made in.
        if proposal.at_ply as usize != m.current_battle().stamps.len() {
            return refuse(Refusal::ProposalNoLongerOpen);
        }
        let names = names_in(&mut tx, &m).await?;
        if !agree {
            tx.answer_proposal(proposal.id, ProposalAnswer::Declined, now)
                .await?;
            tx.commit().await?;
            let declined = Event::EndDeclined {
                by: actor.id,
                battle: m.game.battle_number(),
                reason: None,
            };
            let told = Told::happened(vec![declined], names).pinging(Some(proposal.proposer));
            return Ok(told.spending(pressed.is_some()));
        }
        let battle_row = m.current_battle().clone();
        let progress = match m.game.end_battle_by_agreement() {
            Ok(p) => p,
            Err(MatchError::Over) => return refuse(Refusal::MatchOver),
            Err(e) => return refuse(Refusal::Rules { why: e.to_string() }),
        };
        tx.answer_proposal(proposal.id, ProposalAnswer::Agreed, now)
            .await?;
        let index = progress.battle as usize - 1;
        let mut drawings = vec![start_drawing(
            &self.renderer,
            board_to_show(&m, &names, index, &Settings::default()),
        )];
        drawings.extend(
            next_battle_board(&m, &names, &progress)
                .map(|board| start_drawing(&self.renderer, board)),
        );
        let agreed = Event::EndAgreed {
            battle: progress.battle,
            by: actor.id,
            with: m.player(seat.other()),
            score: (!m.variant.wins_by_objective()).then(|| m.game.battles()[index].score()),
            crossed,
        };
        let said = self
            .after_move(&mut tx, &m, &progress, battle_row.id, vec![agreed])
            .await?;
        tx.commit().await?;
        self.wake_computer();
        self.outbox_signal.notify_waiters();
        let boards = drawn_after_commit(drawings).await;
        Ok(said.told(names).spending(pressed.is_some()).showing(boards))
    }
}

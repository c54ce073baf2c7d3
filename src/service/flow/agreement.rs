//! Ending a battle by agreement: one player proposes, the other agrees or declines.

use crate::game::MatchError;
use crate::service::error::{refuse, Result};
use crate::service::events::Event;
use crate::service::flow::computer::computer_actor;
use crate::service::outcome::Reply;
use crate::service::pictures::{attach_after_commit, board_to_show};
use crate::service::refusal::Refusal;
use crate::service::text::Text;
use crate::service::{match_in_play, names_in, seat_of, Actor, Names, Place, Service};
use crate::store::Settings;
use crate::store::{ComputerSeat, Conflict, MatchId, ProposalAnswer, StoreError, StoredMatch};

impl Service {
    /// `actor` proposes ending the current battle.
    pub async fn propose_end(&self, place: Place, actor: &Actor) -> Result<Reply> {
        let now = self.now();
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
            // Proposing while the other player's proposal stands is agreeing to it (RULES §3).
            tx.rollback().await?;
            return self.answer_end(place, actor, true, None).await;
        }
        let battle = m.current_battle();
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
        tx.commit().await?;
        let other = m.player(seat.other());
        let number = m.game.battle_number();
        let mut text = match m.computer {
            Some(_) => Text::new(),
            None => Text::new().player(other, names.of(other)).plain(", "),
        }
        .strong(&actor.name)
        .plain(format!(" proposes ending battle {number} now."));
        if !m.variant.wins_by_objective() {
            let score = m.game.current_battle().score();
            let standing = match score.leader() {
                Some((side, by)) => format!("the {side} lead by {by}"),
                None => "level".to_string(),
            };
            text.push_str(&format!(
                " The score would stand: Dwarfs {} · Trolls {} ({standing}).",
                score.dwarfs, score.trolls
            ));
        } else {
            text.push_str(" An agreed Koom Valley battle is a draw.");
        }
        if let Some(computer) = m.computer {
            return self
                .computer_answers(place, &m, computer, &names, text)
                .await;
        }
        text.push_str(" Moving instead lets the proposal lapse.");
        Ok(Reply::public(text)
            .saved()
            .mention(other)
            .with_answers_to(m.id, proposal.id))
    }

    /// The computer answers at once the proposal just made in its match `m`, after thinking
    /// it over: the answer follows the proposal in one message.
    async fn computer_answers(
        &self,
        place: Place,
        m: &StoredMatch,
        computer: ComputerSeat,
        names: &Names,
        proposal: Text,
    ) -> Result<Reply> {
        let assessment = self.computer_answer(m).await?;
        let agree = assessment.as_ref().is_some_and(|a| a.agree_to_end);
        let me = computer_actor(computer, names);
        let mut reply = match self.answer_end(place, &me, agree, None).await {
            Ok(reply) => reply,
            // The proposal stands (saved above); the player can still move or withdraw.
            Err(e) => {
                tracing::warn!(match_id = %m.id, error = %e, "the computer could not answer a proposal");
                return Ok(Reply::public(
                    proposal.plain(format!(" {} has not answered yet.", me.name)),
                )
                .saved());
            }
        };
        reply.mentions.clear();
        reply.text = proposal.line().then(reply.text);
        if let Some(reason) = assessment.and_then(|a| a.reason).filter(|_| !agree) {
            reply.text.push_str(&format!(" “{reason}”"));
        }
        Ok(reply)
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
        let now = self.now();
        let mut tx = self.store.begin().await?;
        let mut m = match_in_play(&mut tx, place.channel).await?;
        let seat = seat_of(&m, actor)?;
        let Some(proposal) = m.proposal else {
            return refuse(Refusal::NoProposal);
        };
        if let Some((match_id, id)) = pressed {
            if match_id != m.id || id != proposal.id {
                return refuse(Refusal::ProposalNoLongerOpen);
            }
        }
        if proposal.proposer == actor.id {
            return refuse(Refusal::AnswerOwnProposal);
        }
        let names = names_in(&mut tx, &m).await?;
        if !agree {
            tx.answer_proposal(proposal.id, ProposalAnswer::Declined, now)
                .await?;
            tx.commit().await?;
            let mut reply = Reply::public(Text::new().strong(&actor.name).plain(format!(
                " wants to keep playing; battle {} goes on.",
                m.game.battle_number()
            )))
            .saved()
            .mention(proposal.proposer);
            reply.spend_buttons = pressed.is_some();
            return Ok(reply);
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
        let drawing = self.start_drawing(board_to_show(&m, &names, index, &Settings::default()));
        let agreed = Event::EndAgreed {
            battle: progress.battle,
            by: actor.id,
            with: m.player(seat.other()),
        };
        let said = self
            .after_move(&mut tx, &m, &progress, battle_row.id, vec![agreed])
            .await?;
        tx.commit().await?;
        self.wake_computer();
        self.outbox_signal.notify_waiters();
        let mut reply = said.reply(&names);
        reply.spend_buttons = pressed.is_some();
        Ok(attach_after_commit(drawing, reply).await)
    }
}

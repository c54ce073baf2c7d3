//! Ending a battle by agreement binds to the position the proposal was made in: any move ends
//! the proposal, a stale answer is refused, and an agreement ends the battle at the score the
//! agreeing player was shown.

use crate::common::{alice, bob, ok, place, refusal, service};
use crate::service::{button, current, start_match, to_move};
use thudbot::game::{BattleEnd, Score};
use thudbot::service::{Action, Actor, Event, MoveRequest, Place, Refusal, Reply, Service};

/// The (match, proposal) the Agree button of `reply` answers.
fn agree_button(reply: &Reply) -> (thudbot::store::MatchId, i64) {
    match button(reply, "Agree") {
        Action::AgreeEnd { match_id, proposal } => (match_id, proposal),
        other => panic!("the Agree button agrees, not {other:?}"),
    }
}

/// The score an `EndProposed` in `reply` showed.
fn shown_score(reply: &Reply) -> Option<(i64, Score)> {
    reply.events.iter().find_map(|e| match e {
        Event::EndProposed {
            proposal, score, ..
        } => Some((*proposal, score.expect("classic shows a score"))),
        _ => None,
    })
}

/// Plays the `pick`th legal move (modulo their count) for the player to move; captures
/// first when `capture` holds and there is one.
async fn play_some(service: &Service, at: Place, pick: usize, capture: bool) -> Reply {
    let m = current(service, at).await;
    let pos = m.game.current_battle().position().clone();
    let moves = pos.legal_moves();
    let captures: Vec<_> = moves.iter().filter(|m| m.capture_count() > 0).collect();
    let mv = if capture && !captures.is_empty() {
        *captures[pick % captures.len()]
    } else {
        moves[pick % moves.len()]
    };
    let who = to_move(service, at).await;
    ok(service
        .matches()
        .play(at, &who, &MoveRequest::Notation(mv.to_string()))
        .await)
}

#[tokio::test]
async fn the_proposers_own_move_ends_the_proposal_and_a_stale_agree_is_refused() {
    let service = service().await;
    let at = place(1);
    start_match(&service, at).await;
    // alice commands the dwarfs and moves first; she proposes, then moves herself.
    let proposed = ok(service.matches().propose_end(at, &alice()).await);
    let button = agree_button(&proposed);
    let moved = play_some(&service, at, 0, false).await;
    assert!(
        moved.events.iter().any(|e| matches!(e,
            Event::ProposalLapsed { proposer, mover } if *proposer == alice().id && *mover == alice().id)),
        "{:?}",
        moved.events
    );
    assert!(
        moved
            .text
            .contains("proposal to end the battle is withdrawn"),
        "{}",
        moved.text
    );
    assert!(current(&service, at).await.proposal.is_none());
    // bob's Agree, pressed on the old proposal, is refused and ends nothing.
    assert_eq!(
        refusal(
            service
                .matches()
                .answer_end(at, &bob(), true, Some(button))
                .await
        ),
        Refusal::ProposalNoLongerOpen
    );
    // Typed rather than pressed, the same answer is refused in the same words.
    assert_eq!(
        refusal(service.matches().answer_end(at, &bob(), true, None).await),
        Refusal::ProposalNoLongerOpen
    );
    assert_eq!(
        refusal(service.matches().answer_end(at, &bob(), false, None).await),
        Refusal::ProposalNoLongerOpen
    );
    let m = current(&service, at).await;
    assert_eq!(m.game.battle_number(), 1);
    assert!(m.game.current_battle().result().is_none());
}

#[tokio::test]
async fn an_answer_with_no_proposal_ever_made_in_the_battle_says_there_is_none() {
    let service = service().await;
    let at = place(1);
    start_match(&service, at).await;
    assert_eq!(
        refusal(service.matches().answer_end(at, &bob(), true, None).await),
        Refusal::NoProposal
    );
}

#[tokio::test]
async fn a_declined_proposal_is_not_repeated_in_the_same_position() {
    let service = service().await;
    let at = place(1);
    start_match(&service, at).await;
    let proposed = ok(service.matches().propose_end(at, &alice()).await);
    assert_eq!(proposed.mentions, vec![bob().id]);
    ok(service.matches().answer_end(at, &bob(), false, None).await);
    // The same proposal in the same position: refused, privately, and nothing is opened.
    let again = refusal(service.matches().propose_end(at, &alice()).await);
    assert_eq!(
        again,
        Refusal::ProposalDeclinedHere {
            other: "bob".into()
        }
    );
    assert_eq!(
        again.to_string(),
        "bob has already declined ending this battle in this position; you can propose again after the next move."
    );
    assert!(current(&service, at).await.proposal.is_none());
    // Once a move has been made, alice may propose again.
    play_some(&service, at, 0, false).await;
    let later = ok(service.matches().propose_end(at, &alice()).await);
    assert!(shown_score(&later).is_some(), "{:?}", later.events);
}

#[tokio::test]
async fn proposing_while_the_other_proposal_stands_is_said_to_be_an_agreement_at_its_score() {
    let service = service().await;
    let at = place(1);
    start_match(&service, at).await;
    let proposed = ok(service.matches().propose_end(at, &alice()).await);
    let (_, shown) = shown_score(&proposed).expect("a proposal");
    let crossed = ok(service.matches().propose_end(at, &bob()).await);
    assert!(
        crossed.events.iter().any(|e| matches!(e,
            Event::EndAgreed { by, with, score, crossed: true, .. }
                if *by == bob().id && *with == alice().id && *score == Some(shown))),
        "{:?}",
        crossed.events
    );
    assert!(
        crossed
            .text
            .contains("proposed ending battle 1 while alice's proposal stood: that is agreeing"),
        "{}",
        crossed.text
    );
    assert!(
        crossed.text.contains(&format!(
            "battle 1 ends at Dwarfs {} · Trolls {}",
            shown.dwarfs, shown.trolls
        )),
        "{}",
        crossed.text
    );
}

/// A small generator of choices, repeatable from its seed.
struct Dice(u64);

impl Dice {
    fn roll(&mut self, sides: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % sides as u64) as usize
    }
}

/// No sequence of moves, proposals and answers (typed, or by any button seen so far) ends a
/// battle by agreement at a score other than the one the agreeing player was shown.
#[tokio::test]
async fn no_sequence_of_moves_and_answers_ends_a_battle_at_a_score_nobody_was_shown() {
    let service = service().await;
    let players = [alice(), bob()];
    let mut agreed_ends = 0;
    let mut refused_stale = 0;
    for seed in 1..=12u64 {
        let mut dice = Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let at = place(100 + seed);
        start_match(&service, at).await;
        // Every proposal shown so far: its button and the score it showed.
        let mut shown: Vec<((thudbot::store::MatchId, i64), Score)> = Vec::new();
        for _ in 0..80 {
            let Some(m) = service.store().active_match_in(at.channel).await.unwrap() else {
                break;
            };
            let actor: &Actor = &players[dice.roll(2)];
            let reply = match dice.roll(6) {
                0..=2 => {
                    if m.player_to_move() != Some(actor.id) {
                        continue;
                    }
                    play_some(&service, at, dice.roll(1000), dice.roll(2) == 0).await
                }
                3 => match service.matches().propose_end(at, actor).await {
                    Ok(reply) => reply,
                    Err(_) => continue,
                },
                4 if !shown.is_empty() => {
                    let (button, _) = shown[dice.roll(shown.len())];
                    match service
                        .matches()
                        .answer_end(at, actor, true, Some(button))
                        .await
                    {
                        Ok(reply) => reply,
                        Err(_) => {
                            refused_stale += 1;
                            continue;
                        }
                    }
                }
                _ => match service.matches().answer_end(at, actor, true, None).await {
                    Ok(reply) => reply,
                    Err(_) => continue,
                },
            };
            if let Some((id, score)) = shown_score(&reply) {
                shown.push(((m.id, id), score));
            }
            for event in &reply.events {
                if let Event::BattleOver { result, .. } = event {
                    if result.end != BattleEnd::Agreement {
                        continue;
                    }
                    agreed_ends += 1;
                    // The open proposal, the last one made before the agreement, was shown at
                    // the position the battle ends in.
                    let proposal = m.proposal.expect("an agreement answers an open proposal");
                    let (_, seen) = shown
                        .iter()
                        .find(|((_, id), _)| *id == proposal.id)
                        .expect("the agreed proposal was shown");
                    assert_eq!(result.score, *seen, "seed {seed}");
                    let agreed = reply.events.iter().find_map(|e| match e {
                        Event::EndAgreed { score, .. } => *score,
                        _ => None,
                    });
                    assert_eq!(agreed, Some(*seen), "the agreement repeats the score");
                }
            }
        }
    }
    // The random sequences reached both agreements and stale buttons.
    assert!(agreed_ends >= 5, "only {agreed_ends} agreed ends");
    assert!(
        refused_stale >= 5,
        "only {refused_stale} stale answers refused"
    );
}

/// The picture below the caption band of `frame` (the board and each side's corner).
fn below_caption(frame: &image::Frame) -> Vec<u8> {
    let img = image::DynamicImage::ImageRgba8(frame.buffer().clone()).to_rgb8();
    let (w, h) = img.dimensions();
    image::imageops::crop_imm(&img, 0, 92, w, h - 92)
        .to_image()
        .into_raw()
}

fn frames_of(gif: &[u8]) -> Vec<image::Frame> {
    use image::AnimationDecoder;
    image::codecs::gif::GifDecoder::new(std::io::Cursor::new(gif))
        .unwrap()
        .into_frames()
        .collect_frames()
        .unwrap()
}

#[tokio::test]
async fn the_replay_of_a_battle_ended_by_agreement_shows_no_one_to_move_at_its_end() {
    let service = service().await;
    let at = place(1);
    start_match(&service, at).await;
    play_some(&service, at, 0, false).await;
    play_some(&service, at, 0, false).await;
    let proposed = ok(service.matches().propose_end(at, &alice()).await);
    ok(service
        .matches()
        .answer_end(at, &bob(), true, Some(agree_button(&proposed)))
        .await);
    let m = current(&service, at).await;
    let battle = m.game.battles()[0].clone();
    assert_eq!(battle.result().map(|r| r.end), Some(BattleEnd::Agreement));
    // The side to move still had legal moves: only "the battle is over" keeps the badge off.
    assert!(battle.position().has_legal_move());

    let replay = ok(service
        .records()
        .replay(at, None, Some(1), None, None)
        .await);
    let shown = frames_of(&replay.attachments[0].bytes);
    let renderer = crate::common::renderer();
    let drawn = |over: bool| {
        let caption = thudbot::render::Caption {
            title: "Match".into(),
            dwarfs: "alice".into(),
            trolls: "bob".into(),
            status: "Battle 1 drawn".into(),
            over,
        };
        let frames = frames_of(&renderer.replay_gif(&battle, Some(&caption), Default::default()));
        below_caption(frames.last().unwrap())
    };
    let last = below_caption(shown.last().unwrap());
    assert_eq!(
        last,
        drawn(true),
        "the last frame is drawn as a battle over"
    );
    assert_ne!(
        last,
        drawn(false),
        "a battle still going shows who is to move"
    );
}

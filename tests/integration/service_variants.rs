//! The match service with the other variants (Koom Valley's objectives, the original rules'
//! captures) and proposals to end a battle, against real PostgreSQL.

use crate::common::{
    alice, assert_event, assert_no_event, bob, match_winner, place, service, GUILD,
};
use thudbot::game::{BattleEnd, GameRecord, Move, Points, Side, Variant};
use thudbot::service::{ChallengeOptions, Event, MoveRequest, Place, Refusal, Reply, Service};
use thudbot::store::{Scope, SideChoice};

use crate::service::{current, ok, play, play_where, refusal, start_match, to_move};

/// Starts a match of `variant` in which alice commands the dwarfs in battle 1.
async fn start_variant(service: &Service, at: Place, variant: Variant) {
    let challenge = ok(service
        .matches()
        .challenge(
            at,
            &alice(),
            &bob(),
            &ChallengeOptions {
                variant: Some(variant),
                side: Some(SideChoice::Dwarfs),
                ..ChallengeOptions::default()
            },
        )
        .await);
    assert!(
        challenge.text.contains(if variant == Variant::KoomValley {
            "Koom Valley"
        } else {
            "original"
        }),
        "{}",
        challenge.text
    );
    let began = ok(service.matches().accept(at, &bob(), None, None).await);
    assert_event!(began.events, Event::MatchBegan { variant: v, .. } if *v == variant);
}

/// Koom Valley trolls march on the Rock: each troll of `marchers` walks to its square next to
/// the Rock, while the dwarfs shuffle at the top of the board.
async fn trolls_surround_the_rock(service: &Service, at: Place) -> Reply {
    let marches = [
        ("H3", "H6"),
        ("H6", "H7"),
        ("F3", "F6"),
        ("F6", "G7"),
        ("J3", "J6"),
        ("J6", "I7"),
    ];
    let mut last = Reply::default();
    for (from, to) in marches {
        // The dwarfs wait: a quiet move high on the board, away from the trolls.
        play_where(service, at, |_, m| {
            matches!(m, Move::Dwarf { .. })
                && m.captured().is_empty()
                && m.to().row() >= 9
                && m.from().row() >= 9
        })
        .await;
        let who = to_move(service, at).await;
        last = ok(service
            .matches()
            .play(at, &who, &MoveRequest::Notation(format!("T{from}-{to}")))
            .await);
    }
    last
}

#[tokio::test]
async fn koom_valley_battles_are_won_by_objective_for_a_point_and_drawn_for_a_half() {
    let service = service().await;
    let at = place(12);
    start_variant(&service, at, Variant::KoomValley).await;
    // Battle 1: bob's trolls stand three around the Rock and win.
    let won = trolls_surround_the_rock(&service, at).await;
    assert_event!(
        won.events,
        Event::BattleOver { battle: 1, winner, result, .. }
            if *winner == Some(bob().id)
                && result.winner == Some(Side::Trolls)
                && result.end == BattleEnd::Objective { winner: Side::Trolls }
                && result.margin == Points::whole(1)
    );
    // How an objective reached is said, once.
    assert!(
        won.text.contains("three trolls stand around the Rock"),
        "{}",
        won.text
    );
    // Koom Valley battles are not scored by pieces.
    assert_event!(
        won.events,
        Event::Moved {
            side: Side::Trolls,
            score: None,
            ..
        }
    );
    assert_no_event!(won.events, Event::Moved { score: Some(_), .. });
    // Battle 2, roles swapped, ends by agreement: a draw.
    assert_eq!(
        current(&service, at).await.commander(Side::Dwarfs),
        bob().id
    );
    let proposal = ok(service.matches().propose_end(at, &alice()).await);
    assert!(proposal.text.contains("draw"), "{}", proposal.text);
    let over = ok(service.matches().answer_end(at, &bob(), true, None).await);
    assert_event!(
        over.events,
        Event::BattleOver { battle: 2, winner: None, result, .. }
            if result.winner.is_none() && result.end == BattleEnd::Agreement
    );
    // alice: 0 + ½; bob: 1 + ½.
    assert_event!(
        over.events,
        Event::MatchOver { players, result, .. }
            if *players == [alice().id, bob().id]
                && result.totals == [Points::HALF, Points::from_halves(3)]
                && match_winner(players, result) == Some(bob().id)
                && result.margin == Points::whole(1)
    );
    let id = service
        .store()
        .latest_match_in(at.channel)
        .await
        .unwrap()
        .unwrap();
    let record = ok(service.records().record(at, Some(id)).await);
    let parsed: GameRecord = String::from_utf8(record.attachments[0].bytes.clone())
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(parsed.game.variant(), thudbot::game::Variant::KoomValley);
    let (r, _) = service
        .store()
        .standing(Scope::Guild(GUILD), bob().id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (r.wins, r.points_for),
        (1, thudbot::game::Points::from_halves(3))
    );
    let replay = ok(service
        .records()
        .replay(at, Some(id), Some(1), None, None)
        .await);
    assert!(replay.attachments[0].bytes.starts_with(b"GIF8"));
    // A channel that takes smaller files gets the last part of the battle, and is told so.
    let whole = replay.attachments[0].bytes.len();
    let part = ok(service
        .records()
        .replay(at, Some(id), Some(1), None, Some(whole - 1))
        .await);
    assert!(part.attachments[0].bytes.len() < whole);
    assert!(part.text.contains("moves 2 to"), "{}", part.text);
}

#[tokio::test]
async fn the_original_rules_are_chosen_at_challenge_time_and_enforced() {
    let service = service().await;
    let at = place(13);
    start_variant(&service, at, Variant::Original).await;
    assert_eq!(
        current(&service, at).await.variant,
        thudbot::game::Variant::Original
    );
    // Two dwarfs next to F6, and G7 is a line of one towards F6 (H8 holds the Thudstone).
    ok(play(&service, at, &alice(), "F1-F5").await);
    ok(play(&service, at, &bob(), "I9-J10").await);
    ok(play(&service, at, &alice(), "A6-E6").await);
    let two = refusal(play(&service, at, &bob(), "G7-F6xE6xF5").await);
    assert!(
        matches!(&two, Refusal::IllegalMove { why, .. } if why.contains("at most one dwarf")),
        "{two:?}"
    );
    let one = ok(play(&service, at, &bob(), "G7-F6xE6").await);
    assert_event!(
        one.events,
        Event::Moved { ply: 4, side: Side::Trolls, captured, .. } if captured == "E6"
    );
    assert!(service
        .people()
        .rules(Some(Variant::Original))
        .unwrap()
        .text
        .contains("at most one"));
}

#[tokio::test]
async fn a_proposal_lapses_when_its_proposer_moves_and_can_be_declined() {
    let service = service().await;
    let at = place(14);
    start_match(&service, at).await;
    // alice proposes on her own turn, then moves: the proposal was for the position before
    // her move, so it lapses, and both are told.
    ok(service.matches().propose_end(at, &alice()).await);
    assert_eq!(
        refusal(service.matches().propose_end(at, &alice()).await),
        Refusal::AlreadyProposed {
            other: "bob".into()
        }
    );
    let moved = ok(play(&service, at, &alice(), "F1-F5").await);
    assert_event!(moved.events, Event::Moved { ply: 1, .. });
    assert_event!(
        moved.events,
        Event::ProposalLapsed { proposer, mover } if *proposer == alice().id && *mover == alice().id
    );
    assert!(current(&service, at).await.proposal.is_none());
    // bob has nothing to answer (told why, as the button tells him); alice proposes again,
    // and bob declines: the battle goes on.
    assert_eq!(
        refusal(service.matches().answer_end(at, &bob(), false, None).await),
        Refusal::ProposalNoLongerOpen
    );
    ok(service.matches().propose_end(at, &alice()).await);
    let kept = ok(service.matches().answer_end(at, &bob(), false, None).await);
    assert!(kept.text.contains("keep playing"), "{}", kept.text);
    assert_eq!(kept.mentions, vec![alice().id]);
    let m = current(&service, at).await;
    assert!(m.proposal.is_none() && m.game.battle_number() == 1);
    ok(service.matches().propose_end(at, &bob()).await);

    // RULES §3: alice proposing while bob's proposal stands is agreeing to it.
    let agreed = ok(service.matches().propose_end(at, &alice()).await);
    assert_event!(
        agreed.events,
        Event::EndAgreed { battle: 1, by, with, .. } if *by == alice().id && *with == bob().id
    );
    assert_eq!(current(&service, at).await.game.battle_number(), 2);
}

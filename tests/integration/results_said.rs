//! Every result's sentence and record agree with what happened: a match its forfeiting player
//! never moved in is aborted unrated outside tournaments; a forfeit wins the match whatever
//! the points and says so; battle 2's first ping shows battle 2's board; tournament commands
//! work in a game's own thread; a pairing against a withdrawn player names who wins it.

use crate::common::{alice, bob, ok, place, service, start_time};
use crate::service::{button, current, play, start_match};
use crate::tournaments::{four_started, seat_all};
use thudbot::game::GameRecord;
use thudbot::service::{Action, Actor, Event};
use thudbot::store::{MatchState, Scope};

#[tokio::test]
async fn resigning_before_ones_first_move_aborts_the_match_unrated() {
    let service = service().await;
    let at = place(1);
    start_match(&service, at).await;
    let id = current(&service, at).await.id;
    // alice (dwarfs) has moved; bob resigns before his first move.
    ok(play(&service, at, &alice(), "dF1-F5").await);
    let said = ok(service.matches().resign(at, &bob(), None).await);
    assert!(
        said.events
            .iter()
            .any(|e| matches!(e, Event::NeverPlayed { late, .. } if *late == bob().id)),
        "{:?}",
        said.events
    );
    let text = said.text.to_plain(start_time());
    assert!(text.contains("bob resigns"), "{text}");
    assert!(text.contains("is aborted: bob never made a move"), "{text}");
    let m = service.store().load_match(id).await.unwrap().unwrap();
    assert_eq!(m.state, MatchState::Aborted);
    for p in [alice().id, bob().id] {
        assert!(service
            .store()
            .standing(Scope::Global, p)
            .await
            .unwrap()
            .is_none());
    }
    let record = ok(service.records().record(at, Some(id)).await);
    let text = String::from_utf8(record.attachments[0].bytes.clone()).unwrap();
    let parsed: GameRecord = text.parse().unwrap();
    assert_eq!(parsed.tag("Result"), Some("aborted"));
}

#[tokio::test]
async fn a_forfeit_wins_whatever_the_points_in_sentence_and_record_alike() {
    let service = service().await;
    let at = place(1);
    start_match(&service, at).await;
    let id = current(&service, at).await.id;
    // Both move; battle 1 then ends by agreement, level; in battle 2 alice resigns.
    ok(play(&service, at, &alice(), "dF1-F5").await);
    ok(play(&service, at, &bob(), "TG7-F6").await);
    let proposal = ok(service.matches().propose_end(at, &alice()).await);
    let Action::AgreeEnd { match_id, proposal } = button(&proposal, "Agree") else {
        panic!("an Agree button")
    };
    let ended = ok(service
        .matches()
        .answer_end(at, &bob(), true, Some((match_id, proposal)))
        .await);
    // Battle 2's first ping shows battle 2's first board, after battle 1's last.
    let names: Vec<&str> = ended
        .attachments
        .iter()
        .map(|a| a.filename.as_str())
        .collect();
    assert_eq!(
        names,
        [
            format!("thud-match-{id}-battle-1.png"),
            format!("thud-match-{id}-battle-2.png")
        ]
    );
    assert_eq!(ended.board.map(|b| b.battle), Some(2));
    let said = ok(service.matches().resign(at, &alice(), None).await);
    let text = said.text.to_plain(start_time());
    assert!(
        text.contains("bob wins the match by forfeit, whatever the points"),
        "{text}"
    );
    assert!(!text.contains("Total:"), "{text}");
    let record = ok(service.records().record(at, Some(id)).await);
    let text = String::from_utf8(record.attachments[0].bytes.clone()).unwrap();
    let parsed: GameRecord = text.parse().unwrap();
    assert_eq!(
        parsed.tag("Result"),
        Some("bob wins by forfeit (alice forfeited)")
    );
}

#[tokio::test]
async fn a_player_withdraws_from_their_game_thread_and_the_pairings_name_forfeit_winners() {
    let s = service().await;
    four_started(&s).await;
    let mut channel = 1000;
    let seated = seat_all(&s, &mut channel).await;
    let (id, thread) = seated[0];
    let m = s.store().load_match(id).await.unwrap().unwrap();
    let (first, second) = (m.players[0], m.players[1]);
    let name = |u: thudbot::store::UserId| format!("p{:02}", u.0 - 5000);
    // Both move, then the first withdraws, typed in the game's own thread.
    ok(play(&s, thread, &Actor::new(first, name(first)), "dF1-F5").await);
    ok(play(&s, thread, &Actor::new(second, name(second)), "TG7-F6").await);
    let gone = ok(s
        .tournaments()
        .withdraw(thread, &Actor::new(first, name(first)))
        .await);
    assert!(
        gone.text.to_plain(start_time()).contains("withdraws from"),
        "{}",
        gone.text.to_plain(start_time())
    );
    // The standings answer in the thread too.
    let standings = ok(s.tournaments().standings(thread, 1).await)
        .text
        .to_plain(start_time());
    assert!(standings.contains("(withdrawn)"), "{standings}");
    // The other game of round 1 ends; round 2's pairing against the withdrawn player names the
    // winner.
    let (other, there) = seated[1];
    let m = s.store().load_match(other).await.unwrap().unwrap();
    let p = m.players[0];
    ok(play(&s, there, &Actor::new(p, name(p)), "dF1-F5").await);
    ok(s.matches()
        .resign(there, &Actor::new(p, name(p)), None)
        .await);
    let tick = s.tournaments().tick().await.unwrap();
    assert_eq!(tick.rounds_paired, 1);
    let told = crate::common::deliver_all(&s).await;
    let paired = told
        .iter()
        .map(|d| d.reply.text.to_plain(start_time()))
        .find(|t| t.contains("Round 2 of Autumn Cup"))
        .expect("round 2 announced");
    assert!(
        paired.contains("wins by forfeit: the other withdrew"),
        "{paired}"
    );
}

//! Conditional moves (`/thud plan`) against a real PostgreSQL: a planned answer is played in
//! the opponent's move's own transaction, a move the plan does not name or an end proposal
//! drops it, every refusal changes nothing, and a plan racing the opponent's move lands whole
//! or not at all.

use crate::common::{alice, assert_event, bob, carol, deliver_all, ok, place, refusal, service};
use crate::service::{current, position, start_match};
use thudbot::game::{Move, Position};
use thudbot::service::{Actor, Event, MoveRequest, Place, Refusal, Reply, Service, ServiceError};
use thudbot::store::{Notify, Recipient};

/// The `pick`th move (modulo their count) that captures nothing, in `pos`.
fn quiet(pos: &Position, pick: usize) -> Move {
    let moves: Vec<Move> = pos
        .legal_moves()
        .into_iter()
        .filter(|m| m.captured().is_empty())
        .collect();
    moves[pick % moves.len()]
}

/// A line of `plies` quiet moves from `pos`, each the `pick`th of its position, in notation.
fn line_from(pos: &Position, plies: usize, pick: usize) -> Vec<String> {
    let mut pos = pos.clone();
    let mut line = Vec::new();
    for _ in 0..plies {
        let mv = quiet(&pos, pick);
        pos = pos.after(&mv);
        line.push(mv.to_string());
    }
    line
}

async fn play(service: &Service, at: Place, who: &Actor, notation: &str) -> Reply {
    ok(service
        .matches()
        .play(at, who, &MoveRequest::Notation(notation.to_string()))
        .await)
}

async fn plan(
    service: &Service,
    at: Place,
    who: &Actor,
    line: &[String],
) -> Result<Reply, ServiceError> {
    service
        .matches()
        .plan(at, who, &line.join(" "), false)
        .await
}

/// Starts a match and plays alice's first move: bob (the trolls) is to move, alice waits.
async fn alice_waits(service: &Service, at: Place) -> Position {
    start_match(service, at).await;
    let first = quiet(&position(service, at).await, 0);
    play(service, at, &alice(), &first.to_string()).await;
    position(service, at).await
}

/// The moves played in the current battle, in notation.
async fn moves_played(service: &Service, at: Place) -> Vec<String> {
    current(service, at)
        .await
        .game
        .current_battle()
        .moves()
        .iter()
        .map(|m| m.to_string())
        .collect()
}

/// Asserts that alice, asking, is shown no plan in `at`.
async fn alice_has_no_plan(service: &Service, at: Place) {
    let shown = ok(service.matches().show_plan(at, &alice()).await);
    assert!(shown.text.contains("You have no plan"), "{}", shown.text);
}

fn moved_by(reply: &Reply, who: &Actor) -> Vec<String> {
    reply
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Moved {
                mover, notation, ..
            } if *mover == who.id => Some(notation.clone()),
            _ => None,
        })
        .collect()
}

#[tokio::test]
async fn a_planned_answer_is_played_at_once_two_pairs_deep_and_told_as_a_move() {
    let service = service().await;
    let at = place(1);
    let pos = alice_waits(&service, at).await;
    let line = line_from(&pos, 4, 1);
    let planned = ok(plan(&service, at, &alice(), &line).await);
    assert!(planned.private && planned.saved, "{planned:?}");
    for mv in &line {
        assert!(planned.text.contains(mv.as_str()), "{}", planned.text);
    }

    let before = moves_played(&service, at).await.len();
    let reply = play(&service, at, &bob(), &line[0]).await;
    assert_eq!(moved_by(&reply, &bob()), [line[0].clone()]);
    assert_eq!(moved_by(&reply, &alice()), [line[1].clone()]);
    assert_event!(reply.events, Event::TurnStarted { player, .. } if *player == bob().id);
    assert!(
        !reply.events.iter().any(|e| matches!(e,
            Event::TurnStarted { player, .. } if *player == alice().id)),
        "alice's turn passed at once: {:?}",
        reply.events
    );
    assert!(reply.text.contains(line[1].as_str()), "{}", reply.text);
    assert_eq!(moves_played(&service, at).await[before..], line[..2]);
    assert!(
        reply.mentions.contains(&bob().id),
        "bob is told it is his turn again"
    );

    // What is left of the line stands for the new position; a second move plays it out.
    let shown = ok(service.matches().show_plan(at, &alice()).await);
    assert!(shown.private, "{shown:?}");
    assert!(shown.text.contains(line[3].as_str()), "{}", shown.text);
    assert!(!shown.text.contains(line[1].as_str()), "{}", shown.text);
    let reply = play(&service, at, &bob(), &line[2]).await;
    assert_eq!(moved_by(&reply, &alice()), [line[3].clone()]);
    assert_eq!(moves_played(&service, at).await[before..], line[..]);
    alice_has_no_plan(&service, at).await;
}

#[tokio::test]
async fn a_move_the_plan_does_not_name_drops_it_and_the_turn_is_the_planners() {
    let service = service().await;
    let at = place(1);
    let pos = alice_waits(&service, at).await;
    let line = line_from(&pos, 2, 0);
    ok(plan(&service, at, &alice(), &line).await);
    let other = line_from(&pos, 1, 3);
    assert_ne!(other[0], line[0]);
    let reply = play(&service, at, &bob(), &other[0]).await;
    assert!(moved_by(&reply, &alice()).is_empty(), "{:?}", reply.events);
    assert_event!(reply.events, Event::TurnStarted { player, .. } if *player == alice().id);
    alice_has_no_plan(&service, at).await;
}

#[tokio::test]
async fn several_lines_answer_different_moves_and_only_the_one_played_counts() {
    let service = service().await;
    let at = place(1);
    let pos = alice_waits(&service, at).await;
    let first = line_from(&pos, 2, 0);
    let second = line_from(&pos, 2, 5);
    assert_ne!(first[0], second[0]);
    ok(plan(&service, at, &alice(), &first).await);
    let both = ok(plan(&service, at, &alice(), &second).await);
    assert!(both.text.contains("2 lines"), "{}", both.text);
    let reply = play(&service, at, &bob(), &second[0]).await;
    assert_eq!(moved_by(&reply, &alice()), [second[1].clone()]);
}

#[tokio::test]
async fn an_end_proposal_drops_the_plan_and_no_plan_is_made_while_one_is_open() {
    let service = service().await;
    let at = place(1);
    let pos = alice_waits(&service, at).await;
    let line = line_from(&pos, 2, 0);
    ok(plan(&service, at, &alice(), &line).await);
    ok(service.matches().propose_end(at, &bob()).await);
    assert_eq!(
        refusal(plan(&service, at, &alice(), &line).await),
        Refusal::PlanWhileProposal
    );
    ok(service
        .matches()
        .answer_end(at, &alice(), false, None)
        .await);
    alice_has_no_plan(&service, at).await;
    // bob's move is answered by nobody: the proposal dropped the plan.
    let reply = play(&service, at, &bob(), &line[0]).await;
    assert!(moved_by(&reply, &alice()).is_empty(), "{:?}", reply.events);

    // The planner's own proposal drops it too.
    let pos = position(&service, at).await;
    play(&service, at, &alice(), &quiet(&pos, 0).to_string()).await;
    let line = line_from(&position(&service, at).await, 2, 0);
    ok(plan(&service, at, &alice(), &line).await);
    ok(service.matches().propose_end(at, &alice()).await);
    alice_has_no_plan(&service, at).await;
}

#[tokio::test]
async fn every_refused_plan_says_why_privately_and_changes_nothing() {
    let service = service().await;
    let at = place(1);
    let pos = alice_waits(&service, at).await;
    let line = line_from(&pos, 4, 0);
    ok(plan(&service, at, &alice(), &line[..2]).await);
    let shown_before = ok(service.matches().show_plan(at, &alice()).await).text;

    let illegal = vec![line[0].clone(), line[0].clone()];
    let cases: Vec<(Actor, String, Refusal)> = vec![
        (bob(), line[..2].join(" "), Refusal::PlanOnYourTurn),
        (carol(), line[..2].join(" "), Refusal::NotAPlayer),
        (
            alice(),
            line[..3].join(" "),
            Refusal::PlanShape { plies: 3, most: 8 },
        ),
        (alice(), line[..2].join(" "), Refusal::PlanHasLine),
        (
            alice(),
            format!(
                "{} {}",
                line[0],
                line_from(&pos.after(&quiet(&pos, 0)), 1, 4)[0]
            ),
            Refusal::PlanConflict {
                theirs: line[0].clone(),
                answer: line[1].clone(),
            },
        ),
    ];
    for (who, text, why) in cases {
        let refused = service.matches().plan(at, &who, &text, false).await;
        assert_eq!(refusal(refused), why, "{text}");
    }
    // A dwarf's move where the trolls move is not legal there: the second move of the line.
    let refused = refusal(plan(&service, at, &alice(), &illegal).await);
    assert!(
        matches!(&refused, Refusal::PlanIllegal { ply: 2, .. }),
        "{refused:?}"
    );
    let unreadable = format!("{} zz9", line[0]);
    let refused = refusal(
        service
            .matches()
            .plan(at, &alice(), &unreadable, false)
            .await,
    );
    assert!(
        matches!(&refused, Refusal::PlanUnreadable { ply: 2, mv, .. } if mv == "zz9"),
        "{refused:?}"
    );
    assert_eq!(
        ok(service.matches().show_plan(at, &alice()).await).text,
        shown_before,
        "no refusal changed the plan"
    );
}

#[tokio::test]
async fn a_line_that_carries_on_a_queued_one_replaces_it() {
    let service = service().await;
    let at = place(1);
    let pos = alice_waits(&service, at).await;
    let line = line_from(&pos, 4, 2);
    ok(plan(&service, at, &alice(), &line[..2]).await);
    let longer = ok(plan(&service, at, &alice(), &line).await);
    assert!(longer.text.contains("1 line"), "{}", longer.text);
    // Started again, a plan holds only the line given, even one its old line would refuse.
    let other = line_from(&pos.after(&quiet(&pos, 2)), 1, 3);
    let afresh = [line[0].clone(), other[0].clone()].join(" ");
    assert_ne!(other[0], line[1]);
    let again = ok(service.matches().plan(at, &alice(), &afresh, true).await);
    assert!(again.text.contains("1 line"), "{}", again.text);
    assert!(again.text.contains(other[0].as_str()), "{}", again.text);
    assert!(!again.text.contains(line[3].as_str()), "{}", again.text);
    let cleared = ok(service.matches().clear_plan(at, &alice()).await);
    assert!(cleared.private && cleared.saved, "{cleared:?}");
    assert!(cleared.text.contains("1 line"), "{}", cleared.text);
    let again = ok(service.matches().clear_plan(at, &alice()).await);
    assert!(!again.saved, "nothing was dropped: {again:?}");
}

#[tokio::test]
async fn the_computer_is_never_planned_against() {
    let service = service().await;
    let at = place(1);
    let computer = Actor::with_kind(thudbot::store::UserId(9), "thudbot", true);
    let options = thudbot::service::ChallengeOptions {
        side: Some(thudbot::store::SideChoice::Dwarfs),
        ..Default::default()
    };
    ok(service
        .matches()
        .challenge_computer(at, &alice(), &computer, Some(1), &options, None)
        .await);
    assert_eq!(
        refusal(
            service
                .matches()
                .plan(at, &alice(), "TG7-F6 dF1-F5", false)
                .await
        ),
        Refusal::PlanAgainstComputer
    );
}

#[tokio::test]
async fn a_planner_who_hears_by_dm_is_told_of_both_moves() {
    let service = service().await;
    let at = place(1);
    ok(service
        .people()
        .settings(&alice(), None, None, Some(Notify::Dm))
        .await);
    let pos = alice_waits(&service, at).await;
    // A DM with a board waits a minute for the channel's message it links to.
    service.clock.advance(chrono::Duration::seconds(61));
    deliver_all(&service).await;
    let line = line_from(&pos, 2, 0);
    ok(plan(&service, at, &alice(), &line).await);
    play(&service, at, &bob(), &line[0]).await;
    service.clock.advance(chrono::Duration::seconds(61));
    let told: Vec<_> = deliver_all(&service)
        .await
        .into_iter()
        .filter(|d| d.to == Recipient::Dm(alice().id))
        .collect();
    assert_eq!(told.len(), 1, "{told:?}");
    let text = &told[0].reply.text;
    assert!(
        text.contains(line[0].as_str()) && text.contains(line[1].as_str()),
        "{text}"
    );
}

/// A plan and the opponent's move sent at once: either the plan lands first and answers the
/// move, or the move lands first and the plan is refused as made on the planner's turn.
#[tokio::test]
async fn a_plan_racing_the_opponents_move_lands_whole_or_not_at_all() {
    let service = service().await;
    for channel in 1..=12u64 {
        let at = place(channel);
        let pos = alice_waits(&service, at).await;
        let line = line_from(&pos, 2, channel as usize);
        let before = moves_played(&service, at).await.len();
        let (planner, mover) = (alice(), bob());
        let request = MoveRequest::Notation(line[0].clone());
        let (planned, moved) = tokio::join!(
            plan(&service, at, &planner, &line),
            service.matches().play(at, &mover, &request)
        );
        let moved = ok(moved);
        let played = moves_played(&service, at).await;
        match planned {
            Ok(_) => {
                assert_eq!(played[before..], line[..], "channel {channel}");
                assert_eq!(moved_by(&moved, &alice()), [line[1].clone()]);
            }
            Err(e) => {
                assert_eq!(refusal(Err(e)), Refusal::PlanOnYourTurn);
                assert_eq!(played[before..], line[..1], "channel {channel}");
                alice_has_no_plan(&service, at).await;
            }
        }
    }
}

/// The lines stored for match `id`, by either player.
async fn lines_stored(service: &crate::common::TestService, id: thudbot::store::MatchId) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM plans WHERE match_id = $1")
        .bind(id.0 as i64)
        .fetch_one(service.db.pool())
        .await
        .expect("the plans table")
}

#[tokio::test]
async fn a_plan_answers_for_its_player_while_they_are_on_vacation() {
    let service = service().await;
    let at = place(1);
    let pos = alice_waits(&service, at).await;
    let line = line_from(&pos, 2, 0);
    ok(plan(&service, at, &alice(), &line).await);
    ok(service.matches().start_vacation(&alice(), Some(3)).await);
    let reply = play(&service, at, &bob(), &line[0]).await;
    assert_eq!(moved_by(&reply, &alice()), [line[1].clone()]);
    // bob's clock runs: it is his turn, and he is not away.
    let m = current(&service, at).await;
    let clock = m.clock.expect("a clock");
    assert_eq!(clock.player, bob().id);
    assert!(clock.vacation_since.is_none(), "{clock:?}");
    let away = service
        .store()
        .vacations_of(&[alice().id])
        .await
        .expect("the store");
    assert!(away.contains_key(&alice().id), "alice is still away");
}

#[tokio::test]
async fn a_resignation_or_a_withdrawal_drops_the_plans_of_the_match() {
    let service = service().await;
    let at = place(1);
    let pos = alice_waits(&service, at).await;
    ok(plan(&service, at, &alice(), &line_from(&pos, 2, 0)).await);
    let id = current(&service, at).await.id;
    assert_eq!(lines_stored(&service, id).await, 1);
    let prompt = ok(service.matches().resign_prompt(at, &bob()).await);
    let thudbot::service::Action::ConfirmResign(confirm) =
        crate::service::button(&prompt, "Confirm resignation")
    else {
        panic!("the button confirms the resignation")
    };
    ok(service.matches().resign(at, &bob(), Some(confirm)).await);
    assert_eq!(lines_stored(&service, id).await, 0);

    // In a tournament game, the opponent's withdrawal forfeits the match and drops the plan.
    use crate::tournaments::{four_started, player, seat_all, HALL};
    four_started(&service).await;
    let mut next = 2000;
    let (id, game) = seat_all(&service, &mut next).await[0];
    let m = service
        .store()
        .load_match(id)
        .await
        .unwrap()
        .expect("the match");
    let [first, second] = m.players.map(|p| player(p.0 - 5000));
    let opening = quiet(&m.game.current_battle().position().clone(), 0);
    play(&service, game, &first, &opening.to_string()).await;
    let waiting = position(&service, game).await;
    let planned = ok(plan(&service, game, &first, &line_from(&waiting, 2, 1)).await);
    assert!(planned.private, "{planned:?}");
    assert_eq!(lines_stored(&service, id).await, 1);
    ok(service.tournaments().withdraw(place(HALL), &second).await);
    let m = service
        .store()
        .load_match(id)
        .await
        .unwrap()
        .expect("the match");
    assert_eq!(m.winner, Some(first.id), "the withdrawal forfeits the game");
    assert_eq!(lines_stored(&service, id).await, 0);
}

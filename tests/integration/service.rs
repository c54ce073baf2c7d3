//! The match service against a real PostgreSQL: whole matches played through service calls,
//! every refusal, concurrency, clocks and ladders.

use crate::common::{alice, bob, carol, place, service, service_with, GUILD};
use chrono::Duration;
use thudbot::game::{GameRecord, Move, Position, Side, Variant};
use thudbot::service::{
    Action, Actor, ChallengeOptions, Delivery, LadderScope, MoveRequest, Place, Reply, Service,
    ServiceConfig, ServiceError, Verb,
};
use thudbot::store::{BoardStyle, ChannelId, Finish, MatchState, Scope, SideChoice, StoredMatch};

fn refusal(result: Result<Reply, ServiceError>) -> String {
    match result {
        Err(ServiceError::Refused(message)) => message,
        Err(other) => panic!("expected a refusal, got {other:?}"),
        Ok(reply) => panic!("expected a refusal, got {:?}", reply.text),
    }
}

fn ok(result: Result<Reply, ServiceError>) -> Reply {
    match result {
        Ok(reply) => reply,
        Err(e) => panic!("expected success, got {e:?}"),
    }
}

fn options(side: SideChoice) -> ChallengeOptions {
    ChallengeOptions {
        side: Some(side),
        ..ChallengeOptions::default()
    }
}

/// The action of the button labelled `label`.
fn button(reply: &Reply, label: &str) -> Action {
    reply
        .buttons
        .iter()
        .find(|b| b.label == label)
        .unwrap_or_else(|| panic!("no {label} button in {:?}", reply.buttons))
        .action
}

/// Runs the clock and takes what it queued from the outbox, as a delivery worker would.
async fn tick(service: &Service) -> Vec<Delivery> {
    service.tick().await.unwrap();
    crate::common::deliver_all(service).await
}

async fn current(service: &Service, at: Place) -> StoredMatch {
    service
        .store()
        .active_match_in(at.channel)
        .await
        .unwrap()
        .expect("a match in play")
}

async fn position(service: &Service, at: Place) -> Position {
    current(service, at)
        .await
        .game
        .current_battle()
        .position()
        .clone()
}

/// `who` plays the move written `notation`.
async fn play(
    service: &Service,
    at: Place,
    who: &Actor,
    notation: &str,
) -> Result<Reply, ServiceError> {
    service
        .play(at, who, &MoveRequest::Notation(notation.to_string()))
        .await
}

/// Starts a classic match in which alice commands the dwarfs in battle 1.
async fn start_match(service: &Service, at: Place) -> Reply {
    let challenge = ok(service
        .challenge(at, &alice(), &bob(), &options(SideChoice::Dwarfs))
        .await);
    let Action::Accept(id) = button(&challenge, "Accept") else {
        panic!("the Accept button accepts")
    };
    ok(service.accept(at, &bob(), Some(id), None).await)
}

/// The player to move.
async fn to_move(service: &Service, at: Place) -> Actor {
    let m = current(service, at).await;
    match m.player_to_move() {
        Some(id) if id == alice().id => alice(),
        Some(id) if id == bob().id => bob(),
        other => panic!("unexpected player to move {other:?}"),
    }
}

/// Plays the first legal move for which `choose` holds, as the player to move would.
async fn play_where(
    service: &Service,
    at: Place,
    choose: impl Fn(&Position, &Move) -> bool,
) -> Reply {
    let pos = position(service, at).await;
    let mv = pos
        .legal_moves()
        .into_iter()
        .find(|m| choose(&pos, m))
        .unwrap_or_else(|| panic!("no move fits in {pos}"));
    let who = to_move(service, at).await;
    ok(service
        .play(at, &who, &MoveRequest::Notation(mv.to_string()))
        .await)
}

fn next_to_troll(pos: &Position, m: &Move) -> bool {
    pos.trolls().iter().any(|t| t.is_adjacent(m.to()))
}

/// A move that captures nothing and gives nothing away: a dwarf not landing next to a troll,
/// a troll capturing nothing.
fn quiet(pos: &Position, m: &Move) -> bool {
    m.captured().is_empty() && (m.piece() != thudbot::game::Piece::Dwarf || !next_to_troll(pos, m))
}

/// Plays until the battle has exactly `dwarfs` dwarfs and `trolls` trolls, capturing one
/// piece at a time.
async fn reach(service: &Service, at: Place, dwarfs: usize, trolls: usize) {
    for _ in 0..60 {
        let pos = position(service, at).await;
        if pos.dwarfs().len() == dwarfs && pos.trolls().len() == trolls {
            return;
        }
        let want_troll = pos.trolls().len() > trolls;
        let want_dwarf = pos.dwarfs().len() > dwarfs;
        match pos.side_to_move() {
            Side::Dwarfs => {
                let hurl = pos
                    .legal_moves()
                    .iter()
                    .any(|m| matches!(m, Move::Hurl { .. }));
                if want_troll && hurl {
                    play_where(service, at, |_, m| matches!(m, Move::Hurl { .. })).await;
                } else if want_troll {
                    play_where(service, at, |p, m| {
                        m.captured().is_empty() && next_to_troll(p, m)
                    })
                    .await;
                } else {
                    play_where(service, at, quiet).await;
                }
            }
            Side::Trolls => {
                if want_dwarf && pos.legal_moves().iter().any(|m| m.captured().len() == 1) {
                    play_where(service, at, |_, m| m.captured().len() == 1).await;
                } else {
                    play_where(service, at, |_, m| m.captured().is_empty()).await;
                }
            }
        }
    }
    panic!("could not reach {dwarfs} dwarfs and {trolls} trolls");
}

#[tokio::test]
async fn a_full_match_scores_as_the_rules_example_and_moves_the_ratings() {
    let service = service().await;
    let at = place(1);
    let started = start_match(&service, at).await;
    assert!(started.text.contains("Battle 1"), "{}", started.text);
    assert_eq!(started.mentions, vec![alice().id]);
    assert_eq!(started.attachments.len(), 1);
    assert!(started.attachments[0].bytes.starts_with(b"\x89PNG"));

    // The wrong player, an illegal move and a spectator change nothing.
    assert!(refusal(play(&service, at, &bob(), "G7-G6").await).contains("not your turn"));
    let illegal = refusal(play(&service, at, &alice(), "F1-G3").await);
    assert!(illegal.contains("not a straight line"), "{illegal}");
    let theirs = refusal(play(&service, at, &alice(), "G7-G6").await);
    assert!(theirs.contains("not your piece"), "{theirs}");
    assert!(refusal(play(&service, at, &carol(), "F1-F5").await).contains("not playing"));
    assert_eq!(
        current(&service, at)
            .await
            .game
            .current_battle()
            .moves()
            .len(),
        0
    );

    // A move by verb, answered with the picture and a mention of the next player only.
    let reply = ok(service
        .play(
            at,
            &alice(),
            &MoveRequest::Verb {
                verb: Verb::Move,
                from: "f1".into(),
                to: "F 5".into(),
                captures: String::new(),
            },
        )
        .await);
    assert!(reply.text.contains("`dF1-F5`"), "{}", reply.text);
    assert_eq!(reply.mentions, vec![bob().id]);
    assert!(!reply.private);

    // A proposal lapses when the other player moves instead.
    ok(service.propose_end(at, &alice()).await);
    let lapsed = play_where(&service, at, |_, m| m.captured().is_empty()).await;
    assert!(lapsed.text.contains("lapses"), "{}", lapsed.text);
    assert!(current(&service, at).await.proposal.is_none());

    // Battle 1: alice's dwarfs end 31 against 7 trolls (28): alice wins it by 3.
    reach(&service, at, 31, 7).await;
    let proposal = ok(service.propose_end(at, &bob()).await);
    assert_eq!(proposal.mentions, vec![alice().id]);
    assert!(refusal(service.answer_end(at, &bob(), true, None).await).contains("your own proposal"));
    let Action::AgreeEnd {
        match_id,
        proposal: p,
    } = button(&proposal, "Agree")
    else {
        panic!("the Agree button agrees")
    };
    let ended = ok(service
        .answer_end(at, &alice(), true, Some((match_id, p)))
        .await);
    assert!(ended.text.contains("wins battle 1 by 3"), "{}", ended.text);
    assert!(ended.text.contains("Battle 2"), "{}", ended.text);
    assert!(ended.spend_buttons);

    // Battle 2 with the roles swapped: bob commands the dwarfs and moves first.
    let m = current(&service, at).await;
    assert_eq!(m.game.battle_number(), 2);
    assert_eq!(m.commander(Side::Dwarfs), bob().id);
    assert_eq!(m.player_to_move(), Some(bob().id));
    // The stale Agree button of battle 1 is refused.
    assert!(refusal(
        service
            .answer_end(at, &alice(), true, Some((match_id, p)))
            .await
    )
    .contains("no open proposal"));

    // Battle 2: bob's dwarfs end 31 against 6 trolls (24): bob wins it by 7, the match by 4.
    reach(&service, at, 31, 6).await;
    let proposal = ok(service.propose_end(at, &alice()).await);
    let Action::AgreeEnd {
        match_id,
        proposal: p,
    } = button(&proposal, "Agree")
    else {
        panic!()
    };
    let over = ok(service
        .answer_end(at, &bob(), true, Some((match_id, p)))
        .await);
    assert!(over.text.contains("wins battle 2 by 7"), "{}", over.text);
    assert!(
        over.text.contains("**bob** wins the match by 4"),
        "{}",
        over.text
    );

    let finished = service.store().load_match(match_id).await.unwrap().unwrap();
    assert_eq!(finished.state, MatchState::Finished);
    assert_eq!(finished.finish, Some(Finish::Completed));
    assert_eq!(finished.winner, Some(bob().id));
    assert!(service
        .store()
        .active_match_in(at.channel)
        .await
        .unwrap()
        .is_none());

    let (bob_rating, bob_rank) = service
        .store()
        .standing(Scope::Guild(GUILD), bob().id)
        .await
        .unwrap()
        .unwrap();
    let (alice_rating, _) = service
        .store()
        .standing(Scope::Guild(GUILD), alice().id)
        .await
        .unwrap()
        .unwrap();
    assert!(bob_rating.rating > 1500.0 && alice_rating.rating < 1500.0);
    assert_eq!(bob_rank, 1);
    assert_eq!((bob_rating.wins, alice_rating.losses), (1, 1));
    let (global, _) = service
        .store()
        .standing(Scope::Global, bob().id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(global.games, 1);

    let board = ok(service.leaderboard(at, LadderScope::Server, 1).await);
    let bob_at = board.text.find("**bob**").unwrap();
    let alice_at = board.text.find("**alice**").unwrap();
    assert!(bob_at < alice_at, "{}", board.text);

    // The record replays through the engine to the same game.
    let record = ok(service.record(at, Some(match_id)).await);
    let text = String::from_utf8(record.attachments[0].bytes.clone()).unwrap();
    let parsed: GameRecord = text.parse().unwrap();
    assert_eq!(parsed.game, finished.game);
    assert_eq!(parsed.tag("First"), Some("alice"));

    let history = ok(service.history(at, &alice()).await);
    assert!(history.text.contains("lost 3–7"), "{}", history.text);
}

#[tokio::test]
async fn battles_end_by_themselves_when_the_side_to_move_has_no_move_and_equal_points_draw() {
    let service = service().await;
    let at = place(2);
    start_match(&service, at).await;
    let trolls_first = |pos: &Position| {
        let trolls = pos.trolls();
        move |m: &Move| {
            let dist = |s: thudbot::game::Square| {
                trolls
                    .iter()
                    .map(|t| {
                        (t.column() as i32 - s.column() as i32)
                            .abs()
                            .max((t.row() as i32 - s.row() as i32).abs())
                    })
                    .min()
                    .unwrap_or(99)
            };
            (dist(m.to()), m.from(), m.to())
        }
    };
    let mut last = Reply::default();
    for _ in 0..400 {
        let Some(m) = service.store().active_match_in(at.channel).await.unwrap() else {
            break;
        };
        let pos = m.game.current_battle().position().clone();
        let moves = pos.legal_moves();
        // Trolls take all they can; dwarfs walk towards the trolls without hurling.
        let mv = match pos.side_to_move() {
            Side::Trolls => *moves
                .iter()
                .max_by_key(|m| (m.captured().len(), std::cmp::Reverse(m.to())))
                .unwrap(),
            Side::Dwarfs => *moves
                .iter()
                .filter(|m| m.captured().is_empty())
                .min_by_key(|m| trolls_first(&pos)(m))
                .unwrap_or(&moves[0]),
        };
        let who = to_move(&service, at).await;
        last = ok(service
            .play(at, &who, &MoveRequest::Notation(mv.to_string()))
            .await);
    }
    assert!(
        last.text.contains("the dwarfs have no legal move"),
        "{}",
        last.text
    );
    assert!(last.text.contains("The match is drawn"), "{}", last.text);
    let id = service
        .store()
        .latest_match_in(at.channel)
        .await
        .unwrap()
        .unwrap();
    let m = service.store().load_match(id).await.unwrap().unwrap();
    let result = m.game.result().unwrap();
    assert_eq!(result.winner, None);
    assert_eq!(result.totals[0], result.totals[1]);
    let (r, _) = service
        .store()
        .standing(Scope::Guild(GUILD), alice().id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((r.games, r.draws), (1, 1));
}

#[tokio::test]
async fn challenges_are_refused_with_a_reason_and_change_nothing() {
    let service = service().await;
    let clock = &service.clock;
    let at = place(3);
    let o = ChallengeOptions::default();
    assert!(refusal(service.challenge(at, &alice(), &alice(), &o).await).contains("yourself"));
    let mut robot = carol();
    robot.is_bot = true;
    assert!(refusal(service.challenge(at, &alice(), &robot, &o).await).contains("bot"));
    let bad_days = ChallengeOptions {
        days_per_move: Some(4),
        ..o.clone()
    };
    assert!(refusal(service.challenge(at, &alice(), &bob(), &bad_days).await).contains("4 days"));

    let first = ok(service.challenge(at, &alice(), &bob(), &o).await);
    assert_eq!(first.mentions, vec![bob().id]);
    // The same pair, either way round, cannot have two open challenges in a channel.
    assert!(refusal(service.challenge(at, &bob(), &alice(), &o).await)
        .contains("already have an open challenge"));
    let Action::Accept(id) = button(&first, "Accept") else {
        panic!()
    };
    assert!(refusal(service.accept(at, &alice(), Some(id), None).await).contains("own challenge"));
    assert!(refusal(service.accept(at, &carol(), Some(id), None).await)
        .contains("not addressed to you"));
    assert!(refusal(service.cancel(at, &bob(), Some(id)).await).contains("Only the challenger"));
    assert!(
        refusal(service.decline(at, &carol(), None).await).contains("Nobody has challenged you")
    );

    // After 24 hours the challenge cannot be accepted, and the clock worker announces it.
    clock.advance(Duration::hours(25));
    assert!(refusal(service.accept(at, &bob(), Some(id), None).await).contains("expired"));
    let notices = tick(&service).await;
    assert!(notices.iter().any(|n| n.reply.text.contains("has expired")));
    assert!(refusal(service.accept(at, &bob(), Some(id), None).await).contains("already expired"));

    // A declined challenge is closed; a cancelled one too.
    let c = ok(service.challenge(at, &alice(), &bob(), &o).await);
    let Action::Decline(id) = button(&c, "Decline") else {
        panic!()
    };
    assert!(ok(service.decline(at, &bob(), Some(id)).await)
        .text
        .contains("declines"));
    assert!(refusal(service.accept(at, &bob(), Some(id), None).await).contains("already declined"));
    ok(service.challenge(at, &alice(), &bob(), &o).await);
    assert!(ok(service.cancel(at, &alice(), None).await)
        .text
        .contains("withdraws"));

    // A channel with a match in play takes no new challenge.
    start_match(&service, at).await;
    assert!(
        refusal(service.challenge(at, &carol(), &bob(), &o).await).contains("already has a match")
    );
}

#[tokio::test]
async fn a_busy_channel_refuses_a_second_acceptance_and_the_challenge_stays_open() {
    let service = service().await;
    let at = place(4);
    let c1 = ok(service
        .challenge(at, &alice(), &bob(), &ChallengeOptions::default())
        .await);
    let c2 = ok(service
        .challenge(at, &carol(), &alice(), &ChallengeOptions::default())
        .await);
    let Action::Accept(id1) = button(&c1, "Accept") else {
        panic!()
    };
    let Action::Accept(id2) = button(&c2, "Accept") else {
        panic!()
    };
    ok(service.accept(at, &bob(), Some(id1), None).await);
    assert!(refusal(service.accept(at, &alice(), Some(id2), None).await)
        .contains("already has a match"));
    let still = service.store().challenge(id2).await.unwrap().unwrap();
    assert_eq!(still.state, thudbot::store::ChallengeState::Pending);
    // In a thread of its own the second match can begin.
    ok(service
        .accept(at, &alice(), Some(id2), Some(ChannelId(4_001)))
        .await);
    assert!(service
        .store()
        .active_match_in(ChannelId(4_001))
        .await
        .unwrap()
        .is_some());
}

#[tokio::test]
async fn play_refusals_name_the_problem() {
    let service = service().await;
    let at = place(5);
    let nothing = refusal(play(&service, at, &alice(), "F1-F5").await);
    assert!(nothing.contains("no match in play"), "{nothing}");
    start_match(&service, at).await;
    let unreadable = refusal(play(&service, at, &alice(), "F1").await);
    assert!(unreadable.contains("could not read"), "{unreadable}");
    let off = refusal(play(&service, at, &alice(), "E2-E1").await);
    assert!(off.contains("E1 is not on the board"), "{off}");
    let hurl = refusal(
        service
            .play(
                at,
                &alice(),
                &MoveRequest::Verb {
                    verb: Verb::Hurl,
                    from: "F1".into(),
                    to: "F5".into(),
                    captures: String::new(),
                },
            )
            .await,
    );
    assert!(hurl.contains("not a hurl"), "{hurl}");
    let capture = refusal(
        service
            .play(
                at,
                &alice(),
                &MoveRequest::Verb {
                    verb: Verb::Move,
                    from: "F1".into(),
                    to: "F5".into(),
                    captures: "Q7".into(),
                },
            )
            .await,
    );
    assert!(capture.contains("Q7"), "{capture}");
    // None of that changed the match.
    let m = current(&service, at).await;
    assert_eq!(m.game.current_battle().moves().len(), 0);
    assert_eq!(m.player_to_move(), Some(alice().id));
    // A shove must capture: after the dwarfs' move, a troll shove that captures nothing.
    ok(play(&service, at, &alice(), "F1-F5").await);
    let shove = refusal(
        service
            .play(
                at,
                &bob(),
                &MoveRequest::Verb {
                    verb: Verb::Shove,
                    from: "H7".into(),
                    to: "H6".into(),
                    captures: "none".into(),
                },
            )
            .await,
    );
    assert!(shove.contains("must capture"), "{shove}");
}

#[tokio::test]
async fn twenty_simultaneous_submissions_of_one_move_land_once() {
    let service = service().await;
    let service = std::sync::Arc::new(service);
    let service = &service;
    let at = place(6);
    start_match(service, at).await;
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let s = std::sync::Arc::clone(service);
        tasks.push(tokio::spawn(async move {
            s.play(at, &alice(), &MoveRequest::Notation("dF1-F5".into()))
                .await
        }));
    }
    let mut landed = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => landed += 1,
            Err(ServiceError::Refused(m)) => assert!(m.contains("not your turn"), "{m}"),
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!(landed, 1);
    let m = current(service, at).await;
    assert_eq!(m.game.current_battle().moves().len(), 1);
    assert_eq!(m.current_battle().stamps.len(), 1);
}

#[tokio::test]
async fn reminders_ping_the_player_to_move_and_a_claim_comes_after_the_deadline() {
    let service = service().await;
    let clock = &service.clock;
    let at = place(7);
    start_match(&service, at).await; // 3 days a move: reminded 36 and 24 hours before
    let deadline = current(&service, at).await.clock.unwrap().deadline;
    assert_eq!(deadline, crate::common::start_time() + Duration::days(3));
    clock.set(deadline - Duration::hours(25));
    assert_eq!(tick(&service).await.len(), 1, "the half-time reminder");
    let claim = refusal(service.claim(at, &bob()).await);
    assert!(claim.contains("still has time"), "{claim}");
    clock.set(deadline - Duration::hours(24));
    let notices = tick(&service).await;
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].reply.mentions, vec![alice().id]);
    assert_eq!(notices[0].channel, at.channel);
    assert!(tick(&service).await.is_empty(), "a reminder is sent once");

    assert!(refusal(service.claim(at, &alice()).await).contains("your turn"));
    clock.set(deadline + Duration::minutes(1));
    let claimed = ok(service.claim(at, &bob()).await);
    assert!(
        claimed.text.contains("bob** wins the match by forfeit"),
        "{}",
        claimed.text
    );
    let id = service
        .store()
        .latest_match_in(at.channel)
        .await
        .unwrap()
        .unwrap();
    let m = service.store().load_match(id).await.unwrap().unwrap();
    assert_eq!(
        (m.finish, m.winner),
        (Some(Finish::Timeout), Some(bob().id))
    );
    let (r, _) = service
        .store()
        .standing(Scope::Guild(GUILD), bob().id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(r.wins, 1, "forfeits are rated");
}

#[tokio::test]
async fn long_turns_are_reminded_at_half_time_and_the_clock_catches_up_after_downtime() {
    let service = service_with(ServiceConfig {
        auto_forfeit_after: Some(Duration::hours(12)),
        ..ServiceConfig::default()
    })
    .await;
    let clock = &service.clock;
    let at = place(8);
    let c = ok(service
        .challenge(
            at,
            &alice(),
            &bob(),
            &ChallengeOptions {
                days_per_move: Some(14),
                side: Some(SideChoice::Dwarfs),
                ..ChallengeOptions::default()
            },
        )
        .await);
    let Action::Accept(id) = button(&c, "Accept") else {
        panic!()
    };
    ok(service.accept(at, &bob(), Some(id), None).await);
    let clock_row = current(&service, at).await.clock.unwrap();
    assert_eq!(clock_row.remind_at, clock_row.deadline - Duration::days(7));
    // The bot was down past the deadline and the grace period: on return the forfeit happens
    // once; the reminder, whose time has gone, is not sent late.
    clock.set(clock_row.deadline + Duration::hours(13));
    let notices = tick(&service).await;
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(
        notices[0].reply.text.contains("missed the deadline"),
        "{}",
        notices[0].reply.text
    );
    assert!(tick(&service).await.is_empty());
    let id = service
        .store()
        .latest_match_in(at.channel)
        .await
        .unwrap()
        .unwrap();
    let m = service.store().load_match(id).await.unwrap().unwrap();
    assert_eq!(
        (m.finish, m.winner),
        (Some(Finish::Timeout), Some(bob().id))
    );
}

#[tokio::test]
async fn two_clock_workers_on_one_database_send_each_reminder_once() {
    let first = service().await;
    let clock = first.clock.clone();
    // A second bot process: its own service and pool over the same database.
    let second = Service::new(
        thudbot::store::Store::new(first.store().pool().clone()),
        std::sync::Arc::new(thudbot::render::Renderer::new()),
        clock.clone(),
        ServiceConfig::default(),
    );
    for channel in 100..110 {
        start_match(&first, place(channel)).await;
    }
    clock.advance(Duration::days(3) - Duration::hours(1));
    let (a, b) = tokio::join!(first.tick(), second.tick());
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.reminders + b.reminders, 10, "{a:?} + {b:?}");
    let (a, b) = tokio::join!(
        crate::common::deliver_all(&first),
        crate::common::deliver_all(&second)
    );
    assert_eq!(a.len() + b.len(), 10, "{} + {}", a.len(), b.len());
    let mut channels: Vec<u64> = a.iter().chain(&b).map(|n| n.channel.0).collect();
    channels.sort();
    channels.dedup();
    assert_eq!(channels.len(), 10);
}

#[tokio::test]
async fn resigning_needs_confirmation_and_aborting_needs_a_moderator() {
    let service = service().await;
    let at = place(9);
    start_match(&service, at).await;
    assert!(refusal(service.resign_prompt(at, &carol()).await).contains("not playing"));
    let prompt = ok(service.resign_prompt(at, &alice()).await);
    assert!(prompt.private);
    let Action::ConfirmResign(id) = button(&prompt, "Confirm resignation") else {
        panic!()
    };
    let done = ok(service.resign(at, &alice(), Some(id)).await);
    assert!(
        done.text.contains("**bob** wins the match by forfeit"),
        "{}",
        done.text
    );
    assert!(refusal(service.resign(at, &alice(), Some(id)).await).contains("no match in play"));
    let m = service.store().load_match(id).await.unwrap().unwrap();
    assert_eq!(
        (m.finish, m.winner),
        (Some(Finish::Resigned), Some(bob().id))
    );

    start_match(&service, at).await;
    assert!(refusal(service.abort(at, &carol(), false).await).contains("moderator"));
    assert!(ok(service.abort(at, &carol(), true).await)
        .text
        .contains("not rated"));
    let id = service
        .store()
        .latest_match_in(at.channel)
        .await
        .unwrap()
        .unwrap();
    let m = service.store().load_match(id).await.unwrap().unwrap();
    assert_eq!((m.state, m.rated), (MatchState::Aborted, false));
    // The aborted match moved no rating: alice has only the resigned match.
    let (r, _) = service
        .store()
        .standing(Scope::Guild(GUILD), alice().id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(r.games, 1);
}

#[tokio::test]
async fn anyone_sees_the_board_and_players_list_their_games() {
    let service = service().await;
    let at = place(10);
    start_match(&service, at).await;
    ok(play(&service, at, &alice(), "F1-F5").await);
    let board = ok(service.board(at, &carol(), None).await);
    assert!(
        board.text.contains("bob to move (trolls)"),
        "{}",
        board.text
    );
    assert!(board.text.contains("Deadline"), "{}", board.text);
    assert!(board.attachments[0].bytes.starts_with(b"\x89PNG"));
    let brief = ok(service.board(at, &carol(), Some(BoardStyle::Brief)).await);
    assert!(
        brief.attachments.is_empty() && brief.text.contains("```"),
        "{}",
        brief.text
    );

    // A saved brief style applies to that player's views.
    ok(service
        .settings(&carol(), Some("brief"), Some("high-contrast"), None)
        .await);
    assert!(ok(service.board(at, &carol(), None).await)
        .attachments
        .is_empty());
    assert!(refusal(service.settings(&carol(), Some("tiny"), None, None).await).contains("tiny"));

    let games = ok(service.my_games(at, &bob(), false).await);
    assert!(
        games.private && games.text.contains("**your move**"),
        "{}",
        games.text
    );
    let theirs = ok(service.my_games(at, &alice(), false).await);
    assert!(theirs.text.contains("bob's move"), "{}", theirs.text);
    assert!(ok(service.my_games(at, &carol(), false).await)
        .text
        .contains("no matches in play"));

    let replay = ok(service.replay(at, None, Some(1), None, None).await);
    assert!(replay.attachments[0].bytes.starts_with(b"GIF8"));
    assert!(replay.text.contains(": 1 move."), "{}", replay.text);
    assert!(refusal(service.replay(at, None, Some(1), None, Some(100)).await).contains("bytes"));
    assert!(refusal(service.replay(at, None, Some(2), None, None).await).contains("no battle 2"));
    assert!(refusal(service.record(place(999), None).await).contains("No match"));
    assert!(service
        .rules(Some(Variant::KoomValley))
        .unwrap()
        .text
        .contains("Rock"));
}

#[tokio::test]
async fn autocomplete_offers_only_legal_choices_to_the_player_to_move() {
    let service = service().await;
    let at = place(11);
    start_match(&service, at).await;
    let from = service.suggest_from(at, &alice(), Verb::Move, "").await;
    assert!(!from.is_empty() && from.len() <= 25);
    assert!(service
        .suggest_from(at, &bob(), Verb::Move, "")
        .await
        .is_empty());
    let f = service.suggest_from(at, &alice(), Verb::Move, "f").await;
    assert!(f.iter().all(|c| c.value.starts_with('F')));
    let to = service.suggest_to(at, &alice(), Verb::Move, "F1", "").await;
    assert!(to.iter().any(|c| c.value == "F5"));
    assert!(service
        .suggest_from(at, &alice(), Verb::Hurl, "")
        .await
        .is_empty());
    ok(play(&service, at, &alice(), "F1-F5").await);
    // F6 touches the dwarf now on F5: capture it, or not; the larger capture comes first.
    let caps = service
        .suggest_captures(at, &bob(), Verb::Move, "G7", "F6", "")
        .await;
    let values: Vec<&str> = caps.iter().map(|c| c.value.as_str()).collect();
    assert_eq!(values, ["F5", "none"]);
    let shoves = service
        .suggest_captures(at, &bob(), Verb::Shove, "G7", "F6", "")
        .await;
    assert_eq!(shoves.len(), 1);
    let moves = service.suggest_notation(at, &bob(), "tg7").await;
    assert!(
        moves.iter().all(|c| c.value.starts_with("TG7-")),
        "{moves:?}"
    );
    assert!(!moves.is_empty());
}

/// Starts a match of `variant` in which alice commands the dwarfs in battle 1.
async fn start_variant(service: &Service, at: Place, variant: Variant) {
    let challenge = ok(service
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
    ok(service.accept(at, &bob(), None, None).await);
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
    assert!(
        won.text.contains("three trolls stand around the Rock"),
        "{}",
        won.text
    );
    assert!(
        won.text.contains("**bob** (trolls) wins battle 1."),
        "{}",
        won.text
    );
    assert!(
        !won.text.contains("Dwarfs 16"),
        "Koom Valley battles are not scored by pieces: {}",
        won.text
    );
    // Battle 2, roles swapped, ends by agreement: a draw.
    assert_eq!(
        current(&service, at).await.commander(Side::Dwarfs),
        bob().id
    );
    let proposal = ok(service.propose_end(at, &alice()).await);
    assert!(proposal.text.contains("draw"), "{}", proposal.text);
    let over = ok(service.answer_end(at, &bob(), true, None).await);
    assert!(over.text.contains("Battle 2 is drawn"), "{}", over.text);
    // alice: 0 + ½; bob: 1 + ½.
    assert!(
        over.text.contains("Total: alice ½ – bob 1½"),
        "{}",
        over.text
    );
    assert!(
        over.text.contains("**bob** wins the match by 1."),
        "{}",
        over.text
    );
    let id = service
        .store()
        .latest_match_in(at.channel)
        .await
        .unwrap()
        .unwrap();
    let record = ok(service.record(at, Some(id)).await);
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
    let replay = ok(service.replay(at, Some(id), Some(1), None, None).await);
    assert!(replay.attachments[0].bytes.starts_with(b"GIF8"));
    // A channel that takes smaller files gets the last part of the battle, and is told so.
    let whole = replay.attachments[0].bytes.len();
    let part = ok(service
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
    assert!(two.contains("at most one dwarf"), "{two}");
    let one = ok(play(&service, at, &bob(), "G7-F6xE6").await);
    assert!(one.text.contains("capturing E6"), "{}", one.text);
    assert!(service
        .rules(Some(Variant::Original))
        .unwrap()
        .text
        .contains("at most one"));
}

#[tokio::test]
async fn a_proposal_stands_while_its_proposer_moves_and_can_be_declined() {
    let service = service().await;
    let at = place(14);
    start_match(&service, at).await;
    // alice proposes on her own turn, then moves: the proposal stands for bob to answer.
    ok(service.propose_end(at, &alice()).await);
    assert!(refusal(service.propose_end(at, &alice()).await).contains("already proposed"));
    let moved = ok(play(&service, at, &alice(), "F1-F5").await);
    assert!(!moved.text.contains("lapses"), "{}", moved.text);
    assert!(current(&service, at).await.proposal.is_some());
    // bob declines: the battle goes on, and a new proposal can be made.
    let kept = ok(service.answer_end(at, &bob(), false, None).await);
    assert!(kept.text.contains("keep playing"), "{}", kept.text);
    assert_eq!(kept.mentions, vec![alice().id]);
    let m = current(&service, at).await;
    assert!(m.proposal.is_none() && m.game.battle_number() == 1);
    ok(service.propose_end(at, &bob()).await);

    // RULES §3: alice proposing while bob's proposal stands is agreeing to it.
    let agreed = ok(service.propose_end(at, &alice()).await);
    assert!(agreed.text.contains("agrees"), "{}", agreed.text);
    assert_eq!(current(&service, at).await.game.battle_number(), 2);
}

//! The match service over days, against real PostgreSQL: reminders and claims, the clock
//! catching up after downtime, several clock workers, resigning and aborting, what anyone can
//! see, and autocomplete. (The match flow itself is in `service.rs`, whose helpers these use.)

use crate::common::{
    alice, assert_event, bob, carol, deliver_all, match_winner, place, service, service_with, GUILD,
};
use chrono::Duration;
use thudbot::game::{Seat, Variant};
use thudbot::service::{
    Action, ChallengeOptions, Event, Refusal, Service, ServiceConfig, Span, Verb,
};
use thudbot::store::{BoardStyle, Finish, MatchState, Notify, Recipient, Scope, SideChoice};

use crate::service::{button, current, ok, play, refusal, start_match, tick};

#[tokio::test]
async fn reminders_ping_the_player_to_move_and_a_claim_comes_after_the_deadline() {
    let service = service().await;
    let clock = &service.clock;
    let at = place(7);
    start_match(&service, at).await; // 3 days a move: reminded 36 and 24 hours before
                                     // Both have moved: a match nobody played is aborted rather than claimed.
    ok(play(&service, at, &alice(), "dF1-F5").await);
    ok(play(&service, at, &bob(), "TG9-G10").await);
    let deadline = current(&service, at).await.clock.unwrap().deadline;
    assert_eq!(deadline, crate::common::start_time() + Duration::days(3));
    clock.set(deadline - Duration::hours(25));
    assert_eq!(tick(&service).await.len(), 1, "the half-time reminder");
    assert_eq!(
        refusal(service.matches().claim(at, &bob()).await),
        Refusal::OpponentHasTime { deadline }
    );
    clock.set(deadline - Duration::hours(24));
    let notices = tick(&service).await;
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].reply.mentions, vec![alice().id]);
    assert_eq!(notices[0].to, Recipient::Channel(at.channel));
    assert!(tick(&service).await.is_empty(), "a reminder is sent once");

    assert_eq!(
        refusal(service.matches().claim(at, &alice()).await),
        Refusal::ClaimOnYourTurn
    );
    clock.set(deadline + Duration::minutes(1));
    let claimed = ok(service.matches().claim(at, &bob()).await);
    assert_event!(
        claimed.events,
        Event::Claimed { by, late, deadline: d }
            if *by == bob().id && *late == alice().id && *d == deadline
    );
    assert_event!(
        claimed.events,
        Event::MatchOver { players, result, .. }
            if match_winner(players, result) == Some(bob().id)
                && result.forfeited_by == Some(Seat::First)
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
        .matches()
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
    ok(service.matches().accept(at, &bob(), Some(id), None).await);
    ok(play(&service, at, &alice(), "dF1-F5").await);
    ok(play(&service, at, &bob(), "TG9-G10").await);
    let clock_row = current(&service, at).await.clock.unwrap();
    assert_eq!(clock_row.remind_at, clock_row.deadline - Duration::days(7));
    // The bot was down past the deadline and the grace period: on return the forfeit happens
    // once; the reminder, whose time has gone, is not sent late.
    clock.set(clock_row.deadline + Duration::hours(13));
    let notices = tick(&service).await;
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert_event!(
        notices[0].reply.events,
        Event::DeadlineMissed { player, deadline, round_over: false }
            if *player == alice().id && *deadline == clock_row.deadline
    );
    assert_event!(
        notices[0].reply.events,
        Event::MatchOver { players, result, .. }
            if match_winner(players, result) == Some(bob().id)
                && result.forfeited_by == Some(Seat::First)
    );
    // How a missed deadline is said, once.
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
        crate::common::renderer(),
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
    let mut channels: Vec<Recipient> = a.iter().chain(&b).map(|n| n.to).collect();
    channels.sort();
    channels.dedup();
    assert_eq!(channels.len(), 10);
}

#[tokio::test]
async fn resigning_needs_confirmation_and_aborting_needs_a_moderator() {
    let service = service().await;
    let at = place(9);
    start_match(&service, at).await;
    assert_eq!(
        refusal(service.matches().resign_prompt(at, &carol()).await),
        Refusal::NotAPlayer
    );
    // Before her first move, the prompt says what resigning would do then.
    let early = ok(service.matches().resign_prompt(at, &alice()).await);
    assert!(early.text.contains("aborts it, unrated"), "{}", early.text);
    ok(service
        .matches()
        .play(
            at,
            &alice(),
            &thudbot::service::MoveRequest::Notation("dF1-F5".into()),
        )
        .await);
    let prompt = ok(service.matches().resign_prompt(at, &alice()).await);
    assert!(prompt.private);
    assert!(prompt.text.contains("counts as a loss"), "{}", prompt.text);
    let Action::ConfirmResign(id) = button(&prompt, "Confirm resignation") else {
        panic!()
    };
    let done = ok(service.matches().resign(at, &alice(), Some(id)).await);
    assert_event!(done.events, Event::Resigned { player } if *player == alice().id);
    assert_event!(
        done.events,
        Event::MatchOver { players, result, .. }
            if match_winner(players, result) == Some(bob().id)
                && result.forfeited_by == Some(Seat::First)
    );
    // How a forfeit is said, once.
    assert!(
        done.text.contains("bob wins the match by forfeit"),
        "{}",
        done.text
    );
    assert_eq!(
        refusal(service.matches().resign(at, &alice(), Some(id)).await),
        Refusal::NoMatchHere
    );
    let m = service.store().load_match(id).await.unwrap().unwrap();
    assert_eq!(
        (m.finish, m.winner),
        (Some(Finish::Resigned), Some(bob().id))
    );

    start_match(&service, at).await;
    assert_eq!(
        refusal(service.matches().abort(at, &carol(), false).await),
        Refusal::NotAModerator
    );
    let aborted = ok(service.matches().abort(at, &carol(), true).await);
    let id = service
        .store()
        .latest_match_in(at.channel)
        .await
        .unwrap()
        .unwrap();
    assert_event!(
        aborted.events,
        Event::Aborted { match_id, by } if *match_id == id && *by == carol().id
    );
    // How an abort is said, once.
    assert!(aborted.text.contains("not rated"), "{}", aborted.text);
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
    let board = ok(service.matches().board(at, &carol(), None).await);
    assert!(
        board.text.contains("bob to move (trolls)"),
        "{}",
        board.text
    );
    assert!(board.text.contains("Deadline"), "{}", board.text);
    assert!(board.attachments[0].bytes.starts_with(b"\x89PNG"));
    let brief = ok(service
        .matches()
        .board(at, &carol(), Some(BoardStyle::Brief))
        .await);
    assert!(
        brief.attachments.is_empty() && brief.text.has_block(),
        "{}",
        brief.text
    );

    // A saved brief style applies to that player's views.
    ok(service
        .people()
        .settings(&carol(), Some("brief"), Some("high-contrast"), None)
        .await);
    assert!(ok(service.matches().board(at, &carol(), None).await)
        .attachments
        .is_empty());
    assert_eq!(
        refusal(
            service
                .people()
                .settings(&carol(), Some("tiny"), None, None)
                .await
        ),
        Refusal::NotABoardStyle {
            given: "tiny".into()
        }
    );

    let games = ok(service.matches().my_games(at, &bob(), false).await);
    assert!(
        games.private && games.text.contains("your move"),
        "{}",
        games.text
    );
    let theirs = ok(service.matches().my_games(at, &alice(), false).await);
    assert!(theirs.text.contains("bob's move"), "{}", theirs.text);
    assert!(ok(service.matches().my_games(at, &carol(), false).await)
        .text
        .contains("no matches in play"));

    let replay = ok(service
        .records()
        .replay(at, None, Some(1), None, None)
        .await);
    assert!(replay.attachments[0].bytes.starts_with(b"GIF8"));
    assert!(replay.text.contains(": 1 move."), "{}", replay.text);
    assert!(matches!(
        refusal(
            service
                .records()
                .replay(at, None, Some(1), None, Some(100))
                .await
        ),
        Refusal::ReplayTooLarge { limit: 100, .. }
    ));
    assert!(matches!(
        refusal(
            service
                .records()
                .replay(at, None, Some(2), None, None)
                .await
        ),
        Refusal::NoBattleYet { battle: 2, .. }
    ));
    assert_eq!(
        refusal(service.records().record(place(999), None).await),
        Refusal::NoMatchYet
    );
    assert!(service
        .people()
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
    let from = service
        .matches()
        .suggest_from(at, &alice(), Verb::Move, "")
        .await;
    assert!(!from.is_empty() && from.len() <= 25);
    assert!(service
        .matches()
        .suggest_from(at, &bob(), Verb::Move, "")
        .await
        .is_empty());
    let f = service
        .matches()
        .suggest_from(at, &alice(), Verb::Move, "f")
        .await;
    assert!(f.iter().all(|c| c.value.starts_with('F')));
    let to = service
        .matches()
        .suggest_to(at, &alice(), Verb::Move, "F1", "")
        .await;
    assert!(to.iter().any(|c| c.value == "F5"));
    assert!(service
        .matches()
        .suggest_from(at, &alice(), Verb::Hurl, "")
        .await
        .is_empty());
    ok(play(&service, at, &alice(), "F1-F5").await);
    // F6 touches the dwarf now on F5: capture it, or not; the larger capture comes first.
    let caps = service
        .matches()
        .suggest_captures(at, &bob(), Verb::Move, "G7", "F6", "")
        .await;
    let values: Vec<&str> = caps.iter().map(|c| c.value.as_str()).collect();
    assert_eq!(values, ["F5", "none"]);
    let shoves = service
        .matches()
        .suggest_captures(at, &bob(), Verb::Shove, "G7", "F6", "")
        .await;
    assert_eq!(shoves.len(), 1);
    let moves = service.matches().suggest_notation(at, &bob(), "tg7").await;
    assert!(
        moves.iter().all(|c| c.value.starts_with("TG7-")),
        "{moves:?}"
    );
    assert!(!moves.is_empty());
}

#[tokio::test]
async fn a_turn_dm_waits_for_the_moves_message_and_links_to_it() {
    let service = service().await;
    let at = place(16);
    for player in [alice(), bob()] {
        ok(service
            .people()
            .settings(&player, None, None, Some(Notify::Dm))
            .await);
    }
    // The opening does not ping alice, who moves first: she hears of it by DM once the
    // opening board is posted.
    let opening = start_match(&service, at).await;
    assert!(opening.mentions.is_empty(), "{:?}", opening.mentions);
    assert!(deliver_all(&service).await.is_empty());
    ok_unit(
        service
            .outbox()
            .board_posted(at.channel, opening.board.expect("a board"), Some(770))
            .await,
    );
    let first = deliver_all(&service).await;
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].to, Recipient::Dm(alice().id));
    assert_event!(
        first[0].reply.events,
        Event::MatchBegan { dwarfs, trolls, .. } if *dwarfs == alice().id && *trolls == bob().id
    );
    assert_event!(
        first[0].reply.events,
        Event::TurnStarted { player, .. } if *player == alice().id
    );
    // How a match's beginning is said by DM, once.
    assert!(
        first[0]
            .reply
            .text
            .contains("begins; you command the dwarfs in battle 1 against bob"),
        "{}",
        first[0].reply.text
    );
    let moved = ok(play(&service, at, &alice(), "F1-F5").await);
    let shot = moved.board.expect("the move shows the board");
    // Until the move's own message is posted, bob's DM waits.
    assert!(deliver_all(&service)
        .await
        .iter()
        .all(|d| matches!(d.to, Recipient::Channel(_))));
    ok_unit(
        service
            .outbox()
            .board_posted(at.channel, shot, Some(777))
            .await,
    );
    the_one_dm_links_to(&service, bob().id, "16/777").await;

    // A move whose message is never seen: the DM goes after a minute, linking to the channel.
    ok(play(&service, at, &bob(), "G7-G6").await);
    assert!(deliver_all(&service)
        .await
        .iter()
        .all(|d| matches!(d.to, Recipient::Channel(_))));
    service.clock.advance(Duration::seconds(61));
    the_one_dm_links_to(&service, alice().id, "16").await;
}

/// Delivers the outbox: exactly one DM, to `player`, linking to `place` (`channel/message`).
async fn the_one_dm_links_to(service: &Service, player: thudbot::store::UserId, place: &str) {
    let dms: Vec<_> = deliver_all(service)
        .await
        .into_iter()
        .filter(|d| matches!(d.to, Recipient::Dm(_)))
        .collect();
    assert_eq!(dms.len(), 1);
    assert_eq!(dms[0].to, Recipient::Dm(player));
    let link = Span::Link {
        label: "match #1's channel".into(),
        url: format!("https://discord.com/channels/{GUILD}/{place}"),
    };
    assert!(
        dms[0].reply.text.spans().contains(&link),
        "{}",
        dms[0].reply.text
    );
}

fn ok_unit(result: Result<(), thudbot::service::ServiceError>) {
    result.unwrap_or_else(|e| panic!("{e:?}"));
}

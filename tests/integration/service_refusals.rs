//! Requests the match service refuses, against real PostgreSQL: each with its reason, and
//! none of them changing anything. (The helpers are `service.rs`'s.)

use crate::common::{alice, assert_event, bob, carol, place, service};
use chrono::Duration;
use thudbot::service::{Action, ChallengeOptions, Event, MoveRequest, Refusal, Verb};
use thudbot::store::{ChannelId, Recipient};

use crate::service::{button, current, ok, play, refusal, start_match, tick};

#[tokio::test]
async fn challenges_are_refused_with_a_reason_and_change_nothing() {
    let service = service().await;
    let clock = &service.clock;
    let at = place(3);
    let o = ChallengeOptions::default();
    assert_eq!(
        refusal(
            service
                .matches()
                .challenge(at, &alice(), &alice(), &o)
                .await
        ),
        Refusal::ChallengeSelf
    );
    let mut robot = carol();
    robot.is_bot = true;
    assert_eq!(
        refusal(service.matches().challenge(at, &alice(), &robot, &o).await),
        Refusal::OpponentIsABot {
            name: "carol".into()
        }
    );
    let bad_days = ChallengeOptions {
        days_per_move: Some(4),
        ..o.clone()
    };
    assert_eq!(
        refusal(
            service
                .matches()
                .challenge(at, &alice(), &bob(), &bad_days)
                .await
        ),
        Refusal::DaysNotOffered(4)
    );

    let first = ok(service.matches().challenge(at, &alice(), &bob(), &o).await);
    assert_eq!(first.mentions, vec![bob().id]);
    // The same pair, either way round, cannot have two open challenges in a channel.
    assert_eq!(
        refusal(service.matches().challenge(at, &bob(), &alice(), &o).await),
        Refusal::DuplicateChallenge {
            opponent: "alice".into()
        }
    );
    let Action::Accept(id) = button(&first, "Accept") else {
        panic!()
    };
    assert_eq!(
        refusal(service.matches().accept(at, &alice(), Some(id), None).await),
        Refusal::AnswerOwnChallenge
    );
    assert_eq!(
        refusal(service.matches().accept(at, &carol(), Some(id), None).await),
        Refusal::NotYourChallenge
    );
    assert_eq!(
        refusal(service.matches().cancel(at, &bob(), Some(id)).await),
        Refusal::OnlyChallengerCancels
    );
    assert_eq!(
        refusal(service.matches().decline(at, &carol(), None).await),
        Refusal::NobodyChallengedYou
    );

    // After 24 hours the challenge cannot be accepted, and the clock worker announces it.
    clock.advance(Duration::hours(25));
    assert_eq!(
        refusal(service.matches().accept(at, &bob(), Some(id), None).await),
        Refusal::ChallengeExpired
    );
    let notices = tick(&service).await;
    let told: Vec<Event> = notices
        .iter()
        .filter(|n| n.to == Recipient::Channel(at.channel))
        .flat_map(|n| n.reply.events.clone())
        .collect();
    assert_event!(
        told,
        Event::ChallengeExpired { challenger, opponent }
            if *challenger == alice().id && *opponent == bob().id
    );
    // How an expired challenge is said, once.
    assert!(notices.iter().any(|n| n.reply.text.contains("has expired")));
    assert_eq!(
        refusal(service.matches().accept(at, &bob(), Some(id), None).await),
        Refusal::ChallengeAlreadyAnswered { state: "expired" }
    );

    // A declined challenge is closed; a cancelled one too.
    let c = ok(service.matches().challenge(at, &alice(), &bob(), &o).await);
    let Action::Decline(id) = button(&c, "Decline") else {
        panic!()
    };
    assert!(ok(service.matches().decline(at, &bob(), Some(id)).await)
        .text
        .contains("declines"));
    assert_eq!(
        refusal(service.matches().accept(at, &bob(), Some(id), None).await),
        Refusal::ChallengeAlreadyAnswered { state: "declined" }
    );
    ok(service.matches().challenge(at, &alice(), &bob(), &o).await);
    assert!(ok(service.matches().cancel(at, &alice(), None).await)
        .text
        .contains("withdraws"));

    // A channel with a match in play takes no new challenge.
    start_match(&service, at).await;
    assert_eq!(
        refusal(service.matches().challenge(at, &carol(), &bob(), &o).await),
        Refusal::ChannelBusy
    );
}

#[tokio::test]
async fn a_busy_channel_refuses_a_second_acceptance_and_the_challenge_stays_open() {
    let service = service().await;
    let at = place(4);
    let c1 = ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &ChallengeOptions::default())
        .await);
    let c2 = ok(service
        .matches()
        .challenge(at, &carol(), &alice(), &ChallengeOptions::default())
        .await);
    let Action::Accept(id1) = button(&c1, "Accept") else {
        panic!()
    };
    let Action::Accept(id2) = button(&c2, "Accept") else {
        panic!()
    };
    ok(service.matches().accept(at, &bob(), Some(id1), None).await);
    assert_eq!(
        refusal(
            service
                .matches()
                .accept(at, &alice(), Some(id2), None)
                .await
        ),
        Refusal::ChallengeChannelBusy
    );
    let still = service.store().challenge(id2).await.unwrap().unwrap();
    assert_eq!(still.state, thudbot::store::ChallengeState::Pending);
    // In a thread of its own the second match can begin.
    let room: thudbot::service::Room = Box::new(|_, _| Box::pin(async { Ok(ChannelId(4_001)) }));
    ok(service
        .matches()
        .accept(at, &alice(), Some(id2), Some(room))
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
    assert_eq!(
        refusal(play(&service, at, &alice(), "F1-F5").await),
        Refusal::NoMatchHere
    );
    start_match(&service, at).await;
    let unreadable = refusal(play(&service, at, &alice(), "F1").await);
    assert!(
        matches!(unreadable, Refusal::UnreadableMove { .. }),
        "{unreadable:?}"
    );
    let off = refusal(play(&service, at, &alice(), "E2-E1").await);
    assert!(
        matches!(&off, Refusal::UnreadableMove { why } if why.contains("E1 is not on the board")),
        "{off:?}"
    );
    let hurl = refusal(
        service
            .matches()
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
    assert_eq!(
        hurl,
        Refusal::NotAHurl {
            mv: "dF1-F5".into()
        }
    );
    let capture = refusal(
        service
            .matches()
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
    assert!(
        matches!(&capture, Refusal::UnreadableCaptures { why } if why.contains("Q7")),
        "{capture:?}"
    );
    // None of that changed the match.
    let m = current(&service, at).await;
    assert_eq!(m.game.current_battle().moves().len(), 0);
    assert_eq!(m.player_to_move(), Some(alice().id));
    // A shove must capture: after the dwarfs' move, a troll shove that captures nothing.
    ok(play(&service, at, &alice(), "F1-F5").await);
    let shove = refusal(
        service
            .matches()
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
    assert_eq!(shove, Refusal::ShoveWithoutCapture);
}

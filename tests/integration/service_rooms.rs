//! A match's room of its own (a thread) is opened only for a match that begins: never for a
//! refusal, once for two accepts of one challenge racing each other.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use thudbot::service::{Action, ChallengeOptions, Refusal, Room};
use thudbot::store::ChannelId;

use crate::common::{alice, bob, ok, place, refusal, service};
use crate::service::button;

/// A room that counts how often it was opened; each opening gets a fresh channel id.
fn counted_room(opened: &Arc<AtomicU64>) -> Room<'static> {
    let opened = opened.clone();
    Box::new(move |_, _| {
        Box::pin(async move { Some(ChannelId(9_000 + opened.fetch_add(1, Ordering::SeqCst))) })
    })
}

#[tokio::test]
async fn two_accepts_racing_open_one_room_for_one_match() {
    let service = service().await;
    let at = place(31);
    let challenge = ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &ChallengeOptions::default())
        .await);
    let Action::Accept(id) = button(&challenge, "Accept") else {
        panic!("an Accept button")
    };
    let opened = Arc::new(AtomicU64::new(0));
    let bob = bob();
    let (first, second) = tokio::join!(
        service
            .matches()
            .accept(at, &bob, Some(id), Some(counted_room(&opened))),
        service
            .matches()
            .accept(at, &bob, Some(id), Some(counted_room(&opened))),
    );
    let results = [first, second];
    assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
    assert_eq!(opened.load(Ordering::SeqCst), 1, "one room for one match");
    let refused = results
        .into_iter()
        .find_map(Result::err)
        .expect("one refusal");
    assert!(matches!(
        refused,
        thudbot::service::ServiceError::Refused(
            Refusal::ChallengeClosed | Refusal::ChallengeAlreadyAnswered { .. }
        )
    ));
    // The match is played in the room that opened.
    assert!(service
        .store()
        .active_match_in(ChannelId(9_000))
        .await
        .unwrap()
        .is_some());
}

#[tokio::test]
async fn a_refused_computer_challenge_opens_no_room() {
    let service = service().await;
    let at = place(32);
    let thudbot = thudbot::service::Actor::with_kind(thudbot::store::UserId(9), "thudbot", true);
    let opened = Arc::new(AtomicU64::new(0));
    let rated = ChallengeOptions {
        rated: Some(true),
        ..ChallengeOptions::default()
    };
    let refused = refusal(
        service
            .matches()
            .challenge_computer(
                at,
                &alice(),
                &thudbot,
                None,
                &rated,
                Some(counted_room(&opened)),
            )
            .await,
    );
    assert_eq!(refused, Refusal::RatedAgainstComputer);
    assert_eq!(
        refusal(
            service
                .matches()
                .challenge_computer(
                    at,
                    &alice(),
                    &thudbot,
                    Some(9),
                    &ChallengeOptions::default(),
                    Some(counted_room(&opened)),
                )
                .await
        ),
        Refusal::NoSuchLevel(9)
    );
    assert_eq!(opened.load(Ordering::SeqCst), 0, "no room for a refusal");
    // Accepted, it opens one.
    ok(service
        .matches()
        .challenge_computer(
            at,
            &alice(),
            &thudbot,
            Some(1),
            &ChallengeOptions::default(),
            Some(counted_room(&opened)),
        )
        .await);
    assert_eq!(opened.load(Ordering::SeqCst), 1);
}

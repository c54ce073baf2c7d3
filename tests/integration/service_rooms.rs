//! A match's room of its own (a thread) is opened only for a match that begins: never for a
//! refusal, once for two accepts of one challenge racing each other.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use thudbot::service::{Action, ChallengeOptions, Place, Refusal, Room, Service};
use thudbot::store::{ChallengeId, ChannelId};

use crate::common::{alice, bob, ok, place, refusal, service};
use crate::service::button;

/// A room that counts how often it was opened; each opening gets a fresh channel id.
fn counted_room(opened: &Arc<AtomicU64>) -> Room<'static> {
    let opened = opened.clone();
    Box::new(move |_, _| {
        Box::pin(async move { Ok(ChannelId(9_000 + opened.fetch_add(1, Ordering::SeqCst))) })
    })
}

/// alice challenges bob at `at`; the challenge's id, from its Accept button.
async fn challenged(service: &Service, at: Place) -> ChallengeId {
    let challenge = ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &ChallengeOptions::default())
        .await);
    let Action::Accept(id) = button(&challenge, "Accept") else {
        panic!("an Accept button")
    };
    id
}

#[tokio::test]
async fn two_accepts_racing_open_one_room_for_one_match() {
    let service = service().await;
    let at = place(31);
    let id = challenged(&service, at).await;
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

/// A room that, while it is being opened (a Discord call on a real server), counts the
/// database's sessions holding a transaction open, and leaves the count in `open`.
fn watching_room(pool: sqlx::PgPool, open: Arc<AtomicU64>, room: u64) -> Room<'static> {
    Box::new(move |_, _| {
        Box::pin(async move {
            let waiting: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM pg_stat_activity
                 WHERE datname = current_database() AND pid <> pg_backend_pid()
                   AND state LIKE 'idle in transaction%'",
            )
            .fetch_one(&pool)
            .await
            .expect("the sessions");
            open.store(waiting as u64 + 1, Ordering::SeqCst);
            Ok(ChannelId(room))
        })
    })
}

#[tokio::test]
async fn rooms_are_opened_with_no_transaction_open() {
    let service = service().await;
    let pool = service.store().pool().clone();
    // Accepting a challenge.
    let at = place(34);
    let id = challenged(&service, at).await;
    let open = Arc::new(AtomicU64::new(0));
    let room = watching_room(pool.clone(), open.clone(), 9_500);
    ok(service
        .matches()
        .accept(at, &bob(), Some(id), Some(room))
        .await);
    assert_eq!(
        open.load(Ordering::SeqCst),
        1,
        "the room was asked for, with none open"
    );
    // Playing the computer.
    let thudbot = thudbot::service::Actor::with_kind(thudbot::store::UserId(9), "thudbot", true);
    let open = Arc::new(AtomicU64::new(0));
    let room = watching_room(pool, open.clone(), 9_501);
    let options = ChallengeOptions::default();
    ok(service
        .matches()
        .challenge_computer(place(35), &alice(), &thudbot, Some(1), &options, Some(room))
        .await);
    assert_eq!(
        open.load(Ordering::SeqCst),
        1,
        "the room was asked for, with none open"
    );
}

#[tokio::test]
async fn a_claim_to_accept_holds_off_expiry_and_a_second_accept_and_lapses_if_abandoned() {
    let service = service().await;
    let at = place(36);
    let id = challenged(&service, at).await;
    // A process claims the challenge to accept it, and dies before the match begins.
    let now = service.now();
    let claimed = service
        .store()
        .claim_acceptance(id, now, now + chrono::Duration::seconds(60));
    assert!(claimed.await.unwrap());
    let refused = refusal(service.matches().accept(at, &bob(), Some(id), None).await);
    assert_eq!(refused, Refusal::ChallengeClosed);
    // The claim lapses; the challenge is still there to accept.
    service.clock.advance(chrono::Duration::seconds(61));
    assert_eq!(service.tick().await.unwrap().expired_challenges, 0);
    ok(service.matches().accept(at, &bob(), Some(id), None).await);

    // A claim made just before the challenge expires keeps it from expiring under it.
    let id = challenged(&service, place(37)).await;
    service
        .clock
        .advance(chrono::Duration::hours(24) - chrono::Duration::seconds(1));
    let now = service.now();
    let claimed = service
        .store()
        .claim_acceptance(id, now, now + chrono::Duration::seconds(60));
    assert!(claimed.await.unwrap());
    service.clock.advance(chrono::Duration::seconds(30));
    assert_eq!(service.tick().await.unwrap().expired_challenges, 0);
    service.clock.advance(chrono::Duration::seconds(31));
    assert_eq!(service.tick().await.unwrap().expired_challenges, 1);
}

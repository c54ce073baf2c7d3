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

/// A room that, while it is being opened, reads the outbox's record of it (its state, whether
/// it falls due at once, and the name it wants) into `seen`, and, if `cancel`, has the challenge
/// cancelled meanwhile; each opening gets channel `room`.
fn recorded_room(
    pool: sqlx::PgPool,
    seen: Arc<std::sync::Mutex<Vec<(String, bool, String)>>>,
    cancel: bool,
    room: u64,
) -> Room<'static> {
    Box::new(move |_, name| {
        Box::pin(async move {
            let rows: Vec<(String, bool, serde_json::Value)> = sqlx::query_as(
                "SELECT state, due_at < created_at + interval '5 minutes', body FROM notices
                 WHERE body::text LIKE '%room-wanted%'",
            )
            .fetch_all(&pool)
            .await
            .expect("the outbox");
            for (state, due, body) in rows {
                let wanted = body["events"][0]["name"].as_str().unwrap_or("").to_string();
                seen.lock().unwrap().push((state, due, wanted));
            }
            assert!(!name.is_empty());
            if cancel {
                sqlx::query("UPDATE challenges SET state = 'cancelled'")
                    .execute(&pool)
                    .await
                    .expect("cancelled");
            }
            Ok(ChannelId(room))
        })
    })
}

#[tokio::test]
async fn a_rooms_opening_is_recorded_in_the_outbox_first_and_settled_with_its_match() {
    let service = service().await;
    let pool = service.store().pool().clone();
    let at = place(36);
    let id = challenged(&service, at).await;
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let room = recorded_room(pool, seen.clone(), false, 9_600);
    ok(service
        .matches()
        .accept(at, &bob(), Some(id), Some(room))
        .await);
    // While Discord was asked, the outbox held the room as wanted, not yet due.
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 1, "{seen:?}");
    let (state, due, name) = &seen[0];
    assert_eq!((state.as_str(), *due), ("pending", false), "{seen:?}");
    assert!(name.contains("alice") && name.contains("bob"), "{name}");
    // The match began in the room: the record is settled, and the front-end has nothing to
    // clear.
    assert!(service
        .store()
        .active_match_in(ChannelId(9_600))
        .await
        .unwrap()
        .is_some());
    let deliveries = crate::common::deliver_all(&service).await;
    assert!(
        deliveries.iter().all(|d| d.clears_room.is_none()),
        "{deliveries:?}"
    );
    let states: Vec<String> =
        sqlx::query_scalar("SELECT state FROM notices WHERE body::text LIKE '%room-wanted%'")
            .fetch_all(service.store().pool())
            .await
            .unwrap();
    assert_eq!(states, ["delivered"]);
}

#[tokio::test]
async fn a_room_its_match_did_not_begin_in_is_handed_to_the_front_end_to_clear_at_once() {
    let service = service().await;
    let pool = service.store().pool().clone();
    let at = place(37);
    let id = challenged(&service, at).await;
    // The challenge is cancelled while its room opens: the accept is refused.
    let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
    let room = recorded_room(pool, seen.clone(), true, 9_700);
    let refused = refusal(
        service
            .matches()
            .accept(at, &bob(), Some(id), Some(room))
            .await,
    );
    assert!(matches!(refused, Refusal::ChallengeClosed), "{refused:?}");
    let wanted = seen.lock().unwrap()[0].2.clone();
    // The record falls due at once, and its delivery asks the front-end to look for the
    // thread it may have made and to close it, since nothing lives in it.
    let deliveries = crate::common::deliver_all(&service).await;
    let clearing: Vec<_> = deliveries
        .iter()
        .filter_map(|d| d.clears_room.clone())
        .collect();
    assert_eq!(clearing, [wanted], "{deliveries:?}");
    let clear = deliveries.iter().find(|d| d.clears_room.is_some()).unwrap();
    assert_eq!(clear.to, thudbot::store::Recipient::Channel(at.channel));
    assert!(service
        .store()
        .active_match_in(ChannelId(9_700))
        .await
        .unwrap()
        .is_none());
}

#[tokio::test]
async fn a_room_whose_process_stopped_before_its_match_began_is_cleared_once_its_opening_had_its_time(
) {
    let service = service().await;
    let at = place(38);
    let id = challenged(&service, at).await;
    // Discord opens the room, and the process stops before the match's transaction: the
    // accept is dropped where it waits.
    let (opened, told) = tokio::sync::oneshot::channel();
    let room: Room<'static> = Box::new(move |_, name| {
        Box::pin(async move {
            let _ = opened.send(name);
            std::future::pending::<Result<ChannelId, thudbot::service::NoRoom>>().await
        })
    });
    let bob = bob();
    let name = tokio::select! {
        _ = service.matches().accept(at, &bob, Some(id), Some(room)) => {
            panic!("the accept went on")
        }
        name = told => name.expect("the room was asked for"),
    };
    // While the opening has its time, nothing is asked of the front-end.
    service.clock.advance(chrono::Duration::minutes(9));
    let early = crate::common::deliver_all(&service).await;
    assert!(early.iter().all(|d| d.clears_room.is_none()), "{early:?}");
    // Then the record falls due: the front-end looks for the thread and closes it.
    service.clock.advance(chrono::Duration::minutes(2));
    let deliveries = crate::common::deliver_all(&service).await;
    let clearing: Vec<_> = deliveries
        .iter()
        .filter_map(|d| d.clears_room.clone())
        .collect();
    assert_eq!(clearing, [name], "{deliveries:?}");
}

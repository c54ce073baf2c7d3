//! Seating a tournament game when Discord will not open its thread: what the front-end's room
//! reports decides what players hear. Discord's passing trouble (a 429, a 5xx, a time-out) is
//! tried again without a word; the server's own reasons (a missing permission, the limit of
//! active threads) are told once, each in its own words; a room opened for a game that needed
//! none by then is handed back for the front-end to close.

use thudbot::service::{NoRoom, Room, Seating, Service};
use thudbot::store::{ChannelId, Recipient};

use crate::common::{deliver_all, ok, place, service, start_time};
use crate::tournaments::{four_started, organiser, HALL};

/// A round robin of four in the hall, started: two games to seat.
async fn started(s: &Service) {
    four_started(s).await;
    deliver_all(s).await;
}

/// A room that fails with `why`.
fn failing(why: NoRoom) -> Room<'static> {
    Box::new(move |_, _| Box::pin(async move { Err(why) }))
}

/// What the notices delivered now say of games that could not start.
async fn told_not_seated(s: &Service) -> Vec<String> {
    deliver_all(s)
        .await
        .iter()
        .map(|d| d.reply.text.to_plain(start_time()))
        .filter(|text| text.contains("could not start"))
        .collect()
}

#[tokio::test]
async fn discords_passing_trouble_is_not_told_and_the_thread_limit_is_named_once() {
    let s = service().await;
    started(&s).await;
    let game = s.tournaments().games_to_seat(100).await.unwrap()[0].game;

    let later = NoRoom::Later("Discord answered 503".into());
    let seating = s.tournaments().seat_game(game, failing(later)).await;
    assert_eq!(seating.unwrap(), Seating::NotSeated);
    assert_eq!(told_not_seated(&s).await, Vec::<String>::new());

    // After its pause, the server turns out to be at its limit of active threads.
    s.clock.advance(chrono::Duration::minutes(2));
    let seating = s
        .tournaments()
        .seat_game(game, failing(NoRoom::ThreadLimit))
        .await;
    assert_eq!(seating.unwrap(), Seating::NotSeated);
    let told = told_not_seated(&s).await;
    // In the channel, and to the organiser and both players by direct message.
    assert_eq!(told.len(), 4, "{told:#?}");
    assert!(
        told[0].contains("as many active threads as Discord allows")
            && !told[0].contains("Create Public Threads"),
        "{}",
        told[0]
    );

    // A second failure of the server's is not told again; the game is seated once it can be.
    s.clock.advance(chrono::Duration::minutes(4));
    let refused = NoRoom::Refused("Missing Permissions".into());
    s.tournaments()
        .seat_game(game, failing(refused))
        .await
        .unwrap();
    assert_eq!(told_not_seated(&s).await, Vec::<String>::new());
    s.clock.advance(chrono::Duration::minutes(8));
    let room: Room = Box::new(|_, _| Box::pin(async { Ok(ChannelId(7_001)) }));
    let seated = s.tournaments().seat_game(game, room).await.unwrap();
    assert!(seated.match_id().is_some(), "{seated:?}");
}

#[tokio::test]
async fn a_room_opened_for_a_game_that_needed_none_by_then_is_closed_through_the_outbox() {
    let s = service().await;
    started(&s).await;
    let game = s.tournaments().games_to_seat(100).await.unwrap()[0].game;
    // While the thread opens (no lock is held), the organiser calls the tournament off.
    let room: Room = Box::new(|_, _| {
        Box::pin(async {
            ok(s.tournaments()
                .cancel(place(HALL), &organiser(), true)
                .await);
            Ok(ChannelId(7_002))
        })
    });
    let seating = s.tournaments().seat_game(game, room).await.unwrap();
    assert_eq!(seating, Seating::RoomUnused(ChannelId(7_002)));
    // The outbox archives it, empty, as it closes a finished match's thread: after a while,
    // and retried after Discord's passing trouble like any notice.
    s.clock.advance(chrono::Duration::minutes(3));
    let closed: Vec<_> = deliver_all(&s)
        .await
        .into_iter()
        .filter(|d| d.to == Recipient::Channel(ChannelId(7_002)))
        .collect();
    assert_eq!(closed.len(), 1, "{closed:#?}");
    assert!(closed[0].closes_thread);
    assert_eq!(closed[0].reply.text.to_string(), "");
}

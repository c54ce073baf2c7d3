//! Each turn is reminded twice, exactly once each: when half the time for the move is left,
//! and a day before the deadline (once only when a move has one or two days).

use crate::common::{alice, bob, deliver_all, ok, place, service, start_time, TestService};
use chrono::Duration;
use thudbot::service::{ChallengeOptions, Event, MoveRequest};
use thudbot::store::SideChoice;

/// alice (dwarfs, to move) plays bob in `channel` with `days` a move.
async fn begin(service: &TestService, channel: u64, days: u32) {
    let at = place(channel);
    let options = ChallengeOptions {
        side: Some(SideChoice::Dwarfs),
        days_per_move: Some(days),
        ..ChallengeOptions::default()
    };
    ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &options)
        .await);
    ok(service.matches().accept(at, &bob(), None, None).await);
    deliver_all(service).await;
}

/// The reminders sent when the clock reads `hours` after the start: each one's event and
/// words.
async fn reminders_at(service: &TestService, hours: i64) -> Vec<(Event, String)> {
    service.clock.set(start_time() + Duration::hours(hours));
    service.tick().await.unwrap();
    deliver_all(service)
        .await
        .into_iter()
        .filter_map(|d| {
            let reminder = d
                .reply
                .events
                .iter()
                .find(|e| matches!(e, Event::ReminderDue { .. }))?
                .clone();
            Some((reminder, d.reply.text.to_string()))
        })
        .collect()
}

/// Whether `event` reminds alice of her turn, at half time or with less than a day left,
/// before the deadline `deadline` hours after the start.
fn reminds_alice(event: &Event, half: bool, deadline: i64) -> bool {
    matches!(
        event,
        Event::ReminderDue { player, half_time, deadline: d, .. }
            if *player == alice().id
                && *half_time == half
                && *d == start_time() + Duration::hours(deadline)
    )
}

#[tokio::test]
async fn a_three_day_turn_is_reminded_at_half_time_and_a_day_before_the_deadline() {
    let service = service().await;
    begin(&service, 1, 3).await;
    assert!(reminders_at(&service, 35).await.is_empty());
    let half = reminders_at(&service, 36).await;
    assert_eq!(half.len(), 1, "{half:?}");
    assert!(reminds_alice(&half[0].0, true, 72), "{half:?}");
    // How the two reminders are said, once.
    assert!(
        half[0].1.contains("half of your time for it has passed"),
        "{}",
        half[0].1
    );
    assert!(reminders_at(&service, 40).await.is_empty(), "once");
    let last = reminders_at(&service, 48).await;
    assert_eq!(last.len(), 1, "{last:?}");
    assert!(reminds_alice(&last[0].0, false, 72), "{last:?}");
    assert!(
        last[0].1.contains("less than a day is left"),
        "{}",
        last[0].1
    );
    assert!(reminders_at(&service, 71).await.is_empty(), "once");

    // The next turn has its own two.
    ok(service
        .matches()
        .play(place(1), &alice(), &MoveRequest::Notation("dF1-F5".into()))
        .await);
    assert!(reminders_at(&service, 71 + 35).await.is_empty());
    assert_eq!(reminders_at(&service, 71 + 36).await.len(), 1);
    assert_eq!(reminders_at(&service, 71 + 48).await.len(), 1);
}

#[tokio::test]
async fn one_or_two_days_a_move_get_one_reminder() {
    let service = service().await;
    begin(&service, 2, 1).await;
    begin(&service, 3, 2).await;
    assert!(reminders_at(&service, 11).await.is_empty());
    assert_eq!(
        reminders_at(&service, 12).await.len(),
        1,
        "one day: at half time"
    );
    assert!(reminders_at(&service, 23).await.is_empty());
    assert_eq!(
        reminders_at(&service, 24).await.len(),
        1,
        "two days: half time is a day before"
    );
    assert!(reminders_at(&service, 47).await.is_empty());
}

#[tokio::test]
async fn a_bot_down_past_both_reminder_times_sends_one_not_two() {
    let service = service().await;
    begin(&service, 4, 5).await;
    // Back 100 hours into a 5-day turn: both times (60 and 96 hours) have passed; one
    // reminder is sent, the one that is true now.
    let late = reminders_at(&service, 100).await;
    assert_eq!(late.len(), 1, "{late:?}");
    assert!(reminds_alice(&late[0].0, false, 120), "{late:?}");
    assert!(reminders_at(&service, 110).await.is_empty());
}

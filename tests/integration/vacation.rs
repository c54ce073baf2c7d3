//! Vacation: a player's clocks stand still while they are away, within an allowance of days in
//! any year; deadlines move on by the time away; nobody escapes a deadline already passed.

use crate::common::{
    alice, assert_event, bob, deliver_all, ok, place, refusal, service, start_time, TestService,
};
use chrono::Duration;
use thudbot::service::{ChallengeOptions, Event, MoveRequest, Refusal};
use thudbot::store::{ChannelId, Recipient, SideChoice, StoredMatch};

/// alice (dwarfs, to move) plays bob in `channel`, three days a move.
async fn begin(service: &TestService, channel: u64) {
    let at = place(channel);
    let options = ChallengeOptions {
        side: Some(SideChoice::Dwarfs),
        ..ChallengeOptions::default()
    };
    ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &options)
        .await);
    ok(service.matches().accept(at, &bob(), None, None).await);
    deliver_all(service).await;
}

async fn current(service: &TestService, channel: u64) -> StoredMatch {
    service
        .store()
        .active_match_in(ChannelId(channel))
        .await
        .unwrap()
        .expect("a match in play")
}

/// What the notices delivered now tell, each with its reader.
async fn posted(service: &TestService) -> Vec<(Recipient, Vec<Event>)> {
    deliver_all(service)
        .await
        .into_iter()
        .map(|d| (d.to, d.reply.events))
        .collect()
}

#[tokio::test]
async fn a_vacation_stops_the_players_clocks_and_moves_their_deadlines_on() {
    let service = service().await;
    begin(&service, 1).await;
    let deadline = current(&service, 1).await.clock.unwrap().deadline;

    let started = ok(service.matches().start_vacation(&alice(), Some(5)).await);
    assert!(started.private);
    assert!(
        started.text.contains("You are on vacation until"),
        "{}",
        started.text
    );
    let told = posted(&service).await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].0, Recipient::Channel(ChannelId(1)));
    assert_event!(
        told[0].1,
        Event::Away { player, until }
            if *player == alice().id && *until == start_time() + Duration::days(5)
    );

    // Four days on, past the old deadline: no reminder, no claim.
    service.clock.advance(Duration::days(4));
    let report = service.tick().await.unwrap();
    assert_eq!((report.reminders, report.forfeits), (0, 0), "{report:?}");
    assert_eq!(
        refusal(service.matches().claim(place(1), &bob()).await),
        Refusal::OpponentOnVacation
    );
    let board = ok(service.matches().board(place(1), &bob(), None).await);
    assert!(
        board.text.contains("alice is on vacation until"),
        "{}",
        board.text
    );
    let games = ok(service.matches().my_games(place(1), &bob(), false).await);
    assert!(
        games.text.contains("alice's move, on vacation until"),
        "{}",
        games.text
    );

    let back = ok(service.matches().end_vacation(&alice()).await);
    assert!(
        back.text.contains("10 days of vacation left"),
        "{}",
        back.text
    );
    let told = posted(&service).await;
    assert_eq!(told.len(), 1, "{told:?}");
    assert_eq!(told[0].0, Recipient::Channel(ChannelId(1)));
    assert_event!(told[0].1, Event::Back { player } if *player == alice().id);
    let clock = current(&service, 1).await.clock.unwrap();
    assert_eq!(clock.deadline, deadline + Duration::days(4));
    assert!(clock.vacation_since.is_none());
    let stats = ok(service.ladder().stats(place(1), &alice(), &alice()).await);
    assert!(
        stats
            .text
            .contains("Vacation: 10 days left of 14 days a year"),
        "{}",
        stats.text
    );
}

#[tokio::test]
async fn a_turn_that_begins_during_a_vacation_stands_still_until_it_ends_by_itself() {
    let service = service().await;
    begin(&service, 2).await;
    ok(service.matches().start_vacation(&bob(), Some(3)).await);
    service.clock.advance(Duration::hours(1));
    ok(service
        .matches()
        .play(place(2), &alice(), &MoveRequest::Notation("dF1-F5".into()))
        .await);
    let clock = current(&service, 2).await.clock.unwrap();
    assert_eq!(clock.player, bob().id);
    assert_eq!(clock.vacation_since, Some(service_now(&service)));
    let deadline = clock.deadline;
    deliver_all(&service).await;

    // The vacation ends by itself three days after it began, whenever the clock notices.
    service.clock.set(start_time() + Duration::days(5));
    let report = service.tick().await.unwrap();
    assert_eq!(report.vacations_ended, 1);
    let told: Vec<Event> = posted(&service)
        .await
        .into_iter()
        .filter(|(to, _)| *to == Recipient::Channel(ChannelId(2)))
        .flat_map(|(_, events)| events)
        .collect();
    assert_event!(told, Event::Back { player } if *player == bob().id);
    let clock = current(&service, 2).await.clock.unwrap();
    assert!(clock.vacation_since.is_none());
    // It stood still from the move (1 hour in) to the end of the vacation (72 hours in).
    assert_eq!(clock.deadline, deadline + Duration::hours(71));
}

fn service_now(service: &TestService) -> chrono::DateTime<chrono::Utc> {
    use thudbot::service::Clock;
    service.clock.now()
}

#[tokio::test]
async fn a_vacation_cannot_escape_a_deadline_already_passed_and_a_refusal_changes_nothing() {
    let service = service().await;
    begin(&service, 3).await;
    service
        .clock
        .advance(Duration::days(3) + Duration::hours(1));
    assert_eq!(
        refusal(service.matches().start_vacation(&alice(), None).await),
        Refusal::DeadlinePassed
    );
    assert!(service
        .store()
        .vacations_of(&[alice().id])
        .await
        .unwrap()
        .is_empty());
    // Bob's own clock is not late: he may go.
    ok(service.matches().start_vacation(&bob(), Some(1)).await);
    assert!(matches!(
        refusal(service.matches().start_vacation(&bob(), Some(1)).await),
        Refusal::OnVacationUntil(_)
    ));
    assert_eq!(
        refusal(service.matches().end_vacation(&alice()).await),
        Refusal::NotOnVacation
    );
    assert_eq!(
        refusal(service.matches().start_vacation(&alice(), Some(0)).await),
        Refusal::VacationTooShort
    );
}

#[tokio::test]
async fn only_the_time_taken_counts_against_the_allowance_of_any_year() {
    let service = service().await;
    begin(&service, 4).await;
    let whole = ok(service.matches().start_vacation(&alice(), None).await);
    assert!(whole.text.contains("14 days a year"), "{}", whole.text);
    service.clock.advance(Duration::days(2));
    ok(service.matches().end_vacation(&alice()).await);
    assert_eq!(
        refusal(service.matches().start_vacation(&alice(), Some(13)).await),
        Refusal::VacationLeft {
            left: "12 days".into()
        }
    );
    ok(service.matches().start_vacation(&alice(), Some(12)).await);
    // The whole allowance runs out with this vacation, which ends by itself at its end.
    service.clock.advance(Duration::days(12));
    assert_eq!(service.tick().await.unwrap().vacations_ended, 1);
    assert_eq!(
        refusal(service.matches().start_vacation(&alice(), None).await),
        Refusal::VacationUsed {
            allowance: "14 days".into()
        }
    );
    // A year after the first vacation, its two days are free again.
    service.clock.set(start_time() + Duration::days(367));
    let stats = ok(service.ladder().stats(place(4), &alice(), &alice()).await);
    assert!(
        stats.text.contains("Vacation: 2 days left"),
        "{}",
        stats.text
    );
}

#[tokio::test]
async fn when_both_players_are_away_the_match_waits_for_both() {
    let service = service().await;
    begin(&service, 5).await;
    ok(service.matches().start_vacation(&alice(), Some(7)).await);
    ok(service.matches().start_vacation(&bob(), Some(2)).await);
    service.clock.advance(Duration::days(3));
    service.tick().await.unwrap();
    // Bob is back; alice, to move, is still away, so her clock still stands.
    let clock = current(&service, 5).await.clock.unwrap();
    assert_eq!(clock.player, alice().id);
    assert!(clock.vacation_since.is_some());
    assert_eq!(
        refusal(service.matches().claim(place(5), &bob()).await),
        Refusal::OpponentOnVacation
    );
}

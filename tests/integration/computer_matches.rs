//! Matches against the computer, through the service on a real PostgreSQL: the match begins at
//! once, the computer moves from its worker (once per turn, whatever the number of workers),
//! is never reminded or forfeited, answers proposals, and is kept off the ladders.

use crate::common::{
    alice, assert_event, bob, deliver_all, ok, place, refusal, service, start_time, TestService,
};
use chrono::Duration;
use thudbot::game::{Piece, Side};
use thudbot::service::{
    Actor, ChallengeOptions, Clock, Event, LadderScope, MoveRequest, Occasion, Refusal, Reply,
    ServiceError,
};
use thudbot::store::{ChannelId, Recipient, SideChoice, StoredMatch, UserId};

fn thudbot() -> Actor {
    Actor::with_kind(UserId(9), "thudbot", true)
}

fn side(side: SideChoice) -> ChallengeOptions {
    ChallengeOptions {
        side: Some(side),
        ..ChallengeOptions::default()
    }
}

async fn current(service: &TestService, channel: u64) -> StoredMatch {
    service
        .store()
        .active_match_in(ChannelId(channel))
        .await
        .unwrap()
        .expect("a match in play")
}

async fn play(service: &TestService, channel: u64, text: &str) -> Result<Reply, ServiceError> {
    service
        .matches()
        .play(
            place(channel),
            &alice(),
            &MoveRequest::Notation(text.into()),
        )
        .await
}

#[tokio::test]
async fn a_match_against_the_computer_begins_at_once_and_it_answers_every_move() {
    let service = service().await;
    let at = place(1);
    let start = ok(service
        .matches()
        .challenge_computer(
            at,
            &alice(),
            &thudbot(),
            Some(1),
            &side(SideChoice::Dwarfs),
            None,
        )
        .await);
    assert_event!(
        start.events,
        Event::MatchBegan {
            dwarfs,
            trolls,
            rated: false,
            occasion: Occasion::Computer { player, computer, level: 1, .. },
            ..
        } if *dwarfs == alice().id
            && *trolls == thudbot().id
            && *player == alice().id
            && *computer == thudbot().id
    );
    assert_event!(
        start.events,
        Event::TurnStarted { player, side: Side::Dwarfs, .. } if *player == alice().id
    );
    assert_eq!(start.mentions, [alice().id]);
    assert!(!start.attachments.is_empty(), "the opening board is shown");

    let moved = ok(play(&service, 1, "dF1-F5").await);
    assert_event!(
        moved.events,
        Event::ComputerThinking { player, side: Side::Trolls } if *player == thudbot().id
    );
    assert!(
        moved.mentions.is_empty(),
        "the bot never pings itself: {:?}",
        moved.mentions
    );
    // Not alice's turn until the computer has moved.
    assert_eq!(
        refusal(play(&service, 1, "dG1-G5").await),
        Refusal::NotYourTurn {
            to_move: "thudbot".into()
        }
    );

    assert_eq!(service.matches().play_computer_turns().await.unwrap(), 1);
    assert_eq!(
        service.matches().play_computer_turns().await.unwrap(),
        0,
        "one move a turn"
    );
    let posted = deliver_all(&service).await;
    assert_eq!(posted.len(), 1, "{posted:?}");
    let notice = &posted[0];
    assert!(!notice.closes_thread);
    assert_eq!(notice.to, Recipient::Channel(ChannelId(1)));
    assert_event!(
        notice.reply.events,
        Event::Moved { ply: 2, mover, level: Some(1), side: Side::Trolls, notation, .. }
            if *mover == thudbot().id && notation.starts_with('T')
    );
    assert_event!(
        notice.reply.events,
        Event::TurnStarted { player, side: Side::Dwarfs, .. } if *player == alice().id
    );
    assert_eq!(notice.reply.mentions, [alice().id]);
    assert!(
        notice
            .reply
            .attachments
            .iter()
            .any(|a| a.bytes.starts_with(b"\x89PNG")),
        "the computer's move carries the board"
    );

    let m = current(&service, 1).await;
    assert_eq!(m.game.current_battle().moves().len(), 2);
    assert_eq!(m.player_to_move(), Some(alice().id));
    assert_eq!(m.clock.unwrap().player, alice().id);
    assert!(!m.rated);
}

#[tokio::test]
async fn the_computer_moves_first_when_it_commands_the_dwarfs() {
    let service = service().await;
    let start = ok(service
        .matches()
        .challenge_computer(
            place(2),
            &alice(),
            &thudbot(),
            None,
            &side(SideChoice::Trolls),
            None,
        )
        .await);
    // The default level.
    assert_event!(
        start.events,
        Event::MatchBegan {
            occasion: Occasion::Computer { level: 3, .. },
            ..
        }
    );
    assert!(
        start.events.iter().any(|e| matches!(
            e,
            Event::ComputerThinking {
                side: Side::Dwarfs,
                ..
            }
        )),
        "{:?}",
        start.events
    );
    assert!(start.mentions.is_empty(), "{:?}", start.mentions);
    assert_eq!(service.matches().play_computer_turns().await.unwrap(), 1);
    let m = current(&service, 2).await;
    let first = m.game.current_battle().moves()[0];
    assert_eq!(first.piece(), Piece::Dwarf, "{first}");
    assert_eq!(m.player_to_move(), Some(alice().id));
}

#[tokio::test]
async fn a_turn_is_thought_about_by_one_worker_at_a_time() {
    let service = service().await;
    ok(service
        .matches()
        .challenge_computer(
            place(3),
            &alice(),
            &thudbot(),
            Some(1),
            &side(SideChoice::Trolls),
            None,
        )
        .await);
    let now = start_time();
    let store = service.store();
    let first = store
        .claim_computer_turns(now, now + Duration::seconds(60), 10)
        .await
        .unwrap();
    assert_eq!(first.len(), 1);
    // A second worker finds nothing while the first thinks ...
    let second = store
        .claim_computer_turns(now, now + Duration::seconds(60), 10)
        .await
        .unwrap();
    assert!(second.is_empty());
    // ... and takes the turn over if the first never finishes.
    let later = now + Duration::seconds(61);
    let taken_over = store
        .claim_computer_turns(later, later + Duration::seconds(60), 10)
        .await
        .unwrap();
    assert_eq!(taken_over, first);
}

#[tokio::test]
async fn the_computer_is_never_reminded_forfeited_or_claimed_against() {
    let service = service().await;
    ok(service
        .matches()
        .challenge_computer(
            place(4),
            &alice(),
            &thudbot(),
            Some(1),
            &side(SideChoice::Dwarfs),
            None,
        )
        .await);
    ok(play(&service, 4, "dF1-F5").await);
    deliver_all(&service).await;
    // The computer's worker is down for weeks.
    service.clock.advance(Duration::days(30));
    let report = service.tick().await.unwrap();
    assert_eq!(
        report,
        Default::default(),
        "nothing is due for the computer"
    );
    assert!(deliver_all(&service).await.is_empty());
    assert_eq!(
        refusal(service.matches().claim(place(4), &alice()).await),
        Refusal::ComputerNeverLate
    );
    // Once it moves, the player's own clock runs as usual.
    assert_eq!(service.matches().play_computer_turns().await.unwrap(), 1);
    let m = current(&service, 4).await;
    let clock = m.clock.unwrap();
    assert_eq!(clock.player, alice().id);
    assert_eq!(clock.deadline, service.clock.now() + Duration::days(3));
}

#[tokio::test]
async fn the_computer_declines_to_end_a_battle_it_can_still_win_material_in() {
    let service = service().await;
    let at = place(5);
    ok(service
        .matches()
        .challenge_computer(
            at,
            &alice(),
            &thudbot(),
            Some(5),
            &side(SideChoice::Dwarfs),
            None,
        )
        .await);
    // F6 stands next to the troll on G7, which can step to F7 and take it.
    ok(play(&service, 5, "dF1-F6").await);
    let answer = ok(service.matches().propose_end(at, &alice()).await);
    assert!(
        answer.text.contains("alice proposes ending battle 1"),
        "{}",
        answer.text
    );
    assert!(
        answer.text.contains("thudbot wants to keep playing"),
        "{}",
        answer.text
    );
    assert!(
        answer.text.contains("I would rather play on"),
        "{}",
        answer.text
    );
    let m = current(&service, 5).await;
    assert_eq!(m.game.battle_number(), 1);
    assert!(m.proposal.is_none(), "the proposal was answered");
    // Level 5 takes the dwarf.
    assert_eq!(service.matches().play_computer_turns().await.unwrap(), 1);
    let m = current(&service, 5).await;
    assert_eq!(m.game.current_battle().score().dwarfs, 31);
}

#[tokio::test]
async fn the_computer_agrees_to_end_a_battle_where_nothing_can_be_won() {
    let service = service().await;
    let at = place(6);
    ok(service
        .matches()
        .challenge_computer(
            at,
            &alice(),
            &thudbot(),
            Some(2),
            &side(SideChoice::Trolls),
            None,
        )
        .await);
    // At the start, with its dwarfs to move, the computer sees nothing to win soon.
    let answer = ok(service.matches().propose_end(at, &alice()).await);
    assert_event!(
        answer.events,
        Event::EndAgreed { battle: 1, by, with, .. } if *by == thudbot().id && *with == alice().id
    );
    assert_event!(
        answer.events,
        Event::BattleBegan { battle: 2, dwarfs, trolls }
            if *dwarfs == alice().id && *trolls == thudbot().id
    );
    assert_event!(
        answer.events,
        Event::TurnStarted { player, side: Side::Dwarfs, .. } if *player == alice().id
    );
    let m = current(&service, 6).await;
    assert_eq!(m.game.battle_number(), 2);
    assert_eq!(m.player_to_move(), Some(alice().id));
}

#[tokio::test]
async fn matches_against_the_computer_are_unrated_and_counted_by_level() {
    let service = service().await;
    let at = place(7);
    ok(service
        .matches()
        .challenge_computer(
            at,
            &alice(),
            &thudbot(),
            Some(2),
            &side(SideChoice::Dwarfs),
            None,
        )
        .await);
    // A move first: resigning a match one never moved in aborts it, unrated.
    ok(service
        .matches()
        .play(
            at,
            &alice(),
            &thudbot::service::MoveRequest::Notation("dF1-F5".into()),
        )
        .await);
    ok(service.matches().resign(at, &alice(), None).await);
    let board = ok(service
        .ladder()
        .leaderboard(at, LadderScope::Server, 1)
        .await);
    assert!(!board.text.contains("alice"), "{}", board.text);
    let stats = ok(service.ladder().stats(at, &alice(), &alice()).await);
    assert!(
        stats.text.contains("No rated matches yet"),
        "{}",
        stats.text
    );
    assert!(
        stats
            .text
            .contains("Against the computer at level 2: 1 match · 0W 0D 1L"),
        "{}",
        stats.text
    );
}

#[tokio::test]
async fn bad_requests_to_play_the_computer_are_refused_and_change_nothing() {
    let service = service().await;
    let at = place(8);
    let level = refusal(
        service
            .matches()
            .challenge_computer(
                at,
                &alice(),
                &thudbot(),
                Some(6),
                &side(SideChoice::Dwarfs),
                None,
            )
            .await,
    );
    assert_eq!(level, Refusal::NoSuchLevel(6));
    let rated = ChallengeOptions {
        rated: Some(true),
        ..ChallengeOptions::default()
    };
    let rated = refusal(
        service
            .matches()
            .challenge_computer(at, &alice(), &thudbot(), None, &rated, None)
            .await,
    );
    assert_eq!(rated, Refusal::RatedAgainstComputer);
    assert!(service
        .store()
        .active_match_in(ChannelId(8))
        .await
        .unwrap()
        .is_none());
    // A channel with a match in play takes no second one.
    ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &side(SideChoice::Dwarfs))
        .await);
    ok(service.matches().accept(at, &bob(), None, None).await);
    let busy = refusal(
        service
            .matches()
            .challenge_computer(
                at,
                &alice(),
                &thudbot(),
                None,
                &ChallengeOptions::default(),
                None,
            )
            .await,
    );
    assert_eq!(busy, Refusal::ChannelBusy);
}

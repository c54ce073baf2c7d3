//! What players do after a match: a rematch with the roles swapped, friendly (unrated)
//! matches, and their record against each other.

use crate::common::{
    alice, assert_event, bob, carol, deliver_all, ok, place, refusal, service, TestService,
};
use thudbot::service::{
    Action, Actor, ChallengeOptions, Event, LadderScope, MoveRequest, Occasion, Refusal, Reply,
};
use thudbot::store::{ChannelId, MatchId, SideChoice, UserId};

fn rematch_button(reply: &Reply) -> MatchId {
    reply
        .buttons
        .iter()
        .find_map(|b| match b.action {
            Action::Rematch(id) if b.label == "Rematch" => Some(id),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no Rematch button: {reply:?}"))
}

/// alice (dwarfs first) plays bob in `channel`; returns the match.
async fn begin(service: &TestService, channel: u64, rated: Option<bool>) -> MatchId {
    let at = place(channel);
    let options = ChallengeOptions {
        side: Some(SideChoice::Dwarfs),
        rated,
        ..ChallengeOptions::default()
    };
    ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &options)
        .await);
    ok(service.matches().accept(at, &bob(), None, None).await);
    service
        .store()
        .latest_match_in(ChannelId(channel))
        .await
        .unwrap()
        .expect("a match")
}

#[tokio::test]
async fn either_player_can_ask_for_a_rematch_with_the_roles_swapped() {
    let service = service().await;
    let at = place(1);
    let first = begin(&service, 1, None).await;
    // A move first: resigning a match one never moved in aborts it, with no result to rematch.
    ok(service
        .matches()
        .play(at, &alice(), &MoveRequest::Notation("dF1-F5".into()))
        .await);
    let over = ok(service.matches().resign(at, &alice(), None).await);
    assert_eq!(rematch_button(&over), first);

    assert_eq!(
        refusal(service.matches().rematch(at, &carol(), first, None).await),
        Refusal::RematchNotAPlayer(first)
    );
    let asked = ok(service.matches().rematch(at, &bob(), first, None).await);
    assert!(asked.text.contains("bob challenges you"), "{}", asked.text);
    assert!(
        asked.text.contains("bob commands the dwarfs in battle 1"),
        "{}",
        asked.text
    );
    assert_eq!(asked.mentions, [alice().id]);
    ok(service.matches().accept(at, &alice(), None, None).await);
    let second = service
        .store()
        .active_match_in(ChannelId(1))
        .await
        .unwrap()
        .unwrap();
    assert_ne!(second.id, first);
    assert_eq!(
        second.players,
        [bob().id, alice().id],
        "bob commands the dwarfs first now"
    );
    assert!(second.rated);
    assert_eq!(
        refusal(
            service
                .matches()
                .rematch(at, &alice(), second.id, None)
                .await
        ),
        Refusal::RematchTooEarly(second.id)
    );
}

#[tokio::test]
async fn the_result_posted_by_the_clock_offers_a_rematch_too() {
    let service = service().await;
    let at = place(2);
    let id = begin(&service, 2, None).await;
    // Both have moved (a match nobody played is aborted instead), then alice is late.
    for (who, mv) in [(alice(), "dF1-F5"), (bob(), "TG9-G10")] {
        ok(service
            .matches()
            .play(at, &who, &MoveRequest::Notation(mv.into()))
            .await);
    }
    deliver_all(&service).await;
    service.clock.advance(chrono::Duration::days(4));
    let claimed = ok(service.matches().claim(at, &bob()).await);
    assert_eq!(rematch_button(&claimed), id);
}

#[tokio::test]
async fn a_friendly_match_is_kept_off_the_leaderboards_but_counts_between_the_two() {
    let service = service().await;
    let at = place(3);
    let challenge = ok(service
        .matches()
        .challenge(
            at,
            &alice(),
            &bob(),
            &ChallengeOptions {
                side: Some(SideChoice::Dwarfs),
                rated: Some(false),
                ..ChallengeOptions::default()
            },
        )
        .await);
    assert!(
        challenge.text.contains("friendly (unrated) match"),
        "{}",
        challenge.text
    );
    ok(service.matches().accept(at, &bob(), None, None).await);
    ok(service
        .matches()
        .play(at, &alice(), &MoveRequest::Notation("dF1-F5".into()))
        .await);
    ok(service
        .matches()
        .play(at, &bob(), &MoveRequest::Notation("TG7-F6".into()))
        .await);
    let over = ok(service.matches().resign(at, &bob(), None).await);
    let board = ok(service
        .ladder()
        .leaderboard(at, LadderScope::Server, 1)
        .await);
    assert!(
        !board.text.contains("alice") && !board.text.contains("bob"),
        "{}",
        board.text
    );
    // A rematch of a friendly match is friendly too.
    let again = ok(service
        .matches()
        .rematch(at, &alice(), rematch_button(&over), None)
        .await);
    assert!(
        again.text.contains("friendly (unrated) match"),
        "{}",
        again.text
    );

    // Read in a player's history, the friendly match says it moved no rating.
    let history = ok(service.ladder().history(at, &alice()).await);
    assert!(
        history.text.contains("won by resignation · unrated · "),
        "{}",
        history.text
    );
    // The record between the two counts it, and says it counts every match, rated or not.
    let stats = ok(service.ladder().stats(at, &alice(), &bob()).await);
    assert!(
        stats
            .text
            .contains("You against bob, every finished match, rated or not: 1 match · 1W 0D 0L"),
        "{}",
        stats.text
    );
    let none = ok(service.ladder().stats(at, &carol(), &bob()).await);
    assert!(
        none.text
            .contains("You have not finished a match against bob yet."),
        "{}",
        none.text
    );
    let own = ok(service.ladder().stats(at, &alice(), &alice()).await);
    assert!(!own.text.contains("You against"), "{}", own.text);
}

#[tokio::test]
async fn a_rematch_against_the_computer_begins_at_once_at_the_same_level() {
    let service = service().await;
    let at = place(4);
    let thudbot = Actor::with_kind(UserId(9), "thudbot", true);
    let options = ChallengeOptions {
        side: Some(SideChoice::Dwarfs),
        ..ChallengeOptions::default()
    };
    ok(service
        .matches()
        .challenge_computer(at, &alice(), &thudbot, Some(4), &options, None)
        .await);
    ok(service
        .matches()
        .play(at, &alice(), &MoveRequest::Notation("dF1-F5".into()))
        .await);
    let over = ok(service.matches().resign(at, &alice(), None).await);
    assert!(
        over.mentions.is_empty(),
        "the bot never pings itself: {:?}",
        over.mentions
    );
    let again = ok(service
        .matches()
        .rematch(at, &alice(), rematch_button(&over), None)
        .await);
    assert_event!(
        again.events,
        Event::MatchBegan {
            dwarfs,
            trolls,
            rated: false,
            occasion: Occasion::Computer { player, computer, level: 4, .. },
            ..
        } if *dwarfs == thudbot.id
            && *trolls == alice().id
            && *player == alice().id
            && *computer == thudbot.id
    );
    let m = service
        .store()
        .active_match_in(ChannelId(4))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(m.players, [thudbot.id, alice().id]);
    assert_eq!(m.computer.map(|c| c.level), Some(4));
}

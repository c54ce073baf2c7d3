//! `/thud games`: this server's matches or every server's, the player's own moves first.

use crate::common::{alice, assert_event, bob, carol, ok, place, service, TestService};
use thudbot::service::{Actor, ChallengeOptions, Event, MoveRequest, Place};
use thudbot::store::{ChannelId, GuildId, MatchId, Recipient, SideChoice};

async fn begin(service: &TestService, at: Place, opponent: &Actor) {
    let options = ChallengeOptions {
        side: Some(SideChoice::Dwarfs),
        ..ChallengeOptions::default()
    };
    ok(service
        .matches()
        .challenge(at, &alice(), opponent, &options)
        .await);
    ok(service.matches().accept(at, opponent, None, None).await);
}

#[tokio::test]
async fn games_lists_every_server_on_request_with_the_players_moves_first() {
    let service = service().await;
    let here = place(1);
    let elsewhere = Place {
        guild: GuildId(88),
        channel: ChannelId(2),
    };
    // On the other server alice has moved: carol is to move there. Here it is alice's move.
    begin(&service, elsewhere, &carol()).await;
    ok(service
        .matches()
        .play(elsewhere, &alice(), &MoveRequest::Notation("dF1-F5".into()))
        .await);
    begin(&service, here, &bob()).await;

    let local = ok(service.matches().my_games(here, &alice(), false).await);
    assert!(local.private);
    assert!(
        local.text.contains("vs bob") && !local.text.contains("carol"),
        "{}",
        local.text
    );
    // The match's number and the channel's are told apart in words.
    let id = service
        .store()
        .active_match_in(here.channel)
        .await
        .unwrap()
        .unwrap()
        .id;
    assert!(
        local.text.contains(&format!(
            "Match #{id} vs bob, in channel #{} · ",
            here.channel
        )),
        "{}",
        local.text
    );

    let all = ok(service.matches().my_games(here, &alice(), true).await);
    assert!(all.private);
    assert!(all.text.contains("on every server (2)"), "{}", all.text);
    let bob_at = all.text.find("vs bob").expect("bob's match");
    let carol_at = all.text.find("vs carol").expect("carol's match");
    assert!(bob_at < carol_at, "alice's move first: {}", all.text);
    assert!(
        all.text.contains("https://discord.com/channels/77/1"),
        "{}",
        all.text
    );
    assert!(
        all.text.contains("https://discord.com/channels/88/2"),
        "{}",
        all.text
    );
    assert!(all.text.contains("carol's move"), "{}", all.text);
}

#[tokio::test]
async fn a_challenge_accepted_by_number_elsewhere_says_where_the_match_is_played() {
    let service = service().await;
    let here = place(10);
    let challenge = ok(service
        .matches()
        .challenge(here, &alice(), &bob(), &ChallengeOptions::default())
        .await);
    let thudbot::service::Action::Accept(id) = challenge.buttons[0].action else {
        panic!("the first button accepts: {challenge:?}")
    };
    // Bob answers from a channel of another server.
    let elsewhere = Place {
        guild: GuildId(88),
        channel: ChannelId(20),
    };
    let accepted = ok(service
        .matches()
        .accept(elsewhere, &bob(), Some(id), None)
        .await);
    assert!(
        accepted.text.contains("The match is played in #10"),
        "{}",
        accepted.text
    );
    let opening = crate::common::deliver_all(&service).await;
    assert_eq!(opening.len(), 1, "{opening:?}");
    assert_eq!(
        (opening[0].guild, opening[0].to),
        (here.guild, Recipient::Channel(here.channel))
    );
    assert_event!(
        opening[0].reply.events,
        Event::MatchBegan {
            match_id: MatchId(1),
            ..
        }
    );
}

//! Tournament results a player can trust: a match's result counts in the standings the moment
//! it ends, and nothing later (a withdrawal) overturns it; a forfeit by a player who never
//! moved is the round's result but rates nobody.

use thudbot::service::{Actor, Event};
use thudbot::store::{GameOutcome, Scope};
use thudbot::tournament::{Format, Pairing};

use crate::common::{ok, place, service, start_time};
use crate::tournaments::{
    current, four_started, games, options, organiser, player, seat_all, HALL,
};

#[tokio::test]
async fn a_finished_result_counts_at_once_and_a_later_withdrawal_never_overturns_it() {
    let s = service().await;
    let hall = place(HALL);
    four_started(&s).await;
    let mut channel = 1000;
    let seated = seat_all(&s, &mut channel).await;
    assert_eq!(seated.len(), 2);

    // The first game: its first player resigns before moving, to the second.
    let (id, at) = seated[0];
    let m = s.store().load_match(id).await.unwrap().unwrap();
    let (loser, winner) = (m.players[0], m.players[1]);
    let name = |u: thudbot::store::UserId| format!("p{:02}", u.0 - 5000);
    let resigned = ok(s
        .matches()
        .resign(at, &Actor::new(loser, name(loser)), None)
        .await);
    // The round's result, said plainly; nobody is rated for a match not played.
    assert!(
        resigned
            .events
            .iter()
            .any(|e| matches!(e, Event::NotRated { late } if *late == loser)),
        "{:?}",
        resigned.events
    );
    assert!(
        resigned
            .text
            .contains(&format!("{} wins the match by forfeit", name(winner))),
        "{}",
        resigned.text
    );
    for p in [loser, winner] {
        assert!(
            s.store()
                .standing(Scope::Global, p)
                .await
                .unwrap()
                .is_none(),
            "nobody is rated"
        );
    }

    // Without a tick, the game is decided and the standings count it.
    let t = current(&s).await;
    let game = games(&s, &t)
        .await
        .into_iter()
        .find(|g| g.match_id == Some(id))
        .expect("the game");
    assert_eq!(game.outcome, Some(GameOutcome::SecondForfeit));
    let standings = ok(s.tournaments().standings(hall, 1).await)
        .text
        .to_plain(start_time());
    assert!(
        standings.contains(&format!(
            "1. [{}] {} — 1 point",
            winner.0 - 5000,
            name(winner)
        )),
        "{standings}"
    );

    // The winner withdraws: their finished win stands, in the games and the standings.
    ok(s.tournaments()
        .withdraw(hall, &Actor::new(winner, name(winner)))
        .await);
    let t = current(&s).await;
    let after = games(&s, &t).await;
    let same = after.iter().find(|g| g.id == game.id).unwrap();
    assert_eq!(
        same.outcome,
        Some(GameOutcome::SecondForfeit),
        "the result stands"
    );
    let standings = ok(s.tournaments().standings(hall, 1).await)
        .text
        .to_plain(start_time());
    assert!(
        standings.contains(&format!("{} (withdrawn) — 1 point", name(winner))),
        "{standings}"
    );
    assert!(
        standings.contains(&format!("{} — 0 points", name(loser))),
        "{standings}"
    );
    // The withdrawn player's undecided games are forfeited to their opponents.
    for g in after.iter().filter(|g| g.id != game.id && g.round == 1) {
        assert_eq!(
            g.outcome, None,
            "the other game of round 1 is still in play"
        );
    }
    let forfeited: Vec<_> = after
        .iter()
        .filter(|g| matches!(g.pairing, Pairing::Match { .. }) && g.round > 1)
        .collect();
    assert!(forfeited.is_empty(), "later rounds are not paired yet");
}

/// Starts a tournament of `players` players in the hall and seats round 1.
pub(crate) async fn started(
    s: &crate::common::TestService,
    format: Format,
    players: u64,
) -> Vec<(thudbot::store::MatchId, thudbot::service::Place)> {
    let hall = place(HALL);
    ok(s.tournaments()
        .create(hall, &organiser(), true, &options(format))
        .await);
    for i in 1..=players {
        ok(s.tournaments().join(hall, &player(i)).await);
    }
    ok(s.tournaments().start_now(hall, &organiser(), true).await);
    let mut channel = 1000;
    seat_all(s, &mut channel).await
}

fn name_of(u: thudbot::store::UserId) -> String {
    format!("p{:02}", u.0 - 5000)
}

#[tokio::test]
async fn standings_use_one_notation_with_a_legend_live_marks_and_no_empty_rounds() {
    let s = service().await;
    let hall = place(HALL);
    let seated = started(&s, Format::Swiss { rounds: Some(3) }, 6).await;
    // One match ends by resignation after a move each: a forfeit, +F/−F, counted at once.
    let (id, at) = seated[0];
    let m = s.store().load_match(id).await.unwrap().unwrap();
    let (first, second) = (m.players[0], m.players[1]);
    ok(s.matches()
        .play(
            at,
            &Actor::new(first, name_of(first)),
            &thudbot::service::MoveRequest::Notation("dF1-F5".into()),
        )
        .await);
    ok(s.matches()
        .play(
            at,
            &Actor::new(second, name_of(second)),
            &thudbot::service::MoveRequest::Notation("TG7-F6".into()),
        )
        .await);
    ok(s.matches()
        .resign(at, &Actor::new(first, name_of(first)), None)
        .await);
    let reply = ok(s.tournaments().standings(hall, 1).await);
    let text = reply.text.to_plain(start_time());
    assert!(
        text.contains(&format!("{} — 1 point", name_of(second))),
        "{text}"
    );
    assert!(text.contains("by round: +F"), "{text}");
    assert!(text.contains("by round: −F"), "{text}");
    // The others are in play, marked so; only round 1 has a column.
    assert!(text.contains("by round: …"), "{text}");
    assert!(
        !text.contains("+F ·") && !text.contains("−F ·"),
        "no empty rounds to come: {text}"
    );
    // The legend explains every mark the text uses.
    for mark in [
        "+Fn won by forfeit",
        "−Fn lost by forfeit",
        "…n in play",
        "· not paired",
        "bye: a full point",
    ] {
        assert!(text.contains(mark), "{mark}: {text}");
    }
    let picture = reply.attachments.first().expect("a picture");
    image::load_from_memory(&picture.bytes).expect("a PNG");
    if let Ok(dir) = std::env::var("THUDBOT_PICTURES") {
        std::fs::write(format!("{dir}/swiss-standings-live.png"), &picture.bytes).unwrap();
    }

    // Cancelled: said so, and its stopped games are not shown as in play.
    ok(s.tournaments().cancel(hall, &organiser(), true).await);
    let text = ok(s.tournaments().standings(hall, 1).await)
        .text
        .to_plain(start_time());
    assert!(text.contains("standings, cancelled"), "{text}");
    assert!(!text.contains("by round: …"), "{text}");
}

#[tokio::test]
async fn a_round_robin_crosstable_marks_forfeits_as_the_text_does() {
    let s = service().await;
    let hall = place(HALL);
    let seated = started(&s, Format::RoundRobin, 4).await;
    let (id, at) = seated[0];
    let m = s.store().load_match(id).await.unwrap().unwrap();
    let loser = m.players[0];
    ok(s.matches()
        .resign(at, &Actor::new(loser, name_of(loser)), None)
        .await);
    let reply = ok(s.tournaments().standings(hall, 1).await);
    let text = reply.text.to_plain(start_time());
    assert!(text.contains("+Fn won by forfeit"), "{text}");
    assert!(text.contains("Ties: Sonneborn–Berger"), "{text}");
    let picture = &reply.attachments.first().expect("a picture").bytes;
    image::load_from_memory(picture).expect("a PNG");
    if let Ok(dir) = std::env::var("THUDBOT_PICTURES") {
        std::fs::write(format!("{dir}/round-robin-forfeit.png"), picture).unwrap();
    }
}

#[tokio::test]
async fn a_big_field_is_shown_in_pages_and_a_page_past_the_end_is_refused_privately() {
    let s = service().await;
    let hall = place(HALL);
    started(&s, Format::Swiss { rounds: None }, 90).await;
    let first = ok(s.tournaments().standings(hall, 1).await);
    let text = first.text.to_plain(start_time());
    assert!(text.contains("page 1 of 3"), "{text}");
    assert!(text.contains("/thud tournament standings page:2"), "{text}");
    let third = ok(s.tournaments().standings(hall, 3).await)
        .text
        .to_plain(start_time());
    assert!(third.contains("page 3 of 3"), "{third}");
    assert!(
        third.contains("81. ") || third.contains("90. ") || third.contains(" — "),
        "{third}"
    );
    assert!(!third.contains("page:4"), "{third}");
    let r = crate::common::refusal(s.tournaments().standings(hall, 4).await);
    assert!(
        r.text()
            .to_plain(start_time())
            .contains("there is no page 4"),
        "{r:?}"
    );
}

#[tokio::test]
async fn too_many_swiss_rounds_are_capped_and_said_and_a_full_field_takes_nobody_more() {
    let s = service().await;
    let hall = place(HALL);
    ok(s.tournaments()
        .create(
            hall,
            &organiser(),
            true,
            &options(Format::Swiss { rounds: Some(9) }),
        )
        .await);
    for i in 1..=6 {
        ok(s.tournaments().join(hall, &player(i)).await);
    }
    let started = ok(s.tournaments().start_now(hall, &organiser(), true).await);
    let text = started.text.to_plain(start_time());
    assert!(text.contains("with 6 players, 5 rounds"), "{text}");
    assert!(text.contains("9 were asked for"), "{text}");
    assert_eq!(current(&s).await.rounds, Some(5));
    // A second start is refused as running, not answered as a join.
    let again = crate::common::refusal(s.tournaments().start_now(hall, &organiser(), true).await);
    assert_eq!(
        crate::tournaments::tournament_refusal(again),
        thudbot::service::TournamentRefusal::AlreadyRunning
    );

    // A round robin takes 16.
    let s = service().await;
    ok(s.tournaments()
        .create(hall, &organiser(), true, &options(Format::RoundRobin))
        .await);
    for i in 1..=16 {
        ok(s.tournaments().join(hall, &player(i)).await);
    }
    let full = crate::common::refusal(s.tournaments().join(hall, &player(17)).await);
    assert_eq!(
        crate::tournaments::tournament_refusal(full),
        thudbot::service::TournamentRefusal::Full { most: 16 }
    );
}

#[tokio::test]
async fn an_organiser_corrects_a_result_adds_a_late_entry_and_reinstates_a_player() {
    let s = service().await;
    let hall = place(HALL);
    let seated = started(&s, Format::Swiss { rounds: Some(3) }, 6).await;
    let (id, at) = seated[0];
    let m = s.store().load_match(id).await.unwrap().unwrap();
    let (first, second) = (m.players[0], m.players[1]);
    ok(s.matches()
        .resign(at, &Actor::new(first, name_of(first)), None)
        .await);

    // Only an organiser corrects; a game in play cannot be.
    let r = crate::common::refusal(
        s.tournaments()
            .correct_result(hall, &player(1), false, id, Some(first))
            .await,
    );
    assert!(matches!(
        crate::tournaments::tournament_refusal(r),
        thudbot::service::TournamentRefusal::NotOrganiser { .. }
    ));
    let r = crate::common::refusal(
        s.tournaments()
            .correct_result(hall, &organiser(), true, seated[1].0, None)
            .await,
    );
    assert_eq!(
        crate::tournaments::tournament_refusal(r),
        thudbot::service::TournamentRefusal::GameUndecided(seated[1].0)
    );
    // The resignation was a slip: the organiser gives the game to the first player.
    let corrected = ok(s
        .tournaments()
        .correct_result(hall, &organiser(), true, id, Some(first))
        .await);
    let said = corrected.text.to_plain(start_time());
    assert!(
        said.contains(&format!("corrects the result of match #{id}"))
            && said.contains(&format!("{} wins it", name_of(first))),
        "{said}"
    );
    let text = ok(s.tournaments().standings(hall, 1).await)
        .text
        .to_plain(start_time());
    assert!(
        text.contains(&format!("{} — 1 point", name_of(first))),
        "{text}"
    );
    assert!(
        text.contains(&format!("{} — 0 points", name_of(second))),
        "{text}"
    );

    // A late entry joins from round 2.
    let late = player(40);
    let added = ok(s
        .tournaments()
        .add_late_entry(hall, &organiser(), true, &late)
        .await);
    assert!(added
        .text
        .to_plain(start_time())
        .contains("paired from round 2"));
    let t = current(&s).await;
    let mut tx = s.store().begin().await.unwrap();
    let entrants = tx.entrants(t.id).await.unwrap();
    tx.rollback().await.unwrap();
    assert!(entrants.iter().any(|e| e.user == late.id && !e.withdrawn));

    // A withdrawn player is reinstated.
    let gone = Actor::new(second, name_of(second));
    ok(s.tournaments().withdraw(hall, &gone).await);
    let back = ok(s
        .tournaments()
        .reinstate(hall, &organiser(), true, second)
        .await);
    assert!(back.text.to_plain(start_time()).contains("is back in"));
    let text = ok(s.tournaments().standings(hall, 1).await)
        .text
        .to_plain(start_time());
    assert!(
        !text.contains(&format!("{} (withdrawn)", name_of(second))),
        "{text}"
    );
    let r = crate::common::refusal(
        s.tournaments()
            .reinstate(hall, &organiser(), true, second)
            .await,
    );
    assert_eq!(
        crate::tournaments::tournament_refusal(r),
        thudbot::service::TournamentRefusal::NotWithdrawn
    );
}

#[tokio::test]
async fn a_game_that_cannot_be_seated_backs_off_is_told_and_holds_up_no_other_server() {
    let s = service().await;
    // Two tournaments on two servers; the first's channel refuses every thread.
    let broken = thudbot::service::Place {
        guild: thudbot::store::GuildId(1),
        channel: thudbot::store::ChannelId(HALL),
    };
    let fine = thudbot::service::Place {
        guild: thudbot::store::GuildId(2),
        channel: thudbot::store::ChannelId(HALL + 1),
    };
    for (at, first) in [(broken, 1), (fine, 20)] {
        ok(s.tournaments()
            .create(at, &organiser(), true, &options(Format::RoundRobin))
            .await);
        for i in first..first + 4 {
            ok(s.tournaments().join(at, &player(i)).await);
        }
        ok(s.tournaments().start_now(at, &organiser(), true).await);
    }
    crate::common::deliver_all(&s).await;
    let games = s.tournaments().games_to_seat(100).await.unwrap();
    assert_eq!(games.len(), 4);
    let mut seated = 0;
    let mut next = 5000;
    for game in games {
        next += 1;
        let channel = thudbot::store::ChannelId(next);
        let refuses = game.channel == broken.channel;
        let room: thudbot::service::Room = Box::new(move |_, _| {
            Box::pin(async move {
                (!refuses)
                    .then_some(channel)
                    .ok_or(thudbot::service::NoRoom::Refused("not allowed".into()))
            })
        });
        if s.tournaments()
            .seat_game(game.game, room)
            .await
            .unwrap()
            .match_id()
            .is_some()
        {
            seated += 1;
        }
    }
    assert_eq!(seated, 2, "the other server's games are seated");
    // The broken games wait: not offered again at once.
    assert!(s.tournaments().games_to_seat(100).await.unwrap().is_empty());
    // Told once, in the channel and to each player and the organiser by direct message.
    let told = crate::common::deliver_all(&s).await;
    let about: Vec<_> = told
        .iter()
        .filter(|d| {
            d.reply
                .text
                .to_plain(start_time())
                .contains("could not start")
        })
        .collect();
    assert!(
        about
            .iter()
            .any(|d| d.to == thudbot::store::Recipient::Channel(broken.channel)),
        "{about:?}"
    );
    assert!(about
        .iter()
        .any(|d| d.to == thudbot::store::Recipient::Dm(organiser().id)));
    let text = about[0].reply.text.to_plain(start_time());
    assert!(text.contains("Create Public Threads"), "{text}");
    // After the pause, they are offered again, behind nothing else.
    s.clock.advance(chrono::Duration::minutes(2));
    assert_eq!(s.tournaments().games_to_seat(100).await.unwrap().len(), 2);
}

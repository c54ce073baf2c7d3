//! Tournaments through the service on a real database: a round robin played to the end, a
//! Swiss of 50 paired by two processes ticking together, withdrawals, round deadlines,
//! start times, cancelling, and refusals that change nothing.

use std::collections::{HashMap, HashSet};

use chrono::Duration;
use thudbot::service::{
    Actor, MoveRequest, Place, Refusal, Service, ServiceConfig, TournamentOptions,
    TournamentRefusal,
};
use thudbot::store::{
    ChannelId, MatchId, MatchState, Recipient, Store, StoredTournament, TournamentGame,
    TournamentState, UserId,
};
use thudbot::tournament::{Format, Pairing};

use crate::common::{deliver_all, ok, place, refusal, service, start_time, TestService};

/// The tournament channel.
pub(crate) const HALL: u64 = 900;

pub(crate) fn player(i: u64) -> Actor {
    Actor::new(UserId(5000 + i), format!("p{i:02}"))
}

pub(crate) fn organiser() -> Actor {
    Actor::new(UserId(4000), "olga")
}

pub(crate) fn options(format: Format) -> TournamentOptions {
    TournamentOptions {
        name: "Autumn Cup".into(),
        format,
        variant: None,
        days_per_move: None,
        round_factor: None,
        starts_at: None,
    }
}

pub(crate) fn tournament_refusal(r: Refusal) -> TournamentRefusal {
    match r {
        Refusal::Tournament(why) => why,
        other => panic!("expected a tournament refusal, got {other:?}"),
    }
}

/// A round robin of four players in the hall, created and started by the organiser.
pub(crate) async fn four_started(service: &Service) {
    let hall = place(HALL);
    ok(service
        .tournaments()
        .create(hall, &organiser(), true, &options(Format::RoundRobin))
        .await);
    for i in 1..=4 {
        ok(service.tournaments().join(hall, &player(i)).await);
    }
    ok(service
        .tournaments()
        .start_now(hall, &organiser(), true)
        .await);
}

pub(crate) async fn current(service: &Service) -> StoredTournament {
    service
        .store()
        .latest_tournament_in(ChannelId(HALL))
        .await
        .expect("the store")
        .expect("a tournament")
}

/// The games of the tournament, read as the service stores them.
pub(crate) async fn games(service: &Service, t: &StoredTournament) -> Vec<TournamentGame> {
    let mut tx = service.store().begin().await.expect("a transaction");
    let games = tx.games(t.id).await.expect("the games");
    tx.rollback().await.expect("rolled back");
    games
}

/// Seats every game waiting for a channel in a fresh channel; returns the matches begun.
pub(crate) async fn seat_all(service: &Service, next_channel: &mut u64) -> Vec<(MatchId, Place)> {
    let mut seated = Vec::new();
    for game in service
        .tournaments()
        .games_to_seat(1000)
        .await
        .expect("games")
    {
        *next_channel += 1;
        let at = place(*next_channel);
        let channel = at.channel;
        let room: thudbot::service::Room =
            Box::new(move |_, _| Box::pin(async move { Ok(channel) }));
        if let Some(id) = service
            .tournaments()
            .seat_game(game.game, room)
            .await
            .expect("seated")
            .match_id()
        {
            seated.push((id, at));
        }
    }
    seated
}

/// Ends each match: the player `loser` picks resigns.
async fn resign_each(
    service: &Service,
    seated: &[(MatchId, Place)],
    mut loser: impl FnMut(usize, [UserId; 2]) -> usize,
) {
    for (i, (id, at)) in seated.iter().enumerate() {
        let m = service
            .store()
            .load_match(*id)
            .await
            .expect("the store")
            .expect("the match");
        let who = m.players[loser(i, m.players)];
        let name = format!("p{:02}", who.0 - 5000);
        ok(service
            .matches()
            .resign(*at, &Actor::new(who, name), None)
            .await);
    }
}

#[tokio::test]
async fn a_round_robin_of_four_is_played_to_the_end_and_refusals_change_nothing() {
    let s = service().await;
    let hall = place(HALL);
    let olga = organiser();

    // Only an organiser creates.
    let r = refusal(
        s.tournaments()
            .create(hall, &player(1), false, &options(Format::RoundRobin))
            .await,
    );
    assert_eq!(
        tournament_refusal(r),
        TournamentRefusal::NotOrganiser { role: None }
    );
    assert!(s
        .store()
        .latest_tournament_in(ChannelId(HALL))
        .await
        .unwrap()
        .is_none());

    let created = ok(s
        .tournaments()
        .create(hall, &olga, true, &options(Format::RoundRobin))
        .await);
    assert!(created.text.contains("Autumn Cup"), "{:?}", created.text);
    let again = refusal(
        s.tournaments()
            .create(hall, &olga, true, &options(Format::RoundRobin))
            .await,
    );
    assert_eq!(tournament_refusal(again), TournamentRefusal::ChannelHasOne);

    for i in 1..=4 {
        ok(s.tournaments().join(hall, &player(i)).await);
    }
    let twice = refusal(s.tournaments().join(hall, &player(1)).await);
    assert_eq!(tournament_refusal(twice), TournamentRefusal::AlreadyJoined);
    // Leaving and coming back keeps the seeds without gaps.
    ok(s.tournaments().join(hall, &player(5)).await);
    ok(s.tournaments().leave(hall, &player(2)).await);
    ok(s.tournaments().join(hall, &player(2)).await);
    ok(s.tournaments().leave(hall, &player(5)).await);
    let not_in = refusal(s.tournaments().leave(hall, &player(5)).await);
    assert_eq!(tournament_refusal(not_in), TournamentRefusal::NotJoined);
    let early = refusal(s.tournaments().withdraw(hall, &player(1)).await);
    assert_eq!(tournament_refusal(early), TournamentRefusal::NotStarted);

    // Only an organiser starts or cancels.
    let r = refusal(s.tournaments().start_now(hall, &player(1), false).await);
    assert_eq!(
        tournament_refusal(r),
        TournamentRefusal::NotOrganiser { role: None }
    );
    let r = refusal(s.tournaments().cancel(hall, &player(1), false).await);
    assert_eq!(
        tournament_refusal(r),
        TournamentRefusal::NotOrganiser { role: None }
    );
    assert_eq!(current(&s).await.state, TournamentState::Open);

    let started = ok(s.tournaments().start_now(hall, &olga, true).await);
    assert!(
        started.text.contains("Round 1 of Autumn Cup"),
        "{:?}",
        started.text
    );
    let late = refusal(s.tournaments().join(hall, &player(6)).await);
    assert_eq!(tournament_refusal(late), TournamentRefusal::AlreadyStarted);
    let t = current(&s).await;
    assert_eq!(
        (t.state, t.current_round, t.rounds),
        (TournamentState::Running, 1, Some(3))
    );

    // Seeds by joining: p01 0, p03 1, p04 2, p02 3. The lower seed of each pairing loses,
    // so the last seed (p02) wins every match and the first (p01) none.
    let mut channel = 1000;
    let mut met = HashSet::new();
    for round in 1..=3 {
        let seated = seat_all(&s, &mut channel).await;
        assert_eq!(seated.len(), 2, "round {round}");
        for (id, _) in &seated {
            let m = s.store().load_match(*id).await.unwrap().unwrap();
            assert!(met.insert((
                m.players[0].min(m.players[1]),
                m.players[0].max(m.players[1])
            )));
        }
        let seeds: HashMap<UserId, usize> = [(1, 0), (3, 1), (4, 2), (2, 3)]
            .map(|(p, seed)| (player(p).id, seed))
            .into();
        resign_each(&s, &seated, |_, players| {
            if seeds[&players[0]] < seeds[&players[1]] {
                0
            } else {
                1
            }
        })
        .await;
        let tick = s.tournaments().tick().await.expect("a tick");
        if round < 3 {
            assert_eq!(tick.rounds_paired, 1, "round {round}");
            assert_eq!(current(&s).await.current_round, round + 1);
        } else {
            assert_eq!(tick.finished, 1);
        }
    }
    assert_eq!(met.len(), 6, "every pair met once");
    let t = current(&s).await;
    assert_eq!(t.state, TournamentState::Finished);

    let notices = deliver_all(&s).await;
    let hall_notices: Vec<String> = notices
        .iter()
        .filter(|d| d.to == Recipient::Channel(ChannelId(HALL)))
        .map(|d| d.reply.text.to_plain(start_time()))
        .collect();
    let last = hall_notices.last().expect("the final announcement");
    assert!(last.contains("Autumn Cup is over. p02 wins it."), "{last}");
    // Each round's announcement (the three rounds' ends, the last with the winner) carries the
    // standings picture, a real PNG.
    let pictured: Vec<_> = notices
        .iter()
        .filter(|d| d.to == Recipient::Channel(ChannelId(HALL)))
        .filter_map(|d| d.reply.attachments.first())
        .collect();
    assert_eq!(pictured.len(), 3, "one picture a round");
    for picture in pictured {
        assert!(picture.filename.ends_with("-standings.png"));
        image::load_from_memory_with_format(&picture.bytes, image::ImageFormat::Png)
            .expect("the standings picture is a PNG");
    }
    assert!(last.contains("1. [4] p02 — 3 points (SB 3)"), "{last}");

    let reply = ok(s.tournaments().standings(hall, 1).await);
    let standings = reply.text.to_plain(start_time());
    // The crosstable picture: a real PNG, the winner's row highlighted.
    let picture = reply.attachments.first().expect("the standings picture");
    assert!(picture.filename.ends_with(".png"));
    let image = image::load_from_memory(&picture.bytes)
        .expect("a PNG")
        .to_rgb8();
    assert!(
        image.width() > 400 && image.height() > 150,
        "{:?}",
        image.dimensions()
    );
    let highlighted = image::Rgb([255, 226, 140]);
    let leader_row = 40 + 26 + 13;
    assert!((0..image.width()).any(|x| *image.get_pixel(x, leader_row) == highlighted));
    let second_row = 40 + 2 * 26 + 13;
    assert!(!(0..image.width()).any(|x| *image.get_pixel(x, second_row) == highlighted));
    if let Ok(dir) = std::env::var("THUDBOT_PICTURES") {
        std::fs::write(format!("{dir}/round-robin-standings.png"), &picture.bytes).unwrap();
    }
    assert!(standings.contains("finished"), "{standings}");
    assert!(
        standings.contains("4. [1] p01 — 0 points (SB 0)"),
        "{standings}"
    );

    // Nothing to do any more.
    let tick = s.tournaments().tick().await.unwrap();
    assert_eq!((tick.rounds_paired, tick.finished), (0, 0));
    let r = refusal(s.tournaments().cancel(hall, &olga, true).await);
    assert_eq!(tournament_refusal(r), TournamentRefusal::NoTournamentHere);
}

/// A second bot process on the same database: its own pool and service, the same clock.
async fn another_process(first: &TestService) -> Service {
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(5)
        .connect_with(first.db.connect_options())
        .await
        .expect("a second pool");
    Service::new(
        Store::new(pool),
        crate::common::renderer(),
        first.clock.clone(),
        ServiceConfig::default(),
    )
}

#[tokio::test]
async fn two_processes_ticking_together_pair_a_swiss_of_fifty_once_a_round() {
    let s = service().await;
    let other = another_process(&s).await;
    let hall = place(HALL);
    let starts = start_time() + Duration::hours(1);
    let opts = TournamentOptions {
        starts_at: Some(starts),
        ..options(Format::Swiss { rounds: None })
    };
    ok(s.tournaments()
        .create(hall, &organiser(), true, &opts)
        .await);
    for i in 0..50 {
        ok(s.tournaments().join(hall, &player(i)).await);
    }
    // Before the start time nothing happens.
    let (a, b) = tokio::join!(s.tournaments().tick(), other.tournaments().tick());
    assert_eq!(a.unwrap().rounds_paired + b.unwrap().rounds_paired, 0);
    s.clock.set(starts);

    let mut channel = 1000;
    let mut rng_state = 7u64;
    let mut rounds_seen = 0;
    loop {
        let (a, b) = tokio::join!(s.tournaments().tick(), other.tournaments().tick());
        let (a, b) = (a.expect("a tick"), b.expect("a tick"));
        let t = current(&s).await;
        if t.state == TournamentState::Finished {
            assert_eq!(a.finished + b.finished, 1, "finished once");
            break;
        }
        assert_eq!(
            a.rounds_paired + b.rounds_paired,
            1,
            "round {} paired once",
            t.current_round
        );
        rounds_seen += 1;
        assert_eq!(t.current_round, rounds_seen);
        // Both processes seat the games at once, each in its own channels: each game gets
        // one match.
        let (mut ca, mut cb) = (channel, channel + 10_000);
        let (sa, sb) = tokio::join!(seat_all(&s, &mut ca), seat_all(&other, &mut cb));
        channel = ca.max(cb) + 20_000;
        let seated: Vec<(MatchId, Place)> = sa.into_iter().chain(sb).collect();
        assert_eq!(seated.len(), 25, "round {rounds_seen}: 25 matches");
        resign_each(&s, &seated, |_, _| {
            rng_state = rng_state.wrapping_mul(6364136223846793005).wrapping_add(1);
            ((rng_state >> 33) % 2) as usize
        })
        .await;
    }
    let t = current(&s).await;
    assert_eq!(t.rounds, Some(7));
    assert_eq!(rounds_seen, 7);
    let all = games(&s, &t).await;
    let mut met = HashSet::new();
    for round in 1..=7 {
        let in_round: Vec<&TournamentGame> = all.iter().filter(|g| g.round == round).collect();
        assert_eq!(in_round.len(), 25, "round {round}");
        let mut seen = HashSet::new();
        for g in in_round {
            let Pairing::Match { first, second } = g.pairing else {
                panic!("no bye among 50");
            };
            assert!(seen.insert(first) && seen.insert(second), "round {round}");
            assert!(
                met.insert((first.min(second), first.max(second))),
                "a rematch"
            );
            let m = s
                .store()
                .load_match(g.match_id.expect("seated"))
                .await
                .unwrap()
                .unwrap();
            assert_eq!(m.state, MatchState::Finished);
        }
    }
    let finals = deliver_all(&s)
        .await
        .into_iter()
        .filter(|d| {
            let said = d.reply.text.to_plain(start_time());
            said.contains(" wins it.") || said.contains("share first place")
        })
        .count();
    assert_eq!(finals, 1, "the winner is announced once");
}

#[tokio::test]
async fn a_withdrawal_forfeits_the_match_in_play_and_later_rounds_skip_the_player() {
    let s = service().await;
    let hall = place(HALL);
    ok(s.tournaments()
        .create(
            hall,
            &organiser(),
            true,
            &options(Format::Swiss { rounds: Some(3) }),
        )
        .await);
    for i in 0..6 {
        ok(s.tournaments().join(hall, &player(i)).await);
    }
    ok(s.tournaments().start_now(hall, &organiser(), true).await);
    let mut channel = 1000;
    let seated = seat_all(&s, &mut channel).await;
    assert_eq!(seated.len(), 3);

    // p00 withdraws while playing: the opponent wins that match.
    let gone = player(0);
    ok(s.tournaments().withdraw(hall, &gone).await);
    let again = refusal(s.tournaments().withdraw(hall, &gone).await);
    assert_eq!(
        tournament_refusal(again),
        TournamentRefusal::AlreadyWithdrawn
    );
    let theirs = s
        .store()
        .active_match_in(seated[0].1.channel)
        .await
        .unwrap();
    assert!(theirs.is_none(), "p00's match is over");
    let m = s.store().load_match(seated[0].0).await.unwrap().unwrap();
    assert_eq!(m.winner.map(|w| w != gone.id), Some(true));

    resign_each(&s, &seated[1..], |_, _| 0).await;
    s.tournaments().tick().await.unwrap();
    let t = current(&s).await;
    assert_eq!(t.current_round, 2);
    let round2: Vec<TournamentGame> = games(&s, &t)
        .await
        .into_iter()
        .filter(|g| g.round == 2)
        .collect();
    // Five left: two matches and a bye, none for p00 (seed 0).
    assert_eq!(round2.len(), 3);
    assert!(round2.iter().all(|g| !g.pairing.has(0)));
    assert_eq!(
        round2
            .iter()
            .filter(|g| matches!(g.pairing, Pairing::Bye(_)))
            .count(),
        1
    );
    let reply = ok(s.tournaments().standings(hall, 1).await);
    let standings = reply.text.to_plain(start_time());
    assert!(standings.contains("p00 (withdrawn)"), "{standings}");
    let picture = &reply
        .attachments
        .first()
        .expect("the standings picture")
        .bytes;
    image::load_from_memory(picture).expect("a PNG");
    if let Ok(dir) = std::env::var("THUDBOT_PICTURES") {
        std::fs::write(format!("{dir}/swiss-standings.png"), picture).unwrap();
    }
}

#[tokio::test]
async fn at_the_round_deadline_a_late_player_loses_and_other_matches_are_drawn() {
    let s = service().await;
    let hall = place(HALL);
    let opts = TournamentOptions {
        days_per_move: Some(3),
        round_factor: Some(1),
        ..options(Format::RoundRobin)
    };
    ok(s.tournaments()
        .create(hall, &organiser(), true, &opts)
        .await);
    for i in 0..4 {
        ok(s.tournaments().join(hall, &player(i)).await);
    }
    ok(s.tournaments().start_now(hall, &organiser(), true).await);
    let mut channel = 1000;
    let seated = seat_all(&s, &mut channel).await;
    assert_eq!(seated.len(), 2);
    // In the second match the dwarfs move on day 1; the trolls' deadline is then day 4, after
    // the round's (day 3). In the first nobody moves: the dwarfs' deadline is the round's.
    s.clock.set(start_time() + Duration::days(1));
    let (moving, at) = seated[1];
    let m = s.store().load_match(moving).await.unwrap().unwrap();
    let dwarfs = m.players[0];
    ok(s.matches()
        .play(
            at,
            &Actor::new(dwarfs, format!("p{:02}", dwarfs.0 - 5000)),
            &MoveRequest::Notation("dF1-F5".into()),
        )
        .await);
    s.clock.set(start_time() + Duration::days(3));
    let tick = s.tournaments().tick().await.unwrap();
    assert_eq!(tick.rounds_paired, 1, "round 2 follows at once");
    let t = current(&s).await;
    let round1: Vec<TournamentGame> = games(&s, &t)
        .await
        .into_iter()
        .filter(|g| g.round == 1)
        .collect();
    let late = round1
        .iter()
        .find(|g| g.match_id == Some(seated[0].0))
        .unwrap();
    let stopped = round1
        .iter()
        .find(|g| g.match_id == Some(seated[1].0))
        .unwrap();
    assert_eq!(
        late.outcome,
        Some(thudbot::store::GameOutcome::SecondForfeit)
    );
    assert_eq!(stopped.outcome, Some(thudbot::store::GameOutcome::Drawn));
    let m = s.store().load_match(seated[1].0).await.unwrap().unwrap();
    assert_eq!(m.state, MatchState::Aborted);
}

#[tokio::test]
async fn a_start_time_with_too_few_players_calls_it_off_and_cancelling_stops_matches() {
    let s = service().await;
    let hall = place(HALL);
    let starts = start_time() + Duration::days(1);
    let past = TournamentOptions {
        starts_at: Some(start_time() - Duration::hours(1)),
        ..options(Format::RoundRobin)
    };
    let r = refusal(
        s.tournaments()
            .create(hall, &organiser(), true, &past)
            .await,
    );
    assert_eq!(tournament_refusal(r), TournamentRefusal::StartsInThePast);
    let opts = TournamentOptions {
        starts_at: Some(starts),
        ..options(Format::RoundRobin)
    };
    ok(s.tournaments()
        .create(hall, &organiser(), true, &opts)
        .await);
    for i in 0..3 {
        ok(s.tournaments().join(hall, &player(i)).await);
    }
    let r = refusal(s.tournaments().start_now(hall, &organiser(), true).await);
    assert!(matches!(
        tournament_refusal(r),
        TournamentRefusal::Format(_)
    ));
    assert_eq!(current(&s).await.state, TournamentState::Open);
    s.clock.set(starts);
    let tick = s.tournaments().tick().await.unwrap();
    assert_eq!(tick.finished, 1);
    let t = current(&s).await;
    assert_eq!(t.state, TournamentState::Cancelled);
    assert_eq!(t.ended_early.as_deref(), Some("only 3 joined"));

    // A new one in the same channel, started and cancelled with its matches in play.
    ok(s.tournaments()
        .create(hall, &organiser(), true, &options(Format::RoundRobin))
        .await);
    for i in 0..4 {
        ok(s.tournaments().join(hall, &player(i)).await);
    }
    ok(s.tournaments().start_now(hall, &organiser(), true).await);
    let mut channel = 1000;
    let seated = seat_all(&s, &mut channel).await;
    let cancelled = ok(s.tournaments().cancel(hall, &organiser(), true).await);
    assert!(cancelled
        .text
        .to_plain(start_time())
        .contains("2 matches in play are stopped"));
    for (id, _) in &seated {
        let m = s.store().load_match(*id).await.unwrap().unwrap();
        assert_eq!(m.state, MatchState::Aborted);
    }
    assert!(s.tournaments().games_to_seat(10).await.unwrap().is_empty());
}

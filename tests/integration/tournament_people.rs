//! Who takes part in a tournament, through the service on a real database: the organisers'
//! role a server names, vacations moving a round's deadline as they move a clock, and players
//! who left the server or were banned from it withdrawn.

use chrono::Duration;
use thudbot::service::{
    Actor, Departure, OrganiserRoleChange, Place, Service, TournamentOptions, TournamentRefusal,
};
use thudbot::store::{
    ChannelId, GameOutcome, GuildId, MatchId, MatchState, StoredTournament, TournamentGame, UserId,
};
use thudbot::tournament::{Format, Pairing};

use crate::common::{ok, place, refusal, service, start_time, GUILD};
use crate::tournaments::{games, options, player, tournament_refusal};

const HALL: u64 = 900;
const ARBITER: u64 = 7_000;

/// The player with this id, named as [`player`] names them.
fn as_player(user: UserId) -> Actor {
    player(user.0 - 5000)
}

fn moderator() -> Actor {
    Actor::new(UserId(4000), "olga")
}

async fn current(service: &Service, channel: u64) -> StoredTournament {
    service
        .store()
        .latest_tournament_in(ChannelId(channel))
        .await
        .expect("the store")
        .expect("a tournament")
}

/// Seats every game waiting for a channel; returns each match with its channel and players.
async fn seat_all(service: &Service, next: &mut u64) -> Vec<(MatchId, Place, [UserId; 2])> {
    let mut seated = Vec::new();
    for game in service
        .tournaments()
        .games_to_seat(100)
        .await
        .expect("games")
    {
        *next += 1;
        let at = place(*next);
        let channel = at.channel;
        let room: thudbot::service::Room =
            Box::new(move |_, _| Box::pin(async move { Ok(channel) }));
        if let Some(id) = service
            .tournaments()
            .seat_game(game.game, room)
            .await
            .unwrap()
            .match_id()
        {
            let m = service.store().load_match(id).await.unwrap().unwrap();
            assert_eq!(m.players, game.players, "the players the front-end checks");
            seated.push((id, at, m.players));
        }
    }
    seated
}

/// A round robin of `n` with these options, started, its first round seated.
async fn started(
    s: &Service,
    n: u64,
    opts: TournamentOptions,
) -> Vec<(MatchId, Place, [UserId; 2])> {
    let hall = place(HALL);
    ok(s.tournaments()
        .create(hall, &moderator(), true, &opts)
        .await);
    for i in 0..n {
        ok(s.tournaments().join(hall, &player(i)).await);
    }
    ok(s.tournaments().start_now(hall, &moderator(), true).await);
    let mut channel = 1000;
    seat_all(s, &mut channel).await
}

#[tokio::test]
async fn an_organisers_role_named_by_the_server_lets_its_members_organise() {
    let s = service().await;
    let hall = place(HALL);
    let member = player(1);
    assert!(s
        .tournaments()
        .is_organiser(GUILD, true, &[])
        .await
        .unwrap());
    assert!(!s
        .tournaments()
        .is_organiser(GUILD, false, &[ARBITER])
        .await
        .unwrap());

    // Only Manage Server names the role; a refusal changes nothing.
    let arbiter = || OrganiserRoleChange::Name {
        id: ARBITER,
        name: "Arbiter".into(),
    };
    let r = refusal(
        s.tournaments()
            .organisers(GUILD, &member, false, arbiter())
            .await,
    );
    assert_eq!(tournament_refusal(r), TournamentRefusal::NotServerManager);
    assert!(!s
        .tournaments()
        .is_organiser(GUILD, false, &[ARBITER])
        .await
        .unwrap());
    let r = refusal(
        s.tournaments()
            .organisers(GUILD, &member, false, OrganiserRoleChange::Clear)
            .await,
    );
    assert_eq!(tournament_refusal(r), TournamentRefusal::NotServerManager);

    let named = ok(s
        .tournaments()
        .organisers(GUILD, &moderator(), true, arbiter())
        .await);
    assert!(named.text.contains("Arbiter"), "{:?}", named.text);
    let shown = ok(s
        .tournaments()
        .organisers(GUILD, &member, false, OrganiserRoleChange::Show)
        .await);
    assert!(shown.text.contains("Arbiter"), "{:?}", shown.text);
    assert!(s
        .tournaments()
        .is_organiser(GUILD, false, &[1, ARBITER])
        .await
        .unwrap());
    assert!(!s
        .tournaments()
        .is_organiser(GUILD, false, &[1])
        .await
        .unwrap());
    assert!(
        !s.tournaments()
            .is_organiser(GuildId(78), false, &[ARBITER])
            .await
            .unwrap(),
        "another server has no organisers' role"
    );

    // A refusal names the role, as Discord calls it now.
    let r = refusal(
        s.tournaments()
            .create(hall, &member, false, &options(Format::RoundRobin))
            .await,
    );
    let why = tournament_refusal(r);
    assert_eq!(
        why,
        TournamentRefusal::NotOrganiser {
            role: Some("Arbiter".into())
        }
    );
    assert!(
        why.text().contains("or the Arbiter role"),
        "{:?}",
        why.text()
    );
    assert!(s
        .tournaments()
        .role_changed(GUILD, ARBITER, Some("Referee"))
        .await
        .unwrap());
    assert!(!s
        .tournaments()
        .role_changed(GUILD, 1, Some("Other"))
        .await
        .unwrap());
    let r = refusal(s.tournaments().start_now(hall, &member, false).await);
    assert_eq!(
        tournament_refusal(r),
        TournamentRefusal::NotOrganiser {
            role: Some("Referee".into())
        }
    );
    // A member of the role organises: the front-end tells the service so.
    let may = s
        .tournaments()
        .is_organiser(GUILD, false, &[ARBITER])
        .await
        .unwrap();
    ok(s.tournaments()
        .create(hall, &member, may, &options(Format::RoundRobin))
        .await);

    // Deleted on Discord, the role is forgotten; cleared, only Manage Server counts.
    assert!(s
        .tournaments()
        .role_changed(GUILD, ARBITER, None)
        .await
        .unwrap());
    assert!(!s
        .tournaments()
        .is_organiser(GUILD, false, &[ARBITER])
        .await
        .unwrap());
    let r = refusal(s.tournaments().cancel(hall, &member, false).await);
    assert_eq!(
        tournament_refusal(r),
        TournamentRefusal::NotOrganiser { role: None }
    );
    ok(s.tournaments()
        .organisers(GUILD, &moderator(), true, arbiter())
        .await);
    let cleared = ok(s
        .tournaments()
        .organisers(GUILD, &moderator(), true, OrganiserRoleChange::Clear)
        .await);
    assert!(!cleared.text.contains("Arbiter"), "{:?}", cleared.text);
    assert!(!s
        .tournaments()
        .is_organiser(GUILD, false, &[ARBITER])
        .await
        .unwrap());
}

#[tokio::test]
async fn vacations_move_a_round_deadline_as_they_move_a_clock() {
    let s = service().await;
    let day = |d: f64| start_time() + Duration::minutes((d * 24.0 * 60.0) as i64);
    // 7 days a move, a round of 7 days: the round's deadline is day 7, as is each first move's.
    let opts = TournamentOptions {
        days_per_move: Some(7),
        round_factor: Some(1),
        ..options(Format::RoundRobin)
    };
    let seated = started(&s, 4, opts).await;
    assert_eq!(seated.len(), 2);
    let [(_, _, a), (_, _, b)] = [seated[0], seated[1]];
    assert_eq!(current(&s, HALL).await.round_deadline, Some(day(7.0)));

    // Game A: its second player is away one day (days 1–2). Game B: both are away, days 2–4
    // and 3–4, together two days (not three). The round takes the longest: two days.
    s.clock.set(day(1.0));
    ok(s.matches().start_vacation(&as_player(a[1]), Some(3)).await);
    s.clock.set(day(2.0));
    ok(s.matches().end_vacation(&as_player(a[1])).await);
    ok(s.matches().start_vacation(&as_player(b[0]), Some(2)).await);
    s.clock.set(day(3.0));
    ok(s.matches().start_vacation(&as_player(b[1]), Some(5)).await);
    s.clock.set(day(4.0));
    s.tick().await.unwrap();
    ok(s.matches().end_vacation(&as_player(b[1])).await);

    s.clock.set(day(7.0) + Duration::hours(1));
    let tick = s.tournaments().tick().await.unwrap();
    assert_eq!(tick.rounds_paired, 0, "the deadline moved on");
    let t = current(&s, HALL).await;
    assert_eq!(t.round_deadline, Some(day(9.0)));
    assert!(games(&s, &t).await.iter().all(|g| g.outcome.is_none()));

    // Game A's second player goes away again on day 7.5, before game A's own time (day 8) is
    // up, for two days: past the round's deadline, which waits for them while they are away.
    s.clock.set(day(7.5));
    ok(s.matches().start_vacation(&as_player(a[1]), Some(2)).await);
    s.clock.set(day(9.0) + Duration::hours(1));
    assert_eq!(s.tournaments().tick().await.unwrap().rounds_paired, 0);
    let t = current(&s, HALL).await;
    assert_eq!(
        t.round_deadline,
        Some(day(9.0)),
        "unchanged while they are away"
    );
    assert!(games(&s, &t).await.iter().all(|g| g.outcome.is_none()));
    // Back on day 9.5: game A had three days away in all, so the round ends on day 10.
    s.clock.set(day(9.5));
    let report = s.tick().await.unwrap();
    assert_eq!(report.tournaments.rounds_paired, 0);
    assert_eq!(current(&s, HALL).await.round_deadline, Some(day(10.0)));

    s.clock.set(day(10.0) + Duration::hours(1));
    assert_eq!(s.tournaments().tick().await.unwrap().rounds_paired, 1);
    let t = current(&s, HALL).await;
    assert_eq!(t.current_round, 2);
    // Each first player, to move since the start and back for days, missed their deadline.
    let round1: Vec<TournamentGame> = games(&s, &t)
        .await
        .into_iter()
        .filter(|g| g.round == 1)
        .collect();
    assert!(
        round1
            .iter()
            .all(|g| g.outcome == Some(GameOutcome::SecondForfeit)),
        "{round1:?}"
    );
}

#[tokio::test]
async fn a_player_banned_or_gone_is_withdrawn_from_the_servers_tournaments() {
    let s = service().await;
    let seated = started(&s, 4, options(Format::Swiss { rounds: Some(3) })).await;
    assert_eq!(seated.len(), 2);
    // Another server's tournament with the same player is not touched; an open one of this
    // server just loses them.
    let elsewhere = Place {
        guild: GuildId(78),
        channel: ChannelId(950),
    };
    ok(s.tournaments()
        .create(elsewhere, &moderator(), true, &options(Format::RoundRobin))
        .await);
    let open_here = place(960);
    ok(s.tournaments()
        .create(open_here, &moderator(), true, &options(Format::RoundRobin))
        .await);
    let (gone_match, _, players) = seated[0];
    let gone = players[1];
    ok(s.tournaments().join(elsewhere, &as_player(gone)).await);
    ok(s.tournaments().join(open_here, &as_player(gone)).await);

    assert_eq!(
        s.tournaments()
            .withdraw_everywhere(GUILD, gone, Departure::Banned)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        s.tournaments()
            .withdraw_everywhere(GUILD, gone, Departure::Left)
            .await
            .unwrap(),
        0,
        "once is enough (a ban is followed by the member's removal)"
    );
    let m = s.store().load_match(gone_match).await.unwrap().unwrap();
    assert_eq!(m.state, MatchState::Finished);
    assert_eq!(m.winner, Some(players[0]));
    let t = current(&s, HALL).await;
    let decided = games(&s, &t)
        .await
        .into_iter()
        .find(|g| g.match_id == Some(gone_match))
        .unwrap();
    assert_eq!(decided.outcome, Some(GameOutcome::FirstForfeit));
    let mut tx = s.store().begin().await.unwrap();
    let open = current(&s, 960).await;
    assert!(tx.entrants(open.id).await.unwrap().is_empty());
    let other = current(&s, 950).await;
    assert_eq!(tx.entrants(other.id).await.unwrap().len(), 1);
    tx.rollback().await.unwrap();
    let said = crate::common::deliver_all(&s).await;
    assert!(
        said.iter().any(|d| d
            .reply
            .text
            .contains("was banned from this server and is withdrawn from Autumn Cup")),
        "{said:?}"
    );

    // The other match ends; round 2 pairs the three left: a match and a bye, without them.
    let (_, at, others) = seated[1];
    ok(s.matches().resign(at, &as_player(others[0]), None).await);
    assert_eq!(s.tournaments().tick().await.unwrap().rounds_paired, 1);
    let t = current(&s, HALL).await;
    let mut tx = s.store().begin().await.unwrap();
    let entrants = tx.entrants(t.id).await.unwrap();
    tx.rollback().await.unwrap();
    let seed = entrants.iter().find(|e| e.user == gone).unwrap().seed;
    let round2: Vec<Pairing> = games(&s, &t)
        .await
        .into_iter()
        .filter(|g| g.round == 2)
        .map(|g| g.pairing)
        .collect();
    assert_eq!(round2.len(), 2, "{round2:?}");
    assert!(round2.iter().all(|p| !p.has(seed)), "{round2:?}");
}

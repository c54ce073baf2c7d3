//! What tournament players read, and where: marks that name the opponent by start number on
//! every page, news said in the tournament's channel whatever thread made it, commands that
//! work from a game's thread, cancelled games shown as stopped, and every standings text
//! with its legend.

use thudbot::service::{Actor, TournamentRefusal};
use thudbot::store::{ChannelId, Recipient, TournamentState};
use thudbot::tournament::{Format, Pairing};

use crate::common::{deliver_all, ok, place, refusal, service, start_time};
use crate::tournament_results::started;
use crate::tournaments::{current, games, options, organiser, player, tournament_refusal, HALL};

/// The text of every notice delivered to `channel`.
fn said_in(deliveries: &[thudbot::service::Delivery], channel: u64) -> Vec<String> {
    deliveries
        .iter()
        .filter(|d| d.to == Recipient::Channel(ChannelId(channel)))
        .map(|d| d.reply.text.to_plain(start_time()))
        .collect()
}

/// Opens a Swiss of as many rounds as its field needs in the hall.
async fn open_swiss(s: &thudbot::service::Service) {
    let swiss = options(Format::Swiss { rounds: None });
    ok(s.tournaments()
        .create(place(HALL), &organiser(), true, &swiss)
        .await);
}

/// The players of the match seated at `at`, as actors.
async fn players_at(s: &thudbot::service::Service, id: thudbot::store::MatchId) -> [Actor; 2] {
    let m = s.store().load_match(id).await.unwrap().unwrap();
    m.players
        .map(|u| Actor::new(u, format!("p{:02}", u.0 - 5000)))
}

#[tokio::test]
async fn marks_name_the_opponent_by_start_number_on_every_page() {
    let s = service().await;
    let hall = place(HALL);
    // 41 players: the standings have two pages, and every player in play shares rank 1.
    open_swiss(&s).await;
    for i in 1..=41 {
        ok(s.tournaments().join(hall, &player(i)).await);
    }
    ok(s.tournaments().start_now(hall, &organiser(), true).await);
    let t = current(&s).await;
    let round1: Vec<Pairing> = games(&s, &t)
        .await
        .into_iter()
        .filter(|g| g.round == 1)
        .map(|g| g.pairing)
        .collect();
    let mut lines = 0;
    for page in [1, 2] {
        let text = ok(s.tournaments().standings(hall, page).await)
            .text
            .to_plain(start_time());
        for line in text.lines().filter(|l| l.contains("by round: ")) {
            // "1. [20] p20 — 0 points (…); by round: …40": player(i) joined i-th.
            let number: usize = line
                .split_once('[')
                .and_then(|(_, r)| r.split_once(']'))
                .and_then(|(n, _)| n.parse().ok())
                .unwrap_or_else(|| panic!("a start number in {line}"));
            assert!(line.contains(&format!("] p{number:02} —")), "{line}");
            let mark = line.rsplit("by round: ").next().unwrap();
            let seed = number - 1;
            let pairing = round1.iter().find(|p| p.has(seed)).expect("paired");
            match pairing.opponent_of(seed) {
                Some(opponent) => assert_eq!(mark, format!("…{}", opponent + 1), "{line}"),
                None => assert_eq!(mark, "bye", "{line}"),
            }
            lines += 1;
        }
        assert!(text.contains("[n] is each player's start number"), "{text}");
    }
    assert_eq!(lines, 41);
    // Each page its own file.
    let second = ok(s.tournaments().standings(hall, 2).await);
    assert_eq!(
        second.attachments[0].filename,
        format!("tournament-{}-standings-page-2.png", t.id)
    );
    // Page 0 is refused as any page that is not there.
    let r = tournament_refusal(refusal(s.tournaments().standings(hall, 0).await));
    assert!(
        matches!(
            r,
            TournamentRefusal::NoSuchStandingsPage {
                page: 0,
                pages: 2,
                ..
            }
        ),
        "{r:?}"
    );
    let r = tournament_refusal(refusal(s.tournaments().standings(hall, -1).await));
    assert!(
        matches!(
            r,
            TournamentRefusal::NoSuchStandingsPage {
                page: -1,
                pages: 2,
                ..
            }
        ),
        "{r:?}"
    );
}

#[tokio::test]
async fn a_round_ended_from_a_games_thread_is_news_in_the_tournament_channel() {
    let s = service().await;
    let seated = started(&s, Format::Swiss { rounds: Some(2) }, 4).await;
    assert_eq!(seated.len(), 2);
    deliver_all(&s).await;
    let (first, at) = seated[0];
    let [a, _] = players_at(&s, first).await;
    ok(s.matches().resign(at, &a, None).await);
    let (last, there) = seated[1];
    let [c, _] = players_at(&s, last).await;
    // The last undecided game's player withdraws in its thread: round 1 is over.
    let reply = ok(s.tournaments().withdraw(there, &c).await);
    let answer = reply.text.to_plain(start_time());
    assert!(answer.contains("withdraws from Autumn Cup"), "{answer}");
    assert!(
        !answer.contains("Round 1"),
        "the round's news is not the thread's: {answer}"
    );
    let delivered = deliver_all(&s).await;
    let hall = said_in(&delivered, HALL).join("\n");
    assert!(hall.contains("withdraws from Autumn Cup"), "{hall}");
    assert!(hall.contains("Round 1 of Autumn Cup is over."), "{hall}");
    assert!(hall.contains("Round 2 of Autumn Cup"), "{hall}");
    // The standings said with the round's end carry their legend.
    assert!(hall.contains("[n] is each player's start number"), "{hall}");
    assert!(hall.contains("Ties: Buchholz, then margin."), "{hall}");
}

#[tokio::test]
async fn tournament_commands_work_from_a_games_thread() {
    let s = service().await;
    let seated = started(&s, Format::Swiss { rounds: Some(2) }, 4).await;
    deliver_all(&s).await;
    let (id, thread) = seated[0];
    let [a, _] = players_at(&s, id).await;
    // Leaving is for before the start, and the thread knows its tournament has started.
    let r = tournament_refusal(refusal(s.tournaments().leave(thread, &a).await));
    assert_eq!(r, TournamentRefusal::AlreadyStarted);
    // A late entry from the thread joins this thread's tournament, said in the channel.
    ok(s.tournaments()
        .add_late_entry(thread, &organiser(), true, &player(9))
        .await);
    // The organiser cancels it from the thread.
    let reply = ok(s.tournaments().cancel(thread, &organiser(), true).await);
    assert!(
        reply
            .text
            .to_plain(start_time())
            .contains("Autumn Cup is cancelled"),
        "{:?}",
        reply.text
    );
    assert_eq!(current(&s).await.state, TournamentState::Cancelled);
    let delivered = deliver_all(&s).await;
    let hall = said_in(&delivered, HALL).join("\n");
    assert!(hall.contains("p09 joins Autumn Cup late"), "{hall}");
    assert!(hall.contains("Autumn Cup is cancelled"), "{hall}");
    // The stopped match's board says what became of it, and nothing about a moderator.
    let board = ok(s.matches().board(thread, &a, None).await)
        .text
        .to_plain(start_time());
    assert!(board.contains("stopped before it was decided"), "{board}");
    assert!(!board.contains("moderator"), "{board}");
}

#[tokio::test]
async fn a_late_entry_before_the_start_is_refused_with_how_players_join() {
    let s = service().await;
    let hall = place(HALL);
    open_swiss(&s).await;
    let r = tournament_refusal(refusal(
        s.tournaments()
            .add_late_entry(hall, &organiser(), true, &player(10))
            .await,
    ));
    assert_eq!(r, TournamentRefusal::LateEntryBeforeStart);
    let said = thudbot::service::Refusal::Tournament(r)
        .text()
        .to_plain(start_time());
    assert!(said.contains("/thud tournament join"), "{said}");
    assert!(!said.contains("leave"), "{said}");
}

#[tokio::test]
async fn a_cancelled_tournament_shows_its_stopped_games_as_stopped() {
    let s = service().await;
    let hall = place(HALL);
    let seated = started(&s, Format::Swiss { rounds: Some(3) }, 4).await;
    let (id, at) = seated[0];
    let [a, b] = players_at(&s, id).await;
    ok(s.matches().resign(at, &a, None).await);
    ok(s.tournaments().cancel(hall, &organiser(), true).await);
    let text = ok(s.tournaments().standings(hall, 1).await)
        .text
        .to_plain(start_time());
    assert!(text.contains("standings, cancelled"), "{text}");
    // The decided game keeps its result; the stopped one is marked stopped, its round kept.
    let number = |who: &Actor| who.id.0 as usize - 5000;
    assert!(
        text.contains(&format!("by round: −F{}", number(&b))),
        "{text}"
    );
    assert!(
        text.contains(&format!("by round: +F{}", number(&a))),
        "{text}"
    );
    assert_eq!(text.matches("by round: /").count(), 2, "{text}");
    assert!(
        !text.contains("by round: ·") && !text.contains("by round: \n"),
        "{text}"
    );
    assert!(
        text.contains("/n stopped unfinished against no. n when the tournament was cancelled"),
        "{text}"
    );
}

#[tokio::test]
async fn points_and_formats_read_as_english() {
    let s = service().await;
    let hall = place(HALL);
    let seated = started(&s, Format::Swiss { rounds: Some(1) }, 4).await;
    let (id, at) = seated[0];
    let [a, b] = players_at(&s, id).await;
    ok(s.matches().resign(at, &a, None).await);
    let text = ok(s.tournaments().standings(hall, 1).await)
        .text
        .to_plain(start_time());
    assert!(text.contains(&format!("{} — 1 point (", b.name)), "{text}");
    assert!(text.contains(&format!("{} — 0 points (", a.name)), "{text}");
    let created = ok(s
        .tournaments()
        .create(
            place(HALL + 1),
            &organiser(),
            true,
            &options(Format::Swiss { rounds: Some(1) }),
        )
        .await)
    .text
    .to_plain(start_time());
    assert!(created.contains("Swiss, 1 round"), "{created}");
    assert!(!created.contains("1 rounds"), "{created}"); // A corrected result reads as one sentence after another, with no run of spaces.
    let corrected = ok(s
        .tournaments()
        .correct_result(hall, &organiser(), true, id, None)
        .await)
    .text
    .to_plain(start_time());
    assert!(
        corrected.contains("it is drawn. The standings count the correction"),
        "{corrected}"
    );
    assert!(!corrected.contains("  "), "{corrected}");
}

#[tokio::test]
async fn a_big_field_with_long_names_keeps_every_name_apart_in_a_picture_its_table_fills() {
    let s = service().await;
    let hall = place(HALL);
    let mut long = options(Format::Swiss { rounds: None });
    long.name = "The Grand Autumn Invitational of the Ankh-Morpork Thud Club".into();
    ok(s.tournaments()
        .create(hall, &organiser(), true, &long)
        .await);
    for i in 1..=60u64 {
        // As long as a name is kept (64 characters), differing only at the end.
        let name = format!("player_with_a_rather_long_name_{}_{i:03}", "x".repeat(28));
        ok(s.tournaments()
            .join(hall, &Actor::new(player(i).id, name))
            .await);
    }
    ok(s.tournaments().start_now(hall, &organiser(), true).await);
    for page in [1, 2] {
        let reply = ok(s.tournaments().standings(hall, page).await);
        let picture = &reply.attachments[0];
        let image = image::load_from_memory(&picture.bytes)
            .expect("a PNG")
            .to_rgb8();
        // The table sets the width, not the title: 28 characters of name, the marks, and
        // no more.
        assert!(image.width() < 1000, "{} px", image.width());
        if let Ok(dir) = std::env::var("THUDBOT_PICTURES") {
            std::fs::write(format!("{dir}/{}", picture.filename), &picture.bytes).unwrap();
        }
    }
}

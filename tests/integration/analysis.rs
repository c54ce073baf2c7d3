//! Analysis of finished matches through the service and the store: refused while a match is
//! in play, judged once whatever the number of processes, resumed after a restart, and
//! reported with the graph and the players' mistakes.

use crate::common::{alice, bob, ok, place, refusal, service, TestService};
use thudbot::computer::analysis::{Budget, CHECKED};
use thudbot::service::{
    AnalysisAnswer, ChallengeOptions, MoveRequest, Refusal, Reply, Service, ServiceConfig,
    ServiceError,
};
use thudbot::store::{ChannelId, MatchId, SideChoice, Store};

/// A budget small enough for tests.
pub(crate) const TINY: Budget = Budget { nodes: 1_500 };

/// A second process: another service over the same database.
fn another_process(test: &TestService) -> Service {
    Service::new(
        Store::new(test.db.pool().clone()),
        crate::common::renderer(),
        test.clock.clone(),
        ServiceConfig::default(),
    )
    .with_analysis_budget(TINY)
}

/// alice (dwarfs) plays bob in channel 1: `moves` in battle 1, then bob resigns.
pub(crate) async fn finished_match(service: &Service, moves: &[&str]) -> MatchId {
    let at = place(1);
    let options = ChallengeOptions {
        side: Some(SideChoice::Dwarfs),
        ..ChallengeOptions::default()
    };
    ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &options)
        .await);
    ok(service.matches().accept(at, &bob(), None, None).await);
    for (i, mv) in moves.iter().enumerate() {
        let who = if i % 2 == 0 { alice() } else { bob() };
        ok(service
            .matches()
            .play(at, &who, &MoveRequest::Notation(mv.to_string()))
            .await);
    }
    ok(service.matches().resign(at, &bob(), None).await);
    service
        .store()
        .latest_match_in(ChannelId(1))
        .await
        .unwrap()
        .expect("a match")
}

fn analysis(result: Result<AnalysisAnswer, ServiceError>) -> AnalysisAnswer {
    result.unwrap_or_else(|e| panic!("expected an answer, got {e:?}"))
}

fn refused(result: Result<AnalysisAnswer, ServiceError>) -> Refusal {
    refusal(result.map(|_| Reply::default()))
}

fn report(answer: AnalysisAnswer) -> Reply {
    match answer {
        AnalysisAnswer::Report(reply) => reply,
        other => panic!("expected the report, got {other:?}"),
    }
}

/// dA7-F7 walks a dwarf up to the trolls, and a troll takes it.
const GIVEN_AWAY: [&str; 4] = ["dA7-F7", "TG8-F8xF7", "dO7-O8", "TF8-F9"];

#[tokio::test]
async fn analysis_is_refused_while_the_match_is_in_play_and_without_moves() {
    let test = service().await;
    let at = place(1);
    let options = ChallengeOptions {
        side: Some(SideChoice::Dwarfs),
        ..ChallengeOptions::default()
    };
    ok(test
        .matches()
        .challenge(at, &alice(), &bob(), &options)
        .await);
    ok(test.matches().accept(at, &bob(), None, None).await);
    let id = test
        .store()
        .latest_match_in(ChannelId(1))
        .await
        .unwrap()
        .unwrap();
    ok(test
        .matches()
        .play(at, &alice(), &MoveRequest::Notation("dA7-F7".into()))
        .await);
    let during = refused(test.analysis().ask(at, Some(id)).await);
    assert_eq!(during, Refusal::AnalysisDuringPlay(id));
    assert!(during.to_string().contains("still in play"), "{during}");
    // Nothing was asked for: the refusal changed nothing.
    assert_eq!(test.store().analysis_status(id).await.unwrap(), None);
    assert_eq!(
        refused(test.analysis().ask(at, Some(MatchId(999))).await),
        Refusal::NotOnThisServer(MatchId(999))
    );

    // A match resigned before any move has nothing to analyse.
    ok(test.matches().resign(at, &bob(), None).await);
    let at2 = place(2);
    ok(test
        .matches()
        .challenge(at2, &alice(), &bob(), &options)
        .await);
    ok(test.matches().accept(at2, &bob(), None, None).await);
    ok(test.matches().resign(at2, &alice(), None).await);
    let empty = test
        .store()
        .latest_match_in(ChannelId(2))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        refused(test.analysis().ask(at2, Some(empty)).await),
        Refusal::NothingToAnalyse(empty)
    );
}

#[tokio::test]
async fn progress_and_judgements_survive_a_restart_and_nothing_is_judged_twice() {
    let test = service().await;
    let first = another_process(&test);
    let id = finished_match(&first, &GIVEN_AWAY).await;
    let at = place(1);
    let AnalysisAnswer::UnderWay { status, reply, .. } =
        analysis(first.analysis().ask(at, None).await)
    else {
        panic!("a fresh analysis is under way")
    };
    assert!(reply.private);
    // Its progress is to be shown where it was asked for: a showing waits in the outbox.
    let shown = test.store().analysis_status(id).await.unwrap().unwrap();
    assert_eq!(shown.channel, Some(at.channel));
    let queued = test
        .store()
        .notices_to(thudbot::store::Recipient::Channel(at.channel))
        .await
        .unwrap();
    assert_eq!(queued.len(), 1);
    assert_eq!(queued[0].body["events"][0]["event"], "analysis-changed");
    assert_eq!((status.judged, status.positions), (0, 5));
    assert!(reply.text.contains("0 of 5 positions"), "{}", reply.text);

    assert_eq!(first.analysis().analyse_some(2).await.unwrap(), 2);
    drop(first);

    // After the restart, asking again shows the progress kept, and the work resumes there.
    let second = another_process(&test);
    let AnalysisAnswer::UnderWay { status, .. } =
        analysis(second.analysis().ask(at, Some(id)).await)
    else {
        panic!("still under way")
    };
    assert_eq!(status.judged, 2);
    // The three positions left, and the deeper looks at the suspects among the five.
    let judged = second.analysis().analyse_some(100).await.unwrap();
    assert_eq!(judged, 3 + checked(&test, id).await);
    assert_eq!(second.analysis().analyse_some(100).await.unwrap(), 0);
    let status = test.store().analysis_status(id).await.unwrap().unwrap();
    assert!(status.finished_at.is_some());
    assert_eq!(test.store().judgements(id).await.unwrap().len(), 5);

    let done = report(analysis(second.analysis().ask(at, Some(id)).await));
    assert!(!done.private);
    assert!(done.text.contains("Analysis of match #1"), "{}", done.text);
    assert_eq!(done.attachments.len(), 1);
    assert!(done.attachments[0].filename.ends_with(".png"));
}

#[tokio::test]
async fn two_processes_judge_a_match_once_between_them() {
    let test = service().await;
    let a = another_process(&test);
    let b = another_process(&test);
    let moves = [
        "dA7-F7",
        "TG8-F8xF7",
        "dO7-O8",
        "TF8-F9",
        "dA9-B9",
        "TI8-J8",
        "dB5-B6",
        "TJ8-J9",
    ];
    let id = finished_match(&a, &moves).await;
    analysis(a.analysis().ask(place(1), Some(id)).await);
    let work = |s: Service| async move {
        let mut judged = 0;
        loop {
            judged += s.analysis().analyse_some(1).await.unwrap();
            let status = s.store().analysis_status(id).await.unwrap().unwrap();
            if status.finished_at.is_some() {
                return judged;
            }
            tokio::task::yield_now().await;
        }
    };
    let (by_a, by_b) = tokio::join!(tokio::spawn(work(a)), tokio::spawn(work(b)));
    let (by_a, by_b) = (by_a.unwrap(), by_b.unwrap());
    // Nine positions and each deeper look, none twice.
    let checks = checked(&test, id).await;
    assert_eq!(by_a + by_b, 9 + checks, "a judged {by_a}, b judged {by_b}");
    assert_eq!(test.store().judgements(id).await.unwrap().len(), 9);
}

#[tokio::test]
async fn an_analysis_left_by_a_process_that_died_is_taken_over_after_its_lease() {
    let test = service().await;
    let survivor = another_process(&test);
    let id = finished_match(&survivor, &GIVEN_AWAY).await;
    analysis(survivor.analysis().ask(place(1), Some(id)).await);
    // A process claims it and dies without a word.
    let now = test.now();
    let claimed = test
        .store()
        .claim_analysis(now, now + chrono::Duration::seconds(60))
        .await
        .unwrap();
    assert_eq!(claimed, Some(id));
    assert_eq!(survivor.analysis().analyse_some(100).await.unwrap(), 0);
    test.clock.advance(chrono::Duration::seconds(61));
    let judged = survivor.analysis().analyse_some(100).await.unwrap();
    assert_eq!(judged, 5 + checked(&test, id).await);
}

/// How many of match `id`'s suspected moves have had the deeper look.
async fn checked(test: &TestService, id: MatchId) -> usize {
    let stored = test.store().judgements(id).await.unwrap();
    stored.iter().filter(|j| j.checked).count()
}

#[tokio::test]
async fn the_report_names_the_dwarf_given_away_and_a_better_move() {
    let test = service().await;
    // At the bot's own budget: at a sixth of it the standard look's own choice (dA6-D6) gives
    // a dwarf away too, so the screen, which holds the move played against that choice, finds
    // nothing to look deeper at.
    let s = another_process(&test).with_analysis_budget(Budget::STANDARD);
    let id = finished_match(&s, &GIVEN_AWAY).await;
    analysis(s.analysis().ask(place(1), Some(id)).await);
    while s.analysis().analyse_some(10).await.unwrap() > 0 {}
    let done = report(analysis(s.analysis().ask(place(1), Some(id)).await));
    let text = done.text.to_plain(test.now());
    assert!(
        text.contains("Battle 1 (alice dwarfs, bob trolls)"),
        "{text}"
    );
    assert!(text.contains("alice (dwarfs): 2 moves"), "{text}");
    assert!(text.contains("bob (trolls): 2 moves"), "{text}");
    // The first move loses a dwarf for nothing: it is alice's listed mistake, with a better
    // move named.
    let line = text
        .lines()
        .find(|l| l.contains("ply 1 dA7-F7") || l.contains("ply 1 `dA7-F7`"))
        .unwrap_or_else(|| panic!("the blunder is not listed: {text}"));
    assert!(line.contains("better"), "{line}");
    // It lost at least the stated margin, a point, in the game's points.
    let lost: f64 =
        number_after(line, "lost ").unwrap_or_else(|| panic!("no loss in points: {line}"));
    assert!(lost >= 1.0, "{line}");
    assert!(
        line.contains(" points") || line.contains(" point;"),
        "{line}"
    );
    assert!(text.contains("Score every 10 plies"), "{text}");
    let graph = image::load_from_memory(&done.attachments[0].bytes)
        .expect("a PNG")
        .to_rgb8();
    assert_eq!(graph.width(), thudbot::render::graph::WIDTH);
}

/// The most pieces one move from `position` captures.
fn most_taken(position: &thudbot::game::Position) -> usize {
    position
        .legal_moves()
        .iter()
        .map(|mv| mv.captured().len())
        .max()
        .unwrap_or(0)
}

/// alice's dwarfs walk into the trolls move after move and bob's trolls take what they can:
/// `pairs` of such moves, each chosen by the rules alone (the dwarf move after which a troll
/// move takes most, the first of equals; the troll move that takes most).
fn dwarfs_given_away(pairs: usize) -> Vec<String> {
    let mut battle = thudbot::game::Battle::new(thudbot::game::Variant::Classic);
    for _ in 0..pairs {
        let position = battle.position().clone();
        let moves = position.legal_moves();
        let most = moves
            .iter()
            .map(|mv| most_taken(&position.after(mv)))
            .max()
            .unwrap_or(0);
        assert!(most > 0, "no dwarf move a troll can punish");
        let gift = moves
            .into_iter()
            .find(|mv| most_taken(&position.after(mv)) == most)
            .expect("a dwarf move a troll can punish");
        battle.play_move(gift).expect("legal");
        let position = battle.position().clone();
        let take = position
            .legal_moves()
            .into_iter()
            .max_by_key(|mv| mv.captured().len())
            .expect("a troll move");
        battle.play_move(take).expect("legal");
    }
    battle.moves().iter().map(|mv| mv.to_string()).collect()
}

#[tokio::test]
async fn a_battle_of_blunders_gets_the_deeper_look_at_each_players_costliest_moves_only() {
    let test = service().await;
    let s = another_process(&test).with_analysis_budget(Budget { nodes: 20_000 });
    // Fourteen gifts: not every one loses a point by the dwarfs' own eye (a troll that takes
    // two may stand where a line hurls it back), and more than four must.
    let moves = dwarfs_given_away(14);
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    let id = finished_match(&s, &moves).await;
    let at = place(1);
    analysis(s.analysis().ask(at, Some(id)).await);
    // Every position first: 29 of them, then the deeper looks, the report waiting for them.
    assert_eq!(s.analysis().analyse_some(29).await.unwrap(), 29);
    let AnalysisAnswer::UnderWay { status, reply, .. } =
        analysis(s.analysis().ask(at, Some(id)).await)
    else {
        panic!("the deeper looks are still to come")
    };
    assert_eq!((status.judged, status.positions), (29, 29));
    assert!(
        reply
            .text
            .contains("all 29 positions judged; a deeper look"),
        "{}",
        reply.text
    );
    let suspected = |stored: &[thudbot::store::StoredJudgement], checked: bool| {
        stored
            .iter()
            .filter(|j| j.ply % 2 == 0 && j.suspected.is_some() && j.checked == checked)
            .count()
    };
    let stored = test.store().judgements(id).await.unwrap();
    let dwarfs_suspected = suspected(&stored, false);
    assert!(
        dwarfs_suspected > CHECKED,
        "only {dwarfs_suspected} of the dwarfs' gifts suspected: {stored:?}"
    );
    // The checks: four of the dwarfs' that the screen keeps (and the trolls' suspects, if
    // any), then done.
    while s.analysis().analyse_some(3).await.unwrap() > 0 {}
    let stored = test.store().judgements(id).await.unwrap();
    assert_eq!(suspected(&stored, true), CHECKED);
    // A suspect the screen cleared is none any more, and the next costliest took its place.
    let cleared = stored
        .iter()
        .filter(|j| j.ply % 2 == 0 && j.checked && j.suspected.is_none())
        .count();
    assert_eq!(
        suspected(&stored, false),
        dwarfs_suspected - CHECKED - cleared
    );
    let done = report(analysis(s.analysis().ask(at, Some(id)).await));
    let text = done.text.to_plain(test.now());
    let alice = text
        .lines()
        .find(|l| l.contains("alice (dwarfs)"))
        .unwrap_or_else(|| panic!("no line for alice: {text}"));
    let unchecked = dwarfs_suspected - CHECKED - cleared;
    assert!(
        alice.contains(&format!(
            "in the 4 costliest moves a deeper look checked, and {unchecked} more move{} that lost at least 1 point at the first look (not checked deeper).",
            if unchecked == 1 { "" } else { "s" }
        )),
        "{alice}"
    );
    // The listed mistakes are among the moves checked.
    let checked_plies: Vec<u32> = stored
        .iter()
        .filter(|j| j.checked)
        .map(|j| j.ply + 1)
        .collect();
    for line in text.lines().filter(|l| l.contains("· ply ")) {
        let ply: u32 = number_after(line, "ply ").unwrap_or_else(|| panic!("no ply: {line}"));
        assert!(checked_plies.contains(&ply), "{line} of {checked_plies:?}");
    }
}

/// The number written after the first `word` in `line`.
fn number_after<T: std::str::FromStr>(line: &str, word: &str) -> Option<T> {
    line.split(word).nth(1)?.split(' ').next()?.parse().ok()
}

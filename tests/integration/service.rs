//! The match service against a real PostgreSQL: whole matches played through service calls,
//! every refusal, concurrency, clocks and ladders.

use crate::common::{alice, assert_event, bob, carol, match_winner, place, service, GUILD};
use thudbot::game::{BattleEnd, GameRecord, Move, Points, Position, Side};
use thudbot::service::{
    Action, Actor, ChallengeOptions, Delivery, Event, LadderScope, MoveRequest, Occasion, Place,
    Refusal, Reply, Service, ServiceError, Span, Verb,
};
use thudbot::store::{Finish, MatchState, Scope, SideChoice, StoredMatch};

// The shared helpers, also used by `service_days` and `service_variants` through here.
pub(crate) use crate::common::{ok, refusal};

pub(crate) fn options(side: SideChoice) -> ChallengeOptions {
    ChallengeOptions {
        side: Some(side),
        ..ChallengeOptions::default()
    }
}

/// The action of the button labelled `label`.
pub(crate) fn button(reply: &Reply, label: &str) -> Action {
    reply
        .buttons
        .iter()
        .find(|b| b.label == label)
        .unwrap_or_else(|| panic!("no {label} button in {:?}", reply.buttons))
        .action
}

/// Runs the clock and takes what it queued from the outbox, as a delivery worker would.
pub(crate) async fn tick(service: &Service) -> Vec<Delivery> {
    service.tick().await.unwrap();
    crate::common::deliver_all(service).await
}

pub(crate) async fn current(service: &Service, at: Place) -> StoredMatch {
    service
        .store()
        .active_match_in(at.channel)
        .await
        .unwrap()
        .expect("a match in play")
}

pub(crate) async fn position(service: &Service, at: Place) -> Position {
    current(service, at)
        .await
        .game
        .current_battle()
        .position()
        .clone()
}

/// `who` plays the move written `notation`.
pub(crate) async fn play(
    service: &Service,
    at: Place,
    who: &Actor,
    notation: &str,
) -> Result<Reply, ServiceError> {
    service
        .matches()
        .play(at, who, &MoveRequest::Notation(notation.to_string()))
        .await
}

/// Starts a classic match in which alice commands the dwarfs in battle 1.
pub(crate) async fn start_match(service: &Service, at: Place) -> Reply {
    let challenge = ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &options(SideChoice::Dwarfs))
        .await);
    let Action::Accept(id) = button(&challenge, "Accept") else {
        panic!("the Accept button accepts")
    };
    ok(service.matches().accept(at, &bob(), Some(id), None).await)
}

/// The player to move.
pub(crate) async fn to_move(service: &Service, at: Place) -> Actor {
    let m = current(service, at).await;
    match m.player_to_move() {
        Some(id) if id == alice().id => alice(),
        Some(id) if id == bob().id => bob(),
        other => panic!("unexpected player to move {other:?}"),
    }
}

/// Plays the first legal move for which `choose` holds, as the player to move would.
pub(crate) async fn play_where(
    service: &Service,
    at: Place,
    choose: impl Fn(&Position, &Move) -> bool,
) -> Reply {
    let pos = position(service, at).await;
    let mv = pos
        .legal_moves()
        .into_iter()
        .find(|m| choose(&pos, m))
        .unwrap_or_else(|| panic!("no move fits in {pos}"));
    let who = to_move(service, at).await;
    ok(service
        .matches()
        .play(at, &who, &MoveRequest::Notation(mv.to_string()))
        .await)
}

fn next_to_troll(pos: &Position, m: &Move) -> bool {
    pos.trolls().iter().any(|t| t.is_adjacent(m.to()))
}

/// A move that captures nothing and gives nothing away: a dwarf not landing next to a troll,
/// a troll capturing nothing.
fn quiet(pos: &Position, m: &Move) -> bool {
    m.captured().is_empty() && (m.piece() != thudbot::game::Piece::Dwarf || !next_to_troll(pos, m))
}

/// Plays until the battle has exactly `dwarfs` dwarfs and `trolls` trolls, capturing one
/// piece at a time.
async fn reach(service: &Service, at: Place, dwarfs: usize, trolls: usize) {
    for _ in 0..60 {
        let pos = position(service, at).await;
        if pos.dwarfs().len() == dwarfs && pos.trolls().len() == trolls {
            return;
        }
        let want_troll = pos.trolls().len() > trolls;
        let want_dwarf = pos.dwarfs().len() > dwarfs;
        match pos.side_to_move() {
            Side::Dwarfs => {
                let hurl = pos
                    .legal_moves()
                    .iter()
                    .any(|m| matches!(m, Move::Hurl { .. }));
                if want_troll && hurl {
                    play_where(service, at, |_, m| matches!(m, Move::Hurl { .. })).await;
                } else if want_troll {
                    play_where(service, at, |p, m| {
                        m.captured().is_empty() && next_to_troll(p, m)
                    })
                    .await;
                } else {
                    play_where(service, at, quiet).await;
                }
            }
            Side::Trolls => {
                if want_dwarf && pos.legal_moves().iter().any(|m| m.captured().len() == 1) {
                    play_where(service, at, |_, m| m.captured().len() == 1).await;
                } else {
                    play_where(service, at, |_, m| m.captured().is_empty()).await;
                }
            }
        }
    }
    panic!("could not reach {dwarfs} dwarfs and {trolls} trolls");
}

#[tokio::test]
async fn a_full_match_scores_as_the_rules_example_and_moves_the_ratings() {
    let service = service().await;
    let at = place(1);
    let started = start_match(&service, at).await;
    assert_event!(
        started.events,
        Event::MatchBegan { dwarfs, trolls, rated: true, occasion: Occasion::Challenge, .. }
            if *dwarfs == alice().id && *trolls == bob().id
    );
    assert_event!(
        started.events,
        Event::TurnStarted { player, side: Side::Dwarfs, .. } if *player == alice().id
    );
    assert_eq!(started.mentions, vec![alice().id]);
    assert_eq!(started.attachments.len(), 1);
    assert!(started.attachments[0].bytes.starts_with(b"\x89PNG"));

    // The wrong player, an illegal move and a spectator change nothing.
    assert_eq!(
        refusal(play(&service, at, &bob(), "G7-G6").await),
        Refusal::NotYourTurn {
            to_move: "alice".into()
        }
    );
    let illegal = refusal(play(&service, at, &alice(), "F1-G3").await);
    assert!(
        matches!(&illegal, Refusal::IllegalMove { why, .. } if why.contains("not a straight line")),
        "{illegal:?}"
    );
    let theirs = refusal(play(&service, at, &alice(), "G7-G6").await);
    assert!(
        matches!(&theirs, Refusal::IllegalMove { why, .. } if why.contains("not your piece")),
        "{theirs:?}"
    );
    assert_eq!(
        refusal(play(&service, at, &carol(), "F1-F5").await),
        Refusal::NotAPlayer
    );
    assert_eq!(
        current(&service, at)
            .await
            .game
            .current_battle()
            .moves()
            .len(),
        0
    );

    // A move by verb, answered with the picture and a mention of the next player only.
    let reply = ok(service
        .matches()
        .play(
            at,
            &alice(),
            &MoveRequest::Verb {
                verb: Verb::Move,
                from: "f1".into(),
                to: "F 5".into(),
                captures: String::new(),
            },
        )
        .await);
    assert!(
        reply.text.spans().contains(&Span::Code("dF1-F5".into())),
        "{}",
        reply.text
    );
    assert_event!(
        reply.events,
        Event::Moved { ply: 1, side: Side::Dwarfs, notation, mover, level: None, .. }
            if notation == "dF1-F5" && *mover == alice().id
    );
    assert_eq!(reply.mentions, vec![bob().id]);
    assert!(!reply.private);

    // A proposal lapses when the other player moves instead.
    ok(service.matches().propose_end(at, &alice()).await);
    let lapsed = play_where(&service, at, |_, m| m.captured().is_empty()).await;
    assert_event!(
        lapsed.events,
        Event::ProposalLapsed { proposer, mover } if *proposer == alice().id && *mover == bob().id
    );
    assert!(current(&service, at).await.proposal.is_none());

    // Battle 1: alice's dwarfs end 31 against 7 trolls (28): alice wins it by 3.
    reach(&service, at, 31, 7).await;
    let proposal = ok(service.matches().propose_end(at, &bob()).await);
    assert_eq!(proposal.mentions, vec![alice().id]);
    assert_eq!(
        refusal(service.matches().answer_end(at, &bob(), true, None).await),
        Refusal::AnswerOwnProposal
    );
    let Action::AgreeEnd {
        match_id,
        proposal: p,
    } = button(&proposal, "Agree")
    else {
        panic!("the Agree button agrees")
    };
    let ended = ok(service
        .matches()
        .answer_end(at, &alice(), true, Some((match_id, p)))
        .await);
    assert_event!(
        ended.events,
        Event::EndAgreed { battle: 1, by, with, .. } if *by == alice().id && *with == bob().id
    );
    assert_event!(
        ended.events,
        Event::BattleOver { battle: 1, winner, result, .. }
            if *winner == Some(alice().id)
                && result.winner == Some(Side::Dwarfs)
                && result.margin == Points::whole(3)
                && result.end == BattleEnd::Agreement
    );
    assert_event!(
        ended.events,
        Event::BattleBegan { battle: 2, dwarfs, trolls }
            if *dwarfs == bob().id && *trolls == alice().id
    );
    // How a battle's end is said, once.
    assert!(ended.text.contains("wins battle 1 by 3"), "{}", ended.text);
    assert!(ended.spend_buttons);

    // Battle 2 with the roles swapped: bob commands the dwarfs and moves first.
    let m = current(&service, at).await;
    assert_eq!(m.game.battle_number(), 2);
    assert_eq!(m.commander(Side::Dwarfs), bob().id);
    assert_eq!(m.player_to_move(), Some(bob().id));
    // The stale Agree button of battle 1 is refused.
    assert_eq!(
        refusal(
            service
                .matches()
                .answer_end(at, &alice(), true, Some((match_id, p)))
                .await
        ),
        Refusal::ProposalNoLongerOpen
    );

    // Battle 2: bob's dwarfs end 31 against 6 trolls (24): bob wins it by 7, the match by 4.
    reach(&service, at, 31, 6).await;
    let proposal = ok(service.matches().propose_end(at, &alice()).await);
    let Action::AgreeEnd {
        match_id,
        proposal: p,
    } = button(&proposal, "Agree")
    else {
        panic!()
    };
    let over = ok(service
        .matches()
        .answer_end(at, &bob(), true, Some((match_id, p)))
        .await);
    assert_event!(
        over.events,
        Event::BattleOver { battle: 2, winner, result, .. }
            if *winner == Some(bob().id) && result.margin == Points::whole(7)
    );
    assert_event!(
        over.events,
        Event::MatchOver { players, result, .. }
            if match_winner(players, result) == Some(bob().id)
                && result.margin == Points::whole(4)
                && result.forfeited_by.is_none()
    );
    assert_event!(
        over.events,
        Event::Rated { changes }
            if changes.len() == 2
                && changes.iter().all(|c| (c.player == bob().id) == (c.after.rating > c.before.rating))
    );
    // How the end of a match is said, once.
    assert!(
        over.text.contains("bob wins the match by 4"),
        "{}",
        over.text
    );

    let finished = service.store().load_match(match_id).await.unwrap().unwrap();
    assert_eq!(finished.state, MatchState::Finished);
    assert_eq!(finished.finish, Some(Finish::Completed));
    assert_eq!(finished.winner, Some(bob().id));
    assert!(service
        .store()
        .active_match_in(at.channel)
        .await
        .unwrap()
        .is_none());

    let (bob_rating, bob_rank) = service
        .store()
        .standing(Scope::Guild(GUILD), bob().id)
        .await
        .unwrap()
        .unwrap();
    let (alice_rating, _) = service
        .store()
        .standing(Scope::Guild(GUILD), alice().id)
        .await
        .unwrap()
        .unwrap();
    assert!(bob_rating.rating > 1500.0 && alice_rating.rating < 1500.0);
    assert_eq!(bob_rank, 1);
    assert_eq!((bob_rating.wins, alice_rating.losses), (1, 1));
    let (global, _) = service
        .store()
        .standing(Scope::Global, bob().id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(global.games, 1);

    let board = ok(service
        .ladder()
        .leaderboard(at, LadderScope::Server, 1)
        .await);
    let bob_at = board.text.find("bob").unwrap();
    let alice_at = board.text.find("alice").unwrap();
    assert!(bob_at < alice_at, "{}", board.text);

    // The record replays through the engine to the same game.
    let record = ok(service.records().record(at, Some(match_id)).await);
    let text = String::from_utf8(record.attachments[0].bytes.clone()).unwrap();
    let parsed: GameRecord = text.parse().unwrap();
    assert_eq!(parsed.game, finished.game);
    assert_eq!(parsed.tag("First"), Some("alice"));

    let history = ok(service.ladder().history(at, &alice()).await);
    assert!(history.text.contains("lost 3–7"), "{}", history.text);
    assert!(!history.text.contains("unrated"), "{}", history.text);
    // The match's number and its channel's are told apart: the channel is where it was played.
    assert!(
        history.text.contains(&format!("#{match_id} vs "))
            && history.text.contains(&format!("played in #{}", at.channel)),
        "{}",
        history.text
    );
}

#[tokio::test]
async fn battles_end_by_themselves_when_the_side_to_move_has_no_move_and_equal_points_draw() {
    let service = service().await;
    let at = place(2);
    start_match(&service, at).await;
    let trolls_first = |pos: &Position| {
        let trolls = pos.trolls();
        move |m: &Move| {
            let dist = |s: thudbot::game::Square| {
                trolls
                    .iter()
                    .map(|t| {
                        (t.column() as i32 - s.column() as i32)
                            .abs()
                            .max((t.row() as i32 - s.row() as i32).abs())
                    })
                    .min()
                    .unwrap_or(99)
            };
            (dist(m.to()), m.from(), m.to())
        }
    };
    let mut last = Reply::default();
    for _ in 0..400 {
        let Some(m) = service.store().active_match_in(at.channel).await.unwrap() else {
            break;
        };
        let pos = m.game.current_battle().position().clone();
        let moves = pos.legal_moves();
        // Trolls take all they can; dwarfs walk towards the trolls without hurling.
        let mv = match pos.side_to_move() {
            Side::Trolls => *moves
                .iter()
                .max_by_key(|m| (m.captured().len(), std::cmp::Reverse(m.to())))
                .unwrap(),
            Side::Dwarfs => *moves
                .iter()
                .filter(|m| m.captured().is_empty())
                .min_by_key(|m| trolls_first(&pos)(m))
                .unwrap_or(&moves[0]),
        };
        let who = to_move(&service, at).await;
        last = ok(service
            .matches()
            .play(at, &who, &MoveRequest::Notation(mv.to_string()))
            .await);
    }
    assert_event!(
        last.events,
        Event::BattleOver { battle: 2, result, .. }
            if result.end == BattleEnd::NoLegalMove { side: Side::Dwarfs }
    );
    assert_event!(
        last.events,
        Event::MatchOver { players, result, .. }
            if match_winner(players, result).is_none() && result.totals[0] == result.totals[1]
    );
    let id = service
        .store()
        .latest_match_in(at.channel)
        .await
        .unwrap()
        .unwrap();
    let m = service.store().load_match(id).await.unwrap().unwrap();
    let result = m.game.result().unwrap();
    assert_eq!(result.winner, None);
    assert_eq!(result.totals[0], result.totals[1]);
    let (r, _) = service
        .store()
        .standing(Scope::Guild(GUILD), alice().id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((r.games, r.draws), (1, 1));
}

#[tokio::test]
async fn twenty_simultaneous_submissions_of_one_move_land_once() {
    let service = service().await;
    let service = std::sync::Arc::new(service);
    let service = &service;
    let at = place(6);
    start_match(service, at).await;
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let s = std::sync::Arc::clone(service);
        tasks.push(tokio::spawn(async move {
            s.matches()
                .play(at, &alice(), &MoveRequest::Notation("dF1-F5".into()))
                .await
        }));
    }
    let mut landed = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => landed += 1,
            Err(ServiceError::Refused(r)) => {
                assert!(matches!(r, Refusal::NotYourTurn { .. }), "{r:?}")
            }
            Err(e) => panic!("{e:?}"),
        }
    }
    assert_eq!(landed, 1);
    let m = current(service, at).await;
    assert_eq!(m.game.current_battle().moves().len(), 1);
    assert_eq!(m.current_battle().stamps.len(), 1);
}

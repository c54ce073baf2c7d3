//! What players read is true and exact: the findings of trying the bot as a new player would,
//! each pinned by a test that asserts on the refusal or the stored outcome, and on wording
//! only where the wording is the point.

use crate::common::{alice, assert_event, bob, carol, deliver_all, ok, place, refusal, service};
use crate::service::{button, current, options, play, start_match};
use crate::strategies::{variant_strategy, written_position};
use chrono::Duration;
use proptest::prelude::*;
use thudbot::computer::{assess, progress_within_two_plies, STALLED_PLIES};
use thudbot::game::{Battle, Move, Position, Side, Variant};
use thudbot::service::{Action, Actor, ChallengeOptions, Event, Refusal};
use thudbot::store::{Finish, MatchState, Scope, SideChoice, UserId};

#[tokio::test]
async fn a_match_whose_late_player_never_moved_is_aborted_unrated_on_claim() {
    let service = service().await;
    // alice commands the dwarfs and never moves.
    let at = place(3);
    start_match(&service, at).await;
    service.clock.advance(Duration::days(4));
    let deadline = current(&service, at).await.clock.unwrap().deadline;
    let said = ok(service.matches().claim(at, &bob()).await);
    let m = latest(&service, 3).await;
    assert_event!(
        said.events,
        Event::NeverPlayed { match_id, late, deadline: d }
            if *match_id == m.id && *late == alice().id && *d == Some(deadline)
    );
    // How a match nobody played is said, once.
    assert!(said.text.contains("is aborted"), "{}", said.text);
    assert_eq!(m.state, MatchState::Aborted);
    assert_eq!(m.winner, None);
    for player in [alice().id, bob().id] {
        assert!(
            service
                .store()
                .standing(Scope::Global, player)
                .await
                .unwrap()
                .is_none(),
            "nobody is rated"
        );
    }

    // bob, with the trolls, never answers alice's first move: aborted too.
    let at = place(4);
    start_match(&service, at).await;
    ok(play(&service, at, &alice(), "dF1-F5").await);
    service.clock.advance(Duration::days(4));
    ok(service.matches().claim(at, &alice()).await);
    let m = latest(&service, 4).await;
    assert_eq!(m.state, MatchState::Aborted);

    // Once both have moved, a missed deadline loses the match as before.
    let at = place(5);
    start_match(&service, at).await;
    ok(play(&service, at, &alice(), "dF1-F5").await);
    ok(play(&service, at, &bob(), "TG9-G10").await);
    service.clock.advance(Duration::days(4));
    ok(service.matches().claim(at, &bob()).await);
    let m = latest(&service, 5).await;
    assert_eq!(m.state, MatchState::Finished);
    assert_eq!(m.finish, Some(Finish::Timeout));
    assert_eq!(m.winner, Some(bob().id));
}

/// The latest match in channel `channel`, whatever its state.
async fn latest(service: &crate::common::TestService, channel: u64) -> thudbot::store::StoredMatch {
    let id = service
        .store()
        .latest_match_in(thudbot::store::ChannelId(channel))
        .await
        .unwrap()
        .expect("a match was played here");
    service.store().load_match(id).await.unwrap().unwrap()
}

#[tokio::test]
async fn the_channel_post_keeps_its_picture_whatever_the_movers_own_style() {
    let service = service().await;
    let at = place(3);
    ok(service
        .people()
        .settings(&alice(), Some("brief"), Some("high-contrast"), None)
        .await);
    start_match(&service, at).await;
    let said = ok(play(&service, at, &alice(), "dF1-F5").await);
    assert!(!said.private);
    assert_eq!(said.attachments.len(), 1, "the picture everyone sees");
    assert!(!said.text.has_block(), "no text board in its place");
    // The personal style still shapes what alice alone asks to see.
    let mine = ok(service.matches().board(at, &alice(), None).await);
    assert!(mine.attachments.is_empty());
    assert!(mine.text.has_block());
}

#[tokio::test]
async fn challenges_show_their_number_and_an_answer_without_one_asks_which() {
    let service = service().await;
    let at = place(3);
    let o = ChallengeOptions::default();
    let from_alice = ok(service.matches().challenge(at, &alice(), &bob(), &o).await);
    let from_carol = ok(service.matches().challenge(at, &carol(), &bob(), &o).await);
    let (Action::Accept(first), Action::Accept(second)) =
        (button(&from_alice, "Accept"), button(&from_carol, "Accept"))
    else {
        panic!("Accept buttons accept")
    };
    assert!(from_alice.text.contains(&format!("Challenge #{}", first.0)));
    assert!(from_carol
        .text
        .contains(&format!("Challenge #{}", second.0)));
    let open = vec![
        (first.0, "alice".to_string()),
        (second.0, "carol".to_string()),
    ];
    assert_eq!(
        refusal(service.matches().accept(at, &bob(), None, None).await),
        Refusal::WhichChallenge {
            command: "accept",
            open: open.clone()
        }
    );
    assert_eq!(
        refusal(service.matches().decline(at, &bob(), None).await),
        Refusal::WhichChallenge {
            command: "decline",
            open
        }
    );
    // Nothing was answered: both still wait, and naming one accepts that one.
    let pending = service
        .store()
        .pending_challenges(at.channel, bob().id)
        .await
        .unwrap();
    assert_eq!(pending.len(), 2);
    ok(service
        .matches()
        .accept(at, &bob(), Some(second), None)
        .await);
    assert!(current(&service, at).await.players.contains(&carol().id));
}

#[tokio::test]
async fn a_refused_accept_uses_up_no_match_number() {
    let service = service().await;
    let at = place(3);
    let o = options(SideChoice::Dwarfs);
    let from_alice = ok(service.matches().challenge(at, &alice(), &bob(), &o).await);
    let from_carol = ok(service.matches().challenge(at, &carol(), &bob(), &o).await);
    let Action::Accept(first) = button(&from_alice, "Accept") else {
        panic!()
    };
    let Action::Accept(second) = button(&from_carol, "Accept") else {
        panic!()
    };
    ok(service
        .matches()
        .accept(at, &bob(), Some(first), None)
        .await);
    let one = current(&service, at).await.id;
    assert_eq!(
        refusal(
            service
                .matches()
                .accept(at, &bob(), Some(second), None)
                .await
        ),
        Refusal::ChallengeChannelBusy
    );
    // Said in the very channel it speaks of.
    let said = Refusal::ChallengeChannelBusy.text().to_string();
    assert!(
        said.starts_with("This channel already has a match"),
        "{said}"
    );
    start_match(&service, place(4)).await;
    assert_eq!(current(&service, place(4)).await.id.0, one.0 + 1);
}

#[tokio::test]
async fn records_replays_and_histories_say_exactly_what_happened() {
    let service = service().await;
    let at = place(3);
    start_match(&service, at).await;
    ok(play(&service, at, &alice(), "dF1-F5").await);
    let record = ok(service.records().record(at, None).await);
    assert!(
        record.text.contains("(Classic Thud, 1 move)"),
        "{}",
        record.text
    );
    assert_eq!(
        refusal(
            service
                .records()
                .replay(at, None, Some(3), None, None)
                .await
        ),
        Refusal::NoSuchBattle(3)
    );
    assert_eq!(
        refusal(
            service
                .records()
                .replay(at, None, Some(0), None, None)
                .await
        ),
        Refusal::NoSuchBattle(0)
    );
    let id = current(&service, at).await.id;
    assert_eq!(
        refusal(
            service
                .records()
                .replay(at, None, Some(2), None, None)
                .await
        ),
        Refusal::NoBattleYet {
            match_id: id,
            battle: 2
        }
    );
    // A match lost on time has no score to show: "won 0–0 on time" would be false.
    ok(play(&service, at, &bob(), "TG9-G10").await);
    service.clock.advance(Duration::days(4));
    ok(service.matches().claim(at, &bob()).await);
    let history = ok(service.ladder().history(at, &bob()).await);
    assert!(history.text.contains("won on time"), "{}", history.text);
    assert!(!history.text.contains("0–0"), "{}", history.text);
}

#[tokio::test]
async fn the_computers_stats_are_its_record_by_level() {
    let service = service().await;
    let computer = Actor::with_kind(UserId(9), "thudbot", true);
    let said = ok(service.ladder().stats(place(3), &alice(), &computer).await);
    assert!(said.text.contains("has finished no match"), "{}", said.text);
    ok(service
        .matches()
        .challenge_computer(
            place(3),
            &alice(),
            &computer,
            Some(1),
            &options(SideChoice::Dwarfs),
            None,
        )
        .await);
    // A move first: resigning a match one never moved in aborts it, unrated.
    ok(service
        .matches()
        .play(
            place(3),
            &alice(),
            &thudbot::service::MoveRequest::Notation("dF1-F5".into()),
        )
        .await);
    ok(service.matches().resign(place(3), &alice(), None).await);
    let said = ok(service.ladder().stats(place(3), &alice(), &computer).await);
    assert!(
        said.text
            .contains("Level 1 (a beginner): 1 match · 1W 0D 0L"),
        "{}",
        said.text
    );
}

#[tokio::test]
async fn the_computer_names_its_level_and_side_once() {
    let service = service().await;
    let computer = Actor::with_kind(UserId(9), "thudbot", true);
    ok(service
        .matches()
        .challenge_computer(
            place(3),
            &alice(),
            &computer,
            Some(1),
            &options(SideChoice::Dwarfs),
            None,
        )
        .await);
    ok(play(&service, place(3), &alice(), "dF1-F5").await);
    assert_eq!(service.matches().play_computer_turns().await.unwrap(), 1);
    let notices = deliver_all(&service).await;
    let said = &notices.last().expect("the computer's move").reply;
    assert_event!(
        said.events,
        Event::Moved { mover, level: Some(1), side: Side::Trolls, .. } if *mover == computer.id
    );
    // Said as "thudbot (level 1, trolls) plays …": the level and the side, once.
    let words = said.text.to_string();
    assert!(words.contains("thudbot (level 1, trolls) plays"), "{words}");
}

/// Plays `plies` random moves, quiet ones (no capture, no Rock move) where there are any, so
/// that the battle stalls.
fn stall(battle: &mut Battle, plies: usize, seed: u64) {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    for _ in 0..plies {
        if battle.is_over() {
            return;
        }
        let moves = battle.position().legal_moves();
        let quiet: Vec<Move> = moves
            .iter()
            .filter(|m| m.captured().is_empty() && !matches!(m, Move::Rock { .. }))
            .copied()
            .collect();
        let pool = if quiet.is_empty() { &moves } else { &quiet };
        if pool.is_empty() {
            return;
        }
        battle
            .play_move(pool[rng.gen_range(0..pool.len())])
            .unwrap();
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// "Neither side can gain any more" is never said with a capture (or a Rock move) open to
    /// either side within two plies, in sparse random positions of all three variants, where
    /// the computer does propose, stalled by quiet moves.
    #[test]
    fn the_computer_never_proposes_an_end_with_a_capture_two_plies_away(
        variant in variant_strategy(),
        stone in 0usize..165,
        dwarfs in prop::collection::vec(0usize..165, 1..6),
        trolls in prop::collection::vec(0usize..165, 1..4),
        dwarfs_to_move in any::<bool>(),
        extra in 0usize..10,
        seed in any::<u64>(),
    ) {
        let fen = written_position(stone, &dwarfs, &trolls, dwarfs_to_move);
        let Ok(position) = Position::from_fen(&fen, variant) else {
            return Ok(());
        };
        let mut battle = Battle::from_position(position);
        stall(&mut battle, STALLED_PLIES + extra, seed);
        for side in [Side::Dwarfs, Side::Trolls] {
            if assess(&battle, side).propose_end {
                prop_assert!(
                    !progress_within_two_plies(battle.position()),
                    "a proposal with a capture two plies away: {}",
                    battle.position()
                );
            }
        }
    }
}

/// The property above is not empty: among such positions the computer proposes in some, and
/// in others a capture within two plies holds it back.
#[test]
fn the_proposal_check_reaches_both_kinds_of_position() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(23);
    let (mut proposals, mut held_back) = (0, 0);
    for round in 0..40 {
        let variant = Variant::ALL[round % Variant::ALL.len()];
        let dwarfs: Vec<usize> = (0..rng.gen_range(1..6))
            .map(|_| rng.gen_range(0..165))
            .collect();
        let trolls: Vec<usize> = (0..rng.gen_range(1..4))
            .map(|_| rng.gen_range(0..165))
            .collect();
        let fen = written_position(rng.gen_range(0..165), &dwarfs, &trolls, rng.gen());
        let Ok(position) = Position::from_fen(&fen, variant) else {
            continue;
        };
        let mut battle = Battle::from_position(position);
        stall(&mut battle, STALLED_PLIES, rng.gen());
        if battle.is_over() {
            continue;
        }
        if assess(&battle, Side::Dwarfs).propose_end {
            proposals += 1;
        } else if progress_within_two_plies(battle.position()) {
            held_back += 1;
        }
    }
    assert!(
        proposals > 0 && held_back > 0,
        "{proposals} proposals, {held_back} held back"
    );
}

#[test]
fn the_koom_valley_rules_say_how_to_move_the_rock_and_show_no_hurl() {
    let rules = thudbot::service::rules_text(Variant::KoomValley).to_string();
    assert!(
        rules.contains("To move the Rock, name its square: /thud move from:H8 to:H9"),
        "{rules}"
    );
    assert!(rules.contains("RH8-H9"), "{rules}");
    assert!(!rules.contains("hurl "), "{rules}");
    assert!(!rules.contains("dE6-H9xH9"), "{rules}");
    // The classic rules still show the hurl.
    let classic = thudbot::service::rules_text(Variant::Classic).to_string();
    assert!(classic.contains("dE6-H9xH9"), "{classic}");
}

#[tokio::test]
async fn the_rock_moves_as_the_rules_text_says() {
    let service = service().await;
    let at = place(3);
    let o = ChallengeOptions {
        variant: Some(Variant::KoomValley),
        ..options(SideChoice::Dwarfs)
    };
    let asked = ok(service.matches().challenge(at, &alice(), &bob(), &o).await);
    let Action::Accept(id) = button(&asked, "Accept") else {
        panic!()
    };
    ok(service.matches().accept(at, &bob(), Some(id), None).await);
    let request = thudbot::service::MoveRequest::Verb {
        verb: thudbot::service::Verb::Move,
        from: "H8".into(),
        to: "G9".into(),
        captures: String::new(),
    };
    ok(service.matches().play(at, &alice(), &request).await);
    let m = current(&service, at).await;
    let last = *m.game.current_battle().last_move().unwrap();
    assert!(matches!(last, Move::Rock { .. }), "{last}");
    assert_eq!(last.to_string(), "RH8-G9");
}

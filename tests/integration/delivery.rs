//! Delivery against a real PostgreSQL: the clock's work claimed exactly once by several bot
//! processes, with moves racing it, and the outbox that carries every notice to its channel.

use std::collections::{HashMap, HashSet};

use crate::common::{alice, bob, deliver_all, place, refusal, service, TestService};
use chrono::{DateTime, Duration, Utc};
use thudbot::service::{
    Action, ChallengeOptions, Clock, DeliveryFailure, Event, MoveRequest, Notice, Place, Refusal,
    Reply, Service, ServiceConfig, ServiceError,
};
use thudbot::store::{MatchId, NoticeState, Recipient, Store, UserId};

fn ok(result: Result<Reply, ServiceError>) -> Reply {
    match result {
        Ok(reply) => reply,
        Err(e) => panic!("expected success, got {e:?}"),
    }
}

/// A second bot process on the same database: its own pool and service, the same clock.
async fn another_process(first: &TestService, config: ServiceConfig) -> Service {
    let pool = sqlx::postgres::PgPoolOptions::new()
        .max_connections(5)
        .connect_with(first.db.connect_options())
        .await
        .expect("a second pool");
    Service::new(
        Store::new(pool),
        crate::common::renderer(),
        first.clock.clone(),
        config,
    )
}

/// Starts a classic match in `at`, alice commanding the dwarfs, 3 days a move.
async fn start_match(service: &Service, at: Place) -> MatchId {
    let options = ChallengeOptions {
        side: Some(thudbot::store::SideChoice::Dwarfs),
        ..ChallengeOptions::default()
    };
    let c = ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &options)
        .await);
    let Some(Action::Accept(id)) = c.buttons.first().map(|b| b.action) else {
        panic!("no Accept button")
    };
    ok(service.matches().accept(at, &bob(), Some(id), None).await);
    service
        .store()
        .latest_match_in(at.channel)
        .await
        .unwrap()
        .unwrap()
}

/// Plays the first legal move of the match in `at`, by whoever is to move.
async fn play_any_move(service: &Service, at: Place) {
    let m = service
        .store()
        .active_match_in(at.channel)
        .await
        .unwrap()
        .unwrap();
    let mover = m.player(m.game.seat_to_move().unwrap());
    let actor = if mover == alice().id { alice() } else { bob() };
    let mv = m.game.current_battle().position().legal_moves()[0];
    ok(service
        .matches()
        .play(at, &actor, &MoveRequest::Notation(mv.to_string()))
        .await);
}

/// Every reminder queued so far: (match, player reminded, turn it belongs to).
async fn reminders(service: &Service) -> Vec<(MatchId, UserId, DateTime<Utc>)> {
    let mut out = Vec::new();
    for n in service.store().all_notices().await.unwrap() {
        let notice: Notice = serde_json::from_value(n.body).expect("a notice of events");
        for event in notice.events {
            if let Event::ReminderDue {
                player,
                turn_started_at,
                ..
            } = event
            {
                out.push((n.match_id.unwrap(), player, turn_started_at));
            }
        }
    }
    out
}

#[tokio::test]
async fn three_processes_claim_each_reminder_once_for_the_player_to_move_with_moves_racing() {
    // Enough matches that the three processes' claims and the moves overlap in every round
    // (200 matches and 6 rounds took a minute and a half of the suite and found nothing more).
    const MATCHES: u64 = 60;
    const ROUNDS: usize = 4;
    let first = service().await;
    let second = another_process(&first, ServiceConfig::default()).await;
    let third = another_process(&first, ServiceConfig::default()).await;
    let clock = first.clock.clone();
    let places: Vec<Place> = (0..MATCHES).map(|i| place(1000 + i)).collect();
    let mut ids = Vec::new();
    for &at in &places {
        ids.push(start_match(&first, at).await);
    }
    // Who was to move in each turn, by match and the turn's start.
    let mut turns: HashMap<(MatchId, DateTime<Utc>), UserId> = HashMap::new();
    let record_turns = |turns: &mut HashMap<_, _>, ms: Vec<thudbot::store::StoredMatch>| {
        for m in ms {
            let c = m.clock.unwrap();
            turns.insert((m.id, c.turn_started_at), c.player);
        }
    };
    let load_all = || async {
        let mut ms = Vec::new();
        for &id in &ids {
            ms.push(first.store().load_match(id).await.unwrap().unwrap());
        }
        ms
    };
    record_turns(&mut turns, load_all().await);

    for round in 0..ROUNDS {
        // Every turn's reminder is due. Three processes tick while every match gets a move.
        clock.advance(Duration::days(3) - Duration::hours(1));
        let ticks = async {
            let (a, b, c) = tokio::join!(first.tick(), second.tick(), third.tick());
            a.unwrap().reminders + b.unwrap().reminders + c.unwrap().reminders
        };
        let moves = async {
            for (i, &at) in places.iter().enumerate() {
                // Half the matches move while the clock runs, in an order that varies.
                if (i + round) % 2 == 0 {
                    play_any_move(&first, at).await;
                }
            }
        };
        let (claimed, ()) = tokio::join!(ticks, moves);
        record_turns(&mut turns, load_all().await);
        // A reminder that lost the race to a move is claimed for the turn that ended; the
        // rest are claimed for their own turn. Either way no turn is claimed twice, and every
        // turn still in play that was due has been reminded.
        let all = reminders(&first).await;
        let per_turn: HashSet<(MatchId, DateTime<Utc>)> =
            all.iter().map(|&(m, _, t)| (m, t)).collect();
        assert_eq!(
            per_turn.len(),
            all.len(),
            "round {round}: a turn reminded twice"
        );
        for &(m, player, t) in &all {
            assert_eq!(
                turns.get(&(m, t)),
                Some(&player),
                "round {round}: match {m} reminded the wrong player"
            );
        }
        let claimed_total: usize = all.len();
        assert!(claimed <= claimed_total);
        // The turns that did not move this round were due and must each have a reminder.
        for m in load_all().await {
            let c = m.clock.unwrap();
            if c.turn_started_at < clock.now() {
                assert!(
                    per_turn.contains(&(m.id, c.turn_started_at)),
                    "round {round}: match {} was due and not reminded",
                    m.id
                );
            }
        }
        // The delivery worker drops reminders of turns played since, and sends the rest.
        let sent = deliver_all(&first).await;
        for d in &sent {
            let m = first.store().load_match(d.match_id.unwrap()).await.unwrap();
            let to_move = m.unwrap().clock.unwrap().player;
            assert_eq!(
                d.reply.mentions,
                vec![to_move],
                "a reminder sent to a player not to move"
            );
        }
        // Every match moves once more so the next round starts with fresh turns.
        for (i, &at) in places.iter().enumerate() {
            if (i + round) % 2 == 1 {
                play_any_move(&first, at).await;
            }
        }
        record_turns(&mut turns, load_all().await);
    }
}

#[tokio::test]
async fn a_failed_post_is_tried_again_with_its_nonce_and_a_refused_one_pauses_the_clock() {
    let service = crate::common::service_with(ServiceConfig {
        auto_forfeit_after: Some(Duration::hours(12)),
        ..ServiceConfig::default()
    })
    .await;
    let clock = service.clock.clone();
    let at = place(1);
    let id = start_match(&service, at).await;
    clock.advance(Duration::days(3) - Duration::hours(1));
    assert_eq!(service.tick().await.unwrap().reminders, 1);

    // A 5xx: the notice waits out its backoff, then comes back with the same nonce.
    let first = service.outbox().claim_deliveries(10).await.unwrap();
    assert_eq!(first.len(), 1);
    let transient = DeliveryFailure::Transient {
        reason: "Discord answered 502".into(),
        retry_after: None,
    };
    service
        .channels()
        .delivery_failed(&first[0], &transient)
        .await
        .unwrap();
    assert!(service
        .outbox()
        .claim_deliveries(10)
        .await
        .unwrap()
        .is_empty());
    clock.advance(Duration::seconds(3));
    let again = service.outbox().claim_deliveries(10).await.unwrap();
    assert_eq!(again.len(), 1);
    assert_eq!(
        (again[0].id, &again[0].nonce),
        (first[0].id, &first[0].nonce)
    );
    assert_eq!(again[0].attempt, 2);

    // Missing Permissions: undeliverable with the reason, and the clock stands still.
    let refused = DeliveryFailure::Permanent {
        reason: "the bot lacks a permission it needs there (Discord error 50013)".into(),
    };
    service
        .channels()
        .delivery_failed(&again[0], &refused)
        .await
        .unwrap();
    let notices = service
        .store()
        .notices_to(Recipient::Channel(at.channel))
        .await
        .unwrap();
    assert_eq!(notices[0].state, NoticeState::Undeliverable);
    assert!(notices[0].failure.as_deref().unwrap().contains("50013"));
    clock.advance(Duration::days(5));
    let report = service.tick().await.unwrap();
    assert_eq!(
        report.forfeits, 0,
        "no forfeit on a clock the players could not hear"
    );
    claim_is_paused(&service, at, id).await;

    // Both players see it in /thud games from another server, and alice resumes it there.
    let elsewhere = Place {
        guild: thudbot::store::GuildId(78),
        channel: thudbot::store::ChannelId(7700),
    };
    let games = ok(service.matches().my_games(elsewhere, &bob(), false).await);
    assert!(games.private);
    assert!(games.text.contains("cannot reach"), "{}", games.text);
    assert!(games.text.contains("50013"), "{}", games.text);
    let resume = games
        .buttons
        .iter()
        .find(|b| b.action == Action::Resume(id))
        .expect("a Resume button");
    assert!(games
        .buttons
        .iter()
        .any(|b| b.action == Action::AbortUnreachable(id)));
    assert_eq!(resume.label, format!("Resume #{id} here"));
    let resumed = ok(service.matches().resume(elsewhere, &alice(), id).await);
    assert!(resumed.text.contains("resumes match"), "{}", resumed.text);
    assert_eq!(resumed.mentions, vec![alice().id]);
    let m = service.store().load_match(id).await.unwrap().unwrap();
    assert_eq!(m.channel, elsewhere.channel);
    assert_eq!(m.trouble, None);
    let c = m.clock.unwrap();
    assert_eq!(c.paused_at, None);
    // The deadline moved on by the five days it stood still, so alice still has the hour she
    // had (less the three seconds of the retry) when it stopped, and the reminder that never
    // reached her is sent again.
    assert_eq!(
        c.deadline,
        clock.now() + Duration::hours(1) - Duration::seconds(3)
    );
    assert_eq!(service.tick().await.unwrap().reminders, 1);
    let sent = deliver_all(&service).await;
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].to, Recipient::Channel(elsewhere.channel));
    assert_eq!(sent[0].reply.mentions, vec![alice().id]);

    // A notice left behind in the old channel fails for good there: the match, now played
    // elsewhere, is not paused by it.
    let leftover = Reply::public("left behind").saved();
    service
        .outbox()
        .announce_later(at, Some(id), &leftover)
        .await
        .unwrap();
    let stale = service.outbox().claim_deliveries(10).await.unwrap();
    assert_eq!(stale.len(), 1);
    service
        .channels()
        .delivery_failed(&stale[0], &refused)
        .await
        .unwrap();
    let m = service.store().load_match(id).await.unwrap().unwrap();
    assert_eq!((m.trouble, m.clock.unwrap().paused_at), (None, None));
}

#[tokio::test]
async fn a_deleted_channel_or_a_removed_bot_pauses_its_matches_and_a_player_may_stop_them() {
    let service = service().await;
    let clock = service.clock.clone();
    let gone = place(10);
    let kept = place(11);
    let a = start_match(&service, gone).await;
    let b = start_match(&service, kept).await;
    assert_eq!(
        service.channels().channel_gone(gone.channel).await.unwrap(),
        1
    );
    let m = service.store().load_match(a).await.unwrap().unwrap();
    assert!(m.clock.unwrap().paused_at.is_some());
    assert_eq!(m.trouble.as_deref(), Some("its channel was deleted"));
    let other = service.store().load_match(b).await.unwrap().unwrap();
    assert_eq!(
        (other.trouble, other.clock.unwrap().paused_at),
        (None, None)
    );

    // Stopping is refused for a match the bot can reach, and for a spectator.
    let carol = crate::common::carol();
    assert!(service
        .matches()
        .abort_unreachable(&alice(), b)
        .await
        .is_err());
    assert!(service
        .matches()
        .abort_unreachable(&carol, a)
        .await
        .is_err());
    let stopped = ok(service.matches().abort_unreachable(&bob(), a).await);
    assert!(stopped.text.contains("not rated"), "{}", stopped.text);
    let m = service.store().load_match(a).await.unwrap().unwrap();
    assert_eq!(m.finish, Some(thudbot::store::Finish::Aborted));
    assert!(!m.rated);

    // The bot removed from the server: every match there stands still.
    assert_eq!(
        service
            .channels()
            .guild_gone(crate::common::GUILD)
            .await
            .unwrap(),
        1
    );
    clock.advance(Duration::days(30));
    claim_is_paused(&service, kept, b).await;
}

/// A claim in the paused match `id` at `at` is refused, saying why its clock stands still.
async fn claim_is_paused(service: &Service, at: Place, id: MatchId) {
    let m = service.store().load_match(id).await.unwrap().unwrap();
    assert!(m.clock.unwrap().paused_at.is_some());
    let why = m.trouble.expect("why the match is paused");
    assert_eq!(
        refusal(service.matches().claim(at, &bob()).await),
        Refusal::ClockPaused { why }
    );
}

#[tokio::test]
async fn notices_are_handed_out_once_between_processes_and_in_order_per_channel() {
    let first = service().await;
    let second = another_process(&first, ServiceConfig::default()).await;
    for i in 0..30 {
        let at = place(2000 + i % 3);
        let reply = Reply::public(format!("notice {i}")).saved();
        first
            .outbox()
            .announce_later(at, None, &reply)
            .await
            .unwrap();
    }
    let mut seen: Vec<String> = Vec::new();
    loop {
        let (a, b) = tokio::join!(
            first.outbox().claim_deliveries(5),
            second.outbox().claim_deliveries(5)
        );
        let (a, b) = (a.unwrap(), b.unwrap());
        if a.is_empty() && b.is_empty() {
            break;
        }
        // At most one notice of a channel is out at a time.
        let mut channels: Vec<String> = a.iter().chain(&b).map(|d| format!("{:?}", d.to)).collect();
        let count = channels.len();
        channels.dedup();
        channels.sort();
        channels.dedup();
        assert_eq!(
            channels.len(),
            count,
            "two notices of one channel out at once"
        );
        for d in a.iter().chain(&b) {
            let Recipient::Channel(channel) = d.to else {
                panic!("only channels here")
            };
            seen.push(format!("{}:{}", channel, d.reply.text));
            first.outbox().delivered(d).await.unwrap();
        }
    }
    assert_eq!(seen.len(), 30);
    for c in 0..3u64 {
        let texts: Vec<&String> = seen
            .iter()
            .filter(|s| s.starts_with(&format!("{}:", 2000 + c)))
            .collect();
        let expected: Vec<String> = (0..30)
            .filter(|i| i % 3 == c)
            .map(|i| format!("{}:notice {i}", 2000 + c))
            .collect();
        assert_eq!(texts, expected.iter().collect::<Vec<_>>());
    }
}

//! Delivery against a real PostgreSQL: the clock's work claimed exactly once by several bot
//! processes, with moves racing it, and the outbox that carries every notice to its channel.

mod common;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use common::{alice, bob, place, service, TestService};
use thudbot::render::Renderer;
use thudbot::service::{
    Action, ChallengeOptions, Clock, Delivery, DeliveryFailure, MoveRequest, NoticeBody, NoticeKind,
    Place, Reply, Service, ServiceConfig, ServiceError,
};
use thudbot::store::{MatchId, NoticeState, Store, UserId};

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
        Arc::new(Renderer::new()),
        first.clock.clone(),
        config,
    )
}

/// Starts a classic match in `at`, alice commanding the dwarfs, 3 days a move.
async fn start_match(service: &Service, at: Place) -> MatchId {
    let options = ChallengeOptions {
        side: Some("dwarfs".into()),
        ..ChallengeOptions::default()
    };
    let c = ok(service.challenge(at, &alice(), &bob(), &options).await);
    let Some(Action::Accept(id)) = c.buttons.first().map(|b| b.action) else {
        panic!("no Accept button")
    };
    ok(service.accept(at, &bob(), Some(id), None).await);
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
        .play(at, &actor, &MoveRequest::Notation(mv.to_string()))
        .await);
}

/// Takes everything due from the outbox, as a delivery worker that always succeeds would.
async fn deliver_all(service: &Service) -> Vec<Delivery> {
    let mut all = Vec::new();
    loop {
        let batch = service.claim_deliveries(100).await.unwrap();
        if batch.is_empty() {
            return all;
        }
        for d in &batch {
            service.delivered(d).await.unwrap();
        }
        all.extend(batch);
    }
}

/// Every reminder queued so far: (match, player reminded, turn it belongs to).
async fn reminders(service: &Service) -> Vec<(MatchId, UserId, DateTime<Utc>)> {
    let mut out = Vec::new();
    for n in service.store().all_notices().await.unwrap() {
        let body: NoticeBody = serde_json::from_value(n.body).unwrap();
        if let NoticeKind::Reminder {
            player,
            turn_started_at,
        } = body.kind
        {
            out.push((n.match_id.unwrap(), player, turn_started_at));
        }
    }
    out
}

#[tokio::test]
async fn three_processes_claim_each_reminder_once_for_the_player_to_move_with_moves_racing() {
    const MATCHES: u64 = 200;
    const ROUNDS: usize = 6;
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
        assert_eq!(per_turn.len(), all.len(), "round {round}: a turn reminded twice");
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
            assert_eq!(d.reply.mentions, vec![to_move], "a reminder sent to a player not to move");
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

//! The store's guarantees, checked on real PostgreSQL: a match survives a round trip, the
//! database itself keeps one match in play per channel and one move per ply, and a transaction
//! cut off midway leaves nothing behind.

use chrono::{TimeZone, Utc};
use thudbot::game::{Battle, Match, MoveText, Seat, Variant};
use thudbot::store::{
    BoardStyle, ChannelId, Conflict, Finish, GuildId, MatchId, MatchState, NewMatch, NewNotice,
    Notify, Player, Recipient, ScratchDatabase, Settings, Store, StoreError, TurnClock, UserId,
};

fn now() -> chrono::DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 22, 12, 0, 0).unwrap()
}

async fn store_with_players(db: &ScratchDatabase) -> Store {
    let store = Store::new(db.pool().clone());
    for (id, name) in [(1, "alice"), (2, "bob"), (3, "carol")] {
        store
            .save_player(
                &Player {
                    id: UserId(id),
                    name: name.into(),
                    is_bot: false,
                },
                now(),
            )
            .await
            .unwrap();
    }
    store
}

fn new_match(channel: u64) -> NewMatch {
    NewMatch {
        guild: GuildId(9),
        channel: ChannelId(channel),
        challenge: None,
        players: [UserId(1), UserId(2)],
        variant: Variant::Classic,
        days_per_move: 3,
        created_at: now(),
        rated: true,
        computer: None,
    }
}

async fn begin_match(store: &Store, channel: u64) -> MatchId {
    let mut tx = store.begin().await.unwrap();
    let id = tx.insert_match(&new_match(channel)).await.unwrap();
    tx.commit().await.unwrap();
    id
}

/// The stored id of match `id`'s first battle.
async fn first_battle(store: &Store, id: MatchId) -> i64 {
    store
        .load_match(id)
        .await
        .unwrap()
        .unwrap()
        .current_battle()
        .id
}

/// Plays `text` in the match in `channel` and stores it, as the service does.
async fn store_move(store: &Store, channel: u64, text: &str) {
    let mut tx = store.begin().await.unwrap();
    let mut m = tx
        .lock_active_match(ChannelId(channel))
        .await
        .unwrap()
        .unwrap();
    let seat = m.game.seat_to_move().unwrap();
    let battle = m.current_battle().clone();
    let (mv, progress) = m
        .game
        .play(seat, &text.parse::<MoveText>().unwrap())
        .unwrap();
    tx.insert_move(
        battle.id,
        battle.stamps.len() as u32 + 1,
        &mv,
        m.player(seat),
        now(),
    )
    .await
    .unwrap();
    if let Some(result) = progress.battle_result {
        tx.finish_battle(battle.id, &result, now()).await.unwrap();
    }
    tx.commit().await.unwrap();
}

#[tokio::test]
async fn a_match_round_trips_through_the_database() {
    let db = ScratchDatabase::create().await.unwrap();
    let store = store_with_players(&db).await;
    let id = begin_match(&store, 1).await;
    let moves = ["dF1-F5", "TG7-F6xF5", "dA6-D6", "TF6-F5"];
    for m in moves {
        store_move(&store, 1, m).await;
    }
    let mut tx = store.begin().await.unwrap();
    tx.set_clock(
        id,
        &TurnClock {
            player: UserId(1),
            turn_started_at: now(),
            deadline: now() + chrono::Duration::days(3),
            remind_at: now() + chrono::Duration::hours(54),
            vacation_since: None,
            reminder_sent_at: None,
            paused_at: None,
        },
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let loaded = store.load_match(id).await.unwrap().unwrap();
    let mut expected = Match::new(Variant::Classic);
    for (i, m) in moves.iter().enumerate() {
        let seat = if i % 2 == 0 {
            Seat::First
        } else {
            Seat::Second
        };
        expected.play(seat, &m.parse().unwrap()).unwrap();
    }
    assert_eq!(loaded.game, expected);
    assert_eq!(loaded.players, [UserId(1), UserId(2)]);
    assert_eq!(loaded.current_battle().stamps.len(), 4);
    assert_eq!(loaded.current_battle().stamps[1].player, UserId(2));
    assert_eq!(
        loaded.clock.unwrap().deadline,
        now() + chrono::Duration::days(3)
    );
    assert_eq!(
        loaded.game.current_battle().position().to_string(),
        expected.current_battle().position().to_string()
    );
    // The captures are stored with each move as well.
    let captured: Vec<String> = sqlx::query_scalar("SELECT captured[1] FROM moves WHERE ply = 2")
        .fetch_all(store.pool())
        .await
        .unwrap();
    assert_eq!(captured, ["F5"]);
}

#[tokio::test]
async fn a_channel_gets_one_match_in_play_under_twenty_simultaneous_attempts() {
    let db = ScratchDatabase::create().await.unwrap();
    let store = store_with_players(&db).await;
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut tx = store.begin().await?;
            let id = tx.insert_match(&new_match(5)).await?;
            tx.commit().await?;
            Ok::<MatchId, StoreError>(id)
        }));
    }
    let mut started = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(_) => started += 1,
            Err(e) => assert_eq!(e.conflict(), Some(Conflict::ChannelBusy), "{e}"),
        }
    }
    assert_eq!(started, 1);
    let in_play: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM matches WHERE channel_id = 5 AND state = 'active'",
    )
    .fetch_one(store.pool())
    .await
    .unwrap();
    assert_eq!(in_play, 1);
}

#[tokio::test]
async fn twenty_simultaneous_writes_of_one_ply_leave_one_move() {
    let db = ScratchDatabase::create().await.unwrap();
    let store = store_with_players(&db).await;
    let id = begin_match(&store, 6).await;
    let battle_id = first_battle(&store, id).await;
    // Twenty different legal first moves race for ply 1, without taking the match lock: the
    // (battle, ply) key alone must let exactly one land.
    let moves: Vec<_> = Battle::new(Variant::Classic)
        .position()
        .legal_moves()
        .into_iter()
        .take(20)
        .collect();
    let mut tasks = Vec::new();
    for mv in moves {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut tx = store.begin().await?;
            tx.insert_move(battle_id, 1, &mv, UserId(1), now()).await?;
            tx.commit().await
        }));
    }
    let mut landed = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(()) => landed += 1,
            Err(e) => assert_eq!(e.conflict(), Some(Conflict::TurnTaken), "{e}"),
        }
    }
    assert_eq!(landed, 1);
    let m = store.load_match(id).await.unwrap().unwrap();
    assert_eq!(m.game.current_battle().moves().len(), 1);
}

#[tokio::test]
async fn a_transaction_cut_off_midway_leaves_no_partial_move() {
    let db = ScratchDatabase::create().await.unwrap();
    let store = store_with_players(&db).await;
    let id = begin_match(&store, 7).await;
    let mut tx = store.begin().await.unwrap();
    let m = tx.lock_active_match(ChannelId(7)).await.unwrap().unwrap();
    let mv = m.game.current_battle().position().legal_moves()[0];
    tx.insert_move(m.current_battle().id, 1, &mv, UserId(1), now())
        .await
        .unwrap();
    // The connection dies before the clock is updated and the transaction committed.
    let killed: bool = sqlx::query_scalar(
        "SELECT bool_or(pg_terminate_backend(pid)) FROM pg_stat_activity
         WHERE datname = current_database() AND state LIKE 'idle in transaction%'",
    )
    .fetch_one(store.pool())
    .await
    .unwrap();
    assert!(killed, "the transaction's connection was found and ended");
    assert!(
        tx.commit().await.is_err(),
        "a dead transaction cannot commit"
    );

    let reloaded = store.load_match(id).await.unwrap().unwrap();
    assert!(reloaded.game.current_battle().moves().is_empty());
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM moves")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(rows, 0);
    // The match is not left locked: the next move goes through.
    store_move(&store, 7, "dF1-F5").await;
}

#[tokio::test]
async fn stored_moves_can_never_be_changed_or_removed() {
    let db = ScratchDatabase::create().await.unwrap();
    let store = store_with_players(&db).await;
    begin_match(&store, 8).await;
    store_move(&store, 8, "dF1-F5").await;
    let update = sqlx::query("UPDATE moves SET notation = 'dF1-F6'")
        .execute(store.pool())
        .await;
    assert!(update.unwrap_err().to_string().contains("append-only"));
    let delete = sqlx::query("DELETE FROM moves").execute(store.pool()).await;
    assert!(delete.unwrap_err().to_string().contains("append-only"));
}

#[tokio::test]
async fn a_damaged_move_list_is_reported_not_replayed() {
    let db = ScratchDatabase::create().await.unwrap();
    let store = store_with_players(&db).await;
    let id = begin_match(&store, 9).await;
    let battle_id = first_battle(&store, id).await;
    // A move written behind the store's back that the rules forbid (a troll moving first).
    sqlx::query("INSERT INTO moves (battle_id, ply, notation, player_id, played_at) VALUES ($1, 1, 'TG7-G6', 2, now())")
        .bind(battle_id)
        .execute(store.pool())
        .await
        .unwrap();
    let err = store.load_match(id).await.unwrap_err();
    assert!(matches!(err, StoreError::Corrupt(_)), "{err}");
    assert!(err.to_string().contains("not your piece"), "{err}");
}

#[tokio::test]
async fn names_are_stored_as_the_migrations_spell_them() {
    let db = ScratchDatabase::create().await.unwrap();
    let store = store_with_players(&db).await;
    let settings = Settings {
        board_style: BoardStyle::Brief,
        theme: "high-contrast".into(),
        notify: Notify::Dm,
    };
    store.save_settings(UserId(1), &settings).await.unwrap();
    assert_eq!(store.settings(UserId(1)).await.unwrap(), settings);
    let stored: (String, String) =
        sqlx::query_as("SELECT board_style, notify FROM player_settings WHERE user_id = 1")
            .fetch_one(store.pool())
            .await
            .unwrap();
    assert_eq!(stored, ("brief".into(), "dm".into()));

    let id = begin_match(&store, 9).await;
    let mut tx = store.begin().await.unwrap();
    tx.finish_match(id, Finish::Resigned, Some(UserId(2)), None, None, now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let m = store.load_match(id).await.unwrap().unwrap();
    assert_eq!(
        (m.state, m.finish),
        (MatchState::Finished, Some(Finish::Resigned))
    );
    let stored: (String, String) =
        sqlx::query_as("SELECT state, finish FROM matches WHERE id = $1")
            .bind(id.db())
            .fetch_one(store.pool())
            .await
            .unwrap();
    assert_eq!(stored, ("finished".into(), "resigned".into()));
}

#[tokio::test]
async fn a_damaged_row_is_reported_not_panicked_over() {
    let db = ScratchDatabase::create().await.unwrap();
    let store = store_with_players(&db).await;
    let id = begin_match(&store, 9).await;
    // Values the schema forbids, written with its checks out of the way.
    sqlx::raw_sql(
        "ALTER TABLE matches DROP CONSTRAINT matches_state_check;
         ALTER TABLE matches DROP CONSTRAINT matches_check1;
         UPDATE matches SET state = 'lost';
         ALTER TABLE player_settings DROP CONSTRAINT player_settings_board_style_check;
         INSERT INTO player_settings (user_id, board_style) VALUES (1, 'tiny');",
    )
    .execute(store.pool())
    .await
    .unwrap();
    let err = store.load_match(id).await.unwrap_err();
    assert!(matches!(err, StoreError::Corrupt(_)), "{err}");
    assert!(err.to_string().contains("state"), "{err}");
    let err = store
        .finished_matches_of(UserId(1), None, 10)
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Corrupt(_)), "{err}");
    let err = store.settings(UserId(1)).await.unwrap_err();
    assert!(matches!(err, StoreError::Corrupt(_)), "{err}");
    assert!(err.to_string().contains("board_style"), "{err}");
}

/// A showing reads what it shows when it is delivered, so a change that finds one queued
/// queues no other. The showing it found must not be taken up and read before that change is
/// committed, or the change is shown by nobody: it stays locked until then, and the courier,
/// which skips locked notices, takes it up afterwards. Nor may one taken up already stand for
/// it, however long ago its lease began.
#[tokio::test]
async fn a_showing_a_change_relies_on_is_not_taken_up_before_the_change_is_committed() {
    let db = ScratchDatabase::create().await.unwrap();
    let store = store_with_players(&db).await;
    let event = serde_json::json!({"kind": "announcement_changed", "tournament": 1});
    let mut tx = store.begin().await.unwrap();
    tx.queue_notice(&NewNotice {
        guild: GuildId(9),
        to: Recipient::Channel(ChannelId(9)),
        match_id: None,
        body: serde_json::json!({ "events": [event.clone()] }),
        silent: false,
        board: None,
        created_at: now(),
        due_at: now(),
    })
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let lease = chrono::Duration::minutes(2);
    let mut change = store.begin().await.unwrap();
    assert!(change.told_later(&event).await.unwrap());
    assert_eq!(
        store.claim_notices(now(), lease, 10).await.unwrap(),
        vec![],
        "taken up while the change that relies on it was uncommitted"
    );
    change.commit().await.unwrap();
    assert_eq!(
        store.claim_notices(now(), lease, 10).await.unwrap().len(),
        1
    );

    // Once taken up it no longer stands for a later change, even when its lease has run out:
    // a slow delivery may have read what it shows already.
    let mut later = store.begin().await.unwrap();
    assert!(!later.told_later(&event).await.unwrap());
    later.commit().await.unwrap();
    sqlx::query("UPDATE notices SET leased_until = $1")
        .bind(now() - lease)
        .execute(store.pool())
        .await
        .unwrap();
    let mut later = store.begin().await.unwrap();
    assert!(!later.told_later(&event).await.unwrap());
}

//! The outbox keeps events and their readers, never sentences: what a notice says is worded
//! when it is sent. Notices queued by the version before (sentences, a player's id posing as
//! a channel for direct messages) are still delivered after the upgrade.

use std::sync::Arc;

use crate::common::{alice, bob, deliver_all, ok, place, start_time};
use thudbot::service::{
    ChallengeOptions, Event, ManualClock, MoveRequest, Notice, Service, ServiceConfig,
};
use thudbot::store::{
    ChannelId, GuildId, Notify, Recipient, ScratchDatabase, SideChoice, Store, UserId, MIGRATOR,
};

/// A database migrated up to the migration numbered `upgrade` (left out), as a version
/// before it left it.
async fn migrated_before(upgrade: &str) -> ScratchDatabase {
    let db = ScratchDatabase::create_empty().await.expect("a database");
    let dir = std::env::temp_dir().join(format!(
        "thudbot-migrations-{}-{upgrade}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir("migrations").expect("the migrations") {
        let path = entry.expect("a migration").path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.as_str() < upgrade {
            std::fs::copy(&path, dir.join(&name)).expect("copied");
        }
    }
    sqlx::migrate::Migrator::new(dir.as_path())
        .await
        .unwrap()
        .run(db.pool())
        .await
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    db
}

/// A service on `db` with its clock at the tests' start.
fn service_on(db: &ScratchDatabase) -> (Service, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(start_time()));
    let service = Service::new(
        Store::new(db.pool().clone()),
        crate::common::renderer(),
        clock.clone(),
        ServiceConfig::default(),
    );
    (service, clock)
}

/// A notice's reader and board columns: channel, DM, silent, board battle and plies.
type Columns = (Option<i64>, Option<i64>, bool, Option<i16>, Option<i32>);

#[tokio::test]
async fn notices_queued_before_the_upgrade_are_delivered_to_their_readers() {
    // Before notices had readers of their own.
    let db = migrated_before("0013").await;

    // As the version before queued them: a direct message under its player's id, a finished
    // match's thread to close, and an announcement for a channel, each worded.
    let player: u64 = 10_000_000_000_000_000_000; // a snowflake past i64::MAX, stored bit for bit
    let insert = |channel: i64, body: serde_json::Value, wait: i64| {
        let pool = db.pool().clone();
        async move {
            sqlx::query(
                "INSERT INTO notices (guild_id, channel_id, body, created_at, due_at)
                 VALUES (1, $1, $2, $3, $4)",
            )
            .bind(channel)
            .bind(body)
            .bind(start_time())
            .bind(start_time() + chrono::Duration::seconds(wait))
            .execute(&pool)
            .await
            .unwrap();
        }
    };
    let spans = |words: &str| serde_json::json!([{"span": "plain", "value": words}]);
    insert(
        player as i64,
        serde_json::json!({"kind": "announcement", "text": spans("your move, by DM"),
                           "mentions": [], "board": null, "dm": player}),
        0,
    )
    .await;
    insert(
        7,
        serde_json::json!({"kind": "match-over", "text": [], "mentions": [], "board": null}),
        120,
    )
    .await;
    insert(
        7,
        serde_json::json!({"kind": "announcement", "text": spans("in the channel"),
                           "mentions": [5], "board": null}),
        0,
    )
    .await;

    // A turn notice by DM waiting for its move's message, which shows battle 2 after 7 plies.
    insert(
        player as i64,
        serde_json::json!({"kind": "announcement", "text": spans("a later DM"),
                           "mentions": [], "dm": player,
                           "board": {"match_id": 9, "battle": 2, "plies": 7}}),
        60,
    )
    .await;

    MIGRATOR.run(db.pool()).await.expect("the upgrade");
    let columns: Vec<Columns> = sqlx::query_as(
        "SELECT channel_id, dm_user_id, silent, board_battle, board_plies
             FROM notices ORDER BY id",
    )
    .fetch_all(db.pool())
    .await
    .unwrap();
    let me = Some(player as i64);
    assert_eq!(
        columns,
        [
            (None, me, false, None, None),
            (Some(7), None, true, None, None),
            (Some(7), None, false, None, None),
            (None, me, false, Some(2), Some(7)),
        ]
    );
    let (service, clock) = service_on(&db);
    let sent = deliver_all(&service).await;
    let said: Vec<(Recipient, String)> = sent
        .iter()
        .map(|d| (d.to, d.reply.text.to_plain(start_time())))
        .collect();
    // The channel's announcement is not held back by the thread that waits to be closed.
    assert_eq!(
        said,
        [
            (
                Recipient::Dm(UserId(player)),
                "your move, by DM".to_string()
            ),
            (
                Recipient::Channel(ChannelId(7)),
                "in the channel".to_string()
            ),
        ]
    );
    assert_eq!(sent[1].reply.mentions, [UserId(5)]);
    assert_eq!(sent[0].guild, GuildId(1));
    assert!(sent.iter().all(|d| !d.closes_thread));

    // The thread is closed when its time comes, saying nothing.
    clock.advance(chrono::Duration::minutes(3));
    let later = deliver_all(&service).await;
    let closing: Vec<_> = later.iter().filter(|d| d.closes_thread).collect();
    assert_eq!(closing.len(), 1);
    assert_eq!(closing[0].to, Recipient::Channel(ChannelId(7)));
    assert!(later
        .iter()
        .any(|d| d.to == Recipient::Dm(UserId(player)) && d.reply.text.contains("a later DM")));
}

#[tokio::test]
async fn a_move_is_stored_as_events_for_each_reader_and_worded_when_sent() {
    let service = crate::common::service().await;
    let at = place(40);
    ok(service
        .people()
        .settings(&bob(), None, None, Some(Notify::Dm))
        .await);
    let alice_dwarfs = ChallengeOptions {
        side: Some(SideChoice::Dwarfs),
        ..ChallengeOptions::default()
    };
    ok(service
        .matches()
        .challenge(at, &alice(), &bob(), &alice_dwarfs)
        .await);
    ok(service.matches().accept(at, &bob(), None, None).await);
    let moved = ok(service
        .matches()
        .play(at, &alice(), &MoveRequest::Notation("dF1-F5".into()))
        .await);

    // The answer is worded from the same events the outbox keeps.
    assert!(matches!(
        moved.events.as_slice(),
        [
            Event::Moved { ply: 1, .. },
            Event::TurnStarted { player, .. }
        ] if *player == bob().id
    ));
    // Bob hears of his turn by DM only: the channel's message does not ping him.
    assert!(moved.mentions.is_empty(), "{:?}", moved.mentions);

    let stored = service.store().all_notices().await.unwrap();
    let dm = stored
        .iter()
        .find(|n| n.to == Recipient::Dm(bob().id))
        .expect("bob's direct message");
    let notice: Notice = serde_json::from_value(dm.body.clone()).unwrap();
    assert_eq!(
        notice.events, moved.events,
        "the DM keeps what happened, not words"
    );
    assert!(dm.body.get("text").is_none(), "{}", dm.body);

    // Worded for its reader when sent: to bob, in the second person, linking to the match.
    service.clock.advance(chrono::Duration::minutes(2));
    let sent = deliver_all(&service).await;
    let to_bob = sent
        .iter()
        .find(|d| d.to == Recipient::Dm(bob().id))
        .expect("sent to bob");
    let words = to_bob.reply.text.to_plain(service.now());
    assert!(words.contains("alice (dwarfs) plays dF1-F5"), "{words}");
    assert!(words.contains("It is your move in match #1"), "{words}");
    assert!(words.contains("Play it in match #1's channel"), "{words}");
    assert!(!words.contains("bob, your move"), "{words}");
    assert!(to_bob.reply.mentions.is_empty());
}

#[tokio::test]
async fn an_analysis_the_version_before_was_showing_is_shown_through_the_outbox_after_the_upgrade()
{
    let db = migrated_before("0023").await;
    let (service, _) = service_on(&db);
    let id = crate::analysis::finished_match(&service, &["dA7-F7", "TG8-F8xF7"]).await;
    let at = place(1);
    service.analysis().ask(at, Some(id)).await.expect("asked");
    while service.analysis().analyse_some(100).await.unwrap() > 0 {}
    // As the version before left it: its progress message posted and recorded, to be edited
    // into the report by a worker of its own, nothing in the outbox.
    sqlx::query("DELETE FROM notices WHERE body->'events'->0->>'event' = 'analysis-changed'")
        .execute(db.pool())
        .await
        .unwrap();
    sqlx::query("UPDATE analyses SET progress_message = 42 WHERE match_id = $1")
        .bind(id.0 as i64)
        .execute(db.pool())
        .await
        .unwrap();

    MIGRATOR.run(db.pool()).await.expect("the upgrade");
    let sent = deliver_all(&service).await;
    let shown: Vec<_> = sent
        .iter()
        .filter(|d| d.shows_analysis == Some(id))
        .collect();
    assert_eq!(shown.len(), 1, "{sent:#?}");
    assert_eq!(shown[0].to, Recipient::Channel(at.channel));
}

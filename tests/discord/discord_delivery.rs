//! End to end through serenity, with Discord failing the way it does: notices that Discord
//! refuses or fails to take, answers lost after a move was saved, channels and threads that go
//! away, threads that archive under long matches, and a start-up that cannot register.

use crate::support::BotHttp;
use std::sync::Arc;
use std::time::Duration;

use chrono::Duration as Span;
use thudbot::config::Shards;
use thudbot::discord::{self, BotOptions, StartError, DEFER_AFTER};
use thudbot::service::{ManualClock, Service, ServiceConfig};
use thudbot::store::{ChannelId, MatchId, ScratchDatabase, Store, StoredMatch};

use crate::support::bot::*;
use crate::support::fake_discord::*;

/// The match last played in `channel`, as stored.
pub(crate) async fn stored_match(bot: &Bot, channel: u64) -> StoredMatch {
    let store = bot.service.store();
    let id: MatchId = store
        .latest_match_in(ChannelId(channel))
        .await
        .unwrap()
        .expect("a match");
    store.load_match(id).await.unwrap().expect("stored")
}

/// Waits until the match last played in `channel` satisfies `done` (the bot works on its own
/// schedule after a gateway event).
pub(crate) async fn until_match(
    bot: &Bot,
    channel: u64,
    done: impl Fn(&StoredMatch) -> bool,
) -> StoredMatch {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let m = stored_match(bot, channel).await;
        if done(&m) {
            return m;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the match never got there: {m:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// ALICE challenges BOB (dwarfs first, `days` the index of the days-per-move choice), BOB
/// accepts, and the match opens in a thread: returns the thread and its first post.
pub(crate) async fn thread_match(bot: &Bot, days: Option<i64>) -> (u64, RecordedRequest) {
    let mark = bot.fake.mark();
    let mut challenge = SlashCommand::thud("challenge")
        .option("opponent", BOB)
        .option("side", 0i64);
    if let Some(days) = days {
        challenge = challenge.option("days", days);
    }
    let (sent, _) = bot.command(challenge).await;
    let (accepted, _) = bot
        .press(BOB, bot.message_id(&sent).await, "thud:accept:")
        .await;
    // The accept's answer comes after the thread is opened; a test that moves Discord's clock
    // on by days before it lands would find the interaction's token expired.
    bot.followup(&accepted).await;
    let created = bot
        .fake
        .wait_for_since(
            mark,
            |r| r.method == "POST" && r.path.ends_with("/threads"),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let thread = snowflake(&created.response.clone().expect("a thread")["id"]).expect("an id");
    let opening = bot
        .fake
        .wait_for_since(mark, posts_to(thread), WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    (thread, opening)
}

/// Alice's `dF1-F5` stands and, its answer lost, still reached #general since `mark` with the
/// board, pinging Bob.
pub(crate) async fn first_move_announced_since(bot: &Bot, mark: usize) {
    let announced = posted_since(bot, mark, GENERAL_CHANNEL).await;
    let text = content(&announced);
    assert!(text.contains("plays `dF1-F5`"), "{text}");
    assert_eq!(announced.pinged_users(), [BOB.id]);
    picture(&announced);
    let m = stored_match(bot, GENERAL_CHANNEL).await;
    assert_eq!(m.game.current_battle().moves().len(), 1);
}

/// The first post into `channel` since `mark` that Discord took.
pub(crate) async fn posted_since(bot: &Bot, mark: usize, channel: u64) -> RecordedRequest {
    bot.fake
        .wait_for_since(
            mark,
            |r| posts_to(channel)(r) && (200..300).contains(&r.status),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

/// How many reminders `channel` shows.
pub(crate) fn reminders_in(bot: &Bot, channel: u64) -> usize {
    bot.fake
        .channel_messages(channel)
        .iter()
        .filter(|m| {
            m["content"]
                .as_str()
                .is_some_and(|c| c.contains("reminder"))
        })
        .count()
}

pub(crate) fn posts_to(channel: u64) -> impl Fn(&RecordedRequest) -> bool {
    let path = format!("/channels/{channel}/messages");
    move |r: &RecordedRequest| r.method == "POST" && r.path == path
}

#[tokio::test]
async fn a_reminder_discord_refuses_pauses_the_match_until_a_player_resumes_it_elsewhere() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    // A moderator takes the bot's right to post in #general.
    bot.fake
        .deny_bot(GENERAL_CHANNEL, permission::SEND_MESSAGES)
        .unwrap();
    bot.clock.advance(Span::hours(60));
    bot.fake
        .wait_for(|r| r.error_code() == Some(50013), WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let paused = until_match(&bot, GENERAL_CHANNEL, |m| m.trouble.is_some()).await;
    assert!(paused.clock.unwrap().paused_at.is_some());

    // Nobody loses on time unheard: days later, a claim is refused.
    bot.clock.advance(Span::days(5));
    let claim = bot.say(SlashCommand::thud("claim").by(BOB)).await;
    assert!(claim.is_ephemeral());
    assert!(content(&claim).contains("paused"), "{}", content(&claim));

    // Bob sees why in /thud games from #thud, and carries the match on there.
    let (games, answer) = bot
        .command(SlashCommand::thud("games").by(BOB).in_channel(THUD_CHANNEL))
        .await;
    assert!(answer.is_ephemeral());
    let text = content(&answer);
    assert!(
        text.contains("cannot reach") && text.contains("50013"),
        "{text}"
    );
    let message = bot.message_id(&games).await;
    let (click, _) = bot.press(BOB, message, "thud:resume:").await;
    let resumed = bot.followup(&click).await;
    assert!(!resumed.is_ephemeral());
    assert!(
        content(&resumed).contains("resumes match"),
        "{}",
        content(&resumed)
    );
    assert_eq!(resumed.pinged_users(), [ALICE.id]);
    picture(&resumed);
    let m = stored_match(&bot, THUD_CHANNEL).await;
    assert_eq!((m.trouble, m.clock.unwrap().paused_at), (None, None));

    // The reminder that never reached Alice comes again, in #thud.
    let reminder = bot
        .fake
        .wait_for(posts_to(THUD_CHANNEL), WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        content(&reminder).contains("reminder"),
        "{}",
        content(&reminder)
    );
    assert_eq!(reminder.pinged_users(), [ALICE.id]);
    bot.finish_expecting(|r| r.error_code() == Some(50013))
        .await;
}

#[tokio::test]
async fn a_notice_is_tried_again_after_errors_rate_limits_and_a_lost_connection_and_posted_once() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    bot.fake
        .fail_with_status("POST /channels/*/messages", 1, 502);
    bot.fake
        .rate_limit("POST /channels/*/messages", 1, Duration::from_millis(500));
    bot.fake.drop_connection("POST /channels/*/messages", 1);
    let mark = bot.fake.mark();
    bot.clock.advance(Span::hours(60));
    // Each failure is tried again once its backoff has passed on the bot's clock.
    let deadline = tokio::time::Instant::now() + WAIT;
    while !bot
        .fake
        .requests()
        .iter()
        .skip(mark)
        .any(|r| posts_to(GENERAL_CHANNEL)(r) && (200..300).contains(&r.status))
    {
        assert!(tokio::time::Instant::now() < deadline, "never posted");
        bot.clock.advance(Span::seconds(5));
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    posted_since(&bot, mark, GENERAL_CHANNEL).await;
    let tries: Vec<RecordedRequest> = bot
        .fake
        .requests()
        .into_iter()
        .skip(mark)
        .filter(|r| posts_to(GENERAL_CHANNEL)(r))
        .collect();
    let seen: Vec<String> = tries.iter().map(RecordedRequest::summary).collect();
    assert_eq!(tries.len(), 4, "three failures, then the post: {seen:#?}");
    let nonces: Vec<_> = tries.iter().map(|r| r.json()["nonce"].clone()).collect();
    assert!(nonces[0].is_string(), "{:?}", tries[0].json());
    assert!(
        nonces.iter().all(|n| *n == nonces[0]),
        "one nonce: {nonces:?}"
    );
    assert!(tries.iter().all(|r| r.json()["enforce_nonce"] == true));
    assert_eq!(reminders_in(&bot, GENERAL_CHANNEL), 1);
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn a_refused_token_holds_sending_pauses_no_match_and_is_said_once() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    // The bot's token was reset: Discord answers 401, whatever the channel.
    bot.fake
        .fail_with_status("POST /channels/*/messages", 1, 401);
    let mark = bot.fake.mark();
    bot.clock.advance(Span::hours(60));
    let refused = bot
        .fake
        .wait_for_since(
            mark,
            |r| posts_to(GENERAL_CHANNEL)(r) && r.status == 401,
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // No match is to blame: none is paused, and nothing is sent while sending is held.
    bot.clock.advance(Span::minutes(5));
    tokio::time::sleep(Duration::from_secs(1)).await;
    let m = stored_match(&bot, GENERAL_CHANNEL).await;
    assert_eq!((m.trouble, m.clock.unwrap().paused_at), (None, None));
    let tried = |bot: &Bot| {
        bot.fake
            .requests()
            .into_iter()
            .skip(refused.seq + 1)
            .filter(|r| posts_to(GENERAL_CHANNEL)(r))
            .count()
    };
    assert_eq!(tried(&bot), 0, "sent while held");
    // Ten minutes on, sending is tried again and the reminder goes out, once.
    let deadline = tokio::time::Instant::now() + WAIT;
    while tried(&bot) == 0 {
        assert!(tokio::time::Instant::now() < deadline, "never tried again");
        bot.clock.advance(Span::minutes(1));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    posted_since(&bot, mark, GENERAL_CHANNEL).await;
    assert_eq!(reminders_in(&bot, GENERAL_CHANNEL), 1);
    let said = bot
        .logs
        .lines()
        .iter()
        .filter(|l| l.contains("Discord refused the bot's token (401"))
        .count();
    assert_eq!(said, 1, "{:#?}", bot.logs.lines());
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn a_move_whose_answer_fails_still_reaches_the_channel_and_pings_the_opponent() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    bot.fake
        .fail_with_status("POST /interactions/*/*/callback", 1, 500);
    let mark = bot.fake.mark();
    bot.fake
        .run_command(
            &SlashCommand::thud("move")
                .option("from", "F1")
                .option("to", "F5"),
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    first_move_announced_since(&bot, mark).await;
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn a_deleted_channel_and_a_removed_bot_pause_their_matches() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    start_match(&bot, THUD_CHANNEL).await;
    bot.fake.delete_channel(GENERAL_CHANNEL).unwrap();
    let gone = until_match(&bot, GENERAL_CHANNEL, |m| m.trouble.is_some()).await;
    assert_eq!(gone.trouble.as_deref(), Some("its channel was deleted"));
    let games = bot
        .say(
            SlashCommand::thud("games")
                .by(ALICE)
                .in_channel(THUD_CHANNEL),
        )
        .await;
    assert!(
        content(&games).contains("channel was deleted"),
        "{}",
        content(&games)
    );
    assert!(custom_ids(&games)
        .iter()
        .any(|id| id.starts_with("thud:stop:")));
    let other = stored_match(&bot, THUD_CHANNEL).await;
    assert_eq!(other.trouble, None, "only the deleted channel's match");

    bot.fake.remove_bot_from_guild();
    let removed = until_match(&bot, THUD_CHANNEL, |m| m.trouble.is_some()).await;
    assert_eq!(
        removed.trouble.as_deref(),
        Some("the bot was removed from its server")
    );
    assert!(removed.clock.unwrap().paused_at.is_some());
    // The pauses are logged as warnings for the operator.
    bot.finish_expecting(|_| false).await;
}

#[tokio::test]
async fn a_fortnightly_match_keeps_its_thread_open_to_the_end_and_then_archives_it() {
    let bot = start_bot(|o| o.threads = true).await;
    // The seventh choice of `days`: 14 days a move.
    let (thread, opening) = thread_match(&bot, Some(6)).await;
    picture(&opening);

    // Eight idle days: Discord archives the thread, the bot opens it again at once.
    let mark = bot.fake.mark();
    bot.fake.advance(Duration::from_secs(8 * 24 * 3600));
    bot.fake
        .wait_for_since(
            mark,
            |r| {
                r.method == "PATCH"
                    && r.path == format!("/channels/{thread}")
                    && (200..300).contains(&r.status)
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!bot.fake.thread_is_archived(thread));
    bot.clock.advance(Span::days(13));
    let reminder = bot
        .fake
        .wait_for_since(mark, posts_to(thread), WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(reminder.pinged_users(), [ALICE.id]);

    // Both battles are played and ended by agreement in the thread.
    for (mover, other) in [(ALICE, BOB), (BOB, ALICE)] {
        let moved = bot
            .say(
                SlashCommand::thud("move")
                    .option("from", "F1")
                    .option("to", "F5")
                    .by(mover)
                    .in_channel(thread),
            )
            .await;
        assert!(!moved.is_ephemeral(), "{}", moved.summary());
        let (proposal, _) = bot
            .command(SlashCommand::thud("end").by(mover).in_channel(thread))
            .await;
        let message = bot.message_id(&proposal).await;
        let (agreed, _) = bot.press(other, message, "thud:agree:").await;
        bot.followup(&agreed).await;
    }
    let over = stored_match(&bot, thread).await;
    assert_eq!(over.state, thudbot::store::MatchState::Finished);

    // Once the last words have had time to land, the finished match's thread is archived.
    bot.clock.advance(Span::minutes(3));
    let deadline = tokio::time::Instant::now() + WAIT;
    while !bot.fake.thread_is_archived(thread) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the thread was not archived"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    bot.finish().await;
}

#[tokio::test]
async fn a_locked_match_thread_pauses_its_match() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = thread_match(&bot, None).await;
    bot.fake.lock_thread(thread).unwrap();
    let m = until_match(&bot, thread, |m| m.trouble.is_some()).await;
    assert_eq!(m.trouble.as_deref(), Some("its thread was locked"));
    bot.finish().await;
}

/// Starts the bot against `fake` with `patience` for reaching Discord and registering.
async fn try_start(
    fake: &FakeDiscord,
    patience: Duration,
) -> Result<discord::RunningBot, StartError> {
    let db = ScratchDatabase::create().await.expect("a scratch database");
    let service = Arc::new(Service::new(
        Store::new(db.pool().clone()),
        crate::common::renderer(),
        Arc::new(ManualClock::new(start_time())),
        ServiceConfig::default(),
    ));
    let options = BotOptions {
        development_guild: Some(GUILD_ID),
        threads: false,
        clock_interval: Duration::from_millis(50),
        shards: Shards::Auto,
        defer_after: DEFER_AFTER,
        startup_patience: patience,
        delivery_interval: Duration::from_millis(50),
        members_intent: false,
        seat_batch: thudbot::discord::SEAT_BATCH,
    };
    discord::start(fake.http(), service, options).await
}

#[tokio::test]
async fn start_up_retries_reaching_discord_and_registering_then_fails_with_the_reason() {
    let _logs = capture_logs();
    // Two 503s on registration: tried again, then the bot runs and answers.
    let fake = FakeDiscord::start().await;
    fake.fail_with_status("PUT /applications/*/guilds/*/commands", 2, 503);
    let bot = try_start(&fake, Duration::from_secs(20))
        .await
        .expect("started after the retries");
    let registered = fake
        .requests()
        .iter()
        .filter(|r| {
            r.method == "PUT" && r.path.contains("/guilds/") && r.path.ends_with("/commands")
        })
        .map(|r| r.status)
        .collect::<Vec<_>>();
    assert_eq!(registered, [503, 503, 200]);
    fake.wait_until_connected(WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    bot.shutdown().await.expect("a clean stop");

    // Registration refused for good (the guild does not have the bot): an error, not a bot
    // that is online and silent.
    let fake = FakeDiscord::start().await;
    fake.fail_with_status("PUT /applications/*/guilds/*/commands", 1000, 503);
    match try_start(&fake, Duration::from_secs(2)).await {
        Err(e @ StartError::Registration { .. }) => {
            assert!(e.to_string().contains("register"), "{e}")
        }
        Err(e) => panic!("the wrong error: {e}"),
        Ok(_) => panic!("the bot started without its commands"),
    }

    // Discord cannot be reached at all: the same, never a panic.
    let fake = FakeDiscord::start().await;
    fake.drop_connection("GET /oauth2/applications/@me", 1000);
    match try_start(&fake, Duration::from_secs(2)).await {
        Err(e @ StartError::Unreachable { .. }) => {
            assert!(e.to_string().contains("reach Discord"), "{e}")
        }
        Err(e) => panic!("the wrong error: {e}"),
        Ok(_) => panic!("the bot started without Discord"),
    }
}

#[tokio::test]
async fn the_bot_comes_back_after_discords_gateway_restarts() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    let first = bot.fake.identify().expect("identified");
    bot.fake.drop_gateway();
    // serenity reconnects by itself and resumes its session, and the bot answers commands as
    // before.
    let deadline = tokio::time::Instant::now() + WAIT * 2;
    while !bot
        .fake
        .gateway_frames()
        .iter()
        .any(|f| f.connection > 1 && f.payload["t"] == "RESUMED")
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the bot did not come back"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    bot.fake
        .wait_until_connected(WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        bot.fake.identify().map(|i| i["token"].clone()),
        Some(first["token"].clone())
    );
    let moved = bot
        .say(
            SlashCommand::thud("move")
                .option("from", "F1")
                .option("to", "F5"),
        )
        .await;
    assert!(!moved.is_ephemeral(), "{}", moved.summary());
    assert_eq!(moved.pinged_users(), [BOB.id]);
    // The bot stops cleanly; (the fake still counts the second connection as open after the
    // client has stopped, so the usual wait for every session to close is left out here).
    let mut bot = bot;
    let running = bot.running.take().expect("running");
    tokio::time::timeout(WAIT * 3, running.shutdown())
        .await
        .expect("shutdown finishes")
        .expect("the client stopped cleanly");
    assert_eq!(bot.fake.frames_serenity_cannot_read(), Vec::<String>::new());
    assert!(bot.fake.unexpected_requests().is_empty());
    assert!(bot.fake.failed_requests().is_empty());
}

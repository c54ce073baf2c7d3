//! End to end through serenity, for what Discord does while the bot cannot hear or answer in
//! time: events lost to an outage, an answer later than an interaction token lives, an upload
//! limit, and access lost without an event.

use std::time::Duration;

use chrono::Duration as Span;
use thudbot::service::{Actor, MoveRequest, Place};
use thudbot::store::{ChannelId, GuildId};

use crate::discord_delivery::{
    first_move_announced_since, posted_since, posts_to, stored_match, thread_match, until_match,
};
use crate::support::bot::*;
use crate::support::fake_discord::*;

/// Stops a bot whose gateway was restarted (the fake still counts the old connection as open,
/// so the usual wait for every session to close is left out).
async fn stop_after_restart(mut bot: Bot) {
    let running = bot.running.take().expect("running");
    tokio::time::timeout(WAIT * 3, running.shutdown())
        .await
        .expect("shutdown finishes")
        .expect("the client stopped cleanly");
    assert_eq!(bot.fake.frames_serenity_cannot_read(), Vec::<String>::new());
    assert!(bot.fake.unexpected_requests().is_empty());
}

/// Waits for the bot to open `thread` again (a PATCH Discord took) since `mark`, and to
/// record it: the outbox's reopening is settled (a test that then moves the clock on by more
/// than the outbox's lease would otherwise make the reopening look abandoned).
pub(crate) async fn reopened_since(bot: &Bot, mark: usize, thread: u64) {
    bot.fake
        .wait_for_since(
            mark,
            |r| {
                r.method == "PATCH"
                    && r.path == format!("/channels/{thread}")
                    && (200..300).contains(&r.status)
            },
            WAIT * 2,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let deadline = tokio::time::Instant::now() + WAIT;
    let to = thudbot::store::Recipient::Channel(ChannelId(thread));
    loop {
        let notices = bot
            .service
            .store()
            .notices_to(to)
            .await
            .expect("the notices");
        if notices
            .iter()
            .all(|n| n.state != thudbot::store::NoticeState::Pending)
        {
            return;
        }
        assert!(tokio::time::Instant::now() < deadline, "never settled");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn what_happened_while_the_bot_could_not_hear_is_caught_up_when_it_reconnects() {
    let bot = start_bot(|o| o.threads = true).await;
    let (archived, _) = thread_match(&bot, None).await;
    let (deleted, _) = thread_match(&bot, None).await;
    // An outage: a moderator archives one match thread and deletes the other, and the bot's
    // session cannot be resumed, so it never hears of either.
    bot.fake.lose_events(true);
    bot.fake.archive_thread(archived).unwrap();
    bot.fake.delete_thread(deleted).unwrap();
    bot.fake.lose_events(false);
    let mark = bot.fake.mark();
    bot.fake.drop_gateway();

    // Back, the bot compares GUILD_CREATE with its matches: it opens the archived thread
    // again, and pauses the match whose thread is gone.
    reopened_since(&bot, mark, archived).await;
    assert!(!bot.fake.thread_is_archived(archived));
    let gone = until_match(&bot, deleted, |m| m.trouble.is_some()).await;
    assert_eq!(gone.trouble.as_deref(), Some("its channel was deleted"));
    assert!(gone.clock.unwrap().paused_at.is_some());
    assert!(stored_match(&bot, archived).await.trouble.is_none());

    // Play goes on in the reopened thread.
    let moved = bot
        .say(
            SlashCommand::thud("move")
                .option("from", "F1")
                .option("to", "F5")
                .in_channel(archived),
        )
        .await;
    assert!(!moved.is_ephemeral(), "{}", moved.summary());
    stop_after_restart(bot).await;
}

#[tokio::test]
async fn a_move_answered_after_its_token_expired_still_reaches_the_channel() {
    let bot = start_bot(|o| o.defer_after = Duration::from_millis(100)).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    // The database is slow: another transaction holds the match.
    let mut blocker = bot.db.pool().begin().await.unwrap();
    sqlx::query("SELECT id FROM matches WHERE state = 'active' FOR UPDATE")
        .fetch_all(&mut *blocker)
        .await
        .unwrap();
    let (sent, deferred) = bot
        .command(
            SlashCommand::thud("move")
                .option("from", "F1")
                .option("to", "F5"),
        )
        .await;
    assert_eq!(deferred.interaction_response_type(), Some(5));
    // Sixteen minutes pass before the move can be saved: the token is dead by then.
    bot.fake.advance(Duration::from_secs(16 * 60));
    let mark = bot.fake.mark();
    blocker.rollback().await.unwrap();
    let token = sent.token.clone();
    let late = bot
        .fake
        .wait_for_since(mark, |r| r.webhook_token() == Some(token.as_str()), WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(late.error_code(), Some(50027), "{}", late.summary());

    // The move stands, and the channel sees it with the board, pinging Bob.
    first_move_announced_since(&bot, mark).await;
    bot.finish_expecting(|r| r.error_code() == Some(50027))
        .await;
}

/// Plays `plies` legal moves in the match in #general, through the service.
async fn play_moves(bot: &Bot, plies: usize) {
    let place = Place {
        guild: GuildId(GUILD_ID),
        channel: ChannelId(GENERAL_CHANNEL),
    };
    for _ in 0..plies {
        let m = stored_match(bot, GENERAL_CHANNEL).await;
        let seat = m.game.seat_to_move().expect("a player to move");
        let player = m.player(seat);
        let mv = m.game.current_battle().position().legal_moves()[0].to_string();
        let actor = Actor::new(player, "player");
        bot.service
            .matches()
            .play(place, &actor, &MoveRequest::Notation(mv.clone()))
            .await
            .unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
}

/// The message answering `command` that carries its file: the answer itself, or the followup
/// of a deferred one.
async fn answer_with_file(bot: &Bot, command: SlashCommand) -> RecordedRequest {
    let (sent, answer) = bot.command(command).await;
    if answer.interaction_response_type() == Some(4) {
        answer
    } else {
        bot.followup(&sent).await
    }
}

#[tokio::test]
async fn a_replay_is_kept_under_the_upload_limit_the_interaction_reports() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    play_moves(&bot, 12).await;
    let replay = || SlashCommand::thud("replay").group("review");
    let whole = answer_with_file(&bot, replay()).await;
    assert_eq!(whole.attachments().len(), 1, "{}", whole.summary());
    let size = whole.attachments()[0].data.len();
    assert!(content(&whole).contains("12 moves"), "{}", content(&whole));

    // A server whose files may be smaller than the whole replay gets its last part.
    let limit = size as u64 - 1;
    bot.fake.set_upload_limit(limit);
    let part = answer_with_file(&bot, replay()).await;
    assert!((200..300).contains(&part.status), "{}", part.summary());
    let files = part.attachments();
    assert!(files[0].data.len() as u64 <= limit);
    assert!(files[0].filename.ends_with(".gif"));
    assert!(
        content(&part).contains("of 12 (the whole battle would be larger than"),
        "{}",
        content(&part)
    );
    bot.finish().await;
}

#[tokio::test]
async fn access_lost_without_an_event_pauses_the_match_at_the_first_refused_notice() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    // The bot is removed from the server during an outage: no GUILD_DELETE reaches it.
    bot.fake.lose_events(true);
    bot.fake.remove_bot_from_guild();
    bot.fake.lose_events(false);
    bot.clock.advance(Span::hours(60));
    bot.fake
        .wait_for(|r| r.error_code() == Some(50001), WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let m = until_match(&bot, GENERAL_CHANNEL, |m| m.trouble.is_some()).await;
    assert!(
        m.trouble.as_deref().is_some_and(|t| t.contains("50001")),
        "{:?}",
        m.trouble
    );
    assert!(m.clock.unwrap().paused_at.is_some());
    // Days later nobody has lost on time.
    bot.clock.advance(Span::days(10));
    bot.service.tick().await.unwrap();
    let m = stored_match(&bot, GENERAL_CHANNEL).await;
    assert_eq!(m.state, thudbot::store::MatchState::Active);
    bot.finish_expecting(|r| r.error_code() == Some(50001))
        .await;
}

#[tokio::test]
async fn what_happens_while_the_gateway_is_down_is_replayed_when_the_bot_resumes() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = thread_match(&bot, None).await;
    // Discord's gateway restarts and is slow to come back; meanwhile Discord archives the
    // match thread.
    bot.fake.hold_gateway(true);
    bot.fake.drop_gateway();
    bot.fake
        .wait_until_disconnected(WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    bot.fake.archive_thread(thread).unwrap();
    let mark = bot.fake.mark();
    bot.fake.hold_gateway(false);

    // The bot resumes its session, hears of the archiving from the replay, and reopens the
    // thread.
    reopened_since(&bot, mark, thread).await;
    assert!(!bot.fake.thread_is_archived(thread));
    let frames = bot.fake.gateway_frames();
    let later = |f: &&GatewayFrame| f.connection > 1;
    assert!(frames.iter().filter(later).any(|f| f.payload["op"] == 6));
    assert!(!frames.iter().filter(later).any(|f| f.payload["op"] == 2));
    let replayed = frames
        .iter()
        .filter(later)
        .position(|f| f.payload["t"] == "THREAD_UPDATE");
    let resumed = frames
        .iter()
        .filter(later)
        .position(|f| f.payload["t"] == "RESUMED");
    assert!(
        replayed.is_some() && replayed < resumed,
        "the missed event comes before RESUMED"
    );
    stop_after_restart(bot).await;
}

#[tokio::test]
async fn with_serenitys_rate_limiter_on_a_429_is_waited_out_for_its_retry_after() {
    let bot = start_bot_with(FakeDiscord::http_with_rate_limiter, |_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    let retry_after = Duration::from_millis(1500);
    bot.fake
        .rate_limit("POST /channels/*/messages", 1, retry_after);
    let mark = bot.fake.mark();
    bot.clock.advance(Span::hours(60));
    let posted = posted_since(&bot, mark, GENERAL_CHANNEL).await;
    let tries: Vec<RecordedRequest> = bot
        .fake
        .requests()
        .into_iter()
        .skip(mark)
        .filter(|r| posts_to(GENERAL_CHANNEL)(r))
        .collect();
    assert_eq!(tries.len(), 2, "the 429, then the post");
    assert_eq!(tries[0].status, 429);
    let waited = posted.received.duration_since(tries[0].received);
    assert!(waited >= retry_after, "tried again after {waited:?}");
    assert!(
        content(&posted).contains("reminder"),
        "{}",
        content(&posted)
    );
    assert_eq!(
        bot.fake
            .channel_messages(GENERAL_CHANNEL)
            .iter()
            .filter(|m| m["content"]
                .as_str()
                .is_some_and(|c| c.contains("reminder")))
            .count(),
        1
    );
    bot.finish_expecting(|r| r.injected).await;
}

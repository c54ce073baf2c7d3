//! Rate limits through an operator's Discord proxy, end to end through serenity: a 429 that
//! comes through is waited out for the time Discord gave (the body's `retry_after`, for the
//! route or, when global, for every route), inside the request, so the notice goes out
//! without the delivery worker's backoff; one whose wait outlasts the request's timeout is
//! passed on to that backoff; a global one holds no interaction answer; routes that share a
//! bucket are held to its limit together, so none draws a 429.

use std::time::Duration;

use chrono::Duration as Span;
use poise::serenity_prelude as serenity;

use crate::discord_delivery::{posted_since, posts_to};
use crate::support::bot::*;
use crate::support::fake_discord::*;
use crate::support::BotHttp;

/// The reminder posts to `GENERAL_CHANNEL` after `mark`, the last one the one that went out.
fn tries_since(bot: &Bot, mark: usize) -> Vec<RecordedRequest> {
    bot.fake
        .requests()
        .into_iter()
        .skip(mark)
        .filter(|r| posts_to(GENERAL_CHANNEL)(r))
        .collect()
}

/// A match in `GENERAL_CHANNEL` whose reminder falls due now, with `failure` injected once on
/// posting it; the bot's clock is not moved again, so the delivery worker's backoff (on that
/// clock) never passes: only a wait inside the request gets the reminder out.
async fn reminder_after(failure: Failure) -> (Bot, Vec<RecordedRequest>) {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    bot.fake.inject("POST /channels/*/messages", 1, failure);
    let mark = bot.fake.mark();
    bot.clock.advance(Span::hours(60));
    let posted = posted_since(&bot, mark, GENERAL_CHANNEL).await;
    assert!(
        content(&posted).contains("reminder"),
        "{}",
        content(&posted)
    );
    let tries = tries_since(&bot, mark);
    (bot, tries)
}

#[tokio::test]
async fn through_a_proxy_a_429_is_waited_out_for_its_retry_after() {
    let retry_after = Duration::from_millis(1500);
    let (bot, tries) = reminder_after(Failure::RateLimited {
        retry_after,
        global: false,
    })
    .await;
    assert_eq!(tries.len(), 2, "the 429, then the post");
    assert_eq!(tries[0].status, 429);
    let waited = tries[1].received.duration_since(tries[0].received);
    assert!(waited >= retry_after, "tried again after {waited:?}");
    // One reminder: the 429 made nothing.
    let reminders = bot
        .fake
        .channel_messages(GENERAL_CHANNEL)
        .iter()
        .filter(|m| {
            m["content"]
                .as_str()
                .is_some_and(|c| c.contains("reminder"))
        })
        .count();
    assert_eq!(reminders, 1);
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn through_a_proxy_a_global_429_is_waited_out_too() {
    let retry_after = Duration::from_millis(1200);
    let (bot, tries) = reminder_after(Failure::RateLimited {
        retry_after,
        global: true,
    })
    .await;
    assert_eq!(tries.len(), 2, "the 429, then the post");
    assert_eq!(
        tries[0]
            .response_headers
            .iter()
            .find(|(n, _)| n == "x-ratelimit-global"),
        Some(&("x-ratelimit-global".to_string(), "true".to_string())),
        "the fake said it was global"
    );
    let waited = tries[1].received.duration_since(tries[0].received);
    assert!(waited >= retry_after, "tried again after {waited:?}");
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn a_429_longer_than_a_request_may_wait_goes_to_the_delivery_backoff_and_nothing_is_sent_into_it(
) {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    // As long as the bot's 10-second request timeout: not waited out inside one request.
    let retry_after = Duration::from_secs(10);
    bot.fake
        .rate_limit("POST /channels/*/messages", 1, retry_after);
    let mark = bot.fake.mark();
    bot.clock.advance(Span::hours(60));
    // The worker tries again on its backoff (its clock moved on quickly here), but nothing
    // reaches Discord on that route until the time Discord gave has passed.
    let deadline = tokio::time::Instant::now() + retry_after + WAIT;
    while !tries_since(&bot, mark)
        .iter()
        .any(|r| (200..300).contains(&r.status))
    {
        assert!(tokio::time::Instant::now() < deadline, "never posted");
        bot.clock.advance(Span::seconds(5));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let tries = tries_since(&bot, mark);
    let seen: Vec<String> = tries.iter().map(RecordedRequest::summary).collect();
    assert_eq!(tries.len(), 2, "the 429, then the post: {seen:#?}");
    assert_eq!(tries[0].status, 429);
    let waited = tries[1].received.duration_since(tries[0].received);
    assert!(waited >= retry_after, "tried again after {waited:?}");
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn a_global_429_holds_no_interaction_answer_which_discord_exempts() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    let retry_after = Duration::from_secs(4);
    bot.fake.inject(
        "POST /channels/*/messages",
        1,
        Failure::RateLimited {
            retry_after,
            global: true,
        },
    );
    let mark = bot.fake.mark();
    bot.clock.advance(Span::hours(60));
    let limited = bot
        .fake
        .wait_for_since(mark, |r| r.status == 429, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // While every other request waits out the global limit, a player's command is answered
    // at once: Discord exempts interaction answers, and they have 3 seconds.
    let answer = bot
        .say(SlashCommand::thud("games").by(BOB).in_channel(THUD_CHANNEL))
        .await;
    assert!(answer.is_ephemeral(), "{}", answer.summary());
    let waited = answer.received.duration_since(limited.received);
    // Held, it would wait the four seconds out (and miss Discord's three).
    assert!(waited < Duration::from_secs(2), "answered after {waited:?}");
    // The reminder goes out once the wait is over.
    let posted = posted_since(&bot, mark, GENERAL_CHANNEL).await;
    assert!(posted.received.duration_since(limited.received) >= retry_after);
    bot.finish_expecting(|r| r.injected).await;
}

/// Posts and edits in one channel, `writes` of each, all at once, through `http`; every one
/// must succeed.
async fn posts_and_edits_at_once(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    message: serenity::MessageId,
    writes: usize,
) {
    let posts = (0..writes)
        .map(|i| async move { channel.say(http, format!("post {i}")).await.map(|_| ()) });
    let edits = (0..writes).map(|i| async move {
        let edit = serenity::EditMessage::new().content(format!("edit {i}"));
        channel.edit_message(http, message, edit).await.map(|_| ())
    });
    let (posted, edited) = tokio::join!(
        futures_util::future::join_all(posts),
        futures_util::future::join_all(edits)
    );
    for result in posted.into_iter().chain(edited) {
        result.expect("every write succeeds");
    }
}

#[tokio::test]
async fn posts_and_edits_sharing_a_bucket_are_held_to_its_limit_and_draw_no_429() {
    let fake = FakeDiscord::start().await;
    // Two writes a second in a channel, posts and edits counted together.
    let window = Duration::from_secs(1);
    fake.enforce_rate_limits(2, window);
    let http = fake.http();
    let general = serenity::ChannelId::new(GENERAL_CHANNEL);
    // The limiter learns a route's bucket from its first answer: one post and one edit.
    let first = general.say(&http, "first").await.expect("posted");
    let edit = serenity::EditMessage::new().content("first, edited");
    general
        .edit_message(&http, first.id, edit)
        .await
        .expect("edited");
    let learned = fake.requests();
    let buckets: Vec<_> = learned
        .iter()
        .map(|r| r.response_header("x-ratelimit-bucket").map(str::to_string))
        .collect();
    assert_eq!(buckets.len(), 2);
    assert!(
        buckets[0].is_some() && buckets[0] == buckets[1],
        "{buckets:?}"
    );
    tokio::time::sleep(window).await;

    let mark = fake.mark();
    posts_and_edits_at_once(&http, general, first.id, 4).await;
    let burst: Vec<RecordedRequest> = fake.requests().into_iter().skip(mark).collect();
    let seen: Vec<String> = burst.iter().map(RecordedRequest::summary).collect();
    assert_eq!(burst.len(), 8, "each write sent once: {seen:#?}");
    assert!(burst.iter().all(|r| r.status == 200), "{seen:#?}");
    assert_eq!(fake.channel_messages(GENERAL_CHANNEL).len(), 5);
}

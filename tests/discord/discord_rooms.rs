//! The threads matches are played in, when Discord does not simply open them: a creation whose
//! answer was lost made the thread, and the bot plays in it rather than open a second; a server
//! at its limit of active threads is told so, not to grant permissions it already gave; and
//! Discord's passing trouble is tried again without a word to anyone; and a thread made though
//! its answer was lost, where the bot found no thread then, is closed by the outbox later.

use std::time::Duration;

use chrono::Duration as Span;

use crate::discord_delivery::{posts_to, stored_match};
use crate::discord_threads::outbox_settled;
use crate::discord_tournament::{round_matches, swiss_started};
use crate::support::bot::*;
use crate::support::fake_discord::*;
use crate::support::BotHttp;

/// Every message the bot posted since `mark` (channels, threads and DMs), as text.
fn posted_since(bot: &Bot, mark: usize) -> Vec<String> {
    bot.fake
        .requests()
        .iter()
        .skip(mark)
        .filter(|r| r.method == "POST" && r.path.ends_with("/messages"))
        .map(|r| content(r).to_string())
        .collect()
}

/// The threads the bot opened (those whose creation Discord carried out).
fn threads_opened(bot: &Bot) -> Vec<u64> {
    bot.fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/threads"))
        .filter_map(|r| snowflake(&r.response.clone()?["id"]))
        .collect()
}

/// Moves the bot's clock on, a minute at a time, until both games of round 1 have their
/// threads and matches.
async fn until_both_games_seated(bot: &Bot) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while threads_opened(bot).len() < 2 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the games were not seated"
        );
        bot.clock.advance(Span::minutes(1));
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(round_matches(bot, 1, 2).await.len(), 2);
}

#[tokio::test]
async fn a_thread_made_though_its_answer_was_lost_is_played_in_and_not_made_twice() {
    let timeout = Duration::from_secs(3);
    let bot = start_bot_with(|fake| fake.http_with_timeout(timeout), |o| o.threads = true).await;
    // Discord opens the thread, but its answer never comes: the request times out.
    bot.fake.lose_answer("POST /channels/*/threads", 1);
    let mark = bot.fake.mark();
    start_match(&bot, GENERAL_CHANNEL).await;
    bot.fake
        .wait_for_since(mark, |r| r.path.ends_with("/threads") && r.injected, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let threads = threads_opened(&bot);
    assert_eq!(threads.len(), 1, "one thread was made");
    // The match is played in it: its opening board is posted there.
    bot.fake
        .wait_for_since(mark, posts_to(threads[0]), WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let m = stored_match(&bot, threads[0]).await;
    assert_eq!(m.channel.0, threads[0]);
    assert_eq!(threads_opened(&bot).len(), 1, "no second thread");
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn a_thread_made_though_its_answer_was_lost_and_not_found_then_is_closed_by_the_outbox() {
    let timeout = Duration::from_secs(3);
    let bot = start_bot_with(|fake| fake.http_with_timeout(timeout), |o| o.threads = true).await;
    // Discord opens the thread but its answer is lost, and the look through the server's
    // active threads that follows fails for the moment too.
    bot.fake.lose_answer("POST /channels/*/threads", 1);
    bot.fake
        .fail_with_status("GET /guilds/*/threads/active", 1, 502);
    let mark = bot.fake.mark();
    start_match(&bot, GENERAL_CHANNEL).await;
    let threads = threads_opened(&bot);
    assert_eq!(threads.len(), 1, "one thread was made");
    // The match is played in the channel, as where no thread opens: the accept's answer,
    // there, shows its board.
    bot.fake
        .wait_for_since(
            mark,
            |r| r.method == "POST" && r.path.starts_with("/webhooks/"),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let m = stored_match(&bot, GENERAL_CHANNEL).await;
    assert_eq!(m.channel.0, GENERAL_CHANNEL);
    // The outbox's record of the thread wanted falls due: it looks again, finds the thread
    // Discord made, and closes it, since nothing lives in it.
    let thread = threads[0];
    bot.wait_advancing(mark, Span::seconds(5), "the empty thread closed", |r| {
        r.method == "PATCH"
            && r.path == format!("/channels/{thread}")
            && (200..300).contains(&r.status)
            && r.json()["archived"] == true
    })
    .await;
    assert!(bot.fake.thread_is_archived(thread));
    assert_eq!(threads_opened(&bot).len(), 1, "no second thread");
    let m = stored_match(&bot, GENERAL_CHANNEL).await;
    assert!(m.trouble.is_none(), "{m:?}");
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn a_server_at_its_limit_of_active_threads_is_told_so_once_then_its_games_are_seated() {
    let bot = start_bot(|o| o.threads = true).await;
    bot.fake.set_active_thread_limit(0);
    let mark = bot.fake.mark();
    swiss_started(&bot, &[ALICE, BOB, CAROL, VETINARI]).await;
    let told = bot
        .fake
        .wait_for_since(
            mark,
            |r| r.method == "POST" && content(r).contains("could not start"),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let text = content(&told);
    assert!(
        text.contains("as many active threads as Discord allows")
            && !text.contains("Create Public Threads"),
        "{text}"
    );
    // Both games are tried again after their pause, still in vain.
    let deadline = tokio::time::Instant::now() + WAIT;
    while bot.fake.refused_with(160006).len() < 4 {
        assert!(tokio::time::Instant::now() < deadline, "not tried again");
        bot.clock.advance(Span::minutes(1));
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // Threads are archived elsewhere: the games are seated after their pause.
    bot.fake.set_active_thread_limit(1000);
    until_both_games_seated(&bot).await;
    outbox_settled(&bot).await;
    // Each game's trouble was told once: in the channel, and by direct message to the
    // organiser and its two players.
    let notices = posted_since(&bot, mark)
        .iter()
        .filter(|t| t.contains("could not start"))
        .count();
    assert_eq!(notices, 2 * 4);
    bot.finish_expecting(|r| r.error_code() == Some(160006))
        .await;
}

#[tokio::test]
async fn discords_passing_trouble_opening_a_games_thread_is_tried_again_without_a_word() {
    let bot = start_bot(|o| o.threads = true).await;
    bot.fake
        .fail_with_status("POST /channels/*/threads", 2, 503);
    let mark = bot.fake.mark();
    swiss_started(&bot, &[ALICE, BOB, CAROL, VETINARI]).await;
    until_both_games_seated(&bot).await;
    assert_eq!(bot.fake.injected_failures().len(), 2);
    let told: Vec<String> = posted_since(&bot, mark)
        .into_iter()
        .filter(|t| t.contains("could not start") || t.contains("grant"))
        .collect();
    assert_eq!(told, Vec::<String>::new());
    bot.finish_expecting(|r| r.injected).await;
}

//! Analysis end to end through serenity: refused privately while the match is in play; the
//! Analyse button on the result starts it, a progress message of the bot's own is posted and
//! edited into the report with its graph; `/thud analysis` then answers with the report. The
//! report is fitted to the bot's permissions, one progress message is posted however many
//! press at once, and a message Discord no longer has is not edited again. The progress
//! message and the report go through the outbox: a post Discord fails for the moment, or whose
//! answer is lost, is tried again (with its nonce) and shown once.

use std::time::Duration;

use chrono::Duration as Span;

use crate::support::bot::*;
use crate::support::fake_discord::*;
use crate::support::BotHttp;

#[tokio::test]
async fn the_analyse_button_posts_progress_then_the_report_and_the_command_shows_it() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, THUD_CHANNEL).await;
    for (mv, by) in [("dA7-F7", ALICE), ("TG8-F8xF7", BOB)] {
        bot.say(
            SlashCommand::thud("play")
                .option("notation", mv)
                .in_channel(THUD_CHANNEL)
                .by(by),
        )
        .await;
    }

    // During the match: refused, privately, and nothing is posted.
    let refused = bot
        .say(
            SlashCommand::thud("analysis")
                .group("review")
                .option("match", 1i64)
                .in_channel(THUD_CHANNEL)
                .by(CAROL),
        )
        .await;
    assert!(refused.is_ephemeral());
    assert!(
        content(&refused).contains("Match #1 is still in play"),
        "{}",
        content(&refused)
    );

    let (prompt, _) = bot
        .command(SlashCommand::thud("resign").in_channel(THUD_CHANNEL))
        .await;
    let (confirm, _) = bot
        .press(ALICE, bot.message_id(&prompt).await, "thud:resign:")
        .await;
    let result = bot.followup(&confirm).await;
    assert!(
        custom_ids(&result).iter().any(|id| id == "thud:analyse:1"),
        "{}",
        result.summary()
    );
    let result_id = snowflake(&result.response.clone().expect("a message")["id"]).expect("an id");

    // Anyone may ask: the answer is private, the progress is a message of its own.
    let (_, asked) = bot.press(CAROL, result_id, "thud:analyse:").await;
    assert!(asked.is_ephemeral(), "{}", asked.summary());
    assert!(
        content(&asked).contains("Analysing match #1"),
        "{}",
        content(&asked)
    );
    let messages = format!("/channels/{THUD_CHANNEL}/messages");
    let progress = bot
        .fake
        .wait_for(
            |r| {
                r.method == "POST"
                    && r.path == messages
                    && content(r).contains("Analysing match #1")
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        content(&progress).contains("of 3 positions judged"),
        "{}",
        content(&progress)
    );
    let progress_id =
        snowflake(&progress.response.clone().expect("a message")["id"]).expect("an id");

    // The progress message becomes the report, with the graph.
    let edited = format!("{messages}/{progress_id}");
    let report = bot
        .fake
        .wait_for(
            |r| {
                r.method == "PATCH"
                    && r.path == edited
                    && content(r).contains("Analysis of match #1")
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let text = content(&report);
    assert!(text.contains("Battle 1"), "{text}");
    assert!(text.contains("TG8-F8xF7"), "{text}");
    let graph = picture(&report);
    assert_eq!(graph.width(), thudbot::render::graph::WIDTH);

    // Asked again, the analysis is not made again: the report comes at once, in public.
    let again = bot
        .say(
            SlashCommand::thud("analysis")
                .group("review")
                .option("match", 1i64)
                .in_channel(THUD_CHANNEL),
        )
        .await;
    assert!(!again.is_ephemeral());
    assert!(
        content(&again).contains("Analysis of match #1"),
        "{}",
        content(&again)
    );
    picture(&again);
    let posts = bot
        .fake
        .requests()
        .iter()
        .filter(|r| r.method == "POST" && r.path == messages && content(r).contains("Analysing"))
        .count();
    assert_eq!(posts, 1);
    bot.finish().await;
}

/// Alice and Bob play two moves in #thud and Alice resigns: returns the result message, which
/// carries **Analyse**.
async fn finished_match(bot: &Bot) -> u64 {
    start_match(bot, THUD_CHANNEL).await;
    for (mv, by) in [("dA7-F7", ALICE), ("TG8-F8xF7", BOB)] {
        bot.say(
            SlashCommand::thud("play")
                .option("notation", mv)
                .in_channel(THUD_CHANNEL)
                .by(by),
        )
        .await;
    }
    let (prompt, _) = bot
        .command(SlashCommand::thud("resign").in_channel(THUD_CHANNEL))
        .await;
    let (confirm, _) = bot
        .press(ALICE, bot.message_id(&prompt).await, "thud:resign:")
        .await;
    let result = bot.followup(&confirm).await;
    snowflake(&result.response.clone().expect("a message")["id"]).expect("an id")
}

/// The first progress message posted in #thud since `mark`.
async fn progress_posted(bot: &Bot, mark: usize) -> RecordedRequest {
    let messages = format!("/channels/{THUD_CHANNEL}/messages");
    bot.fake
        .wait_for_since(
            mark,
            |r| r.method == "POST" && r.path == messages && content(r).contains("Analysing"),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The report, sent to #thud since `mark` (an edit, or a post of its own).
async fn report_sent(bot: &Bot, mark: usize, method: &str) -> RecordedRequest {
    let messages = format!("/channels/{THUD_CHANNEL}/messages");
    bot.fake
        .wait_for_since(
            mark,
            |r| {
                r.method == method
                    && r.path.starts_with(&messages)
                    && content(r).contains("Analysis of match #1")
            },
            WAIT * 2,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test]
async fn where_the_bot_may_not_attach_files_the_report_comes_as_text_saying_why() {
    let bot = start_bot(|_| {}).await;
    bot.fake
        .set_overwrite(
            THUD_CHANNEL,
            Overwrite::role(EVERYONE_ROLE, 0, permission::ATTACH_FILES),
        )
        .unwrap();
    let result = finished_match(&bot).await;
    let mark = bot.fake.mark();
    bot.press(CAROL, result, "thud:analyse:").await;
    let report = report_sent(&bot, mark, "PATCH").await;
    assert!((200..300).contains(&report.status), "{}", report.summary());
    assert!(report.attachments().is_empty(), "{}", report.summary());
    let text = content(&report);
    assert!(
        text.contains("Battle 1") && text.contains("Attach Files"),
        "{text}"
    );
    bot.finish().await;
}

#[tokio::test]
async fn two_presses_at_once_post_one_progress_message() {
    let bot = start_bot(|_| {}).await;
    let result = finished_match(&bot).await;
    let mark = bot.fake.mark();
    tokio::join!(
        bot.press(CAROL, result, "thud:analyse:"),
        bot.press(BOB, result, "thud:analyse:")
    );
    let progress = progress_posted(&bot, mark).await;
    let progress_id =
        snowflake(&progress.response.clone().expect("a message")["id"]).expect("an id");
    let report = report_sent(&bot, mark, "PATCH").await;
    assert!(report.path.ends_with(&progress_id.to_string()));
    let posted = bot
        .fake
        .requests()
        .iter()
        .skip(mark)
        .filter(|r| {
            r.method == "POST"
                && r.path == format!("/channels/{THUD_CHANNEL}/messages")
                && content(r).contains("Analysing")
        })
        .count();
    assert_eq!(posted, 1);
    bot.finish().await;
}

#[tokio::test]
async fn a_report_whose_message_was_deleted_is_posted_anew_and_not_tried_again() {
    let bot = start_bot(|_| {}).await;
    let result = finished_match(&bot).await;
    let mark = bot.fake.mark();
    bot.press(CAROL, result, "thud:analyse:").await;
    let progress = progress_posted(&bot, mark).await;
    let progress_id =
        snowflake(&progress.response.clone().expect("a message")["id"]).expect("an id");
    // A moderator deletes the progress message before it becomes the report. An edit that
    // finds it gone waits a growing pause on the bot's clock before the next.
    bot.fake.delete_message(progress_id).unwrap();
    let messages = format!("/channels/{THUD_CHANNEL}/messages");
    let is_report = |r: &RecordedRequest| {
        r.method == "POST" && r.path == messages && content(r).contains("Analysis of match #1")
    };
    let deadline = tokio::time::Instant::now() + WAIT * 2;
    while !bot.fake.requests().iter().skip(mark).any(is_report) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "no report was posted"
        );
        bot.clock.advance(chrono::Duration::seconds(30));
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let report = report_sent(&bot, mark, "POST").await;
    assert!((200..300).contains(&report.status), "{}", report.summary());
    picture(&report);
    // Discord's 10008 is final: the deleted message is not edited again.
    let after = bot.fake.mark();
    tokio::time::sleep(std::time::Duration::from_secs(4)).await;
    let edits = bot
        .fake
        .requests()
        .iter()
        .skip(after)
        .filter(|r| r.method == "PATCH" && r.path.ends_with(&progress_id.to_string()))
        .count();
    assert_eq!(
        edits, 0,
        "edits of a deleted message after its report was posted"
    );
    bot.finish_expecting(|r| r.error_code() == Some(10008))
        .await;
}

/// The report shown in #thud since `mark` (edited into the progress message, or posted),
/// waiting out the outbox's pauses before its next tries (they run on the bot's clock, a few
/// seconds at a time: Discord remembers a nonce for a few minutes only).
async fn report_after_retries(bot: &Bot, mark: usize) -> RecordedRequest {
    let messages = format!("/channels/{THUD_CHANNEL}/messages");
    bot.wait_advancing(mark, Span::seconds(5), "the report shown", |r| {
        (r.method == "PATCH" || r.method == "POST")
            && r.path.starts_with(&messages)
            && (200..300).contains(&r.status)
            && content(r).contains("Analysis of match #1")
    })
    .await
}

/// Asserts that one message in #thud shows the analysis to everyone, and that it is the
/// report (`seen`: what to say otherwise).
fn one_message_shows_the_report(bot: &Bot, seen: &[String]) {
    let shown = bot.fake.channel_messages(THUD_CHANNEL);
    let analysis: Vec<&str> = shown
        .iter()
        .filter(|m| m["flags"].as_u64().unwrap_or(0) & 64 == 0)
        .filter_map(|m| m["content"].as_str())
        .filter(|c| c.contains("Analysing match #1") || c.contains("Analysis of match #1"))
        .collect();
    assert_eq!(analysis.len(), 1, "{analysis:#?} {seen:#?}");
    assert!(
        analysis[0].contains("Analysis of match #1"),
        "{analysis:#?} {seen:#?}"
    );
}

#[tokio::test]
async fn a_progress_message_discord_fails_for_the_moment_is_tried_again_and_the_report_shown() {
    let bot = start_bot(|_| {}).await;
    let result = finished_match(&bot).await;
    let post = format!("POST /channels/{THUD_CHANNEL}/messages");
    bot.fake.fail_with_status(&post, 1, 502);
    let mark = bot.fake.mark();
    bot.press(CAROL, result, "thud:analyse:").await;
    let report = report_after_retries(&bot, mark).await;
    // The first try (of the progress, or of the report if the analysis was done by then)
    // failed; the next showed the analysis as it then stood: one message shows it, the report.
    let messages = format!("/channels/{THUD_CHANNEL}/messages");
    let first = bot
        .fake
        .requests()
        .into_iter()
        .skip(mark)
        .find(|r| r.method == "POST" && r.path == messages)
        .expect("a post");
    assert!(first.injected && first.status == 502, "{}", first.summary());
    assert!(report.seq > first.seq);
    one_message_shows_the_report(&bot, &[]);
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn a_progress_message_whose_answer_was_lost_is_posted_once_and_becomes_the_report() {
    let timeout = Duration::from_secs(3);
    let bot = start_bot_with(|fake| fake.http_with_timeout(timeout), |_| {}).await;
    let result = finished_match(&bot).await;
    // Discord posts the progress message, but its answer never comes: the request times out.
    let post = format!("POST /channels/{THUD_CHANNEL}/messages");
    bot.fake.lose_answer(&post, 1);
    let mark = bot.fake.mark();
    bot.press(CAROL, result, "thud:analyse:").await;
    report_after_retries(&bot, mark).await;
    // Tried again with the same nonce (the analysis had finished meanwhile, so as the
    // report's first message), the post returned the message made, which became the report.
    let messages = format!("/channels/{THUD_CHANNEL}/messages");
    let posts: Vec<RecordedRequest> = bot
        .fake
        .requests()
        .into_iter()
        .skip(mark)
        .filter(|r| r.method == "POST" && r.path == messages)
        .collect();
    let seen: Vec<String> = posts.iter().map(RecordedRequest::summary).collect();
    assert!(posts.len() >= 2, "{seen:#?}");
    assert!(
        content(&posts[0]).contains("Analysing match #1"),
        "{seen:#?}"
    );
    assert_eq!(
        posts[0].json()["nonce"],
        posts[1].json()["nonce"],
        "{seen:#?}"
    );
    one_message_shows_the_report(&bot, &seen);
    bot.finish_expecting(|r| r.injected).await;
}

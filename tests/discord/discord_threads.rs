//! End to end through serenity, for the threads the bot opens for matches: a thread is closed
//! only when nothing lives in it any more (a rematch asked for or played in it, an analysis
//! still being shown in it), the bot's own archive is never taken for a moderator's, and an
//! analysis whose thread was archived under it is shown there all the same.

use std::time::Duration;

use chrono::Duration as Span;
use thudbot::store::NoticeState;

use crate::discord_delivery::{stored_match, thread_match};
use crate::support::bot::*;
use crate::support::fake_discord::*;

/// Waits until the outbox has nothing left to send now (the bot works on its own schedule).
pub(crate) async fn outbox_settled(bot: &Bot) {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let notices = bot.service.store().all_notices().await.unwrap();
        if notices.iter().all(|n| n.state != NoticeState::Pending) {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "notices still pending: {notices:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The bot's requests since `mark` that archived `thread`.
fn archives_since(bot: &Bot, mark: usize, thread: u64) -> usize {
    bot.fake
        .requests()
        .into_iter()
        .skip(mark)
        .filter(|r| {
            r.method == "PATCH"
                && r.path == format!("/channels/{thread}")
                && r.json()["archived"] == true
        })
        .count()
}

/// Waits until `thread` is archived.
async fn until_archived(bot: &Bot, thread: u64) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !bot.fake.thread_is_archived(thread) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the thread was not archived"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Alice and Bob play two moves in `thread`, the second a capture (enough for an analysis
/// with something to judge).
async fn capture_played(bot: &Bot, thread: u64) {
    for (mv, by) in [("dA7-F7", ALICE), ("TG8-F8xF7", BOB)] {
        bot.say(
            SlashCommand::thud("play")
                .option("notation", mv)
                .in_channel(thread)
                .by(by),
        )
        .await;
    }
}

/// `who`, commanding the dwarfs at a battle's start, opens with dF1-F5 in `channel`.
async fn opening_move(bot: &Bot, who: TestUser, channel: u64) {
    let moved = bot
        .say(
            SlashCommand::thud("play")
                .option("notation", "dF1-F5")
                .in_channel(channel)
                .by(who),
        )
        .await;
    assert!(!moved.is_ephemeral(), "{}", moved.summary());
}

/// `loser` resigns the match in `channel`; returns the id of the result message, which
/// carries **Rematch** and **Analyse** (once the loser has moved: resigning before one's first
/// move aborts the match, with no result).
async fn resign(bot: &Bot, loser: TestUser, channel: u64) -> u64 {
    let (prompt, _) = bot
        .command(SlashCommand::thud("resign").by(loser).in_channel(channel))
        .await;
    let (confirm, _) = bot
        .press(loser, bot.message_id(&prompt).await, "thud:resign:")
        .await;
    let result = bot.followup(&confirm).await;
    snowflake(&result.response.clone().expect("a message")["id"]).expect("an id")
}

#[tokio::test]
async fn a_rematch_played_in_a_finished_matchs_thread_keeps_it_open_until_it_ends() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = thread_match(&bot, None).await;
    opening_move(&bot, ALICE, thread).await;
    let result = resign(&bot, ALICE, thread).await;
    // Bob asks for a rematch in the thread and Alice accepts: match #2 is played there.
    let (asked, _) = bot.press(BOB, result, "thud:rematch:").await;
    let challenge = bot.message_id(&asked).await;
    bot.press(ALICE, challenge, "thud:accept:").await;
    let rematch = stored_match(&bot, thread).await;
    assert_eq!(rematch.id.0, 2);

    // Match #1's close falls due while #2 is played in its thread: the thread stays open.
    let mark = bot.fake.mark();
    bot.clock.advance(Span::minutes(3));
    outbox_settled(&bot).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(archives_since(&bot, mark, thread), 0);
    assert!(!bot.fake.thread_is_archived(thread));

    // Once the rematch is over too, nothing lives in the thread: it is closed, and nobody is
    // told that a moderator closed it.
    opening_move(&bot, BOB, thread).await;
    resign(&bot, BOB, thread).await;
    bot.clock.advance(Span::minutes(3));
    until_archived(&bot, thread).await;
    assert_eq!(archives_since(&bot, mark, thread), 1);
    let m = stored_match(&bot, thread).await;
    assert!(m.trouble.is_none(), "{m:?}");
    assert!(bot
        .fake
        .channel_messages(GENERAL_CHANNEL)
        .iter()
        .all(|m| !m["content"].as_str().unwrap_or("").contains("paused")));
    bot.finish().await;
}

#[tokio::test]
async fn an_analysis_asked_for_in_a_finished_matchs_thread_is_shown_before_the_thread_closes() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = thread_match(&bot, None).await;
    capture_played(&bot, thread).await;
    let result = resign(&bot, ALICE, thread).await;
    let mark = bot.fake.mark();
    bot.press(CAROL, result, "thud:analyse:").await;
    // The thread's close falls due while the analysis is under way.
    bot.clock.advance(Span::minutes(3));

    // The report is shown in the thread: Discord takes the edit of the progress message (no
    // 50083, as it would in an archived thread), or the post of the report where the analysis
    // was done before its progress was shown.
    let report = bot
        .fake
        .wait_for_since(
            mark,
            |r| {
                (r.method == "PATCH" || r.method == "POST")
                    && r.path.starts_with(&format!("/channels/{thread}/messages"))
                    && content(r).contains("Analysis of match #1")
            },
            WAIT * 2,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!((200..300).contains(&report.status), "{}", report.summary());
    // Then the thread is closed, once the report had time to be read (its close is queued
    // once the edit's answer is in, on the bot's own schedule).
    let deadline = tokio::time::Instant::now() + WAIT;
    while !bot.fake.thread_is_archived(thread) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the thread was not archived"
        );
        bot.clock.advance(Span::minutes(1));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(archives_since(&bot, mark, thread), 1);
    bot.finish().await;
}

#[tokio::test]
async fn an_analysis_whose_thread_a_moderator_archived_is_still_reported_there() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = thread_match(&bot, None).await;
    capture_played(&bot, thread).await;
    let result = resign(&bot, ALICE, thread).await;
    // Discord fails every edit in the thread for now, so the analysis finishes with its
    // report still to show.
    let edits = format!("PATCH /channels/{thread}/messages/*");
    bot.fake.fail_with_status(&edits, 1000, 502);
    let mark = bot.fake.mark();
    bot.press(CAROL, result, "thud:analyse:").await;
    let in_thread = format!("/channels/{thread}/messages/");
    let is_report = |r: &RecordedRequest| {
        r.method == "PATCH"
            && r.path.starts_with(&in_thread)
            && content(r).contains("Analysis of match #1")
    };
    // The progress edits fail too; the pauses before their next tries run on the bot's clock.
    let failed = bot
        .wait_advancing(mark, Span::seconds(30), "a report tried", is_report)
        .await;
    assert!(failed.injected, "{}", failed.summary());
    // Meanwhile a moderator archives the thread; then Discord takes edits again.
    bot.fake.archive_thread(thread).unwrap();
    bot.fake.clear_failures();
    let after = failed.seq + 1;
    bot.wait_advancing(after, Span::seconds(30), "the report shown", |r| {
        is_report(r) && (200..300).contains(&r.status)
    })
    .await;
    // The edit found the thread archived (50083), and the bot opened it again to show it.
    let since: Vec<RecordedRequest> = bot.fake.requests().into_iter().skip(after).collect();
    assert!(since.iter().any(|r| r.error_code() == Some(50083)));
    assert!(since.iter().any(|r| r.method == "PATCH"
        && r.path == format!("/channels/{thread}")
        && r.json()["archived"] == false
        && (200..300).contains(&r.status)));
    bot.finish_expecting(|r| r.injected || r.error_code() == Some(50083))
        .await;
}

#[tokio::test]
async fn a_rematch_asked_for_in_a_finished_matchs_thread_keeps_it_open_until_it_is_answered() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = thread_match(&bot, None).await;
    opening_move(&bot, ALICE, thread).await;
    let result = resign(&bot, ALICE, thread).await;
    // Bob asks for a rematch in the thread; Alice takes her time to answer.
    let (asked, _) = bot.press(BOB, result, "thud:rematch:").await;
    let challenge = bot.message_id(&asked).await;
    let mark = bot.fake.mark();
    bot.clock.advance(Span::minutes(3));
    outbox_settled(&bot).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(archives_since(&bot, mark, thread), 0);
    assert!(!bot.fake.thread_is_archived(thread));

    // She declines: nothing lives in the thread any more, and it is closed in turn.
    bot.press(ALICE, challenge, "thud:decline:").await;
    bot.clock.advance(Span::minutes(3));
    until_archived(&bot, thread).await;
    assert_eq!(archives_since(&bot, mark, thread), 1);
    bot.finish().await;
}

#[tokio::test]
async fn a_thread_discord_archives_early_in_a_busy_server_is_reopened_and_its_match_goes_on() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = thread_match(&bot, None).await;
    let mark = bot.fake.mark();
    bot.fake.archive_thread(thread).unwrap();
    crate::discord_away::reopened_since(&bot, mark, thread).await;
    // Half an hour later, near its limit of active threads, Discord archives it again (its
    // lowered timer, not a person): reopened again, and nobody's match is paused.
    bot.clock.advance(Span::minutes(30));
    bot.fake.advance(Duration::from_secs(30 * 60));
    let mark = bot.fake.mark();
    bot.fake.archive_thread(thread).unwrap();
    crate::discord_away::reopened_since(&bot, mark, thread).await;
    let m = stored_match(&bot, thread).await;
    assert_eq!((m.trouble, m.clock.unwrap().paused_at), (None, None));
    assert!(!bot.fake.thread_is_archived(thread));
    bot.finish().await;
}

#[tokio::test]
async fn reopening_a_thread_discord_fails_for_the_moment_is_tried_again_and_the_match_goes_on() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = thread_match(&bot, None).await;
    let reopen = format!("PATCH /channels/{thread}");
    bot.fake.fail_with_status(&reopen, 1, 502);
    let mark = bot.fake.mark();
    bot.fake.archive_thread(thread).unwrap();
    // The first try fails; the outbox tries again after its pause (on the bot's clock).
    let deadline = tokio::time::Instant::now() + WAIT * 2;
    while bot.fake.thread_is_archived(thread) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the thread was never reopened"
        );
        bot.clock.advance(Span::seconds(5));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let path = format!("/channels/{thread}");
    let tries: Vec<RecordedRequest> = bot
        .fake
        .requests()
        .into_iter()
        .skip(mark)
        .filter(|r| r.method == "PATCH" && r.path == path)
        .collect();
    let seen: Vec<String> = tries.iter().map(RecordedRequest::summary).collect();
    assert_eq!(tries.len(), 2, "{seen:#?}");
    assert!(tries[0].injected && tries[0].status == 502, "{seen:#?}");
    assert!((200..300).contains(&tries[1].status), "{seen:#?}");
    let m = stored_match(&bot, thread).await;
    assert_eq!((m.trouble, m.clock.unwrap().paused_at), (None, None));
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn a_thread_discord_will_not_let_the_bot_reopen_pauses_its_match() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = thread_match(&bot, None).await;
    bot.fake
        .fail_with_status(&format!("PATCH /channels/{thread}"), 1, 403);
    bot.fake.archive_thread(thread).unwrap();
    // Nobody loses on time in a thread they cannot use: the match waits, saying why.
    let deadline = tokio::time::Instant::now() + WAIT;
    let m = loop {
        let m = stored_match(&bot, thread).await;
        if m.trouble.is_some() {
            break m;
        }
        assert!(tokio::time::Instant::now() < deadline, "never paused");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(m.clock.unwrap().paused_at.is_some());
    assert!(bot.fake.thread_is_archived(thread));
    bot.finish_expecting(|r| r.injected).await;
}

//! End to end through serenity, for servers as people configure them: channels where the bot
//! may not attach files or post, defers that fail, requests that never answer, threads
//! raced by two accepts.

use crate::support::BotHttp;
use std::time::Duration;

use chrono::Duration as Span;

use crate::discord_away::reopened_since;
use crate::discord_delivery::{
    first_move_announced_since, posted_since, posts_to, reminders_in, stored_match,
};
use crate::support::bot::*;
use crate::support::fake_discord::*;

/// @everyone may not attach files in `channel`, as in many chat channels.
fn deny_everyone_files(bot: &Bot, channel: u64) {
    bot.fake
        .set_overwrite(
            channel,
            Overwrite::role(EVERYONE_ROLE, 0, permission::ATTACH_FILES),
        )
        .unwrap();
}

/// The first move of a match, ALICE's dwarf F1-F5.
fn first_move() -> SlashCommand {
    SlashCommand::thud("move")
        .option("from", "F1")
        .option("to", "F5")
}

/// ALICE challenges BOB (ALICE commanding the dwarfs first) here.
fn challenge_bob() -> SlashCommand {
    SlashCommand::thud("challenge")
        .option("opponent", BOB)
        .option("side", 0i64)
}

/// How many files a request carried.
fn files_of(request: &RecordedRequest) -> usize {
    request.attachments().len()
}

#[tokio::test]
async fn a_move_whose_defer_fails_is_saved_and_reaches_the_channel() {
    // The answer is deferred at once, and Discord fails the defer.
    let bot = start_bot(|o| o.defer_after = Duration::ZERO).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    bot.fake
        .fail_with_status("POST /interactions/*/*/callback", 1, 500);
    let mark = bot.fake.mark();
    bot.fake
        .run_command(&first_move())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // The move was still played, and the channel hears of it through the outbox.
    first_move_announced_since(&bot, mark).await;
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn where_the_bot_may_not_attach_files_boards_are_text_and_no_match_pauses() {
    // A chat channel where @everyone may not attach files: the bot's role does not help.
    let bot = start_bot(|o| o.defer_after = Duration::ZERO).await;
    deny_everyone_files(&bot, GENERAL_CHANNEL);
    // The match's opening board is text, and the players are told once what to grant.
    let opening = start_match(&bot, GENERAL_CHANNEL).await;
    assert_eq!(files_of(&opening), 0);
    let text = content(&opening);
    assert!(
        text.contains("```") && text.contains("Attach Files"),
        "{text}"
    );

    // A deferred move is answered by editing the original response, with the text board.
    let (sent, deferred) = bot.command(first_move()).await;
    assert_eq!(deferred.interaction_response_type(), Some(5));
    let answer = bot.followup(&sent).await;
    assert_eq!(answer.method, "PATCH", "{}", answer.summary());
    assert!((200..300).contains(&answer.status), "{}", answer.summary());
    assert_eq!(files_of(&answer), 0);
    let text = content(&answer);
    assert!(
        text.contains("plays `dF1-F5`") && text.contains("```"),
        "{text}"
    );
    assert!(
        !text.contains("Attach Files"),
        "the hint is given once: {text}"
    );
    assert_eq!(answer.pinged_users(), [BOB.id]);
    assert!(stored_match(&bot, GENERAL_CHANNEL).await.trouble.is_none());

    // A replay says plainly what is missing.
    let (sent, _) = bot
        .command(SlashCommand::thud("replay").group("review"))
        .await;
    let replay = bot.followup(&sent).await;
    assert_eq!(files_of(&replay), 0);
    assert!(
        content(&replay).contains("Attach Files"),
        "{}",
        content(&replay)
    );
    bot.finish().await;
}

/// ALICE plays the computer (level 1, ALICE the dwarfs) in #general.
async fn play_the_computer(bot: &Bot) {
    bot.say(
        SlashCommand::thud("challenge")
            .option("opponent", THUDBOT)
            .option("side", 0i64)
            .option("level", 1i64),
    )
    .await;
}

/// ALICE moves in her match against the computer; returns the post of the computer's
/// answering move, made unasked through the outbox.
async fn computer_answers(bot: &Bot) -> RecordedRequest {
    let mark = bot.fake.mark();
    bot.command(first_move()).await;
    posted_since(bot, mark, GENERAL_CHANNEL).await
}

#[tokio::test]
async fn the_computers_moves_come_as_text_where_the_bot_may_not_attach_files() {
    let bot = start_bot(|_| {}).await;
    deny_everyone_files(&bot, GENERAL_CHANNEL);
    // The cache knows the channel's overwrites: nothing is refused.
    play_the_computer(&bot).await;
    let reply = computer_answers(&bot).await;
    assert_eq!(files_of(&reply), 0);
    assert!(content(&reply).contains("```"), "{}", content(&reply));
    assert!(bot.fake.refused_with(50013).is_empty());
    bot.finish().await;
}

#[tokio::test]
async fn a_notice_refused_for_its_picture_is_sent_as_text_when_the_cache_did_not_know() {
    let bot = start_bot(|_| {}).await;
    play_the_computer(&bot).await;
    // The overwrite is made while the bot hears nothing: its cache still grants files.
    bot.fake.lose_events(true);
    deny_everyone_files(&bot, GENERAL_CHANNEL);
    bot.fake.lose_events(false);
    let reply = computer_answers(&bot).await;
    assert_eq!(files_of(&reply), 0);
    assert!(content(&reply).contains("```"), "{}", content(&reply));
    let refused = bot.fake.refused_with(50013);
    assert_eq!(
        refused.len(),
        1,
        "the picture refused once, then the text taken"
    );
    assert!(posts_to(GENERAL_CHANNEL)(&refused[0]));
    assert!(stored_match(&bot, GENERAL_CHANNEL).await.trouble.is_none());
    bot.finish_expecting(|r| r.error_code() == Some(50013))
        .await;
}

#[tokio::test]
async fn a_challenge_where_the_bot_may_not_post_is_refused_up_front() {
    let bot = start_bot(|_| {}).await;
    bot.fake
        .deny_bot(GENERAL_CHANNEL, permission::SEND_MESSAGES)
        .unwrap();
    let refused = bot
        .say(SlashCommand::thud("challenge").option("opponent", BOB))
        .await;
    assert!(refused.is_ephemeral());
    assert!(
        content(&refused).contains("Send Messages"),
        "{}",
        content(&refused)
    );
    assert!(bot
        .service
        .store()
        .latest_match_in(thudbot::store::ChannelId(GENERAL_CHANNEL))
        .await
        .unwrap()
        .is_none());
    // Nothing was stored: the same challenge in #thud is the first.
    let made = bot
        .say(
            SlashCommand::thud("challenge")
                .option("opponent", BOB)
                .in_channel(THUD_CHANNEL),
        )
        .await;
    assert!(!made.is_ephemeral(), "{}", made.summary());
    // The bot loses the right to post in #thud before Bob accepts: the accept is refused, and
    // the challenge stays open.
    bot.fake
        .deny_bot(THUD_CHANNEL, permission::SEND_MESSAGES)
        .unwrap();
    let refused = bot
        .say(
            SlashCommand::thud("accept")
                .by(BOB)
                .in_channel(THUD_CHANNEL),
        )
        .await;
    assert!(refused.is_ephemeral());
    assert!(
        content(&refused).contains("Send Messages"),
        "{}",
        content(&refused)
    );
    assert!(bot
        .service
        .store()
        .latest_match_in(thudbot::store::ChannelId(THUD_CHANNEL))
        .await
        .unwrap()
        .is_none());
    bot.finish().await;
}

#[tokio::test]
async fn a_private_answer_is_deferred_privately_and_a_public_one_edited_in() {
    let bot = start_bot(|o| o.defer_after = Duration::ZERO).await;
    let (sent, deferred) = bot.command(SlashCommand::thud("games")).await;
    assert_eq!(deferred.interaction_response_type(), Some(5));
    assert!(deferred.is_ephemeral(), "{}", deferred.summary());
    let answer = bot.followup(&sent).await;
    assert_eq!(answer.method, "PATCH", "{}", answer.summary());
    // A public answer fills in its public "thinking…" (no followup standing in for it).
    let (sent, deferred) = bot
        .command(SlashCommand::thud("challenge").option("opponent", BOB))
        .await;
    assert!(!deferred.is_ephemeral());
    let answer = bot.followup(&sent).await;
    assert_eq!(answer.method, "PATCH", "{}", answer.summary());
    assert!(custom_ids(&answer)
        .iter()
        .any(|id| id.starts_with("thud:accept:")));
    bot.finish().await;
}

#[tokio::test]
async fn a_hung_request_holds_up_neither_other_channels_nor_its_own_notice() {
    // Long enough that a loaded machine (two builds on two cores) still posts #thud's reminder
    // well within it; short enough to keep the test quick.
    let timeout = Duration::from_secs(5);
    let bot = start_bot_with(|fake| fake.http_with_timeout(timeout), |_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    start_match(&bot, THUD_CHANNEL).await;
    let general = format!("POST /channels/{GENERAL_CHANNEL}/messages");
    bot.fake.hang(&general, 1);
    let mark = bot.fake.mark();
    bot.clock.advance(Span::hours(40));
    // #thud's reminder is posted while #general's request hangs.
    let thud = posted_since(&bot, mark, THUD_CHANNEL).await;
    let hung = bot
        .fake
        .wait_for_since(mark, |r| posts_to(GENERAL_CHANNEL)(r) && r.injected, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        thud.received < hung.received + timeout,
        "#thud waited for #general's hung request"
    );
    // The hung request times out and counts as a failure to try again: the reminder comes
    // once its retry falls due (the clock moves on until it does).
    let retried =
        |r: &RecordedRequest| posts_to(GENERAL_CHANNEL)(r) && (200..300).contains(&r.status);
    let deadline = tokio::time::Instant::now() + WAIT;
    let general = loop {
        if let Some(found) = bot
            .fake
            .requests()
            .into_iter()
            .skip(hung.seq + 1)
            .find(retried)
        {
            break found;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the reminder never came"
        );
        bot.clock.advance(Span::seconds(5));
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert!(
        content(&general).contains("reminder"),
        "{}",
        content(&general)
    );
    assert_eq!(reminders_in(&bot, GENERAL_CHANNEL), 1);
    bot.finish_expecting(|r| r.injected).await;
}

/// A notice queued while another channel's request already hangs is posted at once: the
/// worker takes up new notices while deliveries are under way, not after them.
#[tokio::test]
async fn a_notice_queued_while_another_channel_hangs_is_posted_at_once() {
    let timeout = Duration::from_secs(5);
    let bot = start_bot_with(|fake| fake.http_with_timeout(timeout), |_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    bot.fake
        .hang(&format!("POST /channels/{GENERAL_CHANNEL}/messages"), 1);
    let mark = bot.fake.mark();
    bot.clock.advance(Span::hours(40));
    let hung = bot
        .fake
        .wait_for_since(mark, |r| posts_to(GENERAL_CHANNEL)(r) && r.injected, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // Only now does #thud get a match, and then a reminder falls due there.
    start_match(&bot, THUD_CHANNEL).await;
    let mark = bot.fake.mark();
    bot.clock.advance(Span::hours(40));
    let thud = posted_since(&bot, mark, THUD_CHANNEL).await;
    assert!(
        thud.received < hung.received + timeout,
        "#thud's reminder waited for #general's hung request"
    );
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn two_accepts_racing_open_one_thread() {
    let bot = start_bot(|o| o.threads = true).await;
    let (sent, _) = bot.command(challenge_bob()).await;
    let message = bot.message_id(&sent).await;
    let mark = bot.fake.mark();
    // Bob presses Accept twice at once (a double tap, or two devices).
    let (first, second) = tokio::join!(
        bot.press(BOB, message, "thud:accept:"),
        bot.press(BOB, message, "thud:accept:")
    );
    assert!(first.1.status < 300 && second.1.status < 300);
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
    // The match opens in its thread; the other press was refused, with no thread of its own.
    bot.fake
        .wait_for_since(mark, posts_to(thread), WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let clicks = [first.0.clone(), second.0.clone()];
    bot.fake
        .wait_for_since(
            mark,
            |r| {
                r.is_ephemeral()
                    && clicks.iter().any(|click| {
                        r.webhook_token() == Some(click.token.as_str())
                            || r.interaction_callback()
                                .is_some_and(|(id, _)| id == click.id)
                    })
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("one press is told the challenge was answered: {e}"));
    let threads = bot
        .fake
        .requests()
        .into_iter()
        .skip(mark)
        .filter(|r| r.method == "POST" && r.path.ends_with("/threads"))
        .count();
    assert_eq!(threads, 1, "one thread for one match");
    bot.finish().await;
}

#[tokio::test]
async fn a_refused_challenge_to_the_computer_opens_no_thread() {
    let bot = start_bot(|o| o.threads = true).await;
    let mark = bot.fake.mark();
    let refused = bot
        .say(
            SlashCommand::thud("challenge")
                .option("opponent", THUDBOT)
                .option("rated", true),
        )
        .await;
    assert!(refused.is_ephemeral());
    assert!(bot
        .fake
        .requests()
        .into_iter()
        .skip(mark)
        .all(|r| !r.path.ends_with("/threads")));
    bot.finish().await;
}

#[tokio::test]
async fn thud_is_a_guild_command_that_user_installs_cannot_reach() {
    let bot = start_bot(|o| o.development_guild = None).await;
    for name in ["thud", "thud-admin"] {
        let command = bot
            .fake
            .commands(None)
            .into_iter()
            .find(|c| c["name"] == name)
            .unwrap_or_else(|| panic!("/{name} is not registered globally"));
        assert_eq!(
            command["integration_types"],
            serde_json::json!([0]),
            "{command}"
        );
        assert_eq!(command["contexts"], serde_json::json!([0]), "{command}");
    }
    // Even with User Install enabled, /thud cannot be used where the bot is not a member.
    bot.fake.enable_user_install();
    bot.fake.remove_bot_from_guild();
    let refused = bot.fake.run_command(&SlashCommand::thud("board")).await;
    assert!(
        matches!(refused, Err(FakeError::Rejected(_))),
        "{refused:?}"
    );
    bot.finish().await;
}

#[tokio::test]
async fn thud_shows_once_after_moving_between_a_development_guild_and_global() {
    // First run: in the development guild, and nothing global.
    let mut bot = start_bot(|_| {}).await;
    let names = |list: Vec<serde_json::Value>| -> Vec<String> {
        list.iter()
            .filter_map(|c| c["name"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(
        names(bot.fake.commands(Some(GUILD_ID))),
        ["thud", "thud-admin"]
    );
    bot.fake
        .wait_for(
            |r| r.method == "PUT" && r.path == format!("/applications/{APPLICATION_ID}/commands"),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(bot.fake.commands(None).is_empty());

    // The operator removes `development_guild`: the next run registers globally and removes
    // the guild's copy it registered before.
    let first = bot.running.take().expect("running");
    first.shutdown().await.expect("stopped");
    bot.fake
        .wait_until_disconnected(WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let mark = bot.fake.mark();
    let options = thudbot::discord::BotOptions {
        development_guild: None,
        threads: false,
        clock_interval: Duration::from_millis(50),
        shards: thudbot::config::Shards::Auto,
        defer_after: thudbot::discord::DEFER_AFTER,
        startup_patience: Duration::from_secs(5),
        delivery_interval: Duration::from_millis(50),
        members_intent: false,
        seat_batch: thudbot::discord::SEAT_BATCH,
    };
    let second = thudbot::discord::start(bot.fake.http(), bot.service.clone(), options)
        .await
        .expect("the bot starts again");
    bot.running = Some(second);
    bot.fake
        .wait_until_connected(WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let guild_commands = format!("/applications/{APPLICATION_ID}/guilds/{GUILD_ID}/commands");
    bot.fake
        .wait_for_since(
            mark,
            |r| r.method == "PUT" && r.path == guild_commands,
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(names(bot.fake.commands(None)), ["thud", "thud-admin"]);
    assert!(bot.fake.commands(Some(GUILD_ID)).is_empty());
    bot.finish().await;
}

#[tokio::test]
async fn a_match_in_a_thread_of_a_deleted_channel_pauses() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = crate::discord_delivery::thread_match(&bot, None).await;
    // The moderator deletes #general; its threads go with it, with no THREAD_DELETE.
    bot.fake.delete_channel(GENERAL_CHANNEL).unwrap();
    let paused = crate::discord_delivery::until_match(&bot, thread, |m| m.trouble.is_some()).await;
    assert_eq!(paused.trouble.as_deref(), Some("its channel was deleted"));
    assert!(paused.clock.unwrap().paused_at.is_some());
    bot.finish_expecting(|r| r.error_code() == Some(10003))
        .await;
}

#[tokio::test]
async fn a_thread_a_moderator_closes_twice_stays_closed_and_its_players_are_told() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = crate::discord_delivery::thread_match(&bot, None).await;
    // Archived once: reopened at once.
    let mark = bot.fake.mark();
    bot.fake.archive_thread(thread).unwrap();
    reopened_since(&bot, mark, thread).await;
    assert!(!bot.fake.thread_is_archived(thread));
    // Two hours later, archived again: still a thread in use, reopened again.
    bot.clock.advance(Span::hours(2));
    let mark = bot.fake.mark();
    bot.fake.archive_thread(thread).unwrap();
    reopened_since(&bot, mark, thread).await;

    // Archived again within the hour: a moderator means it. It stays archived, the match is
    // paused, and the players hear of it in the channel the thread belongs to.
    let mark = bot.fake.mark();
    bot.fake.archive_thread(thread).unwrap();
    let told = posted_since(&bot, mark, GENERAL_CHANNEL).await;
    let text = content(&told);
    assert!(
        text.contains("paused") && text.contains("/thud games"),
        "{text}"
    );
    assert_eq!(told.pinged_users(), [ALICE.id, BOB.id]);
    let m = stored_match(&bot, thread).await;
    assert!(m.trouble.is_some() && m.clock.unwrap().paused_at.is_some());
    assert!(bot.fake.thread_is_archived(thread));
    assert!(bot
        .fake
        .requests()
        .into_iter()
        .skip(mark)
        .all(|r| !(r.method == "PATCH" && r.path == format!("/channels/{thread}"))));
    bot.finish().await;
}

#[tokio::test]
async fn a_challenge_whose_answer_failed_keeps_its_buttons_in_the_channel() {
    let bot = start_bot(|_| {}).await;
    bot.fake
        .fail_with_status("POST /interactions/*/*/callback", 1, 500);
    let mark = bot.fake.mark();
    bot.fake
        .run_command(&challenge_bob())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // The challenge reaches the channel through the outbox, with its buttons.
    let posted = posted_since(&bot, mark, GENERAL_CHANNEL).await;
    let ids = custom_ids(&posted);
    assert!(
        ids.iter().any(|id| id.starts_with("thud:accept:"))
            && ids.iter().any(|id| id.starts_with("thud:decline:")),
        "{ids:?}"
    );
    // Bob accepts with the button of the posted message: the match begins.
    let message = snowflake(&posted.response.clone().expect("the message")["id"]).expect("an id");
    let (click, _) = bot.press(BOB, message, "thud:accept:").await;
    let begins = bot.followup(&click).await;
    assert!(content(&begins).contains("begins"), "{}", content(&begins));
    bot.finish_expecting(|r| r.injected).await;
}

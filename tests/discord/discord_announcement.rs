//! A tournament's announcement through serenity against the fake Discord: joins are answered
//! privately and the announcement itself is edited to show how many have joined, and once the
//! tournament starts it says joining is over and loses its Join button; one somebody deleted is
//! posted anew; joins while it is being edited make one more edit, not one each.

use crate::discord_tournament::tournament;
use crate::support::bot::*;
use crate::support::fake_discord::*;

/// Waits for an edit of message `announcement` in the tournament channel, made after `mark`,
/// that says `text`.
async fn edited(bot: &Bot, mark: usize, announcement: u64, text: &str) -> RecordedRequest {
    bot.fake
        .wait_for(
            |r| {
                r.seq >= mark
                    && r.method == "PATCH"
                    && r.path == format!("/channels/{THUD_CHANNEL}/messages/{announcement}")
                    && (200..300).contains(&r.status)
                    && content(r).contains(text)
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// VIMES creates Ankh Cup; returns its announcement once the bot has recorded which message
/// that is (it learns it from the interaction's original response, after answering).
async fn announced_and_recorded(bot: &Bot) -> u64 {
    let (announced, _) = bot
        .command(tournament("create").option("name", "Ankh Cup").by(VIMES))
        .await;
    let announcement = bot.message_id(&announced).await;
    let deadline = tokio::time::Instant::now() + WAIT;
    while bot
        .service
        .tournaments()
        // The first tournament of the test's own database.
        .announcement_of(thudbot::store::TournamentId(1))
        .await
        .unwrap()
        .is_none()
    {
        assert!(tokio::time::Instant::now() < deadline, "never recorded");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    announcement
}

#[tokio::test]
async fn the_announcement_counts_the_field_as_it_changes_and_closes_at_the_start() {
    let bot = start_bot(|o| o.threads = true).await;
    let (announced, created) = bot
        .command(tournament("create").option("name", "Ankh Cup").by(VIMES))
        .await;
    assert!(!created.is_ephemeral(), "{}", created.summary());
    let announcement = bot.message_id(&announced).await;

    let mark = bot.fake.mark();
    let joined = bot.say(tournament("join").by(ALICE)).await;
    assert!(joined.is_ephemeral(), "{}", joined.summary());
    let first = edited(&bot, mark, announcement, "1 player has joined so far").await;
    // While it takes players the Join button stays.
    assert!(
        first.json()["components"]
            .to_string()
            .contains("thud:join:"),
        "{}",
        first.json()
    );

    let mark = bot.fake.mark();
    let (_, pressed) = bot.press(BOB, announcement, "thud:join:").await;
    assert!(
        content(&pressed).contains("joins Ankh Cup"),
        "{}",
        content(&pressed)
    );
    edited(&bot, mark, announcement, "2 players have joined so far").await;

    let mark = bot.fake.mark();
    let left = bot.say(tournament("leave").by(ALICE)).await;
    assert!(left.is_ephemeral(), "{}", left.summary());
    edited(&bot, mark, announcement, "1 player has joined so far").await;

    for user in [ALICE, CAROL, VETINARI] {
        let joined = bot.say(tournament("join").by(user)).await;
        assert!(joined.is_ephemeral(), "{}", joined.summary());
    }
    let mark = bot.fake.mark();
    let started = bot.say(tournament("start").by(VIMES)).await;
    assert!(
        content(&started).contains("Round 1 of Ankh Cup** is paired"),
        "{}",
        content(&started)
    );
    let closed = edited(
        &bot,
        mark,
        announcement,
        "Joining is over: it began with 4 players",
    )
    .await;
    assert_eq!(
        closed.json()["components"],
        serde_json::json!([]),
        "no Join button"
    );

    // Nobody's join was a line of its own in the channel for everyone to see (each was
    // ephemeral, flag 64, seen by the joiner alone).
    let join_lines = bot
        .fake
        .channel_messages(THUD_CHANNEL)
        .iter()
        .filter(|m| {
            m["content"]
                .as_str()
                .is_some_and(|c| c.contains("joins Ankh Cup"))
        })
        .filter(|m| m["flags"].as_u64().unwrap_or(0) & 64 == 0)
        .count();
    assert_eq!(join_lines, 0);
}

#[tokio::test]
async fn a_deleted_announcement_is_posted_anew_at_the_next_join_and_kept_from_then_on() {
    let bot = start_bot(|o| o.threads = true).await;
    let announcement = announced_and_recorded(&bot).await;
    // A moderator deletes the announcement, Join button and all.
    bot.fake.delete_message(announcement).unwrap();

    let mark = bot.fake.mark();
    let joined = bot.say(tournament("join").by(ALICE)).await;
    assert!(joined.is_ephemeral(), "{}", joined.summary());
    let messages = format!("/channels/{THUD_CHANNEL}/messages");
    let anew = bot
        .fake
        .wait_for_since(
            mark,
            |r| {
                r.method == "POST"
                    && r.path == messages
                    && content(r).contains("1 player has joined so far")
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!((200..300).contains(&anew.status), "{}", anew.summary());
    assert!(
        anew.json()["components"].to_string().contains("thud:join:"),
        "the Join button is back: {}",
        anew.json()
    );
    let replacement = snowflake(&anew.response.clone().expect("a message")["id"]).expect("an id");

    // The new message is the announcement now: the Join button on it works, and the next
    // change shows on it; the channel holds that one announcement (a post repeating its
    // nonce, as a join racing the replacement may make, returns it and makes none).
    let mark = bot.fake.mark();
    bot.press(BOB, replacement, "thud:join:").await;
    edited(&bot, mark, replacement, "2 players have joined so far").await;
    let announcements: Vec<u64> = bot
        .fake
        .channel_messages(THUD_CHANNEL)
        .iter()
        .filter(|m| {
            m["content"]
                .as_str()
                .is_some_and(|c| c.contains("Tournament #1: Ankh Cup"))
        })
        .filter_map(|m| snowflake(&m["id"]))
        .collect();
    assert_eq!(announcements, vec![replacement]);
    bot.finish_expecting(|r| r.error_code() == Some(10008))
        .await;
}

#[tokio::test]
async fn joins_while_the_announcement_is_edited_make_one_more_edit_showing_the_latest_field() {
    let bot = start_bot(|o| o.threads = true).await;
    let announcement = announced_and_recorded(&bot).await;
    // Discord makes the first edit wait a second and a half (a 429, waited out inside the
    // request); four players join meanwhile.
    let edit = format!("/channels/{THUD_CHANNEL}/messages/{announcement}");
    bot.fake.rate_limit(
        &format!("PATCH {edit}"),
        1,
        std::time::Duration::from_millis(1500),
    );
    let mark = bot.fake.mark();
    let (a, b, c, d) = tokio::join!(
        bot.say(tournament("join").by(ALICE)),
        bot.say(tournament("join").by(BOB)),
        bot.say(tournament("join").by(CAROL)),
        bot.say(tournament("join").by(VETINARI)),
    );
    for joined in [a, b, c, d] {
        assert!(joined.is_ephemeral(), "{}", joined.summary());
    }
    edited(&bot, mark, announcement, "4 players have joined so far").await;
    // Long enough for any edit still waiting behind the limit to be made.
    tokio::time::sleep(std::time::Duration::from_secs(5)).await;
    // One edit under way, then one more with the field as it was by then: not one a join.
    let edits: Vec<String> = bot
        .fake
        .requests()
        .iter()
        .skip(mark)
        .filter(|r| r.method == "PATCH" && r.path == edit && (200..300).contains(&r.status))
        .map(content)
        .collect();
    assert!(edits.len() <= 2, "{edits:#?}");
    assert!(
        edits
            .last()
            .is_some_and(|e| e.contains("4 players have joined so far")),
        "{edits:#?}"
    );
    bot.finish_expecting(|r| r.injected).await;
}

#[tokio::test]
async fn an_edit_discord_fails_for_the_moment_is_tried_again_and_shows_the_field() {
    let bot = start_bot(|o| o.threads = true).await;
    let announcement = announced_and_recorded(&bot).await;
    let edit = format!("/channels/{THUD_CHANNEL}/messages/{announcement}");
    bot.fake.fail_with_status(&format!("PATCH {edit}"), 1, 500);
    let mark = bot.fake.mark();
    let joined = bot.say(tournament("join").by(ALICE)).await;
    assert!(joined.is_ephemeral(), "{}", joined.summary());
    bot.fake
        .wait_for_since(
            mark,
            |r| r.method == "PATCH" && r.path == edit && r.status == 500,
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // The showing waits out its pause on the bot's clock (moved on until it is over, however
    // long the worker took to record the failure), then shows the field.
    let shown = |r: &RecordedRequest| {
        r.method == "PATCH"
            && r.path == edit
            && (200..300).contains(&r.status)
            && content(r).contains("1 player has joined so far")
    };
    let deadline = tokio::time::Instant::now() + WAIT;
    while !bot.fake.requests().iter().skip(mark).any(shown) {
        assert!(tokio::time::Instant::now() < deadline, "never shown again");
        bot.clock.advance(chrono::Duration::seconds(5));
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    bot.finish_expecting(|r| r.injected).await;
}

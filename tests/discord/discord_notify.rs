//! Turn notices by direct message end to end through serenity: a player who chose `notify:dm`
//! gets their turns and reminders as DMs with the board and a link, the channel message no
//! longer pings them, and when their DMs are closed (50007) the notice falls back to the
//! channel, saying once how to open them.

use crate::discord_computer::computer_move_posted;
use crate::support::bot::*;
use crate::support::fake_discord::*;
use chrono::Duration as Span;

/// Index of each choice of `/thud settings notify:`.
const NOTIFY_DM: i64 = 1;

fn dm_post(r: &RecordedRequest, dm_channel: u64) -> bool {
    r.method == "POST" && r.path == format!("/channels/{dm_channel}/messages")
}

async fn dm_channel_of(bot: &Bot, user: u64) -> u64 {
    let opened = bot
        .fake
        .wait_for(
            |r| {
                r.method == "POST"
                    && r.path == "/users/@me/channels"
                    && r.body
                        .as_ref()
                        .is_some_and(|b| snowflake(&b["recipient_id"]) == Some(user))
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    snowflake(&opened.response.clone().expect("a channel")["id"]).expect("an id")
}

#[tokio::test]
async fn a_player_who_chose_dms_gets_turns_and_reminders_by_dm_and_no_ping() {
    let bot = start_bot(|_| {}).await;
    let saved = bot
        .say(
            SlashCommand::thud("settings")
                .option("notify", NOTIFY_DM)
                .by(BOB),
        )
        .await;
    assert!(saved.is_ephemeral());
    assert!(
        content(&saved).contains("notify **dm**"),
        "{}",
        content(&saved)
    );
    start_match(&bot, GENERAL_CHANNEL).await;

    let (sent, moved) = bot
        .command(SlashCommand::thud("play").option("notation", "dF1-F5"))
        .await;
    let message = bot.message_id(&sent).await;
    assert!(content(&moved).contains("your move"), "{}", content(&moved));
    assert!(
        moved.pinged_users().is_empty(),
        "{:?}",
        moved.pinged_users()
    );

    let dm = dm_channel_of(&bot, BOB.id).await;
    let told = bot
        .fake
        .wait_for(|r| dm_post(r, dm), WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let text = content(&told);
    assert!(text.contains("(dwarfs) plays `dF1-F5`"), "{text}");
    assert!(text.contains("It is your move in match #1"), "{text}");
    // The DM links to the move's own message in the channel.
    assert!(
        text.contains(&format!(
            "(https://discord.com/channels/{GUILD_ID}/{GENERAL_CHANNEL}/{message})"
        )),
        "{text}"
    );
    picture(&told);

    // Half of bob's three days pass: the reminder comes by DM too, and not to the channel.
    let before = bot.fake.requests().len();
    bot.clock.advance(Span::hours(37));
    let reminded = bot
        .fake
        .wait_for_since(
            before,
            |r| dm_post(r, dm) && content(r).contains("A reminder"),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        content(&reminded).contains("half of your time"),
        "{}",
        content(&reminded)
    );
    let channel = format!("/channels/{GENERAL_CHANNEL}/messages");
    assert!(
        !bot.fake.requests()[before..]
            .iter()
            .any(|r| r.method == "POST" && r.path == channel && content(r).contains("reminder")),
        "the reminder was not posted in the channel"
    );
    bot.finish().await;
}

#[tokio::test]
async fn closed_dms_fall_back_to_the_channel_and_say_once_how_to_open_them() {
    let bot = start_bot(|_| {}).await;
    bot.say(
        SlashCommand::thud("settings")
            .option("notify", NOTIFY_DM)
            .by(BOB),
    )
    .await;
    bot.fake.close_dms(BOB.id);
    start_match(&bot, GENERAL_CHANNEL).await;
    let channel = format!("/channels/{GENERAL_CHANNEL}/messages");

    bot.say(SlashCommand::thud("play").option("notation", "dF1-F5"))
        .await;
    bot.fake
        .wait_for(|r| r.error_code() == Some(50007), WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let fallback = bot
        .fake
        .wait_for(
            |r| r.method == "POST" && r.path == channel && content(r).contains("Privacy Settings"),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(fallback.pinged_users(), [BOB.id]);
    // The turn, not the move again: the channel showed the move already.
    assert!(
        content(&fallback).contains(", your move (trolls)")
            && !content(&fallback).contains("dF1-F5"),
        "{}",
        content(&fallback)
    );

    // Told once: the next fallback carries the turn, not the advice again.
    let before = bot.fake.requests().len();
    let bob_moved = bot
        .say(
            SlashCommand::thud("play")
                .option("notation", "TG7-G6")
                .by(BOB),
        )
        .await;
    assert!(
        content(&bob_moved).contains("plays `TG7-G6`"),
        "{}",
        content(&bob_moved)
    );
    bot.say(SlashCommand::thud("play").option("notation", "dG1-G4"))
        .await;
    let again = bot
        .fake
        .wait_for_since(
            before,
            |r| {
                r.method == "POST"
                    && r.path == channel
                    && r.pinged_users() == [BOB.id]
                    && content(r).contains("your move")
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again.pinged_users(), [BOB.id]);
    assert!(
        !content(&again).contains("Privacy Settings"),
        "{}",
        content(&again)
    );
    bot.finish_expecting(|r| r.error_code() == Some(50007))
        .await;
}

#[tokio::test]
async fn a_vacation_taken_through_discord_stops_the_clock_and_tells_the_channel() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, GENERAL_CHANNEL).await;
    let away = bot
        .say(
            SlashCommand::thud("start")
                .group("vacation")
                .option("days", 5i64),
        )
        .await;
    assert!(away.is_ephemeral());
    assert!(
        content(&away).contains("You are on vacation until"),
        "{}",
        content(&away)
    );
    let channel = format!("/channels/{GENERAL_CHANNEL}/messages");
    bot.fake
        .wait_for(
            |r| {
                r.method == "POST"
                    && r.path == channel
                    && content(r).contains("is on vacation until")
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    bot.clock.advance(Span::days(4));
    let claim = bot.say(SlashCommand::thud("claim").by(BOB)).await;
    assert!(claim.is_ephemeral());
    assert!(
        content(&claim).contains("on vacation"),
        "{}",
        content(&claim)
    );
    let back = bot.say(SlashCommand::thud("end").group("vacation")).await;
    assert!(
        content(&back).contains("Welcome back"),
        "{}",
        content(&back)
    );
    bot.finish().await;
}

#[tokio::test]
async fn the_rematch_button_on_a_result_challenges_the_other_player_with_the_roles_swapped() {
    let bot = start_bot(|_| {}).await;
    start_match(&bot, THUD_CHANNEL).await;
    // A move first: resigning before one's first move aborts the match, with no result.
    bot.say(
        SlashCommand::thud("play")
            .option("notation", "dF1-F5")
            .in_channel(THUD_CHANNEL),
    )
    .await;
    let (prompt, _) = bot
        .command(SlashCommand::thud("resign").in_channel(THUD_CHANNEL))
        .await;
    let (confirm, _) = bot
        .press(ALICE, bot.message_id(&prompt).await, "thud:resign:")
        .await;
    let result = bot.followup(&confirm).await;
    assert!(
        custom_ids(&result).iter().any(|id| id == "thud:rematch:1"),
        "{}",
        result.summary()
    );
    let result_id = snowflake(&result.response.clone().expect("a message")["id"]).expect("an id");

    // Carol, who did not play, is refused privately; Bob's press challenges Alice.
    let (_, refused) = bot.press(CAROL, result_id, "thud:rematch:").await;
    assert!(refused.is_ephemeral(), "{}", refused.summary());
    assert!(
        content(&refused).contains("Only the two players"),
        "{}",
        content(&refused)
    );
    let (_, challenge) = bot.press(BOB, result_id, "thud:rematch:").await;
    assert!(!challenge.is_ephemeral(), "{}", challenge.summary());
    let text = content(&challenge);
    assert!(text.contains("challenges you"), "{text}");
    assert!(text.contains("commands the dwarfs in battle 1"), "{text}");
    assert_eq!(challenge.pinged_users(), [ALICE.id]);
    assert!(custom_ids(&challenge)
        .iter()
        .any(|id| id.starts_with("thud:accept:")));
    bot.finish().await;
}

#[tokio::test]
async fn a_dm_about_the_computers_move_links_to_its_message() {
    let bot = start_bot(|_| {}).await;
    bot.say(SlashCommand::thud("settings").option("notify", NOTIFY_DM))
        .await;
    bot.say(
        SlashCommand::thud("challenge")
            .option("opponent", THUDBOT)
            .option("side", 0i64)
            .option("level", 1i64),
    )
    .await;
    bot.say(SlashCommand::thud("play").option("notation", "dF1-F5"))
        .await;
    // The computer's move is posted to the channel by the outbox; its DM follows, linking to
    // that message.
    let answer = computer_move_posted(&bot).await;
    let message = snowflake(&answer.response.clone().expect("the message")["id"]).expect("an id");
    let dm = dm_channel_of(&bot, ALICE.id).await;
    let told = bot
        .fake
        .wait_for(
            |r| dm_post(r, dm) && content(r).contains("(level 1, "),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let text = content(&told);
    assert!(
        text.contains(&format!(
            "(https://discord.com/channels/{GUILD_ID}/{GENERAL_CHANNEL}/{message})"
        )),
        "{text}"
    );
    bot.finish().await;
}

//! Analysis end to end through serenity: refused privately while the match is in play; the
//! Analyse button on the result starts it, a progress message of the bot's own is posted and
//! edited into the report with its graph; `/thud analysis` then answers with the report.

use crate::support::bot::*;
use crate::support::fake_discord::*;

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
    assert!(text.contains("dA7-F7"), "{text}");
    let graph = picture(&report);
    assert_eq!(graph.width(), thudbot::render::graph::WIDTH);

    // Asked again, the analysis is not made again: the report comes at once, in public.
    let again = bot
        .say(
            SlashCommand::thud("analysis")
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

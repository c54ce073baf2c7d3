//! Conditional moves through serenity and the fake Discord: `/thud plan` is answered to the
//! planner alone, the planned answer is posted with the opponent's move as any move is, and a
//! plan racing the opponent's move lands whole or is refused.

use crate::support::bot::*;
use crate::support::fake_discord::*;

/// The line alice (the dwarfs, waiting after dF1-F5) plans: bob's TG7-H6, her dA7-A8.
const LINE: &str = "TG7-H6 dA7-A8";

fn plan_add(line: &str) -> SlashCommand {
    SlashCommand::thud("plan")
        .option("line", line)
        .in_channel(THUD_CHANNEL)
}

/// `/thud play notation:<notation>` in `channel` (by alice unless `.by` says otherwise).
fn play_in(channel: u64, notation: &str) -> SlashCommand {
    SlashCommand::thud("play")
        .option("notation", notation)
        .in_channel(channel)
}

/// Alice plays dF1-F5 in her match in `channel`: bob is to move.
async fn alice_opens(bot: &Bot, channel: u64) {
    let moved = bot.say(play_in(channel, "dF1-F5")).await;
    assert!(!moved.is_ephemeral(), "{}", moved.summary());
}

/// Starts a match in `channel` and plays alice's dF1-F5: bob is to move.
async fn alice_waits(bot: &Bot, channel: u64) {
    start_match(bot, channel).await;
    alice_opens(bot, channel).await;
}

#[tokio::test]
async fn a_plan_is_told_to_the_planner_alone_and_its_answer_is_posted_as_a_move() {
    let bot = start_bot(|_| {}).await;
    alice_waits(&bot, THUD_CHANNEL).await;

    let planned = bot.say(plan_add(LINE)).await;
    assert!(planned.is_ephemeral(), "{}", planned.summary());
    assert!(
        content(&planned).contains("plays `TG7-H6`, you play `dA7-A8`"),
        "{}",
        planned.summary()
    );
    // The opponent asking to plan on their own turn is refused, to them alone.
    let refused = bot.say(plan_add("dF5-F6 TH6-H5").by(BOB)).await;
    assert!(refused.is_ephemeral(), "{}", refused.summary());
    assert!(
        content(&refused).contains("It is your turn"),
        "{}",
        refused.summary()
    );

    let moved = bot.say(play_in(THUD_CHANNEL, "TG7-H6").by(BOB)).await;
    assert!(!moved.is_ephemeral(), "{}", moved.summary());
    let said = content(&moved);
    assert!(said.contains("plays `TG7-H6`"), "{said}");
    assert!(said.contains("plays `dA7-A8`"), "{said}");
    assert_eq!(moved.pinged_users(), [BOB.id], "bob's turn again");
    picture(&moved);

    let shown = bot
        .say(SlashCommand::thud("plan").in_channel(THUD_CHANNEL))
        .await;
    assert!(shown.is_ephemeral(), "{}", shown.summary());
    assert!(
        content(&shown).contains("You have no plan"),
        "{}",
        shown.summary()
    );
    bot.finish().await;
}

/// What the bot answered to `sent`, in time or after deferring (one waiting on the other's
/// lock may be deferred).
async fn answer_text(bot: &Bot, sent: &Dispatched) -> String {
    let first = bot
        .fake
        .response_to(sent, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    match first.interaction_response_type() {
        Some(5) => content(&bot.followup(sent).await),
        _ => content(&first),
    }
}

#[tokio::test]
async fn a_plan_sent_with_the_opponents_move_answers_it_or_is_refused_never_half() {
    let bot = start_bot(|_| {}).await;
    for channel in [THUD_CHANNEL, GENERAL_CHANNEL] {
        alice_waits(&bot, channel).await;
        let plan = bot
            .fake
            .run_command(&plan_add(LINE).in_channel(channel))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let moved = bot
            .fake
            .run_command(&play_in(channel, "TG7-H6").by(BOB))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        let (plan, moved) = (
            answer_text(&bot, &plan).await,
            answer_text(&bot, &moved).await,
        );
        assert!(moved.contains("plays `TG7-H6`"), "{moved}");
        if plan.contains("Your plan") {
            assert!(moved.contains("plays `dA7-A8`"), "{plan} / {moved}");
        } else {
            assert!(plan.contains("It is your turn"), "{plan}");
            assert!(!moved.contains("dA7-A8"), "{moved}");
        }
    }
    bot.finish().await;
}

#[tokio::test]
async fn a_plan_in_a_matchs_thread_is_private_there_and_answers_there() {
    let bot = start_bot(|o| o.threads = true).await;
    let (thread, _) = crate::discord_delivery::thread_match(&bot, None).await;
    alice_opens(&bot, thread).await;
    let planned = bot.say(plan_add(LINE).in_channel(thread)).await;
    assert!(planned.is_ephemeral(), "{}", planned.summary());
    assert!(
        content(&planned).contains("Your plan"),
        "{}",
        planned.summary()
    );
    let moved = bot.say(play_in(thread, "TG7-H6").by(BOB)).await;
    let said = content(&moved);
    assert!(said.contains("plays `dA7-A8`"), "{said}");
    let m = crate::discord_delivery::stored_match(&bot, thread).await;
    let played: Vec<String> = m
        .game
        .current_battle()
        .moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(played, ["dF1-F5", "TG7-H6", "dA7-A8"]);
    bot.finish().await;
}

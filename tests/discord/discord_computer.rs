//! Playing the computer end to end through serenity: `/thud challenge` naming the bot itself
//! starts the match at once, and the computer's moves arrive as messages of their own with the
//! board, pinging the player.

use crate::support::bot::*;
use crate::support::fake_discord::*;

/// The level 1 computer's move, posted to #general by the outbox.
pub(crate) async fn computer_move_posted(bot: &Bot) -> RecordedRequest {
    let path = format!("/channels/{GENERAL_CHANNEL}/messages");
    bot.fake
        .wait_for(
            |r| r.method == "POST" && r.path == path && content(r).contains("(level 1, "),
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test]
async fn challenging_the_bot_starts_a_match_and_it_answers_each_move_with_the_board() {
    let bot = start_bot(|_| {}).await;
    // "side" 0 is dwarfs: the player moves first; "level" 1 is the beginner.
    let start = bot
        .say(
            SlashCommand::thud("challenge")
                .option("opponent", THUDBOT)
                .option("side", 0i64)
                .option("level", 1i64),
        )
        .await;
    assert!(!start.is_ephemeral());
    let text = content(&start);
    assert!(
        text.contains("**Match #1**") && text.contains("level 1"),
        "{text}"
    );
    assert_eq!(start.pinged_users(), [ALICE.id]);
    picture(&start);

    let moved = bot
        .say(SlashCommand::thud("play").option("notation", "dF1-F5"))
        .await;
    let text = content(&moved);
    assert!(text.contains("is thinking"), "{text}");
    assert!(
        moved.pinged_users().is_empty(),
        "{:?}",
        moved.pinged_users()
    );

    let answer = computer_move_posted(&bot).await;
    let text = content(&answer);
    assert!(text.contains("(level 1, trolls) plays `T"), "{text}");
    assert!(text.contains("your move (dwarfs)"), "{text}");
    assert_eq!(answer.pinged_users(), [ALICE.id]);
    picture(&answer);

    // The player's turn again: the next move is taken.
    let again = bot
        .say(SlashCommand::thud("play").option("notation", "dG1-G4"))
        .await;
    assert!(
        content(&again).contains("plays `dG1-G4`"),
        "{}",
        content(&again)
    );
    bot.finish().await;
}

#[tokio::test]
async fn a_level_is_refused_when_challenging_a_person() {
    let bot = start_bot(|_| {}).await;
    let refused = bot
        .say(
            SlashCommand::thud("challenge")
                .option("opponent", BOB)
                .option("level", 2i64),
        )
        .await;
    assert!(refused.is_ephemeral());
    assert!(
        content(&refused).contains("`level` is for a match against the bot"),
        "{}",
        content(&refused)
    );
    bot.finish().await;
}

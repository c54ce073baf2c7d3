//! A small tournament run end to end through serenity against the fake Discord: created by a
//! moderator, joined, started, each pairing played in a thread the bot opens, resigned through
//! `/thud resign`, rounds paired by the clock, the winner announced, the standings picture.

use std::collections::HashMap;

use crate::support::bot::*;
use crate::support::fake_discord::*;
use thudbot::store::{ChannelId, MatchId};

fn tournament(subcommand: &str) -> SlashCommand {
    SlashCommand::new("thud")
        .group("tournament")
        .subcommand(subcommand)
        .in_channel(THUD_CHANNEL)
}

/// The matches of round `round`, waiting until the bot has seated `count` of them.
async fn round_matches(bot: &Bot, round: u32, count: usize) -> Vec<MatchId> {
    let deadline = std::time::Instant::now() + WAIT;
    loop {
        let t = bot
            .service
            .store()
            .latest_tournament_in(ChannelId(THUD_CHANNEL))
            .await
            .expect("the store")
            .expect("a tournament");
        let mut tx = bot.service.store().begin().await.expect("a transaction");
        let games = tx.games(t.id).await.expect("the games");
        tx.rollback().await.expect("rolled back");
        let seated: Vec<MatchId> = games
            .iter()
            .filter(|g| g.round == round)
            .filter_map(|g| g.match_id)
            .collect();
        if seated.len() == count {
            return seated;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "round {round}: {} of {count} games seated",
            seated.len()
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_round_robin_of_four_is_run_through_discord() {
    let bot = start_bot(|o| o.threads = true).await;
    let users: HashMap<u64, TestUser> = [ALICE, BOB, CAROL, VETINARI]
        .into_iter()
        .map(|u| (u.id, u))
        .collect();

    // Only an organiser (Manage Server) creates; the refusal is private. Format 1 is
    // round-robin.
    let refused = bot
        .say(
            tournament("create")
                .option("name", "Ankh Cup")
                .option("format", 1i64)
                .by(CAROL),
        )
        .await;
    assert!(refused.is_ephemeral(), "{}", refused.summary());
    let (announced, created) = bot
        .command(
            tournament("create")
                .option("name", "Ankh Cup")
                .option("format", 1i64)
                .by(VIMES),
        )
        .await;
    assert!(!created.is_ephemeral());
    assert!(
        content(&created).contains("Ankh Cup"),
        "{}",
        content(&created)
    );

    // Two join with the command, two with the announcement's Join button.
    for user in [ALICE, BOB] {
        let joined = bot.say(tournament("join").by(user)).await;
        assert!(!joined.is_ephemeral(), "{}", joined.summary());
    }
    let announcement = bot.message_id(&announced).await;
    for user in [CAROL, VETINARI] {
        let (_, joined) = bot.press(user, announcement, "thud:join:").await;
        assert_eq!(joined.interaction_response_type(), Some(4));
        assert!(
            content(&joined).contains("joins Ankh Cup"),
            "{}",
            content(&joined)
        );
    }
    let twice = bot.say(tournament("join").by(ALICE)).await;
    assert!(twice.is_ephemeral());
    assert!(content(&twice).contains("already in this tournament"));
    let not_yours = bot.say(tournament("start").by(ALICE)).await;
    assert!(not_yours.is_ephemeral());

    let started = bot.say(tournament("start").by(VIMES)).await;
    assert!(
        content(&started).contains("Round 1 of Ankh Cup** is paired"),
        "{}",
        content(&started)
    );

    for round in 1..=3 {
        // The bot opens a thread per game and begins the match there.
        for id in round_matches(&bot, round, 2).await {
            let m = bot
                .service
                .store()
                .load_match(id)
                .await
                .expect("the store")
                .expect("the match");
            let thread = m.channel.0;
            assert_ne!(thread, THUD_CHANNEL, "a thread of its own");
            // The second player resigns in the thread, through /thud resign and its button.
            let loser = users[&m.players[1].0];
            let (prompt, _) = bot
                .command(SlashCommand::thud("resign").in_channel(thread).by(loser))
                .await;
            let (confirm, _) = bot
                .press(loser, bot.message_id(&prompt).await, "thud:resign:")
                .await;
            let result = bot.followup(&confirm).await;
            assert!(content(&result).contains("resign"), "{}", content(&result));
        }
        if round < 3 {
            bot.fake
                .wait_for(
                    |r| {
                        r.method == "POST"
                            && r.path == format!("/channels/{THUD_CHANNEL}/messages")
                            && content(r)
                                .contains(&format!("Round {} of Ankh Cup** is paired", round + 1))
                    },
                    WAIT,
                )
                .await
                .unwrap_or_else(|e| panic!("round {}: {e}", round + 1));
        }
    }
    let last = bot
        .fake
        .wait_for(
            |r| {
                r.method == "POST"
                    && r.path == format!("/channels/{THUD_CHANNEL}/messages")
                    && content(r).contains("**Ankh Cup is over.**")
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("the final announcement: {e}"));
    assert!(content(&last).contains("wins it"), "{}", content(&last));

    let (sent, _) = bot.command(tournament("standings").by(CAROL)).await;
    bot.message_id(&sent).await;
    let reply = bot
        .fake
        .requests()
        .into_iter()
        .rev()
        .find(|r| {
            !r.attachments().is_empty()
                && (r.webhook_token() == Some(sent.token.as_str())
                    || r.interaction_callback()
                        .is_some_and(|(id, _)| id == sent.id))
        })
        .expect("the standings with their picture");
    assert!(
        content(&reply).contains("standings, finished"),
        "{}",
        content(&reply)
    );
    let image = picture(&reply).to_rgb8();
    assert!(image.width() > 400, "{:?}", image.dimensions());
    bot.finish().await;
}

#[tokio::test]
async fn without_threads_a_tournament_is_refused() {
    let bot = start_bot(|o| o.threads = false).await;
    let refused = bot
        .say(tournament("create").option("name", "Ankh Cup").by(VIMES))
        .await;
    assert!(refused.is_ephemeral(), "{}", refused.summary());
    assert!(
        content(&refused).contains("need match threads"),
        "{}",
        content(&refused)
    );
    bot.finish().await;
}
